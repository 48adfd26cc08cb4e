"""Every public function checks its arguments: a wrong type or a value out of range is an
:class:`InputError` in one line that names the argument, never Python's own error from
deep inside; numpy integers stay whole numbers and numpy bools flags.

The table below calls each function with one bad argument and good ones otherwise (small
sizes, so that a check that is missing shows as a wrong error or a run, not a long wait).
"""

from __future__ import annotations

import threading
import typing
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

import simulator
from simulator.analysis.sweep import sweep
from simulator.engine import arguments as a
from simulator.errors import InputError

S = "spokelse"


def _simulate(**kw):
    return simulator.simulate(
        kw.pop("game", S), kw.pop("strategies", "passive"), **{"rounds": 4, "seed": 1, **kw}
    )


def _compare(**kw):
    strategies = kw.pop("strategies", ["passive", "threshold:k=4"])
    return simulator.compare(kw.pop("game", S), strategies, **{"rounds": 4, "seed": 1, **kw})


def _sweep(**kw):
    return sweep(kw.pop("game", S), kw.pop("spec", "threshold:k=1|2"), **{"rounds": 4, "seed": 1, **kw})


def _tune(**kw):
    spec = kw.pop("strategy", "threshold:k=0..2")
    return simulator.tune(kw.pop("game", S), spec, **{"rounds": 64, "seed": 1, "trials": 1, **kw})


def _profile(**kw):
    return simulator.profile(kw.pop("game", S), **{"rounds": 4, "matches": 2, "seed": 1, **kw})


def _calibrate(**kw):
    return simulator.calibrate(**{"rounds": 2, "seed": 1, **kw})


def _trace(**kw):
    return simulator.trace(kw.pop("game", S), kw.pop("strategies", "passive"), **{"seed": 1, **kw})


def _advise(**kw):
    position = {"row": "♠8 ♦K ? ?", "hand": "♥3", "discard": "♣Q", "stock": 20, "samples": 20, "seed": 1}
    return simulator.advise(kw.pop("game", S), **{**position, **kw})


def _check_game(**kw):
    return simulator.check_game(kw.pop("game", S), **kw)


def _read_records(**kw):
    return simulator.read_records(**{"out": "no-such-run", **kw})


def _setup(**kw):
    return simulator.Setup.build(kw.pop("game", S), kw.pop("strategies", "passive"), **{"rounds": 4, **kw})


def _execution(**kw):
    return simulator.Execution.build(**kw)


CALLS = {
    "simulate": _simulate,
    "compare": _compare,
    "sweep": _sweep,
    "tune": _tune,
    "profile": _profile,
    "calibrate": _calibrate,
    "trace": _trace,
    "advise": _advise,
    "check_game": _check_game,
    "read_records": _read_records,
    "Setup.build": _setup,
    "Execution.build": _execution,
}

