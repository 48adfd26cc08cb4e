"""User strategy files through the Python API: enum answers, compile errors, reloads, names."""

import pickle
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from simulator import api
from simulator.errors import InputError
from simulator.games import get_game
from simulator.games.spokelse.observation import (
    FROM_DISCARD,
    HAND_VALUE,
    OBS_SIZE,
    PHASE,
    PLACE,
    SOURCE,
    UNKNOWN_SLOT,
    Place,
    Source,
)
from strategies import SpecError, StrategyCompileError, families, load_plugin, parse_spec
from strategies.checks import essential

PLUGINS = Path(__file__).resolve().parents[1] / "plugins"


def observation(phase: int, unknown_slot: int = 2, hand_value: int = 10) -> np.ndarray:
    obs = np.full(OBS_SIZE, -1, dtype=np.int64)
    obs[PHASE] = phase
    obs[FROM_DISCARD] = 0
    obs[UNKNOWN_SLOT] = unknown_slot
    obs[HAND_VALUE] = hand_value
    return obs


def ask(name: str, obs: np.ndarray) -> int:
    fam = families("spokelse")[name]
    return int(fam.decide(obs, np.zeros(8), np.zeros(1, dtype=np.uint64)))


# --- answering with Source / Place --------------------------------------------------------


def test_enum_members_mixed_with_ints_compile_to_an_int64_function():
    @njit
    def answer(obs):
        if obs[PHASE] == SOURCE:
            return Source.DISCARD_PILE
        if obs[UNKNOWN_SLOT] >= 0:
            return obs[UNKNOWN_SLOT]
        return Place.DISCARD

    assert answer(observation(SOURCE)) == 1
    assert answer(observation(PLACE, unknown_slot=3)) == 3
    assert answer(observation(PLACE, unknown_slot=-1)) == 4
    assert str(answer.nopython_signatures[0].return_type) == "int64"


@pytest.mark.slow
def test_a_strategy_answering_with_the_enums_plays_as_its_twin_answering_with_ints():
    load_plugin(PLUGINS / "enum_answers.py")
    load_plugin(PLUGINS / "int_answers.py")
    by_enum = api.simulate("spokelse", "test-enum-answers:keep=3", rounds=3000, seed=11)
    by_int = api.simulate("spokelse", "test-int-answers:keep=3", rounds=3000, seed=11)
    assert np.array_equal(by_enum.aggregates, by_int.aggregates)
    assert by_enum.summary["seats"][0]["mean_score"] == by_int.summary["seats"][0]["mean_score"]
    # and through the readable reference (trace) as well
    text_enum = api.trace("spokelse", "test-enum-answers", seed=5, game_index=3)
    text_int = api.trace("spokelse", "test-int-answers", seed=5, game_index=3)
    assert text_enum.replace("test-enum-answers", "X") == text_int.replace("test-int-answers", "X")


# --- strategies that do not compile ------------------------------------------------------


def test_a_strategy_that_does_not_compile_raises_one_line_naming_file_and_line():
    load_plugin(PLUGINS / "does_not_compile.py")
    with pytest.raises(StrategyCompileError) as info:
        api.simulate("spokelse", "test-does-not-compile", rounds=10, seed=1)
    e = info.value
    line = str(e)
    assert "\n" not in line
    assert "'test-does-not-compile'" in line
    assert "does_not_compile.py:12" in line
    assert "Unknown attribute 'best'" in line
    assert (e.strategy, Path(e.file).name, e.line) == ("test-does-not-compile", "does_not_compile.py", 12)
    assert "Failed in nopython mode pipeline" in e.details and e.details.count("\n") > 5
    assert isinstance(e, SpecError)  # the command line's exit code 2
    copy = pickle.loads(pickle.dumps(e))  # survives a trip from a Dask worker
    assert (str(copy), copy.details, copy.line) == (line, e.details, 12)


def test_trace_refuses_a_strategy_that_does_not_compile_the_same_way():
    load_plugin(PLUGINS / "does_not_compile.py")
    with pytest.raises(StrategyCompileError, match=r"does_not_compile\.py:12"):
        api.trace("spokelse", "test-does-not-compile", seed=1)


