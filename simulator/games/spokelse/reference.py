"""Spøkelse (Ghost), the readable reference: RULES.md §3 played in plain Python.

This module is written from the rulebook (``docs/RULES.md`` §3) and the
random-stream contract (``docs/random-streams.md``), independently of the fast
numba kernel.  Tests replay the kernel against it move by move, so it follows
the contract to the letter and favours plainness over speed.

A round reads in the order a person plays it::

    shuffle_deck -> deal_cards -> play_turn ... until round_over -> score_half

A *player* is any object with ``name: str``, ``params`` (a float64 array) and
``decide(obs, params, rng) -> int``: it is asked twice per turn, first for a
:class:`Source` (SOURCE phase), then for a :class:`Place` (PLACE phase), with an
observation laid out as in :mod:`simulator.games.spokelse.observation`.  Its
``rng`` is its seat's DECIDE stream for the deal, a one-element uint64 array
it draws from itself (``simulator.engine.rng.below_nb``).

Numbering: seats are 0 and 1; ``Turn.turn`` counts from 0 and equals the
``obs[TURN]`` the player saw (the number of turns finished before it).
"""

from __future__ import annotations

import operator
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from simulator.engine.cards import N_CARDS, N_RANKS, N_SUITS, name, rank_of
from simulator.engine.rng import DEAL, DEALER, DECIDE, Stream
from simulator.errors import IllegalMove
from simulator.games.spokelse import illegal as wording
from simulator.games.spokelse.observation import (
    DISCARD_TOP,
    DISCARD_VALUE,
    FROM_DISCARD,
    HAND,
    HAND_VALUE,
    HIGH,
    HIGH_SLOT,
    MY_TOTAL,
    OBS_SIZE,
    OPP_SLOT,
    OPP_TOTAL,
    PHASE,
    PLACE,
    SEAT,
    SLOT,
    SLOT_VALUE,
    SOURCE,
    STOCK_LEFT,
    TARGET,
    TURN,
    UNKNOWN_SLOT,
    UNSEEN,
    VALUE,
    Place,
    Source,
)
from simulator.games.spokelse.variants import N_SLOTS, TURN_CAP, Rules

N_SEATS = 2
CARDS_PER_PLAYER = 5  # RULES.md §3: five cards to each, one of them the ghost
LOOKED_AT = (0, 1)  # RULES.md §3: each player looks at two slots; the engine fixes slots 0 and 1

__all__ = [
    "IllegalAction",
    "MatchRecord",
    "Player",
    "RoundRecord",
    "Table",
    "Turn",
    "deal_cards",
    "decide_streams",
    "format_match",
    "format_round",
    "play_match",
    "play_round",
    "play_turn",
    "round_over",
    "score_half",
    "shuffle_deck",
]


class IllegalAction(IllegalMove):
    """A strategy answered with an action the rules do not allow."""


class Player(Protocol):
    """Anything that can sit at the table: a name, parameters and a decision function."""

    name: str
    params: np.ndarray
    decide: Callable[[np.ndarray, np.ndarray, np.ndarray], int]


