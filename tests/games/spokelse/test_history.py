"""The round so far in trace notation (history.py): read from the advised player's side,
it is the view the kernel's round gave that player at that decision."""

from __future__ import annotations

import re

import numpy as np
import pytest
from typer.testing import CliRunner

from simulator.cli import app
from simulator.engine.cards import name
from simulator.errors import InputError
from simulator.games.spokelse.belief import HIST_FIELDS
from simulator.games.spokelse.history import parse_history
from simulator.games.spokelse.observation import OBS_SIZE, SEAT, TURN
from simulator.games.spokelse.position import position_obs
from simulator.games.spokelse.round_steps import (
    DEALER,
    before_source_nb,
    place_nb,
    start_round_nb,
    take_nb,
)
from simulator.games.spokelse.rules import card_values_nb
from simulator.games.spokelse.strategies import decide_builtin_nb
from simulator.games.spokelse.variants import TURN_CAP, Rules
from strategies.registry import parse_spec

SEED = 5


def trace_text(seed: int = SEED, spec: str = "expect") -> str:
    r = CliRunner().invoke(app, ["trace", "spokelse", "-s", spec, "--seed", str(seed)])
    assert r.exit_code == 0, r.output
    return r.stdout


def kernel_view(seed: int, spec: str, me: int, turn: int, place: bool) -> dict:
    """What the kernel's round ``(seed, 0)`` shows seat ``me`` before its source choice of
    trace turn ``turn`` (or, ``place``, once it holds the card), with the steps the duels
    and the calibration play (round_steps.py)."""
    player = parse_spec(spec, "spokelse")
    card_value = np.empty(52, np.int64)
    card_values_nb(Rules().values_half(), card_value)
    deck, pile = np.empty(52, np.int64), np.empty(52, np.int64)
    slot, ghost = np.empty((2, 4), np.int64), np.empty(2, np.int64)
    obs, seen, rng = np.empty((2, OBS_SIZE), np.int64), np.empty(2, np.uint64), np.empty(3, np.uint64)
    hist, deal = np.empty((TURN_CAP, HIST_FIELDS), np.int64), np.empty(5, np.int64)
    start_round_nb(
        seed, 0, me, rng, deck, slot, ghost, pile, obs, seen, card_value, np.zeros(2, np.int64), deal
    )
    n_pile, top, turns, p = 1, 11, 0, 1 - DEALER
    while True:
        before_source_nb(obs[p], pile, n_pile, card_value, top, turns)
        a = decide_builtin_nb(player.family.builtin_id, obs[p], player.params, rng[1 + p : 2 + p])
        if turns == turn - 1 and not place:
            break
        c, fd, top, n_pile = take_nb(a, p, obs, deck, top, pile, n_pile, seen, card_value)
        if turns == turn - 1:
            break
        b = decide_builtin_nb(player.family.builtin_id, obs[p], player.params, rng[1 + p : 2 + p])
        n_pile = place_nb(p, me, a, b, c, fd, obs, slot, pile, n_pile, seen, card_value, hist, turns)
        turns += 1
        p = 1 - p
    assert p == me
    view = {"obs": obs[me].copy(), "seen": seen[me], "pile": pile[:n_pile].tolist(), "deal": deal.tolist()}
    view["hist"] = hist[:turns].tolist()
    view["hand"], view["fd"] = (int(c), bool(fd)) if place else (-1, False)
    return view


@pytest.mark.parametrize("turn", [1, 2, 9, 24, 31, 39, 43])
@pytest.mark.parametrize("place", [False, True])
def test_a_trace_gives_the_view_the_kernel_gave_the_player(turn: int, place: bool) -> None:
    text = trace_text()
    h = parse_history(text, turn=turn)
    k = kernel_view(SEED, "expect", h.me, turn, place)
    pos = h.position(hand=k["hand"], from_discard=k["fd"])
    obs = position_obs(pos)
    obs[TURN], obs[SEAT] = len(h.turns), h.me
    assert obs.tolist() == k["obs"].tolist()
    deal, hist, pile, bits = h.arrays()
    pile = pile.tolist()[:-1] if k["fd"] else pile.tolist()
    if k["hand"] >= 0:
        bits |= np.uint64(1) << np.uint64(k["hand"])
    assert (deal.tolist(), hist[: len(h.turns)].tolist(), pile, bits) == (
        k["deal"],
        k["hist"],
        k["pile"],
        k["seen"],
    )


def test_the_hidden_parts_of_a_trace_are_not_read_and_may_be_question_marks() -> None:
    text = trace_text()
    h = parse_history(text, turn=30)
    me, op = h.me, 1 - h.me
    lines = text.splitlines()
    blind = []
    for line in lines:
        if re.match(rf"\s*seat {op} \(.*\): ghost", line):
            line = re.sub(r"(\d):\S+", r"\1:??", line)  # the opponent's row as dealt
        elif re.match(rf"\s*seat {me} \(.*\): ghost", line):
            line = re.sub(r"([23]):\S+", r"\1:??", line)  # own slots 2 and 3, never looked at
        elif re.match(rf"\s*turn +\d+ +seat {op} .*takes \S+ from the stock, swaps", line):
            line = re.sub(r"takes \S+ from", "takes ?? from", line)
        blind.append(line)
    assert parse_history("\n".join(blind), turn=30) == h
    assert parse_history(" ".join(lines), turn=30) == h  # one line, as typed


def _changed(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


CONTRADICTIONS = [
    (lambda t: _changed(t, "discard pile top ♣10, stock 40", "discard pile top ♣9, stock 40"), "on the pile"),
    (
        lambda t: _changed(t, "discard pile top ♣10, stock 40", "discard pile top ♣10, stock 39"),
        "in the stock",
    ),
    (lambda t: _changed(t, "takes ♠A from the stock", "takes ♣10 from the stock"), "seen before"),
    (lambda t: _changed(t, "turn   2  seat 1", "turn   2  seat 0"), "seat 1's"),
    (
        lambda t: _changed(t, "takes ♠7 from the stock, discards it", "takes ♠7 from the stock, discards"),
        "notation",
    ),
    (lambda t: t.replace("Deal:", "Dealt:"), "notation"),
]


@pytest.mark.parametrize(("edit", "message"), CONTRADICTIONS)
def test_a_history_that_contradicts_itself_is_refused(edit, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_history(edit(trace_text()), turn=21)  # seat 0's: it saw turn 3's draw


def test_a_whole_round_needs_the_turn_and_a_turn_must_exist() -> None:
    text = trace_text()
    with pytest.raises(InputError, match="give --turn N"):
        parse_history(text)
    with pytest.raises(InputError, match="--turn 44"):
        parse_history(text, turn=44)
    h = parse_history(text, turn=10)
    with pytest.raises(InputError, match=f"{name(h.pile[-1])} on top"):
        h.position(hand=h.row[0] if h.row[0] != h.pile[-1] else h.row[1], from_discard=True)
