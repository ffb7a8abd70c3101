"""The mass board's PageDown / PageUp move the command list a whole page, keeping one row of
context (the row at the edge it moves towards is then at the other edge), and the selection
moves with it; at either end they go to the first / last choice. Before, a page scrolled only
enough to show the choice a page's count on: the list moved by a row or two."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame

from game.shell.app import App, Settings
from game.shell.launch import open_game
from game.systems.mass.client import MassBoardScene, open_scene
from game.table import TABLE

from .massfix import BATTLE, key_events

# four more of Hida Jo's people able to assess Heaven and Honor: 7 x 7 appointments, pages of them
MORE = "".join(f"""      - id: hida-extra{i}
        name: Kuni Extra{i}
        skills: {{divination: 1, politics: 1}}
        status: 2
""" for i in range(4))


def _rows(scene: Any) -> list[int]:
    return [r.index for r in scene.command_rows()]


def _open(tmp: Path) -> tuple[App, Any]:
    battle = tmp / "many.yaml"
    text = BATTLE.read_text(encoding="utf-8")
    battle.write_text(text.replace("    brutes:\n      - {armour: heavy, count: 6000}",
                                   MORE + "    brutes:\n      - {armour: heavy, count: 6000}", 1), encoding="utf-8")
    app = App(TABLE, size=(960, 600), headless=True, settings=Settings(animation="instant"))
    pygame.event.clear()
    scene = open_scene(app, open_game(TABLE, battle))
    assert isinstance(scene, MassBoardScene)
    app.push(scene)
    app.step([])
    app.step(key_events(pygame.K_SPACE))  # past the hand-off: the sealed appointments
    assert len(scene.legal) > 3 * len(_rows(scene)), "the test needs a list of several pages"
    return app, scene


def test_pagedown_moves_a_whole_page_keeping_the_last_row_in_sight_and_the_selection_with_it(tmp_path: Path) -> None:
    app, scene = _open(tmp_path)
    before = _rows(scene)
    assert len(before) >= 3 and scene.selected == 0
    app.step(key_events(pygame.K_PAGEDOWN))
    after = _rows(scene)
    assert after[0] == before[-1]  # one row of context: the last row seen is now the first
    moved = after[0] - before[0]
    assert moved == len(before) - 1 >= 2  # a page, not a row or two
    assert scene.selected == moved and scene.selected in after


def test_pageup_undoes_a_pagedown_and_both_stop_at_the_ends(tmp_path: Path) -> None:
    app, scene = _open(tmp_path)
    top = _rows(scene)
    app.step(key_events(pygame.K_PAGEDOWN))
    middle = _rows(scene)
    app.step(key_events(pygame.K_PAGEUP))
    back = _rows(scene)
    assert back[-1] == middle[0]  # one row of context the other way: the first row seen is now the last
    assert back == top and scene.selected == 0 and scene.scroll == 0
    n = len(scene.legal)
    for _ in range(n):  # PageDown to the end: the last choice, selected and in sight
        app.step(key_events(pygame.K_PAGEDOWN))
    assert scene.selected == n - 1 and scene.list_view().below == 0
    for _ in range(n):
        app.step(key_events(pygame.K_PAGEUP))
    assert scene.selected == 0 and scene.scroll == 0
