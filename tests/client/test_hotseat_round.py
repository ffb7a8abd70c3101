"""A whole hotseat game played through the window with real mouse clicks and key presses:
initiative, a move (and its undo), an attack with Advantage spent and the defender's
defensive-action prompt, hand-offs with the map hidden, stances, a dash that draws overwatch
fire and is stopped, a charge against a guarding unit, the end of the battle.

Dice that matter are forced through the state's forced_rolls queue (what a GM's "set next roll"
does), set just before the command that rolls them."""

from __future__ import annotations

import pygame

from game.shell.toolkit.richtext import Span, Styled, plain
from game.systems.tactical.client import text
from game.systems.tactical.client.battle import BattleScene
from tests.client.clientfix import (
    battle,
    click_hex,
    continue_handoff,
    hover_hex,
    key,
    make_app,
    make_session,
    press_button,
    settle,
    top_name,
)

UNITS = [
    ("r1", "rifle_section", "blue", (2, 1)),
    ("r2", "rifle_section", "blue", (2, 6)),
    ("a1", "armoured_infantry", "red", (9, 1)),
    ("m1", "militia_band", "red", (7, 6)),
]


def force(app, *values: int) -> None:  # type: ignore[no-untyped-def]
    s = battle(app).session
    s.state = s.state.model_copy(update={"forced_rolls": tuple(values)})


def kinds(app, last: int = 1) -> list[str]:  # type: ignore[no-untyped-def]
    return [e.kind for step in battle(app).session.history[-last:] for e in step.events]


