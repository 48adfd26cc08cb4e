"""What the two Gris games share at the table: your hand, the card prompt, the advisor
that plays along in your seat, the timed signal (RULES.md §4), and the match you sit
down to with the advisor's agreement after it.

The advisor is the stronger shipped strategy.  It is asked at each of your decisions on
your own observation, with its own copy of the strategy's memory fields and of your
seat's decision stream, as if it had been in your seat with your hands so far; what it
would have passed is kept next to what you passed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from simulator.engine.cards import RANKS, name
from simulator.engine.formatting import plural
from simulator.engine.rng import REACT, Stream
from simulator.tabletop.console import Seat, choose
from simulator.tabletop.outcome import Outcome, Reactions

if TYPE_CHECKING:
    from simulator.running.setup import Setup

HUMAN = 0  # your seat; the bots fill the others
SUIT_LETTERS = "shdc"  # ♠ ♥ ♦ ♣ typed as s h d c
TIMING_KEY = 0x7A11  # the signal's timing stream: never one of the game's streams


def card_options(hand: Sequence[int]) -> dict[str, int]:
    """Every way to name a card of ``hand``: its place 1-n, ``♥10``, ``h10`` or ``10h``."""
    options: dict[str, int] = {}
    for i, c in enumerate(hand):
        rank = RANKS[c % 13].lower()
        letter = SUIT_LETTERS[c // 13]
        for key in (str(i + 1), name(c).lower(), letter + rank, rank + letter):
            options[key] = c
    return options


def hand_text(hand: Sequence[int], incoming: int = -1) -> str:
    """The hand sorted by suit, numbered for the prompt, the card just received marked."""
    return "  ".join(f"[{i + 1}] {name(c)}{'*' if c == incoming else ''}" for i, c in enumerate(hand))


def ask_card(seat: Seat, hand: Sequence[int], verb: str) -> int:
    """Ask which card of ``hand`` to pass until the answer names one of them."""
    n = len(hand)
    return choose(
        seat,
        f"{verb} which card? [1-{n}] or its name (h10, qs, ...): ",
        card_options(hand),
        f"a number 1 to {n} or a card you hold ({' '.join(name(c) for c in hand)})",
    )


@dataclass
class Shadow:
    """The advisor in your seat: its own observation memory and decision stream."""

    advisor: object
    memory: slice
    obs: np.ndarray | None = None
    rng: np.ndarray | None = None

    def begin(self, rng: np.ndarray) -> None:
        """A new deal: fresh memory (taken from your first observation) and stream."""
        self.obs, self.rng = None, rng.copy()

    def choice(self, obs: np.ndarray) -> int:
        if self.obs is None:
            self.obs = obs.copy()
        keep = self.obs[self.memory].copy()
        self.obs[:] = obs
        self.obs[self.memory] = keep
        return int(self.advisor.decide(self.obs, self.advisor.params, self.rng))


@dataclass(frozen=True)
class Pass:
    """One of your passes: the round, your hand, what you passed and what the advisor would."""

    round: int
    number: int
    hand: tuple[int, ...]
    choice: int
    advised: int


def ask_beside_advisor(
    seat: Seat,
    shadow: Shadow,
    passes: list[Pass],
    round: int,
    hand: Sequence[int],
    obs: np.ndarray,
    verb: str,
) -> int:
    """Your card for ``obs``, asked (:func:`ask_card`) and kept in ``passes`` beside the
    card the advisor chooses on the same observation; ``round`` numbers your passes."""
    advised = shadow.choice(obs)
    choice = ask_card(seat, hand, verb)
    number = 1 + sum(p.round == round for p in passes)
    passes.append(Pass(round, number, tuple(hand), choice, advised))
    return choice


def timing(seed: int, game: int, low: float, high: float) -> Callable[[], float]:
    """The waits before a signal is shown: uniform in [low, high] seconds, from a stream of
    their own, so the timing never changes a deal or a decision."""
    gen = np.random.default_rng([TIMING_KEY, seed & (2**63 - 1), game])
    return lambda: float(gen.uniform(low, high))


def touch_times(
    seed: int, game: int, deal: int, seats: Sequence[int], flags: Sequence[bool],
    profiles: Sequence[tuple[float, float]], yours: float | None,
) -> list[float]:  # fmt: skip
    """RULES.md §4 with your measured time: everyone else's is drawn from its REACT stream
    as in a run; yours (``yours``, seconds, None when you are out) replaces your draw.

    ``seats`` are the original seats in the round (positions), ``flags`` who signalled."""
    draws = [Stream(seed, game, REACT, deal, s).lognormal(*profiles[s]) for s in seats]
    if yours is not None:
        draws[list(seats).index(HUMAN)] = yours
    first = min(d for d, f in zip(draws, flags, strict=True) if f)
    return [d if f else first + d for d, f in zip(draws, flags, strict=True)]


def react(seat: Seat, reactions: Reactions, own: bool, signal: str, waits: Callable[[], float]) -> float:
    """Your touch: at once when your own hand is complete, else after the wait for the first
    signal; the measured seconds are kept."""
    if own:
        seconds = seat.react(signal, lambda: 0.0)
    else:
        seconds = seat.react(signal, waits)
    reactions.add(seconds, "own" if own else "follow")
    return seconds


def times_lines(
    times: Sequence[float], seats: Sequence[int], flags: Sequence[bool], names: Sequence[str]
) -> list[str]:
    """The touches in order, the latest last (yours measured, the others drawn)."""
    order = sorted(range(len(seats)), key=lambda i: (times[i], i))
    lines = []
    for i in order:
        how = "signalled" if flags[i] else "followed the first signal"
        whose = "measured" if seats[i] == HUMAN else "drawn"
        lines.append(f"   {times[i]:7.3f} s  {names[seats[i]]} ({how}; {whose})")
    return lines


def agreement_lines(passes: Sequence[Pass], advisor: str, verb: str, noun: str = "pass") -> list[str]:
    """How often your card was the advisor's, with a 95% interval, and where they differed."""
    from simulator.engine.stats import rate_ci

    n = len(passes)
    if n == 0:
        return ["You made no decisions."]
    same = sum(p.choice == p.advised for p in passes)
    rate, (lo, hi) = rate_ci(same, n)
    lines = [
        f"{advisor} would have {verb} the card you {verb} in {same} of your {plural(n, 'decisions')} "
        f"({100 * rate:.0f}% [{100 * lo:.0f}, {100 * hi:.0f}])."
    ]
    for p in [p for p in passes if p.choice != p.advised][:30]:
        lines.append(
            f"   round {p.round + 1}, your {noun} {p.number}: hand {' '.join(name(c) for c in p.hand)}; "
            f"you {verb} {name(p.choice)}, {advisor} would have {verb} {name(p.advised)}"
        )
    left = sum(p.choice != p.advised for p in passes) - 30
    if left > 0:
        lines.append(f"   ... and {left} more")
    lines.append(
        "   (What a different card costs is not estimated in the Gris games: it turns on every "
        "hand at the table and on the reactions, which a replay from your view cannot pin down.)"
    )
    return lines


