"""The app loop draws only when something changes: idle it waits for events (a heartbeat of a few
frames a second, flipped only when the picture changed), input wakes it at once, and a held pan
key or a drag runs it at the full rate."""

from __future__ import annotations

import time

import pygame
import pytest

from game.shell.app import App, Settings
from game.table import TABLE


@pytest.fixture
def app() -> App:
    a = App.for_scenario(TABLE, None, size=(1280, 800), headless=True, settings=Settings(animation="instant",
                                                                                 blackout=False))
    pygame.event.clear()
    return a


def _count(app: App, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    counts = {"render": 0, "flip": 0}
    render, flip = app.render, pygame.display.flip

    def counting_render() -> pygame.Surface:
        counts["render"] += 1
        return render()

    def counting_flip() -> None:
        counts["flip"] += 1
        flip()

    monkeypatch.setattr(app, "render", counting_render)
    monkeypatch.setattr(pygame.display, "flip", counting_flip)
    return counts


def test_an_idle_window_draws_a_heartbeat_not_sixty_frames_a_second(app: App,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    counts = _count(app, monkeypatch)
    app.run(max_seconds=2.0)
    # the first AFTER_INPUT_FRAMES frames at full rate, then one heartbeat per IDLE_MS
    assert counts["render"] <= App.AFTER_INPUT_FRAMES + 2.0 * 1000 / App.IDLE_MS + 2
    # heartbeats showing the same picture are not flipped
    assert counts["flip"] <= App.AFTER_INPUT_FRAMES + 2


def test_the_full_rate_baseline_draws_and_flips_every_frame_without_waiting(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    counts = _count(app, monkeypatch)
    waits: list[bool] = []
    next_events = app.next_events

    def recording(busy: bool) -> list[pygame.event.Event]:
        waits.append(busy)
        return next_events(busy)

    monkeypatch.setattr(app, "next_events", recording)
    # counted in frames, not seconds, so a loaded machine cannot make it fail
    app.run(max_frames=40, full_rate=True)
    assert counts["render"] == 40 and counts["flip"] == 40
    assert waits == [True] * 40  # never the idle wait for events


def test_input_wakes_an_idle_loop_at_once_and_no_input_waits_a_heartbeat(app: App) -> None:
    t0 = time.perf_counter()
    assert app.next_events(busy=False) == []
    assert time.perf_counter() - t0 >= App.IDLE_MS / 1000 * 0.8
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(600, 400), rel=(1, 0), buttons=(0, 0, 0)))
    t0 = time.perf_counter()
    events = app.next_events(busy=False)
    assert time.perf_counter() - t0 < 0.1
    assert any(e.type == pygame.MOUSEMOTION and e.pos == (600, 400) for e in events)


def test_a_held_pan_key_asks_for_frames_until_it_is_released(app: App) -> None:
    from game.systems.tactical.client.battle import BattleScene

    for _ in range(5):  # close the briefing and whatever dialog opens the game
        app.step([])
        while not isinstance(app.scenes.top, BattleScene):
            app.pop()
    pygame.event.clear()
    assert not app.wants_frames()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0, unicode="", scancode=0))
    app.step()
    assert app.wants_frames()
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_RIGHT, mod=0, unicode="", scancode=0))
    app.step()
    assert not app.wants_frames()


def test_a_scene_showing_a_busy_scene_inside_it_asks_for_frames(app: App) -> None:
    from game.shell.scene import Scene

    class Busy:
        busy = True

    class Outer(Scene):  # as the replay view holds its battle scene
        def inner_scenes(self) -> tuple[Scene, ...]:
            return (inner,)

    inner = Scene(app)
    outer = Outer(app)
    assert not outer.wants_frames()
    inner.anim = Busy()
    assert inner.wants_frames() and outer.wants_frames()


def test_a_run_with_a_frame_limit_says_so_right_after_its_last_frame(app: App, capsys: pytest.CaptureFixture[str]) -> None:
    from game.shell.app import FRAMES_DRAWN

    app.run(max_frames=2, full_rate=True)
    # the start-up benchmark stops its clock at this line (game/bench/startup.py)
    assert capsys.readouterr().out.splitlines()[-1] == f"{FRAMES_DRAWN} 2"


def test_the_window_counts_as_still_showing_the_last_frame_only_when_nothing_else_drew_on_it(app: App) -> None:
    from game.shell.scene import Scene

    app.render()
    app.render()
    assert app.screen_kept  # the same scenes on the same window, one render after the other
    app.forget_screen()  # something else drew on the window
    app.render()
    assert not app.screen_kept
    app.render()
    assert app.screen_kept
    app.scenes.push(Scene(app))  # another scene on top: the window shows something else
    app.render()
    assert not app.screen_kept
    app.scenes.pop()
    app.render()
    assert not app.screen_kept  # back: the last frame was the other scene's
    app.render()
    assert app.screen_kept
    app.resize((1000, 700))  # a new window holds no picture
    app.render()
    assert not app.screen_kept
