"""``kortsim advise``'s words: the ranked actions of one Spøkelse position, best first,
with what the figures assume (the opponent, the history or none) and how sure they are."""

from __future__ import annotations

from typing import TYPE_CHECKING

from simulator.engine.cards import name

if TYPE_CHECKING:
    from simulator.games.spokelse.advise import Advice


def advice_lines(advice: Advice) -> list[str]:
    """The advice in plain words, best first."""
    pos = advice.position
    if advice.decision == "place":
        how = "taken from the discard pile" if pos.from_discard else "drawn from the stock"
        what = f"where to put {name(pos.hand)} ({how})"
    else:
        what = f"whether to take {name(pos.discard)} from the discard pile or draw"
    row = " ".join("?" if c < 0 else name(c) for c in pos.row)
    past, on_model = advice.history, advice.belief == "model"
    if on_model and past is not None:
        theirs = sum(t.seat != past.me for t in past.turns)
        said = (
            f"History: {len(past.turns)} turns seen from seat {past.me}; the unseen cards are drawn from the "
            f"belief, each of {advice.samples} particles weighted by how likely this model made the "
            f"opponent's {theirs} turns (effective sample size {advice.ess:.0f} particles)."
        )
    elif past is not None:
        said = f"History: {len(past.turns)} turns given, not used (--belief uniform: the unseen cards are dealt uniformly)."
    else:
        said = "No history given: none assumed (the unseen cards are dealt uniformly)."
    worlds = "worlds resampled from the belief" if on_model else "sampled deals of the unseen cards"
    played = f"{advice.strategy}; expect as {advice.playouts}" if on_model else advice.strategy
    lines = [
        f"Opponent assumed: {advice.opponent} (the belief's model of its play)."
        if on_model
        else f"Assumes the opponent plays {advice.opponent}.",
        said,
        f"Deciding {what}; row {row}, stock {pos.stock}.",
        f"Expected final round score in points (lower is better), over {advice.samples} {worlds} "
        f"(seed {advice.seed}), each action then played out by expect in both seats "
        f"({played}); 95% intervals. Margin: own score minus the opponent's; 'worse': the "
        f"{'margin' if advice.objective == 'margin' else 'score'} less the best action's on the same deals. "
        "Slots are 0-3.",
    ]
    if advice.exact and on_model:
        lines.append(
            "The stock holds at most one card: own scores are exact in each particle (every card the "
            "places nobody chose can hold counted; after a draw, the best placement), averaged by weight; "
            "margins are still sampled."
        )
    elif advice.exact:
        lines.append(
            "The stock holds at most one card: own scores are exact (every card the unknown places "
            "can hold counted; after a draw, the best placement); margins are still sampled."
        )
    width = max(len(o.words) for o in advice.options)
    for k, o in enumerate(advice.options, 1):
        lines.append(
            f"  {k}. {o.words:<{width}}  score {o.score:6.2f} [{o.score_ci[0]:.2f}, {o.score_ci[1]:.2f}]"
            f"  margin {o.margin:+6.2f} [{o.margin_ci[0]:+.2f}, {o.margin_ci[1]:+.2f}]"
            + (f"  {o.vs_best:+.2f} [{o.vs_best_ci[0]:+.2f}, {o.vs_best_ci[1]:+.2f}] worse" if k > 1 else "")
        )
    best = advice.options[0]
    by = "margin" if advice.objective == "margin" else "own score"
    # "best" only when every other action is worse on the same deals (interval above 0)
    close = [o.words for o in advice.options[1:] if o.vs_best_ci[0] <= 0]
    if close:
        lines.append(
            f"Lowest by {by}: {best.words}; not clearly better than {'; '.join(close)} (their paired "
            "intervals include 0: more --samples may separate them)."
        )
    else:
        lines.append(f"Best by {by}: {best.words} (every other action is worse on the same deals).")
    chosen = next(o for o in advice.options if o.action == advice.search_choice)
    if chosen is not best:
        lines.append(
            f"search would play: {chosen.words} (expect's choice, as no other action beats it "
            "by its z standard errors)"
        )
    return lines
