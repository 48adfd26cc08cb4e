"""Per-table-size presets (``reader@6``, ``follow@4``): shorter specs, no default changed."""

import json

import pytest
from typer.testing import CliRunner

import simulator
from simulator.cli import app
from strategies import SpecError, parse_spec, presets

READER_6 = (
    "reader:flow=0.7832216136485703,spent=0.35715511427580715,stick=0.02478017974905014,hold=1,patience=141"
)


def test_a_preset_is_the_spec_written_out():
    assert parse_spec("reader@6", "gris").spec == READER_6
    assert parse_spec("reader@6", "gris") == parse_spec(READER_6, "gris")
    assert parse_spec("reader@3", "gris") == parse_spec("reader", "gris")
    assert parse_spec("reader@6:patience=40", "gris").values[-1] == 40


def test_defaults_are_unchanged():
    assert parse_spec("reader", "gris").spec == "reader:flow=-0.1,spent=-0.1,stick=1,hold=1,patience=40"
    assert parse_spec("follow", "gris-nese").spec == "follow:follow=0.5,spent=-1,stick=1"
    assert set(presets("gris", "reader")) >= {"3", "4", "6"}
    assert set(presets("gris-nese", "follow")) >= {"3", "4", "6"}
    assert parse_spec("follow@6", "gris-nese") == parse_spec("follow", "gris-nese")


def test_an_unknown_preset_is_one_line():
    with pytest.raises(SpecError, match=r"no preset '9' of reader for gris \(presets: reader@3"):
        parse_spec("reader@9", "gris")


def test_follow_at_3_plays_exactly_as_the_tuned_point():
    tuned = "follow:follow=0.04348819403386717,spent=3.353310371671018,stick=2.560889031579722"
    a = simulator.simulate(
        "gris-nese", ["follow@3", "greedy", "greedy"], rounds=3000, seed=1, threads=1, players=3
    )
    b = simulator.simulate(
        "gris-nese", [tuned, "greedy", "greedy"], rounds=3000, seed=1, threads=1, players=3
    )
    rates = [(s["eliminated_rate"], s["signal_first_rate"]) for s in a.summary["seats"]]
    assert rates == [(s["eliminated_rate"], s["signal_first_rate"]) for s in b.summary["seats"]]


def test_strategies_lists_the_presets():
    r = CliRunner().invoke(app, ["strategies", "gris"])
    assert r.exit_code == 0
    assert f"preset reader@6 = {READER_6}" in r.stdout
    r = CliRunner().invoke(app, ["strategies", "gris", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)
