"""Gris-nese, the readable reference: RULES.md §2 (with §4 and §6) played in plain Python.

This module is written from the rulebook (``docs/RULES.md`` §2, §4, §6) and the
random-stream contract (``docs/random-streams.md``, section Gris-nese),
independently of the fast numba kernel.  Tests replay the kernel against it
move by move, so it follows the contract to the letter and favours plainness
over speed.

A round reads in the order a person plays it::

    cards_in_play -> shuffle_cards -> deal_hands -> signalling
        -> pass_step -> signalling -> pass_step -> ... until somebody holds four of a kind
        -> touch_times -> last_to_touch (or: unclear, replayed)

and a match is rounds until two players remain (:func:`play_match`).

Seats.  ``players`` are indexed by *original* seat ``0 .. n-1``.  The players
still in the game sit in ring order from the lowest original seat; their index
in that list is their *position* ``p_0 … p_{m-1}``, and "left" of ``p_i`` is
``p_{i+1}`` (wrapping round).  Every per-player list of a round (hands, touch
times) is in positions; seats in records (signallers, loser, events) are
original seats.

A *player* is any object with ``name: str``, ``params`` (a float64 array of
8) and ``decide(obs, params, rng) -> int``, the card code to lay to the left.
``obs`` follows :mod:`simulator.games.gris_nese.observation`; it is one
persistent array per player per round, whose MEMORY fields belong to the
strategy.  ``rng`` is the player's DECIDE stream for the deal, keyed by its
original seat: a one-element uint64 array it draws from itself
(``simulator.engine.rng.below_nb``), the same array for all its decisions in the deal.
"""

from __future__ import annotations

import itertools
import operator
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from simulator.engine.cards import N_RANKS, RANKS, name, rank_of
from simulator.engine.reaction import DEFAULT_MEDIAN, DEFAULT_SIGMA, last_to_touch
from simulator.engine.rng import DEAL, DECIDE, REACT, Stream
from simulator.errors import IllegalMove
from simulator.games import illegal as wording
from simulator.games.gris_nese.observation import (
    GROUP_COUNT,
    GROUP_RANKS,
    HAND,
    HAND_SIZE,
    INCOMING,
    MAX_GROUPS,
    MEMORY,
    N_MEMORY,
    N_PLAYERS,
    OBS_SIZE,
    PASSED_GROUP,
    RECEIVED_GROUP,
    SEAT,
    STEPS,
)
from simulator.games.gris_nese.variants import ABANDON_AFTER, MAX_PLAYERS, MIN_PLAYERS, STALL_CAP, Rules

N_SUITS = 4  # RULES.md §2: a rank group is four cards of one rank, suits ♠ ♥ ♦ ♣
WINNERS = 2  # RULES.md §2: when two players remain they are joint winners

Event = tuple[int, int, int]  # (pass step from 0, original seat, card laid to the left)

__all__ = [
    "ABANDON_AFTER",
    "IllegalAction",
    "MatchRecord",
    "Player",
    "RoundRecord",
    "Table",
    "cards_in_play",
    "deal_hands",
    "decide_streams",
    "finish_round",
    "format_match",
    "format_round",
    "four_of_a_kind",
    "group_of",
    "is_unclear",
    "new_table",
    "observe",
    "pass_step",
    "play_from_hands",
    "play_match",
    "play_round",
    "rank_groups",
    "reaction_draws",
    "shuffle_cards",
    "signalling",
    "touch_times",
]


class IllegalAction(IllegalMove):
    """A strategy answered with a card it does not hold (or with no card at all)."""


class Player(Protocol):
    """Anything that can sit at the table: a name, parameters and a decision function."""

    name: str
    params: np.ndarray
    decide: Callable[[np.ndarray, np.ndarray, np.ndarray], int]


# --- records ------------------------------------------------------------------


