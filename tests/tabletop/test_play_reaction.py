"""Your measured reaction at the table decides who is last as RULES.md §4 says, and the
terminal times a key press (refusing one pressed too early)."""

from __future__ import annotations

import io
import os
import sys
import threading
import time

import pytest
from rich.console import Console

from simulator.tabletop import Left, Scripted, Terminal, play


def always(answer: str):
    return lambda prompt: answer


@pytest.mark.parametrize("game", ["gris", "gris-nese"])
def test_a_very_slow_follower_is_always_last_and_a_lone_signaller_never(game):
    outcome = play(
        game, ["greedy"], players=3, seed=5, seat=Scripted(always("1"), reaction=[59.0]), signal_wait=(0, 0)
    )
    played = [r for r in outcome.match.rounds if r.loser >= 0 and 0 in getattr(r, "seats", (0,))]
    assert played
    for r in played:
        if 0 not in r.signallers:
            assert r.loser == 0  # 59 s after the first touch: later than every drawn reaction
        elif len(r.signallers) == 1:
            assert r.loser != 0  # RULES.md §4: a lone signaller is never last
    assert outcome.reactions.times == [59.0] * len(outcome.reactions.times)


def test_a_very_fast_follower_is_never_last():
    outcome = play(
        "gris", ["greedy"], players=4, seed=5, seat=Scripted(always("2"), reaction=[1e-4]), signal_wait=(0, 0)
    )
    counted = [r for r in outcome.match.rounds if not r.stalled]
    assert counted and all(r.loser != 0 for r in counted if 0 not in r.signallers)


@pytest.fixture
def keyboard(monkeypatch):
    """A pseudo-terminal as stdin; returns a function that types bytes after a delay."""
    master, slave = os.openpty()
    stdin = os.fdopen(slave, "r")
    monkeypatch.setattr(sys, "stdin", stdin)

    def type_later(*steps: tuple[float, bytes]) -> threading.Thread:
        def typist():
            for delay, data in steps:
                time.sleep(delay)
                os.write(master, data)

        thread = threading.Thread(target=typist, daemon=True)
        thread.start()
        return thread

    yield type_later
    stdin.close()
    os.close(master)


def test_a_key_pressed_too_early_is_refused_and_the_press_after_the_signal_is_timed(keyboard):
    shown = io.StringIO()
    terminal = Terminal(Console(file=shown, highlight=False))
    waits = iter([0.4, 0.3])
    keyboard((0.05, b"x"), (0.9, b" "))  # x during the first wait; space 0.65 s after the signal
    seconds = terminal.react(">>> GO", lambda: next(waits))
    text = shown.getvalue()
    assert "too early" in text and ">>> GO" in text
    assert text.index("too early") < text.index(">>> GO")
    assert 0.3 < seconds < 3.0


def test_ctrl_d_at_the_signal_leaves(keyboard):
    keyboard((0.05, b"\x04"))
    with pytest.raises(Left):
        Terminal(Console(file=io.StringIO())).react(">>> GO", lambda: 0.0)
