"""Layouts declared once: offsets contiguous and never numbered by hand, the summary, the
histograms, the outcomes and the record columns generated from the declarations, and
``docs/records.md`` in step with them.

``python tests/engine/test_layout.py --regenerate`` rewrites the generated block of
``docs/records.md`` after a record layout or a metric changed, and the tables of
``docs/observations.md`` after an observation layout changed.
"""

import ast
import importlib
import inspect
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from simulator.engine import summary as figures
from simulator.engine.fields import Field
from simulator.engine.layout import SEATS, Layout, Piece
from simulator.engine.plays import Figure, Outcome, Play, rate, ratio
from simulator.engine.stats import rate_ci
from simulator.games import all_games
from simulator.games.base import UNITS
from simulator.running.records import column_docs, columns_doc, record_schema

GAMES = all_games()
DOC = Path(__file__).resolve().parents[2] / "docs" / "records.md"
BEGIN = "<!-- columns: generated from the games' record layouts by `python tests/engine/test_layout.py --regenerate` -->\n"
END = "<!-- end of columns -->\n"
OBS_DOC = DOC.parent / "observations.md"
OBS_BEGIN = "<!-- observations: generated from the games' layouts by `python tests/engine/test_layout.py --regenerate` -->\n"
OBS_END = "<!-- end of observations -->\n"
CASES = [(name, unit) for name in GAMES for unit in UNITS]
# How each kind of figure reads its pieces, and the kind of its field.
READS = {"rate": ("count",), "mean": ("sum", "sum2"), "diff": ("sum", "sum2", "cross"), "ratio": ("sum",)}
FIELD_KIND = {
    "rate": "rate",
    "mean": "mean",
    "diff": "diff",
    "ratio": "mean",
    "count": "count",
    "setting": "setting",
}


class Player:
    def __init__(self, spec: str) -> None:
        self.spec = spec


def layouts(game):
    out = [game.observation, game.error_row]
    for unit in UNITS:
        out += [game.play(unit).agg, game.play(unit).records]
    return out


def seat_counts(game):
    return sorted({game.min_seats, game.default_seats, game.max_seats})


@pytest.mark.parametrize("name", GAMES)
def test_every_layout_is_contiguous_and_non_overlapping(name):
    game = GAMES[name]
    for layout in layouts(game):
        for n_seats in seat_counts(game):
            at = 0
            for piece, start, stop in layout.spans(n_seats):
                assert start == at and stop > start, (layout.name, piece.name)
                assert layout.offset(piece.name, n_seats) == start
                assert layout.slice(piece.name, n_seats) == slice(start, stop)
                at = stop
            assert at == layout.size(n_seats)
            assert len(layout.columns(n_seats)) == layout.size(n_seats)
            assert len(set(layout.columns(n_seats))) == layout.size(n_seats), layout.name


@pytest.mark.parametrize("name", GAMES)
def test_every_piece_is_documented_and_seat_pieces_fit_the_table(name):
    game = GAMES[name]
    for layout in layouts(game):
        for piece in layout:
            assert piece.doc.strip(), (layout.name, piece.name)
            wide = piece.width == SEATS or piece.copies() > 1
            assert ("{s}" in piece.doc) == wide, (layout.name, piece.name, "says {s} exactly when wide")
    for unit in UNITS:
        play = game.play(unit)
        for f in play.seat_figures:  # a seat reads slot s of a piece with room for every seat
            for p in f.pieces:
                assert play.agg.piece(p).copies() >= game.max_seats, (unit, f.name, p)


def _int_assignments(module) -> dict[str, int]:
    """Module-level ``NAME = <int literal>`` of a module's source: numbers written by hand."""
    tree = ast.parse(inspect.getsource(module))
    out = {}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)):
            continue
        if isinstance(node.value.value, int) and not isinstance(node.value.value, bool):
            out.update({t.id: node.value.value for t in node.targets if isinstance(t, ast.Name)})
    return out


