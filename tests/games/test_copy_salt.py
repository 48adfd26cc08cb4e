"""A later copy of a strategy in a comparison plays with a copy salt (docs/random-streams.md):
its decisions draw from a stream of their own.  In every game, in rounds and in matches, the
records a run writes with salted seats are still the reference's games, and the salt moves
the games of a randomised strategy while a salt of 0 is the player as it always was."""

import numpy as np
import pytest

from simulator.games import get_game
from simulator.running.runner import BlockRunner
from strategies import parse_spec

# game: (seats, the strategies at the table, in seat order)
TABLES = {
    "spokelse": (2, ["random", "expect:slip=0.2"]),
    "gris": (4, ["random", "greedy:slip=0.3,forget=0.2", "greedy", "random"]),
    "gris-nese": (4, ["random", "greedy:slip=0.3,forget=0.2", "random", "greedy"]),
}
SALTS = (1, 2, 0, 3)  # the copy salt of each seat (spokelse: the first two)


@pytest.mark.parametrize("unit", ["round", "match"])
@pytest.mark.parametrize("name", sorted(TABLES))
def test_salted_seats_play_the_reference_games(name: str, unit: str) -> None:
    game = get_game(name)
    n, specs = TABLES[name]
    table = game.table(n_seats=n)
    plain = [parse_spec(s, name) for s in specs]
    salted = [p.copy_number(salt) for p, salt in zip(plain, SALTS, strict=False)]
    count = 12 if unit == "round" else 3
    rec = BlockRunner(table, salted, unit, seed=11).records(20, count)
    for i in range(count):
        ref = game.reference_record(table, salted, 11, 20 + i, unit)
        assert tuple(int(x) for x in rec[i]) == tuple(ref), f"{name} {unit} {20 + i}"
    before = BlockRunner(table, plain, unit, seed=11).records(20, count)
    assert not np.array_equal(rec, before)  # the salt is applied (by both, not ignored by both)
    zero = [p.copy_number(0) for p in plain]
    assert np.array_equal(BlockRunner(table, zero, unit, seed=11).records(20, count), before)


def test_a_salt_is_a_whole_number_and_not_part_of_the_spec() -> None:
    p = parse_spec("random", "gris")
    assert p.copy_number(2).spec == "random" and p.copy_number(2).params[-1] == 2
    assert p.copy_number(0) == p and p.copy_number(2).plain.salt == 2
    for bad in (-1, 1.5, True, 1 << 32):
        with pytest.raises(ValueError, match="copy salt"):
            p.copy_number(bad)
