"""``--save-reaction FILE`` is checked before the match starts, so measured times are never
lost to a path that cannot be written, and no other kind of file is overwritten."""

import json

import pytest
from typer.testing import CliRunner

from simulator.cli.app import app
from simulator.engine.reaction_file import check_target, write_profile
from simulator.errors import InputError


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(InputError, match="is a folder; give a file name"):
        check_target(tmp_path)


def test_a_missing_folder_is_refused(tmp_path):
    with pytest.raises(InputError, match="its folder does not exist"):
        check_target(tmp_path / "nowhere" / "me.json")


def test_another_kind_of_file_is_not_overwritten(tmp_path):
    notes = tmp_path / "notes.json"
    notes.write_text(json.dumps({"kind": "something else"}), encoding="utf-8")
    with pytest.raises(InputError, match="exists and is not a reaction profile"):
        check_target(notes)
    assert json.loads(notes.read_text(encoding="utf-8")) == {"kind": "something else"}


def test_a_new_file_or_an_earlier_profile_may_be_written(tmp_path):
    check_target(tmp_path / "me.json")
    write_profile(tmp_path / "me.json", [0.5, 0.6, 0.7, 0.55, 0.65])
    check_target(tmp_path / "me.json")


def test_the_command_refuses_a_folder_before_the_match(tmp_path):
    r = CliRunner().invoke(
        app, ["play", "gris", "--players", "3", "--seed", "1", "--save-reaction", str(tmp_path)]
    )
    assert r.exit_code == 2
    assert "is a folder" in r.output
    assert "pass 1" not in r.output and "Traceback" not in r.output
