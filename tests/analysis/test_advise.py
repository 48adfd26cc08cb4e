"""``kortsim advise`` and ``simulator.advise``: ranking a position, refusing impossible ones."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import simulator
from simulator.cli import app
from simulator.engine.cards import parse_card
from simulator.errors import InputError
from simulator.games.spokelse.advise import parse_card_text

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def test_ascii_and_symbol_spellings_are_the_same_card() -> None:
    for text in ("♣Q", "cQ", "CQ", "qc", "Q♣"):
        assert parse_card_text(text) == parse_card("♣Q")
    for text in ("♥10", "h10", "10h", "hT", "TH"):
        assert parse_card_text(text) == parse_card("♥10")


def test_an_eight_in_hand_swaps_the_known_king_out() -> None:
    """With one stock card left nothing can repair the row later: the 8 goes over the K,
    by a margin far outside the intervals."""
    advice = simulator.advise(
        "spokelse", row="♠3 ♦K ♣2 ♥A", hand="♥8", discard="♣Q", stock=1, seen="♠2 ♣8 ♥J", samples=400, seed=1
    )
    best, second = advice.options[:2]
    assert best.action == 1 and "♦K goes to the pile" in best.words
    assert advice.search_choice == 1
    assert second.vs_best_ci[0] > 0  # the runner-up is worse on the same deals, beyond its interval
    assert best.score_ci[1] < second.score_ci[0]
    assert len(advice.options) == 5  # four slots and throwing (a stock card)


def test_a_card_from_the_pile_cannot_be_thrown() -> None:
    advice = simulator.advise(
        "spokelse", row="♠3 ♦K ? ?", hand="♥8", from_discard=True, discard="♣Q", stock=12
    )
    assert sorted(o.action for o in advice.options) == [0, 1, 2]  # slots 2 and 3: one option
    assert any("slot 2 or slot 3 (equivalent: both unknown)" in o.words for o in advice.options)


def test_the_source_decision_takes_an_eight_onto_a_king_late() -> None:
    advice = simulator.advise("spokelse", row="♠3 ♦K ♣2 ♥A", discard="♥8", stock=2, samples=400, seed=2)
    assert advice.decision == "source"
    assert advice.options[0].words == "take ♥8 from the discard pile"
    assert advice.options[1].vs_best_ci[0] > 0


def test_the_same_seed_gives_the_same_advice_and_another_seed_other_numbers() -> None:
    pos = {"row": "♠8 ♦K ? ?", "hand": "♥3", "discard": "♣Q", "stock": 20, "seen": "♠2 ♣8 ♥J", "samples": 200}
    a, b = simulator.advise("spokelse", seed=5, **pos), simulator.advise("spokelse", seed=5, **pos)
    c = simulator.advise("spokelse", seed=6, **pos)
    assert a.as_dict() == b.as_dict()
    assert a.as_dict() != c.as_dict()


def test_the_cli_prints_every_action_best_first_in_words() -> None:
    r = run(
        "advise", "spokelse", "--row", "♠8 ♦K ? ?", "--hand", "♥3", "--discard", "♣Q", "--stock", "20",
        "--seen", "♠2 ♣8 ♥J", "--samples", "300", "--opp", "? ♣3 ? ?",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "lower is better" in r.stdout and "95%" in r.stdout
    ranked = [line for line in r.stdout.splitlines() if line.lstrip()[:2] in {f"{k}." for k in range(1, 6)}]
    assert len(ranked) == 4  # slots 2 and 3 (both unknown) are one option
    assert "slot 2 or slot 3 (equivalent: both unknown)" in r.stdout
    assert r.stdout.splitlines()[0].startswith("Assumes the opponent plays expect:")
    assert "No history given: none assumed" in r.stdout
    assert "Best by own score" in r.stdout or "Lowest by own score" in r.stdout  # margin=0, search's default


def test_best_is_said_only_when_every_other_action_is_clearly_worse() -> None:
    from simulator.games.spokelse.advise import advice_lines

    pos = dict(row="♠8 ♦K ? ?", hand="♥3", discard="♣Q", stock=20, seen="♠2 ♣8 ♥J")
    advice = simulator.advise("spokelse", samples=400, seed=3, **pos)
    close = [o for o in advice.options[1:] if o.vs_best_ci[0] <= 0]
    assert close  # slots 2 and 3 are both unknown: they play alike on most deals
    verdict = advice_lines(advice)[-1 if advice.search_choice == advice.options[0].action else -2]
    assert verdict.startswith("Lowest by own score") and "not clearly better than" in verdict
    assert all(o.words in verdict for o in close)


def test_the_margin_objective_ranks_by_the_margin() -> None:
    advice = simulator.advise(
        "spokelse",
        row="♠3 ♦K ♣2 ♥A",
        hand="♥8",
        discard="♣Q",
        stock=3,
        samples=200,
        strategy="search:margin=1",
    )
    assert advice.objective == "margin"
    margins = [o.margin for o in advice.options]
    assert margins == sorted(margins)


def test_the_cli_json_ranks_by_the_objective() -> None:
    r = run(
        "advise",
        "spokelse",
        "--row",
        "sA s2 ? ?",
        "--discard",
        "hK",
        "--stock",
        "30",
        "--json",
        "--samples",
        "100",
    )
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["decision"] == "source" and doc["units"] == "points, lower is better"
    assert doc["objective"] == "score"
    scores = [o["score"] for o in doc["options"]]
    assert scores == sorted(scores) and len(scores) == 2
    assert all(o["score_ci95"][0] <= o["score"] <= o["score_ci95"][1] for o in doc["options"])


BAD = [
    (["--row", "♠8 ♦K ? ?", "--hand", "♠8", "--discard", "♣Q", "--stock", "20"], "twice"),
    (["--row", "♠8 ♦K ?", "--hand", "♥3", "--discard", "♣Q", "--stock", "20"], "4 slots"),
    (["--row", "♠8 ♦K ? ? ?", "--hand", "♥3", "--discard", "♣Q", "--stock", "20"], "4 slots"),
    (["--row", "♠8 ♦Z ? ?", "--hand", "♥3", "--discard", "♣Q", "--stock", "20"], "unknown card"),
    (["--row", "♠8 ♦K ? ?", "--hand", "1", "--discard", "♣Q", "--stock", "20"], "unknown card"),
    (["--row", "♠8 ♦K ? ?", "--hand", "♥3", "--discard", "♣Q", "--stock", "41"], "stock holds 0 to 40"),
    (["--row", "♠8 ♦K ? ?", "--discard", "♣Q", "--stock", "0"], "round is over"),
    (["--row", "♠8 ♦K ? ?", "--hand", "♥3", "--from-discard", "--stock", "0"], "stock is empty"),
    (["--row", "♠8 ♦K ? ?", "--stock", "10"], "nothing to decide"),
    (["--row", "♠8 ♦K ? ?", "--hand", "♥3", "--stock", "10", "--seen", "♠2"], "pile is empty"),
    (["--row", "♠8 ♦K ? ?", "--opp", "? ♠8 ? ?", "--discard", "♣Q", "--stock", "9"], "twice"),
    (["--row", "♠8 ♦K ? ?", "--hand", "♥3", "--discard", "♣Q", "--stock", "20", "--totals", "x"], "--totals"),
    (
        ["--row", "♠8 ♦K ? ?", "--hand", "♥3", "--discard", "♣Q", "--stock", "9", "--samples", "0"],
        "--samples",
    ),
]


def _many_seen(n: int) -> str:
    """``n`` cards none of which the positions above show."""
    cards = [f"{s}{r}" for s in "♠♥♦♣" for r in ("A", "2", "4", "5", "6", "7", "9", "10", "J")]
    return " ".join(cards[:n])


BAD.append(
    (
        ["--row", "♠8 ♦K ? ?", "--hand", "♥3", "--discard", "♣Q", "--stock", "20", "--seen", _many_seen(30)],
        "too many",
    )
)


@pytest.mark.parametrize(("args", "message"), BAD)
def test_an_impossible_position_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    r = run("advise", "spokelse", *args)
    assert r.exit_code == 2, r.output
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("error:") and message in lines[0], lines[0]
    assert "Traceback" not in r.output


def test_a_game_without_advice_says_which_games_have_it() -> None:
    with pytest.raises(InputError, match=r"offers no position advice.*spokelse"):
        simulator.advise("gris", row="? ? ? ?", stock=3)
    r = run("advise", "gris", "--row", "? ? ? ?", "--stock", "3")
    assert r.exit_code == 2 and "offers no position advice" in r.stderr


def test_the_python_api_refuses_unknown_keywords_in_one_line() -> None:
    with pytest.raises(InputError, match=r"advise: .*colour"):
        simulator.advise("spokelse", row="? ? ? ?", stock=3, colour="red")
