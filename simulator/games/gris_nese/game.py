"""Gris-nese as the engine sees it: variants, kernel arrays, figures, errors, traces."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from simulator.engine.cards import name
from simulator.engine.fields import Field
from simulator.engine.plays import (
    Histogram,
    Outcome,
    Play,
    abandoned_matches,
    count_and_rate,
    mean,
    rate,
    rounds_played,
    stalled_rounds,
)
from simulator.engine.reaction import profile_arrays
from simulator.games.base import Game, Table, Variant
from simulator.games.gris_nese import kernel
from simulator.games.gris_nese import layout as L
from simulator.games.gris_nese import profile as P
from simulator.games.gris_nese.rules import LOG_FIELDS
from simulator.games.gris_nese.variants import (
    DEFAULT_PLAYERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    STALL_CAP,
    UNCLEAR_MARGIN_RANGE,
    Rules,
)
from simulator.games.traces import log_moves, reference_trace, strategy_arrays


def _parse_margin(text: str) -> float:
    try:
        return float(text.strip().replace(",", "."))
    except ValueError:
        raise ValueError("unclear_margin is a number of seconds, e.g. 0.05") from None


# The summary's figures, the outcomes and the histograms, over the rows of layout.py; their
# meanings (simulator/engine/fields.py) travel with them.  RULES.md §6: round rates rest on the rounds
# that ended with a loser (neither stalled nor replayed); match figures on the finished (not
# abandoned) matches; ``rounds_played`` counts every deal of the finished matches (counted
# rounds, stalled and replayed ones).
_SIGNAL_FIRST = Field("rate", "share of counted rounds signalled first", "higher", "touched the nose first")
_OUT = Field("rate", "share of counted rounds eliminated", "lower", "last to touch the nose, and left")
_WIN = Field(
    "rate",
    "share of finished matches won",
    "higher",
    "one of the two joint winners",
    remark="two players win each match, so the seats' rates sum to 200%",
)
_PLACE = Field("mean", "place in the match", "lower", "1 = joint winner, n = first out", note="1 is best")
ROUND = Play(
    agg=L.ROUND_AGG,
    records=L.ROUND_REC,
    figures=(
        mean("mean_passes", "passes", "passes2", Field("mean", "pass steps per counted round"), of="counted"),
        rate(
            "dealt_signal_rate",
            "dealt",
            Field(
                "rate",
                "share of counted rounds with four of a kind as dealt",
                words="a signal before any pass",
            ),
            of="counted",
        ),
        rate(
            "all_signal_rate",
            "all",
            Field(
                "rate",
                "share of counted rounds where everyone signalled",
                words="every player held four of a kind",
            ),
            of="counted",
        ),
        *count_and_rate(
            "stalled",
            Field(
                "count", "rounds", "lower", "rounds with no signal after the pass cap (enter no other figure)"
            ),
            Field(
                "rate",
                "share of rounds stalled",
                "lower",
                "no signal after the pass cap; enter no other figure",
            ),
        ),
        *count_and_rate(
            "replayed",
            Field("count", "rounds", words="rounds replayed: the last two touches too close to call"),
            Field(
                "rate",
                "share of rounds replayed",
                words="the last two touches too close to call, see unclear_margin",
            ),
        ),
    ),
    seat_figures=(
        rate("signal_first_rate", "signal", _SIGNAL_FIRST, of="counted"),
        rate("eliminated_rate", "out", _OUT, of="counted"),
    ),
    outcomes=(
        Outcome("eliminated", "loser", "is_seat", "was the last to touch the nose and left", True, _OUT),
        Outcome(
            "signal",
            "signallers",
            "bit",
            "held four of a kind when the round ended",
            False,
            Field(
                "rate",
                "share of counted rounds ending with four of a kind",
                "higher",
                "held four of a kind at the end",
            ),
        ),
    ),
    uncounted=("stalled", "replayed"),
    histograms=(Histogram("passes", "pass_hist"),),
)
MATCH = Play(
    agg=L.MATCH_AGG,
    records=L.MATCH_REC,
    figures=(
        mean(
            "mean_rounds",
            "rounds",
            "rounds2",
            Field(
                "mean",
                "counted rounds per finished match",
                remark=(
                    "always players − 2: every counted round removes one player until two joint winners "
                    "remain, so its interval has no width"
                ),
            ),
            of="finished",
        ),
        rounds_played(
            ["rounds", "stalled", "replayed"],
            "rounds dealt in the finished matches, stalled and replayed ones included",
        ),
        *count_and_rate(
            "replayed",
            Field("count", "rounds", words="replayed rounds of the finished matches"),
            Field(
                "rate",
                "share of the finished matches' rounds replayed",
                words="the last two touches too close to call, see unclear_margin",
            ),
            of="rounds_played",
        ),
        *stalled_rounds(),
        *abandoned_matches(),
    ),
    seat_figures=(
        rate("win_rate", "wins", _WIN, of="finished"),
        mean("mean_place", "place", "place2", _PLACE, of="finished"),
    ),
    outcomes=(
        Outcome("win", "place", "equals", "one of the two joint winners", False, _WIN, equals=1),
        Outcome(
            "place", "place", "value", "place in the match (1 = joint winner, n = first out)", True, _PLACE
        ),
    ),
    uncounted=("abandoned",),
    histograms=(Histogram("match_deals", "deals_hist"),),
)


class GrisNese(Game):
    name = "gris-nese"
    title = "Gris-nese: four of a kind, simultaneous passing, the nose signal, elimination"
    doc = (
        "One rank group per player (A K Q J 10 9 8 7), four cards each. Every pass step all "
        "players lay one card face down to the left at once and pick up the one from the right. "
        "Whoever holds four of a kind touches the nose; the last to touch it leaves, one rank "
        "group is removed and the rest are dealt again, until two joint winners remain."
    )
    min_seats = MIN_PLAYERS
    max_seats = MAX_PLAYERS
    default_seats = DEFAULT_PLAYERS
    default_opponent = "greedy"
    kernel = kernel
    rules_type = Rules
    plays = {"round": ROUND, "match": MATCH}
    error_row = L.ERR
    observation = L.OBS
    uses_reaction = True
    variants = {
        "unclear_margin": Variant(
            _parse_margin,
            "seconds: when the two latest touches differ by less, the round is replayed (default 0 = off; "
            f"{UNCLEAR_MARGIN_RANGE[0]:g} to {UNCLEAR_MARGIN_RANGE[1]:g} s)",
        ),
    }

    def rules_arrays(self, table: Table) -> tuple[np.ndarray, np.ndarray]:
        rules: Rules = table.rules
        rules_i = np.array([table.n_seats, STALL_CAP], dtype=np.int64)
        rules_f = np.concatenate([[rules.unclear_margin], profile_arrays(table.reaction)]).astype(np.float64)
        return rules_i, rules_f

    def describe_error(self, err: np.ndarray, players: Sequence) -> str:
        from simulator.games import illegal

        e = L.ERR.read(err)
        seat, card, step = e["seat"], e["card"], e["step"]
        card_name = name(card) if 0 <= card < 52 else None
        when = f"pass step {step + 1} (STEPS={step})"
        doing = "choosing a card to lay down"
        return illegal.not_held(players[seat].spec, seat, card, card_name, doing, when)

    def trace(self, table: Table, players: Sequence, seed: int, game_index: int, unit: str) -> str:
        from simulator.games.gris_nese import reference

        profiles = list(table.reaction)
        return reference_trace(reference, table.rules, players, seed, game_index, unit, profiles=profiles)

    profile = P  # what kortsim profile reads

    # --- conformance hooks (tests/games/test_conformance.py; docs/adding-a-game.md) --------

    strategies_module = "simulator.games.gris_nese.strategies"
    tabletop_module = "simulator.games.gris_nese.tabletop"

    def moves(
        self, table: Table, players: Sequence, seed: int, game_index: int, deal: int, engine: str
    ) -> list[tuple[int, ...]]:
        """Every card laid down in one deal at the full table, as ``(step, seat, card)``
        (:meth:`Game.moves`)."""
        from simulator.games.gris_nese import reference

        if engine == "reference":
            prof = list(table.reaction)
            rec = reference.play_round(
                table.rules, players, seed=seed, game=game_index, deal=deal, profiles=prof
            )
            return [tuple(e) for e in rec.events]
        n = table.n_seats
        rules_i, rules_f = self.rules_arrays(table)
        log = np.full(((STALL_CAP + 1) * n, LOG_FIELDS), -1, np.int64)
        sids, params = strategy_arrays(players)
        seats, times, signallers = np.arange(n, dtype=np.int64), np.zeros(n), np.zeros(n, np.int64)
        events, _, _, _, _ = kernel.trace_round_nb(
            sids, params, rules_i, rules_f, seed, game_index, deal, seats, log, times, signallers
        )
        return log_moves(log, events)

    def reference_record(
        self, table: Table, players: Sequence, seed: int, game_index: int, unit: str
    ) -> tuple[int, ...]:
        """Game ``game_index`` of a run, played by the reference, as the row of
        :meth:`record_columns` that ``records_block_nb`` writes for it (:meth:`Game.reference_record`)."""
        from simulator.games.gris_nese import reference

        prof = list(table.reaction)
        if unit == "round":
            r = reference.play_round(table.rules, players, seed=seed, game=game_index, profiles=prof)
            mask = 0 if r.stalled else sum(1 << s for s in r.signallers)
            return (r.passes, int(r.stalled), int(r.replayed), r.loser, mask)
        m = reference.play_match(table.rules, players, seed=seed, game=game_index, profiles=prof)
        stalled, replayed = sum(r.stalled for r in m.rounds), sum(r.replayed for r in m.rounds)
        places = (0,) * len(players) if m.abandoned else m.places
        return (int(m.abandoned), m.counted_rounds, stalled, replayed, len(m.rounds), *places)

    def card_places(
        self, table: Table, players: Sequence, seed: int, game_index: int
    ) -> tuple[tuple[int, ...], list[dict[str, list[int]]]]:
        """The 4n cards in play, and where each is after the deal and after every pass step
        of a reference round at the full table (:meth:`Game.card_places`)."""
        from simulator.games.gris_nese import reference

        n = table.n_seats
        seats = list(range(n))
        hands = reference.deal_hands(reference.shuffle_cards(seed, game_index, 0, n), n)
        t = reference.new_table(table.rules, seats, hands)
        rngs = reference.decide_streams(seed, game_index, 0, seats, reference.player_salts(players))
        states = []
        while True:
            states.append({f"hand {s}": list(h) for s, h in enumerate(t.hands)})
            if any(reference.signalling(t)) or t.steps >= STALL_CAP:
                return tuple(reference.cards_in_play(n)), states
            reference.pass_step(t, players, rngs)


GRIS_NESE = GrisNese()