def test_a_full_hotseat_game_through_the_window(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    session = make_session(UNITS, round_limit=2)
    app = make_app(session)
    scene = battle(app)
    board = session.board

    # ---- the map is hidden before the first side's view: the battle scene is not even drawn
    drawn: list[int] = []
    real_draw = BattleScene.draw
    monkeypatch.setattr(BattleScene, "draw", lambda self, surf: (drawn.append(1), real_draw(self, surf)))
    assert top_name(app) == "handoff"
    app.render()
    assert drawn == []
    cx, cy = scene.camera.world_to_screen(*scene.layout.hex_center(session.state.units["r1"].hex))
    assert app.screen.get_at((round(cx), round(cy)))[:3] == (8, 9, 11)  # blackout, no counter
    continue_handoff(app)
    app.render()
    assert drawn  # now the map is shown

    # ---- initiative: each commander picks on its own screen; Blue wins and goes first
    assert top_name(app) == "initiative"
    force(app, 9, 1)
    press_button(app, "Tactics")
    continue_handoff(app)  # Red's turn to choose, behind the blackout
    assert top_name(app) == "initiative"
    press_button(app, "Deception")
    if top_name(app) == "handoff":
        continue_handoff(app)
    assert top_name(app) == "turn_place"
    body = app.scenes.top.body_text  # type: ignore[union-attr]
    assert "tactics" in body and "d10=9" in body  # the rolls with their parts
    assert Span("d10=9", bold=True) in _spans(app.scenes.top.body_html)  # the die, in bold
    press_button(app, "Go first")
    if top_name(app) == "handoff":
        continue_handoff(app)
    st = session.state
    assert (st.phase, st.active_side) == ("movement", "blue")
    assert st.sides["blue"].advantage["command"] >= 1

    # ---- movement: select, move, undo (no dice), move again
    r1_start = st.units["r1"].hex
    click_hex(app, r1_start)
    assert scene.selected == "r1" and scene.mode.name == "move"
    dest = board.hex_at(4, 1)
    hover_hex(app, dest)
    assert plain(scene.panels.info_text(scene)).startswith("Move · cost")
    click_hex(app, dest)
    assert session.state.units["r1"].hex == dest
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert session.state.units["r1"].hex == r1_start
    click_hex(app, r1_start)
    click_hex(app, dest)
    assert session.state.units["r1"].hex == dest

    # ---- end the movement phase: r2 has not moved, so the game asks first
    key(app, pygame.K_e)
    assert top_name(app) == "confirm_end"
    press_button(app, "End phase")
    assert session.state.phase == "attack"

    # ---- attack with Advantage spent: the odds change, then the defender is asked
    click_hex(app, session.state.units["r1"].hex)
    assert scene.mode.name == "attack"
    hover_hex(app, session.state.units["a1"].hex)
    before = scene.mode.preview(scene)
    assert before is not None
    p0 = before[0].odds.hit_chance
    labels = [b.label for b in scene.mode.buttons(scene)]
    plus = next(x for x in labels if x.startswith("+1 Advantage"))
    press_button(app, plus)
    hover_hex(app, session.state.units["a1"].hex)
    after = scene.mode.preview(scene)
    assert after is not None and after[0].odds.hit_chance > p0
    assert "without Advantage" in plain(scene.panels.info_text(scene))
    click_hex(app, session.state.units["a1"].hex)
    assert session.state.pending is not None and session.state.pending.kind == "defensive_action"
    continue_handoff(app)  # Red looks at the screen now
    assert top_name(app) == "defensive"
    force(app, 9, 9, 9, 9, 9, 9, 9, 9)
    press_button(app, "No")
    assert "attack_resolved" in kinds(app) and "advantage_spent" in kinds(app, 2)
    assert "roll_made" in kinds(app)
    # back to Blue in the same turn: one hand-off did (Red answered over the same map)
    assert top_name(app) == "battle" and scene.viewer == "blue"
    assert "d10=9" in scene.panels.shown("log")  # the dice log lists the rolls
    assert Span("d10=9", bold=True) in _spans(scene.panels.styled("log"))

    # ---- Blue ends its turn; Red takes guard and overwatch
    key(app, pygame.K_e)
    if top_name(app) == "confirm_end":
        press_button(app, "End phase")
    continue_handoff(app)
    assert (session.state.active_side, session.state.phase) == ("red", "movement")
    key(app, pygame.K_e)
    press_button(app, "End phase")
    assert session.state.phase == "attack"
    click_hex(app, session.state.units["a1"].hex)
    press_button(app, "Overwatch")
    assert session.state.units["a1"].stance == "overwatch"
    click_hex(app, session.state.units["m1"].hex)
    press_button(app, "Guard")
    assert session.state.units["m1"].stance == "guard"
    key(app, pygame.K_RETURN)  # nothing left to do: no confirmation needed
    assert session.state.round == 2

    # ---- round 2 initiative: Blue wins again and goes first, Red's stances still hold
    continue_handoff(app)
    force(app, 10, 1)
    press_button(app, "Tactics")
    continue_handoff(app)
    press_button(app, "Tactics")
    if top_name(app) == "handoff":
        continue_handoff(app)
    press_button(app, "Go first")
    if top_name(app) == "handoff":
        continue_handoff(app)
    assert (session.state.active_side, session.state.phase) == ("blue", "movement")

    # ---- a dash into the watcher's range: the path shows where overwatch fires; the shot pins r1
    click_hex(app, session.state.units["r1"].hex)
    click_hex(app, board.hex_at(4, 2))  # its move action first (moves never draw overwatch)
    assert "overwatch_fired" not in kinds(app)
    r1 = session.state.units["r1"].hex
    target = board.hex_at(7, 2)
    hover_hex(app, target)
    view = scene.mode.path_view(scene)
    assert view is not None and view.exposures, "the dash path should be under overwatch"
    assert view.exposures[0].watcher_id == "a1"
    warned = [ln for ln in scene.panels.info_text(scene) if ln and ln[0].text.startswith("Overwatch at step")]
    assert warned and all(sp.colour == text.BAD for ln in warned for sp in ln)  # in the warning red
    stop_at = view.exposures[0].hex
    force(app, 10, 10, 3, 3, 3, 3)
    click_hex(app, target)
    got = kinds(app)
    assert "overwatch_fired" in got and "marker_added" in got
    assert session.state.units["r1"].hex == stop_at != r1
    assert session.state.units["r1"].pinned

    # ---- a charge against the guarding militia: the guard strikes first
    click_hex(app, session.state.units["r2"].hex)
    force(app, 1, 1, 5, 2, 5, 5, 5, 5)
    hover_hex(app, session.state.units["m1"].hex)
    assert scene.mode.path_view(scene).target == "m1"  # type: ignore[union-attr]
    click_hex(app, session.state.units["m1"].hex)
    got = kinds(app)
    assert "guard_counter" in got
    assert got.index("guard_counter") < max(i for i, k in enumerate(got) if k == "attack_resolved")
    force(app)

    # ---- play out the round; the round limit ends the battle with a summary
    for _ in range(12):
        if session.state.phase == "ended":
            break
        name = top_name(app)
        if name == "handoff":
            continue_handoff(app)
        elif name == "confirm_end":
            press_button(app, "End phase")
        elif name == "defensive":
            press_button(app, "No")
        elif name == "battle":
            key(app, pygame.K_e)
        settle(app)
    assert session.state.phase == "ended"
    settle(app)
    assert top_name(app) == "end"
    end_body = app.scenes.top.body_text  # type: ignore[union-attr]
    assert "round limit" in end_body and "Blue" in end_body and "Red" in end_body
    press_button(app, "Restart")
    # the battle as played was never saved: asked first (QA: a number key restarted it unasked)
    assert top_name(app) == "restart_question" and battle(app) is scene
    press_button(app, "Back")
    settle(app)
    assert top_name(app) == "end" and battle(app) is scene  # the summary again, the battle kept
    press_button(app, "Restart")
    press_button(app, "Restart")  # without saving
    fresh = battle(app)
    assert fresh is not scene and fresh.session.state.round == 1 and not fresh.session.history
    continue_handoff(app)
    key(app, pygame.K_ESCAPE)


def test_the_defensive_action_question_offers_casualty_advantage_with_the_odds_of_each_choice() -> None:
    import game.systems.tactical.rules as ail
    from game.shell import draw

    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (5, 2))],
                           phase="attack")
    st = session.state
    units = dict(st.units)
    units["m1"] = units["m1"].model_copy(update={"leadership": 2})
    session.state = st.model_copy(update={"units": units})
    app = make_app(session)
    continue_handoff(app)
    click_hex(app, session.state.units["r1"].hex)
    click_hex(app, session.state.units["m1"].hex)
    continue_handoff(app)  # red looks at the question
    assert top_name(app) == "defensive"
    dialog = app.scenes.top
    st = session.state
    shown = []
    for n, chance_of in ((0, None), (1, "leadership"), (2, "leadership")):
        pv = ail.attack_preview(st, "r1", "m1", "bolt rifles", check_turn=False, casualty_advantage=n,
                                casualty_kind=chance_of)  # type: ignore[arg-type]
        assert not isinstance(pv, ail.Rejection)
        label = f"+{n} leadership" if n else "no Advantage"
        row = _line(dialog.body_html, f"Casualty rolls {label}")
        res = pv.odds.results
        pinned = res["pinned"] + res["out_of_action"] + res["destroyed"] + res["annihilated"]
        assert plain((row,)).endswith(
            f"Casualty rolls {label}{' (chosen)' if not n else ''}: to be hit {draw.percent(pv.odds.hit_chance)}, "
            f"expected strength lost {float(pv.odds.expected_strength_lost):.2f}, pinned or worse "
            f"{draw.percent(pinned)}, out of action or worse "
            f"{draw.percent(res['out_of_action'] + res['destroyed'] + res['annihilated'])}")
        assert [sp.text for sp in row if sp.bold] == [f"Casualty rolls {label}", draw.percent(pv.odds.hit_chance),
                                                       draw.percent(pinned)]
        assert all(sp.colour == (text.GOLD if not n else text.INK) for sp in row)  # the chosen row in gold
        da = pv.odds_if_defensive_action
        assert da is not None
        below = dialog.body_html[dialog.body_html.index(row) + 1]
        assert plain((below,)).startswith(f"\u00a0\u00a0with the defensive action: {draw.percent(da.hit_chance)}, ")
        assert [sp.text for sp in below if sp.bold][0] == draw.percent(da.hit_chance)
        shown.append(pinned)
    assert shown[2] < shown[0]  # the choices really differ: Advantage on casualty rolls saves the unit
    press_button(app, "Casualty: no Advantage")
    assert top_name(app) == "defensive"
    assert plain((_line(app.scenes.top.body_html, "> Casualty rolls +1 leadership"),)).startswith(
        "> Casualty rolls +1 leadership (chosen)")
    press_button(app, "Casualty: +1 leadership")
    assert plain((_line(app.scenes.top.body_html, "> Casualty rolls +2 leadership"),)).startswith(
        "> Casualty rolls +2 leadership (chosen)")
    session.state = session.state.model_copy(update={"forced_rolls": (9, 1, 1, 1, 1, 1, 1, 1, 1)})
    press_button(app, "No")
    answer = [s.command for s in session.history if s.command.kind == "defensive_action"][-1]
    assert (answer.accept, answer.casualty_advantage, answer.casualty_advantage_kind) == (False, 2, "leadership")


def _spans(content: Styled) -> list[Span]:
    """Every styled piece of a text, line after line."""
    return [sp for ln in content for sp in ln]


def _line(content: Styled, start: str) -> tuple[Span, ...]:
    """The line of a styled text whose words, a leading "> " mark aside, start with `start`'s."""
    want = start.removeprefix("> ")
    return next(ln for ln in content if plain((ln,)).removeprefix("> ").startswith(want))
