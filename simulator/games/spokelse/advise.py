"""Advice for one Spøkelse position as a player sees it (``kortsim advise``, docs/search.md).

:func:`position_obs` turns what the player sees (own row with ``?`` for unknown slots,
the card in hand or the discard top, the stock size, the cards it remembers seeing, the
opponent's public slots) into the observation ``search`` decides on, refusing a
position that cannot happen; :func:`advise` plays every legal action out on sampled
worlds with the same compiled code as ``search`` and ranks them.  Given the round so far
(``history``, history.py), the worlds are drawn from the belief instead (advise_belief.py).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from simulator.engine.cards import name
from simulator.engine.rng import DECIDE, Stream
from simulator.errors import InputError
from simulator.games.spokelse import search, search_worlds
from simulator.games.spokelse.advise_belief import (
    belief_exact,
    new_particles,
    on_belief,
    weighted_mean_ci,
    weights,
)
from simulator.games.spokelse.advise_exact import exact_scores
from simulator.games.spokelse.advise_symmetry import equivalent_slots, slots_words
from simulator.games.spokelse.advise_text import (
    advice_lines as advice_lines,  # analysis/advise.py reads it here
)
from simulator.games.spokelse.history import History, check_given, parse_history
from simulator.games.spokelse.ladder import TUNED_EXPECT
from simulator.games.spokelse.observation import PLACE, SEAT, SOURCE, TURN
from simulator.games.spokelse.position import (  # re-exported: the table and the CLI read them here
    Position,
    parse_card_text,
    parse_cards,
    parse_row,
    position_obs,
)
from simulator.games.spokelse.variants import Rules
from strategies.registry import parse_spec


@dataclass(frozen=True)
class Option:
    """One legal action and its playouts' figures (points; lower is better)."""

    action: int
    words: str
    score: float  # own final score, mean over the worlds
    score_ci: tuple[float, float]
    opponent: float  # the opponent's final score, mean
    margin: float  # own minus the opponent's, mean
    margin_ci: tuple[float, float]
    vs_best: float = 0.0  # the objective less the best option's, paired on the same worlds
    vs_best_ci: tuple[float, float] = (0.0, 0.0)

    def as_dict(self) -> dict:
        return {
            "action": self.action,
            "words": self.words,
            "score": self.score,
            "score_ci95": list(self.score_ci),
            "opponent_score": self.opponent,
            "margin": self.margin,
            "margin_ci95": list(self.margin_ci),
            "vs_best": self.vs_best,
            "vs_best_ci95": list(self.vs_best_ci),
        }


@dataclass(frozen=True)
class Advice:
    """The ranked options (best first, by ``objective``) and what ``search`` would play."""

    position: Position
    decision: str  # "source" or "place"
    samples: int
    seed: int
    objective: str  # "margin" (own minus opponent's) or "score" (own alone)
    options: tuple[Option, ...]
    search_choice: int
    strategy: str
    opponent: str = ""  # the opponent assumed: the belief's model, or (uniform) the playouts' expect
    exact: bool = False  # own scores enumerated exactly (the stock holds 0 or 1 card)
    belief: str = "uniform"  # "model": worlds drawn from the belief given the history
    history: History | None = None
    playouts: str = ""  # the expect spec the playouts play in both seats
    ess: float | None = None  # the belief's effective sample size (particles)

    def as_dict(self) -> dict:
        pos = self.position
        cards = lambda cs: [None if c < 0 else name(c) for c in cs]
        return {
            "position": {
                "row": cards(pos.row),
                "hand": cards([pos.hand])[0],
                "from_discard": pos.from_discard,
                "discard_top": cards([pos.discard])[0],
                "stock": pos.stock,
                "seen": cards(pos.seen),
                "opponent_row": cards(pos.opp),
                "totals": list(pos.totals),
                "rules": pos.rules.as_dict(),
            },
            "decision": self.decision,
            "samples": self.samples,
            "seed": self.seed,
            "objective": self.objective,
            "strategy": self.strategy,
            "search_choice": self.search_choice,
            "opponent": self.opponent,
            "history": None if self.history is None else self.history.as_dict(),
            "belief": self.belief,
            "playouts": self.playouts,
            "effective_samples": self.ess,
            "exact": self.exact,
            "units": "points, lower is better",
            "options": [o.as_dict() for o in self.options],
        }


def action_words(pos: Position, a: int) -> str:
    """An action in words, naming the cards it moves."""
    if pos.phase == SOURCE:
        return (
            "draw from the stock"
            if a == search_worlds.STOCK
            else f"take {name(pos.discard)} from the discard pile"
        )
    if a == search_worlds.THROW:
        return f"throw {name(pos.hand)} on the discard pile"
    out = "an unknown card" if pos.row[a] < 0 else name(pos.row[a])
    return f"put {name(pos.hand)} in slot {a} ({out} goes to the pile)"


