"""One validated setup: simulate, compare, sweep and the experiments check their input through
the same two constructors (simulator/running/setup.py), so a bad input is refused with the same one
line whichever of them it came through."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import numba
import numpy as np
import pytest
from typer.testing import CliRunner

import experiments
import simulator
from simulator import api
from simulator.analysis.compare import compare
from simulator.analysis.sweep import sweep
from simulator.cli import app
from simulator.errors import InputError
from simulator.games import GAMES, all_games, get_game
from simulator.running.backends import Backend
from simulator.running.setup import MAX_GAMES, Execution, Setup, execution_of
from strategies.registry import parse_spec

runner = CliRunner()
MOST = numba.config.NUMBA_NUM_THREADS
BASE = {"rounds": 10, "seed": 1}

ENTRY_POINTS = {
    "simulate": lambda **kw: simulator.simulate("spokelse", ["passive"], **kw),
    "compare": lambda **kw: compare("spokelse", ["passive", "random"], **kw),
    "sweep": lambda **kw: sweep("spokelse", "threshold:k=1|2", **kw),
}

# Bad input of what is played (Setup) and of how (Execution), with the one line each gives.
BAD_INPUTS = [
    ({"threads": MOST + 1}, f"--threads {MOST + 1}: give 1 to {MOST} (the threads numba may use here)"),
    ({"threads": 0}, f"--threads 0: give 1 to {MOST} (the threads numba may use here)"),
    ({"threads": -1}, f"--threads -1: give 1 to {MOST} (the threads numba may use here)"),
    ({"threads": 1.5}, "--threads takes a whole number, not 1.5"),
    ({"threads": "2"}, "--threads takes a whole number, not '2'"),
    ({"block_size": 0}, "--block-size 0: give 1 to 4,194,304 (2**22) games per block"),
    ({"block_size": 2**23}, "--block-size 8388608: give 1 to 4,194,304 (2**22) games per block"),
    ({"block_size": 2.5}, "the block size must be a whole number, not 2.5"),
    ({"backend": "spark"}, "unknown backend 'spark' (backends: local, dask)"),
    ({"workers": 2}, "--workers is for --backend dask (the size of a local Dask cluster)"),
    ({"scheduler": "tcp://127.0.0.1:8786"}, "--scheduler is for --backend dask"),
    ({"backend": "dask", "threads": 1}, "--threads is for --backend local"),
    ({"backend": "dask", "workers": 0}, "--workers must be at least 1"),
    ({"backend": "dask", "workers": "two"}, "--workers takes a whole number of processes, not 'two'"),
    ({"connect_timeout": 5}, "--connect-timeout is for --backend dask (the wait for a scheduler)"),
    ({"rounds": 0}, "the number of rounds must be a positive whole number, not 0"),
    ({"rounds": MAX_GAMES + 1}, "--rounds 1000000000001: at most 1,000,000,000,000 (10**12) rounds"),
    ({"rounds": None}, "give exactly one of --rounds N or --matches N"),
    ({"matches": 5}, "give exactly one of --rounds N or --matches N"),
    ({"seed": -1}, "the seed must be a whole number from 0 to 9223372036854775807"),
    ({"seed": 2**63}, "the seed must be a whole number from 0 to 9223372036854775807"),
    ({"seed": 1.5}, "the seed must be a whole number from 0 to 9223372036854775807 or a numpy SeedSequence"),
    ({"players": 3}, "spokelse is played by exactly 2 players, not 3"),
    ({"players": "two"}, "--players takes a whole number of seats, not 'two'"),
    ({"rules": {"nope": "1"}}, "unknown rule 'nope' for spokelse (rules: "),
    ({"rules": {"target": "0"}}, "rule target=0: the target must be from 1 to 1000 points"),
    ({"reaction": ["0.8,0.3"]}, "spokelse has no reaction model; --reaction is for the Gris games"),
]


def message(call, **kw) -> str:
    with pytest.raises(InputError) as info:
        call(**{**BASE, **kw})
    text = str(info.value)
    assert "\n" not in text
    return text


@pytest.mark.parametrize(("bad", "expected"), BAD_INPUTS, ids=[str(b) for b, _ in BAD_INPUTS])
def test_every_entry_point_refuses_a_bad_input_with_the_same_line(bad, expected):
    lines = {name: message(call, **bad) for name, call in ENTRY_POINTS.items()}
    assert len(set(lines.values())) == 1, lines
    assert lines["simulate"].startswith(expected), lines["simulate"]


@pytest.mark.parametrize(("bad", "expected"), BAD_INPUTS, ids=[str(b) for b, _ in BAD_INPUTS])
def test_the_entry_points_give_the_constructors_own_line(bad, expected):
    setup_keys = {"rounds", "matches", "seed", "rules", "players", "reaction"}
    kw = {**BASE, **bad}
    with pytest.raises(InputError) as info:
        Execution.build(**{k: v for k, v in kw.items() if k not in setup_keys})
        Setup.build("spokelse", ["passive"], **{k: v for k, v in kw.items() if k in setup_keys})
    assert str(info.value) == message(ENTRY_POINTS["compare"], **bad)


@pytest.mark.parametrize(("bad", "expected"), BAD_INPUTS[:3] + BAD_INPUTS[9:11])
def test_an_experiment_refuses_bad_execution_options_before_anything_runs(bad, expected, tmp_path):
    out = tmp_path / "never"
    with pytest.raises(InputError) as info:
        experiments.run("spokelse-strategy", size="tiny", out_dir=out, **bad)
    assert str(info.value).startswith(expected)
    assert not out.exists()


def test_an_experiment_refuses_a_bad_seed_as_simulate_does(tmp_path):
    with pytest.raises(InputError) as info:
        experiments.run("commit-early", size="tiny", out_dir=tmp_path / "x", seed=-1)
    assert str(info.value) == message(ENTRY_POINTS["simulate"], seed=-1)


def test_an_experiment_refuses_an_unknown_option_in_one_line(tmp_path):
    with pytest.raises(
        InputError, match=r"unknown option 'thread' for how runs are played \(options: threads"
    ):
        experiments.run("commit-early", size="tiny", out_dir=tmp_path / "x", thread=2)


# --- the commands -------------------------------------------------------------------------

COMMANDS = {
    "simulate": ["simulate", "spokelse", "-s", "passive"],
    "compare": ["compare", "spokelse", "-s", "passive", "-s", "random"],
    "sweep": ["sweep", "spokelse", "-s", "threshold:k=1|2"],
}
BAD_OPTIONS = [
    ["--threads", str(MOST + 1)],
    ["--threads", "0"],
    ["--rounds", "0"],
    ["--rounds", str(MAX_GAMES + 1)],
    ["--seed", "-1"],
    ["--players", "3"],
    ["--rule", "nope=1"],
    ["--rule", "target=0"],
    ["--reaction", "0.8,0.3"],
]


def error_line(args: list[str]) -> str:
    r = runner.invoke(app, args)
    assert r.exit_code == 2, r.output
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in r.output, r.output
    return lines[0]


@pytest.mark.parametrize("bad", BAD_OPTIONS, ids=" ".join)
def test_every_command_refuses_a_bad_option_with_the_same_line(bad):
    lines = {}
    for name, args in COMMANDS.items():
        full = [*args, "--rounds", "10", "--seed", "1", *bad]
        if bad[0] == "--rounds":  # the option given last wins in click: give it once
            full = [*args, "--seed", "1", *bad]
        lines[name] = error_line(full)
    assert len(set(lines.values())) == 1, lines
    if bad[0] == "--threads":  # the line the constructor itself gives
        with pytest.raises(InputError) as info:
            Execution.build(threads=int(bad[1]))
        assert lines["simulate"] == f"error: {info.value}"


def test_the_experiment_command_refuses_bad_threads_as_simulate_does(tmp_path):
    args = ["experiment", "run", "commit-early", "--tiny", "--out", str(tmp_path / "x")]
    line = error_line([*args, "--threads", str(MOST + 1)])
    assert line == error_line([*COMMANDS["simulate"], "--rounds", "10", "--threads", str(MOST + 1)])
    assert not (tmp_path / "x").exists()


def test_compare_claims_its_folder_only_once_its_input_is_checked(tmp_path):
    out = tmp_path / "cmp"
    out.mkdir()
    (out / "mine.txt").write_text("not kortsim's")
    # A bad option is refused first, with its own line; the folder is then refused as before.
    line = error_line([*COMMANDS["compare"], "--rounds", "10", "--threads", "0", "--out", str(out)])
    assert line.startswith("error: --threads 0:")
    line = error_line([*COMMANDS["compare"], "--rounds", "10", "--out", str(out)])
    assert "holds files kortsim did not write (mine.txt)" in line


def test_sweep_refuses_an_unknown_metric_before_playing():
    line = error_line([*COMMANDS["sweep"], "--rounds", str(MAX_GAMES), "--seed", "1", "--metric", "nope"])
    assert line == "error: unknown metric 'nope' for spokelse rounds (metrics: score, win)"


# --- the objects ----------------------------------------------------------------------------


def test_the_setup_and_the_execution_are_frozen():
    setup = Setup.build("spokelse", ["threshold:k=4", "passive"], rounds=100, seed=7)
    execution = Execution.build(threads=1, block_size=500)
    for obj, name, value in ((setup, "n", 5), (setup, "seed", 1), (execution, "threads", 2)):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, name, value)
    assert isinstance(setup.players, tuple) and setup.rules is setup.table.rules


@pytest.mark.parametrize(
    "kwargs",
    [
        {"game": "spokelse", "strategies": ["threshold:k=4", "passive"], "rounds": 100, "seed": 7},
        {"game": "spokelse", "strategies": "expect", "matches": 30, "seed": 0, "rules": {"jack": "11"}},
        {
            "game": "gris",
            "strategies": ["greedy"],
            "rounds": 5,
            "seed": 2**63 - 1,
            "players": 5,
            "reaction": ["0.5,0.2", "3=1.5,0.4"],
            "rules": ["circulation=always"],
        },
        {
            "game": "gris-nese",
            "strategies": ["greedy", "commit"],
            "rounds": 9,
            "seed": 3,
            "fill_seats": False,
        },
    ],
)
def test_a_good_setup_round_trips(kwargs):
    setup = Setup.build(**kwargs)
    again = Setup.build(**setup.arguments())
    assert again == setup and again.compared == (kwargs.get("fill_seats") is False)
    assert again.seed == kwargs["seed"] and again.n == kwargs.get("rounds", kwargs.get("matches"))
    assert len(setup.players) == (
        len(kwargs["strategies"]) if kwargs.get("fill_seats") is False else setup.n_seats
    )


def test_a_good_execution_round_trips(tmp_path):
    e = Execution.build(threads=1, block_size=4096, out=str(tmp_path), resume=True, records=True)
    fields = {f.name: getattr(e, f.name) for f in dataclasses.fields(e)}
    assert Execution.build(**fields) == e
    assert e.out == Path(tmp_path) and e.backend is Backend.local
    d = Execution.build(backend="DASK", workers=np.int64(2), connect_timeout=3)
    assert d.backend is Backend.dask and d.workers == 2 and type(d.workers) is int
    assert execution_of({"threads": 1}) == Execution.build(threads=1)


def test_a_setup_played_through_run_is_what_simulate_gives():
    kw = {"rounds": 3000, "seed": 11}
    direct = simulator.simulate("spokelse", ["threshold:k=4", "random"], block_size=1000, **kw)
    setup = Setup.build("spokelse", ["threshold:k=4", "random"], **kw)
    via = api.run(setup, Execution.build(block_size=700))
    assert np.array_equal(direct.aggregates, via.aggregates)
    assert direct.summary["seed"] == via.summary["seed"] == 11


def test_a_seed_sequence_is_kept_in_the_setup():
    seq = np.random.SeedSequence(5)
    setup = Setup.build("spokelse", "passive", rounds=1, seed=seq)
    assert setup.seed == int(seq.generate_state(1, np.uint64)[0]) >> 1
    assert setup.seed_extra["seed_sequence"]["entropy"] == 5


# --- the default opponent -----------------------------------------------------------------


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_says_its_default_opponent(name):
    g = get_game(name)
    assert "default_opponent" in type(g).__dict__, "set in the game's own class"
    if g.default_opponent is not None:
        assert parse_spec(g.default_opponent, g.name).family.game == g.name


def test_compare_and_sweep_choose_the_default_opponent_from_the_game_not_its_name():
    root = Path(simulator.__file__).parent
    names = "|".join(re.escape(n) for n in all_games())
    for module in ("analysis/compare.py", "analysis/sweep.py", "running/setup.py"):
        code = (root / module).read_text(encoding="utf-8")
        assert not re.search(rf"[\"']({names})[\"']", code), module
    for name in GAMES:
        g = get_game(name)
        if g.default_opponent is None:  # no field: one strategy has nothing to play against
            with pytest.raises(InputError, match="compare needs two strategies"):
                compare(name, ["random"], rounds=5, seed=1)
            continue
        r = compare(name, ["random"], rounds=20, seed=1)
        assert r.summary["field"] == parse_spec(g.default_opponent, name).spec
        s = sweep(name, _sweepable(name), rounds=20, seed=1)
        assert s.vs == parse_spec(g.default_opponent, name).spec


def _sweepable(game: str) -> str:
    """A sweep spec over the first strategy of ``game`` with a stepped parameter."""
    from strategies.registry import families

    for fam in families(game).values():
        for p in fam.params:
            if p.step > 0 and p.high > p.low:
                low = p.low
                return f"{fam.name}:{p.name}={low:g}|{low + p.step:g}"
    raise AssertionError(f"no strategy of {game} to sweep")


# --- sweep takes only what it uses -----------------------------------------------------------


@pytest.mark.parametrize(("key", "value"), [("out", "somewhere"), ("records", True), ("resume", True)])
def test_sweep_refuses_the_options_only_simulate_takes_in_one_line(key, value):
    with pytest.raises(InputError) as info:
        ENTRY_POINTS["sweep"](**BASE, **{key: value})
    assert str(info.value) == (
        f"sweep() takes no {key}= (a run folder, resuming and records are options of simulate)"
    )
    assert not Path("somewhere").exists()


def test_sweep_refuses_an_unknown_option_naming_every_option_it_takes():
    with pytest.raises(InputError) as info:
        ENTRY_POINTS["sweep"](**BASE, field="passive")
    text = str(info.value)
    assert text.startswith("unknown option 'field' for sweep() (options: vs, rounds, matches, baseline,")
    assert text.endswith("threads, block_size, backend, scheduler, workers, connect_timeout)")
    assert "\n" not in text


def test_sweep_and_plan_sweep_share_one_list_of_inputs():
    import inspect

    from simulator.analysis.sweep import SWEEP_INPUTS, plan_sweep
    from simulator.running.setup import EXECUTION_OPTIONS

    shown = inspect.signature(sweep).parameters
    plan = inspect.signature(plan_sweep).parameters
    assert tuple(k for k in plan if k not in ("game", "spec")) == SWEEP_INPUTS
    assert list(shown) == ["game", "spec", *SWEEP_INPUTS, *EXECUTION_OPTIONS, "progress", "on_plan"]
    assert all(shown[k] == plan[k] for k in SWEEP_INPUTS)
    assert shown["backend"].default == "local" and shown["threads"].default is None
    # The execution options are still taken (and checked) as simulate takes them.
    played = sweep("spokelse", "threshold:k=1|2", rounds=30, seed=4, threads=1, block_size=7)
    again = sweep("spokelse", "threshold:k=1|2", rounds=30, seed=4)
    assert played.table.equals(again.table)


# --- a seed sequence round-trips ------------------------------------------------------------


def test_a_seed_sequence_setup_round_trips_with_its_provenance():
    seq = np.random.SeedSequence(5, spawn_key=(2,))
    setup = Setup.build("spokelse", ["threshold:k=4", "passive"], rounds=10, seed=seq)
    args = setup.arguments()
    assert args["seed"] is seq
    again = Setup.build(**args)
    assert again == setup and again.seed_extra == setup.seed_extra != {}
    assert again.seed_extra["seed_sequence"] == {"entropy": 5, "spawn_key": [2]}
    plain = Setup.build("spokelse", ["threshold:k=4", "passive"], rounds=10, seed=setup.seed)
    assert plain.seed == setup.seed and plain != setup  # same seed, no sequence in its provenance


# --- trace checks its input as simulate does ------------------------------------------------

TRACE_BAD = [b for b in BAD_INPUTS if set(b[0]) <= {"seed", "players", "rules", "reaction"}]


@pytest.mark.parametrize(("bad", "expected"), TRACE_BAD, ids=[str(b) for b, _ in TRACE_BAD])
def test_trace_refuses_a_bad_input_with_simulates_line(bad, expected):
    kw = {"seed": 1, **bad}
    with pytest.raises(InputError) as info:
        simulator.trace("spokelse", ["passive"], **kw)
    assert str(info.value) == message(ENTRY_POINTS["simulate"], **bad)


def test_trace_refuses_no_seed_and_traces_a_seed_sequence_as_its_seed():
    with pytest.raises(InputError, match=r"^a trace needs a seed \(--seed N\)"):
        simulator.trace("spokelse", ["passive"], seed=None)
    seq = np.random.SeedSequence(3)
    chosen = Setup.build("spokelse", ["passive"], rounds=1, seed=seq).seed
    assert simulator.trace("spokelse", ["passive"], seed=seq) == simulator.trace(
        "spokelse", ["passive"], seed=chosen
    )


def test_the_trace_command_still_requires_its_seed():
    r = runner.invoke(app, ["trace", "spokelse", "-s", "passive"])
    assert r.exit_code == 2 and "--seed" in r.output and "Traceback" not in r.output


# --- the default opponent in the help and in `kortsim games` --------------------------------


def test_games_lists_each_games_default_opponent():
    import json

    r = runner.invoke(app, ["games", "--json"])
    assert r.exit_code == 0, r.output
    rows = {row["game"]: row for row in json.loads(r.stdout)}
    assert {name: row["default_opponent"] for name, row in rows.items()} == {
        name: get_game(name).default_opponent for name in GAMES
    }
    text = runner.invoke(app, ["games"]).stdout
    for name in GAMES:
        shown = get_game(name).default_opponent or "none"
        assert f"default opponent (compare --field, sweep --vs): {shown}" in text


def test_the_field_and_vs_help_name_no_game():
    from simulator.cli.options import CompareField, SweepVs

    for alias in (CompareField, SweepVs):
        text = alias.__metadata__[0].help
        assert "default opponent" in text and "kortsim games" in text
        assert not any(get_game(n).title.split()[0].rstrip(":") in text for n in GAMES), text


# --- the package exports --------------------------------------------------------------------


def test_the_package_exports_setup_execution_and_run():
    assert simulator.Setup is Setup and simulator.Execution is Execution and simulator.run is api.run
    assert {"Setup", "Execution", "run"} <= set(simulator.__all__)
    setup = simulator.Setup.build("spokelse", ["threshold:k=4", "passive"], rounds=200, seed=2)
    via = simulator.run(setup, simulator.Execution.build(threads=1))
    direct = simulator.simulate("spokelse", ["threshold:k=4", "passive"], rounds=200, seed=2)
    assert np.array_equal(via.aggregates, direct.aggregates)
    assert callable(simulator.compare) and simulator.analysis.compare.compare is compare