@pytest.mark.parametrize("name", GAMES)
def test_kernels_take_their_offsets_from_the_declarations(name):
    game = GAMES[name]
    package = game.kernel.__name__.rpartition(".")[0]
    rules = importlib.import_module(f"{package}.rules")
    obs = importlib.import_module(f"{package}.observation")
    by_hand = _int_assignments(rules)
    assert not [k for k in by_hand if k.startswith(("R_", "M_")) or k == "ERR_SIZE"], by_hand
    assert game.agg_size("round", game.max_seats) == rules.R_SIZE
    assert game.agg_size("match", game.max_seats) == rules.M_SIZE
    assert game.error_row.size() == rules.ERR_SIZE
    # Every aggregate offset the kernels use is where a declared piece starts.
    for prefix, unit in (("R_", "round"), ("M_", "match")):
        agg = game.play(unit).agg
        starts = {start for _, start, _ in agg.spans()}
        for k, v in vars(rules).items():
            if k.startswith(prefix) and k != f"{prefix}SIZE" and isinstance(v, int):
                assert v in starts, (unit, k, v)
    # The observation's offsets: every declared field, none numbered by hand.
    assert game.observation.size() == obs.OBS_SIZE
    for piece, start, _ in game.observation.spans():
        assert getattr(obs, piece.name.upper()) == start, piece.name
    assert not set(_int_assignments(obs)) & {p.name.upper() for p in game.observation}


def test_the_gris_letter_histogram_has_a_bin_per_number_of_letters():
    from simulator.games.gris import layout, rules

    assert layout.LETTER_BINS == rules.N_LETTERS + 1
    assert GAMES["gris"].play("match").agg.piece("letters_hist").bins == rules.N_LETTERS + 1


def _random_agg(game, unit, seed=3):
    """Random aggregates, the totals figures are out of well above the counts."""
    play = game.play(unit)
    agg = np.random.default_rng(seed).integers(0, 100, size=play.agg.size()).astype(np.int64)
    for f in (*play.figures, *play.seat_figures):
        for total in (f.of, *(f.pieces if f.how == "count" else ())):
            if total in play.agg:
                agg[play.agg.offset(total)] = 10_000
    return agg


@pytest.mark.parametrize(("name", "unit"), CASES)
def test_the_summary_has_exactly_the_declared_figures_each_with_its_meaning(name, unit):
    game = GAMES[name]
    play = game.play(unit)
    n_seats = game.default_seats
    table = game.table(n_seats=n_seats)
    players = [Player(f"p{s}") for s in range(n_seats)]
    summary = game.summarise(_random_agg(game, unit), table, players, unit, 10**6)
    fields = game.fields(unit)

    def expected(figs):
        keys = []
        for f in figs:
            keys += [f.name, f"{f.name}_ci"] if f.how in ("rate", "mean", "diff") else [f.name]
        return keys

    assert list(summary) == [*expected(play.figures), "seats"]
    assert [s["seat"] for s in summary["seats"]] == list(range(n_seats))
    for s, seat in enumerate(summary["seats"]):
        assert list(seat) == ["seat", "player", *expected(play.seat_figures)]
        assert seat["player"] == f"p{s}"
    for f in (*play.figures, *play.seat_figures):
        assert fields[f.name] is f.field and f.field.kind == FIELD_KIND[f.how], f.name
    for o in play.outcomes:
        assert fields[o.name] is o.field
    assert set(fields) == {f.name for f in (*play.figures, *play.seat_figures)} | {
        o.name for o in play.outcomes
    }


