"""Per-game records: streamed block by block to a Parquet dataset with the documented schema,
provenance in the metadata, the same numbers as the summary, bounded memory."""

import json
import tracemalloc

import numpy as np
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from simulator import simulate
from simulator.api import make_table, resolve_game, resolve_players
from simulator.cli import app
from simulator.errors import InputError
from simulator.running.records import (
    RECORDS_DIR,
    RecordWriter,
    column_docs,
    part_name,
    read_records,
    record_schema,
    records_metadata,
)
from simulator.running.runner import BlockRunner

runner = CliRunner()
SPOKELSE = resolve_game("spokelse")


def run(*args: str):
    return runner.invoke(app, list(args))


def reference_records(specs, unit, n, seed):
    table = make_table(SPOKELSE)
    players = resolve_players(SPOKELSE, specs, 2)
    return BlockRunner(table, players, unit, seed).records(0, n)


def test_the_schema_is_the_documented_one():
    schema = record_schema(SPOKELSE, "round", 2)
    assert schema.names == [
        "game", "score_half_0", "score_half_1", "turns", "capped",
        "score_seat0", "score_seat1", "win_seat0", "win_seat1", "counted",
    ]  # fmt: skip
    assert schema.field("game").type == pa.int64() and schema.field("turns").type == pa.int64()
    assert schema.field("score_seat0").type == pa.float64()  # half points, reported in points
    assert schema.field("win_seat1").type == pa.int8() and schema.field("counted").type == pa.bool_()
    docs = column_docs(SPOKELSE, "round", 2)
    assert list(docs) == schema.names
    assert "half points" in docs["score_half_0"] and "kortsim trace" in docs["game"]
    match = record_schema(SPOKELSE, "match", 2)
    assert match.names[1:7] == [
        "total_half_0",
        "total_half_1",
        "rounds",
        "capped_rounds",
        "first_dealer",
        "loser",
    ]
    assert {"loss_seat0", "total_seat1", "counted"} <= set(match.names)
    assert "draw" in column_docs(SPOKELSE, "match", 2)["loser"]


def test_records_round_trip_through_parquet(tmp_path):
    out = tmp_path / "run"
    r = run("simulate", "spokelse", "-s", "threshold:k=4", "-s", "random", "--rounds", "30000", "--seed", "9",
            "--records", "--out", str(out), "--block-size", "7000", "--json")  # fmt: skip
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout)
    folder = out / RECORDS_DIR
    # One file per block, named by its games, and the schema alone in _common_metadata.
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["_common_metadata", *(part_name(a, min(7000, 30000 - a)) for a in range(0, 30000, 7000))]
    # pandas and pyarrow.dataset read the folder; the schema is the documented one.
    frame = read_records(out)
    expected_schema = record_schema(SPOKELSE, "round", 2)
    assert ds.dataset(folder, format="parquet").schema.remove_metadata() == expected_schema
    assert pq.read_schema(folder / "_common_metadata").remove_metadata() == expected_schema
    assert len(frame) == 30000 and np.array_equal(frame["game"], np.arange(30000))
    # The raw columns are the kernel's records; the decoded ones follow from them.
    rec = reference_records(["threshold:k=4", "random"], "round", 30000, 9)
    for i, c in enumerate(SPOKELSE.record_columns("round", 2)):
        assert np.array_equal(frame[c], rec[:, i])
    assert np.array_equal(frame["score_seat0"], rec[:, 0] / 2)
    assert np.array_equal(frame["win_seat1"], (rec[:, 1] < rec[:, 0]).astype(np.int8))
    assert frame["counted"].all()
    # ... and agree with the summary of the same run.
    for s, seat in enumerate(summary["seats"]):
        assert frame[f"score_seat{s}"].mean() == pytest.approx(seat["mean_score"], rel=1e-12)
        assert frame[f"win_seat{s}"].mean() == pytest.approx(seat["win_rate"], rel=1e-12)
    assert frame["turns"].mean() == pytest.approx(summary["mean_turns"], rel=1e-12)
    # Provenance, settings and column docs are in the metadata.
    meta = records_metadata(out)
    assert meta["provenance"]["seed"] == 9
    assert [p["spec"] for p in meta["provenance"]["strategies"]] == ["threshold:k=4", "random"]
    assert meta["settings"]["unit"] == "round" and meta["settings"]["seed"] == 9
    assert set(meta["columns"]) == set(expected_schema.names)
    part_meta = pq.read_schema(folder / part_name(0, 7000)).metadata
    assert json.loads(part_meta[b"kortsim.provenance"])["seed"] == 9


def test_match_records(tmp_path):
    result = simulate(
        "spokelse", ["expect", "threshold:k=3"], matches=4000, seed=5, records=True, out=tmp_path / "m"
    )
    frame = read_records(tmp_path / "m")
    rec = reference_records(["expect", "threshold:k=3"], "match", 4000, 5)
    assert np.array_equal(frame[list(SPOKELSE.record_columns("match", 2))].to_numpy(), rec)
    for s, seat in enumerate(result.summary["seats"]):
        assert frame[f"loss_seat{s}"].mean() == pytest.approx(seat["loss_rate"], rel=1e-12)
        assert frame[f"total_seat{s}"].mean() == pytest.approx(seat["mean_total"], rel=1e-12)
    assert frame["rounds"].mean() == pytest.approx(result.summary["mean_rounds"], rel=1e-12)


def test_memory_holds_one_block_whatever_the_number_of_games(tmp_path):
    kwargs = {"rounds": 400_000, "seed": 1, "records": True, "block_size": 8192}
    simulate("spokelse", "passive", **{**kwargs, "rounds": 10}, out=tmp_path / "warm")  # compile first
    tracemalloc.start()
    try:
        simulate("spokelse", "passive", **kwargs, out=tmp_path / "big")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    all_at_once = 400_000 * len(SPOKELSE.record_columns("round", 2)) * 8  # 12.8 MB
    assert peak < all_at_once / 4, peak
    assert len(read_records(tmp_path / "big", columns=["game"])) == 400_000


def test_leftovers_of_a_killed_run_are_pruned_and_missing_records_refused(tmp_path):
    table = make_table(SPOKELSE)
    players = resolve_players(SPOKELSE, ["passive"], 2)
    br = BlockRunner(table, players, "round", 3)
    writer = RecordWriter(tmp_path, SPOKELSE, "round", 2, {"seed": 3}, {"seed": 3})
    writer.write(0, br.records(0, 100))
    writer.write(100, br.records(100, 50))  # written, but the run was killed before counting it
    (tmp_path / ".part-x.parquet.123.tmp").write_bytes(b"half a file")
    assert writer.prune([(0, 100)]) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["_common_metadata", part_name(0, 100)]
    with pytest.raises(InputError, match="missing records"):
        writer.prune([(0, 200)])


def test_records_without_a_run_folder_are_kept_in_memory():
    # Bounded: above MAX_RECORDS_IN_MEMORY games it refuses (tests/test_api_notebook.py).
    result = simulate("spokelse", "passive", rounds=10, seed=1, records=True)
    frame = result.records()
    assert list(frame["game"]) == list(range(10))
    assert list(frame.columns) == record_schema(SPOKELSE, "round", 2).names
