"""What the shipped games, strategies and experiments declare, read from their source text.

Shell completion runs on every Tab: it must answer in a fraction of a second, so it may not
import the games (their kernels load numba) nor the experiments (pandas).  The declarations
it needs are plain literals in those modules (``register(Family(GAME, "threshold", ..., (Param("k",
4, 0, 13, ...),), "doc"))``, a game's ``variants = {"jack": Variant(parse, "doc")}``, an
experiment's ``TITLE = "..."``), so they are read here with :mod:`ast`, without running the
modules: the modules stay the one source of truth.  Whatever cannot be read this way (a value
that is not a literal) raises :class:`Unreadable`, and the caller falls back to importing.
``tests/test_completion_light.py`` checks that what is read here equals what importing gives.
"""

from __future__ import annotations

import ast
import functools
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path
from typing import Any, NamedTuple


class Unreadable(Exception):
    """A declaration that is not a literal (read it by importing the module instead)."""


class DeclaredParam(NamedTuple):
    """A strategy parameter as declared (the leading fields of ``strategies.registry.Param``)."""

    name: str
    default: float
    low: float
    high: float
    step: float = 1.0
    doc: str = ""


class DeclaredFamily(NamedTuple):
    """A shipped strategy family as declared: its name, parameters and doc."""

    name: str
    params: tuple[DeclaredParam, ...]
    doc: str


def module_file(name: str) -> Path:
    """The source file of module ``name``, found without importing it or its packages."""
    top, *rest = name.split(".")
    spec = find_spec(top)
    if spec is None or spec.origin is None:
        raise Unreadable(f"no module {top!r}")
    path = Path(spec.origin)
    if not rest:
        return path
    base = path.parent
    for part in rest[:-1]:
        base = base / part
    for candidate in (base / f"{rest[-1]}.py", base / rest[-1] / "__init__.py"):
        if candidate.is_file():
            return candidate
    raise Unreadable(f"no source file for {name!r}")


@functools.cache
def _tree(name: str) -> ast.Module:
    try:
        return ast.parse(module_file(name).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError) as exc:
        raise Unreadable(f"{name}: {exc}") from None


def _package(name: str) -> str:
    return name.rpartition(".")[0]


class _Scope:
    """The module-level names of one module that are literals, or imported from another."""

    def __init__(self, module: str) -> None:
        self.module = module
        self.body = _tree(module).body

    def lookup(self, name: str) -> Any:
        for stmt in reversed(self.body):
            if isinstance(stmt, ast.Assign):
                if any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
                    return value(stmt.value, self)
            elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                if stmt.target.id == name and stmt.value is not None:
                    return value(stmt.value, self)
            elif isinstance(stmt, ast.ImportFrom) and stmt.module and not stmt.level:
                for alias in stmt.names:
                    if (alias.asname or alias.name) == name:
                        return _Scope(stmt.module).lookup(alias.name)
        raise Unreadable(f"{self.module}: {name} is not a literal")

    def node_of(self, name: str) -> ast.AST:
        """The expression a module-level ``name = ...`` of this module binds."""
        for stmt in reversed(self.body):
            if isinstance(stmt, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in stmt.targets
            ):
                return stmt.value
        raise Unreadable(f"{self.module}: {name} is not bound at module level")


def value(node: ast.AST, scope: _Scope) -> Any:
    """The value of a literal expression: constants, tuples, lists, dicts, names bound to
    literals (here or by ``from module import name``), indexing, ``-x``, ``a + b`` and
    f-strings over such values."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return scope.lookup(node.id)
    if isinstance(node, ast.Tuple | ast.List):
        items = [value(e, scope) for e in node.elts]
        return tuple(items) if isinstance(node, ast.Tuple) else items
    if isinstance(node, ast.Dict) and None not in node.keys:
        return {value(k, scope): value(v, scope) for k, v in zip(node.keys, node.values)}
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        v = value(node.operand, scope)
        return -v if isinstance(node.op, ast.USub) else +v
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return value(node.left, scope) + value(node.right, scope)
    if isinstance(node, ast.Subscript):
        return value(node.value, scope)[value(node.slice, scope)]
    if isinstance(node, ast.JoinedStr):
        parts = []
        for piece in node.values:
            if isinstance(piece, ast.FormattedValue):
                v = value(piece.value, scope)
                v = {115: str, 114: repr, 97: ascii}.get(piece.conversion, lambda x: x)(v)
                spec = value(piece.format_spec, scope) if piece.format_spec is not None else ""
                parts.append(format(v, spec))
            else:
                parts.append(value(piece, scope))
        return "".join(parts)
    raise Unreadable(f"{scope.module}: line {getattr(node, 'lineno', '?')} is not a literal")


def _call_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call):
        f = node.func
        return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
    return None


def _arguments(call: ast.Call, fields: tuple[str, ...]) -> dict[str, ast.AST]:
    """The argument nodes of ``call`` by field name (positional ones in ``fields`` order)."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        raise Unreadable(f"line {call.lineno}: *args or **kwargs")
    out = dict(zip(fields, call.args))
    out.update({k.arg: k.value for k in call.keywords if k.arg is not None})
    return out


_PARAM_FIELDS = ("name", "default", "low", "high", "step", "doc", "effective")
_FAMILY_FIELDS = ("game", "name", "decide", "params", "doc", "builtin_id", "origin", "on_demand")


