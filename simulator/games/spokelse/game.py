"""Spøkelse as the engine sees it: variants, kernel arrays, figures, errors, traces."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from simulator.fields import Field
from simulator.games.base import Game, Metric, Table, Variant
from simulator.games.spokelse import kernel, reference
from simulator.games.spokelse import rules as R
from simulator.games.spokelse.observation import SOURCE
from simulator.games.spokelse.variants import TARGET_RANGE, Rules
from simulator.stats import mean_ci, rate_ci


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


# What each figure of ``summarise`` and each metric of ``metrics`` means (simulator/fields.py).
_SCORE = Field("mean", "points per round", "lower", "points at the end of the round (row plus ghost)")
_WIN = Field("rate", "share of rounds won", "higher", "won the round (strictly lower score)")
_LOSS = Field("rate", "share of matches lost", "lower", "lost the match (the higher total)")
_TOTAL = Field("mean", "points per match", "lower", "the match total when the match ends")
ROUND_FIELDS = {
    "mean_score": _SCORE,
    "win_rate": _WIN,
    "tie_rate": Field("rate", "share of rounds tied", words="both seats scored the same"),
    "mean_score_diff": Field(
        "diff", "points per round, seat 0 minus seat 1", words="paired difference of the scores"
    ),
    "mean_turns": Field(
        "mean",
        "turns per round",
        words="turns played in the round, both seats",
        remark=("no interval: the kernel sums the turns but not their squares, so their spread is not known"),
    ),
    "capped": Field(
        "count", "rounds", "lower", "rounds stopped at the turn cap (scored as they stand)", of="n"
    ),
    "capped_rate": Field("rate", "share of rounds stopped at the turn cap", "lower"),
    "score": _SCORE,
    "win": _WIN,
}
MATCH_FIELDS = {
    "loss_rate": _LOSS,
    "mean_total": _TOTAL,
    "first_dealer_rate": Field("rate", "share of matches dealt first", words="dealt the first round"),
    "rounds_played": Field("count", "rounds", words="rounds played in all the matches"),
    "draw_rate": Field("rate", "share of matches drawn", words="both totals equal at the end"),
    "mean_rounds": Field("mean", "rounds per match"),
    "first_dealer_loss_rate": Field(
        "rate", "share of matches the first dealer lost", words="the seat that dealt first lost"
    ),
    "capped": Field(
        "count", "rounds", "lower", "rounds of the matches stopped at the turn cap", of="rounds_played"
    ),
    "capped_rate": Field("rate", "share of the matches' rounds stopped at the turn cap", "lower"),
    "loss": _LOSS,
    "total": _TOTAL,
}


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

    def agg_size(self, unit: str, n_seats: int) -> int:
        return R.R_SIZE if unit == "round" else R.M_SIZE

    def summarise(self, agg: np.ndarray, table: Table, players: Sequence, unit: str, n: int) -> dict:
        a = agg
        if unit == "round":
            seats = []
            for s in range(2):
                score, score_ci = mean_ci(a[R.R_SUM + s], a[R.R_SUM2 + s], n, scale=0.5)
                win, win_ci = rate_ci(a[R.R_WINS + s], n)
                seats.append(
                    {
                        "seat": s,
                        "player": players[s].spec,
                        "mean_score": score,
                        "mean_score_ci": score_ci,
                        "win_rate": win,
                        "win_rate_ci": win_ci,
                    }
                )
            tie, tie_ci = rate_ci(a[R.R_TIES], n)
            # The paired difference seat 0 - seat 1 on the same deals.
            d_sum = a[R.R_SUM] - a[R.R_SUM + 1]
            d_sq = a[R.R_SUM2] + a[R.R_SUM2 + 1] - 2 * a[R.R_CROSS]
            diff, diff_ci = mean_ci(d_sum, d_sq, n, scale=0.5)
            turns = a[R.R_TURNS] / n
            capped, capped_ci = rate_ci(a[R.R_CAPPED], n)
            return {
                "tie_rate": tie,
                "tie_rate_ci": tie_ci,
                "mean_score_diff": diff,
                "mean_score_diff_ci": diff_ci,
                "mean_turns": turns,
                "capped": int(a[R.R_CAPPED]),
                "capped_rate": capped,
                "capped_rate_ci": capped_ci,
                "seats": seats,
            }
        seats = []
        for s in range(2):
            loss, loss_ci = rate_ci(a[R.M_LOSSES + s], n)
            total, total_ci = mean_ci(a[R.M_TOTAL + s], a[R.M_TOTAL2 + s], n, scale=0.5)
            first, first_ci = rate_ci(a[R.M_FIRST_DEALT + s], n)
            seats.append(
                {
                    "seat": s,
                    "player": players[s].spec,
                    "loss_rate": loss,
                    "loss_rate_ci": loss_ci,
                    "mean_total": total,
                    "mean_total_ci": total_ci,
                    "first_dealer_rate": first,
                    "first_dealer_rate_ci": first_ci,
                }
            )
        draw, draw_ci = rate_ci(a[R.M_DRAWS], n)
        rounds, rounds_ci = mean_ci(a[R.M_ROUNDS], a[R.M_ROUNDS2], n)
        fd_loss, fd_loss_ci = rate_ci(a[R.M_FIRST_DEALER_LOST], n)
        played = int(a[R.M_ROUNDS])  # every round of every match (none is re-dealt)
        capped_rate, capped_rate_ci = rate_ci(a[R.M_CAPPED], played)
        return {
            "draw_rate": draw,
            "draw_rate_ci": draw_ci,
            "mean_rounds": rounds,
            "mean_rounds_ci": rounds_ci,
            "first_dealer_loss_rate": fd_loss,
            "first_dealer_loss_rate_ci": fd_loss_ci,
            "rounds_played": played,
            "capped": int(a[R.M_CAPPED]),
            "capped_rate": capped_rate,
            "capped_rate_ci": capped_rate_ci,
            "seats": seats,
        }

    def fields(self, unit: str) -> dict[str, Field]:
        return ROUND_FIELDS if unit == "round" else MATCH_FIELDS

    def record_columns(self, unit: str, n_seats: int) -> tuple[str, ...]:
        return R.REC_ROUND if unit == "round" else R.REC_MATCH

    def metrics(self, unit: str) -> tuple[Metric, ...]:
        if unit == "round":
            return (
                Metric("score", "points at the end of the round", True, 0.5, "mean"),
                Metric("win", "won the round (strictly lower score)", False),
            )
        return (
            Metric("loss", "lost the match", True),
            Metric("total", "points at the end of the match", True, 0.5, "mean"),
        )

    def outcomes(self, rec: np.ndarray, unit: str, n_seats: int) -> tuple[dict[str, np.ndarray], np.ndarray]:
        valid = np.ones(rec.shape[0], dtype=bool)  # capped rounds are scored as they stand
        if unit == "round":
            score = rec[:, 0:2]
            win = np.stack([score[:, 0] < score[:, 1], score[:, 1] < score[:, 0]], axis=1)
            return {"score": score.astype(np.int64), "win": win.astype(np.int64)}, valid
        loser = rec[:, 5]
        loss = np.stack([loser == 0, loser == 1], axis=1).astype(np.int64)
        return {"loss": loss, "total": rec[:, 0:2].astype(np.int64)}, valid

    def histograms(self, agg: np.ndarray, table: Table, unit: str) -> dict[str, np.ndarray]:
        if unit == "round":
            b = R.HIST_BINS
            return {f"score_half_seat{s}": agg[R.R_HIST + s * b : R.R_HIST + (s + 1) * b] for s in range(2)}
        return {"match_rounds": agg[R.M_RHIST : R.M_RHIST + R.RHIST_BINS]}

    def describe_error(self, err: np.ndarray, players: Sequence) -> str:
        from simulator import illegal

        _, _, seat, phase, action, turn, _ = (int(x) for x in err[: R.ERR_SIZE])
        spec = players[seat].spec
        if phase == SOURCE:  # the kernel refuses 1 only when the pile is empty
            return illegal.spokelse_source(spec, seat, action, turn, pile_empty=action == 1)
        # the kernel refuses 4 only for a card taken from the discard pile
        return illegal.spokelse_place(spec, seat, action, turn, from_discard=action == 4)

    def trace(self, table: Table, players: Sequence, seed: int, game_index: int, unit: str) -> str:
        names = [p.spec for p in players]
        if unit == "round":
            rec = reference.play_round(table.rules, players, seed=seed, game=game_index)
            return reference.format_round(rec, names=names)
        rec = reference.play_match(table.rules, players, seed=seed, game=game_index)
        return reference.format_match(rec, names=names)


SPOKELSE = Spokelse()
