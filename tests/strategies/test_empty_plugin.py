"""A strategy file that registers nothing is named when its strategy is then not found."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.errors import SpecError
from strategies import registry
from strategies.plugins import load_plugin
from strategies.registry import parse_spec


def test_a_file_that_registers_nothing_is_named_in_the_unknown_strategy_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the loaded files, as if none had been loaded yet; forgotten again after this test
    monkeypatch.setattr(registry, "_PLUGINS", {})
    with pytest.raises(SpecError) as info:
        parse_spec("mine", "spokelse")
    assert "registered no strategy" not in str(info.value)  # no empty file loaded yet
    empty = tmp_path / "nothing_here.py"
    empty.write_text("# a strategy file without a @strategy function\nX = 1\n")
    load_plugin(empty)
    with pytest.raises(SpecError) as info:
        parse_spec("mine", "spokelse")
    line = str(info.value)
    assert "\n" not in line
    assert line.startswith("unknown strategy 'mine' for spokelse (known: ")
    assert "'nothing_here.py' registered no strategy" in line and "@strategy" in line