def _param(node: ast.AST, scope: _Scope) -> DeclaredParam:
    if _call_name(node) != "Param":
        raise Unreadable(f"{scope.module}: a parameter that is not Param(...)")
    args = _arguments(node, _PARAM_FIELDS)  # type: ignore[arg-type]
    got = {k: value(v, scope) for k, v in args.items() if k in DeclaredParam._fields}
    return DeclaredParam(
        str(got["name"]), *(float(got[k]) for k in ("default", "low", "high")),
        float(got.get("step", 1.0)), str(got.get("doc", "")),
    )  # fmt: skip


class _GameClass(NamedTuple):
    module: str
    attrs: dict[str, ast.AST]


@functools.cache
def _game_class(game: str) -> _GameClass:
    """The class body of a game's ``Game`` object (``GAMES`` names its module and object)."""
    from simulator.games import GAMES

    if game not in GAMES:
        raise Unreadable(f"no game {game!r}")
    module, obj = GAMES[game]
    body = _tree(module).body
    cls_name = None
    for stmt in body:  # SPOKELSE = Spokelse()
        named = isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == obj for t in stmt.targets
        )
        if named and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name):
            cls_name = stmt.value.func.id
    for stmt in body:
        if isinstance(stmt, ast.ClassDef) and stmt.name == cls_name:
            attrs: dict[str, ast.AST] = {}
            for item in stmt.body:
                if isinstance(item, ast.Assign):
                    for t in item.targets:
                        if isinstance(t, ast.Name):
                            attrs[t.id] = item.value
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) and item.value:
                    attrs[item.target.id] = item.value
            return _GameClass(module, attrs)
    raise Unreadable(f"{module}: {obj} is not an instance of a class defined there")


def strategy_families(game: str) -> dict[str, DeclaredFamily]:
    """The shipped strategy families of ``game``, in the order they are registered.

    Read from the module the game names as its ``strategies_module``: every module-level
    ``register(Family(...))``."""
    cls = _game_class(game)
    scope = _Scope(cls.module)
    if "strategies_module" not in cls.attrs:
        raise Unreadable(f"{cls.module}: no strategies_module")
    module = str(value(cls.attrs["strategies_module"], scope))
    mscope = _Scope(module)
    out: dict[str, DeclaredFamily] = {}
    for stmt in mscope.body:
        if not (isinstance(stmt, ast.Expr) and _call_name(stmt.value) == "register"):
            continue
        (family,) = stmt.value.args  # type: ignore[attr-defined]
        if _call_name(family) != "Family":
            raise Unreadable(f"{module}: register() of something other than Family(...)")
        args = _arguments(family, _FAMILY_FIELDS)  # type: ignore[arg-type]
        name = str(value(args["name"], mscope))
        params = tuple(_param(p, mscope) for p in value_nodes(args.get("params"), mscope))
        doc = str(value(args["doc"], mscope)) if "doc" in args else ""
        out[name] = DeclaredFamily(name, params, doc)
    return out


def value_nodes(node: ast.AST | None, scope: _Scope) -> list[ast.AST]:
    """The element nodes of a tuple or list literal (none for a missing argument)."""
    if node is None:
        return []
    if isinstance(node, ast.Tuple | ast.List):
        out: list[ast.AST] = []
        for e in node.elts:  # ``(*SHARED, Param(...))``: a shared tuple's items, then the others
            out += value_nodes(e.value, scope) if isinstance(e, ast.Starred) else [e]
        return out
    if isinstance(node, ast.Name):  # a tuple named once and shared by two families
        return value_nodes(scope.node_of(node.id), scope)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return value_nodes(node.left, scope) + value_nodes(node.right, scope)
    raise Unreadable(f"{scope.module}: line {getattr(node, 'lineno', '?')}: parameters not a literal tuple")


def rule_variants(game: str) -> dict[str, str]:
    """The rule variants of ``game`` with their docs: its class's ``variants = {name:
    Variant(parse, doc)}``."""
    cls = _game_class(game)
    scope = _Scope(cls.module)
    node = cls.attrs.get("variants")
    if not isinstance(node, ast.Dict) or None in node.keys:
        raise Unreadable(f"{cls.module}: variants is not a literal dict")
    out = {}
    for k, v in zip(node.keys, node.values):
        if _call_name(v) != "Variant":
            raise Unreadable(f"{cls.module}: a variant that is not Variant(...)")
        args = _arguments(v, ("parse", "doc"))  # type: ignore[arg-type]
        out[str(value(k, scope))] = str(value(args["doc"], scope)) if "doc" in args else ""  # type: ignore[arg-type]
    return out


def constant(module: str, name: str) -> Any:
    """The literal value module ``module`` binds to ``name``; imported when it is not a literal."""
    try:
        return _Scope(module).lookup(name)
    except Unreadable:
        return getattr(import_module(module), name)


def experiment_titles() -> dict[str, str]:
    """Every experiment's name and ``TITLE`` (the ``EXPERIMENTS`` table of ``experiments``)."""
    table = _Scope("experiments").lookup("EXPERIMENTS")
    return {str(name): str(_Scope(module).lookup("TITLE")) for name, module in table.items()}


__all__ = [
    "DeclaredFamily",
    "DeclaredParam",
    "Unreadable",
    "constant",
    "experiment_titles",
    "module_file",
    "rule_variants",
    "strategy_families",
    "value",
]