@dataclass
class RoundRecord:
    """Everything that happened in one deal.

    ``seats``: the original seats in the round, in ring order.  ``groups``: the
    ranks in play (0 = A … 12 = K), in the order the groups joined.  Hands and
    ``times`` are per position (the order of ``seats``).  ``passes`` is the
    number of pass steps completed before the check that found four of a kind
    (the stall cap when ``stalled``).  ``signallers`` are original seats, in
    ring order.  ``loser`` is the original seat that leaves, -1 when the round
    is stalled or replayed.  ``times`` is empty for a stalled round.
    """

    deal: int
    seats: tuple[int, ...]
    groups: tuple[int, ...]
    hands_dealt: tuple[tuple[int, ...], ...]
    events: list[Event]
    passes: int
    stalled: bool
    replayed: bool
    signallers: tuple[int, ...]
    times: tuple[float, ...]
    loser: int
    final_hands: tuple[tuple[int, ...], ...]
    unclear_margin: float = 0.0

    @property
    def counted(self) -> bool:
        """RULES.md §6: a stalled or replayed round does not count."""
        return self.loser >= 0

    @property
    def rank_out(self) -> int:
        """RULES.md §2: the rank group removed after this round (the last added), -1 if none."""
        return self.groups[-1] if self.counted else -1


@dataclass
class MatchRecord:
    """A match: every deal in order, and how it ended.

    ``places`` per original seat: 1 for the two joint winners, else the number
    of players left when it went out (the first out gets ``n``).  An abandoned
    match has no winners and place 0 for every player still in.
    """

    n_players: int
    rounds: list[RoundRecord]
    places: tuple[int, ...]
    winners: tuple[int, ...]
    abandoned: bool
    counted_rounds: int
    out_order: tuple[int, ...] = ()  # original seats in the order they left


# --- the cards ------------------------------------------------------------------


def rank_groups(m: int) -> tuple[int, ...]:
    """RULES.md §2: one rank group per player, A K Q J then 10 9 8 7 as players are added."""
    return tuple(GROUP_RANKS[:m])


def cards_in_play(m: int) -> list[int]:
    """The 4m cards in play, listed group by group, suits ♠ ♥ ♦ ♣ within a group.

    docs/random-streams.md: this is the list ``cards[0 .. 4m-1]`` the deal indexes.
    """
    return [suit * N_RANKS + rank for rank in rank_groups(m) for suit in range(N_SUITS)]


def group_of(card: int) -> int:
    """The card's rank group, numbered in joining order (0 = A, 1 = K, …)."""
    return GROUP_RANKS.index(rank_of(card))


def four_of_a_kind(hand: Sequence[int]) -> bool:
    """RULES.md §2: four cards of one rank (suits do not matter)."""
    return len(hand) == HAND_SIZE and len({rank_of(c) for c in hand}) == 1


# --- the deal ---------------------------------------------------------------------


def shuffle_cards(seed: int, game: int, deal: int, m: int) -> list[int]:
    """docs/random-streams.md: ``perm = shuffled(4m)`` from the DEAL stream ``(seed, game, 1, deal, 0)``."""
    return Stream(seed, game, DEAL, deal).shuffled(HAND_SIZE * m)


def deal_hands(perm: Sequence[int], m: int) -> list[list[int]]:
    """Deal all the cards in play, four each: ``cards[perm[k]]`` goes to position ``k mod m``."""
    cards = cards_in_play(m)
    hands: list[list[int]] = [[] for _ in range(m)]
    for k, index in enumerate(perm):
        hands[k % m].append(cards[index])  # RULES.md §2: deal all of them, four cards each
    return [sorted(h) for h in hands]


def decide_streams(seed: int, game: int, deal: int, seats: Sequence[int]) -> list[np.ndarray]:
    """Each position's DECIDE stream for the deal, keyed by its original seat."""
    # docs/random-streams.md: DECIDE is keyed by (seed, game, 2, deal, original seat)
    return [Stream(seed, game, DECIDE, deal, seat).as_array() for seat in seats]


# --- the table ----------------------------------------------------------------------


@dataclass
class Table:
    """The state of one round.

    Per position: the hand, the persistent observation array, the card that
    arrived at the last step (-1 before the first), and counts by rank group
    of the cards received and passed this round.
    """

    rules: Rules
    seats: list[int]
    hands: list[list[int]]
    obs: list[np.ndarray]
    incoming: list[int]
    received: list[list[int]]
    passed: list[list[int]]
    steps: int = 0  # pass steps completed
    events: list[Event] = field(default_factory=list)

    @property
    def m(self) -> int:
        return len(self.seats)


