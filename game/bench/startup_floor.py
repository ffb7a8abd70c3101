"""The start-up floor: what the game's libraries and its window cost before any of the game runs.

Run as a script by game/bench/startup.py (`python .../startup_floor.py`, so that not even the
`game` package is imported): imports what the first frame cannot do without (pygame, pygame_gui,
PyYAML, pydantic), builds one pydantic model and validates it (pydantic imports most of itself on
the first model), opens the window as the game does, makes a pygame_gui manager with the toolkit's
default theme, draws it and flips one frame, then prints the same line the game prints after its
first frame. The start-up figure's time minus this one is the game's own work.

(No `from __future__ import annotations`: the module defines a pydantic model, see
tests/test_model_import_cost.py.)
"""

import os

os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")  # as game/shell/app.py sets it
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")  # as `python -m game` sets it
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # (the benchmark sets it for the game too)

import pygame  # noqa: E402
import pygame_gui  # noqa: E402
import yaml  # noqa: E402,F401  (the scenario and the toolkit's translations are YAML)
from pydantic import BaseModel  # noqa: E402

MARK = "frames drawn:"  # game.shell.app.FRAMES_DRAWN, not imported: this must not import the game


class _Probe(BaseModel):
    name: str = ""
    size: tuple[int, int] = (0, 0)


def main() -> None:
    _Probe.model_validate({"name": "floor", "size": [1280, 800]})
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((1280, 800), pygame.RESIZABLE)
    ui = pygame_gui.UIManager(screen.get_size())
    ui.update(0.0)
    screen.fill((14, 16, 19))
    ui.draw_ui(screen)
    pygame.display.flip()
    print(f"{MARK} 1", flush=True)
    pygame.quit()


if __name__ == "__main__":
    main()
