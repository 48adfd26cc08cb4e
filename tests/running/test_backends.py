"""The Dask backend gives the local backend's numbers: a LocalCluster, and a scheduler with two
workers started as separate processes (user strategies included); block plans; bad options."""

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import dask
import numba
import numpy as np
import pytest
from typer.testing import CliRunner

from simulator import simulate
from simulator.api import make_table, resolve_game, resolve_players
from simulator.cli import app
from simulator.errors import InputError
from simulator.running.backends import (
    MIN_BLOCK,
    PROBE_BLOCK,
    BlockPlan,
    PlayRecipe,
    PluginFile,
    cores,
    dask_client,
    host_of,
    merge_ranges,
    missing_ranges,
    processes_by_host,
    shippable_plugins,
)
from simulator.running.records import read_records
from simulator.running.results import TIMING_FIELDS
from simulator.running.runner import BlockRunner
from strategies.registry import Family, families, parse_spec

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "my_strategy.py"
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def json_without_timing(text: str) -> dict:
    doc = json.loads(text)
    return {k: v for k, v in doc.items() if k not in TIMING_FIELDS}


def tune_without_timing(text: str) -> dict:
    """A tune's JSON without the seconds it took (its budget's and its confirmation's)."""
    doc = json.loads(text)
    doc["budget"] = {k: v for k, v in doc["budget"].items() if not k.endswith("_s")}
    doc["confirmation"] = {k: v for k, v in doc["confirmation"].items() if not k.endswith("_s")}
    return doc


def local_json(*args: str) -> dict:
    r = run("simulate", *args, "--json")
    assert r.exit_code == 0, r.output
    return json_without_timing(r.stdout)


# --- block plans ------------------------------------------------------------------------


def test_ranges_merge_and_gaps_cover_the_rest():
    assert merge_ranges([(5, 9), (0, 3), (3, 5), (20, 30), (25, 27)]) == [(0, 9), (20, 30)]
    assert missing_ranges(40, [(5, 9), (20, 30)]) == [(0, 5), (9, 20), (30, 40)]
    assert missing_ranges(10, []) == [(0, 10)]
    assert missing_ranges(10, [(0, 10)]) == []


def test_a_plan_hands_out_every_game_once():
    plan = BlockPlan([(0, 1000), (5000, 5100)], block_size=300)
    blocks = []
    while (b := plan.next()) is not None:
        blocks.append(b)
    assert blocks == [(0, 300), (300, 300), (600, 300), (900, 100), (5000, 100)]
    assert plan.remaining == 0


def test_an_automatic_plan_probes_then_sizes_blocks_to_the_target_time():
    plan = BlockPlan([(0, 10**9)], max_block=1 << 22, target_s=0.25)
    assert plan.next() == (0, PROBE_BLOCK)
    plan.observe(PROBE_BLOCK, PROBE_BLOCK / 1_000_000)  # a million games a second
    first, n = plan.next()
    assert first == PROBE_BLOCK and n == 1 << 17  # the power of two at or below 250,000
    plan.observe(n, 100.0)  # very slow blocks shrink, but not below the minimum
    for _ in range(10):
        plan.observe(MIN_BLOCK, 100.0)
    assert plan.size == MIN_BLOCK
    capped = BlockPlan([(0, 10**9)], max_block=1 << 10)
    capped.observe(100, 1e-9)
    assert capped.size == 1 << 10


# --- user strategy files on workers ---------------------------------------------------------


def test_a_strategy_file_missing_on_a_worker_is_loaded_from_its_shipped_text(tmp_path):
    text = EXAMPLE.read_text().replace('name="lowball"', 'name="lowball_shipped"')
    data = text.encode()
    shipped = PluginFile("/nowhere/on/this/worker/my_strategy.py", text, hashlib.sha256(data).hexdigest())
    shipped.load()
    fam = families("spokelse")["lowball_shipped"]
    assert Path(fam.origin).read_text() == text
    assert Path(fam.origin) == shipped.copy_path()


