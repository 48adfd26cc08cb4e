"""Command-line conventions: help lists the choices and says what each value looks like,
shell completion is on, and compare writes the same outputs as simulate and sweep."""

import json
import os
import re
import subprocess
import sys

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from simulator.cli import app
from simulator.games import GAMES

runner = CliRunner()
GAME_COMMANDS = ["simulate", "compare", "sweep", "trace", "strategies"]


def run(*args: str):
    return runner.invoke(app, list(args))


@pytest.mark.parametrize("command", GAME_COMMANDS)
def test_help_lists_the_games_and_names_what_each_value_looks_like(command):
    r = run(command, "--help")
    assert r.exit_code == 0, r.output
    assert "GAME <" + "|".join(GAMES) + ">" in r.stdout, r.stdout
    assert "{game}" not in r.stdout
    assert not re.search(r"<(list\[|str>|int>|path>)", r.stdout, re.I), r.stdout


def test_options_show_what_their_values_look_like():
    r = run("simulate", "--help")
    text = " ".join(r.stdout.split())
    for shown in (
        "-s, --strategy SPEC",
        "--rule NAME=VALUE",
        "--reaction [SEAT=]MEDIAN[,SIGMA]",
        "--plugin FILE",
        "--rounds N",
        "--out DIR",
    ):
        assert shown in text, shown
    sweep = " ".join(run("sweep", "--help").stdout.split())
    assert "-s, --strategy SWEEP" in sweep and "--plot FILE" in sweep
    compare = " ".join(run("compare", "--help").stdout.split())
    for shown in ("--field SPEC", "--baseline SPEC", "--plot FILE", "--out DIR"):
        assert shown in compare, shown


def test_an_unknown_game_is_one_line_naming_the_choices():
    r = run("simulate", "poker", "-s", "x", "--rounds", "5")
    assert r.exit_code == 2
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), r.stderr
    assert "'poker' is not one of 'spokelse', 'gris', 'gris-nese'" in lines[0]
    assert "Value error" not in lines[0]


def test_game_ids_are_case_insensitive():
    r = run("strategies", "Gris-Nese", "--json")
    assert r.exit_code == 0, r.output
    assert {row["name"] for row in json.loads(r.stdout)} >= {"greedy", "random"}


@pytest.mark.parametrize("spelling", ["gris_nese", "GRIS_NESE", "Spøkelse", "spøkelse"])
def test_the_spellings_accepted_before_choices_keep_working(spelling):
    # The game ids became choices; the spellings get_game always read must still be read.
    r = run("strategies", spelling, "--json")
    assert r.exit_code == 0, r.output
    assert {row["name"] for row in json.loads(r.stdout)} >= {"random"}


def test_completion_options_are_offered():
    r = run("--help")
    assert r.exit_code == 0
    assert "--install-completion" in r.stdout and "--show-completion" in r.stdout


def kortsim(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """The real entry point (completion reads the program's name and the environment)."""
    code = "from simulator.cli import main; main()"
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=full_env, timeout=120
    )


def test_show_completion_prints_a_bash_script():
    r = kortsim("--show-completion", "bash", env={"SHELL": "/bin/bash"})
    assert r.returncode == 0, r.stderr
    assert "_KORTSIM_COMPLETE=complete_bash" in r.stdout
    assert "complete -o default -F _kortsim_completion kortsim" in r.stdout


