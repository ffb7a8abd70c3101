"""A readable campaign map (issue 29, item 4), headless: stacked armies drawn side by side and
legible at 960x600, town names never over a counter or another name, the hovered hex's panel,
the legend, the army list and the briefing, the week's steps, no reach after an army moved."""

from __future__ import annotations

from typing import Any

import pygame

from game.shell.app import App, Settings
from game.shell.launch import open_game, scene_for
from game.table import TABLE
from tests.client.clientfix import move_mouse
from tests.client.test_campaign_client import click, enter, key, move, through_handoff


def _open(size: tuple[int, int], path: str = "maps/campaign/teaching.yaml") -> tuple[Any, Any]:
    session = open_game(TABLE, path)
    app = App(TABLE, size=size, headless=True, settings=Settings(animation="instant"))
    scene = scene_for(app, session)
    app.push(scene)
    through_handoff(app)
    app.render()
    return app, scene


def _no_overlaps(scene: Any) -> None:
    counters = [r for _, r in scene.counter_rects]
    for i, a in enumerate(counters):
        assert a.w >= 18 and a.h >= 18  # legible however small the map is drawn
        assert all(not a.colliderect(b) for b in counters[i + 1:])
    names = [r for _, r in scene.name_rects]
    for i, n in enumerate(names):
        assert n.collidelist(counters) < 0, scene.name_rects[i][0]
        assert all(not n.colliderect(m) for m in names[i + 1:])


def test_two_armies_in_one_hex_are_drawn_side_by_side_and_names_cover_no_counter_at_960x600() -> None:
    app, scene = _open((960, 600))
    enter(app)  # the Zones end their turn
    enter(app)  # the Resistance too
    move(app, scene, (29, 9), (28, 11))  # the host joins the Resistance's hex
    app.render()
    at = [(aid, r) for aid, r in scene.counter_rects if scene.state.armies[aid].hex == (28, 11)]
    assert len(at) == 2
    _no_overlaps(scene)


def test_names_never_cover_counters_at_any_zoom() -> None:
    app, scene = _open((1280, 800), "maps/campaign/ascension-isle.yaml")
    for _ in range(8):
        _no_overlaps(scene)
        key(app, pygame.K_PLUS)
        app.render()


def test_the_hovered_hex_panel_names_terrain_cost_town_armies_and_battle() -> None:
    app, scene = _open((1280, 800))
    move_mouse(app, tuple(int(v) for v in scene.hex_centre((21, 27))))
    app.render()
    text = " ".join(scene.drawn_strings)
    assert "21,27: town (cost 1), Lowmarch" in text
    assert "Lowmarch Rifle Corps (The Zones): 14 units" in text


def test_the_legend_the_army_list_the_briefing_and_the_weeks_steps_are_on_screen() -> None:
    app, scene = _open((960, 600))
    text = scene.drawn_strings
    st = scene.state
    for p in st.players:
        assert any(s.startswith(f"{st.player_name(p)}: 1 army") for s in text)  # the legend
    assert any(s.startswith("Plains: cost 1") or s.startswith("plains: cost 1") for s in text)
    assert any(s.startswith("Sea: impassable") or s.startswith("sea: impassable") for s in text)
    assert any("Lowmarch Rifle Corps at 21,27: 14 units" in s for s in text)  # the army list
    assert any(s.startswith("Briefing: ") for s in text)
    assert "1. Move" in text and "5. Sealed orders" in text
    key(app, pygame.K_l)
    assert not any(s.startswith("Sea: impassable") or s.startswith("sea: impassable") for s in scene.drawn_strings)


def test_an_army_that_has_moved_shows_no_reach_and_a_click_selects_instead_of_refusing() -> None:
    app, scene = _open((1280, 800))
    move(app, scene, (21, 27), (20, 27))
    assert scene.state.armies["rifles"].hex == (20, 27) and scene.selected == "rifles"
    app.render()
    assert not any(s.startswith("cost ") for s in scene.drawn_strings)
    click(app, scene.hex_centre((18, 27)))
    assert scene.message == ""  # nothing refused: the click only changes the selection


def test_the_hovered_hex_panel_moves_off_the_counters_and_the_legend_stays_below_the_map_at_every_zoom() -> None:
    app, scene = _open((960, 600))
    lowmarch = tuple(int(v) for v in scene.hex_centre((21, 27)))
    legend = scene.legend_rect()
    for _ in range(8):
        move_mouse(app, lowmarch)
        app.render()
        counters = [r for _, r in scene.counter_rects]
        names = [r for _, r in scene.name_rects]
        assert len(scene.boxes) == 1  # the hovered hex's panel (the legend is a band below the map view)
        for box in scene.boxes:
            assert box.collidelist(counters) < 0 and box.collidelist(names) < 0
            assert not box.colliderect(legend)
        assert scene.legend_box == legend and not legend.colliderect(scene.map_view())
        scene.zoom_at(lowmarch, 1.25)