@pytest.mark.parametrize(("name", "unit"), CASES)
def test_figures_read_pieces_of_the_right_kind_out_of_a_declared_total(name, unit):
    play = GAMES[name].play(unit)
    known = {"n"}
    for f in (*play.figures, *play.seat_figures):
        if f.how in READS:
            assert tuple(play.agg.piece(p).kind for p in f.pieces) == READS[f.how], f.name
            if f.of not in known:  # else a one-slot piece of the aggregates
                piece = play.agg.piece(f.of)
                assert piece.span() == 1 and piece.kind in ("count", "sum"), (f.name, f.of)
        if f.how == "count":
            assert all(play.agg.piece(p).span() == 1 for p in f.pieces)
            known.add(f.name)
        if f.how == "diff":
            assert play.agg.piece(f.pieces[0]).copies() == 2


def test_a_hand_made_aggregate_gives_the_figures_by_their_formulas():
    """Spøkelse rounds: 4 rounds, scores (in half points) 10/20, 30/10, 0/0, 20/30."""
    game = GAMES["spokelse"]
    play = game.play("round")
    s0, s1, turns = np.array([10, 30, 0, 20]), np.array([20, 10, 0, 30]), np.array([30, 40, 50, 60])
    agg = np.zeros(game.agg_size("round", 2), np.int64)
    at = play.agg.offset
    agg[at("score_sum") : at("score_sum") + 2] = s0.sum(), s1.sum()
    agg[at("score_sum2") : at("score_sum2") + 2] = (s0 * s0).sum(), (s1 * s1).sum()
    agg[at("wins") : at("wins") + 2] = (s0 < s1).sum(), (s1 < s0).sum()
    agg[at("ties")] = (s0 == s1).sum()
    agg[at("turns")] = turns.sum()
    agg[at("score_cross")] = (s0 * s1).sum()
    table = game.table()
    out = game.summarise(agg, table, [Player("a"), Player("b")], "round", 4)
    d = (s0 - s1) * 0.5
    assert out["mean_score_diff"] == pytest.approx(d.mean())
    lo, hi = out["mean_score_diff_ci"]
    assert (hi - lo) / 2 == pytest.approx(1.959964 * d.std(ddof=1) / 2, rel=1e-5)
    assert out["tie_rate"] == 0.25 and out["mean_turns"] == 45.0 and out["capped"] == 0
    assert out["seats"][0]["mean_score"] == 7.5 and out["seats"][1]["mean_score"] == 7.5
    assert out["seats"][0]["win_rate"] == 0.5 and out["seats"][1]["win_rate"] == 0.25
    assert 0 < out["seats"][1]["win_rate_ci"][0] < 0.25 < out["seats"][1]["win_rate_ci"][1]


def _hand_made(name: str, unit: str, values: dict) -> np.ndarray:
    """An aggregate row with the given pieces set (a list fills a wide piece's first slots)."""
    play = GAMES[name].play(unit)
    agg = np.zeros(play.agg.size(), np.int64)
    for piece, value in values.items():
        at = play.agg.offset(piece)
        vals = value if isinstance(value, list) else [value]
        agg[at : at + len(vals)] = vals
    return agg


def _summary(name: str, unit: str, n_seats: int, values: dict, n: int) -> dict:
    game = GAMES[name]
    players = [Player(f"p{s}") for s in range(n_seats)]
    return game.summarise(_hand_made(name, unit, values), game.table(n_seats=n_seats), players, unit, n)


def _rates(figures: dict, expected: dict[str, tuple[int, int]]) -> None:
    """Each rate is its count out of the right total, with that total's Wilson interval."""
    for key, (k, of) in expected.items():
        value, ci = rate_ci(k, of)
        assert figures[key] == pytest.approx(value), (key, k, of)
        assert figures[f"{key}_ci"] == pytest.approx(ci), (key, k, of)


# Hand-made aggregates with games that enter no figure (stalled, replayed, abandoned,
# capped): each figure is checked against its count over the total it must be out of.
HAND_MADE = [
    "spokelse-round",
    "spokelse-match",
    "gris-round",
    "gris-match",
    "gris-nese-round",
    "gris-nese-match",
]


