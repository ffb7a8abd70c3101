"""The key map, in one place: every key the shell handles and what it does, and the type a rule
system's client uses for its own keys. The F1 help is generated from these lists, so the help can
never name a key that does nothing.

Shell keys work on whatever screen is up (a dialog, the hand-off, the replay view) and act on the
live game on the stack, whatever its rule system. A system's own keys (select the next unit, end
the phase...) are listed by its client (e.g. game/systems/tactical/client/battle.py `BATTLE_KEYS`).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame

if TYPE_CHECKING:
    from game.shell.app import App


@dataclass(frozen=True)
class Binding:
    """A key (or several keys for one action), with Ctrl or not, its name for the help, and what
    it does: `action(target)` returns True when it used the key."""

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


def help_html(groups: Sequence[tuple[str, Sequence[Binding]]]) -> str:
    """The F1 help text: one line per binding, grouped."""
    parts: list[str] = []
    for title, bindings in groups:
        lines = [f"<b>{html.escape(b.label)}</b>: {html.escape(b.what)}" for b in bindings if b.in_help]
        parts.append(f"<b>{html.escape(title)}</b><br>" + "<br>".join(lines))
    return "<br><br>".join(parts)


# --------------------------------------------------------------------------- the shell's keys


def _game_scene(app: App) -> Any:
    from game.shell.savegame import battle_scenes

    scenes = battle_scenes(app)
    return scenes[-1] if scenes else None


def _on_game(action: Callable[[Any], Any], unless_top: str | None = None) -> Callable[[App], bool]:
    """A shell key acting on the live game scene, if there is one."""

    def handler(app: App) -> bool:
        scene = _game_scene(app)
        if scene is None:
            return False
        if unless_top is not None and getattr(app.scenes.top, "name", "") == unless_top:
            return True
        action(scene)
        return True

    return handler


def _actions() -> Any:
    from game.shell import actions

    return actions


SHELL_KEYS: tuple[Binding, ...] = (
    Binding((pygame.K_F5,), "F5", "quick save", _on_game(lambda s: _actions().quick_save_action(s)),
            group="Saves"),
    Binding((pygame.K_F9,), "F9", "quick load", _on_game(lambda s: _actions().quick_load_action(s)),
            group="Saves"),
    Binding((pygame.K_s,), "Ctrl+S", "save to a new file", _on_game(lambda s: _actions().save_new_action(s)),
            ctrl=True, group="Saves"),
    Binding((pygame.K_o,), "Ctrl+O", "load menu (every save, newest first)",
            _on_game(lambda s: _actions().open_load_menu(s), unless_top="load_menu"), ctrl=True, group="Saves"),
    Binding((pygame.K_q,), "Ctrl+Q", "quit (asks first when there is unsaved play)",
            lambda app: _actions().request_quit(app), ctrl=True, group="Window"),
    Binding((pygame.K_F11,), "F11", "fullscreen on/off", lambda app: app.toggle_fullscreen(), group="Window"),
    Binding((pygame.K_b,), "Ctrl+B", "back to the game this battle was opened from (a campaign battle fought "
            "out: the campaign map, with the result to confirm)", _on_game(lambda s: _actions().return_action(s)),
            ctrl=True, group="Window"),
)

# Keys the live game scene passes to the shell (they need the map on screen, so not from dialogs).
GAME_KEYS: tuple[Binding, ...] = (
    Binding((pygame.K_F3,), "F3", "replay view of this game: step through it command by command or round by round",
            lambda s: _actions().open_replay_view(s), group="Replays and GM"),
    Binding((pygame.K_F2,), "F2", "GM mode (edit anything, set the next roll, see every side, undo/redo "
            "anything with Ctrl+Z / Ctrl+Y, save the set-up as a scenario)", lambda s: _actions().toggle_gm(s),
            group="Replays and GM"),
)


def shell_key(app: App, event: pygame.event.Event) -> bool:
    return dispatch(SHELL_KEYS, event, app)


def shell_help_groups() -> list[tuple[str, Sequence[Binding]]]:
    groups: dict[str, list[Binding]] = {}
    for b in (*SHELL_KEYS, *GAME_KEYS):
        groups.setdefault(b.group, []).append(b)
    return list(groups.items())
