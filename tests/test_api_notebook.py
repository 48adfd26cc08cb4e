"""The Python API in a notebook: short reprs, HTML tables, plots, ``simulator.compare`` with
the CLI's keywords, interval columns in every frame, long-format records in memory and on
disk, and seeds given as numpy SeedSequences."""

import json
import re
import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.axes import Axes

import simulator
from simulator import InputError, simulate
from simulator.api import MAX_SEED, make_table, resolve_game, resolve_players, resolve_seed
from simulator.running.records import MAX_RECORDS_IN_MEMORY, read_records
from simulator.running.results import Result

PAIR = ["threshold:k=4", "passive"]


@pytest.fixture(scope="module")
def result():
    return simulate("spokelse", PAIR, rounds=2000, seed=1)


@pytest.fixture(scope="module")
def comparison():
    return simulator.compare(
        "spokelse", ["threshold:k=4", "threshold:k=2", "passive"], field="expect", rounds=1500, seed=3
    )


def without_timing(summary: dict) -> str:
    timing = {"elapsed_s", "games_per_s", "compile_s"}
    return json.dumps({k: v for k, v in summary.items() if k not in timing}, sort_keys=True)


def walk(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from walk(v)
    else:
        yield value


# --- Result: repr, HTML, plot, plain values ------------------------------------------


def test_the_repr_is_short_and_says_what_the_numbers_are(result):
    text = repr(result)
    lines = text.splitlines()
    assert len(text) < 800 and len(lines) <= 15, text
    assert "np.float64" not in text
    assert lines[0].startswith("<kortsim Result> spokelse: 2,000 rounds, seed 1")
    assert "mean score (points per round), lower is better" in text
    for s, seat in enumerate(result.summary["seats"]):
        lo, hi = seat["mean_score_ci"]
        row = next(line for line in lines if line.strip().startswith(f"seat {s}"))
        assert seat["player"] in row
        assert f"[{lo:.2f}, {hi:.2f}]" in row or f"[{lo:.1f}, {hi:.1f}]" in row, row


def test_the_repr_of_many_seats_says_how_many_it_left_out():
    summary = {
        "game": "gris",
        "unit": "round",
        "n": 10,
        "seed": 1,
        "players": 12,
        "seats": [
            {"seat": s, "player": "greedy", "letter_rate": 0.1, "letter_rate_ci": [0.05, 0.2]}
            for s in range(12)
        ],
    }
    text = repr(Result(summary))
    assert len(text.splitlines()) <= 15 and "2 more seats" in text
    assert "letter rate (% of" in text and "lower is better" in text
    assert re.search(r"seat 9  greedy  10(\.0)?% \[5(\.0)?, 20(\.0)?\]", text), text


def test_summary_values_are_plain_python_and_the_json_is_unchanged(result):
    kinds = {type(v) for v in walk(result.summary)} | {type(v) for v in walk(result.provenance)}
    assert kinds <= {int, float, str, bool, type(None)}, kinds
    # The game's own summary holds numpy floats; the JSON of the Result is the same text.
    g = resolve_game("spokelse")
    table = make_table(g)
    raw = g.summarise(result.aggregates, table, resolve_players(g, PAIR, 2), "round", 2000)
    assert any(isinstance(v, np.floating) for v in walk(raw))
    assert json.dumps(raw) == json.dumps({k: result.summary[k] for k in raw})


def test_the_html_is_a_table_of_the_seats_with_units(result):
    page = result._repr_html_()
    assert page.startswith("<table") and "<caption" in page and page.count("<tr>") == 1 + 2
    assert "points per round, lower is better" in page
    assert "win rate: % of rounds" in page and "higher is better" in page
    assert "95% intervals" in page
    for seat in result.summary["seats"]:
        assert f'<td style="text-align:left">{seat["player"]}</td>' in page
    lo, hi = (100 * x for x in result.summary["seats"][0]["win_rate_ci"])
    assert f"[{lo:.1f}, {hi:.1f}]" in page


def test_plot_returns_labelled_axes_with_the_intervals(result):
    ax = result.plot()
    try:
        assert isinstance(ax, Axes)
        assert ax.get_xlabel() == "seat (player)"
        assert "mean score" in ax.get_ylabel().replace(
            "\n", " "
        ) and "points per round" in ax.get_ylabel().replace("\n", " ")
        assert "lower is better" in ax.get_ylabel().replace("\n", " ") and "95% intervals" in ax.get_title(
            "left"
        ).replace("\n", " ")
        ticks = [t.get_text() for t in ax.get_xticklabels()]
        assert ticks == ["seat 0\nthreshold:k=4", "seat 1\npassive"]
        points = ax.lines[0].get_ydata()
        assert list(points) == [s["mean_score"] for s in result.summary["seats"]]
        low, high = ax.get_ylim()
        assert all(
            low <= s["mean_score_ci"][0] and s["mean_score_ci"][1] <= high for s in result.summary["seats"]
        )
    finally:
        plt.close(ax.figure)
    ax = result.plot("win_rate")
    try:
        assert "% of rounds won" in ax.get_ylabel().replace("\n", " ")
        assert ax.lines[0].get_ydata()[0] == pytest.approx(100 * result.summary["seats"][0]["win_rate"])
    finally:
        plt.close(ax.figure)
    with pytest.raises(InputError, match="no per-seat figure 'nope'"):
        result.plot("nope")


# --- compare: exported, the CLI's keywords, repr/HTML/plot, frames ----------------------


def test_compare_is_exported_with_the_clis_field_keyword():
    from simulator.analysis.compare import compare as module_compare

    # simulator.compare is the module, and calling it calls the function (simulator/__init__.py)
    assert simulator.analysis.compare.compare is module_compare and "compare" in simulator.__all__
    assert callable(simulator.compare)
    kwargs = {"rounds": 600, "seed": 2, "baseline": "threshold:k=2"}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new keyword does not warn
        new = simulator.compare("spokelse", ["threshold:k=4", "threshold:k=2"], field="passive", **kwargs)
    with pytest.warns(DeprecationWarning, match="use field="):
        old = simulator.compare(
            "spokelse", ["threshold:k=4", "threshold:k=2"], field_strategy="passive", **kwargs
        )
    assert new.summary["field"] == "passive" and new.summary["baseline"] == "threshold:k=2"
    assert without_timing(new.summary) == without_timing(old.summary)
    with pytest.warns(DeprecationWarning), pytest.raises(InputError, match="not both"):
        simulator.compare("spokelse", ["passive"], field="expect", field_strategy="passive", **kwargs)


def test_compare_keywords_are_the_cli_options():
    import inspect

    from typer.main import get_command

    from simulator.cli import app

    command = get_command(app).commands["compare"]
    cli_options = {p.name for p in command.params}
    api = set(inspect.signature(simulator.compare).parameters)
    same = {"rounds", "matches", "field", "baseline", "seed", "players", "reaction", "threads"}
    same |= {"backend", "scheduler", "workers"}
    assert same <= cli_options and same <= api
    # The CLI's repeatable --rule / --plugin are the API's rules= / plugins= (as for simulate).
    for cli_name, api_name in {"strategy": "strategies", "rule": "rules", "plugin": "plugins"}.items():
        assert cli_name in cli_options and api_name in api
        assert api_name in inspect.signature(simulate).parameters


def test_compare_repr_html_and_plot(comparison):
    text = repr(comparison)
    lines = text.splitlines()
    assert len(lines) <= 15 and "np.float64" not in text
    assert "1,500 deals (rounds), seed 3" in lines[0]
    assert "mean score (points per round), lower is better" in text
    assert "(baseline)" in text and text.count("diff ") == 2 and "p (Holm)" in text
    page = comparison._repr_html_()
    assert page.count("<table") == 3  # score, win, ranking
    assert "points per round, lower is better" in page and "paired on the same deals" in page
    assert "log-strength" in page
    ax = comparison.plot()
    try:
        assert isinstance(ax, Axes) and ax.get_xlabel() == "strategy"
        assert "difference in mean score" in ax.get_ylabel().replace(
            "\n", " "
        ) and "points per round" in ax.get_ylabel().replace("\n", " ")
        rows = comparison.summary["metrics"]["score"]["strategies"][1:]
        assert list(ax.lines[0].get_ydata()) == [r["diff"] for r in rows]
    finally:
        plt.close(ax.figure)
    ax = comparison.plot("win")  # a rate: differences in percentage points
    try:
        assert "percentage points" in ax.get_ylabel().replace("\n", " ")
        rows = comparison.summary["metrics"]["win"]["strategies"][1:]
        assert list(ax.lines[0].get_ydata()) == pytest.approx([100 * r["diff"] for r in rows])
    finally:
        plt.close(ax.figure)
    ax = comparison.plot("win", kind="value")
    try:
        assert "% of rounds won" in ax.get_ylabel().replace("\n", " ") and len(ax.lines[0].get_ydata()) == 3
    finally:
        plt.close(ax.figure)


def test_every_compare_frame_keeps_its_interval_as_lo_and_hi_columns(comparison):
    ranking = comparison.frames["ranking"]
    assert {"strength", "strength_lo", "strength_hi"} <= set(ranking.columns)
    assert "strength_ci" not in ranking.columns
    for frame in comparison.frames.values():
        assert not any(frame[c].map(lambda v: isinstance(v, list)).any() for c in frame.columns)
    # The JSON keeps its field as it was.
    for row, (_, flat) in zip(comparison.summary["ranking"], ranking.iterrows()):
        assert row["strength_ci"] == [flat["strength_lo"], flat["strength_hi"]]


# --- records in long format, in memory and on disk ---------------------------------------


def test_records_in_memory_and_in_long_format(tmp_path):
    kept = simulate("spokelse", PAIR, rounds=3000, seed=4, records=True, block_size=700)
    wide = kept.records()
    assert len(wide) == 3000 and list(wide["game"]) == list(range(3000))
    long = kept.records(long=True)
    assert list(long.columns) == [
        *["game", "seat", "player", "turns", "capped", "score_half", "score", "win", "counted"]
    ]
    assert len(long) == 2 * 3000
    # The long frame is the wide one reshaped: one row per game and seat.
    for metric in ("score", "win"):
        back = long.pivot(index="game", columns="seat", values=metric)
        for s in (0, 1):
            np.testing.assert_array_equal(back[s].to_numpy(), wide[f"{metric}_seat{s}"].to_numpy())
    assert (long.loc[long.seat == 0, "player"] == "threshold:k=4").all()
    assert (long.loc[long.seat == 1, "player"] == "passive").all()
    np.testing.assert_array_equal(long["counted"].to_numpy()[::2], wide["counted"].to_numpy())
    # The figures are the records' means.
    by_seat = long.groupby("seat", observed=True)["score"].mean()
    for s, seat in enumerate(kept.summary["seats"]):
        assert by_seat[s] == pytest.approx(seat["mean_score"], rel=1e-12)
    # The same run with a folder: the same records, wide and long, from disk.
    on_disk = simulate("spokelse", PAIR, rounds=3000, seed=4, records=True, out=tmp_path / "run")
    pd.testing.assert_frame_equal(read_records(tmp_path / "run"), wide)
    pd.testing.assert_frame_equal(simulator.read_records(tmp_path / "run", long=True), long)
    pd.testing.assert_frame_equal(on_disk.records(long=True), long)
    pd.testing.assert_frame_equal(Result.read(tmp_path / "run").records(long=True), long)


def test_records_in_memory_are_bounded_with_one_clear_message():
    with pytest.raises(InputError) as err:
        simulate("spokelse", "passive", rounds=MAX_RECORDS_IN_MEMORY + 1, seed=1, records=True)
    message = str(err.value)
    assert "\n" not in message and "1,000,000 games in memory" in message and "out=DIR" in message
    plain_run = simulate("spokelse", "passive", rounds=50, seed=1)
    with pytest.raises(InputError, match=r"records=True"):
        plain_run.records()
    with pytest.raises(InputError, match="not both"):
        read_records("anywhere", columns=["game"], long=True)


# --- seeds -------------------------------------------------------------------------------


def test_a_seed_sequence_is_accepted_recorded_and_reproducible():
    seq = np.random.SeedSequence(1)
    expected = int(seq.generate_state(1, np.uint64)[0]) >> 1  # the documented mapping
    assert resolve_seed(np.random.SeedSequence(1)) == expected and 0 <= expected <= MAX_SEED
    a = simulate("spokelse", PAIR, rounds=500, seed=np.random.SeedSequence(1))
    b = simulate("spokelse", PAIR, rounds=500, seed=np.random.SeedSequence(1))
    c = simulate("spokelse", PAIR, rounds=500, seed=expected)
    assert a.summary["seed"] == expected and a.provenance["seed"] == expected
    assert a.provenance["seed_sequence"] == {"entropy": 1, "spawn_key": []}
    assert without_timing(a.summary) == without_timing(b.summary) == without_timing(c.summary)
    children = np.random.SeedSequence(1).spawn(3)
    assert len({resolve_seed(ch) for ch in children}) == 3
    cmp = simulator.compare("spokelse", PAIR, rounds=300, seed=np.random.SeedSequence(1))
    assert cmp.summary["seed"] == expected and cmp.summary["seed_sequence"]["entropy"] == 1


def test_numpy_integers_are_seeds():
    a = simulate("spokelse", PAIR, rounds=300, seed=np.int64(5))
    b = simulate("spokelse", PAIR, rounds=300, seed=np.uint32(5))
    c = simulate("spokelse", PAIR, rounds=300, seed=5)
    assert type(a.summary["seed"]) is int
    assert without_timing(a.summary) == without_timing(b.summary) == without_timing(c.summary)


@pytest.mark.parametrize(
    "bad", ["7", 1.5, True, np.random.default_rng(1), [1, 2], np.float64(3.0), -1, 2**63]
)
def test_a_bad_seed_is_one_clear_line(bad):
    with pytest.raises(InputError) as err:
        simulate("spokelse", "passive", rounds=10, seed=bad)
    message = str(err.value)
    assert "\n" not in message and message.startswith("the seed must be a whole number")
    with pytest.raises(InputError, match="the seed must be"):
        simulator.compare("spokelse", PAIR, rounds=10, seed=bad)


@pytest.mark.slow
def test_records_in_memory_from_dask_workers_match_local_ones():
    kwargs = {"rounds": 4000, "seed": 12, "records": True, "block_size": 1000}
    remote = simulate("spokelse", PAIR, backend="dask", workers=1, **kwargs)
    local = simulate("spokelse", PAIR, **kwargs)
    pd.testing.assert_frame_equal(remote.records(long=True), local.records(long=True))
    assert len(remote.records()) == 4000
