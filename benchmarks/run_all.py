"""kortsim's benchmarks in one run: speed against the C yardstick, compile time, peak memory.

    python benchmarks/run_all.py                   # the full run (about 30 minutes on a busy 2-core machine)
    python benchmarks/run_all.py --quick           # sizes / 10, 2 repetitions (a check that it all runs)
    python benchmarks/run_all.py --markdown FILE   # also write the markdown to FILE
    python benchmarks/run_all.py --only compile    # one section (throughput, compile, plugin, memory)

Every measurement is a child process: each game's own C yardstick (``../shared/bench/``:
``spokelse_limit.c``, ``gris_limit.c`` and ``gris_nese_limit.c`` with ``-DFULL_REACTION``,
built into a temporary folder) and ``kortsim`` commands.  For every registered game and seat
count the yardstick and the game's benchmark command run in turn, ``--repeats`` times, both
on ``--threads`` threads; each ratio is kortsim's rounds/s (``games_per_s``: compiling
excluded) over the yardstick's from the same pair, and the table gives their median; match
play is set against the yardstick's rounds/s over kortsim's mean rounds per match.  Compile
times are measured with fresh, empty numba cache folders (cold) and a second process on the
same folder (cached), as wall and CPU seconds of the whole process; the plugin is
``examples/my_strategy.py`` copied to a temporary folder.  Peak memory is the child's maximum
resident set.  Progress goes to stderr; stdout is markdown to paste into
``benchmarks/README.md``.  These are benchmarks, not tests: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import NoReturn

import benchkit as bk
from benchkit import BenchError, Child, say, span, table


@dataclass(frozen=True)
class Bench:
    """A game's benchmark: strategy spec (all seats), the seat counts measured (None: the
    game's default), rounds per kortsim run and per yardstick run, matches per match run,
    and the game's own C yardstick."""

    spec: str
    seats: tuple[int | None, ...]
    rounds: int
    yard_rounds: int
    matches: int
    yardstick: bk.Yardstick | None = None


# The benchmark of each game, against its own yardstick (../shared/bench/README.md); a
# registered game missing here is run with its first shipped strategy on its default seats
# and no yardstick (the table says so).  -DFULL_REACTION: the Gris yardsticks draw every
# seat's reaction time in every round, as kortsim must for per-seat profiles.
BENCH = {
    "spokelse": Bench(
        "threshold:k=4", (None,), 10_000_000, 20_000_000, 300_000, bk.Yardstick("spokelse_limit.c")
    ),
    "gris": Bench(
        "greedy",
        (3, 4, 6, 8),
        2_000_000,
        20_000_000,
        200_000,
        bk.Yardstick("gris_limit.c", ("-DFULL_REACTION",)),
    ),
    "gris-nese": Bench(
        "greedy",
        (3, 5, 6, 8),
        2_000_000,
        20_000_000,
        300_000,
        bk.Yardstick("gris_nese_limit.c", ("-DFULL_REACTION",)),
    ),
}
MATCH_SEATS = {"gris": 4, "gris-nese": 5}  # match play at the main seat count only
DEFAULT_ROUNDS = 4_000_000
YARDSTICK_K = 8  # spokelse_limit's k in half points: threshold:k=4
MEMORY_GAME, MEMORY_ROUNDS = "spokelse", 100_000_000
PLUGIN_FILE = Path("examples") / "my_strategy.py"
PLUGIN_GAME, PLUGIN_SPECS = "spokelse", ("lowball:keep=3", "threshold:k=4")
SECTIONS = ("throughput", "compile", "plugin", "memory")


@dataclass
class Context:
    """What every section needs: settings, the children's environment, the yardstick."""

    games: dict[str, tuple[Bench, bool]]  # game id -> (its benchmark, from the BENCH table)
    env: dict[str, str]
    threads: int
    repeats: int
    scale: int
    yardsticks: dict[str, Path]  # game id -> its built yardstick (missing: none could be built)
    tmp: Path
    cold_caches: dict[str, Path] = field(default_factory=dict)
    loads: list[float] = field(default_factory=list)

    def child(self, cmd: list[str], what: str, cache: Path | None = None) -> Child:
        env = dict(self.env)
        if cache is not None:
            env["NUMBA_CACHE_DIR"] = str(cache)
        self.loads.append(bk.load())
        say(f"  {what} ...")
        return bk.run_child(cmd, env, what=what)

    def fresh_cache(self, name: str) -> Path:
        return Path(tempfile.mkdtemp(prefix=f"numba-{name}-", dir=self.tmp))


