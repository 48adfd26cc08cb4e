"""Users' strategies are contained: own row only, exceptions named, global random refused.

Each misbehaving strategy is one file in ``tests/plugins/``.  The command-line side
(exit codes, a process that must not die by a signal, the time limit, Ctrl-C) is in
``tests/cli/test_cli_containment.py``.
"""

import random
from pathlib import Path

import numpy as np
import pytest

import simulator
from simulator.errors import SpecError, StrategyError
from simulator.games import get_game
from simulator.games.spokelse import reference
from simulator.kernels.containment import (
    BLOCK_LIMIT_ENV,
    DEFAULT_BLOCK_LIMIT,
    block_limit,
    global_random_use,
)
from simulator.kernels.raised import trapping_players
from simulator.running.runner import BlockRunner
from strategies.plugins import load_plugin
from strategies.registry import parse_spec

ROOT = Path(__file__).resolve().parents[2]
PLUGINS = ROOT / "tests" / "plugins"
EXAMPLE = ROOT / "examples" / "my_strategy.py"


def plugin(name: str) -> str:
    path = PLUGINS / f"{name}.py"
    load_plugin(path)
    return str(path)


def one_line(message: str) -> str:
    assert "\n" not in message, message
    assert "Traceback" not in message
    return message


# --- reading past its row -----------------------------------------------------------------


def test_a_read_past_its_row_is_an_index_error_naming_strategy_seat_and_decision_in_trace():
    path = plugin("reads_past_its_row")
    with pytest.raises(StrategyError) as info:
        simulator.trace("spokelse", ["passive", "test-reads-past-its-row"], seed=7, plugins=[path])
    text = one_line(str(info.value))
    assert "'test-reads-past-its-row' (seat 1)" in text
    assert "IndexError" in text and "at its decision 1, " in text
    assert "round 0 of the run with seed 7" in text


def test_a_jitted_helper_from_the_plugin_is_bounds_checked_too():
    path = plugin("helper_reads_past")
    with pytest.raises(StrategyError) as info:
        simulator.trace("spokelse", ["test-helper-reads-past", "passive"], seed=3, plugins=[path])
    text = one_line(str(info.value))
    assert "'test-helper-reads-past' (seat 0)" in text and "IndexError" in text


# --- writing -----------------------------------------------------------------------------


@pytest.mark.slow
def test_a_write_far_away_is_stopped_with_one_line_not_a_crash():
    path = plugin("writes_far_away")
    with pytest.raises(StrategyError) as info:
        simulator.simulate(
            "spokelse", ["passive", "test-writes-far-away"], rounds=500, seed=7, plugins=[path]
        )
    text = one_line(str(info.value))
    assert "'test-writes-far-away' (seat 1)" in text
    assert "IndexError" in text and "at its decision 2, " in text
    assert "passive" not in text  # the innocent opponent is not blamed


def test_assigning_into_its_observation_is_refused_before_the_run():
    path = plugin("writes_its_observation")
    with pytest.raises(SpecError) as info:
        simulator.simulate(
            "spokelse", ["test-writes-its-observation", "passive"], rounds=10, seed=1, plugins=[path]
        )
    text = one_line(str(info.value))
    assert "'test-writes-its-observation'" in text and "read-only" in text
    assert "writes_its_observation.py:11" in text


# --- exceptions --------------------------------------------------------------------------


@pytest.mark.slow
def test_an_exception_in_a_strategy_is_one_line_with_its_seat_decision_and_text():
    path = plugin("raises")
    with pytest.raises(StrategyError) as info:
        simulator.simulate("spokelse", ["passive", "test-raises"], rounds=300, seed=11, plugins=[path])
    text = one_line(str(info.value))
    assert text.startswith("strategy 'test-raises' (seat 1) raised ValueError: no idea what to do")
    assert "at its decision 3, " in text  # turn 1: two decisions; turn 3: the third
    assert "round 0 of the run with seed 11" in text
    assert "SystemError" not in text


# --- global random state -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "spec", "words"),
    [
        ("global_random", "test-global-numpy-random", "np.random.random"),
        ("python_random", "test-python-random", "random.random"),  # through a helper
    ],
)
def test_global_random_state_is_refused_with_a_pointer_to_rng(name, spec, words):
    path = plugin(name)
    for call in (
        lambda: simulator.simulate("spokelse", [spec, "passive"], rounds=10, seed=1, plugins=[path]),
        lambda: simulator.trace("spokelse", [spec, "passive"], seed=1, plugins=[path]),
    ):
        with pytest.raises(SpecError) as info:
            call()
        text = one_line(str(info.value))
        assert f"'{spec}'" in text and words in text
        assert "rng argument" in text and "same seed" in text


def test_global_random_use_sees_modules_functions_and_helpers_and_passes_clean_code():
    from numpy.random import randint

    def uses_module(obs, params, rng):
        return random.randint(0, 4)

    def uses_function(obs, params, rng):
        return randint(0, 4)

    def uses_numpy(obs, params, rng):
        return int(np.random.rand() * 4)

    def via_helper(obs, params, rng):
        return uses_numpy(obs, params, rng)

    def clean(obs, params, rng):
        return int(np.abs(obs[0])) % 4

    assert "Python's random module" in global_random_use(uses_module)
    assert "numpy's global random generator" in global_random_use(uses_function)
    assert "np.random.rand" in global_random_use(uses_numpy)
    assert "np.random.rand" in global_random_use(via_helper)
    assert global_random_use(clean) is None


# --- the time limit's setting ------------------------------------------------------------


def test_the_block_time_limit_has_a_documented_default_and_an_environment_variable(monkeypatch):
    monkeypatch.delenv(BLOCK_LIMIT_ENV, raising=False)
    assert block_limit() == DEFAULT_BLOCK_LIMIT == 120.0
    monkeypatch.setenv(BLOCK_LIMIT_ENV, "2.5")
    assert block_limit() == 2.5
    monkeypatch.setenv(BLOCK_LIMIT_ENV, "0")
    assert block_limit() == float("inf")
    monkeypatch.setenv(BLOCK_LIMIT_ENV, "soon")
    with pytest.raises(SpecError, match="KORTSIM_BLOCK_TIMEOUT='soon' is not a number"):
        block_limit()


# --- a well-behaved plugin plays exactly as before ---------------------------------------


@pytest.mark.slow
def test_a_well_behaved_plugin_gives_the_same_figures_as_before_and_trace_agrees():
    load_plugin(EXAMPLE)
    specs = ["lowball:keep=3", "threshold:k=4"]
    result = simulator.simulate("spokelse", specs, rounds=3000, seed=7, plugins=[str(EXAMPLE)])
    # Figures of this run from before containment (the same code without it).
    assert result.summary["tie_rate"] == 172 / 3000
    assert result.summary["mean_score_diff"] == -0.15633333333333332
    assert result.summary["mean_turns"] == 46.409
    # Trace (the reference game with the contained strategy) agrees with the kernel's records.
    game = get_game("spokelse")
    table = simulator.api.make_table(game, None, None, None)
    players = [parse_spec(s, "spokelse") for s in specs]
    runner = BlockRunner(table, players, "round", 7)
    rec = runner.records(0, 40)
    for g in range(40):
        ref = reference.play_round(table.rules, trapping_players(players), seed=7, game=g)
        assert tuple(rec[g, :3]) == (*ref.scores_half, len(ref.turns)), g