def seat_names(players: Sequence) -> list[str]:
    """How the seats are named at the table: you, then ``seat 2 (greedy)`` and so on."""
    return ["you"] + [f"seat {s} ({p.family.name})" for s, p in enumerate(players) if s != HUMAN]


@dataclass(frozen=True)
class MatchContext:
    """What every round of a match at the table shares."""

    seat: Seat
    rules: Any  # the game's Rules
    players: Sequence
    names: Sequence[str]
    seed: int
    game: int
    profiles: Sequence[tuple[float, float]]
    reactions: Reactions
    waits: Callable[[], float]
    stall_cap: int


def sit_match(
    seat: Seat,
    setup: Setup,
    you: Callable[[Seat, Shadow], Any],
    memory: slice,
    play_match: Callable[[MatchContext], Any],
    stall_cap: int,
    *,
    index: int,
    wait: tuple[float, float],
    verb: str,
    noun: str = "pass",
) -> Outcome:
    """A match at the table for ``setup``, then how often the advisor would have chosen your card.

    Parameters
    ----------
    seat
        Your console.
    setup
        The run: seat 0 holds the advisor, the other seats the bots.
    you
        Makes your seat's player from the console and the advisor's shadow; it keeps your
        decisions in ``passes``.
    memory
        The memory fields of the game's observation (the advisor's own copy).
    play_match
        The game's match at the table.
    stall_cap
        Passes (pass steps) after which a round is stalled.
    index
        The match's game index in the run.
    wait
        The least and most seconds before a signal is shown.
    verb, noun
        Your decision in words for the agreement lines (``"passed"``, ``"pass"``).

    Returns
    -------
    Outcome
        The match, your decisions beside the advisor's and your reactions.
    """
    advisor, bots = setup.players[HUMAN], list(setup.players[1:])
    human = you(seat, Shadow(advisor, memory))
    ctx = MatchContext(
        seat, setup.table.rules, [human, *bots], seat_names(setup.players), setup.seed, index,
        setup.table.reaction, Reactions(), timing(setup.seed, index, *wait), stall_cap,
    )  # fmt: skip
    match = play_match(ctx)
    seat.show("")
    for line in agreement_lines(human.passes, advisor.family.name, verb, noun):
        seat.show(line)
    return Outcome(setup.game.name, setup.seed, match, advisor.spec, human.passes, ctx.reactions)
