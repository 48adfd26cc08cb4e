"""Spøkelse as the engine sees it: variants, kernel arrays, figures, errors, traces."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from simulator.engine.fields import Field
from simulator.engine.plays import Histogram, Outcome, Play, count, count_and_rate, diff, mean, rate, ratio
from simulator.games.base import Game, Table, Variant
from simulator.games.spokelse import kernel, reference
from simulator.games.spokelse import layout as L
from simulator.games.spokelse import profile as P
from simulator.games.spokelse.observation import SOURCE
from simulator.games.spokelse.rules import LOG_FIELDS
from simulator.games.spokelse.variants import TARGET_RANGE, Rules
from simulator.games.traces import log_moves, reference_trace, strategy_arrays


def _parse_jack(text: str) -> float:
    t = text.strip().replace(",", ".")
    if t in ("0.5", ".5", "½", "1/2"):
        return 0.5
    if t == "11":
        return 11
    raise ValueError("the jack counts 0.5 (½) or 11 points")


def _parse_target(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise ValueError("the target is a whole number of points") from None
    lo, hi = TARGET_RANGE
    if not lo <= v <= hi:
        raise ValueError(f"the target must be from {lo} to {hi} points")
    return v


# The summary's figures, the outcomes and the histograms, over the rows of layout.py; their
# meanings (simulator/engine/fields.py) travel with them.
_SCORE = Field("mean", "points per round", "lower", "points at the end of the round (row plus ghost)")
_WIN = Field("rate", "share of rounds won", "higher", "won the round (strictly lower score)")
_LOSS = Field("rate", "share of matches lost", "lower", "lost the match (the higher total)")
_TOTAL = Field("mean", "points per match", "lower", "the match total when the match ends")
ROUND = Play(
    agg=L.ROUND_AGG,
    records=L.ROUND_REC,
    figures=(
        rate("tie_rate", "ties", Field("rate", "share of rounds tied", words="both seats scored the same")),
        diff(
            "mean_score_diff",
            "score_sum",
            "score_sum2",
            "score_cross",
            Field("diff", "points per round, seat 0 minus seat 1", words="paired difference of the scores"),
        ),
        ratio(
            "mean_turns",
            "turns",
            Field(
                "mean",
                "turns per round",
                words="turns played in the round, both seats",
                remark="no interval: the kernel sums the turns but not their squares, so their spread is not known",
            ),
        ),
        *count_and_rate(
            "capped",
            Field("count", "rounds", "lower", "rounds stopped at the turn cap (scored as they stand)"),
            Field("rate", "share of rounds stopped at the turn cap", "lower"),
        ),
    ),
    seat_figures=(mean("mean_score", "score_sum", "score_sum2", _SCORE), rate("win_rate", "wins", _WIN)),
    outcomes=(  # capped rounds are scored as they stand: every round counts
        Outcome("score", "score_half", "value", "points at the end of the round", True, _SCORE),
        Outcome("win", "score_half", "lowest", "won the round (strictly lower score)", False, _WIN),
    ),
    histograms=(Histogram("score_half_seat{s}", "score_hist"),),
)
MATCH = Play(
    agg=L.MATCH_AGG,
    records=L.MATCH_REC,
    figures=(
        rate(
            "draw_rate",
            "draws",
            Field("rate", "share of matches drawn", words="both totals equal at the end"),
        ),
        mean("mean_rounds", "rounds", "rounds2", Field("mean", "rounds per match")),
        rate(
            "first_dealer_loss_rate",
            "first_dealer_lost",
            Field("rate", "share of matches the first dealer lost", words="the seat that dealt first lost"),
        ),
        # every round of every match (none is re-dealt)
        count(
            "rounds_played", ["rounds"], Field("count", "rounds", words="rounds played in all the matches")
        ),
        *count_and_rate(
            "capped",
            Field("count", "rounds", "lower", "rounds of the matches stopped at the turn cap"),
            Field("rate", "share of the matches' rounds stopped at the turn cap", "lower"),
            of="rounds_played",
        ),
    ),
    seat_figures=(
        rate("loss_rate", "losses", _LOSS),
        mean("mean_total", "total_sum", "total_sum2", _TOTAL),
        rate(
            "first_dealer_rate",
            "first_dealt",
            Field("rate", "share of matches dealt first", words="dealt the first round"),
        ),
    ),
    outcomes=(
        Outcome("loss", "loser", "is_seat", "lost the match", True, _LOSS),
        Outcome("total", "total_half", "value", "points at the end of the match", True, _TOTAL),
    ),
    histograms=(Histogram("match_rounds", "rounds_hist"),),
)


class Spokelse(Game):
    name = "spokelse"
    title = "Spøkelse (Ghost): two players, a hidden ghost card, lowest score wins"
    doc = (
        "Five cards each; one lies aside unseen as the ghost, four in a row of which you know "
        "two. Each turn draw the stock card or take the discard top, then throw it away or swap "
        "it into a slot. The round ends with the last stock card; the lowest row plus ghost wins. "
        "Match play adds rounds until a total reaches the target; the higher total loses."
    )
    min_seats = max_seats = default_seats = 2
    default_opponent = None
    kernel = kernel
    rules_type = Rules
    plays = {"round": ROUND, "match": MATCH}
    error_row = L.ERR
    observation = L.OBS
    variants = {
        "jack": Variant(_parse_jack, "points of a jack: 0.5 (default) or 11"),
        "target": Variant(
            _parse_target,
            f"match total that ends a match: 21 (default), {TARGET_RANGE[0]} to {TARGET_RANGE[1]} points",
        ),
    }

    def rules_arrays(self, table: Table) -> tuple[np.ndarray, np.ndarray]:
        rules: Rules = table.rules
        rules_i = np.concatenate([rules.values_half(), [rules.target_half()]]).astype(np.int64)
        return rules_i, np.zeros(1, np.float64)

    def describe_error(self, err: np.ndarray, players: Sequence) -> str:
        from simulator.games.spokelse import illegal as spokelse_illegal

        e = L.ERR.read(err)
        seat, phase, action, turn = e["seat"], e["phase"], e["action"], e["turn"]
        spec = players[seat].spec
        if phase == SOURCE:  # the kernel refuses 1 only when the pile is empty
            return spokelse_illegal.source_line(spec, seat, action, turn, pile_empty=action == 1)
        # the kernel refuses 4 only for a card taken from the discard pile
        return spokelse_illegal.place_line(spec, seat, action, turn, from_discard=action == 4)

    def trace(self, table: Table, players: Sequence, seed: int, game_index: int, unit: str) -> str:
        return reference_trace(reference, table.rules, players, seed, game_index, unit)

    profile = P  # what kortsim profile reads

    # --- conformance hooks (tests/games/test_conformance.py; docs/adding-a-game.md) --------

    strategies_module = "simulator.games.spokelse.strategies"
    tabletop_module = "simulator.games.spokelse.tabletop"
    calibration_module = "simulator.games.spokelse.calibration_play"

    def moves(
        self, table: Table, players: Sequence, seed: int, game_index: int, deal: int, engine: str
    ) -> list[tuple[int, ...]]:
        """Every move of one deal, as ``(turn, seat, source, taken, place, discarded)``.

        See :meth:`Game.moves`.  The round is dealt as a run of rounds deals it (seat 1
        deals, no match totals), by the kernel's ``trace_round_nb`` or by the reference."""
        from simulator.games.spokelse.variants import TURN_CAP

        if engine == "reference":
            rec = reference.play_round(table.rules, players, seed=seed, game=game_index, deal=deal)
            return [(t.turn, t.seat, t.source, t.taken, t.place, t.discarded) for t in rec.turns]
        log = np.full((TURN_CAP, LOG_FIELDS), -1, np.int64)
        sids, params = strategy_arrays(players)
        values = self.rules_arrays(table)[0][:13]
        totals = np.zeros(2, np.int64)
        _, _, turns, _, _ = kernel.trace_round_nb(
            sids, params, values, 0, totals, seed, game_index, deal, 1, log
        )
        return log_moves(log, turns)

    def reference_record(
        self, table: Table, players: Sequence, seed: int, game_index: int, unit: str
    ) -> tuple[int, ...]:
        """Game ``game_index`` of a run, played by the reference, as the row of
        :meth:`record_columns` that ``records_block_nb`` writes for it (:meth:`Game.reference_record`)."""
        if unit == "round":
            rec = reference.play_round(table.rules, players, seed=seed, game=game_index)
            return (*rec.scores_half, len(rec.turns), int(rec.capped))
        m = reference.play_match(table.rules, players, seed=seed, game=game_index)
        capped = sum(r.capped for r in m.rounds)
        return (*m.totals_half, len(m.rounds), capped, m.first_dealer, m.loser)

    def card_places(
        self, table: Table, players: Sequence, seed: int, game_index: int
    ) -> tuple[tuple[int, ...], list[dict[str, list[int]]]]:
        """The 52 cards, and where each is after the deal and after every turn of a
        reference round (:meth:`Game.card_places`): ghosts, rows, discard pile, stock."""
        from simulator.engine.cards import N_CARDS

        t = reference.deal_cards(table.rules, reference.shuffle_deck(seed, game_index), dealer=1)
        rngs = reference.decide_streams(seed, game_index, 0, reference.player_salts(players))
        states = []
        while True:
            places = {"ghosts": list(t.ghosts), "discard pile": list(t.discard), "stock": list(t.stock)}
            states.append({**places, "row 0": list(t.slots[0]), "row 1": list(t.slots[1])})
            if reference.round_over(t):
                return tuple(range(N_CARDS)), states
            reference.play_turn(t, players, rngs)


SPOKELSE = Spokelse()
