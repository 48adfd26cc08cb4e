"""Gris's rows, declared once: the observation, the aggregates, the records, the error row.

``observation.py`` and ``rules.py`` take their offsets from these declarations; the
summary, the histograms, the record columns and their docs are generated from them
(:mod:`simulator.engine.layout`, :mod:`simulator.engine.summary`).  The aggregates keep one slot per
seat for up to ``MAX_SEATS`` seats, whatever the table, so their offsets are fixed.
"""

from __future__ import annotations

from simulator.engine.cards import N_SUITS
from simulator.engine.layout import SEATS, Layout, Piece
from simulator.games.gris.variants import MAX_SEATS

MAX_HAND = 6
N_MEMORY = 4
PASS_BINS = 512  # passes per round; the last bin is that many or more
ROUNDS_BINS = 3 * MAX_SEATS + 2  # a match lasts at most 3n + 1 counted rounds
LETTER_BINS = 5  # 0 to 4 letters of G-R-I-S (rules.N_LETTERS + 1)

OBS = Layout(
    "Gris observation",
    [
        Piece("seat", "seat", "own seat"),
        Piece("n_players", "value", "players at the table"),
        Piece("passes", "value", "passes made in this round so far, by anyone"),
        Piece("my_passes", "value", "passes this player has made in this round"),
        Piece("hand_size", "value", "cards in hand (6 when asked)"),
        Piece(
            "incoming",
            "code",
            "the card that arrived this turn (received or drawn), -1 for the six-card seat's first pass",
        ),
        Piece("incoming_drawn", "flag", "1 if INCOMING was drawn from the stock in a circulation exchange"),
        Piece("hand", "code", "card {s} of the hand in ascending card code, -1 padded", MAX_HAND),
        Piece("suit_count", "value", "cards of suit {s} in hand", N_SUITS),
        Piece(
            "received_suit",
            "value",
            "cards of suit {s} received from the right this round (those it remembers: human-players.md)",
            N_SUITS,
        ),
        Piece(
            "passed_suit",
            "value",
            "cards of suit {s} this player passed this round (those it remembers: human-players.md)",
            N_SUITS,
        ),
        Piece("memory", "value", "the strategy's own memory {s} for this round (-1 at the deal)", N_MEMORY),
    ],
    "what a strategy sees (one int64 row per seat)",
)

ERR = Layout(
    "Gris error row",
    [
        Piece("flag", "flag", "1 once a strategy broke the rules"),
        Piece("game", "value", "the game's index in the run"),
        Piece("seat", "seat", "the seat whose strategy broke the rules"),
        Piece("what", "code", "what was wrong (ERR_NOT_HELD: a card it does not hold)"),
        Piece("card", "code", "the card the strategy answered"),
        Piece("pass_no", "value", "the pass it was asked for (PASSES + 1)"),
        Piece("strategy", "code", "the strategy's id"),
        Piece("deal", "value", "the deal of the match (0 in round play)"),
    ],
    "one row per chunk",
)

ROUND_AGG = Layout(
    "Gris round aggregates",
    [
        Piece("finished", "count", "rounds that ended with a signal"),
        Piece(
            "stalled", "count", "rounds stopped by the stall guard (RULES.md §6: they enter no other figure)"
        ),
        Piece("dealt", "count", "finished rounds whose signal came at the deal (passes == 0)"),
        Piece("passes", "sum", "passes over finished rounds"),
        Piece("passes2", "sum2", "squared passes over finished rounds"),
        Piece("signal", "count", "rounds in which seat {s} was a signaller", MAX_SEATS),
        Piece("letter", "count", "letters seat {s} received", MAX_SEATS),
        Piece("dealt_seat", "count", "rounds in which seat {s} was dealt a complete hand", MAX_SEATS),
        Piece("pass_hist", "hist", "passes per finished round", 1, PASS_BINS),
    ],
    "one row per chunk, sums over its rounds",
)

MATCH_AGG = Layout(
    "Gris match aggregates",
    [
        Piece("finished", "count", "matches that ended with a loser"),
        Piece("abandoned", "count", "matches abandoned after ABANDON_AFTER stalled rounds in a row"),
        Piece("stalled", "count", "stalled (re-dealt) rounds in the finished matches"),
        Piece("rounds", "sum", "counted rounds per finished match"),
        Piece("rounds2", "sum2", "squared counted rounds per finished match"),
        Piece("passes", "sum", "passes over the counted rounds of finished matches"),
        Piece("passes2", "sum2", "squared passes over the counted rounds of finished matches"),
        Piece("losses", "count", "matches seat {s} lost", MAX_SEATS),
        Piece("letters", "sum", "letters seat {s} held at the end", MAX_SEATS),
        Piece("letters2", "sum2", "squared letters seat {s} held at the end", MAX_SEATS),
        Piece("first_dealt", "count", "finished matches in which seat {s} dealt first", MAX_SEATS),
        Piece("rounds_hist", "hist", "counted rounds per finished match", 1, ROUNDS_BINS),
        Piece("letters_hist", "hist", "letters seat {s} held at the end", MAX_SEATS, LETTER_BINS),
    ],
    "one row per chunk, sums over its matches",
)

ROUND_REC = Layout(
    "Gris round record",
    [
        Piece("passes", "value", "passes made in the round"),
        Piece("stalled", "flag", "1 if the round stalled (RULES.md §6)"),
        Piece("loser", "seat", "the seat that got the letter (-1 if stalled)"),
        Piece("signallers", "mask", "bit mask of the seats that signalled (bit s = seat s)"),
    ],
)

MATCH_REC = Layout(
    "Gris match record",
    [
        Piece("rounds", "value", "counted rounds of the match"),
        Piece("stalled_rounds", "value", "stalled deals of the match"),
        Piece("abandoned", "flag", "1 if the match was abandoned"),
        Piece("first_dealer", "seat", "the seat that dealt the first round"),
        Piece("loser", "seat", "the seat that lost the match, holding G-R-I-S (-1 if abandoned)"),
        Piece("letters", "value", "letters seat {s} held at the end of the match", SEATS),
    ],
)
