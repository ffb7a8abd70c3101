"""The four victory tables generated from the draw table by the design page's rule, and the
tables as text a GM reads (docs, client, reports).

    winner, band b (1 minor .. 4 legendary): draw range lo-hi -> (lo + b)-(hi + 2b), no result = 0-0;
            a winning Withdraw inflicts nothing, except against Shock Attack (its draw-table cell)
    loser: the draw range with each bound -1 (not below 0) at minor; nothing at major and above
"""

from __future__ import annotations

from typing import Any

from game.systems.campaign.rules.models import BANDS, MANOEUVRE_NAMES, MANOEUVRES, DrawCell, RulesData


def generate_victory(draw: dict[str, dict[str, DrawCell]]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for b, band in enumerate(BANDS, start=1):
        winner: dict[str, dict[str, list[int]]] = {}
        loser: dict[str, dict[str, list[int]]] = {}
        for row in MANOEUVRES:
            winner[row] = {}
            loser[row] = {}
            for col in MANOEUVRES:
                lo, hi = draw[row][col].casualties or (0, 0)
                gets_away = row == "withdraw" and not draw[row][col].casualties
                winner[row][col] = [0, 0] if gets_away else [lo + b, hi + 2 * b]
                loser[row][col] = [max(0, lo - 1), max(0, hi - 1)] if b == 1 else [0, 0]
        out[band] = {"winner": winner, "loser": loser}
    return out


def draw_table_rows(rules: RulesData) -> list[list[str]]:
    """The draw table as rows of text: header, then one row per manoeuvre."""
    rows = [["", *(MANOEUVRE_NAMES[c] for c in MANOEUVRES)]]
    for r in MANOEUVRES:
        line = [MANOEUVRE_NAMES[r]]
        for c in MANOEUVRES:
            cell = rules.draw_table[r][c]
            parts = []
            if cell.withdraw:
                parts.append({"arc": "gets away (arc)", "route": "gets away (route)", "fail": "fails"}[cell.withdraw])
            if cell.casualties:
                lo, hi = cell.casualties
                parts.append(f"{lo}-{hi}" if lo != hi else f"{lo}")
            line.append(", ".join(parts) or "-")
        rows.append(line)
    return rows


def victory_rows(rules: RulesData, band: str, part: str) -> list[list[str]]:
    table = getattr(rules.victory[band], part)  # type: ignore[index]
    rows = [["", *(MANOEUVRE_NAMES[c] for c in MANOEUVRES)]]
    for r in MANOEUVRES:
        rows.append([MANOEUVRE_NAMES[r], *(_rng(table[r][c]) for c in MANOEUVRES)])
    return rows


def _rng(v: Any) -> str:
    lo, hi = v
    return "-" if hi == 0 else (f"{lo}" if lo == hi else f"{lo}-{hi}")
