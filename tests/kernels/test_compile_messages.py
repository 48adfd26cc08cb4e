"""kortsim says, in one line on stderr, when and why it compiles (simulator/kernels/messages.py)."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from numba import njit

from simulator.games import get_game
from simulator.kernels import messages as compiling
from simulator.kernels.messages import announced, kernel_message
from strategies.plugins import load_plugin
from strategies.registry import parse_spec

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "examples" / "my_strategy.py"
SIMULATE = ["simulate", "spokelse", "-s", "threshold:k=4", "-s", "passive", "--rounds", "1000", "--seed", "1"]
BUILTIN_LINE = "compiling the Spøkelse kernel (first run only; `kortsim warm` does this ahead)"
PLUGIN_LINE = (
    "compiling strategy lowball from my_strategy.py with the Spøkelse kernel "
    "(first run of this version of the file only)"
)


def kortsim(*args: str, cache_dir: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = str(cache_dir)
    cmd = [sys.executable, "-m", "simulator.cli", *args]
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)


def compiling_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("compiling")]


@pytest.mark.slow
def test_cold_cache_says_it_compiles_once_and_warm_cache_is_silent(tmp_path):
    cache = tmp_path / "numba-cache"
    cold = kortsim(*SIMULATE, "--json", cache_dir=cache)
    assert cold.returncode == 0, cold.stderr
    assert compiling_lines(cold.stderr) == [BUILTIN_LINE]
    assert json.loads(cold.stdout)["n"] == 1000  # stdout is the JSON document alone
    assert "compiling" not in cold.stdout

    warm = kortsim(*SIMULATE, "--json", cache_dir=cache)
    assert warm.returncode == 0, warm.stderr
    assert compiling_lines(warm.stderr) == []
    assert json.loads(warm.stdout)["seats"] == json.loads(cold.stdout)["seats"]


@pytest.mark.slow
def test_a_plugin_run_says_its_strategy_is_compiled_and_a_second_run_is_silent(tmp_path):
    # A copy with a comment of its own: a version of the file no other run has compiled.
    plugin = tmp_path / "my_strategy.py"
    plugin.write_text(PLUGIN.read_text() + f"\n# {tmp_path.name}\n")
    args = ["simulate", "spokelse", "--plugin", str(plugin), "-s", "lowball:keep=3", "-s", "threshold:k=4"]
    first = kortsim(*args, "--rounds", "1000", "--seed", "1", "--json")
    assert first.returncode == 0, first.stderr
    assert compiling_lines(first.stderr) == [PLUGIN_LINE]
    assert json.loads(first.stdout)["n"] == 1000
    second = kortsim(*args, "--rounds", "1000", "--seed", "1", "--json")
    assert second.returncode == 0, second.stderr
    assert compiling_lines(second.stderr) == []  # loaded from the on-disk cache
    assert json.loads(second.stdout)["seats"] == json.loads(first.stdout)["seats"]


def test_the_line_comes_once_before_the_first_compile_only(caplog):
    @njit
    def plus_one(x):
        return x + 1

    with caplog.at_level(logging.INFO, logger="kortsim"):
        with announced("compiling plus_one (a test)"):
            assert plus_one(1) == 2
        with announced("compiling plus_one (a test)"):
            assert plus_one(2.5) == 3.5  # compiles again, but was announced already
        with announced("compiling plus_one again (a test)"):
            assert plus_one(3) == 4  # already compiled: nothing to say
    said = [r.getMessage() for r in caplog.records if r.name == "kortsim"]
    assert said == ["compiling plus_one (a test)"]


def test_without_logging_set_up_the_line_goes_to_stderr(monkeypatch, capsys):
    monkeypatch.setattr(compiling.logger, "hasHandlers", lambda: False)

    @njit
    def times_two(x):
        return 2 * x

    with announced("compiling times_two (a test)"):
        times_two(3)
    captured = capsys.readouterr()
    assert captured.err == "compiling times_two (a test)\n"
    assert captured.out == ""


def test_messages_name_the_kernel_or_the_strategy_and_why():
    spokelse, gris = get_game("spokelse"), get_game("gris")
    greedy = parse_spec("greedy", "gris")
    assert kernel_message(gris, [greedy] * 4, builtin=True) == (
        "compiling the Gris kernel (first run only; `kortsim warm` does this ahead)"
    )
    load_plugin(PLUGIN)
    players = [parse_spec("lowball:keep=3", "spokelse"), parse_spec("threshold:k=4", "spokelse")]
    assert kernel_message(spokelse, players, builtin=False) == PLUGIN_LINE
    from experiments.spokelse_strategy import lab

    assert kernel_message(spokelse, [lab(), lab()], builtin=False) == (
        "compiling strategy threshold-lab from threshold_lab.py with the Spøkelse kernel "
        "(first run of this version of the file only)"
    )


def test_a_trace_names_the_strategies_it_compiles():
    spokelse = get_game("spokelse")
    shipped = [parse_spec("threshold:k=4", "spokelse"), parse_spec("passive", "spokelse")]
    assert compiling.trace_message(spokelse, shipped) == (
        "compiling threshold, passive for the Spøkelse trace (first run only)"
    )
    load_plugin(PLUGIN)
    mine = [parse_spec("lowball", "spokelse"), shipped[0]]
    assert compiling.trace_message(spokelse, mine) == (
        "compiling lowball, threshold for the Spøkelse trace (every run with a plugin)"
    )
