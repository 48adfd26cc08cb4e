"""``kortsim advise --history``: the actions ranked on worlds drawn from the belief given
the round so far (advise_belief.py), read from a real trace."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

import simulator
from simulator.cli import app
from simulator.engine.cards import N_CARDS, name
from simulator.engine.rng import DECIDE, Stream
from simulator.errors import InputError
from simulator.games.spokelse import search_worlds
from simulator.games.spokelse.advise_belief import belief_exact, new_particles, on_belief, weights
from simulator.games.spokelse.history import parse_history
from simulator.games.spokelse.ladder import TUNED_EXPECT
from simulator.games.spokelse.observation import SEAT, TURN
from simulator.games.spokelse.position import parse_card_text, position_obs
from strategies.registry import parse_spec

runner = CliRunner()
SEED = 5  # `kortsim trace spokelse -s expect --seed 5`: 43 turns, seat 0 plays first
CARD = re.compile(r"[♠♥♦♣](?:10|[2-9AJQK])")


@pytest.fixture(scope="module")
def trace() -> str:
    r = runner.invoke(app, ["trace", "spokelse", "-s", "expect", "--seed", str(SEED)])
    assert r.exit_code == 0, r.output
    return r.stdout


def test_the_history_ranks_on_the_belief_and_says_whom_it_assumes(trace: str) -> None:
    a = simulator.advise("spokelse", history=trace, turn=39, samples=300, seed=1)
    assert a.belief == "model" and a.opponent == TUNED_EXPECT and a.history.me == 0
    assert a.decision == "source" and [o.action for o in a.options] == [1, 0]  # take ♣J, then draw
    assert a.options[1].vs_best_ci[0] > 0
    doc = a.as_dict()
    assert doc["history"]["seat"] == 0 and len(doc["history"]["turns"]) == 38
    assert doc["history"]["turns"][1]["taken"] is None  # seat 1's draw went unseen into a slot
    assert (
        doc["belief"] == "model" and doc["playouts"] == TUNED_EXPECT and 1 <= doc["effective_samples"] <= 300
    )
    t = simulator.advise("spokelse", history=trace, turn=39, samples=300, seed=1, opponent="threshold:k=4")
    assert t.opponent == "threshold:k=4" and t.as_dict()["options"] != doc["options"]


def test_uniform_with_a_history_is_the_old_advice_on_the_position_it_leads_to(trace: str) -> None:
    h = parse_history(trace, turn=39)
    pos = h.position()
    typed = simulator.advise("spokelse", row=" ".join(name(c) for c in pos.row), stock=pos.stock,
                             discard=name(pos.discard), seen=" ".join(name(c) for c in pos.seen),
                             samples=200, seed=4)  # fmt: skip
    given = simulator.advise("spokelse", history=trace, turn=39, belief="uniform", samples=200, seed=4)
    assert given.options == typed.options and given.opponent == typed.opponent


def _permuted(text: str, turn: int, seed: int) -> str:
    """The trace with every card the player to move has not seen at ``turn`` swapped for
    another such card (wherever it appears: the hidden rows, the opponent's hidden draws)."""
    h = parse_history(text, turn=turn)
    pool = [name(c) for c in range(N_CARDS) if c not in h.seen]
    swap = dict(zip(pool, np.random.default_rng(seed).permutation(pool), strict=True))
    head = text.partition("End:")[0]
    return CARD.sub(lambda m: swap.get(m.group(0), m.group(0)), head)


@pytest.mark.parametrize("turn", [12, 30, 39])
def test_the_belief_advice_never_reads_a_hidden_card(trace: str, turn: int) -> None:
    a = simulator.advise("spokelse", history=trace, turn=turn, samples=150, seed=3)
    for k in range(2):
        other = _permuted(trace, turn, k)
        assert other != trace.partition("End:")[0]
        assert (
            simulator.advise("spokelse", history=other, turn=turn, samples=150, seed=3).as_dict()
            == a.as_dict()
        )


def test_the_figures_are_a_pure_function_of_the_seed(trace: str) -> None:
    run = lambda seed: simulator.advise("spokelse", history=trace, turn=30, hand="♠Q", samples=150, seed=seed)
    assert run(8).as_dict() == run(8).as_dict()
    assert run(8).as_dict()["options"] != run(9).as_dict()["options"]


def test_two_unknown_slots_are_one_option_on_the_belief_too(trace: str) -> None:
    a = simulator.advise("spokelse", history=trace, turn=1, hand="♠3", samples=100, seed=1)
    assert sorted(o.action for o in a.options) == [0, 1, 2, 4]
    assert any(o.words.startswith("put ♠3 in slot 2 or slot 3 (equivalent: both unknown)") for o in a.options)


def test_the_exact_end_of_round_agrees_with_the_playouts_on_the_same_belief(trace: str) -> None:
    """Turn 43 draws the last card: after placing it the round is over, so the playouts'
    own score and the exact per-particle sum estimate one expectation."""
    h = parse_history(trace, turn=43)
    pos = h.position(hand=parse_card_text("♣9"))  # the last stock card, drawn
    n = 3000
    params = parse_spec("search", "spokelse").params.copy()
    params[search_worlds.P_SAMPLES] = n
    params[search_worlds.P_BASE : search_worlds.P_BASE + 4] = parse_spec(TUNED_EXPECT, "spokelse").params[:4]
    obs = position_obs(pos)
    obs[TURN], obs[SEAT] = len(h.turns), h.me
    own = np.zeros((search_worlds.N_ACTIONS, n), np.int64)
    opp, legal = np.zeros_like(own), np.zeros(search_worlds.N_ACTIONS, np.int64)
    parts, logw, hidden = new_particles(n)
    rng = Stream(2, 0, DECIDE, 0, 0).as_array()
    n_stock = on_belief(pos, h, obs, params, TUNED_EXPECT, rng, own, opp, legal, parts, logw, hidden)
    assert n_stock == 0
    exact = belief_exact(pos, parts, logw, hidden, n_stock)
    w, _ = weights(logw)
    for a in np.flatnonzero(legal):
        sampled = own[a] / 2
        assert abs(float(w @ exact[a]) / 2 - sampled.mean()) < 4 * sampled.std() / np.sqrt(n) + 0.05


def test_the_cli_fits_80_columns_and_says_it_uses_the_history(trace: str, tmp_path) -> None:
    f = tmp_path / "round.txt"
    f.write_text(trace, encoding="utf-8")
    r = runner.invoke(app, ["advise", "spokelse", "--history", str(f), "--turn", "30", "--hand", "♠Q",
                            "--samples", "100"], env={"COLUMNS": "80"})  # fmt: skip
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].startswith(f"Opponent assumed: {TUNED_EXPECT} (the")
    assert "History: 29 turns seen from seat 1" in r.stdout
    assert max(cell_len(line) for line in lines) <= 80, r.stdout
    j = runner.invoke(
        app, ["advise", "spokelse", "--history", str(f), "--turn", "30", "--json", "--samples", "50"]
    )
    assert j.exit_code == 0 and json.loads(j.stdout)["history"]["seat"] == 1