def test_user_strategy_files_are_shipped_and_others_refused():
    from strategies.plugins import load_plugin

    load_plugin(EXAMPLE)
    players = [parse_spec("lowball:keep=3", "spokelse"), parse_spec("threshold:k=4", "spokelse")]
    (plugin,) = shippable_plugins(players)
    assert plugin.path == str(EXAMPLE.resolve()) and plugin.text == EXAMPLE.read_text()
    fam = families("spokelse")["lowball"]
    typed_in = Family("spokelse", "typed_in", fam.decide, fam.params, fam.doc, None, "<stdin>")
    with pytest.raises(InputError, match="not in a strategy file"):
        shippable_plugins([typed_in.player()])


def test_a_recipe_rebuilds_the_runner_of_its_settings():
    g = resolve_game("spokelse")
    table = make_table(g, {"jack": "11"})
    players = resolve_players(g, ["threshold:k=4", "passive"], 2)
    recipe = PlayRecipe.of(table, players, "round", 9, records=False)
    assert recipe.plugins == ()
    fn = recipe.build()
    expected = simulate("spokelse", ["threshold:k=4", "passive"], rounds=3000, seed=9, rules={"jack": "11"})
    assert np.array_equal(fn(0, 3000).agg, expected.aggregates)


def test_a_recipe_keeps_the_copy_salts_of_its_players():
    """A later copy of a strategy in a comparison keeps its copy salt on a worker (its own
    decision streams, docs/random-streams.md); a recipe without salts has the key it had."""
    g = resolve_game("gris")
    table = make_table(g, None, 4)
    plain = [parse_spec("random", "gris")] * 2
    salted = [plain[0], plain[1].copy_number(1)]
    recipe = PlayRecipe.of(table, salted, "round", 9, records=True)
    assert recipe.salts == (0, 1) and [p.salt for p in recipe.players()] == [0, 1]
    unsalted = PlayRecipe.of(table, plain, "round", 9, records=True)
    assert unsalted.salts == () and unsalted.key() != recipe.key()
    seats = [salted[0], salted[1], salted[0], salted[1]]
    local = BlockRunner(table, seats, "round", 9).records(0, 200)
    assert np.array_equal(PlayRecipe.of(table, seats, "round", 9, records=True).build()(0, 200).rec, local)
    assert not np.array_equal(BlockRunner(table, [plain[0]] * 4, "round", 9).records(0, 200), local)


def test_host_of_an_address():
    assert host_of("tcp://10.0.0.5:40213") == "10.0.0.5"
    assert host_of("tcp://[::1]:8786") == "::1"


# --- a LocalCluster -------------------------------------------------------------------------


@pytest.mark.slow
def test_a_local_cluster_gives_the_local_json():
    args = ("spokelse", "-s", "threshold:k=4", "-s", "expect", "--rounds", "200000", "--seed", "11")
    r = run("simulate", *args, "--backend", "dask", "--workers", "2", "--json")
    assert r.exit_code == 0, r.output
    assert json_without_timing(r.stdout) == local_json(*args)


def test_local_cluster_workers_share_the_cores():
    from simulator.running import backends

    with dask_client(None, workers=2) as client:
        hosts = processes_by_host(client)
        assert list(hosts.values()) == [2]

        def threads_of_a_task(hosts):
            backends._set_threads(hosts)
            return numba.get_num_threads()

        futures = [client.submit(threads_of_a_task, hosts, pure=False) for _ in range(4)]
        threads = client.gather(futures)
    expected = (
        max(1, cores() // 2) if "NUMBA_NUM_THREADS" not in os.environ else numba.config.NUMBA_NUM_THREADS
    )
    assert threads == [expected] * 4


# --- a scheduler and two workers, separate processes ------------------------------------------


def dask_command(*args: str) -> list[str]:
    exe = Path(sys.executable).with_name("dask")
    return [str(exe), *args] if exe.is_file() else [sys.executable, "-m", "dask", *args]


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory):
    """``dask scheduler`` on a free port of 127.0.0.1 and two ``dask worker`` processes."""
    folder = tmp_path_factory.mktemp("cluster")
    sched_file = folder / "scheduler.json"
    procs = []

    def start(name: str, *args: str) -> None:
        log = open(folder / f"{name}.log", "wb")  # noqa: SIM115 (closed in the finaliser)
        procs.append((subprocess.Popen(dask_command(*args), stdout=log, stderr=log, cwd=folder), log))

    try:
        start("scheduler", "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
              "--scheduler-file", str(sched_file))  # fmt: skip
        deadline = time.monotonic() + 60
        while not sched_file.is_file():
            assert time.monotonic() < deadline, (folder / "scheduler.log").read_text()
            time.sleep(0.1)
        for i in range(2):
            start(f"worker{i}", "worker", "--scheduler-file", str(sched_file), "--nthreads", "1",
                  "--host", "127.0.0.1", "--no-dashboard", "--local-directory", str(folder / f"w{i}"))  # fmt: skip
        address = json.loads(sched_file.read_text())["address"]
        with dask_client(address) as client:
            client.wait_for_workers(2, timeout=120)
        yield address
    finally:
        for proc, _ in reversed(procs):
            proc.terminate()
        for proc, log in reversed(procs):
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            log.close()


