"""Gris as the engine sees it: variants, kernel arrays, figures, records, errors, traces."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from simulator.cards import N_CARDS, name
from simulator.fields import Field
from simulator.games.base import Game, Metric, Table, Variant
from simulator.games.gris import kernel
from simulator.games.gris import rules as R
from simulator.games.gris.variants import (
    ABANDON_AFTER,
    CIRCULATION_CODES,
    DEFAULT_SEATS,
    MAX_SEATS,
    MIN_SEATS,
    STALL_CAP,
    Rules,
)
from simulator.reaction import profile_arrays
from simulator.stats import mean_ci, rate_ci


def _parse_circulation(text: str) -> str:
    t = text.strip().lower()
    if t not in CIRCULATION_CODES:
        raise ValueError(f"circulation is one of {', '.join(CIRCULATION_CODES)} (default straight)")
    return t


# What each figure of ``summarise`` and each metric of ``metrics`` means (simulator/fields.py).
# RULES.md §6: rates and means rest on the finished rounds (matches).
_LETTER = Field(
    "rate", "share of finished rounds given the letter", "lower", "last to put a thumb on the table"
)
_SIGNAL = Field(
    "rate", "share of finished rounds signalled first", "higher", "collected five of a suit first"
)
_LOSS = Field("rate", "share of finished matches lost", "lower", "held G-R-I-S at the end")
_LETTERS = Field("mean", "letters per match", "lower", "letters of G-R-I-S held when the match ends")
ROUND_FIELDS = {
    "signal_first_rate": _SIGNAL,
    "letter_rate": _LETTER,
    "dealt_complete_rate": Field(
        "rate",
        "share of finished rounds dealt five of a suit",
        words="held five of a suit as dealt (a five-card hand)",
        remark=(
            "always 0 for seat 0, which holds six cards in round play and passes before it can "
            "signal (RULES.md §1): not applicable to that seat"
        ),
    ),
    "finished": Field("count", "rounds", words="rounds that ended with a letter", of="n"),
    "stalled": Field(
        "count", "rounds", "lower", "rounds with no signal after the pass cap (enter no other figure)", of="n"
    ),
    "stalled_rate": Field("rate", "share of rounds stalled", "lower"),
    "mean_passes": Field("mean", "passes per finished round"),
    "dealt_signal_rate": Field(
        "rate", "share of finished rounds with five of a suit as dealt", words="a signal before any pass"
    ),
    "stall_cap": Field("setting", "passes", words="passes after which a round counts as stalled"),
    "letter": _LETTER,
    "signal_first": _SIGNAL,
}
MATCH_FIELDS = {
    "loss_rate": _LOSS,
    "mean_letters": _LETTERS,
    "first_dealer_rate": Field("rate", "share of finished matches dealt first"),
    "finished": Field("count", "matches", words="matches that ended with a loser", of="n"),
    "abandoned": Field(
        "count", "matches", "lower", "matches given up after too many stalled rounds in a row", of="n"
    ),
    "abandoned_rate": Field("rate", "share of matches abandoned", "lower"),
    "rounds_played": Field(
        "count", "rounds", words="rounds dealt in the finished matches, stalled ones included"
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
    "mean_rounds": Field("mean", "rounds per finished match"),
    "mean_passes": Field("mean", "passes per round"),
    "abandon_after": Field("setting", "stalled rounds", words="stalled rounds in a row that end a match"),
    "loss": _LOSS,
    "letters": _LETTERS,
}


class Gris(Game):
    name = "gris"
    title = "Gris: collect five of a suit, pass cards left, the last thumb on the table gets a letter"
    doc = (
        "Five cards each, six to the player left of the dealer, the rest a face-down stock. "
        "The holder of six passes one card left, round and round; a card that goes straight "
        "round the table back to its owner is swapped for the top of the stock. Five of one suit "
        "after passing (or as dealt): thumb on the table edge; the last to follow gets the next "
        "letter of G-R-I-S. Match play deals rounds until someone holds all four letters."
    )
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    default_seats = DEFAULT_SEATS
    default_opponent = "greedy"
    kernel = kernel
    rules_type = Rules
    uses_reaction = True
    variants = {
        "circulation": Variant(
            _parse_circulation,
            "which card back at its owner is swapped for the top of the stock: straight "
            "(default: after a straight trip round the table), always, or off",
        ),
    }

    def rules_arrays(self, table: Table) -> tuple[np.ndarray, np.ndarray]:
        rules: Rules = table.rules
        rules_i = np.array([table.n_seats, rules.circulation_code, STALL_CAP], dtype=np.int64)
        return rules_i, profile_arrays(table.reaction)

    def agg_size(self, unit: str, n_seats: int) -> int:
        return R.R_SIZE if unit == "round" else R.M_SIZE

    def summarise(self, agg: np.ndarray, table: Table, players: Sequence, unit: str, n: int) -> dict:
        """Round play: the rates and means rest on the ``finished`` rounds; a stalled round
        (no signal after STALL_CAP passes) is counted in ``stalled`` only (RULES.md §6).
        Match play: likewise on the ``finished`` matches; an abandoned match (ABANDON_AFTER
        stalled rounds in a row) is counted in ``abandoned`` only, and ``stalled`` counts the
        re-dealt rounds of the finished matches, out of ``rounds_played`` (every deal of the
        finished matches: counted rounds plus stalled ones)."""
        a = np.asarray(agg, dtype=np.int64)
        n_seats = table.n_seats
        if unit == "round":
            done = int(a[R.R_FINISHED])
            seats = []
            for s in range(n_seats):
                sig, sig_ci = rate_ci(a[R.R_SIGNAL + s], done)
                let, let_ci = rate_ci(a[R.R_LETTER + s], done)
                dealt, dealt_ci = rate_ci(a[R.R_DEALT_SEAT + s], done)
                seats.append(
                    {
                        "seat": s,
                        "player": players[s].spec,
                        "signal_first_rate": sig,
                        "signal_first_rate_ci": sig_ci,
                        "letter_rate": let,
                        "letter_rate_ci": let_ci,
                        "dealt_complete_rate": dealt,
                        "dealt_complete_rate_ci": dealt_ci,
                    }
                )
            passes, passes_ci = mean_ci(a[R.R_PASSES], a[R.R_PASSES2], done)
            dealt, dealt_ci = rate_ci(a[R.R_DEALT], done)
            stalled_rate, stalled_rate_ci = rate_ci(a[R.R_STALLED], n)
            return {
                "finished": done,
                "stalled": int(a[R.R_STALLED]),
                "stalled_rate": stalled_rate,
                "stalled_rate_ci": stalled_rate_ci,
                "mean_passes": passes,
                "mean_passes_ci": passes_ci,
                "dealt_signal_rate": dealt,
                "dealt_signal_rate_ci": dealt_ci,
                "stall_cap": STALL_CAP,
                "seats": seats,
            }
        done = int(a[R.M_FINISHED])
        rounds_total = int(a[R.M_ROUNDS])
        seats = []
        for s in range(n_seats):
            loss, loss_ci = rate_ci(a[R.M_LOSSES + s], done)
            letters, letters_ci = mean_ci(a[R.M_LETTERS + s], a[R.M_LETTERS2 + s], done)
            first, first_ci = rate_ci(a[R.M_FIRST_DEALT + s], done)
            seats.append(
                {
                    "seat": s,
                    "player": players[s].spec,
                    "loss_rate": loss,
                    "loss_rate_ci": loss_ci,
                    "mean_letters": letters,
                    "mean_letters_ci": letters_ci,
                    "first_dealer_rate": first,
                    "first_dealer_rate_ci": first_ci,
                }
            )
        rounds, rounds_ci = mean_ci(a[R.M_ROUNDS], a[R.M_ROUNDS2], done)
        # Passes per counted round; rounds of one match are independent deals.
        passes, passes_ci = mean_ci(a[R.M_PASSES], a[R.M_PASSES2], rounds_total)
        abandoned_rate, abandoned_rate_ci = rate_ci(a[R.M_ABANDONED], n)
        # Every deal of a finished match: the counted rounds and the stalled (re-dealt) ones.
        played = rounds_total + int(a[R.M_STALLED])
        stalled_rate, stalled_rate_ci = rate_ci(a[R.M_STALLED], played)
        return {
            "finished": done,
            "abandoned": int(a[R.M_ABANDONED]),
            "abandoned_rate": abandoned_rate,
            "abandoned_rate_ci": abandoned_rate_ci,
            "rounds_played": played,
            "stalled": int(a[R.M_STALLED]),
            "stalled_rate": stalled_rate,
            "stalled_rate_ci": stalled_rate_ci,
            "mean_rounds": rounds,
            "mean_rounds_ci": rounds_ci,
            "mean_passes": passes,
            "mean_passes_ci": passes_ci,
            "abandon_after": ABANDON_AFTER,
            "seats": seats,
        }

    def histograms(self, agg: np.ndarray, table: Table, unit: str) -> dict[str, np.ndarray]:
        """Rounds: ``passes`` (bin k = rounds with k passes; the last bin k or more).
        Matches: ``match_rounds`` (counted rounds) and ``letters_seat{s}`` (letters at the end)."""
        if unit == "round":
            return {"passes": agg[R.R_PASS_HIST : R.R_PASS_HIST + R.PASS_BINS]}
        k = R.N_LETTERS + 1
        out = {"match_rounds": agg[R.M_ROUNDS_HIST : R.M_ROUNDS_HIST + R.ROUNDS_BINS]}
        for s in range(table.n_seats):
            out[f"letters_seat{s}"] = agg[R.M_LETTERS_HIST + s * k : R.M_LETTERS_HIST + (s + 1) * k]
        return out

    # --- per-game records ---------------------------------------------------------

    def fields(self, unit: str) -> dict[str, Field]:
        return ROUND_FIELDS if unit == "round" else MATCH_FIELDS

    def record_columns(self, unit: str, n_seats: int) -> tuple[str, ...]:
        if unit == "round":
            return ("passes", "stalled", "loser", "signallers")
        letters = tuple(f"letters_{s}" for s in range(n_seats))
        return ("rounds", "stalled_rounds", "abandoned", "first_dealer", "loser", *letters)

    def metrics(self, unit: str) -> tuple[Metric, ...]:
        if unit == "round":
            return (
                Metric("letter", "got the letter (last to put a thumb on the table)", True),
                Metric("signal_first", "signalled (collected five of a suit first)", False),
            )
        return (
            Metric("loss", "lost the match (held G-R-I-S)", True),
            Metric("letters", "letters held at the end of the match", True, 1.0, "mean"),
        )

    def outcomes(self, rec: np.ndarray, unit: str, n_seats: int) -> tuple[dict[str, np.ndarray], np.ndarray]:
        seats = np.arange(n_seats)
        if unit == "round":
            valid = rec[:, 1] == 0  # RULES.md §6: a stalled round enters no figure
            letter = (rec[:, 2:3] == seats[None, :]).astype(np.int64)
            signal = ((rec[:, 3:4] >> seats[None, :]) & 1).astype(np.int64)
            return {"letter": letter, "signal_first": signal}, valid
        valid = rec[:, 2] == 0  # RULES.md §6: an abandoned match enters no figure
        loss = (rec[:, 4:5] == seats[None, :]).astype(np.int64)
        letters = rec[:, 5 : 5 + n_seats].astype(np.int64)
        return {"loss": loss, "letters": letters}, valid

    # --- errors and traces -----------------------------------------------------------

    def describe_error(self, err: np.ndarray, players: Sequence) -> str:
        from simulator import illegal

        _, _, seat, _, card, pass_no, _, _ = (int(x) for x in err[: R.ERR_SIZE])
        card_name = name(card) if 0 <= card < N_CARDS else None
        when = f"pass {pass_no} (PASSES={pass_no - 1})"
        return illegal.not_held(players[seat].spec, seat, card, card_name, "choosing a card to pass", when)

    def trace(self, table: Table, players: Sequence, seed: int, game_index: int, unit: str) -> str:
        from simulator.games.gris import reference

        names = [p.spec for p in players]
        if unit == "round":
            rec = reference.play_round(
                table.rules, players, seed=seed, game=game_index, profiles=table.reaction
            )
            return reference.format_round(rec, names=names)
        rec = reference.play_match(table.rules, players, seed=seed, game=game_index, profiles=table.reaction)
        return reference.format_match(rec, names=names)


GRIS = Gris()
