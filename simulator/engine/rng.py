"""Counter-based random streams, the same in jitted code and in plain Python.

Every random choice in kortsim comes from a *stream* keyed by
``(seed, game, kind, round, seat)``; nothing touches global random state.
The full contract (which stream each choice draws from, and in which order)
is written down in ``docs/random-streams.md``.

The generator is SplitMix64: a stream's state starts at its key and each draw
adds the golden-ratio increment and mixes.  The jitted functions (``*_nb``)
keep a stream's state in a one-element ``uint64`` array so that a strategy
can draw from its own seat's stream; :class:`Stream` is the same generator in
plain Python integers, used by the readable references and tests.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from simulator.engine import cache  # noqa: F401  (first: numba caches this module's code with the package digest)
from simulator.engine.param_row import SALT_AT

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB

# Stream kinds (see docs/random-streams.md).
DEAL = 1  # the shuffle of one deal
DECIDE = 2  # one seat's strategy decisions in one deal
REACT = 3  # one seat's reaction time in one round (Gris games)
DEALER = 4  # the match's first dealer
COPY = 5  # the tag that salts a DECIDE key: a later copy of a strategy in a comparison

_U64_GOLDEN = np.uint64(GOLDEN)
_U64_MIX1 = np.uint64(MIX1)
_U64_MIX2 = np.uint64(MIX2)
_TWO_POW_M53 = 1.0 / 9007199254740992.0


# --- plain Python -----------------------------------------------------------


def mix64(z: int) -> int:
    """SplitMix64's finaliser on a Python int (taken modulo 2**64)."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31)


def stream_key(seed: int, game: int, kind: int, round_: int = 0, seat: int = 0) -> int:
    """The starting state of the stream ``(seed, game, kind, round, seat)``."""
    purpose = (kind << 56) | (round_ << 8) | seat
    return mix64(mix64(mix64(seed + GOLDEN) ^ game) ^ purpose)


def salted(key: int, salt: int) -> int:
    """``key`` for a strategy's copy number ``salt`` (0: the key itself, unchanged).

    A strategy given more than once in a comparison plays its second, third... copy with
    salt 1, 2...: the copy draws its decisions from ``mix64(key ^ (COPY << 56 | salt))``,
    a stream of its own, instead of repeating the first copy's draws."""
    if salt == 0:
        return key
    return mix64(key ^ ((COPY << 56) | salt))


