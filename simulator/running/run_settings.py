"""A run's settings (what decides its games) and, in words, how a command's differ from a
stored run's (why a resume is refused)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from simulator.games.base import Table
from strategies.registry import Player


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
