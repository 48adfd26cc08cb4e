"""Views of arrays without reference counting, for the innermost loops.

Numba counts references to every array it passes to a function with atomic
operations.  At several calls per turn and tens of millions of turns per
second that is most of the time a kernel spends.  A view made here has no
owner (no meminfo), so passing it costs nothing; the caller keeps the base
array alive (the kernels allocate a workspace per chunk and view it).
"""

from __future__ import annotations

import numpy as np
from numba import carray, njit, types
from numba.extending import intrinsic

from simulator.engine import cache  # noqa: F401  (first: numba caches this module's code with the package digest)
from simulator.engine.numba_internals import voidptr_t


@intrinsic
def _address_as_void_pointer(typingctx, src):
    sig = types.voidptr(src)

    def codegen(cgctx, builder, sig, args):
        return builder.inttoptr(args[0], voidptr_t)

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
def keep_alive(*arrays):
    """A use of each of ``arrays`` that the compiler keeps: call it after the last use of a
    view of any of them.

    Numba releases an array after its last use in the code, and a view made here does
    not count as one; this call marks where the views stop being used.  It is not inlined
    by numba, so it stays a use; it does nothing, so it costs nothing once compiled."""
    return None


@njit(cache=True, inline="always")
def address(a):
    """The address of the first element of the C-contiguous array ``a``, as an int64."""
    return np.int64(a.ctypes.data)


@njit(cache=True, inline="always")
def int64_at(addr, shape):
    """An unowned C-contiguous int64 array of ``shape`` at ``addr`` (see :func:`address`).

    A function that receives addresses rather than arrays makes its views here: they
    have no owner as far as the compiler can see, so it emits no reference counting
    for them at all (an array argument costs a call at entry and one at exit, even a
    view made by :func:`unmanaged`); and a shape of constants makes the strides
    constants too."""
    return carray(_address_as_void_pointer(addr), shape, dtype=np.int64)


@njit(cache=True, inline="always")
def uint64_at(addr, shape):
    """As :func:`int64_at`, for uint64 (random stream states, bit sets)."""
    return carray(_address_as_void_pointer(addr), shape, dtype=np.uint64)


@njit(cache=True, inline="always")
def float64_at(addr, shape):
    """As :func:`int64_at`, for float64 (strategy parameters)."""
    return carray(_address_as_void_pointer(addr), shape, dtype=np.float64)
