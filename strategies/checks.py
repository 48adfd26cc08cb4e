"""Compile a user's strategy on its own, before any kernel, and say plainly why it fails.

A strategy from outside the package is compiled with numba when a run first
uses it.  Compiled inside a game kernel, a mistake in it surfaces as a numba
``TypingError`` a hundred lines long that names the kernel's functions.  So
each user strategy is first compiled alone, with the argument types the
kernels pass (``int64[::1]`` observation, ``float64[::1]`` parameters,
``uint64[::1]`` random stream), and its return type is checked: an integer, or
an integer enum member such as ``Source.STOCK``.  A failure raises
:class:`StrategyCompileError`, whose message is one line naming the strategy,
its file and line and what numba objected to; the full compiler message is
kept in its ``details``.  The check runs once per compiled function and
leaves the compiled code for the kernel to reuse.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from numba import types

from simulator.engine import numba_internals as ni
from simulator.errors import SpecError
from strategies.registry import Family

#: The argument types every game kernel calls a strategy with.
SIGNATURE = (types.int64[::1], types.float64[::1], types.uint64[::1])

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_FILE_LINE = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+)')
_MAX_REASON = 300
# Compiled dispatchers already checked, by id (the dispatcher is kept so its id is not reused).
_CHECKED: dict[int, tuple[Any, StrategyCompileError | None]] = {}


class StrategyCompileError(SpecError):
    """A user strategy that numba cannot compile, or that does not return an integer.

    ``str(error)`` is one line; ``details`` holds numba's full message.

    Parameters
    ----------
    message : str
        The one-line explanation.
    details : str, optional
        Numba's full message (empty when the problem is the return type).
    strategy : str, optional
        The strategy's name.
    file : str, optional
        The file the strategy is defined in.
    line : int, optional
        The line numba objected to (or the line of the ``def``).
    """

    def __init__(self, message: str, details: str = "", strategy: str = "", file: str = "", line: int = 0):
        super().__init__(message)
        self.details = details
        self.strategy = strategy
        self.file = file
        self.line = line

    def __reduce__(self):
        return (type(self), (str(self), self.details, self.strategy, self.file, self.line))


def essential(message: str) -> str:
    """The sentence of a numba error message that says what it objected to.

    Parameters
    ----------
    message : str
        A numba ``TypingError`` (or other compiler) message.

    Returns
    -------
    str
        One line: the first statement after numba's "Failed in ... pipeline"
        heading, with the signature it could not match and the specific error
        an implementation raised when numba reports those.
    """
    lines = [_ANSI.sub("", raw).strip() for raw in message.splitlines()]
    lines = [s for s in lines if s and not s.startswith("Failed in ")]
    if not lines:
        return message.strip().replace("\n", " ")[:_MAX_REASON]
    reason = lines[0]
    if reason.endswith(":") and len(lines) > 1:  # "... found for signature:" then ">>> f(...)"
        reason = f"{reason} {lines[1].removeprefix('>>>').strip()}"
    for i, s in enumerate(lines[:-1]):
        if s.startswith("Rejected as the implementation raised a specific error"):
            specific = lines[i + 1]
            reason = f"{reason} ({specific})"
            break
    if len(reason) > _MAX_REASON:
        reason = reason[: _MAX_REASON - 3].rstrip() + "..."
    return reason


def _where(exc: BaseException, message: str, code_file: str, first_line: int) -> tuple[str, int]:
    """The file and line numba blamed, preferring a location in the strategy's own file."""
    own = _resolved(code_file)
    loc = getattr(exc, "loc", None)
    if loc is not None and getattr(loc, "line", None) and _resolved(loc.filename) == own:
        return code_file, int(loc.line)
    for m in _FILE_LINE.finditer(_ANSI.sub("", message)):
        if _resolved(m["file"]) == own or Path(m["file"]).name == Path(code_file).name:
            return code_file, int(m["line"])
    return code_file, first_line


def _resolved(path: str) -> str:
    try:
        return str(Path(path).resolve())
    except (OSError, ValueError):
        return path


def _shown(path: str) -> str:
    """``path`` relative to the working directory when it lies inside it, as people type it."""
    try:
        rel = Path(path).resolve().relative_to(Path.cwd().resolve())
    except (OSError, ValueError):
        return path
    return str(rel)


def _code(family: Family) -> tuple[str, int]:
    fn = getattr(family.decide, "py_func", family.decide)
    code = getattr(fn, "__code__", None)
    if code is None:
        return family.origin, 0
    return _shown(code.co_filename), code.co_firstlineno


def _integer(ty: Any) -> bool:
    if isinstance(ty, types.IntEnumMember):
        return isinstance(ty.dtype, types.Integer)
    return isinstance(ty, types.Integer) and not isinstance(ty, types.Boolean)


def check_compiles(family: Family) -> None:
    """Compile ``family``'s decision function alone and check that it returns an integer.

    Shipped strategies (compiled into the cached kernels) are not checked.

    Parameters
    ----------
    family : Family
        A registered strategy.

    Raises
    ------
    StrategyCompileError
        When numba cannot compile it, or it returns something other than an
        integer (or an integer enum member) on some path.
    """
    if not family.user:
        return
    decide = family.decide
    known = _CHECKED.get(id(decide))
    if known is not None and known[0] is decide:
        if known[1] is not None:
            raise known[1]
        return
    problem = _check(family)
    _CHECKED[id(decide)] = (decide, problem)
    if problem is not None:
        raise problem


