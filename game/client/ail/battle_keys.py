"""The battle's own keys (the shell's are in game/client/keys.py; F1 shows both). Arrow keys and
WASD are held for panning (BattleScene.update moves the camera), so they are listed for the help."""

from __future__ import annotations

import pygame

from game.client.keys import GAME_KEYS, Binding

PAN_KEYS = {
    pygame.K_LEFT: (-1, 0), pygame.K_a: (-1, 0), pygame.K_RIGHT: (1, 0), pygame.K_d: (1, 0),
    pygame.K_UP: (0, -1), pygame.K_w: (0, -1), pygame.K_DOWN: (0, 1), pygame.K_s: (0, 1),
}

# The battle's own keys (the shell's are in game/client/keys.py; F1 shows both). Arrow keys and
# WASD are held for panning (see BattleScene.update), so they are listed here for the help.
BATTLE_KEYS: tuple[Binding, ...] = (
    Binding(tuple(PAN_KEYS), "Arrows / WASD", "pan the map"),
    Binding((pygame.K_z,), "Ctrl+Z", "undo the last command that rolled no dice and revealed nothing",
            lambda s: s.undo(), ctrl=True),
    Binding((pygame.K_ESCAPE,), "Esc", "cancel the current choice", lambda s: s.cancel()),
    Binding((pygame.K_g,), "G", "hex grid on/off", lambda s: s.toggle_grid()),
    Binding((pygame.K_TAB, pygame.K_n), "Tab or N", "next unit that can still act", lambda s: s.next_unit()),
    Binding((pygame.K_e, pygame.K_RETURN, pygame.K_KP_ENTER), "E or Enter",
            "end the phase (asks when units have not acted)", lambda s: s.end_phase()),
    Binding((pygame.K_F1,), "F1", "this help", lambda s: s.help_dialog()),
    Binding((pygame.K_o,), "O", "options (animation speed, blackout, quit)", lambda s: s.options_dialog()),
    Binding((pygame.K_SPACE,), "Space", "skip the running animation", lambda s: s.anim.skip()),
    *GAME_KEYS,
)
