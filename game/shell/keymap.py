"""Key bindings as data: a key (or several), its name for the help, what it does. The shell's own
keys (game/shell/keys.py), each system's screen (`Scene.KEYS`) and the F1 help all use these, so the
help can never name a key that does nothing. Imports nothing of the shell but the rich text's
pieces (every shell module may use it)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from game.shell.toolkit.richtext import Span, Styled, styled


@dataclass(frozen=True)
class Binding:
    """A key (or several keys for one action), with Ctrl or not, its name for the help, and what
    it does: `action(target)` returns True when it used the key. A binding without an action only
    names, for the help, a key the screen handles itself (arrows held to pan, a list's Up/Down)."""

    keys: tuple[int, ...]
    label: str
    what: str
    action: Callable[[Any], Any] | None = None
    ctrl: bool = False
    group: str = ""
    in_help: bool = True  # False: a key the help names on another line (e.g. "1-9" for nine keys)

    def matches(self, event: pygame.event.Event) -> bool:
        ctrl = bool(getattr(event, "mod", 0) & pygame.KMOD_CTRL)
        return event.key in self.keys and ctrl == self.ctrl


def dispatch(bindings: Iterable[Binding], event: pygame.event.Event, target: Any) -> bool:
    """Run the first binding matching a KEYDOWN; True when one used it."""
    for b in bindings:
        if b.action is not None and b.matches(event):
            return b.action(target) is not False
    return False


def claims(bindings: Iterable[Binding], event: pygame.event.Event) -> bool:
    """Does this key map name the key (with or without an action of its own)?"""
    return any(b.matches(event) for b in bindings)


def help_pieces(groups: Sequence[tuple[str, Sequence[Binding]]]) -> Styled:
    """The F1 help as styled pieces: one line per binding, grouped (nothing to escape or parse)."""
    pieces: list[Span | str] = []
    for n, (title, bindings) in enumerate(groups):
        pieces += ["\n\n" if n else "", Span(title, bold=True)]
        for b in bindings:
            if b.in_help:
                pieces += ["\n", Span(b.label, bold=True), f": {b.what}"]
    return styled(*pieces)
