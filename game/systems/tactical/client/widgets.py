"""Small helpers the battle scene's parts share (the panels, the action buttons, the map view):
one module they all import, so no part reaches into another's private names."""

from __future__ import annotations

from typing import Any


def enable(element: Any, on: bool) -> None:
    """Enable or disable a toolkit element."""
    if on:
        element.enable()
    else:
        element.disable()


def hit_chance(ex: Any) -> float:
    """The chance to hit of an overwatch exposure (or anything with odds), 0 when it has none."""
    for name in ("hit_chance", "chance", "p_hit"):
        v = getattr(ex, name, None)
        if v is not None:
            return float(v)
    odds = getattr(ex, "odds", None)
    if odds is not None:
        return float(getattr(odds, "hit_chance", 0))
    return 0.0


def casualty_label(points: int, kind: str | None) -> str:
    """A casualty-roll order in words: '+2 leadership', or 'no Advantage'."""
    return f"+{points} {kind}" if points and kind else "no Advantage"
