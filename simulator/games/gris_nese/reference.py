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

The reference is five modules of one responsibility each, and every name of
them is importable from here:

- :mod:`~simulator.games.gris_nese.reference_table`: the cards in play, the
  deal and the table (``cards_in_play``, ``deal_hands``, ``Table``, ``new_table``);
- :mod:`~simulator.games.gris_nese.reference_view`: what a player sees and how
  its answer is read and checked (``Player``, ``observe``, ``choose_card``);
- :mod:`~simulator.games.gris_nese.reference_human`: how a player forgets and slips
  (docs/human-players.md: ``human_values``, ``forget_history``, ``slipped_card``);
- this module: the checks, the pass steps and each player's turn in them
  (``take_turn``), the nose, a round and a match;
- :mod:`~simulator.games.gris_nese.reference_records`: the records of a deal and
  a match, and how they read as a trace (``RoundRecord``, ``format_round``).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from simulator.engine.cards import RANKS as RANKS  # the table's modules read the rank names here
from simulator.engine.param_row import player_salts
from simulator.engine.reaction import DEFAULT_MEDIAN, DEFAULT_SIGMA, last_to_touch
from simulator.engine.rng import REACT, Stream
from simulator.games.gris_nese.reference_human import forget_history, human_values, slipped_card
from simulator.games.gris_nese.reference_records import MatchRecord, RoundRecord, format_match, format_round
from simulator.games.gris_nese.reference_table import (
    N_SUITS,
    WINNERS,
    Event,
    Table,
    cards_in_play,
    deal_hands,
    decide_streams,
    four_of_a_kind,
    group_of,
    left_of,
    new_table,
    rank_groups,
    shuffle_cards,
)
from simulator.games.gris_nese.reference_view import IllegalAction, Player, as_card, choose_card, observe
from simulator.games.gris_nese.variants import ABANDON_AFTER, MAX_PLAYERS, MIN_PLAYERS, STALL_CAP, Rules

__all__ = [
    "ABANDON_AFTER",
    "N_SUITS",
    "WINNERS",
    "Event",
    "IllegalAction",
    "MatchRecord",
    "Player",
    "RoundRecord",
    "Table",
    "as_card",
    "cards_in_play",
    "check_profiles",
    "check_table",
    "choose_card",
    "deal_hands",
    "decide_streams",
    "finish_round",
    "forget_history",
    "format_match",
    "format_round",
    "four_of_a_kind",
    "group_of",
    "human_values",
    "is_unclear",
    "left_of",
    "new_table",
    "observe",
    "pass_step",
    "play_from_hands",
    "play_match",
    "play_round",
    "player_salts",
    "rank_groups",
    "reaction_draws",
    "shuffle_cards",
    "signalling",
    "slipped_card",
    "take_turn",
    "touch_times",
]


# --- the checks and the pass steps ----------------------------------------------------


def signalling(table: Table) -> list[bool]:
    """RULES.md §2: at a check, every player holding four of a kind signals (per position)."""
    return [four_of_a_kind(h) for h in table.hands]


def pass_step(table: Table, players: Sequence[Player], rngs: Sequence[np.ndarray]) -> list[Event]:
    """One pass step: everybody picks a card at once, lays it to the left, picks up from the right.

    ``players`` are indexed by original seat, ``rngs`` by position.
    """
    # RULES.md §2: every player picks on the hand it holds before the step (simultaneous);
    # they are asked in ring order only because each draws from its own stream.
    laid = [take_turn(table, i, players[seat], rngs[i]) for i, seat in enumerate(table.seats)]
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


def take_turn(table: Table, i: int, player: Player, rng: np.ndarray) -> int:
    """Position ``i``'s turn at a pass step: the card it lays down to the left.

    docs/human-players.md: a player that forgets first loses part of its history, and one
    that slips may lay down a random card without asking its strategy; a plain player
    (``forget`` and ``slip`` 0) draws nothing for either."""
    forget, slip = human_values(player.params)
    if forget > 0:
        forget_history(table, i, forget, rng)
    if slip > 0:
        card = slipped_card(table, i, slip, rng)
        if card is not None:
            return card
    return choose_card(table, i, player, rng)


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
    rngs = decide_streams(seed, game, deal, table.seats, player_salts(players))  # a copy's own streams
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
