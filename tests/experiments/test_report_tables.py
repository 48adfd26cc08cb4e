"""The tables of the reports speak in the units of their sentences: commit-early's
differences to greedy in percentage points, with the unit in the column's head."""

import re
from html import unescape

import pytest

NUMBER = re.compile(r"^([+−-]?\d+(?:\.\d+)?) pp \[([+−-]?\d+(?:\.\d+)?), ([+−-]?\d+(?:\.\d+)?)\]†?$")


def _text(cell: str) -> str:
    """A cell's text: its tags (line-break opportunities, a span) dropped, entities read."""
    return unescape(re.sub(r"<[^>]+>", "", cell))


def html_table(page: str, name: str) -> tuple[list[str], list[list[str]]]:
    """The head and rows of table ``name`` of a report page."""
    at = page.index(f"<p><b>{name}</b></p>")
    table = page[at : page.index("</table>", at)]
    head = [_text(h) for h in re.findall(r"<th[^>]*>(.*?)</th>", table, re.S)]
    rows = [
        [_text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)]
        for r in re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>", 1)[1], re.S)
    ]
    return head, rows


def _num(s: str) -> float:
    return float(s.replace("−", "-"))


@pytest.mark.parametrize(
    ("table", "column", "data"),
    [
        ("commit", "minus greedy", "diff_vs_greedy"),
        ("summary", "minus greedy", "commit_on_deal_minus_greedy"),
    ],
)
def test_commit_early_tables_show_differences_in_percentage_points(tiny_results, table, column, data):
    res = tiny_results("commit-early")
    head, rows = html_table(res.report_html.read_text(), table)
    col = next(i for i, h in enumerate(head) if column in h)
    assert "pp" in head[col] and "95% CI" in head[col], head[col]
    df = res.tables[table]
    assert len(rows) == min(len(df), 8 if len(df) > 30 else len(df))
    for cells, (v, lo, hi) in zip(rows, df[[data, f"{data}_lo", f"{data}_hi"]].itertuples(index=False)):
        found = NUMBER.match(cells[col])
        assert found, f"{table}: {cells[col]!r} is not a difference in percentage points"
        for shown, value in zip(found.groups(), (v, lo, hi)):
            # the digits the interval supports: within half a unit of the last digit shown
            digits = len(shown.split(".")[1]) if "." in shown else 0
            assert abs(_num(shown) - 100 * value) <= 0.5 * 10**-digits + 1e-9, (cells[col], value)
    md = (res.report_html.parent / "report.md").read_text()
    assert head[col] in md
