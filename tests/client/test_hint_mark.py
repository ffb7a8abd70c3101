"""The hint key marks on the map where its command would act (a QA look at 960x600: the toast
named a hex, and the only path drawn was the one under the pointer)."""

from __future__ import annotations

import time
from typing import Any

import pygame

import game.systems.tactical.rules as ail
from game.core.hexgrid import Hex
from game.systems.tactical.client.labels import draw_toast, view_rect
from game.systems.tactical.client.modes import AttackMode, hint_mark
from game.systems.tactical.rules.commands import MoveThenDash
from tests.client.clientfix import battle, click_hex, key, make_app, make_session, settle


def _hinted(app: Any) -> Any:
    scene = battle(app)
    key(app, pygame.K_h)
    for _ in range(400):  # the computer thinks in a thread (at most a second)
        if (scene.toast_text or "").startswith("Hint ("):
            break
        time.sleep(0.01)
        settle(app, 1)
    assert (scene.toast_text or "").startswith("Hint ("), scene.toast_text
    settle(app, 2)
    return scene


def _labels(scene: Any) -> list[str]:
    return [item.text for item in scene.map_labels.items]


def test_hint_mark_names_the_hex_where_each_kind_of_command_acts() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (5, 2))])
    st = session.state
    path = (Hex(2, 2), Hex(3, 2), Hex(4, 3))
    assert hint_mark(st, ail.Move(unit_id="r1", path=path)) == (Hex(4, 3), "Hint: move here")
    assert hint_mark(st, ail.Dash(unit_id="r1", path=path)) == (Hex(4, 3), "Hint: dash here")
    assert hint_mark(st, MoveThenDash(unit_id="r1", move_path=path[:2], dash_path=path[1:])) == \
        (Hex(4, 3), "Hint: move and dash here")
    assert hint_mark(st, ail.Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles")) == \
        (st.units["m1"].hex, "Hint: attack with bolt rifles")
    assert hint_mark(st, ail.EnterStance(unit_id="r1", stance="guard")) == (st.units["r1"].hex, "Hint: guard")
    assert hint_mark(st, ail.ChooseTurnPlace(side="blue", position=0)) is None


def test_a_move_hint_marks_the_hex_it_moves_to_until_the_next_command() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (12, 8))],
                           width=16, height=12, phase="movement")
    app = make_app(session, blackout=False)
    scene = _hinted(app)
    mark = scene.mode.hinted
    assert mark is not None and mark[1].startswith("Hint: "), scene.toast_text
    assert mark[1] in _labels(scene)  # written on the map
    click_hex(app, mark[0])  # the player follows it
    settle(app, 30)
    assert scene.mode.hinted is None and mark[1] not in _labels(scene)


def test_an_attack_hint_selects_its_weapon_and_marks_its_target() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (5, 2))],
                           phase="attack")
    app = make_app(session, blackout=False)
    scene = _hinted(app)
    mark = scene.mode.hinted
    if mark is None or "attack" not in mark[1]:  # (the computer may rather take a stance: then that)
        assert mark is not None and mark[0] == session.state.units["r1"].hex, scene.toast_text
        return
    assert isinstance(scene.mode, AttackMode) and mark[0] == session.state.units["m1"].hex
    assert mark[1] == f"Hint: attack with {scene.mode.weapon}"
    assert mark[1] in _labels(scene)


def test_a_hint_brings_its_mark_into_view_even_when_its_unit_and_target_are_far_apart() -> None:
    session = make_session([("g1", "field_gun", "blue", (1, 2)), ("m1", "militia_band", "red", (13, 2))],
                           width=30, phase="attack")
    app = make_app(session, size=(960, 600), blackout=False)
    scene = battle(app)
    cam, target = scene.camera, scene.layout.hex_center(session.state.units["m1"].hex)
    cam.ensure_visible(*scene.layout.hex_center(session.state.units["g1"].hex))
    assert not cam.contains_screen(*cam.world_to_screen(*target))  # 12 hexes: more than a 960 window shows
    scene = _hinted(app)
    assert scene.mode.hinted == (session.state.units["m1"].hex, "Hint: attack with field gun"), scene.toast_text
    assert cam.contains_screen(*cam.world_to_screen(*target))



def _stance_hint(app: Any) -> Any:
    """A hint in the attack phase whose command is a stance (the only target hopeless)."""
    scene = _hinted(app)
    command = scene._hint_command
    assert command is not None and command.kind == "enter_stance", scene.toast_text
    return scene


def _far_app() -> Any:
    session = make_session([("r1", "rifle_section", "blue", (1, 2)), ("m1", "militia_band", "red", (14, 8))],
                           width=16, height=12, phase="attack")
    return make_app(session, blackout=False), session


