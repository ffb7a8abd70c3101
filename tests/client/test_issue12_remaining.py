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
    from game.client.scenes.handoff import HandoffPolicy

    p = HandoffPolicy()
    assert p.needed("blue", "red", "blue", 1)       # Blue lends the screen for Red's answer
    assert not p.needed("red", "blue", "blue", 1)   # straight back to Blue: no blackout
    assert p.needed("blue", "red", "blue", 1)       # asked again later: a hand-off again
    assert p.needed("red", "blue", "blue", 2)       # but back in another turn: a hand-off
    assert p.needed(None, "blue", "blue", 3) and p.needed("blue", "red", "red", 4)  # a turn passing
    assert p.needed("red", "blue", "blue", 4)       # (Red's own turn lent nothing)
