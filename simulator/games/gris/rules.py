"""Gris's rules as small jitted functions (RULES.md §1, §4), and the kernel's layouts.

Nothing here calls a strategy, so all of it is compiled once and cached; the
round and match loops that do call strategies are in ``kernel.py``.  Every
function works on plain arrays, so a test can lay out a hand-made position
(``deal_nb`` takes any deck) and play it move by move.

The state of a round:

* ``hands[seat]`` is a bit set of the cards a seat holds (bit ``c`` for card ``c``).
* ``obs[seat]`` is each seat's observation row (layout: ``observation.py``), kept
  for the whole round.  ``SUIT_COUNT``, ``RECEIVED_SUIT``, ``PASSED_SUIT``,
  ``MY_PASSES``, ``INCOMING`` and ``INCOMING_DRAWN`` are kept up to date move by
  move; ``HAND`` and ``HAND_SIZE`` are written from the bit set by
  ``show_hand_nb`` just before the seat decides; ``PASSES`` likewise.  The move
  functions take the seat's row (a 1-D array) as well as the seat.
* ``deck[stock0 : stock0 + n_stock]`` is the stock as a ring: ``head`` indexes
  its top.  The stock's size never changes (an exchange puts one card in and
  takes one out), so putting a card at the bottom and drawing the top is one
  swap at ``head``.
* ``owner[card]`` (-1 for none) and ``straight[card]`` (0/1) describe the
  card's current trip (the circulation rule); both have a spare last slot,
  ``NO_CARD_SLOT``, written to when there is no card (int8 in the workspace).
* ``claims[seat]`` and ``human`` (each seat's forget and slip) serve players who
  forget and slip; they are kept by :mod:`simulator.games.gris.human`.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from simulator.engine.cards import N_CARDS, N_RANKS, N_SUITS
from simulator.engine.reaction import last_to_touch_nb, touch_times_nb
from simulator.engine.rng import DEALER, below_nb, stream_key_nb
from simulator.games.gris.layout import ERR, MATCH_AGG, ROUND_AGG
from simulator.games.gris.observation import (
    HAND,
    HAND_SIZE,
    INCOMING,
    INCOMING_DRAWN,
    MAX_HAND,
    MEMORY,
    MY_PASSES,
    N_MEMORY,
    N_PLAYERS,
    OBS_SIZE,
    PASSED_SUIT,
    PASSES,
    RECEIVED_SUIT,
    SEAT,
    SUIT_COUNT,
)
from simulator.games.gris.variants import ALWAYS, MAX_SEATS, OFF

CARDS_PER_PLAYER = 5  # RULES.md §1: five cards to each player, a sixth to the seat left of the dealer
GOAL = 5  # RULES.md §1: five cards of one suit
N_LETTERS = 4  # RULES.md §1: G-R-I-S
NO_CARD_SLOT = N_CARDS  # owner / straight slot that stands for "no card"

# Events (the move-by-move log shared with the reference): (kind, seat, card, other).
PASS_EVENT = 0  # (0, seat, card, to_seat)
EXCHANGE_EVENT = 1  # (1, seat, card, drawn)
LOG_FIELDS = 4

# Card locations in a snapshot (conservation checks): a seat's hand is its seat number.
STOCK_AT = MAX_SEATS  # in the stock
TRANSIT_AT = MAX_SEATS + 1  # passed, not yet received
NOWHERE = -1
TWICE = -2  # in more than one place

# The kernel's rows (error row, round and match aggregates), declared in layout.py; the
# aggregates keep a slot per seat for up to MAX_SEATS seats.
ERR_NOT_HELD = 0  # "what": the strategy passed a card it does not hold
ERR_SIZE, R_SIZE, M_SIZE = ERR.size(), ROUND_AGG.size(), MATCH_AGG.size()

# Round aggregates (RULES.md §6: stalled rounds enter no other figure).  R_SIGNAL, R_LETTER
# and R_DEALT_SEAT are + seat; R_PASS_HIST + passes, the last of PASS_BINS bins that many or more.
R_FINISHED, R_STALLED, R_DEALT, R_PASSES, R_PASSES2 = ROUND_AGG.offsets(
    "finished stalled dealt passes passes2"
)
R_SIGNAL, R_LETTER, R_DEALT_SEAT, R_PASS_HIST = ROUND_AGG.offsets("signal letter dealt_seat pass_hist")
PASS_BINS = ROUND_AGG.piece("pass_hist").bins

# Match aggregates.  M_LOSSES, M_LETTERS, M_LETTERS2 and M_FIRST_DEALT are + seat;
# M_ROUNDS_HIST + counted rounds (ROUNDS_BINS bins); M_LETTERS_HIST + seat * (N_LETTERS + 1)
# + letters at the end.
M_FINISHED, M_ABANDONED, M_STALLED = MATCH_AGG.offsets("finished abandoned stalled")
M_ROUNDS, M_ROUNDS2, M_PASSES, M_PASSES2 = MATCH_AGG.offsets("rounds rounds2 passes passes2")
M_LOSSES, M_LETTERS, M_LETTERS2, M_FIRST_DEALT = MATCH_AGG.offsets("losses letters letters2 first_dealt")
M_ROUNDS_HIST, M_LETTERS_HIST = MATCH_AGG.offsets("rounds_hist letters_hist")
ROUNDS_BINS = MATCH_AGG.piece("rounds_hist").bins

# --- hands ----------------------------------------------------------------------


@njit(cache=True, inline="always")
def suit_nb(card):
    """The suit of a card code (0..51); unsigned, so the division is a multiply and a shift."""
    return np.int64(np.uint64(card) // np.uint64(N_RANKS))


@njit(cache=True, inline="always")
def bit_nb(card):
    return np.uint64(1) << np.uint64(card)


@njit(cache=True, inline="always")
def add_card_nb(row, hands, seat, card):
    """Put ``card`` into ``seat``'s hand (``row`` is the seat's observation row)."""
    hands[seat] |= bit_nb(card)
    row[SUIT_COUNT + suit_nb(card)] += 1


@njit(cache=True, inline="always")
def take_card_nb(row, hands, seat, card):
    """Take ``card``, which ``seat`` holds, out of its hand (``row``: its observation row)."""
    hands[seat] ^= bit_nb(card)
    row[SUIT_COUNT + suit_nb(card)] -= 1


@njit(cache=True, inline="always")
def show_hand_nb(row, bits):
    """Write the hand ``bits`` into an observation row: HAND in ascending code, -1 padded,
    and HAND_SIZE (the rest of the row is kept up to date move by move)."""
    m = bits
    k = 0
    for i in range(MAX_HAND):
        if m != 0:
            row[HAND + i] = trailing_zeros(m)
            m &= m - np.uint64(1)
            k += 1
        else:
            row[HAND + i] = -1
    row[HAND_SIZE] = k


@njit(cache=True, inline="always")
def one_suit_nb(row):
    """RULES.md §1 goal: a five-card hand, all one suit (ranks do not matter)."""
    c0, c1, c2, c3 = row[SUIT_COUNT], row[SUIT_COUNT + 1], row[SUIT_COUNT + 2], row[SUIT_COUNT + 3]
    return (c0 + c1 + c2 + c3 == GOAL) & ((c0 == GOAL) | (c1 == GOAL) | (c2 == GOAL) | (c3 == GOAL))


# --- the deal -------------------------------------------------------------------


@njit(cache=True)
def six_seat_nb(dealer, n):
    """RULES.md §1: the player left of the dealer (seat (dealer + 1) % n) gets a sixth card."""
    return (dealer + 1) % n


@njit(cache=True)
def deal_nb(deck, n, dealer, obs, hands, owner, straight):
    """RULES.md §1 deal from ``deck`` (any order of the 52 cards), as docs/random-streams.md
    says: ``deck[k]`` to seat ``(dealer + 1 + k) % n`` for ``k < 5n``, then ``deck[5n]`` to
    the six-card seat; ``deck[5n + 1 :]`` is the stock, its top first.  Returns the six-card
    seat.  Every observation row starts afresh (MEMORY -1); no card has an owner."""
    six = six_seat_nb(dealer, n)
    for s in range(n):
        hands[s] = 0
        obs[s, SEAT] = s
        obs[s, N_PLAYERS] = n
        obs[s, PASSES] = 0
        obs[s, MY_PASSES] = 0
        obs[s, INCOMING] = -1  # the six-card seat's first pass has nothing incoming
        obs[s, INCOMING_DRAWN] = 0
        for k in range(N_SUITS):
            obs[s, SUIT_COUNT + k] = 0
            obs[s, RECEIVED_SUIT + k] = 0
            obs[s, PASSED_SUIT + k] = 0
        for j in range(N_MEMORY):
            obs[s, MEMORY + j] = -1  # the strategy's own from here on
    s = six
    for k in range(CARDS_PER_PLAYER * n):
        c = deck[k]
        hands[s] |= bit_nb(c)
        obs[s, SUIT_COUNT + suit_nb(c)] += 1
        s = s + 1 if s + 1 < n else 0
    c = deck[CARDS_PER_PLAYER * n]  # the sixth card
    hands[six] |= bit_nb(c)
    obs[six, SUIT_COUNT + suit_nb(c)] += 1
    for c in range(N_CARDS + 1):
        owner[c] = -1  # RULES.md §1: a card has no owner until it is passed
        straight[c] = 0
    return six


@njit(cache=True)
def stock_start_nb(n):
    """Where the stock starts in the deck: after the 5n + 1 cards dealt (52 - 5n - 1 remain)."""
    return CARDS_PER_PLAYER * n + 1


@njit(cache=True)
def dealt_signallers_nb(obs, n, six, signallers):
    """RULES.md §1: every seat dealt five of one suit in a five-card hand signals before the
    first pass (the six-card seat never does).  Marks them in ``signallers``; returns how many."""
    k = 0
    for s in range(n):
        signallers[s] = 0
        if s != six and one_suit_nb(obs[s]):
            signallers[s] = 1
            k += 1
    return k


# --- passing and the circulation rule ------------------------------------------------


@njit(cache=True, inline="always")
def pass_card_nb(row, hands, owner, straight, seat, card):
    """RULES.md §1: ``seat`` (holding six; ``row`` is its observation row) passes ``card``
    face down to the left.

    Returns False, changing nothing, when ``card`` is not in the hand.  Keeps the
    circulation rule's books: the card ``seat`` received this turn and is keeping
    stops being on a straight trip; a card passed after being dealt or drawn, or
    passed on by its owner, starts a new straight trip with ``seat`` as its owner.
    """
    if card < 0 or card >= N_CARDS or hands[seat] & bit_nb(card) == 0:
        return False
    # Every read before the first write: a write's address waits on the card, and a read
    # after it would wait too.  (Written without branches: which way these go is as random
    # as the cards.)
    kept = row[INCOMING]
    k = kept if kept >= 0 else NO_CARD_SLOT
    # RULES.md §1: somebody kept it for a turn (passed a different card): the trip is not straight.
    keeps = (kept != card) & (row[INCOMING_DRAWN] == 0) & (owner[k] != seat)
    # RULES.md §1: the owner is who passed it when its trip started: the first pass after it
    # was dealt or drawn, and again each time its owner passes it on.
    o = owner[card]
    was_straight = straight[card]  # k is never the card when keeps holds
    take_card_nb(row, hands, seat, card)
    straight[k] &= ~np.int64(keeps)
    starts = np.int64((o < 0) | (o == seat))
    # Arithmetic, not `seat if starts else o`: that is compiled to a store on one side of a
    # branch, which goes as the cards do.
    owner[card] = o + (seat - o) * starts
    straight[card] = was_straight | starts
    row[MY_PASSES] += 1
    row[PASSED_SUIT + suit_nb(card)] += 1
    row[INCOMING] = -1
    row[INCOMING_DRAWN] = 0
    return True


@njit(cache=True, inline="always")
def exchanged_nb(circulation, owner, straight, card, seat):
    """RULES.md §1 circulation rule: is ``card``, arriving at ``seat``, exchanged for the top
    of the stock?  Only back at its owner: after a straight trip (``straight``), always
    (variant ``always``) or never (variant ``off``)."""
    if circulation == OFF or owner[card] != seat:
        return False
    return circulation == ALWAYS or straight[card] == 1


@njit(cache=True, inline="always")
def stock_swap_nb(deck, stock0, n_stock, head, card):
    """RULES.md §1: ``card`` goes to the bottom of the stock and the top card is drawn.
    Returns ``(drawn, new head)``; the stock (a queue) keeps its size."""
    drawn = deck[stock0 + head]
    deck[stock0 + head] = card
    head += 1
    if head == n_stock:
        head = 0
    return drawn, head


@njit(cache=True, inline="always")
def receive_nb(row, hands, owner, straight, circulation, deck, stock0, n_stock, head, seat, card, claimed):
    """The passed ``card`` reaches ``seat`` (``row``: its observation row) from the right.
    Back at its owner the circulation rule may exchange it for the top of the stock
    (RULES.md §1; not a pass), if the owner claims it (``claimed``: it remembers passing
    it, always true of a player who does not forget; ``human.claimed_nb``).  Returns
    ``(drawn, head)``: the drawn card, or -1 if there was no exchange."""
    exchanged = claimed and exchanged_nb(circulation, owner, straight, card, seat)
    row[RECEIVED_SUIT + suit_nb(card)] += 1  # counted when received, even if exchanged
    if exchanged:
        drawn, head = stock_swap_nb(deck, stock0, n_stock, head, card)
        owner[drawn] = -1  # RULES.md §1: the drawn card has no owner until it is passed
        straight[drawn] = 0
        add_card_nb(row, hands, seat, drawn)
        row[INCOMING] = drawn
        row[INCOMING_DRAWN] = 1
        return drawn, head
    add_card_nb(row, hands, seat, card)  # RULES.md §1: otherwise an ordinary card
    row[INCOMING] = card
    row[INCOMING_DRAWN] = 0
    return -1, head


# --- thumbs, letters, dealers -------------------------------------------------------


@njit(cache=True)
def letter_nb(seed, game, deal, signallers, medians, sigmas, seats, times, rng):
    """RULES.md §4: signallers touch at their own reaction time, the others react to the
    first touch; the last to touch gets the next letter of G-R-I-S.  ``seats`` is
    ``0..n-1`` (its length is the number of players); returns the loser."""
    touch_times_nb(seed, game, deal, signallers, medians, sigmas, seats, times, rng)
    return last_to_touch_nb(times, seats.shape[0])


@njit(cache=True)
def first_dealer_nb(seed, game, n, rng):
    """RULES.md §1: round 1's dealer is drawn at random (DEALER stream, ``below(n)``)."""
    rng[0] = stream_key_nb(seed, game, DEALER, 0, 0)
    return below_nb(rng[0:1], n)


