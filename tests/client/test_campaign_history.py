"""The reveal, the week's results and the history browser (issue 29, item 3), headless.

Sealing the last order shows the reveal: both sides' orders, every die, the band, the casualties
as a total with the table's range and the roll, the movement, then the week's summary. After a
save is loaded the map's log is not empty and H shows the same pages.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pygame
import pytest

from game import paths
from game.shell import savegame
from game.shell.app import App, Settings
from game.shell.launch import open_game, scene_for
from game.table import TABLE
from tests.client.test_campaign_client import _app, key, past_reveal, play_to_orders, through_handoff


@pytest.fixture()
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path))
    return tmp_path


def _week_one(app: Any, scene: Any) -> None:
    play_to_orders(app, scene)
    for k in (pygame.K_1, pygame.K_5, pygame.K_2, pygame.K_3):
        through_handoff(app)
        key(app, k)
        key(app, pygame.K_RETURN)


def _pages(app: Any) -> list[list[str]]:
    """Every page of the results screen on top, each as the strings drawn."""
    top = app.scenes.top
    out = []
    for _ in range(len(top.pages)):
        app.render()
        out.append(list(top.drawn_strings))
        key(app, pygame.K_RIGHT)
    return out


def test_sealing_the_last_order_shows_each_battle_and_then_the_weeks_summary() -> None:
    app, scene = _app()
    _week_one(app, scene)
    top = app.scenes.top
    assert top.name == "campaign_results"
    key(app, pygame.K_RETURN)  # Enter turns the page (no battle is skipped by a hasty Enter)
    assert app.scenes.top is top and top.index == 1
    key(app, pygame.K_LEFT)
    pages = _pages(app)
    assert len(pages) == 3  # B1, B2, the summary
    for page in pages[:2]:
        text = "\n".join(page)
        for head in ("Orders", "Dice", "Result", "Casualties"):
            assert head in page
        assert sum(1 for s in page if "; vanguard " in s) == 2  # both sides' orders
        assert "successes" in text
        assert re.search(r"casualt(y|ies) \(the table's range", text)
    b1 = "\n".join(pages[0])
    assert "The Zones: Withdraw" in b1 and "Jibril: Block" in b1
    joined = " ".join(x.strip() for x in pages[0])  # (long lines are wrapped)
    rolls = re.findall(r"range (\d+)-(\d+): a d(\d+) rolled (\d+), so (\d+)", joined)
    assert rolls  # the range, its die and the total read together
    for lo, hi, sides, die, total in ((int(v) for v in r) for r in rolls):
        assert sides == hi - lo + 1 and 1 <= die <= sides and total == lo + die - 1
    assert any(s.startswith("Week 1: summary") for s in pages[2])
    assert any(s.startswith("Battle B1: ") for s in pages[2])
    past_reveal(app)
    assert app.scenes.top.name == "handoff"


def test_after_loading_a_save_the_log_and_the_history_show_the_weeks_battles(saves: Path) -> None:
    app, scene = _app()
    _week_one(app, scene)
    past_reveal(app)
    through_handoff(app)
    key(app, pygame.K_r)
    pages_before = _pages(app)
    key(app, pygame.K_ESCAPE)
    path = savegame.quick_save(scene.session)
    session = open_game(TABLE, str(path))
    app2 = App(TABLE, size=(1280, 800), headless=True, settings=Settings(animation="instant"))
    scene2 = scene_for(app2, session)
    app2.push(scene2)
    through_handoff(app2)
    assert scene2.log and any("successes" in line for line in scene2.log)
    assert scene2.log == scene.log  # the same log, the skipped turns' reasons too
    key(app2, pygame.K_r)
    assert app2.scenes.top.name == "campaign_results"
    after = _pages(app2)
    assert [p[1:] for p in after] == [p[1:] for p in pages_before]  # (the first line: the page number)
