"""`kortsim trace` through the CLI: its header, the line cap, the wording of its moves, and
one clean line (exit 3) for a strategy that makes an illegal move."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

import simulator
from simulator.cli import app
from simulator.running.tracing import DEFAULT_MAX_LINES, TAIL_LINES, cap_lines

runner = CliRunner()

# A Gris strategy that always passes on the card it was given never completes a hand once
# nobody exchanges (circulation=off): every round stalls after 10,000 passes.
STUBBORN = '''
from simulator.games.gris.observation import HAND, INCOMING
from simulator.games.gris_nese.observation import HAND as NHAND, INCOMING as NINCOMING
from strategies import strategy


@strategy(game="gris", name="stubborn")
def stubborn(obs, params, rng):
    """Passes on what it was given; the first pass is its lowest card."""
    if obs[INCOMING] >= 0:
        return obs[INCOMING]
    return obs[HAND]


@strategy(game="gris-nese", name="stubborn")
def stubborn_nese(obs, params, rng):
    """Lays down what it was given; the first step its lowest card."""
    if obs[NINCOMING] >= 0:
        return obs[NINCOMING]
    return obs[NHAND]
'''

ILLEGAL = '''
from strategies import strategy


@strategy(game="spokelse", name="badslot")
def badslot(obs, params, rng):
    """Always answers 9, which is never legal."""
    return 9


@strategy(game="gris", name="badcard")
def badcard(obs, params, rng):
    """Passes card code 60, which no hand holds."""
    return 60


@strategy(game="gris-nese", name="badlay")
def badlay(obs, params, rng):
    """Lays card code 60, which no hand holds."""
    return 60
'''


def run(*args: str):
    return runner.invoke(app, list(args))


@pytest.fixture(scope="module")
def stubborn(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The plugin file of the stalling strategies (one file per test run: names are unique)."""
    path = tmp_path_factory.mktemp("plugins") / "stubborn.py"
    path.write_text(STUBBORN)
    return str(path)