# --- records ------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """One turn as it was played.

    ``turn`` counts from 0 (turns finished before this one); ``source`` is a
    :class:`Source`, ``place`` a :class:`Place`; ``taken`` is the card taken;
    ``discarded`` the card that went face up on the discard pile (the taken
    card itself when ``place == Place.DISCARD``, else the card swapped out).
    """

    turn: int
    seat: int
    source: int
    taken: int
    place: int
    discarded: int


@dataclass
class RoundRecord:
    """Everything that happened in one round; tuples are indexed by seat."""

    dealer: int
    ghosts: tuple[int, int]
    initial_slots: tuple[tuple[int, ...], tuple[int, ...]]
    final_slots: tuple[tuple[int, ...], tuple[int, ...]]
    initial_discard: int
    scores_half: tuple[int, int]
    capped: bool
    turns: list[Turn]


@dataclass
class MatchRecord:
    """A match: its rounds in order, the final totals, and the loser (-1 for a draw)."""

    first_dealer: int
    rounds: list[RoundRecord]
    totals_half: tuple[int, int]
    loser: int


# --- the table ----------------------------------------------------------------


@dataclass
class Table:
    """The state of one round: where every card lies and who knows what.

    Every one of the 52 cards is in exactly one place: a ghost, a slot, the
    stock or the discard pile (a card in a player's hand is there only in the
    middle of :func:`play_turn`).
    """

    rules: Rules
    dealer: int
    ghosts: list[int]  # ghosts[seat]: face down, never seen, never moved
    slots: list[list[int]]  # slots[seat][i]: the row, face down
    stock: deque[int]  # face down; stock[0] is the top, drawn next
    discard: list[int]  # face up; discard[-1] is the top
    knows_slot: list[list[bool]]  # knows_slot[seat][i]: the owner knows its slot i
    public_slot: list[list[bool]]  # public_slot[seat][i]: both know it (taken from the discard pile)
    seen: list[set[int]]  # seen[seat]: every card whose place the seat knows (perfect memory)
    totals_half: tuple[int, int] = (0, 0)  # match totals before this round (observation only)
    target_half: int = 0  # the match target in half points; 0 in round play
    turn: int = 0  # turns finished
    turns: list[Turn] = field(default_factory=list)


def other(seat: int) -> int:
    return 1 - seat


def shuffle_deck(seed: int, game: int, deal: int = 0) -> list[int]:
    """The deal's deck: the DEAL stream's Fisher-Yates shuffle of the 52 cards."""
    # docs/random-streams.md: deck = shuffled(52) from the DEAL stream (seed, game, 1, deal, 0)
    return Stream(seed, game, DEAL, deal).shuffled(N_CARDS)


def decide_streams(seed: int, game: int, deal: int = 0) -> list[np.ndarray]:
    """Each seat's DECIDE stream for the deal, as the one-element array its strategy draws from."""
    # docs/random-streams.md: DECIDE is keyed by (seed, game, 2, deal, seat); only strategies draw
    return [Stream(seed, game, DECIDE, deal, seat).as_array() for seat in range(N_SEATS)]


def deal_cards(
    rules: Rules,
    deck: Sequence[int],
    *,
    dealer: int = 1,
    totals_half: tuple[int, int] = (0, 0),
    target_half: int = 0,
) -> Table:
    """Deal a round from ``deck`` (dealt from ``deck[0]`` onwards) and lay out the table."""
    if dealer not in (0, 1):
        raise ValueError(f"dealer must be seat 0 or 1, not {dealer!r}")
    if sorted(deck) != list(range(N_CARDS)):
        raise ValueError("the deck must hold each of the 52 cards exactly once")
    hands: list[list[int]] = [[], []]
    # RULES.md §3: five cards each, one at a time, starting with the non-dealer
    order = (other(dealer), dealer)
    for k in range(N_SEATS * CARDS_PER_PLAYER):
        hands[order[k % N_SEATS]].append(deck[k])
    # RULES.md §3: each puts one card aside as the ghost, blind (the engine takes the first dealt)
    ghosts = [hands[seat][0] for seat in range(N_SEATS)]
    # RULES.md §3: the other four go face down in a row, slots 0-3 in the order dealt
    slots = [hands[seat][1:] for seat in range(N_SEATS)]
    # RULES.md §3: the rest is the stock; its top card is turned face up to start the discard pile
    rest = deque(deck[N_SEATS * CARDS_PER_PLAYER :])
    discard = [rest.popleft()]
    table = Table(
        rules=rules,
        dealer=dealer,
        ghosts=ghosts,
        slots=slots,
        stock=rest,
        discard=discard,
        knows_slot=[[False] * N_SLOTS for _ in range(N_SEATS)],
        public_slot=[[False] * N_SLOTS for _ in range(N_SEATS)],
        seen=[set(discard) for _ in range(N_SEATS)],  # RULES.md §3: the discard top is seen by both
        totals_half=(int(totals_half[0]), int(totals_half[1])),
        target_half=int(target_half),
    )
    for seat in range(N_SEATS):
        for i in LOOKED_AT:
            # RULES.md §3: each player looks at two of its four slots (the engine fixes 0 and 1)
            look_at_slot(table, seat, i)
    return table