def test_the_hand_made_cases_cover_every_game_and_unit():
    assert sorted(HAND_MADE) == sorted(f"{name}-{unit}" for name, unit in CASES)


def test_gris_rounds_rest_on_the_finished_rounds_stalled_ones_on_all():
    signal, letter, dealt = [30, 20, 25, 15], [20, 25, 30, 15], [0, 3, 2, 4]
    v = {"finished": 90, "stalled": 10, "dealt": 9, "passes": 900, "passes2": 9_900}
    v |= {"signal": signal, "letter": letter, "dealt_seat": dealt}
    out = _summary("gris", "round", 4, v, 100)
    assert (out["finished"], out["stalled"], out["mean_passes"]) == (90, 10, 10.0)
    _rates(out, {"stalled_rate": (10, 100), "dealt_signal_rate": (9, 90)})
    for s, seat in enumerate(out["seats"]):
        want = {"signal_first_rate": (signal[s], 90), "letter_rate": (letter[s], 90)}
        _rates(seat, want | {"dealt_complete_rate": (dealt[s], 90)})


def test_gris_matches_rest_on_the_finished_matches_stalled_rounds_on_all_deals():
    losses, letters, first = [10, 12, 11, 12], [90, 100, 80, 95], [11, 12, 11, 11]
    v = {"finished": 45, "abandoned": 5, "stalled": 12, "rounds": 300, "rounds2": 2_100}
    v |= {"passes": 6_000, "passes2": 130_000, "losses": losses, "letters": letters}
    v |= {"letters2": [250, 260, 200, 240], "first_dealt": first}
    out = _summary("gris", "match", 4, v, 50)
    assert (out["finished"], out["abandoned"], out["rounds_played"], out["stalled"]) == (45, 5, 312, 12)
    assert out["mean_rounds"] == pytest.approx(300 / 45) and out["mean_passes"] == 20.0
    _rates(out, {"abandoned_rate": (5, 50), "stalled_rate": (12, 312)})
    for s, seat in enumerate(out["seats"]):
        _rates(seat, {"loss_rate": (losses[s], 45), "first_dealer_rate": (first[s], 45)})
        assert seat["mean_letters"] == pytest.approx(letters[s] / 45)


def test_gris_nese_rounds_rest_on_the_counted_rounds_stalled_and_replayed_on_all():
    signal, out_ = [20, 10, 15, 25, 10], [16, 20, 14, 10, 20]
    v = {"counted": 80, "stalled": 5, "replayed": 15, "passes": 800, "passes2": 9_000}
    v |= {"dealt": 8, "all": 4, "signal": signal, "out": out_}
    out = _summary("gris-nese", "round", 5, v, 100)
    assert (out["stalled"], out["replayed"], out["mean_passes"]) == (5, 15, 10.0)
    _rates(out, {"dealt_signal_rate": (8, 80), "all_signal_rate": (4, 80)})
    _rates(out, {"stalled_rate": (5, 100), "replayed_rate": (15, 100)})
    for s, seat in enumerate(out["seats"]):
        _rates(seat, {"signal_first_rate": (signal[s], 80), "eliminated_rate": (out_[s], 80)})


def test_gris_nese_matches_rest_on_the_finished_matches_redeals_on_all_deals():
    wins, place = [20, 14, 12, 16, 10], [80, 100, 110, 90, 115]
    v = {"finished": 36, "abandoned": 4, "stalled": 6, "replayed": 18, "rounds": 108, "rounds2": 324}
    v |= {"wins": wins, "place": place, "place2": [200, 300, 360, 250, 390]}
    out = _summary("gris-nese", "match", 5, v, 40)
    assert (out["rounds_played"], out["replayed"], out["stalled"], out["abandoned"]) == (132, 18, 6, 4)
    assert out["mean_rounds"] == 3.0
    _rates(out, {"replayed_rate": (18, 132), "stalled_rate": (6, 132), "abandoned_rate": (4, 40)})
    for s, seat in enumerate(out["seats"]):
        _rates(seat, {"win_rate": (wins[s], 36)})
        assert seat["mean_place"] == pytest.approx(place[s] / 36)


