"""The key map, in one place: every key the shell handles and what it does, and the type a rule
system's client uses for its own keys. The F1 help is generated from these lists, so the help can
never name a key that does nothing.

Shell keys work on whatever screen is up (a dialog, the hand-off, the replay view) and act on the
live game on the stack, whatever its rule system. A system's own keys (select the next unit, end
the phase...) are listed by its client (e.g. game/systems/tactical/client/battle.py `BATTLE_KEYS`).

No shell key is refused in silence. A screen over the game may take a shell key itself with an
optional `take_shell_key(binding, act) -> bool | str` (True: it acted, calling `act`, or said why
not; a text: refused, with the screen's part of the reason; False: the shell's usual action):
the hand-off screen refuses what would act on the hidden game (game/shell/scenes/handoff.py), the
load menu refreshes its list after a save (game/shell/scenes/load_menu.py). The game keys (F2, F3,
Ctrl+Z, Ctrl+Y) pressed on any other screen that is not the game's say where they work
(`not_here`): in the screen's own message line, or in a small dialog over it (actions.say). So
do the refusals of the shell's own keys over another screen (actions.refuse: "No quick save of
this game yet", "not opened from another one").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import pygame

from game.shell import actions
from game.shell.contracts import AppContext, GameScene, SceneLike, is_game_scene, live_game
from game.shell.keymap import Binding, claims, dispatch

__all__ = ["Binding", "dispatch", "SHELL_KEYS", "GAME_KEYS", "UNDO_KEYS", "shell_key", "scene_key",
           "shell_help_groups", "help_groups", "not_here"]


# --------------------------------------------------------------------------- the shell's keys


def _on_game(action: Callable[[GameScene], object], unless_top: str | None = None) -> Callable[[AppContext], bool]:
    """A shell key acting on the live game scene, if there is one."""

    def handler(app: AppContext) -> bool:
        scene = live_game(app)
        if scene is None:
            return False
        top = app.scenes.top
        if unless_top is not None and top is not None and top.name == unless_top:
            return True
        action(scene)
        return True

    return handler


def _toggle_fullscreen(app: AppContext) -> None:
    app.toggle_fullscreen()


SHELL_KEYS: tuple[Binding, ...] = (
    Binding((pygame.K_F5,), "F5", "quick save (one slot per rule system and scenario)",
            _on_game(actions.quick_save_action), group="Saves"),
    Binding((pygame.K_F9,), "F9", "quick load (this game's quick save; asks first when play would be lost)", _on_game(actions.quick_load_action),
            group="Saves"),
    Binding((pygame.K_s,), "Ctrl+S", "save to a new file", _on_game(actions.save_new_action),
            ctrl=True, group="Saves"),
    Binding((pygame.K_o,), "Ctrl+O", "load menu (every save, newest first)",
            _on_game(actions.open_load_menu, unless_top="load_menu"), ctrl=True, group="Saves"),
    Binding((pygame.K_q,), "Ctrl+Q", "quit (asks first when there is unsaved play or something typed and not sent)",
            actions.request_quit, ctrl=True, group="Window"),
    Binding((pygame.K_F11,), "F11", "fullscreen on/off", _toggle_fullscreen, group="Window"),
    Binding((pygame.K_b,), "Ctrl+B", "back to the game this battle was opened from (a campaign battle fought "
            "out: the campaign map, with the result to confirm)", _on_game(actions.return_action),
            ctrl=True, group="Window"),
)

# Undo and redo, the same in every rule system: what the system's `undoable` allows, with the same
# message. A game screen that dispatches its own keys lists these in its key map; one that does not
# gets them from the shell (scene_key).
UNDO_KEYS: tuple[Binding, ...] = (
    Binding((pygame.K_z,), "Ctrl+Z", "undo the last command, if the rules allow it (it rolled no dice and "
            "revealed nothing)", actions.undo_action, ctrl=True, group="Undo"),
    Binding((pygame.K_y,), "Ctrl+Y", "redo the command just undone", actions.redo_action, ctrl=True, group="Undo"),
)

# Keys the live game scene passes to the shell (they need the map on screen, so not from dialogs).
GAME_KEYS: tuple[Binding, ...] = (
    Binding((pygame.K_F3,), "F3", "replay view of this game: step through it command by command, or by round, "
            "Wave or week (the campaign's is the GM's)", actions.open_replay_view, group="Replays and GM"),
    Binding((pygame.K_F2,), "F2", "GM mode: see every side and set the next rolls; in the tactical battle also "
            "place, move and edit units and save the set-up as a scenario, in the mass battle set wounds, "
            "Brutes and Advantage; undo/redo anything with Ctrl+Z / Ctrl+Y (asks for the GM's passphrase "
            "when one is set in the players dialog, P)", actions.toggle_gm, group="Replays and GM"),
)

# What the shell does for a screen whose key map does not name the key: the help on any screen,
# and on a game screen undo, redo and Esc (quit, asking first when there is unsaved play).
_HELP = Binding((pygame.K_F1,), "F1", "this help (every screen: its own keys and the shell's)", group="Window")
_QUIT = Binding((pygame.K_ESCAPE,), "Esc", "quit (asks first when there is unsaved play or something typed and not "
                "sent); in a battle fought out from the campaign: back to the campaign map, as Ctrl+B", group="Window")


# What each shell key does, in a few words, for the line that says where it works.
SHORT = {"F5": "quick save", "F9": "quick load", "Ctrl+S": "saving", "Ctrl+O": "the load menu",
         "Ctrl+B": "going back to the game this one was opened from", "F2": "GM mode", "F3": "the replay view",
         "Ctrl+Z": "undo", "Ctrl+Y": "redo"}


def not_here(binding: Binding, why: str) -> str:
    """Why a shell key does nothing on this screen, what to do, and where it works: "Hand-off:
    pass the screen first (Enter); GM mode (F2) works from the game's screen." `why` is the
    screen's part. Names no side and nothing of the game, so a hidden side's screen may show it."""
    what = SHORT.get(binding.label, binding.label)
    return f"{why}; {what} ({binding.label}) works from the game's screen."


def _screen_takes(app: AppContext, binding: Binding, act: Callable[[], object]) -> bool:
    """The screen on top takes the shell key itself, with its optional `take_shell_key(binding,
    act)`: True, it acted (calling `act`) or said why not; a text, it refuses and that is its part
    of the reason (`not_here`, said here); False, the shell's usual action."""
    take = getattr(app.scenes.top, "take_shell_key", None)
    if take is None:
        return False
    answer = take(binding, act)
    if isinstance(answer, str):
        actions.say(app, not_here(binding, answer))
        return True
    return bool(answer)


