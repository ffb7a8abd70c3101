"""Shared pieces of the campaign's hostile tests: the teaching campaign cut before a week's
orders, the orders that week played, order files made for it, and a copy of the scenario (with
its map) in a folder of its own so names can be planted in it."""

from __future__ import annotations

import re
from pathlib import Path

from game.systems.campaign.io.files import OrderEntry, make_orders_file, write_orders_file

ROOT = Path(__file__).resolve().parents[2]
CAMPAIGN = ROOT / "maps" / "campaign"
SCENARIO = CAMPAIGN / "teaching.yaml"
SCRIPT = CAMPAIGN / "teaching-commands.yaml"
NAME = "Campaign teaching scenario"

# The orders the teaching script plays in week 1 and week 2, as order-file entries per player.
WEEK_ORDERS: dict[int, dict[str, list[OrderEntry]]] = {
    1: {"zones": [OrderEntry(battle="B1", manoeuvre="withdraw", vanguard="rifles.6", withdraw_to=(20, 27))],
        "jibril": [OrderEntry(battle="B1", manoeuvre="block", vanguard="corps.1")],
        "resistance": [OrderEntry(battle="B2", manoeuvre="attack", stratagems=("flanking", "breakthrough"),
                                  vanguard="front.1", breakthrough_to=(28, 10))],
        "zenith": [OrderEntry(battle="B2", manoeuvre="defend", stratagems=("hold_the_line",), vanguard="host.5")]},
    2: {"zones": [OrderEntry(battle="B1", manoeuvre="block", vanguard="rifles.2")],
        "jibril": [OrderEntry(battle="B1", manoeuvre="shock_attack", vanguard="corps.1")],
        "resistance": [OrderEntry(battle="B2", manoeuvre="skirmish", stratagems=("raid",), vanguard="front.4")],
        "zenith": [OrderEntry(battle="B2", manoeuvre="defend", stratagems=("counter_attack",), vanguard="host.5")]},
}


def head_before_orders(tmp_path: Path, week: int) -> Path:
    """The teaching script up to (not including) the orders of `week`: the campaign waits for them."""
    lines = SCRIPT.read_text(encoding="utf-8").splitlines()
    starts = [i for i, ln in enumerate(lines) if ln.startswith("- {kind: orders")]
    firsts = [starts[0]] + [b for a, b in zip(starts, starts[1:], strict=False) if b != a + 1]
    cut = firsts[week - 1]
    p = tmp_path / f"head-week{week}.yaml"
    p.write_text("\n".join(lines[:cut]) + "\n", encoding="utf-8")
    return p


def order_file(tmp_path: Path, player: str, week: int = 1, *, campaign: str = NAME,
               orders: list[OrderEntry] | None = None, name: str = "") -> Path:
    f = make_orders_file(campaign, week, player, orders if orders is not None else WEEK_ORDERS[week][player])
    p = tmp_path / (name or f"{player}-week{week}.yaml")
    write_orders_file(p, f)
    return p


def scenario_copy(tmp_path: Path, *edits: tuple[str, str]) -> Path:
    """maps/campaign/teaching.yaml and its map in `tmp_path`, with text replaced."""
    tmx = (CAMPAIGN / "ascension-isle.tmx").read_text(encoding="utf-8")
    (tmp_path / "ascension-isle.tmx").write_text(tmx.replace("../../assets", (ROOT / "assets").as_posix()),
                                                 encoding="utf-8")
    text = SCENARIO.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    p = tmp_path / "teaching.yaml"
    p.write_text(text, encoding="utf-8")
    return p


_TAG = re.compile(r"\[(/?)([A-Za-z*][A-Za-z0-9_*-]*)(?:=([^\]]*))?\]")  # phpBB: a tag name is letters, digits, _ and *


def bbcode_tags(text: str, allowed: frozenset[str]) -> list[str]:
    """Problems of a BBCode text read as phpBB would: tags outside `allowed`, tags not closed
    in order, a [size=N] outside phpBB's 1..200 per cent."""
    problems: list[str] = []
    stack: list[str] = []
    for m in _TAG.finditer(text):
        closing, tag, value = m.group(1), m.group(2).lower(), m.group(3)
        if tag not in allowed:
            problems.append(f"tag [{m.group(0)[1:-1]}] is not phpBB's")
            continue
        if tag == "*":
            continue
        if tag == "size" and not closing and not (value and value.isdigit() and 1 <= int(value) <= 200):
            problems.append(f"[size={value}] is not a percentage of 1..200")
        if closing:
            if not stack or stack[-1] != tag:
                problems.append(f"[/{tag}] closes {stack[-1] if stack else 'nothing'}")
            else:
                stack.pop()
        else:
            stack.append(tag)
    problems += [f"[{t}] never closed" for t in stack]
    return problems