def test_spokelse_rounds_count_capped_rounds_in_every_figure():
    v = {"score_sum": [300, 340], "score_sum2": [12_000, 14_000], "wins": [4, 5], "ties": 1}
    v |= {"capped": 2, "turns": 500, "score_cross": 9_000}
    out = _summary("spokelse", "round", 2, v, 10)
    assert out["capped"] == 2 and out["mean_turns"] == 50.0
    assert out["mean_score_diff"] == pytest.approx((300 - 340) * 0.5 / 10)
    _rates(out, {"tie_rate": (1, 10), "capped_rate": (2, 10)})
    for s, seat in enumerate(out["seats"]):
        _rates(seat, {"win_rate": ([4, 5][s], 10)})
        assert seat["mean_score"] == pytest.approx([300, 340][s] * 0.5 / 10)


def test_spokelse_matches_count_capped_rounds_out_of_all_rounds():
    v = {"losses": [12, 7], "draws": 1, "rounds": 100, "rounds2": 600, "capped": 5}
    v |= {"total_sum": [700, 600], "total_sum2": [30_000, 25_000], "first_dealt": [10, 10]}
    v |= {"first_dealer_lost": 9}
    out = _summary("spokelse", "match", 2, v, 20)
    assert (out["rounds_played"], out["capped"], out["mean_rounds"]) == (100, 5, 5.0)
    _rates(out, {"draw_rate": (1, 20), "first_dealer_loss_rate": (9, 20), "capped_rate": (5, 100)})
    for s, seat in enumerate(out["seats"]):
        _rates(seat, {"loss_rate": ([12, 7][s], 20), "first_dealer_rate": (10, 20)})
        assert seat["mean_total"] == pytest.approx([700, 600][s] * 0.5 / 20)


@pytest.mark.parametrize(("name", "unit"), CASES)
def test_histograms_are_the_declared_pieces_one_per_seat_at_the_table(name, unit):
    game = GAMES[name]
    play = game.play(unit)
    agg = np.arange(game.agg_size(unit, game.max_seats), dtype=np.int64)
    for n_seats in seat_counts(game):
        hists = game.histograms(agg, game.table(n_seats=n_seats), unit)
        expect = []
        for h in play.histograms:
            expect += [h.name.format(s=s) for s in range(n_seats)] if "{s}" in h.name else [h.name]
        assert list(hists) == expect
        for h in play.histograms:
            piece, start = play.agg.piece(h.piece), play.agg.offset(h.piece)
            first = hists[h.name.format(s=0)]
            assert len(first) == piece.bins and first[0] == start


@pytest.mark.parametrize(("name", "unit"), CASES)
def test_record_columns_docs_and_outcomes_follow_the_record_layout(name, unit):
    game = GAMES[name]
    play = game.play(unit)
    for n_seats in seat_counts(game):
        cols = game.record_columns(unit, n_seats)
        assert cols == play.records.columns(n_seats)
        docs = column_docs(game, unit, n_seats)
        assert list(docs) == record_schema(game, unit, n_seats).names
        assert all(d.strip() and "{s}" not in d for d in docs.values())
        for s in range(n_seats):  # a wide piece's doc names its seat
            for p in play.records:
                if p.width == SEATS:
                    assert str(s) in docs[f"{p.name}_{s}"]
        rec = np.zeros((3, len(cols)), np.int64)
        outs, valid = game.outcomes(rec, unit, n_seats)
        assert list(outs) == [m.name for m in game.metrics(unit)] == [o.name for o in play.outcomes]
        assert all(v.shape == (3, n_seats) and v.dtype == np.int64 for v in outs.values())
        assert valid.all()
        for flag in play.uncounted:
            assert play.records.piece(flag).kind == "flag"
            one = rec.copy()
            one[1, play.records.offset(flag, n_seats)] = 1
            assert game.outcomes(one, unit, n_seats)[1].tolist() == [True, False, True]
    for o in play.outcomes:
        piece = play.records.piece(o.piece)
        if o.read in ("is_seat", "bit"):
            assert piece.kind == ("seat" if o.read == "is_seat" else "mask") and piece.span() == 1
        else:
            assert piece.width == SEATS or piece.copies() == game.max_seats


