"""Views of arrays without reference counting, for the innermost loops.

Numba counts references to every array it passes to a function with atomic
operations.  At several calls per turn and tens of millions of turns per
second that is most of the time a kernel spends.  A view made here has no
owner (no meminfo), so passing it costs nothing; the caller keeps the base
array alive (the kernels allocate a workspace per chunk and view it).
"""

from __future__ import annotations

from numba import carray, njit
from numba.core import cgutils, types
from numba.extending import intrinsic


@intrinsic
def _address_as_void_pointer(typingctx, src):
    sig = types.voidptr(src)

    def codegen(cgctx, builder, sig, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return sig, codegen


@njit(cache=True, inline="always")
def unmanaged(a):
    """An unowned view of the whole C-contiguous array ``a``."""
    return carray(_address_as_void_pointer(a.ctypes.data), a.shape, dtype=a.dtype)


@njit(cache=True, inline="always")
def unmanaged_row(a, i):
    """An unowned view of row ``i`` of a C-contiguous 2-D array."""
    return carray(_address_as_void_pointer(a[i:].ctypes.data), (a.shape[1],), dtype=a.dtype)


@njit(cache=True, inline="always")
def unmanaged_item(a, i):
    """Element ``i`` of a 1-D array as an unowned one-element array (a stream's state)."""
    return carray(_address_as_void_pointer(a[i:].ctypes.data), (1,), dtype=a.dtype)


@njit(cache=True)
def keep_alive(a):
    """A use of ``a`` that the compiler keeps: call it after the last use of a view of ``a``.

    Numba releases an array after its last use in the code, and a view made here does
    not count as one; this call marks where the views stop being used.  It is not inlined
    by numba, so it stays a use; it does nothing, so it costs nothing once compiled."""
    return None
