"""Gris-nese as the engine sees it: variants, kernel arrays, figures, errors, traces."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from simulator.cards import name
from simulator.fields import Field
from simulator.games.base import Game, Metric, Table, Variant
from simulator.games.gris_nese import kernel
from simulator.games.gris_nese import rules as R
from simulator.games.gris_nese.variants import (
    DEFAULT_PLAYERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    STALL_CAP,
    UNCLEAR_MARGIN_RANGE,
    Rules,
)
from simulator.reaction import profile_arrays
from simulator.stats import mean_ci, rate_ci


def _parse_margin(text: str) -> float:
    try:
        return float(text.strip().replace(",", "."))
    except ValueError:
        raise ValueError("unclear_margin is a number of seconds, e.g. 0.05") from None


# What each figure of ``summarise`` and each metric of ``metrics`` means (simulator/fields.py).
# RULES.md §6: round rates rest on the rounds that ended with a loser (neither stalled nor
# replayed); match figures on the finished (not abandoned) matches.
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
ROUND_FIELDS = {
    "signal_first_rate": _SIGNAL_FIRST,
    "eliminated_rate": _OUT,
    "mean_passes": Field("mean", "pass steps per counted round"),
    "dealt_signal_rate": Field(
        "rate", "share of counted rounds with four of a kind as dealt", words="a signal before any pass"
    ),
    "all_signal_rate": Field(
        "rate", "share of counted rounds where everyone signalled", words="every player held four of a kind"
    ),
    "stalled": Field(
        "count", "rounds", "lower", "rounds with no signal after the pass cap (enter no other figure)", of="n"
    ),
    "replayed": Field(
        "count", "rounds", words="rounds replayed: the last two touches too close to call", of="n"
    ),
    "stalled_rate": Field(
        "rate", "share of rounds stalled", "lower", "no signal after the pass cap; enter no other figure"
    ),
    "replayed_rate": Field(
        "rate", "share of rounds replayed", words="the last two touches too close to call, see unclear_margin"
    ),
    "eliminated": _OUT,
    "signal": Field(
        "rate",
        "share of counted rounds ending with four of a kind",
        "higher",
        "held four of a kind at the end",
    ),
}
MATCH_FIELDS = {
    "win_rate": _WIN,
    "mean_place": _PLACE,
    "mean_rounds": Field(
        "mean",
        "counted rounds per finished match",
        remark=(
            "always players − 2: every counted round removes one player until two joint winners "
            "remain, so its interval has no width"
        ),
    ),
    "rounds_played": Field(
        "count",
        "rounds",
        words="rounds dealt in the finished matches, stalled and replayed ones included",
    ),
    "replayed": Field("count", "rounds", words="replayed rounds of the finished matches", of="rounds_played"),
    "replayed_rate": Field(
        "rate",
        "share of the finished matches' rounds replayed",
        words="the last two touches too close to call, see unclear_margin",
    ),
    "stalled": Field(
        "count",
        "rounds",
        "lower",
        "stalled rounds of the finished matches (dealt again)",
        of="rounds_played",
    ),
    "stalled_rate": Field(
        "rate", "share of the finished matches' rounds stalled", "lower", "stalled rounds, dealt again"
    ),
    "abandoned": Field(
        "count", "matches", "lower", "matches given up after too many stalled rounds in a row", of="n"
    ),
    "abandoned_rate": Field("rate", "share of matches abandoned", "lower"),
    "win": _WIN,
    "place": _PLACE,
}


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

    def agg_size(self, unit: str, n_seats: int) -> int:
        return R.R_SIZE if unit == "round" else R.M_SIZE

    def summarise(self, agg: np.ndarray, table: Table, players: Sequence, unit: str, n: int) -> dict:
        a = agg
        n_seats = table.n_seats
        if unit == "round":
            # RULES.md §6: the rates rest on the rounds that ended with a loser.
            counted = int(a[R.R_COUNTED])
            seats = []
            for s in range(n_seats):
                sig, sig_ci = rate_ci(a[R.R_SIGNAL + s], counted)
                out, out_ci = rate_ci(a[R.R_OUT + s], counted)
                seats.append(
                    {
                        "seat": s,
                        "player": players[s].spec,
                        "signal_first_rate": sig,
                        "signal_first_rate_ci": sig_ci,
                        "eliminated_rate": out,
                        "eliminated_rate_ci": out_ci,
                    }
                )
            passes, passes_ci = mean_ci(a[R.R_PASSES], a[R.R_PASSES2], counted)
            dealt, dealt_ci = rate_ci(a[R.R_DEALT], counted)
            every, every_ci = rate_ci(a[R.R_ALL], counted)
            stalled_rate, stalled_rate_ci = rate_ci(a[R.R_STALLED], n)
            replayed_rate, replayed_rate_ci = rate_ci(a[R.R_REPLAYED], n)
            return {
                "mean_passes": passes,
                "mean_passes_ci": passes_ci,
                "dealt_signal_rate": dealt,
                "dealt_signal_rate_ci": dealt_ci,
                "all_signal_rate": every,
                "all_signal_rate_ci": every_ci,
                "stalled": int(a[R.R_STALLED]),
                "stalled_rate": stalled_rate,
                "stalled_rate_ci": stalled_rate_ci,
                "replayed": int(a[R.R_REPLAYED]),
                "replayed_rate": replayed_rate,
                "replayed_rate_ci": replayed_rate_ci,
                "seats": seats,
            }
        # RULES.md §6: abandoned matches enter no other match statistic.
        finished = int(a[R.M_FINISHED])
        seats = []
        for s in range(n_seats):
            win, win_ci = rate_ci(a[R.M_WINS + s], finished)
            place, place_ci = mean_ci(a[R.M_PLACE + s], a[R.M_PLACE2 + s], finished)
            seats.append(
                {
                    "seat": s,
                    "player": players[s].spec,
                    "win_rate": win,
                    "win_rate_ci": win_ci,
                    "mean_place": place,
                    "mean_place_ci": place_ci,
                }
            )
        rounds, rounds_ci = mean_ci(a[R.M_ROUNDS], a[R.M_ROUNDS2], finished)
        # Every deal of a finished match: counted rounds, stalled and replayed ones.
        played = int(a[R.M_ROUNDS]) + int(a[R.M_STALLED]) + int(a[R.M_REPLAYED])
        replayed_rate, replayed_rate_ci = rate_ci(a[R.M_REPLAYED], played)
        stalled_rate, stalled_rate_ci = rate_ci(a[R.M_STALLED], played)
        abandoned_rate, abandoned_rate_ci = rate_ci(a[R.M_ABANDONED], n)
        return {
            "mean_rounds": rounds,
            "mean_rounds_ci": rounds_ci,
            "rounds_played": played,
            "replayed": int(a[R.M_REPLAYED]),
            "replayed_rate": replayed_rate,
            "replayed_rate_ci": replayed_rate_ci,
            "stalled": int(a[R.M_STALLED]),
            "stalled_rate": stalled_rate,
            "stalled_rate_ci": stalled_rate_ci,
            "abandoned": int(a[R.M_ABANDONED]),
            "abandoned_rate": abandoned_rate,
            "abandoned_rate_ci": abandoned_rate_ci,
            "seats": seats,
        }

    def fields(self, unit: str) -> dict[str, Field]:
        return ROUND_FIELDS if unit == "round" else MATCH_FIELDS

    def record_columns(self, unit: str, n_seats: int) -> tuple[str, ...]:
        return R.record_columns(unit, n_seats)

    def metrics(self, unit: str) -> tuple[Metric, ...]:
        if unit == "round":
            return (
                Metric("eliminated", "was the last to touch the nose and left", True),
                Metric("signal", "held four of a kind when the round ended", False),
            )
        return (
            Metric("win", "one of the two joint winners", False),
            Metric("place", "place in the match (1 = joint winner, n = first out)", True, 1.0, "mean"),
        )

    def outcomes(self, rec: np.ndarray, unit: str, n_seats: int) -> tuple[dict[str, np.ndarray], np.ndarray]:
        seat = np.arange(n_seats)
        if unit == "round":
            valid = (rec[:, 1] == 0) & (rec[:, 2] == 0)  # RULES.md §6: stalled and replayed rounds
            out = (rec[:, 3:4] == seat[None, :]).astype(np.int64)
            sig = ((rec[:, 4:5] >> seat[None, :]) & 1).astype(np.int64)
            return {"eliminated": out, "signal": sig}, valid
        valid = rec[:, 0] == 0  # RULES.md §6: abandoned matches
        place = rec[:, 5 : 5 + n_seats].astype(np.int64)
        return {"win": (place == 1).astype(np.int64), "place": place}, valid

    def histograms(self, agg: np.ndarray, table: Table, unit: str) -> dict[str, np.ndarray]:
        if unit == "round":
            return {"passes": agg[R.R_HIST : R.R_HIST + R.PASS_BINS]}
        return {"match_deals": agg[R.M_DEALS : R.M_DEALS + R.DEAL_BINS]}

    def describe_error(self, err: np.ndarray, players: Sequence) -> str:
        from simulator import illegal

        _, _, seat, _, card, step, _ = (int(x) for x in err[:7])
        card_name = name(card) if 0 <= card < 52 else None
        when = f"pass step {step + 1} (STEPS={step})"
        doing = "choosing a card to lay down"
        return illegal.not_held(players[seat].spec, seat, card, card_name, doing, when)

    def trace(self, table: Table, players: Sequence, seed: int, game_index: int, unit: str) -> str:
        from simulator.games.gris_nese import reference

        names = [p.spec for p in players]
        profiles = list(table.reaction)
        if unit == "round":
            rec = reference.play_round(table.rules, players, seed=seed, game=game_index, profiles=profiles)
            return reference.format_round(rec, names=names)
        rec = reference.play_match(table.rules, players, seed=seed, game=game_index, profiles=profiles)
        return reference.format_match(rec, names=names)


GRIS_NESE = GrisNese()
