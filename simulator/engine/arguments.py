"""The checks of the public functions' arguments, shared by every entry point.

Each check takes a value and the name of the argument it was given as, and returns the value
in the form the code uses (an ``int``, a ``float``, a ``bool``, a ``Path``...), or raises
:class:`~simulator.errors.InputError` with one line that names the argument, what it takes
and what it got: ``records takes True or False, not int 7``.  Numpy scalars are taken where
their Python kind is (a ``numpy.int64`` is a whole number, a ``numpy.bool_`` a flag); a
``bool`` is never a number.

:func:`check_hinted` checks keywords against a function's own type hints, for a function
whose keywords are declared elsewhere (a game's ``advise_position``).
"""

from __future__ import annotations

import os
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from simulator.errors import InputError


def shown(value: Any) -> str:
    """``value`` for a one-line message: its type and a short first line of its repr."""
    text = repr(value).splitlines()[0] if repr(value) else ""
    text = text if len(text) <= 40 else text[:39] + "…"
    return f"{type(value).__name__} {text}"


def refuse(name: str, takes: str, value: Any) -> InputError:
    """The error for ``name`` given ``value`` where it takes ``takes`` (one line)."""
    return InputError(f"{name} takes {takes}, not {shown(value)}")


def as_whole(value: Any) -> int | None:
    """``value`` as an ``int`` when it is a whole number (an int or numpy integer, not a
    bool), else None."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        return None
    return int(value)


def as_real(value: Any) -> float | None:
    """``value`` as a finite ``float`` when it is a real number (not a bool), else None."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | float | np.integer | np.floating):
        return None
    real = float(value)
    return real if np.isfinite(real) else None