def test_a_click_on_a_stance_hints_mark_plays_the_stance() -> None:
    app, session = _far_app()
    scene = _stance_hint(app)
    mark = scene.mode.hinted
    click_hex(app, mark[0])
    settle(app, 5)
    assert session.history and session.history[-1].command == scene._hint_command
    assert scene.mode.hinted is None


def test_a_click_away_from_the_mark_takes_the_mark_away_and_plays_nothing() -> None:
    app, session = _far_app()
    scene = _stance_hint(app)
    click_hex(app, session.board.hex_at(8, 8))
    settle(app, 2)
    assert scene.mode.hinted is None and not session.history
    assert not any(x.text.startswith("Hint") for x in scene.map_labels.items)


def test_the_hints_label_is_placed_clear_of_the_other_labels_on_the_map() -> None:
    session = make_session([("g1", "field_gun", "blue", (1, 2)), ("m1", "militia_band", "red", (6, 2)),
                            ("m2", "militia_band", "red", (6, 3))], phase="attack")
    app = make_app(session, blackout=False)
    scene = _hinted(app)
    app.render()
    placed = scene.map_labels.placed
    hint = [b for x, b in placed if x.text.startswith("Hint")]
    others = [b for x, b in placed if not x.text.startswith("Hint")]
    assert hint and others, [x.text for x, _ in placed]
    assert not any(hint[0].colliderect(b) for b in others)


def _framed(command: Any, far: tuple[int, int]) -> tuple[Any, Any]:
    """A move hint's framing at 960 x 600, the camera first on the far corner of the map."""
    session = make_session([("r1", "rifle_section", "blue", (2, 4)), ("m1", "militia_band", "red", far)],
                           width=30, height=14, phase="movement")
    app = make_app(session, size=(960, 600), blackout=False)
    scene = battle(app)
    scene.camera.centre_on(*scene.layout.hex_center(session.state.units["m1"].hex))
    scene._select_hinted(command)
    return scene, session.state


def _on_screen(scene: Any, h: Hex) -> bool:
    cam = scene.camera
    return bool(cam.contains_screen(*cam.world_to_screen(*scene.layout.hex_center(h))))


def test_at_960x600_a_move_and_dash_hint_shows_its_unit_and_its_target_hex_together() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 4))], width=30, height=14)
    b = session.state.board
    move = tuple(b.hex_at(c, 4) for c in range(3, 7))
    dash = (move[-1], b.hex_at(7, 4), b.hex_at(8, 4))
    scene, st = _framed(MoveThenDash(unit_id="r1", move_path=move, dash_path=dash), (27, 12))
    assert scene.mode.hinted == (dash[-1], "Hint: move and dash here")
    assert _on_screen(scene, st.units["r1"].hex) and _on_screen(scene, dash[-1])
    assert all(_on_screen(scene, h) for h in (*move, *dash))


def test_a_move_hint_too_long_for_the_view_shows_its_unit_and_the_start_of_its_path() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 4))], width=30, height=14)
    b = session.state.board
    path = tuple(b.hex_at(c, 4) for c in range(3, 20))  # (no rule allows it: the framing alone)
    scene, st = _framed(ail.Move(unit_id="r1", path=path), (27, 12))
    assert _on_screen(scene, st.units["r1"].hex) and _on_screen(scene, path[0]) and _on_screen(scene, path[3])


def test_a_move_hints_unit_and_target_hex_are_framed_above_the_hints_message_at_the_foot_of_the_view() -> None:
    session = make_session([("r1", "rifle_section", "blue", (6, 11)), ("m1", "militia_band", "red", (27, 1))],
                           width=30, height=14, phase="movement")
    app = make_app(session, size=(960, 600), blackout=False)
    scene = battle(app)
    b = session.state.board
    path = tuple(b.hex_at(6, r) for r in range(10, 4, -1))  # six hexes north
    scene.camera.centre_on(*scene.layout.hex_center(session.state.units["m1"].hex))
    scene.toast("Hint (hard): move Rifle Section 1 to 6,6. Why: move Rifle Section 1 to hex 6,6: 5 hexes nearer "
                "the hexes it must hold; enemy fire there 0.3, here 0.0 (worth 1.71)", 10.0)
    scene._select_hinted(ail.Move(unit_id="r1", path=path))
    cam = scene.camera
    box = draw_toast(pygame.Surface(app.screen.get_size()), scene.toast_text or "", view_rect(cam))
    for h in (session.state.units["r1"].hex, path[-1]):
        x, y = cam.world_to_screen(*scene.layout.hex_center(h))
        half = scene.layout.th * cam.zoom / 2  # the whole hex, counter and all
        assert cam.contains_screen(x, y - half) and y + half < box.top, (h, y, box)
