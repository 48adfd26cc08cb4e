"""The confirmation's deals are never the search's: disjoint stream keys, derived from --seed."""

import pytest

from simulator.analysis.tuning import seeds
from simulator.engine.rng import DEAL, DECIDE, stream_key


@pytest.mark.parametrize("seed", [0, 1, 5, 11, 4242, (1 << 63) - 1])
def test_search_and_confirmation_seeds_are_disjoint(seed):
    s, c = seeds.search_seed(seed), seeds.confirm_seed(seed)
    assert s != c and s != seed and c != seed
    # The proof's condition: the per-game bases differ at or above bit 40, so no game index
    # below 2**40 of one run has the key of any game of the other.
    assert (seeds.game_base(s) ^ seeds.game_base(c)) >> seeds.GAME_BITS != 0
    assert seeds.disjoint(s, c)


def test_no_stream_of_the_first_games_is_shared():
    s, c = seeds.search_seed(5), seeds.confirm_seed(5)
    games = range(2000)
    search = {stream_key(s, g, kind, 0, seat) for g in games for kind in (DEAL, DECIDE) for seat in (0, 1)}
    confirm = {stream_key(c, g, kind, 0, seat) for g in games for kind in (DEAL, DECIDE) for seat in (0, 1)}
    assert len(search) == len(confirm) == 2000 * 4
    assert not search & confirm


def test_disjoint_detects_bases_that_meet():
    # Two seeds whose bases agree above bit 40 would be refused: a seed with itself.
    assert not seeds.disjoint(7, 7)


def test_the_seeds_are_a_pure_function_of_the_seed():
    assert seeds.confirm_seed(5) == seeds.confirm_seed(5)
    assert seeds.sampler_seed(5, 1, 3) == seeds.sampler_seed(5, 1, 3) != seeds.sampler_seed(5, 1, 4)
    assert 0 <= seeds.sampler_seed(5, 2, 0) < 2**31