def new_table(rules: Rules, seats: Sequence[int], hands: Sequence[Sequence[int]]) -> Table:
    """A round about to start from ``hands`` (per position, ring order of ``seats``)."""
    m = len(seats)
    if not MIN_PLAYERS <= m <= MAX_PLAYERS:
        raise ValueError(f"a Gris-nese round needs 3 to 8 players, got {m}")
    if len(hands) != m or any(len(h) != HAND_SIZE for h in hands):
        raise ValueError(f"{m} hands of four cards are needed")
    if sorted(c for h in hands for c in h) != sorted(cards_in_play(m)):
        # RULES.md §2: all the cards in play are dealt, and no others
        ranks = " ".join(RANKS[r] for r in rank_groups(m))
        raise ValueError(f"the hands must hold exactly the {4 * m} cards of the ranks {ranks}")
    obs = []
    for _ in range(m):
        o = np.zeros(OBS_SIZE, dtype=np.int64)
        o[MEMORY : MEMORY + N_MEMORY] = -1  # the strategy's own fields start at -1 each deal
        obs.append(o)
    return Table(
        rules=rules,
        seats=list(seats),
        hands=[sorted(h) for h in hands],
        obs=obs,
        incoming=[-1] * m,
        received=[[0] * MAX_GROUPS for _ in range(m)],
        passed=[[0] * MAX_GROUPS for _ in range(m)],
    )


def left_of(i: int, m: int) -> int:
    """RULES.md §2: cards go to the left, the next player round the ring."""
    return (i + 1) % m


def signalling(table: Table) -> list[bool]:
    """RULES.md §2: at a check, every player holding four of a kind signals (per position)."""
    return [four_of_a_kind(h) for h in table.hands]


# --- what a player sees, and what it answers ----------------------------------------


def observe(table: Table, i: int) -> np.ndarray:
    """Refresh position ``i``'s observation (every field but MEMORY) and return it."""
    obs = table.obs[i]
    hand = sorted(table.hands[i])
    counts = Counter(group_of(c) for c in hand)
    obs[SEAT] = table.seats[i]
    obs[N_PLAYERS] = table.m
    obs[STEPS] = table.steps
    obs[HAND : HAND + HAND_SIZE] = hand
    for g in range(MAX_GROUPS):
        obs[GROUP_COUNT + g] = counts[g]
        obs[RECEIVED_GROUP + g] = table.received[i][g]
        obs[PASSED_GROUP + g] = table.passed[i][g]
    obs[INCOMING] = table.incoming[i]
    return obs


def as_card(value: object) -> int | None:
    """The answer as an int, or None when it is not an integer at all."""
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def choose_card(table: Table, i: int, player: Player, rng: np.ndarray) -> int:
    """Ask position ``i`` which card it lays to the left; it must be one it holds."""
    value = player.decide(observe(table, i), player.params, rng)
    card = as_card(value)
    hand = table.hands[i]
    if card is None or card not in hand:
        card_name = name(card) if card is not None and 0 <= card < 52 else None
        when = f"pass step {table.steps + 1} (STEPS={table.steps})"
        raise IllegalAction(  # the wording is shared with runs (simulator/games/illegal.py)
            wording.not_held(
                player.name,
                table.seats[i],
                value,
                card_name,
                "choosing a card to lay down",
                when,
                [name(c) for c in sorted(hand)],
            )
        )
    return card


def pass_step(table: Table, players: Sequence[Player], rngs: Sequence[np.ndarray]) -> list[Event]:
    """One pass step: everybody picks a card at once, lays it to the left, picks up from the right.

    ``players`` are indexed by original seat, ``rngs`` by position.
    """
    # RULES.md §2: every player picks on the hand it holds before the step (simultaneous);
    # they are asked in ring order only because each draws from its own stream.
    laid = [choose_card(table, i, players[seat], rngs[i]) for i, seat in enumerate(table.seats)]
    events = [(table.steps, seat, card) for seat, card in zip(table.seats, laid, strict=True)]
    for i, card in enumerate(laid):
        table.hands[i].remove(card)  # RULES.md §2: lay one card face down to the left ...
    for i, card in enumerate(laid):
        left = left_of(i, table.m)
        table.hands[left].append(card)  # ... then every player picks up the card from the right
        table.hands[left].sort()
        table.incoming[left] = card
        table.received[left][group_of(card)] += 1
        table.passed[i][group_of(card)] += 1
    table.steps += 1
    table.events.extend(events)
    return events


