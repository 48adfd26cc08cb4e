"""The tables and views the fast round loop of the Spøkelse kernel relies on.

The loop looks card points and unseen-count fields up in tables instead of computing
``card % 13``, and plays in a workspace of views without reference counting.  These
tests check the tables against the rules, that the views are the workspace itself, and
that chunking (one workspace per chunk) changes nothing: aggregates and per-game records
agree for any number of chunks.
"""

from __future__ import annotations

import numpy as np
import pytest

from simulator.engine.cards import N_CARDS, rank_of
from simulator.games.spokelse import kernel
from simulator.games.spokelse import layout as L
from simulator.games.spokelse import rules as R
from simulator.games.spokelse.observation import UNSEEN
from simulator.games.spokelse.variants import Rules
from strategies import parse_spec


@pytest.mark.parametrize("jack", [0.5, 11])
def test_card_value_table_gives_each_card_its_rank_points(jack: float) -> None:
    values = Rules(jack=jack).values_half()
    table = np.full(N_CARDS, -1, np.int64)
    R.card_values_nb(values, table)
    assert [int(v) for v in table] == [int(values[rank_of(c)]) for c in range(N_CARDS)]


def test_unseen_field_table_points_at_each_card_rank() -> None:
    assert [int(f) for f in R.UNSEEN_OF] == [UNSEEN + rank_of(c) for c in range(N_CARDS)]


def test_unowned_workspace_views_are_the_workspace_arrays() -> None:
    owned = R.workspace_nb()
    views = R.unowned_nb(owned)
    assert len(views) == len(owned)
    for a, v in zip(owned, views, strict=True):
        assert v.shape == a.shape and v.dtype == a.dtype
        assert v.ctypes.data == a.ctypes.data  # the same memory, not a copy


def _play(unit: int, n: int, n_chunks: int, specs: tuple[str, str]) -> tuple[np.ndarray, np.ndarray]:
    players = [parse_spec(s, "spokelse") for s in specs]
    sids = np.array([p.family.builtin_id for p in players], np.int64)
    params = np.stack([p.params for p in players]).astype(np.float64)
    rules_i = np.concatenate([Rules().values_half(), [Rules().target_half()]]).astype(np.int64)
    rules_f = np.zeros(1)
    width = R.R_SIZE if unit == 0 else R.M_SIZE
    agg = np.zeros((n_chunks, width), np.int64)
    err = np.zeros((n_chunks, 8), np.int64)
    kernel.run_block_nb(sids, params, rules_i, rules_f, 5, unit, 1000, n, agg, err)
    assert not err[:, 0].any()
    cols = (L.ROUND_REC if unit == 0 else L.MATCH_REC).size()
    rec = np.zeros((n, cols), np.int64)
    err = np.zeros((n_chunks, 8), np.int64)
    kernel.records_block_nb(sids, params, rules_i, rules_f, 5, unit, 1000, n, rec, err)
    assert not err[:, 0].any()
    return agg.sum(axis=0), rec


@pytest.mark.parametrize("unit", [0, 1], ids=["rounds", "matches"])
def test_chunking_changes_neither_aggregates_nor_records(unit: int) -> None:
    specs = ("threshold:k=4", "expect")
    agg1, rec1 = _play(unit, 300, 1, specs)
    agg7, rec7 = _play(unit, 300, 7, specs)
    assert (agg1 == agg7).all()
    assert (rec1 == rec7).all()
    # The records are the same games as the aggregates.
    if unit == 0:
        assert agg1[R.R_SUM] == rec1[:, 0].sum() and agg1[R.R_SUM + 1] == rec1[:, 1].sum()
        assert agg1[R.R_TURNS] == rec1[:, 2].sum()
    else:
        assert agg1[R.M_TOTAL] == rec1[:, 0].sum() and agg1[R.M_ROUNDS] == rec1[:, 2].sum()
