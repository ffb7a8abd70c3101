"""Issue 12's remaining client items, driven by real pygame events: one hand-off per attack on a
unit that has not acted, GM mode leaving the player's battle mode when the GM selects a unit,
on-map labels kept inside the view at the map's edges."""

from __future__ import annotations

import pygame

from game.hexgrid import Hex
from tests.client.clientfix import battle, click_hex, key, make_app, make_session, settle, top_name


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
    assert b.hint_label.text.startswith("Click one of your units"), b.hint_label.text  # not the move hint
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
