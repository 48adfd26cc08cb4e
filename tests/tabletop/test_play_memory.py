"""``kortsim play spokelse --face-down --save-profile``: the cards lie face down, your memory
is estimated from your choices, and the profile plays as ``-s expect@FILE``."""

from __future__ import annotations

import json
import re

import pytest

import simulator
from simulator.errors import InputError
from simulator.tabletop import play
from simulator.tabletop.console import Scripted
from strategies import parse_spec


def answers(prompt: str) -> str:
    """Always the stock card; swap it into slot 2 (a person with a plan of its own)."""
    return "s" if prompt.startswith("Take") else "2"


def test_face_down_hides_the_rows_and_the_profile_plays_as_a_preset(tmp_path):
    me = tmp_path / "me.json"
    seat = Scripted(answers)
    out = play("spokelse", ["threshold:k=4"], seed=4, seat=seat, advice_samples=0, face_down=True,
               save_profile=me)  # fmt: skip
    rows = [line for line in seat.lines if "your row:" in line]
    assert rows and all(re.search(r"your row:  0:▢  1:▢  2:▢  3:▢", line) for line in rows)
    looks = [line for line in seat.lines if line.strip().startswith("you look at slot 0")]
    assert len(looks) == len(out.match.rounds)  # one look at the deal of every round
    assert out.memory is not None and any("your memory, estimated: forget=" in line for line in seat.lines)
    doc = json.loads(me.read_text())
    assert doc["kind"] == "kortsim player profile" and doc["game"] == "spokelse"
    assert doc["memory"]["forget"] == out.memory.forget and doc["memory"]["model"].startswith("expect")
    player = parse_spec(f"expect@{me}", "spokelse")
    assert (player.forget, player.slip) == (out.memory.forget, out.memory.slip)
    r = simulator.simulate("spokelse", [f"expect@{me}", "threshold:k=4"], rounds=200, seed=1)
    assert r.summary["seats"][0]["player"] == player.spec


def test_face_down_is_for_spokelse():
    with pytest.raises(InputError, match="--face-down is for Spøkelse"):
        play("gris", ["greedy"], players=3, seed=1, seat=Scripted([]), face_down=True)


def test_a_profile_target_that_is_not_a_profile_is_refused_before_playing(tmp_path):
    mine = tmp_path / "notes.json"
    mine.write_text("{}")
    with pytest.raises(InputError, match="not a profile"):
        play("spokelse", [], seed=1, seat=Scripted([]), save_profile=mine)