def _mean_ci(x: np.ndarray) -> tuple[float, tuple[float, float]]:
    """Mean and 95% normal interval of ``x`` (points)."""
    m = float(x.mean())
    half = 1.96 * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else math.inf
    return m, (m - half, m + half)


def _params(strategy: str, samples: int) -> tuple[np.ndarray, str]:
    """The ``search`` spec's parameter row with ``samples`` (one line for a spec that is not search)."""
    if not 1 <= samples <= 1_000_000:
        raise InputError(f"--samples must be 1 to 1000000, not {samples}")
    player = parse_spec(strategy, "spokelse")
    if player.family.decide is not parse_spec("search", "spokelse").family.decide:
        raise InputError(f"advice plays out with search's code: {strategy!r} is not a search spec")
    if player.human:
        raise InputError(
            f"advice ranks the moves of one position: forget and slip do not apply ({strategy!r})"
        )
    params = player.params.copy()
    params[search_worlds.P_SAMPLES] = samples  # what choose_nb reads
    return params, player.spec


def _model(opponent: str | None, belief: str, params: np.ndarray) -> str | None:
    """The opponent model (the belief's, a shipped strategy; for the uniform deal an expect
    spec the playouts take); an expect model becomes the playouts' expect (``params``)."""
    if belief == "uniform" and opponent is None:
        return None
    model = parse_spec(opponent or TUNED_EXPECT, "spokelse")
    if belief == "uniform" and (model.family.name != "expect" or model.human):
        raise InputError(
            f"--opponent: the playouts play plain expect, so the model is an expect spec without "
            f"forget or slip, not {opponent!r}"
        )
    if model.family.builtin_id is None or model.human:
        raise InputError(
            f"--opponent: the belief's model is a shipped strategy without forget or slip (passive, "
            f"random, threshold, expect), not {opponent!r}"
        )
    if model.family.name == "expect":
        params[search_worlds.P_BASE : search_worlds.P_BASE + 4] = model.params[:4]
    return model.spec


def advise(
    pos: Position,
    *,
    samples: int = 2000,
    seed: int = 0,
    strategy: str = "search",
    opponent: str | None = None,
    history: History | None = None,
    belief: str | None = None,
) -> Advice:
    """Rank the legal actions of ``pos`` by the playouts of ``strategy`` (a ``search``
    spec; its ``samples`` is replaced by ``samples``).  Worlds come from the stream
    ``(seed, 0, DECIDE, 0, 0)`` (docs/random-streams.md).  ``belief`` ``"model"`` (the
    default with a ``history``, the round so far that led to ``pos``) draws them from the
    belief given the history under ``opponent`` (a shipped strategy; tuned expect by
    default), ``"uniform"`` (the default without one) deals them uniformly; an ``expect``
    ``opponent`` is also the playouts' expect.  Unknown slots are interchangeable: only
    the lowest-numbered is played out, and reported with the others."""
    belief = belief or ("model" if history is not None else "uniform")
    if belief not in ("model", "uniform"):
        raise InputError(f"--belief is model or uniform, not {belief!r}")
    if belief == "model" and history is None:
        raise InputError(
            "--belief model infers from the moves so far: give --history (without one the unseen "
            "cards can only be dealt uniformly, --belief uniform)"
        )
    params, spec = _params(strategy, samples)
    model = _model(opponent, belief, params)
    base = parse_spec("expect", "spokelse").family.player(
        **dict(
            zip(("k", "patience", "pile", "open"), params[search_worlds.P_BASE : search_worlds.P_BASE + 4])
        )
    )
    obs = position_obs(pos)
    own = np.zeros((search_worlds.N_ACTIONS, samples), np.int64)
    opp = np.zeros_like(own)
    legal = np.zeros(search_worlds.N_ACTIONS, np.int64)
    rng = Stream(seed, 0, DECIDE, 0, 0).as_array()
    w = ess = None
    if belief == "model":
        assert history is not None and model is not None
        obs[TURN], obs[SEAT] = len(history.turns), history.me  # what the kernel would show
        parts, logw, hidden = new_particles(samples)
        n_stock = on_belief(pos, history, obs, params, model, rng, own, opp, legal, parts, logw, hidden)
        w, ess = weights(logw)
        exact = belief_exact(pos, parts, logw, hidden, n_stock)
    else:
        if search.evaluate_nb(obs, params, rng, own, opp, legal) < 0:
            raise InputError("the position cannot happen: the cards do not add up")
        exact = exact_scores(pos)
    margin = bool(params[search_worlds.P_MARGIN])
    options = []
    same = equivalent_slots(pos)
    for a in np.flatnonzero(legal):
        if same and int(a) in same[1:]:
            continue  # the same action as same[0] (exchangeable unknown cards)
        words = action_words(pos, int(a))
        if same and int(a) == same[0]:
            every = "both" if len(same) == 2 else "all"
            words = f"put {name(pos.hand)} in {slots_words(same)} (equivalent: {every} unknown)"
        score, score_ci = _mean_ci(own[a] / 2)
        if exact is not None:  # the stock holds 0 or 1 card: own score is an exact sum (advise_exact.py)
            x = np.asarray(exact[int(a)]) / 2
            score, score_ci = (float(x), (float(x),) * 2) if w is None else weighted_mean_ci(x, w)
        m, m_ci = _mean_ci((own[a] - opp[a]) / 2)
        options.append(Option(int(a), words, score, score_ci, float(opp[a].mean() / 2), m, m_ci))
    options.sort(key=lambda o: (o.margin if margin else o.score, o.action))
    objective = (own - opp if margin else own) / 2
    top = options[0].action
    for k, o in enumerate(options):
        d, d_ci = _mean_ci(objective[o.action] - objective[top]) if k else (0.0, (0.0, 0.0))
        if exact is not None and not margin and k:
            d = o.score - options[0].score
            d_ci = (d, d)
            if w is not None:  # paired over the particles
                d, d_ci = weighted_mean_ci((exact[o.action] - exact[top]) / 2, w)
        options[k] = dataclasses.replace(o, vs_best=d, vs_best_ci=d_ci)
    choice = int(search.choose_nb(obs, params, rng, own, opp, legal, samples))
    if same and choice in same:
        choice = same[0]
    return Advice(
        pos, "place" if pos.phase == PLACE else "source", samples, seed, "margin" if margin else "score",
        tuple(options), choice, spec, model if belief == "model" else base.spec, exact is not None,
        belief, history, base.spec, ess,
    )  # fmt: skip