def look_at_slot(table: Table, seat: int, i: int) -> None:
    """``seat`` now knows the card in its own slot ``i``."""
    table.knows_slot[seat][i] = True
    table.seen[seat].add(table.slots[seat][i])


# --- what a player sees ---------------------------------------------------------


def card_points_half(values: np.ndarray, card: int) -> int:
    """The card's points in half points (``values``: ``Rules.values_half()``); -1 for no card."""
    return int(values[rank_of(card)]) if card >= 0 else -1


def known_slot_values(table: Table, seat: int, values: np.ndarray) -> list[int | None]:
    """The points of each of ``seat``'s own slots it knows, ``None`` for a slot it does not know."""
    return [
        card_points_half(values, table.slots[seat][i]) if table.knows_slot[seat][i] else None
        for i in range(N_SLOTS)
    ]


def observe(table: Table, seat: int, phase: int, hand: int = -1, from_discard: bool = False) -> np.ndarray:
    """The observation ``seat`` decides on (layout: ``observation.py``), built afresh."""
    obs = np.full(OBS_SIZE, -1, dtype=np.int64)
    values = table.rules.values_half()  # RULES.md §3 points (jack variant), in half points
    top = table.discard[-1] if table.discard else -1
    obs[PHASE] = phase
    obs[HAND] = hand  # -1 in the SOURCE phase
    obs[HAND_VALUE] = card_points_half(values, hand)  # -1 in the SOURCE phase
    obs[FROM_DISCARD] = 1 if from_discard else 0  # 0 in the SOURCE phase
    obs[DISCARD_TOP] = top  # -1 when the pile is empty
    obs[DISCARD_VALUE] = card_points_half(values, top)  # -1 when the pile is empty
    obs[STOCK_LEFT] = len(table.stock)  # a stock card in hand is already drawn
    obs[TURN] = table.turn
    obs[SEAT] = seat
    obs[MY_TOTAL] = table.totals_half[seat]
    obs[OPP_TOTAL] = table.totals_half[other(seat)]
    obs[TARGET] = table.target_half
    # Own row: the cards the player knows and their points; -1 where it does not know.
    mine = known_slot_values(table, seat, values)
    for i in range(N_SLOTS):
        if mine[i] is not None:
            obs[SLOT + i] = table.slots[seat][i]
            obs[SLOT_VALUE + i] = mine[i]
        # RULES.md §3: a card taken from the discard pile into a slot is known to both players
        if table.public_slot[other(seat)][i]:
            obs[OPP_SLOT + i] = table.slots[other(seat)][i]
    # Summaries of the own row (RULES.md §5's H and U): the highest known value and the
    # lowest-numbered slot holding it, and the lowest-numbered unknown slot.
    known = {i: v for i, v in enumerate(mine) if v is not None}
    unknown = [i for i, v in enumerate(mine) if v is None]
    if known:
        high = max(known.values())
        obs[HIGH] = high
        obs[HIGH_SLOT] = min(i for i, v in known.items() if v == high)
    if unknown:
        obs[UNKNOWN_SLOT] = min(unknown)
    obs[VALUE : VALUE + N_RANKS] = values
    seen_ranks = Counter(rank_of(c) for c in table.seen[seat])
    for r in range(N_RANKS):
        obs[UNSEEN + r] = N_SUITS - seen_ranks[r]
    return obs


def ask(player: Player, obs: np.ndarray, rng: np.ndarray) -> object:
    return player.decide(obs, player.params, rng)


def as_action(value: object) -> int | None:
    """The answer as an int, or None when it is not an integer at all."""
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def illegal(player: Player, seat: int, message: str) -> IllegalAction:
    # The wording is shared with runs (simulator/games/illegal.py); ``message`` comes from there.
    return IllegalAction(message)