def test_a_strategy_returning_a_float_or_nothing_is_refused_before_the_kernel(tmp_path):
    path = tmp_path / "returns_badly.py"
    path.write_text(
        "from strategies import strategy\n\n\n"
        '@strategy(game="spokelse", name="test-returns-float")\n'
        "def returns_float(obs, params, rng):\n"
        "    return params[0]\n\n\n"
        '@strategy(game="spokelse", name="test-returns-nothing")\n'
        "def returns_nothing(obs, params, rng):\n"
        "    if obs[0] == 0:\n"
        "        return 0\n"
    )
    load_plugin(path)
    with pytest.raises(
        StrategyCompileError,
        match=r"'test-returns-float' \(.*returns_badly\.py:6\) returns a decimal number \(a float\)",
    ):
        api.simulate("spokelse", "test-returns-float", rounds=10, seed=1)
    with pytest.raises(StrategyCompileError, match=r"returns nothing \(None\) on some path"):
        api.simulate("spokelse", "test-returns-nothing", rounds=10, seed=1)


def test_essential_picks_the_sentence_numba_objected_with():
    unify = (
        "Failed in nopython mode pipeline (step: nopython frontend)\n"
        "Can't unify return type from the following types: int64, float64\n"
        "Return of: IR name '$x', type 'int64', location: \n"
        'File "p.py", line 8:\n'
    )
    assert essential(unify) == "Can't unify return type from the following types: int64, float64"
    getitem = (
        "Failed in nopython mode pipeline (step: nopython frontend)\n"
        "No implementation of function Function(<built-in function getitem>) found for signature:\n"
        " \n"
        " >>> getitem(array(int64, 1d, C), unicode_type)\n"
        " \n"
        "There are 22 candidate implementations:\n"
        "  Rejected as the implementation raised a specific error:\n"
        "    NumbaTypeError: Unsupported array index type unicode_type in [unicode_type]\n"
    )
    assert essential(getitem) == (
        "No implementation of function Function(<built-in function getitem>) found for signature: "
        "getitem(array(int64, 1d, C), unicode_type) "
        "(NumbaTypeError: Unsupported array index type unicode_type in [unicode_type])"
    )
    assert len(essential("Failed in x\n" + "y" * 1000)) == 300


# --- reloading a changed file ------------------------------------------------------------

PASSIVE_CLONE = '''
from strategies import strategy


@strategy(game="spokelse", name="test-reloaded")
def reloaded(obs, params, rng):
    """Version 1: draw and throw away, like the shipped passive."""
    return 0 if obs[0] == 0 else 4
'''

KEEPS_LOW_CARDS = '''
from simulator.games.spokelse.observation import (
    HAND_VALUE, HIGH, HIGH_SLOT, PHASE, SOURCE, UNKNOWN_SLOT, Place, Source,
)
from strategies import strategy


@strategy(game="spokelse", name="test-reloaded")
def reloaded(obs, params, rng):
    """Version 2: draw; replace the highest known card, or fill an unknown slot with a low one."""
    if obs[PHASE] == SOURCE:
        return Source.STOCK
    c = obs[HAND_VALUE]
    if obs[HIGH] > c:
        return obs[HIGH_SLOT]
    if c <= 6 and obs[UNKNOWN_SLOT] >= 0:
        return obs[UNKNOWN_SLOT]
    return Place.DISCARD
'''