def advise_position(
    *,
    row: str | Sequence[int] | None = None,
    stock: int | None = None,
    hand: str | int | None = None,
    discard: str | int | None = None,
    from_discard: bool = False,
    seen: str | Sequence[str] | None = None,
    opp: str | Sequence[int] | None = None,
    totals: tuple[float, float] | None = None,
    samples: int = 2000,
    seed: int = 0,
    strategy: str = "search",
    rules: Rules | None = None,
    opponent: str | None = None,
    history: str | None = None,
    turn: int | None = None,
    belief: str | None = None,
) -> Advice:
    """:func:`advise` on a position given as text (cards as ``♣Q`` or ``cQ``, ``?`` for an
    unknown slot); see :class:`Position` for the fields.  ``history`` is the round so far
    in the notation ``kortsim trace`` prints (or a trace file; ``turn`` the turn to advise
    when it holds more): it gives the position, and the fields given as well must agree
    with it (history.py).

    Raises
    ------
    InputError
        For a position that cannot happen, text that is not a card, or a history that is
        not a round in trace notation or contradicts the position (one line)."""

    def one(card: str | int | None) -> int:
        if card is None or (isinstance(card, str) and not card.strip()):
            return -1
        return card if isinstance(card, int) else parse_card_text(card)

    def four(cards: str | Sequence[int] | None, what: str) -> tuple[int, ...]:
        if cards is None:
            return (-1, -1, -1, -1)
        if isinstance(cards, str):
            return tuple(parse_row(cards, what))
        if len(cards) != 4:
            raise InputError(f"{what} must be 4 slots, got {len(cards)}")
        return tuple(int(c) for c in cards)

    if stock is not None and (isinstance(stock, bool) or not isinstance(stock, int | np.integer)):
        raise InputError(f"the stock size must be a whole number of cards, not {stock!r}")
    if turn is not None and history is None:
        raise InputError("--turn picks a turn of --history: give the history too")
    rules = rules or Rules()
    tot = (float(totals[0]), float(totals[1])) if totals else (0.0, 0.0)
    past = None
    if history is not None:
        past = parse_history(history, turn=turn, rules=rules)
        pos = past.position(hand=one(hand), from_discard=bool(from_discard), totals=tot, rules=rules)
        given = {"--row": four(row, "the row") if row is not None else None,
                 "--opp": four(opp, "the opponent's row") if opp is not None else None,
                 "--stock": None if stock is None else int(stock),
                 "--discard": None if discard is None else one(discard),
                 "--seen": None if seen is None else tuple(parse_cards(seen))}  # fmt: skip
        check_given(pos, given)
    else:
        if row is None or stock is None:
            raise InputError("give the position (--row and --stock) or the moves so far (--history)")
        pos = Position(
            row=four(row, "the row"), stock=int(stock), hand=one(hand), discard=one(discard),
            from_discard=bool(from_discard), seen=tuple(parse_cards(seen)), opp=four(opp, "the opponent's row"),
            totals=tot, rules=rules,
        )  # fmt: skip
    return advise(
        pos, samples=samples, seed=seed, strategy=strategy, opponent=opponent, history=past, belief=belief
    )
