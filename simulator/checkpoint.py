"""Run folders: a run written to ``--out DIR`` as it goes, so that no finished work is lost.

Layout of ``DIR``::

    run.json          what the run is: its settings (game, unit, seed, players, rules,
                      reaction, every seat's strategy with a hash of its source), their
                      hash, the number of games asked for, whether records are kept
    progress.json     the finished blocks: the game ranges done (merged), the integer
                      sum of their aggregates, the seconds spent playing them
    summary.parquet   the figures, with provenance (written when the run finishes, and
                      for the finished games when it is stopped)
    records/          with --records: one Parquet file per block (simulator/records.py)
    .lock             held by the process working on the run

Every file is written under a temporary name and renamed into place, so a
process killed at any moment (even by SIGKILL) leaves each file either as it
was or as it is meant to be.  A block's records are in place before
``progress.json`` counts the block as done; records of a block that was not
counted yet are removed when the run is resumed, and the block is played again.

Because every game's randomness is keyed by ``(seed, game index)`` and
aggregates are integer sums, a resumed run ends with exactly the numbers of an
uninterrupted one, and a finished run can be extended to more games.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from simulator.backends import merge_ranges, missing_ranges
from simulator.games.base import InputError, Table
from simulator.results import Result, package_version, settings_hash
from strategies.registry import Player

RUN_FILE = "run.json"
PROGRESS_FILE = "progress.json"
SUMMARY_FILE = "summary.parquet"
LOCK_FILE = ".lock"
RUN_FORMAT = 1
FSYNC_EVERY_S = 1.0  # progress.json is renamed into place after every block, fsynced this often


class RunInterrupted(Exception):
    """A run was stopped (``stop`` set, or Ctrl-C with ``--out``) before it finished.

    ``result`` holds the figures of the ``games`` finished (None if there were none);
    with ``out``, they are persisted there and the run can be resumed."""

    def __init__(self, out: Path | None, games: int, planned: int, unit: str, result: Result | None) -> None:
        self.out, self.games, self.planned, self.unit, self.result = out, games, planned, unit, result
        units = _plural(unit)
        where = f"{out} holds" if out is not None else "finished"
        how = "; resume it with resume=True (--resume) and the same settings" if out is not None else ""
        super().__init__(f"stopped: {where} {games:,} of {planned:,} {units}{how}")


def run_settings(table: Table, players: Sequence[Player], unit: str, seed: int) -> dict[str, Any]:
    """Everything that decides a run's games: a resumed run must match all of it."""
    return {
        "game": table.game.name,
        "unit": unit,
        "seed": int(seed),
        "players": table.n_seats,
        "rules": table.rules_dict(),
        "reaction": [list(r) for r in table.reaction],
        "strategies": [{"spec": p.spec, "source_sha256": p.family.source_hash()} for p in players],
    }


def atomic_write(path: Path, data: bytes, fsync: bool = True) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder and a rename."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        if fsync:
            f.flush()
            os.fsync(f.fileno())
    os.replace(tmp, path)
    if fsync:
        _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not every platform can open a folder
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _json(doc: Any) -> bytes:
    return (json.dumps(doc, indent=1, ensure_ascii=False) + "\n").encode()


def _read_json(path: Path, what: str) -> dict[str, Any]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{path} ({what}) cannot be read: {exc}") from None
    if not isinstance(doc, dict):
        raise InputError(f"{path} ({what}) is not a kortsim run file")
    return doc


def stored_seed(out: str | Path) -> int | None:
    """The seed of the run in ``out``, if there is one (``--resume`` without ``--seed``)."""
    path = Path(out) / RUN_FILE
    if not path.is_file():
        return None
    seed = _read_json(path, "the run's settings").get("settings", {}).get("seed")
    return int(seed) if isinstance(seed, int) else None


def _plural(unit: str) -> str:
    return "rounds" if unit == "round" else "matches"


def _seats(strategies: list[dict]) -> str:
    specs = [s["spec"] for s in strategies]
    return specs[0] + " (every seat)" if len(set(specs)) == 1 else ", ".join(specs)


def differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What differs between a run's settings and this command's, in words."""
    out = []
    if old.get("game") != new["game"]:
        return [f"it is a {old.get('game')} run, not {new['game']}"]
    if old.get("unit") != new["unit"]:
        out.append(f"it plays {_plural(old.get('unit', '?'))}, not {_plural(new['unit'])}")
    if old.get("seed") != new["seed"]:
        out.append(f"its seed is {old.get('seed')}, not {new['seed']}")
    if old.get("players") != new["players"]:
        out.append(f"it has {old.get('players')} players, not {new['players']}")
    old_rules, new_rules = old.get("rules", {}), new["rules"]
    for key in sorted(set(old_rules) | set(new_rules)):
        if old_rules.get(key) != new_rules.get(key):
            out.append(f"its rule {key} is {old_rules.get(key)}, not {new_rules.get(key)}")
    if old.get("reaction") != new["reaction"]:
        out.append(f"its reaction profiles are {old.get('reaction')}, not {new['reaction']}")
    old_s, new_s = old.get("strategies", []), new["strategies"]
    if [s.get("spec") for s in old_s] != [s["spec"] for s in new_s]:
        out.append(f"its strategies are {_seats(old_s)}, not {_seats(new_s)}")
    else:
        for o, s in zip(old_s, new_s):
            if o.get("source_sha256") != s["source_sha256"]:
                out.append(f"strategy {s['spec']}'s code has changed since the run started")
                break
    return out


class RunFolder:
    """A run's folder, opened for this process (it holds the folder's lock until ``close``)."""

    def __init__(self, path: Path, meta: dict[str, Any], progress: dict[str, Any], lock: Any) -> None:
        self.path = path
        self.meta = meta
        self.done: list[tuple[int, int]] = [tuple(r) for r in progress["done"]]  # type: ignore[misc]
        self.agg = np.array(progress["agg"], dtype=np.int64)
        self.elapsed_before = float(progress.get("elapsed_s", 0.0))
        self.sessions = int(progress.get("sessions", 0)) + 1
        self._lock = lock
        self._clock: float | None = None
        self._synced = time.monotonic()

    # --- opening -------------------------------------------------------------------

    @classmethod
    def check(
        cls,
        out: str | Path,
        settings: dict[str, Any],
        n: int,
        *,
        width: int,
        records: bool,
        resume: bool,
    ) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """Refuse, in one line, a folder that :meth:`open` would refuse; writes nothing.
        For ``resume``, the run's settings and finished blocks as read."""
        path = Path(out)
        if path.exists() and not path.is_dir():
            raise InputError(f"--out {path} is a file, not a folder")
        if not resume:
            held = [f for f in (RUN_FILE, PROGRESS_FILE, SUMMARY_FILE) if (path / f).exists()]
            if held:
                raise InputError(
                    f"{path} already holds a run ({held[0]}); add --resume to continue or extend it, "
                    "or choose another --out folder"
                )
            return None
        if not (path / RUN_FILE).is_file():
            raise InputError(
                f"nothing to resume in {path} (no {RUN_FILE}); leave out --resume to start a run"
            )
        meta = _read_json(path / RUN_FILE, "the run's settings")
        if meta.get("kortsim_run") != RUN_FORMAT or "settings" not in meta:
            raise InputError(f"{path / RUN_FILE} is not a run this kortsim can resume")
        diffs = differences(meta["settings"], settings)
        if diffs:
            raise InputError(
                f"cannot resume {path}: {'; '.join(diffs)} (start a new run in another --out folder)"
            )
        if bool(meta.get("records")) != records:
            how = (
                "with --records; add --records"
                if meta.get("records")
                else "without --records; drop --records"
            )
            raise InputError(f"cannot resume {path}: it was started {how}")
        progress = _read_json(path / PROGRESS_FILE, "the finished blocks")
        done = merge_ranges([tuple(r) for r in progress.get("done", [])])
        if (
            progress.get("settings_hash") != meta.get("settings_hash")
            or progress.get("settings_hash") != settings_hash(settings)
            or progress.get("width") != width
            or len(progress.get("agg", [])) != width
            or sum(b - a for a, b in done) != progress.get("games")
        ):
            raise InputError(f"{path / PROGRESS_FILE} does not belong to this run's settings")
        covered = done[-1][1] if done else 0
        if covered > n:
            unit = meta["settings"]["unit"]
            raise InputError(
                f"{path} already holds {_plural(unit)} up to number {covered:,}: give "
                f"--{_plural(unit)} {covered} or more to resume it"
            )
        progress["done"] = [list(r) for r in done]
        return meta, progress

    @classmethod
    def open(
        cls,
        out: str | Path,
        settings: dict[str, Any],
        n: int,
        *,
        width: int,
        records: bool,
        resume: bool,
    ) -> RunFolder:
        """Start a run in ``out`` (refused if one is there), or resume the one there (refused if
        its settings differ from ``settings``; a larger ``n`` extends it)."""
        path = Path(out)
        cls.check(path, settings, n, width=width, records=records, resume=resume)
        path.mkdir(parents=True, exist_ok=True)
        lock = _lock(path)
        try:
            _remove_temporaries(path)
            # Read again under the lock: another process may have moved the run on meanwhile.
            found = cls.check(path, settings, n, width=width, records=records, resume=resume)
            if found is not None:
                meta, progress = found
                if n != meta.get("n"):
                    meta = {**meta, "n": n}
                    atomic_write(path / RUN_FILE, _json(meta))
            else:
                digest = settings_hash(settings)
                meta = {
                    "kortsim_run": RUN_FORMAT,
                    "settings": settings,
                    "settings_hash": digest,
                    "n": n,
                    "records": records,
                    "created": datetime.now(UTC).isoformat(timespec="seconds"),
                    "kortsim": package_version(),
                }
                progress = {
                    "settings_hash": digest,
                    "width": width,
                    "done": [],
                    "games": 0,
                    "agg": [0] * width,
                }
                atomic_write(path / RUN_FILE, _json(meta))
                atomic_write(path / PROGRESS_FILE, _json(progress))
        except BaseException:
            _unlock(lock)
            raise
        return cls(path, meta, progress, lock)

    # --- while running ----------------------------------------------------------------

    @property
    def n(self) -> int:
        return int(self.meta["n"])

    @property
    def games(self) -> int:
        return sum(b - a for a, b in self.done)

    @property
    def unit(self) -> str:
        return self.meta["settings"]["unit"]

    def gaps(self) -> list[tuple[int, int]]:
        """The games of ``[0, n)`` still to play."""
        return missing_ranges(self.n, self.done)

    def start_clock(self) -> None:
        self._clock = time.perf_counter()

    @property
    def elapsed_s(self) -> float:
        """Seconds spent playing, over every session of the run."""
        return self.elapsed_before + (time.perf_counter() - self._clock if self._clock is not None else 0.0)

    def add(self, first: int, count: int, agg: np.ndarray) -> None:
        """A block is finished: count it and persist it (its records must be written first)."""
        if any(a < first + count and first < b for a, b in self.done):
            raise RuntimeError(f"games {first}..{first + count - 1} are already counted in {self.path}")
        self.done = merge_ranges([*self.done, (first, first + count)])
        self.agg += agg
        self.save()

    def save(self, force_sync: bool = False) -> None:
        now = time.monotonic()
        sync = force_sync or now - self._synced >= FSYNC_EVERY_S
        progress = {
            "settings_hash": self.meta["settings_hash"],
            "width": int(self.agg.shape[0]),
            "done": [list(r) for r in self.done],
            "games": self.games,
            "agg": [int(x) for x in self.agg],
            "elapsed_s": self.elapsed_s,
            "sessions": self.sessions,
        }
        atomic_write(self.path / PROGRESS_FILE, _json(progress), fsync=sync)
        if sync:
            self._synced = now

    def write_summary(self, result: Result) -> Path:
        """``summary.parquet``, written whole or not at all."""
        tmp = self.path / f".summary-{os.getpid()}.tmp"
        tmp.mkdir(exist_ok=True)
        try:
            written = result.write(tmp)
            with open(written, "rb") as f:
                os.fsync(f.fileno())
            final = self.path / SUMMARY_FILE
            os.replace(written, final)
            _fsync_dir(self.path)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        return final

    def provenance(self, complete: bool) -> dict[str, Any]:
        return {
            "run": {
                "out": str(self.path),
                "settings_hash": self.meta["settings_hash"],
                "complete": complete,
                "games": self.games,
                "planned": self.n,
                "sessions": self.sessions,
                "records": bool(self.meta.get("records")),
            }
        }

    def close(self) -> None:
        """Make the last saved progress durable and release the folder.  Nothing is saved
        here: a run interrupted inside ``add`` must not persist a half-updated state."""
        if self._lock is not None:
            with contextlib.suppress(OSError), open(self.path / PROGRESS_FILE, "rb") as f:
                os.fsync(f.fileno())
            _unlock(self._lock)
            self._lock = None

    def __enter__(self) -> RunFolder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _remove_temporaries(path: Path) -> None:
    """Leftovers of a process killed while writing (no other process holds the lock)."""
    for p in path.glob(".*.tmp"):
        if p.is_dir():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)


def _lock(path: Path) -> Any:
    """An exclusive lock on the run folder, or a one-line refusal if another process has it."""
    f = open(path / LOCK_FILE, "a+b")  # noqa: SIM115 (held open until the run closes)
    try:
        import fcntl
    except ImportError:  # no advisory locks here (Windows): one process per folder is up to the user
        return f
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        raise InputError(f"{path} is in use by another kortsim process") from None
    return f


def _unlock(lock: Any) -> None:
    with contextlib.suppress(OSError):
        lock.close()  # closing the file releases the lock
