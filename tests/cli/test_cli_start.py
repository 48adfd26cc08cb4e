"""kortsim starts like a typer CLI: ``--version``, ``--help``, a command's ``--help`` and Tab
completion import neither numba nor pandas, and ``import simulator`` neither; the light
sources they read (the command table, the declarations read from the modules' text) say
exactly what the loaded commands, the registry and the games say."""

import json
import os
import subprocess
import sys

import pytest
import typer

from simulator.cli.commands import COMMANDS

HEAVY = ("numba", "pandas", "scipy", "matplotlib", "pyarrow", "statsmodels", "optuna")


def _loaded_after(code: str, env: dict[str, str] | None = None) -> dict:
    """Run ``code`` in a fresh interpreter; the heavy modules and kortsim's command modules it
    left loaded, and what it printed."""
    probe = (
        "import json, sys\n"
        "def _report(out=''):\n"
        f"    heavy = [m for m in {HEAVY!r} if m in sys.modules]\n"
        "    cli = sorted(m for m in sys.modules if m.startswith('simulator.cli.'))\n"
        "    print('\\n@@' + json.dumps({'heavy': heavy, 'cli': cli}))\n"
        "try:\n" + "".join(f"    {line}\n" for line in code.splitlines()) + "except SystemExit:\n"
        "    pass\n"
        "_report()\n"
    )
    res = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
    )
    assert res.returncode == 0, res.stderr
    out, _, tail = res.stdout.rpartition("\n@@")
    return {**json.loads(tail), "out": out}


def _kortsim(*args: str, env: dict[str, str] | None = None) -> dict:
    return _loaded_after(
        f"sys.argv = ['kortsim', *{list(args)!r}]\nfrom simulator.cli import main\nmain()", env
    )


def test_import_simulator_loads_neither_numba_nor_pandas():
    got = _loaded_after("import simulator\nsimulator.InputError")
    assert got["heavy"] == []


def test_version_and_root_help_load_no_command_module_and_nothing_heavy():
    got = _kortsim("--version")
    assert got["out"].startswith("kortsim ") and got["heavy"] == []
    got = _kortsim("--help")
    assert "simulate" in got["out"] and "experiment" in got["out"]
    assert got["heavy"] == []
    commands = {e.target.partition(":")[0] for e in COMMANDS.values()}
    assert not commands & set(got["cli"]), "the root --help imported a command's module"


@pytest.mark.parametrize("command", [*COMMANDS, "experiment run", "experiment list"])
def test_a_commands_help_loads_neither_numba_nor_pandas(command):
    got = _kortsim(*command.split(), "--help")
    assert got["out"].startswith(f"Usage: kortsim {command} ")
    assert got["heavy"] == []


TABS = {
    "strategies": ("simulate spokelse -s thr", "threshold"),
    "parameters": ("compare spokelse -s threshold:", "threshold:k="),
    "rules": ("simulate gris --rule ", "circulation="),
    "games": ("simulate ", "gris-nese"),
    "experiments": ("experiment run comm", "commit-early"),
    "commands": ("si", "simulate"),
    "field": ("sweep spokelse --vs ex", "expect"),
}


@pytest.mark.parametrize("kind", TABS)
def test_tab_completion_never_imports_numba(kind):
    words, expected = TABS[kind]
    env = {
        "_KORTSIM_COMPLETE": "complete_bash",
        "COMP_WORDS": f"kortsim {words}",
        "COMP_CWORD": str(len(words.split(" "))),
    }
    got = _kortsim(env=env)
    assert expected in got["out"].split()
    assert got["heavy"] == []


def test_the_command_table_says_what_each_command_says():
    """The one line of help ``kortsim --help`` shows unloaded is the command's own."""
    from simulator.cli.app import app
    from simulator.cli.lazy import _Listed

    group = typer.main.get_command(app)
    for name, entry in COMMANDS.items():
        cmd = group.get_command(None, name)
        assert cmd is not None and cmd.name == name
        assert (cmd.help or "").split("\n\n")[0].replace("\n", " ").strip() == entry.help, name
        for limit in (30, 45, 60, 200):
            assert _Listed(entry.help).get_short_help_str(limit) == cmd.get_short_help_str(limit)


def test_an_unknown_command_is_refused_in_one_line_with_a_suggestion():
    from typer.testing import CliRunner

    from simulator.cli import app

    res = CliRunner().invoke(app, ["simulat"], prog_name="kortsim")
    assert res.exit_code == 2
    assert res.stderr.strip() == "error: No such command 'simulat'. Did you mean 'simulate'?"


def test_the_declarations_read_from_text_are_the_registrys():
    import strategies
    from simulator.cli import declared
    from simulator.games import GAMES, get_game

    for game in GAMES:
        read = declared.strategy_families(game)
        shipped = {n: f for n, f in strategies.families(game).items() if f.origin == "kortsim"}
        assert list(read) == list(shipped), game
        for name, fam in shipped.items():
            assert read[name].doc == fam.doc
            assert [tuple(p) for p in read[name].params] == [
                (p.name, p.default, p.low, p.high, p.step, p.doc) for p in fam.params
            ]
        assert declared.rule_variants(game) == {k: v.doc for k, v in get_game(game).variants.items()}


def test_the_experiments_read_from_text_are_the_packages():
    import experiments
    from simulator.cli import declared

    assert declared.experiment_titles() == {n: experiments.get(n).TITLE for n in experiments.EXPERIMENTS}


def test_the_light_copies_of_run_settings_match_their_modules():
    from simulator.analysis.tuning.space import DEFAULT_TRIALS
    from simulator.cli import options, tune
    from simulator.running.backends import Backend

    assert [b.value for b in options.Backend] == [b.value for b in Backend]
    assert tune.DEFAULT_TRIALS == DEFAULT_TRIALS


def test_a_declaration_that_is_not_a_literal_is_unreadable_not_wrong():
    import ast

    from simulator.cli import declared

    scope = declared._Scope("simulator.cli.declared")
    with pytest.raises(declared.Unreadable):
        declared.value(ast.parse("len('x')", mode="eval").body, scope)
    assert (
        declared.value(ast.parse("f'{-1.5:g} to {(1, 2)[1]}' + 'x'", mode="eval").body, scope) == "-1.5 to 2x"
    )


def test_a_run_loads_no_table_or_statistics_library():
    """A run needs numba and numpy; pandas, pyarrow, statsmodels and matplotlib wait until a
    table, a file or a figure is asked for."""
    got = _kortsim(
        *["simulate", "spokelse", "-s", "threshold:k=4", "-s", "passive", "--rounds", "1000", "--seed", "7"]
    )
    assert "threshold:k=4" in got["out"]
    assert set(got["heavy"]) & {"pandas", "pyarrow", "statsmodels", "matplotlib", "optuna"} == set()
