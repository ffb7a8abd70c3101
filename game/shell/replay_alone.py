"""A replay view opened with no game under it (`python -m game replay SAVE --view`, a replay file
from the load menu before any game): what every system's replay view does alike there. The
shell's keys that act on a live game (save, quick load, load, back) have nothing to act on, so
the F1 help leaves them out (`REFUSED_SHELL_KEYS`, read by keys.help_groups) and pressing one
says why (`refused_shell_key`); Esc closes the view and its window (`ALONE_ESC`)."""

from __future__ import annotations

from typing import Any

import pygame

from game.shell.contracts import live_game
from game.shell.keys import SHELL_KEYS

GAME_ONLY_KEYS = ("F5", "F9", "Ctrl+S", "Ctrl+O", "Ctrl+B")
ALONE_ESC = "close the replay view and its window"
NOTHING_TO_ACT_ON = ("does nothing here: this is the replay of a save, with no game to save, load or go back to "
                     "(`python -m game play SAVE` plays it on).")


class AloneReplay:
    """Mixed into a system's replay scene (before `Scene`): `alone`, the keys it refuses then and
    the words for them."""

    app: Any

    def alone(self) -> bool:
        """No game is being played under the view: Esc closes the window, and the shell's save
        and load keys have no game to act on."""
        return live_game(self.app) is None

    @property
    def REFUSED_SHELL_KEYS(self) -> tuple[str, ...]:  # noqa: N802 (the shell's name: keys.help_groups)
        """The shell keys the F1 help leaves out here: those of a live game, when there is none."""
        return GAME_ONLY_KEYS if self.alone() else ()

    def refused_shell_key(self, event: pygame.event.Event) -> str | None:
        """What to say for a shell key that has no game to act on here, or None (another key)."""
        shell = next((b for b in SHELL_KEYS if b.label in self.REFUSED_SHELL_KEYS and b.matches(event)), None)
        return None if shell is None else f"{shell.label} {NOTHING_TO_ACT_ON}"
