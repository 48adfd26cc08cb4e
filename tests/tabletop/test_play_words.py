"""What ``kortsim play`` says reads as words: counts agree with their nouns (``stock 1
card``, ``1 point``, ``after 1 round``) and the advice names the cards each choice moves."""

from __future__ import annotations

import re

import pytest

from simulator.games.spokelse.tabletop import worth
from simulator.tabletop import Scripted, play


def always_the_stock_and_throw_away(prompt: str) -> str:
    """Take the stock card and throw it away, every turn: passive's play, which expect
    rarely agrees with, so the advice has decisions to name."""
    return "s" if prompt.startswith("Take") else "x"


@pytest.fixture(scope="module")
def spokelse_lines() -> list[str]:
    seat = Scripted(always_the_stock_and_throw_away)
    play("spokelse", ["expect"], seed=7, rules={"target": "1"}, seat=seat, advice_samples=2)
    return seat.lines


def test_points_agree_with_their_number():
    assert worth(2) == "1 point"
    assert worth(1) == "0.5 points"
    assert worth(38) == "19 points"


def test_counts_agree_with_their_nouns_at_the_table(spokelse_lines):
    text = "\n".join(spokelse_lines)
    assert "stock 1 card," in text  # the last card of the stock
    assert not re.search(r"\b1 (cards|points|rounds|continuations|decisions)\b", text), text
    assert "Match over after 1 round:" in text  # target 1: one round ends the match
    assert "(2 continuations)" in text


def test_the_advice_names_the_cards_each_choice_moves(spokelse_lines):
    advice = [line for line in spokelse_lines if "you chose to" in line]
    assert advice, spokelse_lines
    card = r"[♠♥♦♣](10|[2-9AJQK])"
    for line in advice:
        assert re.search(rf"you chose to (take the stock card|throw {card} away),", line), line
        said = re.search(r"expect would (.*?);", line).group(1)
        assert re.fullmatch(
            rf"take the discard top \({card}\)|throw {card} away"
            rf"|swap {card} into slot [0-3] \(in place of ({card}|a card you had not seen)\)",
            said,
        ), line
    assert not any(re.search(r"\b(swap|throw) it\b", line) for line in advice)
