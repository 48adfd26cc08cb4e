"""Containment reaches every function a user strategy calls (simulator/kernels/reach.py):
helpers of its own file, closures and helpers of other local modules are bounds-checked
and scanned for global random state; recursion is refused; the Gris memory slots are
the strategy's own; a bad return is said at its line in the player's words.

Each case is a plugin file in ``tests/plugins/``, driven through the API's ``simulate``
and ``trace`` (the command line's side is in ``tests/cli/test_cli_containment.py``).
"""

from pathlib import Path

import pytest

import simulator
from simulator.errors import SpecError, StrategyError
from strategies.checks import StrategyCompileError
from strategies.plugins import load_plugin

ROOT = Path(__file__).resolve().parents[2]
PLUGINS = ROOT / "tests" / "plugins"


def plugin(name: str) -> str:
    path = PLUGINS / f"{name}.py"
    load_plugin(path)
    return str(path)


def one_line(message: str) -> str:
    assert "\n" not in message, message
    assert "Traceback" not in message
    return message


def both(game: str, specs: list[str], path: str) -> list:
    """The calls that play ``specs``: a short simulate, and a trace of its first round."""
    return [
        lambda: simulator.simulate(game, specs, rounds=300, seed=7, plugins=[path]),
        lambda: simulator.trace(game, specs, seed=7, plugins=[path]),
    ]


# --- reading another seat's data through a helper -------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "spec"),
    [
        ("peek_module", "test-peek-module"),  # own-file helper, through another, with a signature
        ("peek_closure", "test-peek-closure"),  # a closure variable
        ("peek_helpermodule", "test-peek-helpermodule"),  # `peek_helpers.peek(obs)`
        ("far_helper", "test-far-helper"),  # a hundred million entries away
    ],
)
def test_a_read_past_its_row_through_any_helper_is_an_index_error(name, spec):
    path = plugin(name)
    for call in both("spokelse", [spec, "passive"], path):
        with pytest.raises(StrategyError) as info:
            call()
        text = one_line(str(info.value))
        assert f"'{spec}' (seat 0) raised IndexError" in text, text
        assert "at its decision 1, in round 0 of the run with seed 7" in text


def test_a_recursive_strategy_is_refused_in_one_line():
    path = plugin("recursive")
    for call in both("spokelse", ["test-recursive", "passive"], path):
        with pytest.raises(SpecError) as info:
            call()
        text = one_line(str(info.value))
        assert text.startswith("strategy 'test-recursive' (")
        assert "calls itself (recursive -> recursive)" in text and "write it as a loop" in text


# --- global random state in helpers ----------------------------------------------------


@pytest.mark.parametrize(
    ("name", "spec", "where"),
    [
        ("random_helpermodule", "test-random-helpermodule", "(in coin)"),
        ("random_vectorized", "test-random-vectorized", "(in jitter)"),
    ],
)
def test_global_random_state_in_a_helper_module_or_a_vectorised_helper_is_refused(name, spec, where):
    path = plugin(name)
    for call in both("spokelse", [spec, "passive"], path):
        with pytest.raises(SpecError) as info:
            call()
        text = one_line(str(info.value))
        assert f"'{spec}'" in text and "np.random.random" in text and where in text
        assert "same seed, same result" in text and "rng argument" in text


# --- a plugin that ends the program while loading ----------------------------------------


def test_a_plugin_calling_sys_exit_at_import_is_one_line_naming_the_file():
    path = str(PLUGINS / "exits_at_import.py")
    for call in both("spokelse", ["passive", "passive"], path):
        with pytest.raises(SpecError) as info:
            call()
        text = one_line(str(info.value))
        assert "exits_at_import.py' failed to load: it called sys.exit()" in text


# --- memory slots ---------------------------------------------------------------------------


def _figures(result) -> dict:
    """The figures of a run, without its timings and the names of its strategies."""
    keep = ("finished", "stalled", "mean_passes", "mean_passes_ci", "dealt_signal_rate")
    seats = [{k: v for k, v in s.items() if k != "player"} for s in result.summary["seats"]]
    return {**{k: result.summary[k] for k in keep}, "seats": seats}