def test_completion_offers_commands_and_games():
    env = {"_KORTSIM_COMPLETE": "complete_bash", "COMP_WORDS": "kortsim sim", "COMP_CWORD": "1"}
    r = kortsim(env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["simulate"]
    env = {"_KORTSIM_COMPLETE": "complete_bash", "COMP_WORDS": "kortsim simulate gr", "COMP_CWORD": "2"}
    r = kortsim(env=env)
    assert r.returncode == 0, r.stderr
    assert sorted(r.stdout.split()) == ["gris", "gris-nese"]


def test_install_completion_writes_the_script_for_the_shell(tmp_path):
    r = kortsim("--install-completion", "bash", env={"HOME": str(tmp_path), "SHELL": "/bin/bash"})
    assert r.returncode == 0, r.stderr
    script = tmp_path / ".bash_completions" / "kortsim.sh"
    assert script.is_file() and "_KORTSIM_COMPLETE" in script.read_text()
    assert "kortsim.sh" in (tmp_path / ".bashrc").read_text()


# --- compare --out, --plot and its report ---------------------------------------------------


def png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_compare_out_writes_a_results_folder_with_provenance_and_report(tmp_path):
    folder = tmp_path / "cmp"
    args = ["compare", "spokelse", "-s", "threshold", "-s", "passive", "-s", "threshold:k=2"]
    r = run(*args, "--rounds", "600", "--seed", "4", "--out", str(folder), "--plot", str(tmp_path / "d.png"))
    assert r.exit_code == 0, r.output
    for name in ("summary.parquet", "summary.json", "report.md", "report.html", "report.json"):
        assert (folder / name).is_file(), name
    table = pq.read_table(folder / "summary.parquet")
    frame = table.to_pandas()
    assert list(frame["player"]) == ["threshold:k=4", "passive", "threshold:k=2"]
    for col in ("score", "score_lo", "score_hi", "score_diff", "score_diff_lo", "score_p_holm", "win"):
        assert col in frame.columns, col
    assert frame.loc[frame["player"] == "passive", "score_diff"].iloc[0] > 0  # passive scores worse
    meta = table.schema.metadata
    prov = json.loads(meta[b"kortsim.provenance"])
    assert prov["seed"] == 4 and prov["kind"] == "compare" and prov["n"] == 600
    assert {s["spec"] for s in prov["strategies"]} == {"threshold:k=4", "passive", "threshold:k=2"}
    assert all(re.fullmatch(r"[0-9a-f]{16,64}", s["source_sha256"]) for s in prov["strategies"])
    summary = json.loads(meta[b"kortsim.summary"])
    assert summary == json.loads((folder / "summary.json").read_text())
    assert summary["kind"] == "compare" and summary["seed"] == 4
    assert png_size(folder / "figures" / "compare.png")[0] > 300
    assert (folder / "figures" / "compare.svg").is_file()
    assert png_size(tmp_path / "d.png")[0] > 300 and (tmp_path / "d.svg").is_file()
    md = (folder / "report.md").read_text()
    assert "Does any strategy do better than threshold:k=4" in md
    # kortsim report rebuilds the report from the folder
    (folder / "report.html").unlink()
    again = run("report", str(folder))
    assert again.exit_code == 0, again.output
    assert (folder / "report.html").is_file()


def test_compare_out_json_is_the_same_as_without_it(tmp_path):
    args = [
        "compare",
        "spokelse",
        "-s",
        "threshold",
        "-s",
        "passive",
        "--rounds",
        "300",
        "--seed",
        "9",
        "--json",
    ]
    plain = json.loads(run(*args).stdout)
    written = run(*args, "--out", str(tmp_path / "o"))
    assert written.exit_code == 0, written.output
    doc = json.loads(written.stdout)
    timing = ("elapsed_s", "compile_s", "games_per_s")
    assert {k: v for k, v in doc.items() if k not in timing} == {
        k: v for k, v in plain.items() if k not in timing
    }
    assert "wrote" not in written.stderr and "seed" not in written.stderr  # --json: quiet


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--plot", "figure.pdf"], "give a .png or .svg file name"),
        (["--plot", "/dev/null/figure.png"], "/dev/null is a file, not a folder"),
        (["--out", "/dev/null/sub"], "cannot create the results folder: Not a directory"),
    ],
)
def test_compare_refuses_outputs_it_cannot_write_before_playing(extra, message):
    r = run("compare", "spokelse", "-s", "threshold", "-s", "passive", "--rounds", "200", *extra)
    assert r.exit_code == 2
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0], r.stderr
    assert r.stdout == ""
