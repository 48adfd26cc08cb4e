"""One sitting at the table: check the input, play the match, then the advice and (Gris
games) your reaction times; :func:`play` is what ``kortsim play`` calls."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any

from simulator.engine import player_file
from simulator.engine.reaction_file import check_target, clamped, fit, write_profile
from simulator.errors import InputError
from simulator.games import Game, get_game
from simulator.running.setup import Setup, check_game_index
from simulator.tabletop.console import Seat, Terminal
from simulator.tabletop.outcome import Outcome, Reactions

DEFAULT_WAIT = (1.0, 4.0)  # seconds before another player's signal is shown, uniform
MAX_WAIT = 60.0
MAX_SAMPLES = 100_000


def check_wait(wait: Sequence[float] | str) -> tuple[float, float]:
    """``MIN,MAX`` seconds, 0 <= MIN <= MAX <= 60."""
    text = wait if isinstance(wait, str) else ",".join(str(w) for w in wait)
    try:
        lo, hi = (float(x) for x in text.split(","))
    except ValueError:
        raise InputError(f"--signal-wait {text!r}: write MIN,MAX in seconds, e.g. 1,4") from None
    if not 0 <= lo <= hi <= MAX_WAIT:
        raise InputError(f"--signal-wait {text!r}: need 0 <= MIN <= MAX <= {MAX_WAIT:g} seconds")
    return lo, hi


def bot_specs(vs: Sequence[str], n: int, default: str) -> list[str]:
    """One spec for every bot seat, or one per bot seat (seats 1 to n-1) in order."""
    vs = list(vs) or [default]
    if len(vs) == 1:
        return vs * (n - 1)
    if len(vs) != n - 1:
        seats = f"{n - 1} bot seat{'s' if n > 2 else ''}"
        raise InputError(f"--vs given {len(vs)} times for {seats}: give it once, or once per bot")
    return vs


def prepare(game: str, vs: Sequence[str], players: int | None, seed: int | None, rules: Any, reaction: Any):
    """The checked setup: seat 0 holds the advisor (your seat's stand-in), the others the bots."""
    g = get_game(game)
    table = table_module(g)
    n = g.default_seats if players is None else int(players)
    if not g.min_seats <= n <= g.max_seats:
        g.table(rules, n)  # the game's own one-line refusal
    specs = [table.ADVISOR, *bot_specs(vs, n, g.default_opponent or table.ADVISOR)]
    setup = Setup.build(g, specs, rounds=1, seed=seed, rules=rules, players=n, reaction=reaction)
    return g, table, setup


def table_module(g: Game) -> ModuleType:
    """The game's table module (``Game.tabletop_module``): its ``ADVISOR`` spec and ``sit``."""
    if not g.tabletop_module:
        raise InputError(f"{g.name} cannot be played at the table yet")
    return import_module(g.tabletop_module)


def play(
    game: str,
    vs: Sequence[str] = (),
    *,
    players: int | None = None,
    seed: int | None = None,
    rules: Mapping[str, Any] | Any = None,
    reaction: Sequence[str] | None = None,
    seat: Seat | None = None,
    advice_samples: int = 50,
    save_reaction: str | Path | None = None,
    signal_wait: Sequence[float] | str = DEFAULT_WAIT,
    game_index: int = 0,
    save_profile: str | Path | None = None,
    face_down: bool = False,
) -> Outcome:
    """Play a match against the bots at ``seat`` (a terminal unless given), then advise.

    Parameters
    ----------
    game
        A game id.
    vs
        The bots' strategy specs: one for every bot seat, or one per bot seat in seat order
        (default: the game's default opponent, or ``expect`` in Spøkelse).
    players, seed, rules, reaction
        As for :func:`simulator.simulate`; ``reaction`` sets the bots' profiles.  You sit in
        seat 0.  ``seed`` None draws one (it is shown, so the deals can be replayed).
    seat
        Who plays seat 0: :class:`~simulator.tabletop.console.Terminal` (default) or
        :class:`~simulator.tabletop.console.Scripted`.
    advice_samples
        Continuations per differing Spøkelse decision for its cost (0: no cost estimate).
    save_reaction
        Gris games: write your reaction profile there (:mod:`simulator.engine.reaction_file`).
    signal_wait
        ``(MIN, MAX)`` seconds before another player's signal is shown, uniform.
    game_index
        Which game of the run with this seed is played (its streams), default 0.
    save_profile
        Write your player profile there (:mod:`simulator.engine.player_file`): in Spøkelse the
        estimate of your ``forget`` from your choices (``-s expect@FILE`` plays it), in the
        Gris games your reaction profile.
    face_down
        Spøkelse: the cards in the rows show only their backs, as at a real table (you see
        slots 0 and 1 once as each round begins, and a card while it is in your hand), and
        your ``forget`` is estimated at the end.

    Returns
    -------
    Outcome

    Raises
    ------
    InputError
        For bad input (one line).
    simulator.tabletop.console.Left
        When you leave (Ctrl-C, end of input).
    """
    if isinstance(advice_samples, bool) or not isinstance(advice_samples, int):
        raise InputError(f"--advice-samples takes a whole number, not {advice_samples!r}")
    if not 0 <= advice_samples <= MAX_SAMPLES:
        raise InputError(f"--advice-samples {advice_samples}: give 0 to {MAX_SAMPLES:,}")
    wait = check_wait(signal_wait)
    game_index = check_game_index(game_index)
    g, table, setup = prepare(game, vs, players, seed, rules, reaction)
    if save_reaction is not None and not g.uses_reaction:
        raise InputError(f"{g.name} has no reaction; --save-reaction is for the Gris games")
    if save_reaction is not None:
        check_target(save_reaction)
    if face_down and g.uses_reaction:
        raise InputError(f"--face-down is for Spøkelse (in {g.name} your hand is always in view)")
    if save_profile is not None:
        player_file.check_target(save_profile)
    extra = {"face_down": bool(face_down), "memory": bool(face_down) or save_profile is not None}
    seat = seat or Terminal()
    seat.show(f"kortsim play {g.name}, seed {setup.seed} (--seed {setup.seed} replays these deals)")
    outcome = table.sit(
        seat, setup, samples=advice_samples, wait=wait, index=game_index, **({} if g.uses_reaction else extra)
    )
    if g.uses_reaction:
        for line in reaction_lines(outcome.reactions, setup.table.reaction[1:]):
            seat.show(line)
        if save_reaction is not None:
            outcome.profile = write_profile(save_reaction, outcome.reactions.times)
            for key in outcome.profile["clamped"]:
                seat.show(
                    f"note: the fitted {key} {outcome.profile[key + '_fitted']:.3g} is outside the range a "
                    f"profile may take; saved as {outcome.profile[key]:g}"
                )
            seat.show(
                f"wrote your reaction profile to {save_reaction} (use: --reaction SEAT={save_reaction})"
            )
    if save_profile is not None:
        _save_profile(seat, save_profile, g, outcome)
    return outcome


def _save_profile(seat: Seat, path: str | Path, g: Game, outcome: Outcome) -> None:
    """Write the player profile of ``outcome`` and say how to use it."""
    memory = outcome.memory.to_json() if outcome.memory is not None else None
    reaction = None
    if g.uses_reaction and len(outcome.reactions.times) >= 2:
        reaction = clamped(fit(outcome.reactions.times))  # as --save-reaction writes it
    if memory is None and reaction is None:
        seat.show(f"nothing measured to save in {path} (no decisions or fewer than two reaction times)")
        return
    player_file.write(path, g.name, memory=memory, reaction=reaction)
    uses = []
    if memory is not None:
        uses.append(f"-s {g.best_strategy}@{path}")
    if reaction is not None:
        uses.append(f"--reaction SEAT={path}")
    seat.show(f"wrote your player profile to {path} (use: {' or '.join(uses)})")


def reaction_lines(reactions: Reactions, bots: Sequence[tuple[float, float]] = ()) -> list[str]:
    """Your measured reaction times: how many, the median and spread with 95% intervals."""
    n = len(reactions.times)
    if n == 0:
        return ["No reaction times were measured."]
    if n == 1:
        return [f"Your one reaction time: {reactions.times[0]:.3f} s (too few for an interval)."]
    p = fit(reactions.times)
    (mlo, mhi), (slo, shi) = p["median_s_ci"], p["sigma_ci"]
    own = sum(k == "own" for k in reactions.kinds)
    return [
        f"Your reaction times: {n} ({own} on your own hand, {n - own} following a signal); "
        f"median {p['median_s']:.3f} s [{mlo:.3f}, {mhi:.3f}], "
        f"spread sigma {p['sigma']:.2f} [{slo:.2f}, {shi:.2f}] (log-normal fit, 95% intervals)"
        + (
            "; the bots: " + "; ".join(f"median {m:g} s, sigma {s:g}" for m, s in sorted(set(bots)))
            if bots
            else ""
        )
        + "."
    ]
