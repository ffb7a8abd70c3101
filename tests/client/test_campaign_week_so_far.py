"""The history (R) in the middle of a week: the week's battles have begun (their scouting dice
rolled) but nothing is resolved; no page calls it a summary or counts battles as fought, its last
page says what there is so far and each battle page that it is not resolved yet. Once the week
has ended its summary is there as before."""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from game import paths  # noqa: E402
from tests.client.test_campaign_client import (  # noqa: E402
    _app,
    key,
    past_reveal,
    play_to_orders,
    play_to_posts,
    through_handoff,
)
from tests.client.test_campaign_history import _pages  # noqa: E402


@pytest.fixture(autouse=True)
def saves_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))


def test_the_history_before_the_weeks_reveal_has_no_summary_and_says_so_far() -> None:
    app, scene = _app()
    play_to_posts(app, scene)
    key(app, pygame.K_r)
    assert app.scenes.top.name == "campaign_results"
    pages = _pages(app)
    text = " ".join(s for page in pages for s in page)
    assert "Week 1: summary" not in text and "fought" not in text
    assert pages[-1][1] == "Week 1 so far (the week has not ended)"
    assert "2 battles begun, 0 resolved so far." in " ".join(pages[-1])
    battle_pages = [p for p in pages if any(s.startswith("Week 1: battle ") for s in p)]
    assert len(battle_pages) == 2
    assert all(any(s.startswith("Not resolved yet") for s in p) for p in battle_pages)


def test_once_the_week_has_ended_the_history_shows_its_summary() -> None:
    app, scene = _app()
    play_to_orders(app, scene)
    for k in (pygame.K_1, pygame.K_5, pygame.K_2, pygame.K_3):
        through_handoff(app)
        key(app, k)
        key(app, pygame.K_RETURN)
    past_reveal(app)
    through_handoff(app)
    key(app, pygame.K_r)
    text = " ".join(s for page in _pages(app) for s in page)
    assert "Week 1: summary" in text and "Week 1: 2 battles fought" in text
    assert "so far" not in text and "Not resolved yet" not in text