@pytest.mark.slow
def test_a_scheduler_with_two_workers_gives_the_local_json(scheduler):
    for args in (
        ("spokelse", "-s", "threshold:k=4", "-s", "random", "--rounds", "150000", "--seed", "5"),
        (
            "spokelse",
            "-s",
            "expect",
            "-s",
            "threshold:k=3",
            "--matches",
            "20000",
            "--rule",
            "jack=11",
            "--seed",
            "6",
        ),
    ):
        r = run("simulate", *args, "--backend", "dask", "--scheduler", scheduler, "--json")
        assert r.exit_code == 0, r.output
        assert json_without_timing(r.stdout) == local_json(*args)
    with dask_client(scheduler) as client:
        threads = client.run(
            lambda: __import__("simulator.running.dask_worker").running.dask_worker._WORKER_THREADS
        )
    assert list(threads.values()) == [max(1, cores() // 2)] * 2  # two worker processes on this host


@pytest.mark.slow
def test_a_sweep_on_the_scheduler_gives_the_local_json(scheduler):
    args = (
        "spokelse",
        "-s",
        "threshold:k=2|4|6",
        "--vs",
        "threshold:k=4",
        "--rounds",
        "30000",
        "--seed",
        "8",
    )
    r = run("sweep", *args, "--backend", "dask", "--scheduler", scheduler, "--json")
    assert r.exit_code == 0, r.output
    local = run("sweep", *args, "--json")
    assert local.exit_code == 0, local.output
    assert json_without_timing(r.stdout) == json_without_timing(local.stdout)
    assert json.loads(r.stdout)["table"]  # the points and their figures, compared above


@pytest.mark.slow
def test_a_tune_on_the_scheduler_gives_the_local_json(scheduler):
    """Every trial's blocks and the confirmation are played by the workers, through one client,
    and the search, the winner and the confirmation are the local tune's."""
    args = ("spokelse", "-s", "threshold:k=0..8", "--vs", "threshold:k=4", "--rounds", "8000",
            "--trials", "12", "--seed", "3")  # fmt: skip
    with dask_client(scheduler) as client:
        client.run(lambda: __import__("simulator.running.dask_worker").running.dask_worker._BUILT.clear())
    r = run("tune", *args, "--backend", "dask", "--scheduler", scheduler, "--json")
    assert r.exit_code == 0, r.output
    local = run("tune", *args, "--json")
    assert local.exit_code == 0, local.output
    assert tune_without_timing(r.stdout) == tune_without_timing(local.stdout)
    with dask_client(scheduler) as client:
        built = client.run(
            lambda: sorted(__import__("simulator.running.dask_worker").running.dask_worker._BUILT)
        )
    keys = {k for ks in built.values() for k in ks}
    assert any(k.startswith("seatings-") for k in keys), built  # the trials were played there


@pytest.mark.slow
def test_a_calibration_on_the_scheduler_gives_the_local_figures(scheduler):
    """Its chunks of rounds are played by the workers and summed in chunk order, as here."""
    import simulator

    settings = {"rounds": 600, "seed": 9, "particles": 16}
    local = simulator.calibrate("spokelse", **settings).as_dict()
    dask = simulator.calibrate("spokelse", backend="dask", scheduler=scheduler, **settings).as_dict()
    for doc in (local, dask):
        doc.pop("seconds")
        doc["summary"].pop("decisions_per_second")
    assert dask == local and len(local["rows"]) > 20
    with dask_client(scheduler) as client:
        built = client.run(
            lambda: sorted(__import__("simulator.running.dask_worker").running.dask_worker._BUILT)
        )
    assert any(k.startswith("calibrate-") for ks in built.values() for k in ks), built


@pytest.mark.slow
def test_a_worker_address_given_as_the_scheduler_is_one_line(scheduler):
    with dask_client(scheduler) as client:
        worker = next(iter(client.scheduler_info(n_workers=-1)["workers"]))
    t0 = time.monotonic()
    with pytest.raises(InputError, match=f"^{worker} is a Dask worker, not a Dask scheduler$"):
        simulate(
            "spokelse", "passive", rounds=10, seed=1, backend="dask", scheduler=worker, connect_timeout=5
        )
    assert time.monotonic() - t0 < 10


@pytest.mark.slow
def test_the_scheduler_address_may_come_from_dask_configuration(scheduler):
    with dask.config.set({"scheduler-address": scheduler}):
        remote = simulate("spokelse", "threshold:k=5", rounds=20_000, seed=4, backend="dask")
    local = simulate("spokelse", "threshold:k=5", rounds=20_000, seed=4)
    assert remote.without_timing() == local.without_timing()
    assert remote.provenance["backend"] == "dask"


@pytest.mark.slow
def test_a_user_strategy_file_plays_on_the_workers(scheduler):
    args = ("spokelse", "--plugin", str(EXAMPLE), "-s", "lowball:keep=3", "-s", "threshold:k=4",
            "--rounds", "40000", "--seed", "2")  # fmt: skip
    r = run("simulate", *args, "--backend", "dask", "--scheduler", scheduler, "--json")
    assert r.exit_code == 0, r.output
    remote = json_without_timing(r.stdout)
    assert remote["seats"][0]["player"] == "lowball:keep=3"
    assert remote == local_json(*args)


@pytest.mark.slow
def test_records_from_the_workers_match_local_records(scheduler, tmp_path):
    args = ("spokelse", "-s", "threshold:k=4", "--matches", "6000", "--seed", "8", "--records")
    r = run("simulate", *args, "--backend", "dask", "--scheduler", scheduler, "--out", str(tmp_path / "d"))
    assert r.exit_code == 0, r.output
    r = run("simulate", *args, "--out", str(tmp_path / "l"))
    assert r.exit_code == 0, r.output
    remote, local = read_records(tmp_path / "d"), read_records(tmp_path / "l")
    assert len(remote) == 6000
    assert remote.equals(local)


# --- bad options --------------------------------------------------------------------------

BAD = [
    (["--backend", "spark"], "--backend"),
    (["--workers", "2"], "--workers is for --backend dask"),
    (["--scheduler", "tcp://127.0.0.1:8786"], "--scheduler is for --backend dask"),
    (["--backend", "dask", "--threads", "1"], "--threads is for --backend local"),
    (["--backend", "dask", "--workers", "0"], "at least 1"),
    (["--backend", "dask", "--workers", "2", "--scheduler", "tcp://127.0.0.1:8786"], "cannot be used with"),
    (["--records"], "--records needs --out"),
    (["--resume"], "--resume needs --out"),
]


@pytest.mark.parametrize(("extra", "message"), BAD)
def test_bad_backend_options_are_one_line(extra, message):
    r = run("simulate", "spokelse", "-s", "passive", "--rounds", "100", "--seed", "1", *extra)
    assert r.exit_code == 2, r.output
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("error:") and message in lines[0]


def test_an_unreachable_scheduler_is_one_line_within_the_timeout():
    t0 = time.monotonic()
    r = run("simulate", "spokelse", "-s", "passive", "--rounds", "100", "--seed", "1",
            "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9", "--connect-timeout", "2")  # fmt: skip
    assert time.monotonic() - t0 < 15
    assert r.exit_code == 2, r.output
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in lines[0], r.stderr


def test_unknown_backend_in_the_api():
    with pytest.raises(InputError, match="unknown backend 'spark'"):
        simulate("spokelse", "passive", rounds=10, seed=1, backend="spark")
