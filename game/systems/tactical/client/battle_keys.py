"""The battle's own keys (the shell's are in game/shell/keys.py; F1 shows both). Arrow keys and
WASD are held for panning (BattleScene.update moves the camera), so they are listed for the help."""

from __future__ import annotations

from typing import Any

import pygame

from game.shell.actions import request_quit, return_action, undo_action
from game.shell.keys import GAME_KEYS, UNDO_KEYS, Binding

PAN_KEYS = {
    pygame.K_LEFT: (-1, 0), pygame.K_a: (-1, 0), pygame.K_RIGHT: (1, 0), pygame.K_d: (1, 0),
    pygame.K_UP: (0, -1), pygame.K_w: (0, -1), pygame.K_DOWN: (0, 1), pygame.K_s: (0, 1),
}

def _escape(scene: Any) -> None:
    """Esc cancels what is chosen; on the bare map it is the shell's quit, as in every system."""
    if scene.selected is None and scene.mode.name == "select":
        if scene.session.return_to is not None:  # a battle fought out from the campaign: back to it
            return_action(scene)
        else:
            request_quit(scene.app)
    else:
        scene.cancel()


def _undo(scene: Any) -> None:
    scene.anim.skip()
    undo_action(scene)


# The battle's own keys (the shell's are in game/shell/keys.py; F1 shows both). Arrow keys and
# WASD are held for panning (see BattleScene.update), so they are listed here for the help.
BATTLE_KEYS: tuple[Binding, ...] = (
    Binding(tuple(PAN_KEYS), "Arrows / WASD", "pan the map"),
    # the shell's undo / redo (the same in every rule system); the running animation ends first
    Binding((pygame.K_z,), "Ctrl+Z", UNDO_KEYS[0].what, lambda s: _undo(s), ctrl=True),
    UNDO_KEYS[1],
    Binding((pygame.K_ESCAPE,), "Esc", "cancel the current choice; with nothing chosen: quit (asks first when "
            "there is unsaved play)", lambda s: _escape(s)),
    Binding((pygame.K_g,), "G", "hex grid on/off", lambda s: s.toggle_grid()),
    Binding((pygame.K_TAB, pygame.K_n), "Tab or N", "next unit that can still act", lambda s: s.next_unit()),
    Binding((pygame.K_e, pygame.K_RETURN, pygame.K_KP_ENTER), "E or Enter",
            "end the phase (asks when units have not acted)", lambda s: s.end_phase()),
    Binding((pygame.K_F1,), "F1", "this help", lambda s: s.help_dialog()),
    Binding((pygame.K_o,), "O", "options: animation speed, blackout, the defensive-action question, asking "
            "before ending a phase, quit", lambda s: s.options_dialog()),
    Binding((pygame.K_SPACE,), "Space", "skip the running animation", lambda s: s.anim.skip()),
    Binding((pygame.K_h,), "H", "hint: what the computer would do for the side to play, and why",
            lambda s: s.hint()),
    Binding((pygame.K_p,), "P", "players: who plays each side (Human, or the computer at a level); the GM may "
            "hand a side to the computer or take it back at any time", lambda s: s.players_dialog()),
    *GAME_KEYS,
)


def _round_key(n: int) -> Binding:
    return Binding((pygame.K_0 + n,), str(n), f"jump to round {n}", lambda r: r.jump_to_round(n), in_help=False)


# The replay view's keys (game/systems/tactical/client/replay.py dispatches them; F1 lists them). Esc leaves
# the GM's Move tool first, then the view.
REPLAY_KEYS: tuple[Binding, ...] = (
    Binding((pygame.K_RIGHT, pygame.K_d, pygame.K_SPACE, pygame.K_n), "Right / D / Space / N",
            "replay: one command forward", lambda r: r.step_forward()),
    Binding((pygame.K_LEFT, pygame.K_a, pygame.K_b), "Left / A / B", "replay: one command back",
            lambda r: r.step_back()),
    Binding((pygame.K_PAGEDOWN,), "PageDown", "replay: the next round", lambda r: r.next_round()),
    Binding((pygame.K_PAGEUP,), "PageUp", "replay: the round before", lambda r: r.previous_round()),
    Binding((pygame.K_HOME,), "Home", "replay: the start", lambda r: r.goto(0)),
    Binding((pygame.K_END,), "End", "replay: the latest command", lambda r: r.goto(len(r.steps))),
    Binding((pygame.K_m,), "M", "replay, GM: move a unit here and play on from this command (asks "
            "before discarding the later ones; the whole game is saved first)", lambda r: r.toggle_gm_move()),
    Binding((pygame.K_ESCAPE,), "Esc", "replay: leave the Move tool, or close the view",
            lambda r: r.toggle_gm_move() if r.gm_tool is not None else r.close()),
    Binding(tuple(pygame.K_0 + n for n in range(1, 10)), "1-9", "replay: jump to that round"),  # (the help's line)
    *(_round_key(n) for n in range(1, 10)),
)