@pytest.mark.slow
def test_a_plugin_copy_of_commit_keeps_its_memory_and_plays_as_the_shipped_one():
    path = plugin("commit_copy")
    rest = ["greedy", "greedy", "greedy"]
    mine = simulator.simulate(
        "gris", ["test-commit-copy:after=1", *rest], rounds=2000, seed=3, plugins=[path]
    )
    shipped = simulator.simulate("gris", ["commit:after=1", *rest], rounds=2000, seed=3)
    assert _figures(mine) == _figures(shipped)
    # The trace plays the same moves as the shipped strategy (the header names differ).
    traced = simulator.trace("gris", ["test-commit-copy:after=1", *rest], seed=3, plugins=[path])
    plain = simulator.trace("gris", ["commit:after=1", *rest], seed=3)
    assert traced.split("\n\n", 1)[1].replace("test-commit-copy", "commit") == plain.split("\n\n", 1)[1]


@pytest.mark.slow
def test_a_gris_nese_plugin_with_memory_compiles_and_plays_as_greedy():
    """Gris-nese's observation has 32 entries besides the memory slots: the check that they
    are unchanged after each decision must compile for a tuple that long."""
    path = plugin("greedy_counting_nese")
    mine = simulator.simulate("gris-nese", ["test-greedy-counting", "greedy", "greedy"], players=3, rounds=2000, seed=3,
                              plugins=[path])  # fmt: skip
    shipped = simulator.simulate("gris-nese", ["greedy"], players=3, rounds=2000, seed=3)
    seats = [
        [{k: v for k, v in s.items() if k != "player"} for s in r.summary["seats"]] for r in (mine, shipped)
    ]
    assert seats[0] == seats[1] and len(seats[0]) == 3


@pytest.mark.slow
def test_an_assignment_outside_the_memory_slots_stops_the_run_in_one_line():
    path = plugin("writes_outside_memory")
    for call in both("gris", ["test-writes-outside-memory", "greedy", "greedy", "greedy"], path):
        with pytest.raises(StrategyError) as info:
            call()
        text = one_line(str(info.value))
        assert text.startswith("strategy 'test-writes-outside-memory' (seat 0) assigned into obs[7]")
        assert "which is read-only (its own memory is obs[25:29])" in text
        assert "at its decision 1, in round 0 of the run with seed 7" in text


def test_assigning_into_params_is_refused_even_where_obs_has_memory(tmp_path):
    f = tmp_path / "writes_params.py"
    f.write_text(
        "from strategies import strategy\n\n\n"
        '@strategy(game="gris", name="test-writes-params", params={"a": (1, 0, 5, 1)})\n'
        "def writes_params(obs, params, rng):\n"
        "    params[0] = 2.0\n"
        "    return obs[7]\n",
        encoding="utf-8",
    )
    load_plugin(f)
    with pytest.raises(SpecError) as info:
        simulator.simulate("gris", ["test-writes-params", "greedy", "greedy", "greedy"], rounds=10, seed=1,
                           plugins=[str(f)])  # fmt: skip
    text = one_line(str(info.value))
    assert "read-only (only its MEMORY slots are its own)" in text


# --- a return of the wrong type, in the player's words ------------------------------------


@pytest.mark.parametrize(
    ("name", "spec", "line", "words"),
    [
        ("returns_str", "test-returns-str", 19, "a str ('stock')"),
        ("returns_float_mixed", "test-returns-float-mixed", 13, "a float"),
    ],
)
def test_a_return_of_the_wrong_type_is_said_at_its_line_in_the_players_words(name, spec, line, words):
    path = plugin(name)
    for call in both("spokelse", [spec, "passive"], path):
        with pytest.raises(StrategyCompileError) as info:
            call()
        text = one_line(str(info.value))
        assert (
            text
            == f"strategy '{spec}' (tests/plugins/{name}.py:{line}): line {line} returns {words}; "
            + ("return an int, Source or Place")
            or text.endswith(
                f"{name}.py:{line}): line {line} returns {words}; return an int, Source or Place"
            )
        )
        assert "unify" not in text and "Cannot cast" not in text
        assert info.value.line == line


@pytest.mark.slow
def test_a_contained_plugin_copy_of_threshold_plays_exactly_as_the_shipped_one():
    path = plugin("threshold_copy")
    mine = simulator.simulate(
        "spokelse", ["test-threshold-copy:k=4"] * 2, rounds=20000, seed=5, plugins=[path]
    )
    shipped = simulator.simulate("spokelse", ["threshold:k=4"] * 2, rounds=20000, seed=5)
    for key in ("tie_rate", "mean_score_diff", "mean_turns"):
        assert mine.summary[key] == shipped.summary[key], key