@pytest.mark.slow
def test_a_changed_file_loaded_again_plays_its_new_version(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(PASSIVE_CLONE)
    load_plugin(path)
    first = families("spokelse")["test-reloaded"].decide
    v1 = api.simulate("spokelse", "test-reloaded", rounds=2000, seed=4)
    passive = api.simulate("spokelse", "passive", rounds=2000, seed=4)
    assert np.array_equal(v1.aggregates, passive.aggregates)  # the same deals: a clone plays exactly alike
    low_card = observation(PLACE, unknown_slot=2, hand_value=2)
    assert ask("test-reloaded", low_card) == 4

    load_plugin(path)  # unchanged: nothing is run or compiled again
    assert families("spokelse")["test-reloaded"].decide is first

    path.write_text(KEEPS_LOW_CARDS)
    load_plugin(path)
    assert families("spokelse")["test-reloaded"].decide is not first
    assert "Version 2" in families("spokelse")["test-reloaded"].doc
    assert ask("test-reloaded", low_card) == 2
    v2 = api.simulate("spokelse", "test-reloaded", rounds=2000, seed=4)
    assert v2.summary["seats"][0]["mean_score"] < v1.summary["seats"][0]["mean_score"] - 3


def test_a_reload_that_fails_keeps_the_version_that_worked(tmp_path):
    path = tmp_path / "flaky.py"
    path.write_text(PASSIVE_CLONE.replace("test-reloaded", "test-flaky"))
    load_plugin(path)
    before = families("spokelse")["test-flaky"]
    path.write_text(
        PASSIVE_CLONE.replace("test-reloaded", "test-flaky") + "\nraise RuntimeError('half-edited')\n"
    )
    with pytest.raises(SpecError, match="failed to load: RuntimeError: half-edited"):
        load_plugin(path)
    assert families("spokelse")["test-flaky"] is before


def test_a_name_dropped_from_a_reloaded_file_is_unregistered(tmp_path):
    path = tmp_path / "two.py"
    two = PASSIVE_CLONE.replace("test-reloaded", "test-kept") + PASSIVE_CLONE.replace(
        "test-reloaded", "test-dropped"
    ).replace("def reloaded", "def dropped")
    path.write_text(two)
    load_plugin(path)
    assert {"test-kept", "test-dropped"} <= set(families("spokelse"))
    path.write_text(PASSIVE_CLONE.replace("test-reloaded", "test-kept"))
    load_plugin(path)
    assert "test-kept" in families("spokelse") and "test-dropped" not in families("spokelse")


# --- names, parameters and rules given twice ---------------------------------------------


def test_a_plugin_may_not_take_a_shipped_name():
    shipped = families("spokelse")["threshold"]
    with pytest.raises(SpecError) as info:
        load_plugin(PLUGINS / "takes_a_shipped_name.py")
    message = str(info.value)
    assert "\n" not in message
    assert "takes_a_shipped_name.py" in message and "'threshold' is reserved" in message
    assert families("spokelse")["threshold"] is shipped


def test_a_name_taken_by_another_file_is_refused(tmp_path):
    (tmp_path / "a.py").write_text(PASSIVE_CLONE.replace("test-reloaded", "test-taken"))
    (tmp_path / "b.py").write_text(PASSIVE_CLONE.replace("test-reloaded", "test-taken"))
    load_plugin(tmp_path / "a.py")
    with pytest.raises(SpecError, match=r"'test-taken' is already taken by .*a\.py"):
        load_plugin(tmp_path / "b.py")
    assert Path(families("spokelse")["test-taken"].origin).name == "a.py"


def test_a_parameter_given_twice_is_refused():
    with pytest.raises(SpecError, match="parameter 'k' is given twice"):
        parse_spec("threshold:k=4,k=5", "spokelse")
    with pytest.raises(SpecError, match="given twice"):
        api.simulate("spokelse", "threshold:k=4,k=4", rounds=10, seed=1)


def test_rules_as_a_list_refuse_a_rule_given_twice():
    game = get_game("spokelse")
    assert game.table(["jack=11", ("target", "31")]).rules_dict()["jack"] == 11
    with pytest.raises(InputError, match="rule jack is given twice"):
        game.table(["jack=11", "jack=0.5"])
    with pytest.raises(InputError, match="rule jack is given twice"):
        api.simulate("spokelse", "passive", rounds=10, seed=1, rules=["jack=11", "jack=0.5"])
    with pytest.raises(InputError, match="NAME=VALUE"):
        game.table(["jack"])


def test_a_strategy_compiled_ahead_with_its_own_signature_is_accepted():
    from strategies import strategy
    from strategies.checks import check_compiles

    @strategy(game="spokelse", name="test-ahead-of-time")
    @njit("int64(int64[:], float64[:], uint64[:])")
    def ahead(obs, params, rng):
        return 0 if obs[PHASE] == SOURCE else 4

    check_compiles(families("spokelse")["test-ahead-of-time"])  # raises if refused
    assert ask("test-ahead-of-time", observation(PLACE)) == 4