def shell_key(app: AppContext, event: pygame.event.Event) -> bool:
    for b in SHELL_KEYS:
        if b.action is not None and b.matches(event):
            act = partial(b.action, app)
            if live_game(app) is not None and _screen_takes(app, b, act):
                return True
            return act() is not False
    return False


def _screen_name(top: SceneLike) -> str:
    """What the message calls the screen: its `title` when it has one as text (a dialog's,
    "Players"; a replay view's, "The replay view"), else "This screen". A title that ends a
    sentence ("The Zones wins!") is quoted, so the words after it still read: '"The Zones
    wins!": close this first', not 'The Zones wins!: close this first'."""
    title = getattr(top, "title", None)
    if not isinstance(title, str) or not title.strip():
        return "This screen"
    title = title.strip()
    return f'"{title}"' if title[-1] in ".!?:;" else title


def _game_key_elsewhere(app: AppContext, top: SceneLike, event: pygame.event.Event) -> bool:
    """F2, F3, Ctrl+Z or Ctrl+Y on a screen that is not the game's (a dialog, a menu, the
    hand-off) and does not name the key itself: the screen takes it, or the shell says where it
    works. False for any other key, or with no game on the stack."""
    game = live_game(app)
    binding = next((b for b in (*UNDO_KEYS, *GAME_KEYS) if b.matches(event)), None)
    if game is None or binding is None or binding.action is None:
        return False
    if top.name == "not_here":  # another such key while one is explained: one dialog, the newest words
        app.pop()
        below = app.scenes.top
        if below is None or is_game_scene(below):
            return False
        top = below
    if _screen_takes(app, binding, partial(binding.action, game)):
        return True
    actions.say(app, not_here(binding, f"{_screen_name(top)}: close this first"))
    return True


