"""Gris-nese's rows, declared once: the observation, the aggregates, the records, the error row.

``observation.py`` and ``rules.py`` take their offsets from these declarations; the
summary, the histograms, the record columns and their docs are generated from them
(:mod:`simulator.engine.layout`, :mod:`simulator.engine.summary`).  The aggregates keep one slot per
seat for up to ``MAX_SEATS`` seats (one rank group per player), so their offsets are fixed.
"""

from __future__ import annotations

from simulator.engine.layout import SEATS, Layout, Piece

HAND_SIZE = 4
N_MEMORY = 4
MAX_GROUPS = 8
MAX_SEATS = MAX_GROUPS  # one rank group per player
PASS_BINS = 512  # pass steps per counted round; the last bin is that many or more
DEAL_BINS = 128  # deals per finished match; the last bin is that many or more

OBS = Layout(
    "Gris-nese observation",
    [
        Piece("seat", "seat", "own original seat"),
        Piece("n_players", "value", "players still in the game (= rank groups in play)"),
        Piece("steps", "value", "pass steps completed in this round"),
        Piece("hand", "code", "card {s} of the hand in ascending card code", HAND_SIZE),
        Piece("group_count", "value", "cards of group {s} in hand", MAX_GROUPS),
        Piece("incoming", "code", "the card received at the last step, -1 before the first"),
        Piece("received_group", "value", "cards of group {s} received from the right this round", MAX_GROUPS),
        Piece("passed_group", "value", "cards of group {s} this player passed this round", MAX_GROUPS),
        Piece("memory", "value", "the strategy's own memory {s} (-1 at each deal)", N_MEMORY),
    ],
    "what a strategy sees (one int64 row per seat)",
)

ERR = Layout(
    "Gris-nese error row",
    [
        Piece("flag", "flag", "1 once a strategy broke the rules"),
        Piece("game", "value", "the game's index in the run"),
        Piece("seat", "seat", "the original seat whose strategy broke the rules"),
        Piece("deal", "value", "the deal of the match (0 in round play)"),
        Piece("card", "code", "the card the strategy answered"),
        Piece("step", "value", "pass steps completed (the observation's STEPS)"),
        Piece("strategy", "code", "the strategy's id"),
        Piece("spare", "value", "0"),
    ],
    "one row per chunk",
)

ROUND_AGG = Layout(
    "Gris-nese round aggregates",
    [
        Piece("counted", "count", "rounds that ended with a loser"),
        Piece("stalled", "count", "rounds stalled"),
        Piece("replayed", "count", "rounds replayed"),
        Piece("passes", "sum", "pass steps over counted rounds"),
        Piece("passes2", "sum2", "squared pass steps over counted rounds"),
        Piece("dealt", "count", "counted rounds with four of a kind dealt"),
        Piece("all", "count", "counted rounds in which everybody signalled at once"),
        Piece("signal", "count", "rounds in which seat {s} signalled", MAX_SEATS),
        Piece("out", "count", "rounds seat {s} lost (it leaves)", MAX_SEATS),
        Piece("pass_hist", "hist", "pass steps per counted round", 1, PASS_BINS),
    ],
    "one row per chunk, sums over its rounds",
)

MATCH_AGG = Layout(
    "Gris-nese match aggregates",
    [
        Piece("finished", "count", "matches that ended with two joint winners"),
        Piece("abandoned", "count", "matches abandoned"),
        Piece("stalled", "count", "stalled rounds in finished matches"),
        Piece("replayed", "count", "replayed rounds in finished matches"),
        Piece("rounds", "sum", "counted rounds per finished match"),
        Piece("rounds2", "sum2", "squared counted rounds per finished match"),
        Piece("wins", "count", "finished matches seat {s} won", MAX_SEATS),
        Piece("place", "sum", "seat {s}'s places", MAX_SEATS),
        Piece("place2", "sum2", "seat {s}'s squared places", MAX_SEATS),
        Piece("deals_hist", "hist", "deals per finished match (stalled and replayed included)", 1, DEAL_BINS),
    ],
    "one row per chunk, sums over its matches",
)

ROUND_REC = Layout(
    "Gris-nese round record",
    [
        Piece("passes", "value", "passes made in the round"),
        Piece("stalled", "flag", "1 if the round stalled"),
        Piece("replayed", "flag", "1 if the round was replayed"),
        Piece("loser", "seat", "the original seat that left (-1 if stalled or replayed)"),
        Piece("signallers", "mask", "bit mask over original seats that held four of a kind"),
    ],
)

MATCH_REC = Layout(
    "Gris-nese match record",
    [
        Piece("abandoned", "flag", "1 if the match was abandoned"),
        Piece("rounds", "value", "rounds of the match"),
        Piece("stalled", "value", "stalled deals of the match"),
        Piece("replayed", "value", "replayed deals of the match"),
        Piece("deals", "value", "deals of the match, stalled and replayed ones included"),
        Piece(
            "place", "value", "original seat {s}'s place (1 for the two joint winners; 0 if abandoned)", SEATS
        ),
    ],
)