def kortsim(*args: str) -> list[str]:
    return [sys.executable, "-m", "simulator.cli", *args]


def shown(args: list[str]) -> str:
    return "`kortsim " + " ".join(args) + "`"


def game_args(
    game: str, bench: Bench, unit: str, n: int, threads: int, seed: int, seats: int | str | None = None
) -> list[str]:
    seats = seats if seats is not None else bench.seats[0]
    seats = ["--players", str(seats)] if seats else []
    tail = ["--threads", str(threads), "--seed", str(seed), "--json"]
    return ["simulate", game, *seats, "-s", bench.spec, f"--{unit}", str(n), *tail]


# --- speed against the yardstick ------------------------------------------------------


def yardstick_cmd(game: str, binary: Path, n: int, threads: int, seats: int | str | None) -> list[str]:
    """The yardstick's command line: spokelse_limit N K; the Gris ones N THREADS PLAYERS."""
    if game == "spokelse":
        return [str(binary), str(n), str(YARDSTICK_K)]
    return [str(binary), str(n), str(threads), str(seats)]


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def pairs(ctx: Context, game: str, bench: Bench, seats: int | None, unit: str) -> tuple[list, list, list]:
    """``--repeats`` alternating pairs (yardstick, then kortsim): yardstick rounds/s, kortsim
    games/s (rounds or matches; compiling excluded), kortsim's mean rounds per match."""
    y_rates, k_rates, per_match = [], [], []
    n = (bench.rounds if unit == "rounds" else bench.matches) // ctx.scale
    binary = ctx.yardsticks.get(game)
    for seed in range(1, ctx.repeats + 1):
        if binary is not None:
            cmd = yardstick_cmd(game, binary, bench.yard_rounds // ctx.scale, ctx.threads, seats)
            y = ctx.child(cmd, f"{game} {seats or ''}: yardstick {seed}")
            y_rates.append(bk.yardstick_rate(y.stdout))
        k = ctx.child(
            kortsim(*game_args(game, bench, unit, n, ctx.threads, seed, seats)), f"{game}: {unit} {seed}"
        )
        out = json.loads(k.stdout)
        k_rates.append(out["games_per_s"])
        if unit == "matches":
            per_match.append(out["mean_rounds"])
    return y_rates, k_rates, per_match


def ratio_cells(ratios: list[float]) -> list[str]:
    if not ratios:
        return ["—", "—"]
    return [f"{median(ratios):.2f}x", span(ratios, "{:.2f}") + "x"]


def throughput(ctx: Context) -> str:
    rows, match_rows = [], []
    for game, (bench, known) in ctx.games.items():
        for seats in bench.seats:
            ctx.child(
                kortsim(*game_args(game, bench, "rounds", 1000, ctx.threads, 1, seats)), f"{game}: warm-up"
            )
            y_rates, k_rates, _ = pairs(ctx, game, bench, seats, "rounds")
            ratios = [k / y for k, y in zip(k_rates, y_rates, strict=False)]
            label = f"{game}, {seats or 2} seats" + ("" if known else " (first shipped strategy)")
            y_text = f"{median(y_rates):,.0f}" if y_rates else "—"
            rows.append([label, y_text, f"{median(k_rates):,.0f}", *ratio_cells(ratios)])
        seats = MATCH_SEATS.get(game, bench.seats[0])
        y_rates, k_rates, per_match = pairs(ctx, game, bench, seats, "matches")
        y_matches = [y / r for y, r in zip(y_rates, per_match, strict=False)]
        ratios = [k / y for k, y in zip(k_rates, y_matches, strict=False)]
        y_text = f"{median(y_matches):,.0f}" if y_matches else "—"
        match_rows.append(
            [
                f"{game}, {seats or 2} seats",
                f"{median(per_match):.2f}",
                y_text,
                f"{median(k_rates):,.0f}",
                *ratio_cells(ratios),
            ]
        )
    commands = []
    for game, (bench, _) in ctx.games.items():
        p = "P" if bench.seats[0] else None  # the seat count of the row
        r = shown(game_args(game, bench, "rounds", bench.rounds // ctx.scale, ctx.threads, 0, p))
        m = shown(game_args(game, bench, "matches", bench.matches // ctx.scale, ctx.threads, 0, p))
        yard = ctx.yardsticks.get(game)
        y = "no yardstick"
        if yard is not None:
            cmd = yardstick_cmd(game, yard, bench.yard_rounds // ctx.scale, ctx.threads, p)
            y = "`" + " ".join([yard.name, *cmd[1:]]) + "`"
        commands.append(f"- {game}: {r}, {m}; yardstick {y}".replace("--seed 0", "--seed N"))
    return (
        "### Rounds per second against each game's own yardstick\n\n"
        f"Each game against its own C yardstick, both on {ctx.threads} threads (OMP_NUM_THREADS, "
        f"NUMBA_NUM_THREADS, `--threads`); {ctx.repeats} alternating pairs per row (yardstick, then "
        "kortsim), seeds N = 1..; medians over the pairs, the ratio per pair (higher is better; "
        "1.00x is the C limit); P is the row's seat count.\n\n"
        + "\n".join(commands)
        + "\n\n"
        + table(
            ["game, seats", "yardstick rounds/s", "kortsim rounds/s", "ratio (median)", "ratio (range)"], rows
        )
        + "\n\n### Matches per second against the yardstick\n\n"
        "kortsim's `--matches` rate against the yardstick's rounds/s of the same pair divided by "
        "kortsim's mean rounds per match (a Gris-nese match plays its rounds at fewer and fewer "
        "seats; the yardstick rate is that of the starting seat count).\n\n"
        + table(
            [
                "game, seats",
                "rounds per match",
                "yardstick matches/s",
                "kortsim matches/s",
                "ratio (median)",
                "ratio (range)",
            ],
            match_rows,
        )
    )


# --- compile time ----------------------------------------------------------------------


def compile_child(game: str) -> None:
    """In a child: play a tiny run of ``game``'s rounds and matches with records (what
    ``kortsim warm`` compiles for it); print the compile seconds kortsim reports."""
    import simulator

    bench = BENCH.get(game) or first_strategy(game)
    threads = int(os.environ.get("NUMBA_NUM_THREADS", "2"))
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for unit, n in (("rounds", 1000), ("matches", 20)):
            kwargs = {unit: n, "players": bench.seats[0], "seed": 1, "records": True, "threads": threads}
            r = simulator.simulate(game, bench.spec, out=Path(tmp) / unit, **kwargs)
            out.append(r.summary["compile_s"])
    print(json.dumps({"compile_s": out}))


def compile_times(ctx: Context) -> str:
    rows = []
    me = [sys.executable, str(Path(__file__).resolve())]
    for game, (bench, _) in ctx.games.items():
        cache = ctx.fresh_cache(game)
        runs = [
            ctx.child([*me, "--child-compile", game], f"{game}: compile, {w}", cache)
            for w in ("cold", "cached")
        ]
        ctx.cold_caches[game] = cache
        cells = []
        for run in runs:
            compile_s = sum(json.loads(run.stdout.strip().splitlines()[-1])["compile_s"])
            cells += [f"{run.wall_s:.1f} s", f"{run.cpu_s:.1f} s", f"{compile_s:.1f} s"]
        rows.append([f"{game} (`-s {bench.spec}`)", *cells])
    cache = ctx.fresh_cache("warm")
    warm = [ctx.child(kortsim("warm"), f"kortsim warm, {w}", cache) for w in ("cold", "cached")]
    cells = []
    for run in warm:
        cells += [f"{run.wall_s:.1f} s", f"{run.cpu_s:.1f} s", "—"]
    rows.append(["`kortsim warm` (every game)", *cells])
    header = ["shipped kernels", "cold wall", "cold CPU", "cold compile_s"]
    header += ["cached wall", "cached CPU", "cached compile_s"]
    return (
        "### Compile time, shipped kernels\n\nCold: a fresh process on an empty numba cache folder; "
        "cached: a second process on the same folder.  A game's row plays 1,000 rounds and 20 "
        "matches with records in one process (the kernels `kortsim warm` compiles for it); wall "
        "and CPU are the whole process, Python and numba imports included; compile_s is kortsim's "
        "own figure (compiling or loading from the cache), summed over the two runs.\n\n"
        + table(header, rows)
    )


def plugin(ctx: Context) -> str:
    folder = Path(tempfile.mkdtemp(prefix="plugin-", dir=ctx.tmp))
    path = folder / PLUGIN_FILE.name
    shutil.copyfile(bk.ROOT / PLUGIN_FILE, path)
    specs = [a for s in PLUGIN_SPECS for a in ("-s", s)]
    args = [
        "simulate",
        PLUGIN_GAME,
        "--plugin",
        str(path),
        *specs,
        "--rounds",
        "1000",
        "--seed",
        "1",
        "--json",
    ]
    rows = []
    cache = ctx.cold_caches.get(PLUGIN_GAME)
    if cache is None:
        cache = ctx.fresh_cache("plugin")
        bench = ctx.games[PLUGIN_GAME][0]
        ctx.child(
            kortsim(*game_args(PLUGIN_GAME, bench, "rounds", 1000, ctx.threads, 1)),
            "plugin: shipped kernels",
            cache,
        )
    for what in ("first run", "second run, same file", "third run, after a line is added to the file"):
        if what.startswith("third"):
            with path.open("a") as f:
                f.write("\n# edited\n")
        run = ctx.child(kortsim(*args), f"plugin: {what}", cache)
        compile_s = json.loads(run.stdout)["compile_s"]
        rows.append([what, f"{compile_s:.1f} s", f"{run.wall_s:.1f} s", f"{run.cpu_s:.1f} s"])
    command = shown(args).replace(str(path), PLUGIN_FILE.name)
    return (
        f"### Compile time, a plugin\n\n{command}, with `{PLUGIN_FILE.name}` a copy of `{PLUGIN_FILE}` "
        "in a temporary folder, three processes on one numba cache folder that already holds "
        f"the shipped {PLUGIN_GAME} kernels.  compile_s is from `--json`; wall and CPU are the "
        "whole process.\n\n" + table(["run", "compile_s", "wall", "CPU"], rows)
    )


# --- memory ----------------------------------------------------------------------------


def memory(ctx: Context) -> str:
    bench = ctx.games[MEMORY_GAME][0]
    rows = []
    for n in (MEMORY_ROUNDS // ctx.scale // 100, MEMORY_ROUNDS // ctx.scale):
        args = game_args(MEMORY_GAME, bench, "rounds", n, ctx.threads, 1)
        run = ctx.child(kortsim(*args), f"memory: {n:,} rounds")
        rate = json.loads(run.stdout)["games_per_s"]
        rows.append([shown(args), f"{n:,}", f"{run.peak_mb:,.0f} MB", f"{rate:,.0f}"])
    return "### Peak memory\n\nMaximum resident set of the whole `kortsim` process (no records).\n\n" + table(
        ["command", "rounds", "peak memory", "rounds/s"], rows
    )


# --- the run ---------------------------------------------------------------------------


def first_strategy(game: str) -> Bench:
    from strategies.registry import families

    return Bench(next(iter(families(game))), (None,), DEFAULT_ROUNDS, 0, DEFAULT_ROUNDS // 100)


def registered_games() -> dict[str, tuple[Bench, bool]]:
    from simulator.games import all_games

    return {
        name: (BENCH[name], True) if name in BENCH else (first_strategy(name), False) for name in all_games()
    }


def versions() -> str:
    def v(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "?"

    return f"Python {sys.version.split()[0]}, numpy {v('numpy')}, numba {v('numba')}"


def header(args: argparse.Namespace, yard_label: str, start_load: float) -> str:
    cmd = ["python", "benchmarks/run_all.py"] + (["--quick"] if args.quick else [])
    cmd += [f"--repeats {args.repeats}"] if args.repeats_given else []
    cmd += [f"--threads {args.threads}"] if args.threads != 2 else []
    cmd += ["--yardsticks FOLDER"] if args.yardsticks != bk.ROOT / bk.YARDSTICK_FOLDER else []
    cmd += [f"--only {s}" for s in args.only or ()]
    lines = [
        f"## Benchmarks, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        "",
        f"- command: `{' '.join(cmd)}`",
        f"- machine: {os.uname().machine}, {os.cpu_count()} cores ({bk.cpu_model()}), "
        f"{bk.memory_gib():.1f} GiB; {os.uname().sysname} {os.uname().release}",
        f"- software: {versions()}; kortsim commit {bk.revision()}",
        f"- yardsticks (each game its own): {yard_label}",
        f"- threads: {args.threads} for both (OMP_NUM_THREADS, NUMBA_NUM_THREADS and `--threads`)",
        f"- load average (1 min) at start: {start_load:.2f}"
        + (f" (**above {bk.LOAD_WARNING}: rates unreliable**)" if start_load > bk.LOAD_WARNING else ""),
    ]
    return "\n".join(lines)


def footer(ctx: Context, start_load: float, seconds: float) -> str:
    end = bk.load()
    high = max([start_load, end, *ctx.loads])
    # The measured commands keep ``threads`` cores busy themselves: only load beyond that
    # (and any at the start) is other work sharing the machine.
    limit = ctx.threads + bk.LOAD_WARNING - 1.0
    lines = [
        f"Load average (1 min): {start_load:.2f} at start, {end:.2f} at end, {high:.2f} at most "
        f"(the measured commands themselves keep {ctx.threads} cores busy)."
    ]
    if high > limit or start_load > bk.LOAD_WARNING:
        what = (
            f"went above {limit:.1f}"
            if high > limit
            else f"was {start_load:.2f} at the start (above {bk.LOAD_WARNING})"
        )
        lines.append(
            f"**Warning:** the load average {what}: other work shared the machine, so rates and "
            "wall times are unreliable (CPU times and same-pair ratios less so)."
        )
    lines.append(f"The whole run took {seconds / 60:.1f} minutes.")
    return "\n\n".join(lines)


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"run_all: {message} (see --help)\n")


def parse(argv: list[str] | None) -> argparse.Namespace:
    ap = Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="sizes / 10, 2 repetitions, 10^7 rounds for memory")
    ap.add_argument(
        "--repeats", type=int, metavar="N", default=None, help="yardstick/kortsim pairs per row (default 3)"
    )
    ap.add_argument(
        "--threads", type=int, metavar="N", default=2, help="threads of the yardstick and kortsim (default 2)"
    )
    ap.add_argument(
        "--yardsticks",
        metavar="FOLDER",
        type=Path,
        default=bk.ROOT / bk.YARDSTICK_FOLDER,
        help="the folder of the C yardsticks' sources, built per run (default: ../shared/bench)",
    )
    ap.add_argument("--markdown", type=Path, metavar="FILE", help="also write the markdown to this file")
    ap.add_argument("--only", action="append", choices=SECTIONS, help="run only this section (repeatable)")
    ap.add_argument("--child-compile", metavar="GAME", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    args.repeats_given = args.repeats is not None
    args.repeats = args.repeats if args.repeats_given else (2 if args.quick else 3)
    if args.repeats < 1 or args.threads < 1:
        ap.error("--repeats and --threads must be at least 1")
    if not args.yardsticks.is_dir():
        ap.error(f"--yardsticks {args.yardsticks}: no such folder")
    if args.markdown is not None and not args.markdown.parent.is_dir():
        ap.error(f"--markdown {args.markdown}: no such folder {args.markdown.parent}")
    return args


def children_env(threads: int) -> dict[str, str]:
    """The environment of every child: this interpreter's kortsim, the thread counts."""
    import simulator

    tree = str(Path(simulator.__file__).resolve().parent.parent)
    path = os.pathsep.join(p for p in (tree, os.environ.get("PYTHONPATH")) if p)
    t = str(threads)
    return {**os.environ, "PYTHONPATH": path, "OMP_NUM_THREADS": t, "NUMBA_NUM_THREADS": t}


def run(args: argparse.Namespace, tmp: Path) -> str:
    start, t0 = bk.load(), time.perf_counter()
    games = registered_games()
    built, labels = {}, []
    for game, (bench, _) in games.items():
        if bench.yardstick is None:
            continue
        binary, label = bk.build_yardstick(
            args.yardsticks / bench.yardstick.source, tmp, bench.yardstick.defines
        )
        labels.append(f"  - {game}: {label}")
        if binary is None:
            say(label)
        else:
            built[game] = binary
    yard_label = ("\n" + "\n".join(labels)) if labels else "none"
    ctx = Context(
        games, children_env(args.threads), args.threads, args.repeats, 10 if args.quick else 1, built, tmp
    )
    parts = [header(args, yard_label, start)]
    print(parts[0] + "\n", flush=True)
    if start > bk.LOAD_WARNING:
        say(f"warning: load average {start:.2f} > {bk.LOAD_WARNING}: the rates will be unreliable")
    steps = {"throughput": throughput, "compile": compile_times, "plugin": plugin, "memory": memory}
    for name in SECTIONS:
        if args.only and name not in args.only:
            continue
        say(f"{name}:")
        parts.append(steps[name](ctx))
        print(parts[-1] + "\n", flush=True)
    parts.append(footer(ctx, start, time.perf_counter() - t0))
    print(parts[-1])
    return "\n\n".join(parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.child_compile:
        compile_child(args.child_compile)
        return 0
    try:
        with tempfile.TemporaryDirectory(prefix="kortsim-bench-") as tmp:
            text = run(args, Path(tmp))
    except BenchError as exc:
        print(f"run_all: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("run_all: interrupted; nothing was written", file=sys.stderr)
        return 130
    if args.markdown:
        try:
            args.markdown.write_text(text)
        except OSError as exc:
            print(f"run_all: cannot write --markdown {args.markdown}: {exc.strerror}", file=sys.stderr)
            return 1
        say(f"markdown written to {args.markdown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