# --- workspace and checks -------------------------------------------------------------


@njit(cache=True)
def workspace_nb():
    deck = np.empty(N_CARDS, np.int64)
    obs = np.empty((MAX_SEATS, OBS_SIZE), np.int64)
    # One byte a card: the deal sets both afresh, and 53 bytes are one or two stores, 53 words fifty.
    owner = np.empty(N_CARDS + 1, np.int8)
    straight = np.empty(N_CARDS + 1, np.int8)
    rng = np.zeros(MAX_SEATS + 2, np.uint64)  # 0: deal, 1 + seat: decisions, n + 1: reaction scratch
    times = np.empty(MAX_SEATS, np.float64)
    signallers = np.zeros(MAX_SEATS, np.int64)
    seats = np.arange(MAX_SEATS)
    hands = np.zeros(MAX_SEATS, np.uint64)  # bit c of hands[seat]: the seat holds card c
    claims = np.zeros(MAX_SEATS, np.uint64)  # the cards a seat that forgets remembers passing (human.py)
    human = np.zeros(2 * MAX_SEATS, np.float64)  # each seat's forget, then each seat's slip (human.py)
    draws = np.empty(N_CARDS, np.int64)  # the shuffle's draws, made before its swaps (deal.py)
    cosines = np.empty(MAX_SEATS, np.float64)  # scratch of the reaction times (touch.py)
    return (deck, obs, owner, straight, rng, times, signallers, seats, hands, claims, human, draws, cosines)


@njit(cache=True)
def locate_cards_nb(hands, n, deck, stock0, n_stock, transit, where):
    """Where every card is, from the round's own state: ``where[c]`` is a seat (its hand),
    STOCK_AT, TRANSIT_AT, NOWHERE, or TWICE if it is in more than one place."""
    for c in range(N_CARDS):
        where[c] = NOWHERE
    for s in range(n):
        for c in range(N_CARDS):
            if hands[s] & bit_nb(c):
                where[c] = s if where[c] == NOWHERE else TWICE
    for i in range(n_stock):
        c = deck[stock0 + i]
        where[c] = STOCK_AT if where[c] == NOWHERE else TWICE
    if transit >= 0:
        where[transit] = TRANSIT_AT if where[transit] == NOWHERE else TWICE