REFUSED = [
    (["--turn", "30", "--row", "♣J ♥J ♦J ?"], "--row ♣J ♥J ♦J ? contradicts the history"),
    (["--turn", "30", "--stock", "20"], "--stock 20 contradicts the history, which gives 12"),
    (["--turn", "30", "--discard", "♠9"], "--discard ♠9 contradicts"),
    (["--turn", "30", "--hand", "♣J"], "cannot have been drawn"),
    (["--turn", "30", "--hand", "♠Q", "--from-discard"], "the card taken from it is not ♠Q"),
    ([], "give --turn N"),
    (["--turn", "60"], "--turn 60"),
    (["--turn", "30", "--belief", "bayes"], "--belief is model or uniform"),
    (["--turn", "30", "--opponent", "expect:forget=0.1"], "without forget or slip"),
]


@pytest.mark.parametrize(("args", "message"), REFUSED)
def test_a_history_the_position_contradicts_is_one_line_and_exit_2(trace, tmp_path, args, message) -> None:
    f = tmp_path / "round.txt"
    f.write_text(trace, encoding="utf-8")
    r = runner.invoke(app, ["advise", "spokelse", "--history", str(f), "--samples", "20", *args])
    assert r.exit_code == 2, r.output
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0], r.stderr


@pytest.mark.parametrize(
    ("history", "message"),
    [
        ("hello world", "neither a file nor moves"),
        (
            "Deal: seat 1 deals, seat 0 plays first. turn 1 seat 0 takes ♠3 from the stock",
            "not in the notation",
        ),
        ("Deal: seat 1 deals, seat 0 plays first.", "needs the deal"),
        ("/no/such/round.txt", "neither a file nor moves"),
    ],
)
def test_a_history_that_is_not_a_round_is_one_line_and_exit_2(history: str, message: str) -> None:
    r = runner.invoke(app, ["advise", "spokelse", "--history", history])
    assert r.exit_code == 2, r.output
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0], r.stderr


def test_the_model_needs_a_history_and_the_turn_needs_one_too() -> None:
    with pytest.raises(InputError, match="--belief model infers from the moves so far"):
        simulator.advise("spokelse", row="♠8 ♦K ? ?", hand="♥3", discard="♣Q", stock=20, belief="model")
    with pytest.raises(InputError, match="--turn picks a turn"):
        simulator.advise("spokelse", row="♠8 ♦K ? ?", hand="♥3", discard="♣Q", stock=20, turn=3)
    with pytest.raises(InputError, match="--row and --stock"):
        simulator.advise("spokelse", hand="♥3", discard="♣Q")
