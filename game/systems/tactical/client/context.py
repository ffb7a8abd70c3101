"""What an input mode (modes.py) is given, and what it gives back.

`ModeContext` names the few things a mode reads of the battle for one call: the state on screen,
the hovered hex, who stands on a hex and whether the side playing may
act with a unit. The battle scene is one (checked by mypy where it passes itself), and so is
anything a test builds with these members: a mode never sees the scene, never changes it, and
keeps nothing of its context between calls.

`Intent` is what a click, a button or a cancel asks for: a unit to select (or none), a message
to show, a rules command to apply, the next mode. The scene carries it out (battle.py `_use`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from game.core.hexgrid import Hex


class ModeContext(Protocol):
    """What an input mode reads of the battle for one call (never kept between calls)."""

    hover: Hex | None

    @property
    def state(self) -> Any: ...

    def unit_at(self, h: Hex) -> Any: ...

    def is_mine(self, unit_id: str) -> bool: ...


class Keep:
    """The selection an Intent leaves as it is (`KEEP`)."""

    def __repr__(self) -> str:
        return "KEEP"


KEEP = Keep()


@dataclass(frozen=True)
class Intent:
    """What a mode asks the scene to do, in this order: select a unit (`select`: a unit id, None
    for no selection, KEEP to leave it), show `toast`, switch to `mode`, apply `command` (a rules
    command). Fields left at their defaults ask for nothing."""

    select: str | None | Keep = KEEP
    toast: str | None = None
    mode: Any = None
    command: Any = None