def test_outcomes_decode_seats_masks_lowest_and_equals():
    gris = GAMES["gris"]
    cols = gris.record_columns("round", 4)
    rec = np.zeros((2, len(cols)), np.int64)
    rec[0, cols.index("loser")], rec[0, cols.index("signallers")] = 2, 0b1010
    rec[1, cols.index("loser")], rec[1, cols.index("stalled")] = -1, 1
    outs, valid = gris.outcomes(rec, "round", 4)
    assert outs["letter"].tolist() == [[0, 0, 1, 0], [0, 0, 0, 0]]
    assert outs["signal_first"].tolist() == [[0, 1, 0, 1], [0, 0, 0, 0]]
    assert valid.tolist() == [True, False]
    spokelse = GAMES["spokelse"]
    rec = np.array([[10, 20, 30, 0], [20, 20, 30, 0], [21, 1, 30, 1]], np.int64)
    outs, valid = spokelse.outcomes(rec, "round", 2)
    assert outs["win"].tolist() == [[1, 0], [0, 0], [0, 1]] and valid.all()
    assert outs["score"].tolist() == rec[:, :2].tolist()
    nese = GAMES["gris-nese"]
    cols = nese.record_columns("match", 4)
    rec = np.zeros((1, len(cols)), np.int64)
    rec[0, cols.index("place_0") :] = [1, 3, 1, 4]
    outs, _ = nese.outcomes(rec, "match", 4)
    assert outs["win"].tolist() == [[1, 0, 1, 0]] and outs["place"].tolist() == [[1, 3, 1, 4]]


def test_offsets_are_those_of_the_pieces_named_in_that_order():
    layout = Layout("t", [Piece("a", "count"), Piece("b", "sum", "", 3), Piece("c", "value")])
    assert (
        layout.offsets("c a b") == (4, 0, 1) == (layout.offset("c"), layout.offset("a"), layout.offset("b"))
    )
    with pytest.raises(KeyError, match="has no piece 'd'"):
        layout.offsets("a d")


def test_a_layout_refuses_what_cannot_be_laid_out():
    with pytest.raises(ValueError, match="named twice: a"):
        Layout("t", [Piece("a", "count"), Piece("a", "sum")])
    with pytest.raises(ValueError, match="unknown kind"):
        Piece("a", "average")
    with pytest.raises(ValueError, match="only a histogram has bins"):
        Piece("a", "count", bins=3)
    layout = Layout("t", [Piece("a", "value", "x {s}", SEATS), Piece("b", "flag", "y")])
    with pytest.raises(ValueError, match="give the number of seats"):
        layout.offset("b")
    assert layout.offset("b", 3) == 3 and layout.columns(2) == ("a_0", "a_1", "b")
    assert layout.column_docs(2) == {"a_0": "x 0", "a_1": "x 1", "b": "y"}
    with pytest.raises(KeyError, match="has no piece 'c'"):
        layout.offset("c")
    with pytest.raises(ValueError, match="read is one of"):
        Outcome("o", "a", "sum", "", True, Field("rate", "share"))
    with pytest.raises(ValueError, match="how is one of"):
        Figure("f", "median", ("a",), Field("mean", "games"))
    per_seat = Layout("t", [Piece("won", "count", "games seat {s} won", SEATS)])
    with pytest.raises(ValueError, match="never one per seat"):
        Play(per_seat, layout, (), (), ())


