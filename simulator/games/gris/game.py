"""Gris as the engine sees it: variants, kernel arrays, figures, records, errors, traces."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from simulator.engine.cards import N_CARDS, name
from simulator.engine.fields import Field
from simulator.engine.plays import (
    Histogram,
    Outcome,
    Play,
    abandoned_matches,
    count,
    count_and_rate,
    mean,
    rate,
    rounds_played,
    setting,
    stalled_rounds,
)
from simulator.engine.reaction import profile_arrays
from simulator.games.base import Game, Table, Variant
from simulator.games.gris import kernel
from simulator.games.gris import layout as L
from simulator.games.gris import profile as P
from simulator.games.gris.rules import LOG_FIELDS
from simulator.games.gris.variants import (
    ABANDON_AFTER,
    CIRCULATION_CODES,
    DEFAULT_SEATS,
    MAX_SEATS,
    MIN_SEATS,
    STALL_CAP,
    Rules,
)
from simulator.games.traces import log_moves, reference_trace, strategy_arrays


def _parse_circulation(text: str) -> str:
    t = text.strip().lower()
    if t not in CIRCULATION_CODES:
        raise ValueError(f"circulation is one of {', '.join(CIRCULATION_CODES)} (default straight)")
    return t


# The summary's figures, the outcomes and the histograms, over the rows of layout.py; their
# meanings (simulator/engine/fields.py) travel with them.  RULES.md §6: rates and means rest on the
# finished rounds (matches).  Round play: a stalled round (no signal after STALL_CAP passes)
# is counted in ``stalled`` only.  Match play: an abandoned match (ABANDON_AFTER stalled rounds
# in a row) is counted in ``abandoned`` only, and ``stalled`` counts the re-dealt rounds of the
# finished matches, out of ``rounds_played`` (every deal of the finished matches: counted rounds
# plus stalled ones).
_LETTER = Field(
    "rate", "share of finished rounds given the letter", "lower", "last to put a thumb on the table"
)
_SIGNAL = Field(
    "rate", "share of finished rounds signalled first", "higher", "collected five of a suit first"
)
_LOSS = Field("rate", "share of finished matches lost", "lower", "held G-R-I-S at the end")
_LETTERS = Field("mean", "letters per match", "lower", "letters of G-R-I-S held when the match ends")
ROUND = Play(
    agg=L.ROUND_AGG,
    records=L.ROUND_REC,
    figures=(
        count(
            "finished",
            ["finished"],
            Field("count", "rounds", words="rounds that ended with a letter", of="n"),
        ),
        *count_and_rate(
            "stalled",
            Field(
                "count", "rounds", "lower", "rounds with no signal after the pass cap (enter no other figure)"
            ),
            Field("rate", "share of rounds stalled", "lower"),
        ),
        mean("mean_passes", "passes", "passes2", Field("mean", "passes per finished round"), of="finished"),
        rate(
            "dealt_signal_rate",
            "dealt",
            Field(
                "rate",
                "share of finished rounds with five of a suit as dealt",
                words="a signal before any pass",
            ),
            of="finished",
        ),
        setting(
            "stall_cap",
            STALL_CAP,
            Field("setting", "passes", words="passes after which a round counts as stalled"),
        ),
    ),
    seat_figures=(
        rate("signal_first_rate", "signal", _SIGNAL, of="finished"),
        rate("letter_rate", "letter", _LETTER, of="finished"),
        rate(
            "dealt_complete_rate",
            "dealt_seat",
            Field(
                "rate",
                "share of finished rounds dealt five of a suit",
                words="held five of a suit as dealt (a five-card hand)",
                remark=(
                    "always 0 for seat 0, which holds six cards in round play and passes before it can "
                    "signal (RULES.md §1): not applicable to that seat"
                ),
                not_for=(0,),
            ),
            of="finished",
        ),
    ),
    outcomes=(
        Outcome(
            "letter", "loser", "is_seat", "got the letter (last to put a thumb on the table)", True, _LETTER
        ),
        Outcome(
            "signal_first", "signallers", "bit", "signalled (collected five of a suit first)", False, _SIGNAL
        ),
    ),
    uncounted=("stalled",),
    histograms=(Histogram("passes", "pass_hist"),),  # bin k: rounds with k passes
)
MATCH = Play(
    agg=L.MATCH_AGG,
    records=L.MATCH_REC,
    figures=(
        count(
            "finished",
            ["finished"],
            Field("count", "matches", words="matches that ended with a loser", of="n"),
        ),
        *abandoned_matches(),
        rounds_played(["rounds", "stalled"], "rounds dealt in the finished matches, stalled ones included"),
        *stalled_rounds(),
        mean("mean_rounds", "rounds", "rounds2", Field("mean", "rounds per finished match"), of="finished"),
        # passes per counted round; rounds of one match are independent deals
        mean("mean_passes", "passes", "passes2", Field("mean", "passes per round"), of="rounds"),
        setting(
            "abandon_after",
            ABANDON_AFTER,
            Field("setting", "stalled rounds", words="stalled rounds in a row that end a match"),
        ),
    ),
    seat_figures=(
        rate("loss_rate", "losses", _LOSS, of="finished"),
        mean("mean_letters", "letters", "letters2", _LETTERS, of="finished"),
        rate(
            "first_dealer_rate",
            "first_dealt",
            Field("rate", "share of finished matches dealt first"),
            of="finished",
        ),
    ),
    outcomes=(
        Outcome("loss", "loser", "is_seat", "lost the match (held G-R-I-S)", True, _LOSS),
        Outcome("letters", "letters", "value", "letters held at the end of the match", True, _LETTERS),
    ),
    uncounted=("abandoned",),
    histograms=(Histogram("match_rounds", "rounds_hist"), Histogram("letters_seat{s}", "letters_hist")),
)


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
    plays = {"round": ROUND, "match": MATCH}
    error_row = L.ERR
    observation = L.OBS
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

    # --- errors and traces -----------------------------------------------------------

    def describe_error(self, err: np.ndarray, players: Sequence) -> str:
        from simulator.games import illegal

        e = L.ERR.read(err)
        seat, card, pass_no = e["seat"], e["card"], e["pass_no"]
        card_name = name(card) if 0 <= card < N_CARDS else None
        when = f"pass {pass_no} (PASSES={pass_no - 1})"
        return illegal.not_held(players[seat].spec, seat, card, card_name, "choosing a card to pass", when)

    def trace(self, table: Table, players: Sequence, seed: int, game_index: int, unit: str) -> str:
        from simulator.games.gris import reference

        return reference_trace(
            reference, table.rules, players, seed, game_index, unit, profiles=table.reaction
        )

    profile = P  # what kortsim profile reads

    # --- conformance hooks (tests/games/test_conformance.py; docs/adding-a-game.md) --------

    strategies_module = "simulator.games.gris.strategies"
    tabletop_module = "simulator.games.gris.tabletop"

    def moves(
        self, table: Table, players: Sequence, seed: int, game_index: int, deal: int, engine: str
    ) -> list[tuple[int, ...]]:
        """Every event of one deal, as ``(kind, seat, card, other)`` (a pass, or a
        circulation exchange), seat n-1 dealing as in a run of rounds (:meth:`Game.moves`)."""
        from simulator.games.gris import reference

        if engine == "reference":
            rec = reference.play_round(
                table.rules, players, seed=seed, game=game_index, deal=deal, profiles=table.reaction
            )
            return [tuple(e) for e in rec.events]
        n = table.n_seats
        rules_i, rules_f = self.rules_arrays(table)
        log = np.full((2 * STALL_CAP + 2, LOG_FIELDS), -1, np.int64)  # at most one exchange a pass
        sids, params = strategy_arrays(players)
        times, signallers = np.zeros(n), np.zeros(n, np.int64)
        events, _, _, _ = kernel.trace_round_nb(
            sids, params, rules_i, rules_f, seed, game_index, deal, n - 1, log, times, signallers
        )
        return log_moves(log, events)

    def reference_record(
        self, table: Table, players: Sequence, seed: int, game_index: int, unit: str
    ) -> tuple[int, ...]:
        """Game ``game_index`` of a run, played by the reference, as the row of
        :meth:`record_columns` that ``records_block_nb`` writes for it (:meth:`Game.reference_record`)."""
        from simulator.games.gris import reference

        prof = table.reaction
        if unit == "round":
            rec = reference.play_round(table.rules, players, seed=seed, game=game_index, profiles=prof)
            mask = 0 if rec.stalled else sum(1 << s for s in rec.signallers)
            return (rec.passes, int(rec.stalled), rec.loser, mask)
        m = reference.play_match(table.rules, players, seed=seed, game=game_index, profiles=prof)
        stalled = sum(r.stalled for r in m.rounds)
        return (m.counted_rounds, stalled, int(m.abandoned), m.first_dealer, m.loser, *m.letters)

    def card_places(
        self, table: Table, players: Sequence, seed: int, game_index: int
    ) -> tuple[tuple[int, ...], list[dict[str, list[int]]]]:
        """The 52 cards, and where each is after the deal, after every pass and after the
        passed card's arrival (and exchange), in a reference round (:meth:`Game.card_places`)."""
        from simulator.games.gris import reference

        n = table.n_seats
        t = reference.deal_cards(table.rules, reference.shuffle_deck(seed, game_index), n, n - 1)
        rngs = reference.seat_streams(seed, game_index, 0, players)
        states = []
        signalled = bool(reference.dealt_signallers(t))
        while True:
            states.append({**{f"hand {s}": list(h) for s, h in enumerate(t.hands)}, "stock": list(t.stock)})
            if signalled or t.passes >= STALL_CAP:
                return tuple(range(N_CARDS)), states
            seat = t.to_play
            left, card = reference.pass_turn(t, players, rngs)
            states.append({**{f"hand {s}": list(h) for s, h in enumerate(t.hands)}, "stock": list(t.stock)})
            reference.arrive(t, left, card)  # an exchange, if due
            signalled = reference.signals(t, seat)


GRIS = Gris()