def scene_key(app: AppContext, event: pygame.event.Event) -> bool:
    """F1, and on a game screen Ctrl+Z, Ctrl+Y and Esc, when the top screen's key map leaves
    them to the shell. True when the shell used the key."""
    top = app.scenes.top
    if top is None or claims(top.key_map(), event):
        return False
    if top.typing() and not _HELP.matches(event):
        return False  # the text box has the keyboard (the screen's own Esc lets go of it)
    if _HELP.matches(event):
        if top.name == "help":
            return False  # the help's own Close key
        actions.show_help(app, help_groups(top))
        return True
    if not is_game_scene(top):
        return _game_key_elsewhere(app, top, event)
    if dispatch(UNDO_KEYS, event, top) or dispatch(GAME_KEYS, event, top):
        return True
    if _QUIT.matches(event):
        if top.session.return_to is not None:  # a game opened from another one: back to it
            actions.return_action(top)
        else:
            actions.request_quit(app)
        return True
    return False


def shell_help_groups(app: AppContext | None = None) -> list[tuple[str, Sequence[Binding]]]:
    """The shell's keys that work on every screen and the game keys (F2, F3), grouped: for a
    screen that writes its own help (undo, help and Esc are in its own key map). `app`: Ctrl+B is
    left out when its game was not opened from another (nothing to go back to)."""
    game = live_game(app) if app is not None else None
    back = game is None or game.session.return_to is not None
    groups: dict[str, list[Binding]] = {}
    for b in (*SHELL_KEYS, *GAME_KEYS):
        if b.label != "Ctrl+B" or back:
            groups.setdefault(b.group, []).append(b)
    return list(groups.items())


def help_groups(screen: SceneLike) -> list[tuple[str, Sequence[Binding]]]:
    """The F1 help of a screen: its own key map first, then what the shell adds on it (on a game
    screen the undo, replay, GM and quit keys; elsewhere the saves and window keys), leaving out
    any key the screen's map handles itself and the shell keys it refuses (`REFUSED_SHELL_KEYS`,
    optional: labels). Generated from the key maps, so it cannot name a key that does nothing there."""
    own = list(screen.key_map())
    mine = "This screen" if not is_game_scene(screen) else f"This screen ({screen.session.system.title})"
    shell = (*UNDO_KEYS, *SHELL_KEYS, *GAME_KEYS, _HELP, _QUIT) if is_game_scene(screen) else (*SHELL_KEYS, _HELP)
    refused = set(getattr(screen, "REFUSED_SHELL_KEYS", ()))  # what the screen only explains (the hand-off's F5)
    app = getattr(screen, "app", None)
    game = screen if is_game_scene(screen) else (live_game(app) if app is not None else None)
    if game is not None and game.session.return_to is None:
        refused.add("Ctrl+B")  # (no game to go back to: a battle not opened from a campaign)
    shell = tuple(b for b in shell if b.label not in refused)
    groups: dict[str, list[Binding]] = {}
    if own:
        groups[mine] = [b for b in own if b.in_help]
    for b in shell:
        if any(set(b.keys) & set(o.keys) and b.ctrl == o.ctrl for o in own):
            continue
        groups.setdefault(b.group, []).append(b)
    return list(groups.items())