# (function, argument, bad value): each is refused with an InputError naming the argument.
BAD = [
    # what is played, shared by simulate, compare, sweep, tune, trace (running/inputs.py)
    *[
        (f, "game", v)
        for f in ("simulate", "compare", "sweep", "tune", "trace")
        for v in (7, None, ["spokelse"])
    ],
    *[
        (f, "strategies", v)
        for f in ("simulate", "compare", "trace", "Setup.build")
        for v in (7, 2.5, True, [1], [None])
    ],
    ("simulate", "strategies", {"passive": 1}),
    ("simulate", "strategies", []),
    *[(f, "rules", v) for f in ("simulate", "compare", "sweep", "tune", "trace") for v in (7, 2.5, True)],
    ("simulate", "rules", "x"),
    ("simulate", "rules", [1]),
    ("simulate", "rules", {"no-such-rule": 1}),
    *[(f, "rounds", v) for f in ("simulate", "compare", "sweep", "tune") for v in (0, -1, 2.5, True, "10")],
    ("simulate", "rounds", 10**13),
    *[
        (f, "seed", v)
        for f in ("simulate", "compare", "sweep", "tune", "profile", "calibrate", "trace", "advise")
        for v in (-1, 2**64, 2.5, "1", True)
    ],
    ("trace", "seed", None),
    *[(f, "players", v) for f in ("simulate", "compare", "trace") for v in (2.5, "2", True, 99)],
    ("simulate", "reaction", 7),
    ("gris", "reaction", ("abc",)),
    *[
        (f, "plugins", v)
        for f in ("simulate", "compare", "sweep", "tune", "trace")
        for v in (7, None, True, [1])
    ],
    # how it is played (running/setup.py Execution.build)
    *[
        (f, "threads", v)
        for f in ("simulate", "compare", "sweep", "tune", "Execution.build")
        for v in (0, 2.5, "2", True, 10**6)
    ],
    *[(f, "block_size", v) for f in ("simulate", "compare", "sweep", "tune") for v in (0, 2.5, "64", True)],
    *[(f, "backend", v) for f in ("simulate", "compare", "sweep", "profile") for v in ("nowhere", 7)],
    ("Execution.build", "scheduler", 7),
    ("Execution.build", "workers", 2.5),
    ("Execution.build", "connect_timeout", "5"),
    ("Execution.build", "connect_timeout", True),
    ("Execution.build", "connect_timeout", -1.0),
    *[("simulate", "out", v) for v in (7, True, [1], "")],
    *[("simulate", "records", v) for v in (7, "yes", None)],
    *[("simulate", "resume", v) for v in (7, "yes", None)],
    ("simulate", "progress", 7),
    ("simulate", "stop", True),
    # compare
    *[("compare", k, v) for k in ("field", "baseline") for v in (7, True, [1], {"a": 1})],
    ("compare", "reactions", "250"),
    ("compare", "on_plan", 7),
    ("compare", "on_block", "x"),
    # sweep
    *[("sweep", "spec", v) for v in (7, None, ["threshold:k=1"])],
    *[("sweep", k, v) for k in ("vs", "baseline", "metric") for v in (7, True, [1])],
    ("sweep", "on_plan", 7),
    ("sweep", "out", "runs/x"),
    # tune
    *[("tune", "strategy", v) for v in (7, None)],
    *[("tune", "trials", v) for v in (0, 10**5, 2.5, True, "3")],
    *[("tune", "iterate", v) for v in (0, 2.5, True)],
    *[("tune", "confirm", v) for v in (0, 2.5, "100")],
    *[("tune", "vs", v) for v in (7, [1])],
    ("tune", "metric", 7),
    ("tune", "out", 7),
    ("tune", "resume", "yes"),
    ("tune", "on_trial", 7),
    # profile
    *[("profile", "strategies", v) for v in (7, [1], {"passive": 1})],
    *[("profile", "players", v) for v in (2.5, "x", [2.5])],
    *[("profile", "rounds", v) for v in (1, 2.5, True)],
    ("profile", "rules", 7),
    ("profile", "compare_rule", "jack"),
    ("profile", "progress", 7),
    # calibrate
    *[("calibrate", "game", v) for v in (7, True, ["spokelse"])],
    *[("calibrate", k, v) for k in ("player", "model") for v in (7, None, ["expect"])],
    ("calibrate", "opponent", 7),
    *[("calibrate", "rounds", v) for v in (0, 2.5, None, "2", 10**8)],
    *[("calibrate", "particles", v) for v in (0, 2.5, True, None)],
    *[("calibrate", "eps", v) for v in (0, 0.5, None, "0.1", True, float("nan"))],
    *[("calibrate", "belief", v) for v in ("exact", 7, None)],
    *[("calibrate", "threads", v) for v in (0, 2.5, True)],  # None: the default (2 threads)
    *[("calibrate", "backend", v) for v in ("cluster", 7)],
    *[("calibrate", "workers", v) for v in (0, 2.5)],
    # trace
    *[("trace", "game_index", v) for v in (-1, 2.5, "0")],
    *[("trace", "unit", v) for v in ("deal", 7)],
    *[("trace", "max_lines", v) for v in (-1, 2.5, "10")],
    # advise: each keyword against the type the game's advise_position declares
    *[("advise", "row", v) for v in (7, 2.5, True, None, [1, 2], {"a": 1})],
    *[("advise", "stock", v) for v in ("20", 2.5, None)],
    *[("advise", k, v) for k in ("hand", "discard") for v in (2.5, True, [1], {"a": 1})],
    *[("advise", "from_discard", v) for v in (7, "yes", None)],
    *[("advise", "seen", v) for v in (7, [1])],
    *[("advise", "opp", v) for v in (7, [1])],
    *[("advise", "totals", v) for v in (7, "x", [1], {"a": 1}, ("a", "b"))],
    *[("advise", "samples", v) for v in (2.5, True, None, "20")],
    *[("advise", k, v) for k in ("strategy", "opponent") for v in (7, [1])],
    *[("advise", "rules", v) for v in (7, "x", {"a": 1})],
    ("advise", "game", 7),
    # check_game, read_records
    *[("check_game", "seats", v) for v in (7, 2.5, True, [2.5], [True], [], "2", [99])],
    ("check_game", "game", 7),
    *[("read_records", "out", v) for v in (7, None, [1])],
    *[("read_records", "columns", v) for v in (7, [1])],
    ("read_records", "long", "yes"),
]