@pytest.fixture(scope="module")
def illegal(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The plugin file of the strategies that make illegal moves."""
    path = tmp_path_factory.mktemp("plugins") / "illegal.py"
    path.write_text(ILLEGAL)
    return str(path)


def body_lines(stdout: str) -> list[str]:
    """The lines after the header (which ends at the first blank line)."""
    lines = stdout.rstrip("\n").split("\n")
    return lines[lines.index("") + 1 :]


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.strip()]


# --- the header ---------------------------------------------------------------------------


def test_the_header_states_run_table_rules_and_seats():
    r = run("trace", "spokelse", "-s", "threshold:k=4", "-s", "random", "--seed", "3", "--game", "17",
            "--rule", "jack=11")  # fmt: skip
    assert r.exit_code == 0, r.output
    head = r.stdout.split("\n\n")[0].splitlines()
    assert head[0] == "Trace of spokelse, round 17 of the run with seed 3 (single rounds; --game 17)"
    assert head[1] == "  table: 2 players; rules: jack=11 (not the default), target=21 (default)"
    assert head[2] == "  seats: seat 0 threshold:k=4, seat 1 random"
    assert "Deal: seat 1 (random) deals" in r.stdout


def test_the_header_of_a_gris_match_names_reactions_and_the_variant():
    r = run("trace", "gris", "--players", "3", "-s", "greedy", "--seed", "9", "--game", "2", "--matches",
            "--rule", "circulation=always", "--reaction", "2=1.5,0.2")  # fmt: skip
    assert r.exit_code == 0, r.output
    head = r.stdout.split("\n\n")[0].splitlines()
    assert head[0].startswith("Trace of gris, match 2 of the run with seed 9 (whole matches")
    assert "3 players; rules: circulation=always (not the default)" in head[1]
    assert head[2] == (
        "  reaction times (log-normal): every seat median 0.8 s, sigma 0.35 except seat 2 median 1.5 s, sigma 0.2"
    )
    assert head[3] == "  seats: seat 0 greedy, seat 1 greedy, seat 2 greedy"


def test_the_header_of_gris_nese_names_its_variant():
    r = run("trace", "gris-nese", "-s", "greedy", "--seed", "1", "--rule", "unclear_margin=0.05")
    assert r.exit_code == 0, r.output
    assert "  table: 5 players; rules: unclear_margin=0.05 (not the default)" in r.stdout


# --- the wording of moves -----------------------------------------------------------------


def test_gris_nese_pass_lines_name_seats_as_every_other_line_does():
    r = run("trace", "gris-nese", "-s", "greedy", "--seed", "1")
    assert r.exit_code == 0, r.output
    steps = [line for line in r.stdout.splitlines() if line.startswith("Pass step")]
    assert steps
    for line in steps:
        moves = line.split(": ", 1)[1].split(", ")
        assert len(moves) == 5
        for seat, move in enumerate(moves):
            assert re.fullmatch(rf"seat {seat} \(greedy\) lays \S+", move), move
        assert not re.search(r"(^|: |, )\d lays", line)
    hands = [line for line in r.stdout.splitlines() if line.startswith("  hands: ")]
    assert hands and all(line.startswith("  hands: seat 0: ") for line in hands)


SWAP = re.compile(
    r"turn +\d+ +seat (\d) \(.*?\) takes \S+ from the (?:stock|discard pile), swaps it into slot (\d)(.*?);"
)


@pytest.mark.parametrize("game_index", range(6))
def test_spokelse_says_revealing_only_for_a_slot_its_owner_had_not_seen(game_index):
    text = simulator.trace("spokelse", ["random", "threshold:k=4"], seed=11, game_index=game_index)
    known = [{0, 1}, {0, 1}]  # RULES.md §3: each player has looked at slots 0 and 1
    swaps = 0
    for line in text.splitlines():
        m = SWAP.search(line)
        if not m:
            continue
        swaps += 1
        seat, slot, rest = int(m[1]), int(m[2]), m[3]
        if slot in known[seat]:
            assert "revealing" not in rest and "it knew was there" in rest, line
        else:
            assert rest.startswith(", revealing ") and "not seen before" in rest, line
            known[seat].add(slot)
    assert swaps > 0


def test_a_swap_into_a_known_slot_through_the_cli():
    r = run("trace", "spokelse", "-s", "threshold:k=4", "-s", "random", "--seed", "3", "--game", "17")
    assert r.exit_code == 0, r.output
    assert "swaps it into slot 1 for the ♠7 it knew was there" in r.stdout
    assert "swaps it into slot 3, revealing ♠8 (not seen before)" in r.stdout


# --- the line cap -------------------------------------------------------------------------


def test_a_stalled_gris_round_is_capped_and_says_how_much_was_left_out(stubborn):
    p = stubborn
    r = run("trace", "gris", "--plugin", p, "-s", "stubborn", "--seed", "1", "--rule", "circulation=off")
    assert r.exit_code == 0, r.output
    body = body_lines(r.stdout)
    assert len(body) == DEFAULT_MAX_LINES
    notes = [line for line in body if "left out" in line]
    assert len(notes) == 1
    # 10,000 pass lines plus the deal (5 lines: 4 players), "Passes:" and the stall line.
    kept = DEFAULT_MAX_LINES - 1
    assert notes[0] == (
        f"[... {10_007 - kept:,} of 10,007 lines left out here (--max-lines {DEFAULT_MAX_LINES}; "
        "--max-lines 0 prints them all) ...]"
    )
    assert body[-1] == "Stalled: no signal after 10000 passes; no letter."
    assert body[-TAIL_LINES:][0].startswith("  pass  ")
    assert body[1].startswith("  seat 0 (stubborn): ")


def test_max_lines_zero_prints_every_pass_and_a_smaller_cap_is_kept(stubborn):
    p = stubborn
    args = ["trace", "gris", "--plugin", p, "-s", "stubborn", "--seed", "1", "--rule", "circulation=off"]
    full = run(*args, "--max-lines", "0")
    assert full.exit_code == 0, full.output
    assert sum(1 for line in full.stdout.splitlines() if line.startswith("  pass ")) == 10_000
    assert "left out" not in full.stdout
    small = run(*args, "--max-lines", "50")
    assert small.exit_code == 0, small.output
    body = body_lines(small.stdout)
    assert len(body) == 50 and "[... 9,958 of 10,007 lines left out here (--max-lines 50;" in small.stdout


def test_an_abandoned_gris_nese_match_is_capped_and_keeps_its_end():
    # unclear_margin=10 s: the two latest touches are always closer, so every round is replayed
    # and the match is abandoned after 100 of them.
    r = run("trace", "gris-nese", "-s", "greedy", "--seed", "2", "--matches", "--rule", "unclear_margin=10",
            "--max-lines", "300")  # fmt: skip
    assert r.exit_code == 0, r.output
    body = body_lines(r.stdout)
    assert len(body) == 300
    assert sum("lines left out here" in line for line in body) == 1
    assert body[-1].startswith("Abandoned: 100 stalled or replayed rounds in a row")


@pytest.mark.slow
def test_an_abandoned_gris_match_is_capped(stubborn):
    """A hundred stalled rounds of 10,000 passes: a million lines, of which 2,000 are printed."""
    p = stubborn
    r = run(
        "trace",
        "gris",
        "--plugin",
        p,
        "-s",
        "stubborn",
        "--seed",
        "1",
        "--matches",
        "--rule",
        "circulation=off",
    )
    assert r.exit_code == 0, r.output
    body = body_lines(r.stdout)
    assert len(body) == DEFAULT_MAX_LINES
    note = next(line for line in body if "left out" in line)
    left_out, total = (int(x.replace(",", "")) for x in re.findall(r"[\d,]{5,}", note)[:2])
    assert total > 1_000_000 and left_out == total - (DEFAULT_MAX_LINES - 1)
    assert body[-1] == "Match abandoned after 100 stalled rounds in a row (0 counted rounds)."


def test_cap_lines_keeps_head_and_tail():
    text = "\n".join(f"line {i}" for i in range(1000))
    capped = cap_lines(text, 100).split("\n")
    assert len(capped) == 100
    assert capped[0] == "line 0" and capped[-1] == "line 999"
    assert capped[100 - 25 - 1].startswith("[... 901 of 1,000 lines left out")  # tail: 100 // 4 = 25
    assert cap_lines(text, 0) == text and cap_lines(text, 1000) == text


@pytest.mark.parametrize("value", ["5", "-1", "banana"])
def test_a_bad_max_lines_is_one_line(value):
    r = run("trace", "spokelse", "-s", "passive", "--seed", "1", "--max-lines", value)
    assert r.exit_code == 2
    lines = error_lines(r.stderr)
    assert len(lines) == 1 and lines[0].startswith("error:") and "--max-lines" in lines[0]


# --- bad input and illegal moves ------------------------------------------------------------


@pytest.mark.parametrize("index", [str(2**63), str(2**64), str(10**30), "-1"])
def test_game_index_outside_the_stream_contract_is_one_line(index):
    r = run("trace", "spokelse", "-s", "passive", "--seed", "1", "--game", index)
    assert r.exit_code == 2
    lines = error_lines(r.stderr)
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith(f"error: --game {index}:") and "below 2**63" in lines[0]
    assert "Traceback" not in r.output


def test_the_last_game_index_is_traced():
    r = run("trace", "spokelse", "-s", "passive", "--seed", "1", "--game", str(2**63 - 1))
    assert r.exit_code == 0, r.output
    assert f"round {2**63 - 1} of the run with seed 1" in r.stdout


@pytest.mark.parametrize(
    ("game", "spec", "decision"),
    [
        ("spokelse", "badslot", "returned 9 when choosing where to take a card from, on turn 1 (TURN=0)"),
        ("gris", "badcard", "returned 60 when choosing a card to pass, on pass 1 (PASSES=0)"),
        ("gris-nese", "badlay", "returned 60 when choosing a card to lay down, on pass step 1 (STEPS=0)"),
    ],
)
def test_an_illegal_move_in_a_trace_is_one_line_and_exit_3(illegal, game, spec, decision):
    r = run("trace", game, "--plugin", illegal, "-s", spec, "--seed", "1")
    assert r.exit_code == 3, r.output
    lines = error_lines(r.stderr)
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith(f"error: strategy {spec!r} (seat 0) {decision}"), lines[0]
    assert lines[0].endswith("in round 0 of the run with seed 1")
    assert "Traceback" not in r.output and r.stdout == ""