def choose_source(table: Table, player: Player, seat: int, rng: np.ndarray) -> Source:
    """Step 1 of a turn: the player picks the stock or the discard pile."""
    value = ask(player, observe(table, seat, SOURCE), rng)
    action = as_action(value)
    if action not in (Source.STOCK, Source.DISCARD_PILE) or (
        action == Source.DISCARD_PILE and not table.discard
    ):
        words = wording.source_line(player.name, seat, value, table.turn, not table.discard)
        raise illegal(player, seat, words)
    return Source(action)


def choose_place(
    table: Table, player: Player, seat: int, card: int, source: Source, rng: np.ndarray
) -> Place:
    """Step 2 of a turn: the player swaps the card into a slot or throws it away."""
    from_discard = source == Source.DISCARD_PILE
    value = ask(player, observe(table, seat, PLACE, card, from_discard), rng)
    action = as_action(value)
    # RULES.md §3: taking the discard top and putting it straight back is not a legal action
    if action is None or not 0 <= action <= Place.DISCARD or (action == Place.DISCARD and from_discard):
        words = wording.place_line(player.name, seat, value, table.turn, from_discard)
        raise illegal(player, seat, words)
    return Place(action)


# --- the moves ------------------------------------------------------------------


def take_from_stock(table: Table, seat: int) -> int:
    """Draw the top card of the stock; only the drawer sees it."""
    card = table.stock.popleft()  # RULES.md §3: take the top card of the stock
    table.seen[seat].add(card)
    return card


def take_from_discard(table: Table) -> int:
    """Take the face-up top of the discard pile (both players have seen it)."""
    return table.discard.pop()  # RULES.md §3: ... or the top card of the discard pile


def throw_on_discard(table: Table, card: int) -> None:
    """Put a card face up on the discard pile, where both players see it."""
    table.discard.append(card)
    for seat in range(N_SEATS):
        table.seen[seat].add(card)  # RULES.md §3: every discarded card is seen by both players


def swap_into_slot(table: Table, seat: int, i: int, card: int, from_discard: bool) -> int:
    """Put ``card`` face down into slot ``i``; the card that lay there goes face up on the pile."""
    old = table.slots[seat][i]  # RULES.md §3: the player chooses the slot, not the card
    table.slots[seat][i] = card
    table.knows_slot[seat][i] = True  # RULES.md §3: its owner now knows it
    table.public_slot[seat][i] = from_discard  # RULES.md §3: a card from the discard pile is known to both
    throw_on_discard(table, old)  # RULES.md §3: the card that lay there goes face up onto the pile
    return old


def seat_to_play(table: Table) -> int:
    """RULES.md §3: the non-dealer starts; turns alternate."""
    return other(table.dealer) if table.turn % 2 == 0 else table.dealer


def play_turn(table: Table, players: Sequence[Player], rngs: Sequence[np.ndarray]) -> Turn:
    """One turn: take a card, then swap it into a slot or discard it."""
    seat = seat_to_play(table)
    player, rng = players[seat], rngs[seat]
    source = choose_source(table, player, seat, rng)
    card = take_from_stock(table, seat) if source == Source.STOCK else take_from_discard(table)
    place = choose_place(table, player, seat, card, source, rng)
    if place == Place.DISCARD:
        throw_on_discard(table, card)  # RULES.md §3: discard it face up (only a card from the stock)
        discarded = card
    else:
        discarded = swap_into_slot(table, seat, int(place), card, source == Source.DISCARD_PILE)
    record = Turn(
        turn=table.turn, seat=seat, source=int(source), taken=card, place=int(place), discarded=discarded
    )
    table.turns.append(record)
    table.turn += 1
    return record


def round_over(table: Table) -> bool:
    """RULES.md §3: the round ends after the turn that drew the last stock card, or at the 400-turn cap."""
    return not table.stock or table.turn >= TURN_CAP


def capped(table: Table) -> bool:
    """RULES.md §3: a round that ended at the cap rather than by emptying the stock is `capped`."""
    return table.turn >= TURN_CAP and bool(table.stock)


# --- the score ------------------------------------------------------------------


def score_half(slots: Sequence[int], ghost: int, rules: Rules) -> int:
    """RULES.md §3: the four slots plus the ghost, in half points (lower is better)."""
    values = rules.values_half()
    return int(sum(int(values[rank_of(c)]) for c in slots) + int(values[rank_of(ghost)]))


