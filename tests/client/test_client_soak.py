"""The client survives whole games of random legal commands: every event animates, every
decision opens its dialog, every frame draws (headless, default scenario)."""

from __future__ import annotations

import random

import pygame
import pytest

import game.systems.tactical.rules as ail
from game.shell.app import App, Settings
from game.shell.scenes.handoff import HandoffScene
from game.systems.tactical.client.battle import BattleScene
from game.table import TABLE


def play_random(commands: int, seed: int, animation: str) -> BattleScene:
    app = App.for_scenario(TABLE, None, size=(1280, 800), headless=True,
                           settings=Settings(animation=animation, blackout=True))  # type: ignore[arg-type]
    scene = next(s for s in app.scenes if isinstance(s, BattleScene))
    rng = random.Random(seed)
    for _ in range(commands):
        # whatever screen is up (hand-off, dialog), the battle scene is underneath
        for _ in range(10):
            top = app.scenes.top
            if top is scene:
                break
            if isinstance(top, HandoffScene):
                top._continue()  # as if the next player pressed a key
            else:
                app.pop()  # the command below answers what the dialog asked
            app.step([])
        assert app.scenes.top is scene, f"stuck behind {getattr(app.scenes.top, 'name', '?')}"
        st = scene.state
        if st.phase == "ended":
            break
        options = ail.legal_commands(st)
        assert options, f"no legal command in phase {st.phase}"
        # prefer ending phases now and then so games move on
        ends = [c for c in options if c.kind == "end_phase"]
        pick = ends[0] if ends and rng.random() < 0.15 else rng.choice(options)
        before = len(scene.session.history)
        scene.submit(pick)
        assert len(scene.session.history) == before + 1, f"legal command refused: {pick}"
        for _ in range(3):
            app.step([], dt=0.2)
            app.render()
        if st.pending is None and scene.state.phase in ("movement", "attack"):
            side = scene.state.active_side
            mine = [u for u in scene.state.live_units(side)] if side else []
            if mine:  # hover and select something like a player would
                u = rng.choice(mine)
                scene.selected = u.id
                scene.hover = u.hex
                app.step([])
                app.render()
    return scene


def test_random_legal_play_through_the_battle_scene_never_breaks_the_client() -> None:
    scene = play_random(60, seed=11, animation="fast")
    assert len(scene.session.history) >= 40


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(5))
def test_long_random_games_through_the_client(seed: int) -> None:
    play_random(1500, seed=seed, animation="normal" if seed % 2 else "instant")
    pygame.event.clear()
