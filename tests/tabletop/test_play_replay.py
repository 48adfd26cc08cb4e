"""A scripted person who answers what a shipped strategy would answer plays exactly the
reference's game of that strategy against the bots: the same deals, the same bot moves,
the same match (the table uses the engine's streams and nothing else)."""

from __future__ import annotations

import pytest

from simulator.engine.cards import name
from simulator.engine.reaction import DEFAULT_MEDIAN, DEFAULT_SIGMA
from simulator.engine.rng import REACT, Stream
from simulator.games.gris import reference as gris_ref
from simulator.games.gris_nese import reference as nese_ref
from simulator.games.spokelse import reference as spokelse_ref
from simulator.games.spokelse.observation import Place, Source
from simulator.running.setup import Setup
from simulator.tabletop import Scripted, play


def players(game: str, specs: list[str], n: int | None = None, rules=None) -> Setup:
    return Setup.build(game, specs, rounds=1, seed=1, players=n, rules=rules)


def spokelse_answers(record: spokelse_ref.MatchRecord) -> list[str]:
    """Seat 0's answers in a reference match: the source, then the place, turn by turn."""
    out = []
    for rnd in record.rounds:
        for t in rnd.turns:
            if t.seat == 0:
                out.append("s" if t.source == Source.STOCK else "d")
                out.append("x" if t.place == Place.DISCARD else str(t.place))
    return out


@pytest.mark.parametrize(
    ("you", "bot", "seed"), [("threshold:k=4", "expect", 7), ("random", "threshold:k=4", 11)]
)
def test_spokelse_scripted_as_a_strategy_is_the_reference_match(you, bot, seed):
    setup = players("spokelse", [you, bot], rules={"target": "30"})
    expected = spokelse_ref.play_match(setup.table.rules, list(setup.players), seed=seed, game=0)
    seat = Scripted(spokelse_answers(expected))
    outcome = play("spokelse", [bot], seed=seed, rules={"target": "30"}, seat=seat, advice_samples=0)
    assert outcome.match == expected
    assert len(expected.rounds) >= 2  # a real match, several rounds of it


def seat0_draws(rounds, in_round) -> list[float]:
    """Seat 0's drawn reaction time in each deal that reached a signal with seat 0 in it."""
    return [
        Stream(7, 0, REACT, deal, 0).lognormal(DEFAULT_MEDIAN, DEFAULT_SIGMA)
        for deal, rnd in enumerate(rounds)
        if not rnd.stalled and in_round(rnd)
    ]


def card_answers(events) -> list[str]:
    return [name(card) for seat, card in events if seat == 0]


@pytest.mark.parametrize(("you", "bot", "n"), [("greedy", "greedy", 3), ("reader", "commit:after=2", 4)])
def test_gris_scripted_as_a_strategy_is_the_reference_match(you, bot, n):
    setup = players("gris", [you] + [bot] * (n - 1), n)
    expected = gris_ref.play_match(setup.table.rules, list(setup.players), seed=7, game=0)
    answers = card_answers(
        [(e.seat, e.card) for r in expected.rounds for e in r.events if e.kind == gris_ref.PASS]
    )
    seat = Scripted(answers, reaction=seat0_draws(expected.rounds, lambda r: True))
    outcome = play("gris", [bot], players=n, seed=7, seat=seat, signal_wait=(0, 0))
    assert outcome.match == expected
    assert expected.counted_rounds >= 4 and not expected.abandoned


@pytest.mark.parametrize(("you", "bot", "n"), [("follow", "greedy", 5), ("greedy", "follow", 3)])
def test_gris_nese_scripted_as_a_strategy_is_the_reference_match(you, bot, n):
    setup = players("gris-nese", [you] + [bot] * (n - 1), n)
    expected = nese_ref.play_match(setup.table.rules, list(setup.players), seed=7, game=0)
    answers = card_answers([(s, c) for r in expected.rounds for _, s, c in r.events])
    draws = seat0_draws(expected.rounds, lambda r: 0 in r.seats)
    outcome = play(
        "gris-nese", [bot], players=n, seed=7, seat=Scripted(answers, reaction=draws), signal_wait="0,0"
    )
    assert outcome.match == expected
    assert expected.counted_rounds == n - 2


def before_each_end(lines: list[str], marker: str) -> list[str]:
    """The lines shown during each round, before its end turned the cards over."""
    chunks, current = [], []
    for line in lines:
        if line.startswith(marker):
            chunks.append("\n".join(current))
            current = []
        elif line.startswith("==="):
            current = []
        else:
            current.append(line)
    return chunks


def test_spokelse_never_shows_a_ghost_or_a_hidden_card_before_the_end_of_its_round():
    setup = players("spokelse", ["passive", "expect"], rules={"target": "40"})
    expected = spokelse_ref.play_match(setup.table.rules, list(setup.players), seed=5, game=0)
    seat = Scripted(spokelse_answers(expected))
    play("spokelse", ["expect"], seed=5, rules={"target": "40"}, seat=seat, advice_samples=0)
    shown = before_each_end(seat.lines, "End of the round")
    assert len(shown) == len(expected.rounds)
    for text, rnd in zip(shown, expected.rounds, strict=True):
        public = {rnd.initial_discard} | {t.discarded for t in rnd.turns}
        hidden = set(rnd.ghosts) | (set(rnd.final_slots[1]) - public)
        assert hidden and not [name(c) for c in hidden if name(c) in text]


def test_gris_names_only_cards_you_have_held_before_the_end_of_the_round():
    setup = players("gris", ["greedy"] * 4, 4)
    expected = gris_ref.play_match(setup.table.rules, list(setup.players), seed=7, game=0)
    answers = card_answers(
        [(e.seat, e.card) for r in expected.rounds for e in r.events if e.kind == gris_ref.PASS]
    )
    seat = Scripted(answers, reaction=seat0_draws(expected.rounds, lambda r: True))
    play("gris", ["greedy"], players=4, seed=7, seat=seat, signal_wait=(0, 0))
    shown = before_each_end(seat.lines, "End of the round")
    for text, rnd in zip(shown, [r for r in expected.rounds if not r.stalled], strict=True):
        held = set(rnd.hands_dealt[0]) | {
            e.card for e in rnd.events if e.kind == gris_ref.PASS and e.other == 0
        }
        held |= {e.other for e in rnd.events if e.kind == gris_ref.EXCHANGE and e.seat == 0}
        named = {c for c in range(52) if name(c) in text}
        assert named <= held, sorted(name(c) for c in named - held)


def test_the_signal_timing_never_changes_a_deal():
    setup = players("gris", ["greedy"] * 3, 3)
    expected = gris_ref.play_match(setup.table.rules, list(setup.players), seed=7, game=0)
    answers = card_answers(
        [(e.seat, e.card) for r in expected.rounds for e in r.events if e.kind == gris_ref.PASS]
    )
    draws = seat0_draws(expected.rounds, lambda r: True)
    matches = [
        play(
            "gris", ["greedy"], players=3, seed=7, seat=Scripted(answers, reaction=draws), signal_wait=wait
        ).match
        for wait in [(0, 0), (0.5, 3.0), (10, 20)]
    ]
    assert matches[0] == matches[1] == matches[2] == expected