SINGULAR = {"rules": "rule", "strategies": "strategy"}


def _names(argument: str) -> tuple[str, ...]:
    """How a message may name an argument: as the keyword, the command line's option or in
    words (one rule of ``rules``, one strategy of ``strategies``)."""
    return (
        argument,
        argument.replace("_", "-"),
        argument.replace("_", " "),
        SINGULAR.get(argument, argument),
    )


def _call(function: str, argument: str, value):
    if function == "gris":  # a keyword of the Gris games only
        return simulator.compare("gris", ["greedy", "random"], rounds=4, seed=1, **{argument: value})
    return CALLS[function](**{argument: value})


@pytest.mark.parametrize(("function", "argument", "value"), BAD, ids=[f"{f}-{k}-{v!r}" for f, k, v in BAD])
def test_a_bad_argument_is_one_line_naming_it(function, argument, value):
    with pytest.raises(InputError) as caught:
        _call(function, argument, value)
    message = str(caught.value)
    assert "\n" not in message and message.strip()
    words = message.lower()
    assert any(name in words for name in _names(argument)), message


def test_the_issue_examples():
    with pytest.raises(
        InputError, match=r"^strategies takes strategy specs \(str\) or Player objects, not int 1$"
    ):
        simulator.simulate("spokelse", [1, 2], rounds=4, seed=1)
    with pytest.raises(InputError, match=r"^rules takes a mapping"):
        simulator.simulate("spokelse", "passive", rounds=4, seed=1, rules=7)
    with pytest.raises(InputError, match=r"^reactions takes profiles"):
        simulator.compare("gris", ["greedy", "random"], rounds=4, reactions=(("a", "b"), None))
    with pytest.raises(InputError, match=r"^row takes text, a list of whole numbers or None, not int 7$"):
        _advise(row=7)
    with pytest.raises(InputError, match="seed"):
        _advise(seed=-1)


def test_every_public_function_is_in_the_table():
    """A public function added to the package without a row here fails this test."""
    functions = {
        name for name in simulator.__all__ if callable(getattr(simulator, name)) and name[0].islower()
    }
    covered = {f for f, _, _ in BAD} | {"run", "all_games", "get_game"}
    assert functions <= covered, functions - covered


# --- what is meant keeps working ------------------------------------------------------------


def test_numpy_scalars_are_taken_where_their_kind_is(tmp_path):
    i = np.int64
    r = simulator.simulate("spokelse", "passive", rounds=i(6), seed=i(3), threads=i(1), block_size=i(4))
    assert r.summary["n"] == 6 and r.summary["seed"] == 3
    assert simulator.Execution.build(records=np.bool_(True), resume=np.False_).records is True
    assert simulator.Setup.build("gris", "greedy", rounds=i(2), players=i(4)).n_seats == 4
    advice = _advise(stock=i(20), samples=i(20), seed=i(1), totals=(np.float64(1.0), 2))
    assert advice.samples == 20
    trace = simulator.trace("spokelse", "passive", seed=i(1), game_index=i(0), max_lines=i(20))
    assert "passive" in trace
    assert simulator.Execution.build(out=tmp_path, connect_timeout=None).out == tmp_path


def test_rules_given_as_one_name_value_text_are_one_rule():
    a_text = simulator.Setup.build("spokelse", "passive", rounds=2, rules="jack=11")
    a_list = simulator.Setup.build("spokelse", "passive", rounds=2, rules=["jack=11"])
    assert a_text.rules == a_list.rules
    assert a_text.rules != simulator.Setup.build("spokelse", "passive", rounds=2).rules