# --- the nose (RULES.md §4) ---------------------------------------------------------


def reaction_draws(
    seed: int, game: int, deal: int, seats: Sequence[int], profiles: Sequence[tuple[float, float]]
) -> list[float]:
    """One log-normal draw per remaining player, from the REACT stream of its original seat."""
    # docs/random-streams.md: REACT is keyed by (seed, game, 3, deal, original seat)
    return [Stream(seed, game, REACT, deal, seat).lognormal(*profiles[seat]) for seat in seats]


def touch_times(draws: Sequence[float], signals: Sequence[bool]) -> list[float]:
    """RULES.md §4: a signaller touches at its own time S_i; the others at min S_j + R_i."""
    first = min(d for d, sig in zip(draws, signals, strict=True) if sig)
    return [d if sig else first + d for d, sig in zip(draws, signals, strict=True)]


def is_unclear(times: Sequence[float], margin: float) -> bool:
    """RULES.md §2 house rule: the two latest touches differ by less than ``unclear_margin``."""
    latest, second = sorted(times, reverse=True)[:2]
    return latest - second < margin


# --- a round ------------------------------------------------------------------------


def check_table(players: Sequence[Player], seats: Sequence[int] | None) -> list[int]:
    n = len(players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise ValueError(f"Gris-nese is for 3 to 8 players, got {n}")
    ring = list(range(n)) if seats is None else [int(s) for s in seats]
    if any(not 0 <= s < n for s in ring) or any(a >= b for a, b in itertools.pairwise(ring)):
        raise ValueError(f"seats must be distinct seats of 0..{n - 1} in ring order (ascending), got {ring}")
    if len(ring) < MIN_PLAYERS:
        raise ValueError(f"a round needs at least 3 players; {len(ring)} remaining are joint winners")
    return ring


def check_profiles(profiles: Sequence[tuple[float, float]] | None, n: int) -> list[tuple[float, float]]:
    if profiles is None:
        return [(DEFAULT_MEDIAN, DEFAULT_SIGMA)] * n  # RULES.md §4: the same defaults for everyone
    if len(profiles) != n:
        raise ValueError(f"one reaction profile per seat is needed: {n}, got {len(profiles)}")
    return [(float(m), float(s)) for m, s in profiles]


def finish_round(
    table: Table,
    players: Sequence[Player],
    *,
    seed: int,
    game: int,
    deal: int,
    profiles: Sequence[tuple[float, float]],
    stall_cap: int = STALL_CAP,
) -> RoundRecord:
    """Play ``table`` from where it stands to the end of the round."""
    hands_dealt = tuple(tuple(sorted(h)) for h in table.hands)
    rngs = decide_streams(seed, game, deal, table.seats)
    # RULES.md §2: hands are checked after the deal and after every pass step
    signals = signalling(table)
    while not any(signals):
        if table.steps >= stall_cap:
            break  # RULES.md §2: no signal after the cap of pass steps: stalled
        pass_step(table, players, rngs)
        signals = signalling(table)
    stalled = not any(signals)
    times: tuple[float, ...] = ()
    loser, replayed = -1, False
    if not stalled:
        draws = reaction_draws(seed, game, deal, table.seats, profiles)
        times = tuple(touch_times(draws, signals))
        if is_unclear(times, table.rules.unclear_margin):
            replayed = True  # RULES.md §2 house rule: nobody can tell who was last; no elimination
        else:
            # RULES.md §2, §4: the last to touch the nose loses and leaves (exact ties: lowest position)
            loser = table.seats[last_to_touch(times)]
    return RoundRecord(
        deal=deal,
        seats=tuple(table.seats),
        groups=rank_groups(table.m),
        hands_dealt=hands_dealt,
        events=list(table.events),
        passes=table.steps,
        stalled=stalled,
        replayed=replayed,
        signallers=tuple(s for s, sig in zip(table.seats, signals, strict=True) if sig),
        times=times,
        loser=loser,
        final_hands=tuple(tuple(sorted(h)) for h in table.hands),
        unclear_margin=float(table.rules.unclear_margin),
    )


def play_from_hands(
    rules: Rules,
    players: Sequence[Player],
    hands: Sequence[Sequence[int]],
    *,
    seed: int,
    game: int,
    deal: int = 0,
    seats: Sequence[int] | None = None,
    profiles: Sequence[tuple[float, float]] | None = None,
    stall_cap: int = STALL_CAP,
) -> RoundRecord:
    """Play a round from given ``hands`` (per position of ``seats``) instead of a shuffle.

    The decisions and reactions still draw from the streams of ``(seed, game, deal)``.
    """
    ring = check_table(players, seats)
    table = new_table(rules, ring, hands)
    return finish_round(
        table,
        players,
        seed=seed,
        game=game,
        deal=deal,
        profiles=check_profiles(profiles, len(players)),
        stall_cap=stall_cap,
    )


def play_round(
    rules: Rules,
    players: Sequence[Player],
    *,
    seed: int,
    game: int,
    deal: int = 0,
    seats: Sequence[int] | None = None,
    profiles: Sequence[tuple[float, float]] | None = None,
    stall_cap: int = STALL_CAP,
) -> RoundRecord:
    """Play one deal: shuffle the cards in play, deal, pass until four of a kind, the nose.

    ``players`` and ``profiles`` are indexed by original seat; ``seats`` are the
    original seats still in the game (None: all).  ``stall_cap`` is RULES.md's
    10,000 pass steps; tests may lower it.
    """
    ring = check_table(players, seats)
    m = len(ring)
    hands = deal_hands(shuffle_cards(seed, game, deal, m), m)
    return play_from_hands(
        rules,
        players,
        hands,
        seed=seed,
        game=game,
        deal=deal,
        seats=ring,
        profiles=profiles,
        stall_cap=stall_cap,
    )


# --- a match ------------------------------------------------------------------------


def play_match(
    rules: Rules,
    players: Sequence[Player],
    *,
    seed: int,
    game: int,
    profiles: Sequence[tuple[float, float]] | None = None,
    stall_cap: int = STALL_CAP,
) -> MatchRecord:
    """Rounds until two players remain; each counted round's loser leaves.

    ``deal`` counts every deal of the match, stalled and replayed ones included.
    """
    n = len(players)
    check_table(players, None)
    profs = check_profiles(profiles, n)
    seats = list(range(n))
    places = [0] * n
    out: list[int] = []
    rounds: list[RoundRecord] = []
    in_a_row = 0
    abandoned = False
    while len(seats) > WINNERS:  # RULES.md §2: when two players remain they are joint winners
        # RULES.md §2: the groups in play follow the number left, so the last group added goes
        rec = play_round(
            rules,
            players,
            seed=seed,
            game=game,
            deal=len(rounds),
            seats=seats,
            profiles=profs,
            stall_cap=stall_cap,
        )
        rounds.append(rec)
        if not rec.counted:
            # RULES.md §6: a stalled or replayed round is re-dealt and not counted ...
            in_a_row += 1
            if in_a_row >= ABANDON_AFTER:
                abandoned = True  # ... and 100 of them in a row abandon the match
                break
            continue
        in_a_row = 0
        places[rec.loser] = len(seats)  # the first out gets place n, the next n - 1, …
        out.append(rec.loser)
        seats.remove(rec.loser)  # RULES.md §2: the others keep their order round the ring
    winners: tuple[int, ...] = ()
    if not abandoned:
        winners = tuple(seats)
        for s in winners:
            places[s] = 1
    return MatchRecord(
        n_players=n,
        rounds=rounds,
        places=tuple(places),
        winners=winners,
        abandoned=abandoned,
        counted_rounds=len(out),
        out_order=tuple(out),
    )


# --- traces --------------------------------------------------------------------------


def _who(seat: int, names: Sequence[str] | None) -> str:
    return f"seat {seat}" if names is None else f"seat {seat} ({names[seat]})"


def _hand(cards: Sequence[int]) -> str:
    return " ".join(name(c) for c in sorted(cards))


_PLURALS = {"A": "aces", "K": "kings", "Q": "queens", "J": "jacks", "10": "tens"}
_PLURALS |= {"9": "nines", "8": "eights", "7": "sevens"}


def _plural(rank: int) -> str:
    return _PLURALS[RANKS[rank]]


def format_round(record: RoundRecord, *, names: Sequence[str] | None = None) -> str:
    """A step-by-step trace of one deal, for people (``names`` per original seat, optional)."""
    seats, m = record.seats, len(record.seats)
    ranks = " ".join(RANKS[r] for r in record.groups)
    lines = [
        f"Deal {record.deal}: {m} players in ring order {', '.join(str(s) for s in seats)}; "
        f"ranks in play {ranks} ({4 * m} cards), four each."
    ]
    for seat, hand in zip(seats, record.hands_dealt, strict=True):
        lines.append(f"  {_who(seat, names)}: {_hand(hand)}")
    hands = [list(h) for h in record.hands_dealt]
    if record.passes == 0 and not record.stalled:
        lines.append("Four of a kind dealt: no passing.")
    for step in range(record.passes):
        laid = record.events[step * m : (step + 1) * m]
        moves = ", ".join(f"{_who(s, names)} lays {name(c)}" for _, s, c in laid)  # s: original seat
        lines.append(f"Pass step {step + 1} (all at once, to the left): {moves}")
        for i, (_, _, card) in enumerate(laid):
            hands[i].remove(card)
        for i, (_, _, card) in enumerate(laid):
            hands[(i + 1) % m].append(card)
        lines.append(
            "  hands: " + " | ".join(f"seat {s}: {_hand(h)}" for s, h in zip(seats, hands, strict=True))
        )
    if record.stalled:
        lines.append(
            f"Stalled: no four of a kind after {record.passes} pass steps; nobody leaves, the deal is redone."
        )
        return "\n".join(lines)
    when = "at the deal" if record.passes == 0 else f"after pass step {record.passes}"
    sig = set(record.signallers)
    if len(sig) == m:
        lines.append(f"Signal {when}: everybody holds four of a kind and touches the nose at once.")
    else:
        who = ", ".join(
            f"{_who(s, names)} (four {_plural(rank_of(h[0]))})"
            for s, h in zip(seats, record.final_hands, strict=True)
            if s in sig
        )
        lines.append(f"Signal {when}: {who} touch{'es' if len(sig) == 1 else ''} the nose.")
    first = min(t for s, t in zip(seats, record.times, strict=True) if s in sig)
    lines.append("Touch times (seconds after the hands became complete):")
    for s, t in zip(seats, record.times, strict=True):
        how = "signalled" if s in sig else f"followed the first touch: {first:.3f} + {t - first:.3f}"
        lines.append(f"  {_who(s, names)}: {t:.3f} s ({how})")
    latest, second = sorted(record.times, reverse=True)[:2]
    if record.replayed:
        lines.append(
            f"Unclear: the two latest touches differ by {latest - second:.3f} s, less than "
            f"unclear_margin {record.unclear_margin:g} s; the round is replayed, nobody leaves."
        )
        return "\n".join(lines)
    lines.append(f"{_who(record.loser, names)} touches last ({latest:.3f} s) and leaves the game.")
    if m - 1 > WINNERS:
        lines.append(f"The {_plural(record.rank_out)} go out of play; {m - 1} players go on.")
    else:
        rest = [s for s in seats if s != record.loser]
        lines.append(f"Two players remain: {' and '.join(_who(s, names) for s in rest)} win together.")
    return "\n".join(lines)


def format_match(record: MatchRecord, *, names: Sequence[str] | None = None) -> str:
    """A deal-by-deal trace of a match, each deal step by step, then the places."""
    n = record.n_players
    lines = [f"Match: {n} players; each round's last to touch the nose leaves, until two remain."]
    counted = 0
    for rnd in record.rounds:
        lines.append("")
        if rnd.counted:
            counted += 1
            head = f"=== Round {counted} (deal {rnd.deal}) ==="
        else:
            why = "stalled" if rnd.stalled else "replayed"
            head = f"=== Deal {rnd.deal}: {why}, not counted ==="
        lines.append(head)
        lines.append(format_round(rnd, names=names))
    lines.append("")
    if record.abandoned:
        lines.append(
            f"Abandoned: {ABANDON_AFTER} stalled or replayed rounds in a row after "
            f"{record.counted_rounds} counted rounds; no winners."
        )
        return "\n".join(lines)
    lines.append(f"Match over after {record.counted_rounds} counted rounds ({len(record.rounds)} deals).")
    for s in record.out_order:
        lines.append(f"  place {record.places[s]}: {_who(s, names)}")
    lines.append(f"  place 1 (joint winners): {' and '.join(_who(s, names) for s in record.winners)}")
    return "\n".join(lines)
