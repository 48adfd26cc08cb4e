"""A player's profile file: written by ``play --save-profile``, read by ``-s NAME@FILE``
and ``--reaction SEAT=FILE``, every bad file refused in one line."""

from __future__ import annotations

import json

import pytest

from simulator.engine import player_file, reaction_file
from simulator.errors import InputError, SpecError
from strategies import parse_spec

MEMORY = {"forget": 0.1, "forget_ci": [0.02, 0.3], "slip": 0.03, "decisions": 40, "model": "expect"}


def test_a_profiles_memory_is_a_preset_of_every_strategy(tmp_path):
    me = tmp_path / "me.json"
    player_file.write(me, "spokelse", memory=MEMORY)
    p = parse_spec(f"expect@{me}", "spokelse")
    assert (p.forget, p.slip) == (0.1, 0.03)
    assert p == parse_spec("expect:forget=0.1,slip=0.03", "spokelse")
    q = parse_spec(f"threshold@{me}:k=3", "spokelse")  # an own parameter beside the memory
    assert q.spec == "threshold:k=3,forget=0.1,slip=0.03"


def test_a_profile_with_reaction_times_goes_where_a_reaction_profile_goes(tmp_path):
    me = tmp_path / "me.json"
    player_file.write(me, "gris", reaction=reaction_file.fit([0.5, 0.6, 0.7, 0.65]))
    median, sigma = reaction_file.read_profile(me)
    assert median == pytest.approx(0.610, abs=0.01) and sigma > 0
    with pytest.raises(SpecError, match="holds no memory estimate"):
        parse_spec(f"reader@{me}", "gris")


@pytest.mark.parametrize(
    "text, message",
    [
        (None, "no such file"),
        ("not json", "not JSON"),
        ("[1, 2]", "not a profile"),
        ('{"kind": "kortsim reaction profile", "median_s": 0.6, "sigma": 0.3}', "not a player profile"),
        ('{"kind": "kortsim player profile"}', "holds no memory estimate"),
        ('{"kind": "kortsim player profile", "memory": {"forget": 2, "slip": 0}}', "forget must be"),
        ('{"kind": "kortsim player profile", "memory": {"forget": 0.1, "slip": "x"}}', "slip must be"),
    ],
)
def test_a_bad_profile_is_one_line(tmp_path, text, message):
    me = tmp_path / "me.json"
    if text is not None:
        me.write_text(text)
    with pytest.raises(SpecError, match=message) as exc:
        parse_spec(f"expect@{me}", "spokelse")
    assert "\n" not in str(exc.value) and str(exc.value).startswith(f"expect@{me}")


def test_a_profile_without_reaction_times_is_refused_as_a_reaction(tmp_path):
    me = tmp_path / "me.json"
    player_file.write(me, "spokelse", memory=MEMORY)
    with pytest.raises(InputError, match="holds no reaction times"):
        reaction_file.read_profile(me)


def test_the_target_is_checked_before_playing(tmp_path):
    player_file.check_target(tmp_path / "new.json")  # a new file in a folder that exists
    with pytest.raises(InputError, match="folder does not exist"):
        player_file.check_target(tmp_path / "nowhere" / "me.json")
    with pytest.raises(InputError, match="is a folder"):
        player_file.check_target(tmp_path)
    mine = tmp_path / "notes.json"
    mine.write_text(json.dumps({"my": "notes"}))
    with pytest.raises(InputError, match="not a profile"):
        player_file.check_target(mine)
    player_file.write(tmp_path / "old.json", "spokelse", memory=MEMORY)
    player_file.check_target(tmp_path / "old.json")  # a profile may be written again