# --- a round and a match --------------------------------------------------------


def check_players(players: Sequence[Player]) -> None:
    if len(players) != N_SEATS:
        raise ValueError(f"Spøkelse is for two players, got {len(players)}")


def play_round(
    rules: Rules,
    players: Sequence[Player],
    *,
    seed: int,
    game: int,
    deal: int = 0,
    dealer: int = 1,
    totals_half: tuple[int, int] = (0, 0),
    match_play: bool = False,
) -> RoundRecord:
    """Play one round: deal -> turns -> end -> score.

    ``totals_half`` are the seats' match totals before this round, shown in the
    observation only.  ``match_play`` puts ``rules.target_half()`` in the
    observation's TARGET (0 in round play); :func:`play_match` sets it.
    """
    check_players(players)
    # Deal: the DEAL stream's shuffle (docs/random-streams.md)
    table = deal_cards(
        rules,
        shuffle_deck(seed, game, deal),
        dealer=dealer,
        totals_half=totals_half,
        target_half=rules.target_half() if match_play else 0,
    )
    initial_slots = (tuple(table.slots[0]), tuple(table.slots[1]))
    initial_discard = table.discard[-1]
    rngs = decide_streams(seed, game, deal)
    # Turns: the non-dealer first, alternating, until the stock is empty (or the cap)
    while not round_over(table):
        play_turn(table, players, rngs)
    # End and score: rows turned over, the ghosts last (RULES.md §3)
    scores = tuple(score_half(table.slots[s], table.ghosts[s], rules) for s in range(N_SEATS))
    return RoundRecord(
        dealer=dealer,
        ghosts=(table.ghosts[0], table.ghosts[1]),
        initial_slots=initial_slots,
        final_slots=(tuple(table.slots[0]), tuple(table.slots[1])),
        initial_discard=initial_discard,
        scores_half=(scores[0], scores[1]),
        capped=capped(table),
        turns=list(table.turns),
    )


def first_dealer(seed: int, game: int) -> int:
    """RULES.md §3: round 1's dealer is drawn at random (docs/random-streams.md: DEALER.below(2))."""
    return Stream(seed, game, DEALER).below(N_SEATS)


def match_over(totals_half: Sequence[int], rules: Rules) -> bool:
    """RULES.md §3: after a round, the match ends if a total has reached the target."""
    return max(totals_half) >= rules.target_half()


def match_loser(totals_half: Sequence[int]) -> int:
    """RULES.md §3: the higher total loses; equal totals are a draw (-1)."""
    if totals_half[0] == totals_half[1]:
        return -1
    return 0 if totals_half[0] > totals_half[1] else 1


def play_match(rules: Rules, players: Sequence[Player], *, seed: int, game: int) -> MatchRecord:
    """Play rounds until a total reaches the target; round r uses deal r, the deal alternates.

    Every round adds at least ½ point to each total (five cards, at most four
    eights), so a match always ends.
    """
    check_players(players)
    first = first_dealer(seed, game)
    dealer = first
    totals = [0, 0]
    rounds: list[RoundRecord] = []
    while True:
        record = play_round(
            rules,
            players,
            seed=seed,
            game=game,
            deal=len(rounds),
            dealer=dealer,
            totals_half=(totals[0], totals[1]),
            match_play=True,
        )
        rounds.append(record)
        for seat in range(N_SEATS):
            totals[seat] += record.scores_half[seat]  # RULES.md §3: round scores add up per player
        if match_over(totals, rules):
            break
        dealer = other(dealer)  # RULES.md §3: the deal alternates
    return MatchRecord(
        first_dealer=first, rounds=rounds, totals_half=(totals[0], totals[1]), loser=match_loser(totals)
    )


# --- traces ----------------------------------------------------------------------