class Stream:
    """One random stream in plain Python; draws exactly as the ``*_nb`` functions.

    ``salt`` (a copy's number, :func:`salted`) moves a DECIDE stream to the copy's own;
    0 keeps the stream ``(seed, game, kind, round, seat)`` as it is."""

    def __init__(self, seed: int, game: int, kind: int, round_: int = 0, seat: int = 0, salt: int = 0):
        self.state = salted(stream_key(seed, game, kind, round_, seat), salt)

    def next_u64(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return mix64(self.state)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` for ``1 <= n < 2**32`` (multiply-shift)."""
        return ((self.next_u64() >> 32) * n) >> 32

    def uniform(self) -> float:
        """A uniform float in ``[0, 1)`` with 53 random bits."""
        return (self.next_u64() >> 11) * _TWO_POW_M53

    def lognormal(self, median: float, sigma: float) -> float:
        """``median * exp(sigma * Z)``, Z standard normal by Box-Muller (two draws)."""
        u1 = 1.0 - self.uniform()
        u2 = self.uniform()
        z = math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)
        return median * math.exp(sigma * z)

    def shuffled(self, n: int) -> list[int]:
        """``0..n-1`` shuffled by Fisher-Yates from the end (i = n-1 down to 1)."""
        deck = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        return deck

    def as_array(self) -> np.ndarray:
        """The state as a one-element ``uint64`` array, for jitted strategies."""
        return np.array([self.state], dtype=np.uint64)


# A seat's stream as its strategy holds it: the state in a one-element uint64 array, which
# each draw advances in place (the readable references draw from it as the kernel does).


def next_u64_in(rng: np.ndarray) -> int:
    """docs/random-streams.md ``next_u64()`` on the state held in ``rng[0]``: ``state +=
    GOLDEN; return mix64(state)``."""
    state = (int(rng[0]) + GOLDEN) & MASK64
    rng[0] = state
    return mix64(state)


def uniform_in(rng: np.ndarray) -> float:
    """docs/random-streams.md ``uniform()`` on ``rng[0]``: ``(u64 >> 11) * 2^-53``, in ``[0, 1)``."""
    return (next_u64_in(rng) >> 11) * _TWO_POW_M53


def below_in(rng: np.ndarray, n: int) -> int:
    """docs/random-streams.md ``below(n)`` on ``rng[0]``: ``((u64 >> 32) * n) >> 32``, in ``[0, n)``."""
    return ((next_u64_in(rng) >> 32) * n) >> 32


# --- jitted -------------------------------------------------------------------


@njit(cache=True, inline="always")
def mix64_nb(z):
    z = (z ^ (z >> np.uint64(30))) * _U64_MIX1
    z = (z ^ (z >> np.uint64(27))) * _U64_MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def stream_key_nb(seed, game, kind, round_, seat):
    purpose = (np.uint64(kind) << np.uint64(56)) | (np.uint64(round_) << np.uint64(8)) | np.uint64(seat)
    h = mix64_nb(np.uint64(seed) + _U64_GOLDEN)
    h = mix64_nb(h ^ np.uint64(game))
    return mix64_nb(h ^ purpose)


@njit(cache=True, inline="always")
def stream_base_nb(seed, game):
    """What every stream of game ``game`` starts from: a round's streams derive it once.

    ``stream_key_at_nb(stream_base_nb(seed, game), kind, round_, seat)`` is
    :func:`stream_key_nb` ``(seed, game, kind, round_, seat)``."""
    h = mix64_nb(np.uint64(seed) + _U64_GOLDEN)
    return mix64_nb(h ^ np.uint64(game))


@njit(cache=True, inline="always")
def stream_key_at_nb(base, kind, round_, seat):
    """The starting state of stream ``(kind, round_, seat)`` of the game whose base is ``base``."""
    purpose = (np.uint64(kind) << np.uint64(56)) | (np.uint64(round_) << np.uint64(8)) | np.uint64(seat)
    return mix64_nb(base ^ purpose)


@njit(cache=True, inline="always")
def salted_nb(key, salt):
    """:func:`salted` in jitted code: ``key`` itself for salt 0, else the copy's own key."""
    if salt == 0:
        return key
    return mix64_nb(key ^ ((np.uint64(COPY) << np.uint64(56)) | np.uint64(salt)))


@njit(cache=True, inline="always")
def row_salt_nb(row, width):
    """The copy salt of a parameter row ``width`` wide (``SALT_AT``; 0 when narrower)."""
    if width > SALT_AT:
        return np.uint64(np.int64(row[SALT_AT]))
    return np.uint64(0)


@njit(cache=True, inline="always")
def seat_salt_nb(params, seat, width):
    """The copy salt of row ``seat`` of a parameter matrix ``width`` wide (0 when narrower)."""
    if width > SALT_AT:
        return np.uint64(np.int64(params[seat, SALT_AT]))
    return np.uint64(0)


@njit(cache=True, inline="always")
def next_u64_nb(state):
    """Advance ``state`` (a one-element uint64 array) and return the next draw."""
    s = state[0] + _U64_GOLDEN
    state[0] = s
    return mix64_nb(s)


@njit(cache=True, inline="always")
def below_nb(state, n):
    """A uniform integer in ``[0, n)``; see :meth:`Stream.below`."""
    return np.int64(((next_u64_nb(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always")
def uniform_nb(state):
    return np.float64(next_u64_nb(state) >> np.uint64(11)) * _TWO_POW_M53


@njit(cache=True, inline="always")
def ahead_nb(state, k):
    """The ``k``-th draw ahead (from 1) of a stream whose state is ``state``: what
    :func:`next_u64_nb` will return then, without advancing anything.  A choice that may or
    may not draw computes its draws ahead (they do not depend on what is chosen), picks
    among them without branches and advances the state once by the draws it used
    (:func:`advanced_nb`)."""
    return mix64_nb(state + np.uint64(k) * _U64_GOLDEN)


@njit(cache=True, inline="always")
def advanced_nb(state, draws):
    """The state of a stream after ``draws`` more draws."""
    return state + np.uint64(draws) * _U64_GOLDEN


@njit(cache=True, inline="always")
def below_of_nb(z, n):
    """:func:`below_nb`'s integer in ``[0, n)`` from the draw ``z`` (0 for ``n`` = 1, where
    a choice among one option draws nothing)."""
    return np.int64(((z >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always")
def uniform_of_nb(z):
    """:func:`uniform_nb`'s float in ``[0, 1)`` from the draw ``z``."""
    return np.float64(z >> np.uint64(11)) * _TWO_POW_M53


@njit(cache=True)
def lognormal_nb(state, median, sigma):
    u1 = 1.0 - uniform_nb(state)
    u2 = uniform_nb(state)
    z = math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)
    return median * math.exp(sigma * z)


@njit(cache=True, inline="always")
def lognormal_at_nb(key, median, sigma):
    """:func:`lognormal_nb` on the stream whose state is ``key`` (its first two draws), the
    state held in a local rather than a one-element array, so that the compiler keeps it in a
    register (the Gris kernels' reaction times: a stream that starts and ends in one
    function).  The same operations in the same order: the same double
    (``tests/engine/test_speed_paths.py`` checks it)."""
    u1 = 1.0 - uniform_of_nb(ahead_nb(key, 1))
    u2 = uniform_of_nb(ahead_nb(key, 2))
    z = math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)
    return median * math.exp(sigma * z)


@njit(cache=True, inline="always")
def shuffle_first_nb(state, a, n):
    """Shuffle ``a[:n]`` in place: Fisher-Yates from the end, the draws and swaps of
    :meth:`Stream.shuffled`.

    Parameters
    ----------
    state : np.ndarray
        The stream's one-element uint64 state, advanced by ``n - 1`` draws.
    a : np.ndarray
        The array whose first ``n`` items are shuffled.
    n : int
        How many items, from the start, take part.
    """
    for i in range(n - 1, 0, -1):
        j = below_nb(state, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


@njit(cache=True)
def shuffle_nb(state, deck):
    """Fill ``deck`` with ``0..len-1`` shuffled exactly as :meth:`Stream.shuffled`."""
    n = deck.shape[0]
    for i in range(n):
        deck[i] = i
    shuffle_first_nb(state, deck, n)


@njit(cache=True)
def shuffle_with_nb(state, deck, draws):
    """:func:`shuffle_nb` making its draws first, into ``draws`` (``len(deck) - 1`` or longer).

    The same deck and the same state afterwards as :func:`shuffle_nb`, in about half the
    time: the draws do not depend on the deck, so they are computed several at a time
    (``draws[k]`` is the k-th draw, ``below(n - k)``), and only the swaps are left in order."""
    n = deck.shape[0]
    if n < 2:  # no draws: the state stays as it is
        for i in range(n):
            deck[i] = i
        return
    state[0] = shuffled_from_key_nb(state[0], deck, draws)


@njit(cache=True, inline="always")
def shuffled_from_key_nb(key, deck, draws):
    """Fill ``deck`` (two or more cards) with ``0..n-1`` shuffled as :func:`shuffle_nb` does
    from a stream whose state is ``key``, making the draws first into ``draws`` (as
    :func:`shuffle_with_nb`); returns the stream's state after them."""
    n = deck.shape[0]
    for k in range(n - 1):
        z = mix64_nb(key + np.uint64(k + 1) * _U64_GOLDEN)
        draws[k] = np.int64(((z >> np.uint64(32)) * np.uint64(n - k)) >> np.uint64(32))
    for i in range(n):
        deck[i] = i
    for k in range(n - 1):
        i = n - 1 - k
        j = draws[k]
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    return key + np.uint64(n - 1) * _U64_GOLDEN