def _check(family: Family) -> StrategyCompileError | None:
    file, first = _code(family)
    name = family.name
    if not getattr(family.decide, "_can_compile", True):
        # Compiled ahead with explicit signatures: numba matches the call to one of them.
        rets = [s.return_type for s in family.decide.nopython_signatures]
        bad = [r for r in rets if not _integer(r)]
        if not bad:
            return None
        return StrategyCompileError(
            f"strategy {name!r} ({file}:{first}) returns {plainly(bad[0])}, not a whole number: "
            "return an int action (or an action enum member)",
            f"its compiled signatures return {', '.join(str(r) for r in rets)}",
            name,
            file,
            first,
        )
    returns: list[tuple[int, Any]] = []
    try:
        with _returns_typed(family.decide.py_func, returns):
            family.decide.compile(SIGNATURE)
    except Exception as exc:  # numba's errors (TypingError, UnsupportedError, ...) and a user's own
        details = _ANSI.sub("", str(exc))
        bad = [(n, t) for n, t in returns if t is not None and not _integer(t)]
        if bad:  # its returns do not agree ("Can't unify return type", "Cannot cast ..."): say which
            line, ty = bad[0]
            return StrategyCompileError(
                f"strategy {name!r} ({file}:{line}): line {line} returns {_what(ty)}; "
                f"return {_actions(family.game)}",
                details,
                name,
                file,
                line,
            )
        where_file, line = _where(exc, details, file, first)
        reason = essential(details) if details.strip() else type(exc).__name__
        return StrategyCompileError(
            f"strategy {name!r} ({where_file}:{line}) does not compile: {reason}",
            details,
            name,
            where_file,
            line,
        )
    overload = family.decide.overloads.get(SIGNATURE)
    ret = overload.signature.return_type if overload is not None else None
    if ret is None or _integer(ret):
        return None
    returns = _returned(overload)
    bad = [(line, ty) for line, ty in returns if ty is not None and not _integer(ty)]
    line, ty = bad[0] if bad else (first, ret)
    ty = ty if ty is not None else ret
    details = (
        f"numba types the value returned at {file}:{line} as {ty}; "
        f"the function's return type is {ret}.\n" + "".join(f"  line {n}: returns {t}\n" for n, t in returns)
    )
    if isinstance(ret, types.Optional | types.NoneType):
        what = "nothing (None) on some path; every path must return an action"
        line = next((n for n, t in returns if isinstance(t, types.NoneType | types.Omitted)), line)
    else:
        what = f"{plainly(ty)}, not a whole number: return an int action (or an action enum member)"
    return StrategyCompileError(
        f"strategy {name!r} ({file}:{line}) returns {what}", details, name, file, line
    )


_returns_typed = ni.returns_while_typing


def _what(ty: Any) -> str:
    """A returned type in a player's words: ``a str ('stock')``, ``a float``."""
    if isinstance(ty, types.Literal) and isinstance(ty.literal_value, str):
        return f"a str ({ty.literal_value!r})"
    if isinstance(ty, types.UnicodeType | types.CharSeq | types.UnicodeCharSeq):
        return "a str"
    if isinstance(ty, types.Boolean):
        return "a bool"
    if isinstance(ty, types.Float):
        return "a float"
    if isinstance(ty, types.NoneType | types.Omitted):
        return "None"
    return plainly(ty)


def _actions(game: str) -> str:
    """What ``game``'s strategies answer: ``an int, Source or Place`` (its action enums)."""
    import enum
    import importlib
    from importlib.util import find_spec

    from simulator.games import get_game

    names: list[str] = []
    module_name = get_game(game).strategies_module.rpartition(".")[0] + ".observation"
    if find_spec(module_name) is not None:
        module = importlib.import_module(module_name)
        names = [
            k
            for k, v in vars(module).items()
            if isinstance(v, type) and issubclass(v, enum.IntEnum) and v.__module__ == module_name
        ]
    if not names:
        return "an int"
    return "an int, " + (f"{', '.join(names[:-1])} or {names[-1]}" if len(names) > 1 else names[0])


_returned = ni.returns


def plainly(ty: Any) -> str:
    """A numba type in words people use: ``keys[DictType[...]]`` is "a dictionary view"."""
    views = ni.dict_view_types()
    kinds: list[tuple[Any, str]] = [
        (views, "a dictionary view (keys(), values() or items())"),
        (types.Boolean, "True or False (a bool)"),
        (types.Float, "a decimal number (a float)"),
        (types.Complex, "a complex number"),
        (types.Array, "an array"),
        (types.BaseTuple, "a tuple"),
        (types.UnicodeType | types.CharSeq | types.UnicodeCharSeq, "a string"),
        (types.DictType, "a dictionary"),
        (types.ListType | types.List, "a list"),
        (types.Set, "a set"),
        (types.NoneType, "None"),
    ]
    for kind, words in kinds:
        if isinstance(ty, kind):
            return words
    return "a value that is not an integer"
