"""Issue 12's remaining client items, driven by real pygame events: one hand-off per attack on a
unit that has not acted, GM mode leaving the player's battle mode when the GM selects a unit,
on-map labels kept inside the view at the map's edges."""

from __future__ import annotations

import pygame

from tests.client.clientfix import (
    battle,
    click_hex,
    continue_handoff,
    key,
    make_app,
    make_session,
    press_button,
    settle,
    top_name,
)


def test_the_gm_selecting_another_unit_leaves_the_players_move_mode_and_its_tints() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("r2", "rifle_section", "blue", (2, 5)),
                            ("m1", "militia_band", "red", (9, 4))], phase="movement")
    app = make_app(session, blackout=False)
    b = battle(app)
    click_hex(app, b.state.units["r1"].hex)
    assert b.mode.name == "move" and b.mode.unit_id == "r1" and b.mode.fills(b)[1]  # the reach is tinted
    key(app, pygame.K_F2)
    assert top_name(app) == "gm"
    click_hex(app, b.state.units["r2"].hex)  # the GM's Select tool
    assert b.selected == "r2"
    assert b.mode.name == "select" and b.mode.unit_id is None
    assert b.mode.fills(b)[1] == [] and b.mode.path_view(b) is None
    settle(app)
    assert b.panels.hint_label.text.startswith("Click one of your units"), b.panels.hint_label.text  # not the move hint
    # the Move tool's pick of another unit leaves it too
    click_hex(app, b.state.units["r1"].hex)
    assert b.selected == "r1" and b.mode.name == "select"
    app.scenes.top.press("tool:move")  # type: ignore[union-attr]
    click_hex(app, b.state.units["r2"].hex)
    assert b.selected == "r2" and b.mode.name == "select"
    key(app, pygame.K_F2)  # leaving GM mode: the player starts from selecting
    assert top_name(app) == "battle" and b.mode.name == "select"
    click_hex(app, b.state.units["r1"].hex)
    assert b.mode.name == "move" and b.mode.unit_id == "r1"


def _record_pushes(app):  # type: ignore[no-untyped-def]
    pushed: list[str] = []
    push = app.push

    def recording(scene):  # type: ignore[no-untyped-def]
        pushed.append(getattr(scene, "name", ""))
        return push(scene)
    app.push = recording
    return pushed


def test_an_attack_on_a_unit_that_has_not_acted_costs_one_hand_off_not_two() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (5, 2)),
                            ("m2", "militia_band", "red", (9, 6))], phase="attack")
    app = make_app(session, blackout=True)
    b = battle(app)
    continue_handoff(app)  # Blue's turn starts behind the blackout
    assert b.viewer == "blue"
    pushed = _record_pushes(app)
    click_hex(app, b.state.units["r1"].hex)
    click_hex(app, b.state.units["m1"].hex)  # attack: Red is asked about a defensive action
    assert pushed == ["handoff"] and "pass the screen back" in app.scenes.top.detail  # type: ignore[union-attr]
    continue_handoff(app)
    assert top_name(app) == "defensive" and b.viewer == "red"
    press_button(app, "No")
    settle(app, 5)
    # the attack is resolved and Blue plays on: no second blackout, a note to pass the screen back
    assert pushed == ["handoff", "defensive"], pushed
    assert top_name(app) == "battle" and b.viewer == "blue" and b.state.pending is None
    assert b.state.units["r1"].action_used
    assert "pass the screen back" in (b.toast_text or "")
    # a real change of side still gets its hand-off: Blue ends its turn, Red's starts
    key(app, pygame.K_e)
    if top_name(app) == "confirm_end":
        key(app, pygame.K_RETURN)
    settle(app, 3)
    assert b.state.active_side == "red" and top_name(app) == "handoff" and pushed.count("handoff") == 2


def test_the_way_back_is_only_skipped_within_the_turn_that_lent_the_screen() -> None:
    from game.shell.scenes.handoff import HandoffPolicy

    p = HandoffPolicy()
    assert p.needed("blue", "red", "blue", 1)       # Blue lends the screen for Red's answer
    assert not p.needed("red", "blue", "blue", 1)   # straight back to Blue: no blackout
    assert p.needed("blue", "red", "blue", 1)       # asked again later: a hand-off again
    assert p.needed("red", "blue", "blue", 2)       # but back in another turn: a hand-off
    assert p.needed(None, "blue", "blue", 3) and p.needed("blue", "red", "red", 4)  # a turn passing
    assert p.needed("red", "blue", "blue", 4)       # (Red's own turn lent nothing)


def _label_boxes(b, h):  # type: ignore[no-untyped-def]
    """(label, where it was placed, where it would be without being kept inside) of hex h."""
    from game.systems.tactical.client.labels import view_rect

    centre = b.layout.hex_center(h)
    out = []
    for item, box in b.map_labels.placed:
        text = item.text
        if item.world == centre:
            x, y = b.camera.world_to_screen(*centre)
            w, hgt = box.size
            free = pygame.Rect(0, 0, w, hgt)
            free.center = (round(x + item.offset[0]), round(y + item.offset[1]))
            out.append((text, box, free))
    return out, view_rect(b.camera)