def _range(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f" from {low:,} to {high:,}"
    if low is not None:
        return " of at least 1" if low == 1 else f" of at least {low:,}"
    return "" if high is None else f" of at most {high:,}"


def whole(value: Any, name: str, *, low: int | None = None, high: int | None = None) -> int:
    """A whole number from ``low`` to ``high`` (each end included when given)."""
    number = as_whole(value)
    if number is None or (low is not None and number < low) or (high is not None and number > high):
        raise refuse(name, f"a whole number{_range(low, high)}", value)
    return number


def real(
    value: Any,
    name: str,
    *,
    low: float | None = None,
    high: float | None = None,
    open_ends: bool = False,
) -> float:
    """A finite real number from ``low`` to ``high`` (both ends excluded with ``open_ends``)."""
    number = as_real(value)
    below = low is not None and number is not None and (number <= low if open_ends else number < low)
    above = high is not None and number is not None and (number >= high if open_ends else number > high)
    if number is None or below or above:
        if open_ends and low is not None and high is not None:
            takes = f"a number between {low} and {high} (both excluded)"
        else:
            takes = f"a number{_range(low, high)}"
        raise refuse(name, takes, value)
    return number


def flag(value: Any, name: str) -> bool:
    """``True`` or ``False`` (a numpy bool too); a number or text is refused."""
    if not isinstance(value, bool | np.bool_):
        raise refuse(name, "True or False", value)
    return bool(value)


def text(value: Any, name: str, *, choices: Sequence[str] = ()) -> str:
    """A ``str`` (one of ``choices`` when they are given)."""
    if choices and value not in choices:
        raise refuse(name, " or ".join(repr(c) for c in choices), value)
    if not isinstance(value, str):
        raise refuse(name, "text (a str)", value)
    return value


def optional_text(value: Any, name: str) -> str | None:
    """None or a ``str``."""
    return None if value is None else text(value, name)


def texts(value: Any, name: str, *, what: str = "text") -> list[str]:
    """One ``str`` or a sequence (list, tuple) of them, as a list."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, Sequence) and all(isinstance(v, str) for v in value):
        return list(value)
    raise refuse(name, f"{what} (a str) or a list of them", value)


def path(value: Any, name: str, *, what: str = "a folder") -> Path:
    """A folder (or file: ``what``) given as a ``str`` or ``os.PathLike``, not empty."""
    if not isinstance(value, str | os.PathLike) or (isinstance(value, str) and not value.strip()):
        raise refuse(name, f"{what} (a str or Path)", value)
    return Path(value)


def optional_path(value: Any, name: str, *, what: str = "a folder") -> Path | None:
    """None or :func:`path`."""
    return None if value is None else path(value, name, what=what)


def paths(value: Any, name: str) -> tuple[str, ...]:
    """One path or a sequence of paths, as strings."""
    if isinstance(value, str | os.PathLike):
        value = [value]
    if not isinstance(value, Sequence) or not all(isinstance(v, str | os.PathLike) for v in value):
        raise refuse(name, "a path (a str or Path) or a list of them", value)
    return tuple(str(v) for v in value)


def callback(value: Any, name: str) -> Callable[..., Any] | None:
    """None or something callable."""
    if value is not None and not callable(value):
        raise refuse(name, "a function (or None)", value)
    return value


# --- checks read from type hints ---------------------------------------------------------


def conforms(value: Any, hint: Any) -> bool:
    """Whether ``value`` is of the type ``hint`` says: ``int``, ``float``, ``bool``, ``str``,
    ``None``, a class, a union of these, ``Sequence[X]`` and ``tuple[X, Y]`` (items checked);
    an ``int`` takes numpy integers, a ``float`` any real number, and a bool is neither."""
    if hint is Any or hint is object:
        return True
    if hint is None or hint is type(None):
        return value is None
    origin = typing.get_origin(hint)
    if origin is typing.Union or origin is types.UnionType:
        return any(conforms(value, h) for h in typing.get_args(hint))
    if hint is bool:
        return isinstance(value, bool | np.bool_)
    if hint is int:
        return as_whole(value) is not None
    if hint is float:
        return as_real(value) is not None
    if hint is str:
        return isinstance(value, str)
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, Sequence) or isinstance(value, str):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(conforms(v, args[0]) for v in value)
        return len(value) == len(args) and all(conforms(v, h) for v, h in zip(value, args))
    if origin is not None and isinstance(origin, type) and issubclass(origin, Sequence | Mapping):
        if not isinstance(value, origin) or isinstance(value, str):
            return False
        args = typing.get_args(hint)
        return not args or issubclass(origin, Mapping) or all(conforms(v, args[0]) for v in value)
    return isinstance(hint, type) and isinstance(value, hint)


def describe(hint: Any) -> str:
    """A type hint in words: ``str | Sequence[int] | None`` → ``text, a list of whole
    numbers or None``."""
    if hint is None or hint is type(None):
        return "None"
    origin = typing.get_origin(hint)
    if origin is typing.Union or origin is types.UnionType:
        words = [describe(h) for h in typing.get_args(hint)]
        return ", ".join(words[:-1]) + " or " + words[-1]
    simple = {bool: "True or False", int: "a whole number", float: "a number", str: "text"}
    if hint in simple:
        return simple[hint]
    if origin is tuple:
        args = typing.get_args(hint)
        return f"a pair of {_plural(args[0])}" if len(args) == 2 and args[0] == args[1] else "a tuple"
    if origin is not None and isinstance(origin, type) and issubclass(origin, Sequence):
        args = typing.get_args(hint)
        return f"a list of {_plural(args[0])}" if args else "a list"
    return f"a {getattr(hint, '__name__', str(hint))}"


def _plural(hint: Any) -> str:
    return {int: "whole numbers", float: "numbers", str: "texts"}.get(hint, f"{describe(hint)} items")


def check_hinted(function: Callable[..., Any], keywords: Mapping[str, Any]) -> None:
    """Check each of ``keywords`` against ``function``'s type hint for it (those without a
    hint are not checked): the first that does not conform is one line."""
    hints = typing.get_type_hints(function)
    for name, value in keywords.items():
        if name in hints and not conforms(value, hints[name]):
            raise refuse(name, describe(hints[name]), value)


__all__ = [
    "as_real",
    "as_whole",
    "callback",
    "check_hinted",
    "conforms",
    "describe",
    "flag",
    "optional_path",
    "optional_text",
    "path",
    "paths",
    "real",
    "refuse",
    "shown",
    "text",
    "texts",
    "whole",
]