def test_a_ratio_reads_its_piece_in_the_reported_unit():
    agg = Layout("t", [Piece("half", "sum", "half points", scale=0.5)])
    play = Play(agg, Layout("r", []), (ratio("points", "half", Field("mean", "points")),), (), ())
    assert figures.summarise(play, np.array([30]), 1, [Player("a")], 10)["points"] == 1.5


def test_a_new_play_needs_only_declarations():
    """A made-up game's summary, from a layout and figures alone."""
    agg = Layout("t", [Piece("done", "count", "games done"), Piece("won", "count", "games seat {s} won", 2)])
    rec = Layout("t", [Piece("winner", "seat", "the winner")])
    won = Field("rate", "share won", "higher")
    play = Play(
        agg,
        rec,
        (),
        (rate("win_rate", "won", won, of="done"),),
        (Outcome("win", "winner", "is_seat", "won", False, won),),
    )
    out = figures.summarise(play, np.array([4, 1, 3]), 2, [Player("a"), Player("b")], 10)
    assert [s["win_rate"] for s in out["seats"]] == [0.25, 0.75]
    assert json.dumps(out)  # JSON-ready
    assert figures.outcomes(play, np.array([[1], [0]]), 2)[0]["win"].tolist() == [[0, 1], [1, 0]]


def _generated_block(text: str) -> str:
    assert BEGIN in text and END in text, "docs/records.md lost its generated-columns markers"
    return text[text.index(BEGIN) + len(BEGIN) : text.index(END)]


def test_docs_records_md_lists_the_declared_columns():
    """Regenerate with ``python tests/engine/test_layout.py --regenerate`` after a layout changed."""
    assert _generated_block(DOC.read_text(encoding="utf-8")) == columns_doc()
    for name, unit in CASES:
        for col in GAMES[name].record_columns(unit, GAMES[name].min_seats):
            stem = col.rstrip("0123456789")
            assert f"`{col}`" in columns_doc() or f"`{stem}<s>`" in columns_doc(), col


def observations_doc() -> str:
    """Every game's observation row as a markdown table (``Layout.markdown``)."""
    parts = []
    for game in GAMES.values():
        obs = game.observation
        parts.append(f"### {game.name}: {obs.name}\n\n{obs.doc[0].upper()}{obs.doc[1:]}.\n\n{obs.markdown()}")
    return "\n".join(parts)


def _observations_block(text: str) -> str:
    assert OBS_BEGIN in text and OBS_END in text, "docs/observations.md lost its generated markers"
    return text[text.index(OBS_BEGIN) + len(OBS_BEGIN) : text.index(OBS_END)]


def test_docs_observations_md_lists_the_declared_observation_fields():
    """Regenerate with ``python tests/engine/test_layout.py --regenerate`` after a layout changed."""
    assert _observations_block(OBS_DOC.read_text(encoding="utf-8")) == observations_doc()
    for game in GAMES.values():
        for piece, start, _ in game.observation.spans():
            table = game.observation.markdown().splitlines()
            line = next(x for x in table if x.startswith(f"| `{piece.name.upper()}` |"))
            assert line.startswith(f"| `{piece.name.upper()}` | {start} | {piece.span()} | {piece.kind} |")
            assert not piece.unit or line.endswith(f"({piece.unit}) |"), line


if __name__ == "__main__" and sys.argv[1:] == ["--regenerate"]:
    text = DOC.read_text(encoding="utf-8")
    old = _generated_block(text)
    DOC.write_text(text.replace(BEGIN + old + END, BEGIN + columns_doc() + END), encoding="utf-8")
    print(f"wrote the columns of {DOC.name}")
    text = OBS_DOC.read_text(encoding="utf-8")
    old = _observations_block(text)
    OBS_DOC.write_text(
        text.replace(OBS_BEGIN + old + OBS_END, OBS_BEGIN + observations_doc() + OBS_END), encoding="utf-8"
    )
    print(f"wrote the tables of {OBS_DOC.name}")