def test_labels_over_units_at_each_map_edge_stay_whole_inside_the_view() -> None:
    edges = {"top": (5, 0), "bottom": (5, 8), "left": (0, 4), "right": (11, 4)}
    session = make_session([("r1", "rifle_section", "blue", (5, 4)),
                            *((f"m-{e}", "militia_band", "red", at) for e, at in edges.items())], phase="attack")
    app = make_app(session, blackout=False)
    b = battle(app)
    b.camera.zoom_index = 9  # zoomed in: the map is larger than the view, its edges can meet the view's
    click_hex(app, b.state.units["r1"].hex)
    assert b.mode.name == "attack"
    cam = b.camera
    for edge, uid in (("top", "m-top"), ("bottom", "m-bottom"), ("left", "m-left"), ("right", "m-right")):
        # the map's edge exactly at the view's edge on that side
        if edge == "top":
            cam.pos_y = 0.0
        elif edge == "bottom":
            cam.pos_y = cam.map_h - cam.view_h / cam.zoom
        elif edge == "left":
            cam.pos_x = 0.0
        else:
            cam.pos_x = cam.map_w - cam.view_w / cam.zoom
        cam.clamp()
        b.mouse = (0, 0)
        settle(app, 2)
        app.render()
        labels, view = _label_boxes(b, b.state.units[uid].hex)
        assert labels, f"no label over the {edge} unit"
        for text, box, free in labels:
            assert view.contains(box), (edge, text, box, view)
            if edge == "top":
                assert free.top < view.top  # it would have been cut: it was shifted in
                assert box.top == view.top
    # the labels move with the map again once the edge is left behind
    cam.pos_y = cam.map_h / 2 - cam.view_h / cam.zoom / 2
    cam.clamp()
    settle(app, 2)
    app.render()
    labels, view = _label_boxes(b, b.state.units["m-top"].hex)
    assert all(box == free for _, box, free in labels if view.contains(free))


def test_the_path_label_under_a_hex_on_the_bottom_edge_and_the_hit_floaters_stay_inside() -> None:
    from game.systems.tactical.client.labels import keep_inside

    session = make_session([("r1", "rifle_section", "blue", (5, 6)), ("m1", "militia_band", "red", (11, 0))],
                           phase="movement")
    app = make_app(session, blackout=False)
    b = battle(app)
    b.camera.zoom_index = 9
    click_hex(app, b.state.units["r1"].hex)
    cam = b.camera
    cam.pos_y = cam.map_h - cam.view_h / cam.zoom
    cam.clamp()
    target = b.session.board.hex_at(5, 8)
    x, y = cam.world_to_screen(*b.layout.hex_center(target))
    from tests.client.clientfix import move_mouse
    move_mouse(app, (round(x), round(y)))
    assert b.hover == target and b.mode.path_view(b) is not None
    app.render()
    labels, view = _label_boxes(b, target)
    assert labels and all(view.contains(box) for _, box, _ in labels)
    assert any(free.bottom > view.bottom for _, _, free in labels)  # (it was shifted up)
    # a floater (hits, strength lost) near the view's corner is moved in whole, not cut
    assert view.contains(keep_inside(pygame.Rect(view.right - 5, view.y - 12, 60, 20), view))


def test_a_label_whose_hex_is_out_of_the_view_is_not_drawn_at_the_edge() -> None:
    session = make_session([("r1", "rifle_section", "blue", (1, 4)), ("m1", "militia_band", "red", (11, 4))],
                           phase="attack")
    app = make_app(session, blackout=False)
    b = battle(app)
    b.camera.zoom_index = 10
    click_hex(app, b.state.units["r1"].hex)
    b.camera.pos_x = 0.0  # the target's hex lies beyond the view's right edge
    b.camera.clamp()
    settle(app, 2)
    app.render()
    x, _ = b.camera.world_to_screen(*b.layout.hex_center(b.state.units["m1"].hex))
    assert x > b.camera.view_x + b.camera.view_w
    assert any(item.world == b.layout.hex_center(b.state.units["m1"].hex) for item in b.map_labels.items)
    assert b.map_labels.placed == []


def test_a_long_toast_is_wrapped_inside_the_view_not_cut_at_its_sides() -> None:
    from game.systems.tactical.client.labels import draw_toast, view_rect

    session = make_session([("r1", "rifle_section", "blue", (2, 2))], phase="movement")
    app = make_app(session, size=(960, 600), blackout=False)
    key(app, pygame.K_F2)  # GM mode narrows the view further
    b = battle(app)
    view = view_rect(b.camera)
    message = ("Played on from command 21. The game before it is kept in "
               "default-r03-20261201-132022-before-branch.yaml, and more words to make it long.")
    box = draw_toast(app.render(), message, view)
    assert view.contains(box) and box.h > 30  # more than one line


def test_in_a_960_by_600_window_every_gm_tool_is_in_view_without_scrolling_and_works(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # (the lower third of the panel scrolled here; it is laid out to fit now:
    # tests/client/test_gm_panel_fits.py)
    import pygame_gui

    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 4))],
                           phase="movement")
    app = make_app(session, size=(960, 600), blackout=False)
    key(app, pygame.K_F2)
    gm = app.scenes.top
    panel = gm._rect()  # type: ignore[union-attr]

    def button(label: str):  # type: ignore[no-untyped-def]
        return next(el for el in gm.ui.get_sprite_group().sprites()  # type: ignore[union-attr]
                    if isinstance(el, pygame_gui.elements.UIButton) and el.text == label)

    assert panel.contains(button("Undo").rect) and panel.contains(button("Save as scenario").rect)
    press_button(app, "+1")  # an Advantage point, then the GM's undo takes it back
    assert session.state.sides["blue"].advantage["command"] == 1
    press_button(app, "Undo")
    assert session.state.sides["blue"].advantage["command"] == 0
    assert button("Of: Blue").rect.w > 200  # the side is named in full on its own row
