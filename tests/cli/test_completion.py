"""Shell completion helpers: experiment names, a game's strategy specs and rule names,
worked out from what was typed so far; nothing (never an error) without a known game."""

import click

from simulator.cli import completion
from simulator.games import GAMES


def _ctx(**params) -> click.Context:
    ctx = click.Context(click.Command("x"))
    ctx.params.update(params)
    return ctx


def test_experiment_names_complete_by_prefix_with_titles():
    names = dict(completion.experiment_names(_ctx(), ""))
    assert set(names) == {"spokelse-strategy", "commit-early", "reaction-vs-cards"}
    assert all(names.values())
    assert [n for n, _ in completion.experiment_names(_ctx(), "comm")] == ["commit-early"]
    assert completion.experiment_names(_ctx(), "zzz") == []


def test_strategy_families_follow_the_game_on_the_command_line():
    spok = [n for n, _ in completion.strategy_specs(_ctx(game="spokelse"), [], "")]
    assert "threshold" in spok and "expect" in spok and "greedy" not in spok
    thr = [n for n, _ in completion.strategy_specs(_ctx(game="spokelse"), [], "thr")]
    assert "threshold" in thr and all(n.startswith("thr") for n in thr) and "expect" not in thr
    gris = [n for n, _ in completion.strategy_specs(_ctx(game="gris"), [], "")]
    assert "greedy" in gris and "commit" in gris and "threshold" not in gris


def test_the_game_is_found_among_the_words_typed():
    # "kortsim simulate spokelse -s <Tab>": click has not parsed the game yet.
    out = [n for n, _ in completion.strategy_specs(_ctx(game=None), ["simulate", "spokelse", "-s"], "")]
    assert "threshold" in out
    assert completion.rule_names(_ctx(), ["compare", "gris", "--rule"], "") != []


def test_a_game_given_as_its_enum_member_works():
    from simulator.cli import GameId

    member = GameId("gris-nese")
    assert "greedy" in [n for n, _ in completion.strategy_specs(_ctx(game=member), [], "")]
    assert set(GAMES) >= {"gris", "gris-nese", "spokelse"}


def test_after_the_colon_the_parameters_not_yet_given_are_offered():
    out = dict(completion.strategy_specs(_ctx(game="spokelse"), [], "threshold:"))
    assert "threshold:k=" in out and "default 4" in out["threshold:k="]
    assert completion.strategy_specs(_ctx(game="spokelse"), [], "threshold:k=") == []
    assert completion.strategy_specs(_ctx(game="spokelse"), [], "threshold:k=4,") == []  # k is given
    out = [n for n, _ in completion.strategy_specs(_ctx(game="gris"), [], "commit:")]
    assert "commit:after=" in out


def test_no_game_or_an_unknown_game_offers_nothing():
    assert completion.strategy_specs(_ctx(), [], "thr") == []
    assert completion.strategy_specs(_ctx(game="poker"), [], "") == []
    assert completion.rule_names(_ctx(), [], "") == []
    assert completion.rule_names(_ctx(game="poker"), [], "") == []
    assert completion.strategy_specs(_ctx(game="spokelse"), [], "nosuch:") == []


def test_rule_names_of_the_game():
    rules = dict(completion.rule_names(_ctx(game="spokelse"), [], ""))
    assert rules.get("jack=")
    assert [n for n, _ in completion.rule_names(_ctx(game="spokelse"), [], "ja")] == ["jack="]
    assert completion.rule_names(_ctx(game="spokelse"), [], "jack=") == []


def test_the_game_is_found_in_a_parent_context():
    parent = _ctx(game="spokelse")
    child = click.Context(click.Command("y"), parent=parent)
    assert "threshold" in [n for n, _ in completion.strategy_specs(child, [], "")]


def test_typer_calls_them_for_arguments_and_options():
    """Wired into a typer command as ``autocompletion=``, they answer a shell's Tab."""
    from typing import Annotated

    import typer
    from typer.testing import CliRunner

    from simulator.cli import GameArg

    app = typer.Typer()

    @app.command()
    def run(
        game: GameArg,
        strategy: Annotated[
            list[str], typer.Option("--strategy", "-s", autocompletion=completion.strategy_specs)
        ] = (),
        rule: Annotated[list[str], typer.Option("--rule", autocompletion=completion.rule_names)] = (),
    ) -> None:
        """Stand-in command."""

    @app.command()
    def experiment(
        name: Annotated[str, typer.Argument(autocompletion=completion.experiment_names)],
    ) -> None:
        """Stand-in command."""

    def tab(*words: str) -> list[str]:
        env = {
            "_KS_COMPLETE": "complete_bash",
            "COMP_WORDS": " ".join(["ks", *words]),
            "COMP_CWORD": str(len(words)),
        }
        res = CliRunner().invoke(app, [], env=env, prog_name="ks")
        return res.output.split()

    assert "threshold" in tab("run", "spokelse", "-s", "")
    assert tab("run", "spokelse", "--rule", "ja") == ["jack="]
    assert tab("experiment", "comm") == ["commit-early"]
