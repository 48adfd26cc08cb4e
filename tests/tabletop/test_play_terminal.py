"""``kortsim play`` driven end to end through a pseudo-terminal: a scripted match of each
game, an illegal answer, Ctrl-C and the end of input."""

from __future__ import annotations

import json
import os
import re
import sys
import time

import pexpect
import pytest

PASS_PROMPT = r"which card\? \[1-\d\][^\n]*: "
SIGNAL = r">>> [^\n]*Press a key[^\n]*"


def spawn(*args: str) -> pexpect.spawn:
    env = dict(os.environ, COLUMNS="200", TERM="xterm")
    return pexpect.spawn(
        sys.executable, ["-m", "simulator.cli", "play", *args], encoding="utf-8", timeout=60,
        env=env, dimensions=(40, 200),
    )  # fmt: skip


def finish(child: pexpect.spawn) -> str:
    child.expect(pexpect.EOF)
    child.close()
    return child.before


PAUSES = (0.05, 0.2, 0.1, 0.3, 0.15)  # seconds before a key press: times that vary, as a person's do


def play_passes(child: pexpect.spawn, answer: str = "1") -> tuple[int, int, str]:
    """Answer every card prompt with ``answer`` and every signal with a key, to the end."""
    passes = signals = 0
    while True:
        i = child.expect([PASS_PROMPT, SIGNAL, pexpect.EOF])
        if i == 0:
            passes += 1
            child.sendline(answer)
        elif i == 1:
            time.sleep(PAUSES[signals % len(PAUSES)])
            signals += 1
            child.send(" ")
        else:
            child.close()
            return passes, signals, child.before


def test_a_spokelse_match_with_an_illegal_answer(tmp_path):
    child = spawn(
        "spokelse", "--vs", "threshold:k=4", "--seed", "7", "--rule", "target=1", "--advice-samples", "5"
    )
    child.expect(r"Take \[s\] the stock card or \[d\]")
    child.sendline("q")
    child.expect(r"'q' is not a legal choice here: s or d")
    child.expect(r"Take \[s\] the stock card or \[d\]")  # asked again
    child.sendline("s")
    decisions = 1
    while True:
        i = child.expect(
            [r"Take \[s\][^\n]*\? ", r"throw it away\? ", r"Swap [^\n]* into slot \[0-3\]\? ", pexpect.EOF]
        )
        if i == 3:
            break
        decisions += 1
        child.sendline(["s", "x", "0"][i])
    child.close()
    assert child.exitstatus == 0, child.before
    out = child.before
    assert "End of the round" in out and "ghost" in out and "Match over after 1 round:" in out
    assert "decisions against expect's" in out and "Traceback" not in out
    assert decisions >= 20


def test_a_gris_match_of_three_players_saves_a_reaction_profile(tmp_path):
    profile = tmp_path / "me.json"
    child = spawn("gris", "--players", "3", "--vs", "greedy", "--seed", "3", "--signal-wait", "0,0.05",
                  "--save-reaction", str(profile))  # fmt: skip
    passes, signals, out = play_passes(child)
    assert child.exitstatus == 0, out
    assert passes > 5 and signals >= 4  # a match is at least four rounds: G, R, I, S
    assert "holds G-R-I-S" in out and "Your reaction times:" in out and "reader would have passed" in out
    saved = json.loads(profile.read_text())
    assert saved["n"] == signals == len(saved["times_s"])
    assert saved["median_s_ci"][0] <= saved["median_s"] <= saved["median_s_ci"][1]
    assert min(saved["times_s"]) >= 0.05 and max(saved["times_s"]) < 5  # the pauses, measured
    assert saved["clamped"] == [] and saved["sigma"] > 0.1


def test_a_gris_nese_match_of_three_players():
    child = spawn("gris-nese", "--players", "3", "--vs", "follow", "--seed", "4", "--signal-wait", "0,0.05")
    passes, signals, out = play_passes(child, "2")
    assert child.exitstatus == 0, out
    assert passes >= 1 and signals >= 1 and "Match over:" in out and "win together" in out
    assert "follow would have laid down" in out


@pytest.mark.parametrize("how", ["ctrl-c", "end of input"])
def test_leaving_at_a_prompt_is_one_line_and_exit_130(how):
    child = spawn("spokelse", "--vs", "passive", "--seed", "2")
    child.expect(r"Take \[s\]")
    if how == "ctrl-c":
        child.sendintr()
    else:
        child.sendeof()
    out = finish(child)
    assert child.exitstatus == 130, out
    assert "left the table; the match was not finished" in out and "Traceback" not in out
    # a line of its own, not after the prompt or the ^C the terminal echoed
    assert re.search(r"^left the table", out, re.M) and "^Cleft" not in out, out


def test_ctrl_c_while_the_signal_waits_for_your_key_leaves_cleanly():
    child = spawn("gris", "--players", "3", "--vs", "greedy", "--seed", "3", "--signal-wait", "0,0")
    while child.expect([PASS_PROMPT, SIGNAL]) == 0:
        child.sendline("1")
    child.sendintr()
    out = finish(child)
    assert child.exitstatus == 130, out
    assert "left the table" in out and "Traceback" not in out
