"""Spøkelse's rows, declared once: the observation, the aggregates, the records, the error row.

``observation.py`` and ``rules.py`` take their offsets from these declarations; the
summary, the histograms, the record columns and their docs are generated from them
(:mod:`simulator.engine.layout`, :mod:`simulator.engine.summary`).  Points are kept in half points
(the jack is 1 or 22) so sums are exact.
"""

from __future__ import annotations

from simulator.engine.layout import Layout, Piece

N_SEATS = 2
HIST_BINS = 131  # scores 0..130 half points (five kings)
RHIST_BINS = 128  # match lengths; the last bin is that many rounds or more
N_SLOTS = 4
N_RANKS = 13

OBS = Layout(
    "Spøkelse observation",
    [
        Piece("phase", "code", "SOURCE (0) or PLACE (1)"),
        Piece("hand", "code", "the card in hand (PLACE), else -1"),
        Piece("from_discard", "flag", "1 when the card in hand came from the discard pile, else 0"),
        Piece("discard_top", "code", "the discard pile's top card, -1 when the pile is empty"),
        Piece("stock_left", "value", "cards in the stock now (a stock card in hand is already drawn)"),
        Piece("turn", "value", "turns finished in this round"),
        Piece("seat", "seat", "0 or 1"),
        Piece(
            "my_total",
            "value",
            "match play: own total before this round (0 in round play)",
            unit="half points",
        ),
        Piece("opp_total", "value", "match play: opponent's total before this round", unit="half points"),
        Piece("target", "value", "match play: the target (0 in round play)", unit="half points"),
        Piece("hand_value", "value", "points of the card in hand, -1 if none", unit="half points"),
        Piece(
            "discard_value", "value", "points of the discard top, -1 if the pile is empty", unit="half points"
        ),
        Piece("high", "value", "the highest value among own known slots, -1 if no slot is known"),
        Piece("high_slot", "value", "the lowest-numbered slot holding HIGH, -1 if none"),
        Piece("unknown_slot", "value", "the lowest-numbered unknown own slot, -1 if all are known"),
        Piece("slot", "code", "own slot {s}'s card if known, else -1", N_SLOTS),
        Piece("slot_value", "value", "own slot {s}'s points, -1 if unknown", N_SLOTS, unit="half points"),
        Piece(
            "opp_slot",
            "code",
            "opponent's slot {s} if public (taken from the discard pile), else -1",
            N_SLOTS,
        ),
        Piece("value", "value", "points of rank {s}", N_RANKS, unit="half points"),
        Piece("unseen", "value", "cards of rank {s} whose place this player does not know", N_RANKS),
    ],
    "what a strategy sees (one int64 row per seat)",
)

ERR = Layout(
    "Spøkelse error row",
    [
        Piece("flag", "flag", "1 once a strategy broke the rules"),
        Piece("game", "value", "the game's index in the run"),
        Piece("seat", "seat", "the seat whose strategy broke the rules"),
        Piece("phase", "code", "SOURCE or PLACE: the decision"),
        Piece("action", "code", "what the strategy answered"),
        Piece("turn", "value", "turns finished in the round (the observation's TURN)"),
        Piece("strategy", "code", "the strategy's id"),
    ],
    "one row per chunk",
)

ROUND_AGG = Layout(
    "Spøkelse round aggregates",
    [
        Piece("score_sum", "sum", "seat {s}'s scores", N_SEATS, scale=0.5, unit="half points"),
        Piece("score_sum2", "sum2", "seat {s}'s squared scores", N_SEATS, scale=0.5),
        Piece("wins", "count", "rounds seat {s} won", N_SEATS),
        Piece("ties", "count", "rounds tied"),
        Piece("capped", "count", "rounds stopped at the turn cap"),
        Piece("turns", "sum", "turns"),
        Piece("score_cross", "cross", "score of seat 0 times score of seat 1", scale=0.5),
        Piece("score_hist", "hist", "seat {s}'s score", N_SEATS, HIST_BINS, unit="half points"),
    ],
    "one row per chunk, sums over its rounds",
)

MATCH_AGG = Layout(
    "Spøkelse match aggregates",
    [
        Piece("losses", "count", "matches seat {s} lost", N_SEATS),
        Piece("draws", "count", "matches drawn"),
        Piece("rounds", "sum", "rounds per match"),
        Piece("rounds2", "sum2", "squared rounds per match"),
        Piece("capped", "count", "rounds stopped at the turn cap"),
        Piece("total_sum", "sum", "seat {s}'s final totals", N_SEATS, scale=0.5, unit="half points"),
        Piece("total_sum2", "sum2", "seat {s}'s squared final totals", N_SEATS, scale=0.5),
        Piece("first_dealt", "count", "matches in which seat {s} dealt first", N_SEATS),
        Piece("first_dealer_lost", "count", "matches lost by the first dealer"),
        Piece("rounds_hist", "hist", "rounds per match", 1, RHIST_BINS),
    ],
    "one row per chunk, sums over its matches",
)

ROUND_REC = Layout(
    "Spøkelse round record",
    [
        Piece(
            "score_half",
            "value",
            "seat {s}'s score at the end of the round, in half points",
            N_SEATS,
            scale=0.5,
            unit="half points",
        ),
        Piece("turns", "value", "turns played in the round"),
        Piece("capped", "flag", "1 if the round was stopped at the 400-turn cap"),
    ],
)

MATCH_REC = Layout(
    "Spøkelse match record",
    [
        Piece(
            "total_half",
            "value",
            "seat {s}'s match total at the end, in half points",
            N_SEATS,
            scale=0.5,
            unit="half points",
        ),
        Piece("rounds", "value", "rounds played in the match"),
        Piece("capped_rounds", "value", "rounds of the match stopped at the 400-turn cap"),
        Piece("first_dealer", "seat", "the seat that dealt the first round"),
        Piece("loser", "seat", "the seat that lost the match (-1 for a draw)"),
    ],
)
