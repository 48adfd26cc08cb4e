"""Action enums that a strategy can return from jitted code.

A strategy answers with an integer action.  Games name their actions with
:class:`ActionEnum` classes (Spøkelse's ``Source`` and ``Place``), and a
strategy may return either a member (``Source.STOCK``) or the plain integer
(``0``).

Numba types a plain ``IntEnum`` member as a type of its own class, so a
function that returns ``Source.STOCK`` on one path and ``Place.DISCARD`` (or
an integer) on another has return types it cannot unify, and compiling fails.
The members of an :class:`ActionEnum` class are typed as
:class:`ActionMember`, which unifies with every other integer enum member and
with plain integers to their common integer type, so such a function returns
``int64``.  Everything else (comparisons, ``.value``, ``int(...)``, use as an
index) works as for any ``IntEnum`` member in numba.
"""

from __future__ import annotations

import enum

from numba import types
from numba.extending import models, register_model, typeof_impl


class _ActionEnumType(enum.EnumType):
    """The metaclass of :class:`ActionEnum`: it lets numba give its members their own type."""


class ActionEnum(enum.IntEnum, metaclass=_ActionEnumType):
    """An ``IntEnum`` whose members a jitted strategy can mix with each other and with ints."""


class ActionMember(types.IntEnumMember):
    """Numba type of an :class:`ActionEnum` member: an integer enum that unifies as an integer."""

    basename = "Action"

    def unify(self, typingctx, other):
        if isinstance(other, types.IntEnumMember):
            return typingctx.unify_pairs(self.dtype, other.dtype)
        if isinstance(other, types.Integer):
            return typingctx.unify_pairs(self.dtype, other)
        return None


class ActionEnumClass(types.IntEnumClass):
    """Numba type of an :class:`ActionEnum` class; its members are :class:`ActionMember`."""

    basename = "Action class"

    @property
    def member_type(self) -> ActionMember:
        return ActionMember(self.instance_class, self.dtype)


ActionMember.class_type_class = ActionEnumClass

register_model(ActionMember)(models.EnumModel)
register_model(ActionEnumClass)(models.OpaqueModel)


@typeof_impl.register(_ActionEnumType)
def _typeof_action_class(val: type, c) -> ActionEnumClass:
    members = list(val.__members__.values())
    if not members:
        raise ValueError(f"cannot type the action enum {val.__name__} with no members")
    dtypes = {typeof_impl(m.value, c) for m in members}
    if len(dtypes) > 1:
        raise ValueError(f"the action enum {val.__name__} mixes value types {sorted(map(str, dtypes))}")
    return ActionEnumClass(val, dtypes.pop())