# --- the helpers themselves ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("check", "value", "expected"),
    [
        (lambda v: a.whole(v, "n", low=1, high=5), np.int32(5), 5),
        (lambda v: a.whole(v, "n", low=1), 1, 1),
        (lambda v: a.real(v, "x", low=0.0, high=0.5, open_ends=True), np.float32(0.25), 0.25),
        (lambda v: a.real(v, "x", low=0.0), 3, 3.0),
        (lambda v: a.flag(v, "f"), np.True_, True),
        (lambda v: a.text(v, "t", choices=("a", "b")), "b", "b"),
        (lambda v: a.texts(v, "t"), "a", ["a"]),
        (lambda v: a.texts(v, "t"), ("a", "b"), ["a", "b"]),
        (lambda v: a.paths(v, "p"), Path("x"), ("x",)),
        (lambda v: a.optional_path(v, "p"), None, None),
    ],
)
def test_a_good_value_comes_back_in_the_form_the_code_uses(check, value, expected):
    got = check(value)
    assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize(
    ("check", "value", "line"),
    [
        (lambda v: a.whole(v, "n", low=1, high=5), 6, "n takes a whole number from 1 to 5, not int 6"),
        (lambda v: a.whole(v, "n", low=1), True, "n takes a whole number of at least 1, not bool True"),
        (lambda v: a.whole(v, "n"), np.float64(2.0), "n takes a whole number, not float64 np.float64(2.0)"),
        (lambda v: a.real(v, "eps", low=0, high=0.5, open_ends=True), 0.5,
         "eps takes a number between 0 and 0.5 (both excluded), not float 0.5"),
        (lambda v: a.real(v, "x"), float("inf"), "x takes a number, not float inf"),
        (lambda v: a.flag(v, "records"), 1, "records takes True or False, not int 1"),
        (lambda v: a.text(v, "belief", choices=("model", "uniform")), "exact",
         "belief takes 'model' or 'uniform', not str 'exact'"),
        (lambda v: a.texts(v, "columns"), ["a", 1], "columns takes text (a str) or a list of them, not list ['a', 1]"),
        (lambda v: a.path(v, "out"), " ", "out takes a folder (a str or Path), not str ' '"),
        (lambda v: a.callback(v, "progress"), "x", "progress takes a function (or None), not str 'x'"),
        (lambda v: a.whole(v, "n"), "x" * 100, "n takes a whole number, not str '" + "x" * 38 + "…"),
    ],
)  # fmt: skip
def test_a_bad_value_is_refused_in_one_line(check, value, line):
    with pytest.raises(InputError) as caught:
        check(value)
    assert str(caught.value) == line


HintedRow = str | Sequence[int] | None


@pytest.mark.parametrize(
    ("hint", "good", "bad"),
    [
        (int, [1, np.int8(-3)], [True, 1.0, "1", None]),
        (float, [1, 1.5, np.float32(2)], [True, "1.5", None, float("nan")]),
        (bool, [True, np.False_], [1, "True", None]),
        (HintedRow, ["♠8 ? ? ?", [1, 2, 3, 4], (np.int64(1),), None], [7, [1.5], ["a"], {"a": 1}]),
        (tuple[float, float], [(1, 2.5), [1.0, 2.0]], [(1,), (1, 2, 3), ("a", "b"), "ab", 7]),
        (tuple[int, ...], [(), (1, 2, 3)], [(1, "a"), 1]),
        (threading.Event | None, [threading.Event(), None], [True, "x"]),
        (typing.Any, [object(), None], []),
    ],
)
def test_conforms_reads_the_type_hints_advise_declares(hint, good, bad):
    assert all(a.conforms(v, hint) for v in good)
    assert not any(a.conforms(v, hint) for v in bad)


def test_describe_says_a_hint_in_words():
    assert a.describe(HintedRow) == "text, a list of whole numbers or None"
    assert a.describe(tuple[float, float] | None) == "a pair of numbers or None"
    assert a.describe(bool) == "True or False"


def test_check_hinted_checks_only_hinted_keywords():
    def f(*, n: int, anything=None) -> None: ...

    a.check_hinted(f, {"n": np.int64(3), "anything": object()})
    with pytest.raises(InputError, match=r"^n takes a whole number, not str '3'$"):
        a.check_hinted(f, {"n": "3"})