def points(half: int) -> str:
    """Half points as points: 7 -> '3.5', 38 -> '19'."""
    return str(half // 2) if half % 2 == 0 else f"{half / 2:.1f}"


def _names(names: Sequence[str] | None) -> list[str]:
    if names is None:
        return [f"seat {s}" for s in range(N_SEATS)]
    return [f"seat {s} ({names[s]})" for s in range(N_SEATS)]


def _row(cards: Sequence[int]) -> str:
    return " ".join(f"{i}:{name(c)}" for i, c in enumerate(cards))


def format_round(record: RoundRecord, *, names: Sequence[str] | None = None) -> str:
    """A turn-by-turn trace of a round, for people (``names`` are the players' names, optional)."""
    who = _names(names)
    first = other(record.dealer)
    lines = [f"Deal: {who[record.dealer]} deals, {who[first]} plays first."]
    for seat in (first, record.dealer):
        row = "  ".join(
            f"{i}:{name(c)}" + (" (looked at)" if i in LOOKED_AT else "")
            for i, c in enumerate(record.initial_slots[seat])
        )
        lines.append(f"  {who[seat]}: ghost ?? (face down, revealed at the end); row {row}")
    stock = N_CARDS - N_SEATS * CARDS_PER_PLAYER - 1
    lines.append(f"  discard pile: {name(record.initial_discard)} face up; stock: {stock} cards")
    lines.append("Turns:")
    # Which of its own slots each seat knows (RULES.md §3: the two looked at, then every slot
    # it has swapped a card into): only a slot it did not know reveals a card it had not seen.
    known = [set(LOOKED_AT) for _ in range(N_SEATS)]
    for t in record.turns:
        if t.source == Source.STOCK:
            stock -= 1
            source = "the stock"
        else:
            source = "the discard pile"
        if t.place == Place.DISCARD:
            action = "discards it"
        elif t.place in known[t.seat]:
            action = f"swaps it into slot {t.place} for the {name(t.discarded)} it knew was there"
        else:
            action = f"swaps it into slot {t.place}, revealing {name(t.discarded)} (not seen before)"
            known[t.seat].add(t.place)
        lines.append(
            f"  turn {t.turn + 1:3d}  {who[t.seat]} takes {name(t.taken)} from {source}, {action}"
            f"; discard pile top {name(t.discarded)}, stock {stock}"
        )
    n = len(record.turns)
    if record.capped:
        lines.append(f"End: capped at {n} turns with {stock} cards left in the stock; scored as it stands.")
    else:
        lines.append(f"End: the last stock card was drawn on turn {n}.")
    for seat in (first, record.dealer):
        lines.append(
            f"  {who[seat]}: row {_row(record.final_slots[seat])}, ghost revealed {name(record.ghosts[seat])}"
            f" = {points(record.scores_half[seat])} points"
        )
    a, b = record.scores_half
    if a == b:
        lines.append("  The round is a tie.")
    else:
        winner = 0 if a < b else 1
        lines.append(f"  {who[winner]} wins the round (lower score).")
    return "\n".join(lines)


def format_match(record: MatchRecord, *, names: Sequence[str] | None = None) -> str:
    """A round-by-round trace of a match, each round turn by turn, with running totals."""
    who = _names(names)
    lines = [f"Match: {who[record.first_dealer]} deals first (drawn); the deal alternates."]
    totals = [0, 0]
    for r, rnd in enumerate(record.rounds):
        lines.append("")
        lines.append(f"=== Round {r + 1} (deal {r}) ===")
        lines.append(format_round(rnd, names=names))
        for seat in range(N_SEATS):
            totals[seat] += rnd.scores_half[seat]
        lines.append(f"  Totals: {who[0]} {points(totals[0])}, {who[1]} {points(totals[1])} points.")
    lines.append("")
    t0, t1 = record.totals_half
    if record.loser < 0:
        lines.append(f"Match over: a draw at {points(t0)} points each.")
    else:
        lines.append(
            f"Match over after {len(record.rounds)} round{'s' if len(record.rounds) != 1 else ''}: "
            f"{who[record.loser]} loses with "
            f"{points(record.totals_half[record.loser])} points "
            f"({who[0]} {points(t0)}, {who[1]} {points(t1)})."
        )
    return "\n".join(lines)
