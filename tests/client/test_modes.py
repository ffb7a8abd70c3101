"""Input modes through the window: Leadership points, the stuck choice, the special move,
the end-of-phase key, undo limits, and what the mode shows before a click."""

from __future__ import annotations

import pygame

import game.systems.tactical.rules as ail
from game.io.saves import load_save
from game.replay import load_game, verify_save
from game.shell import draw
from game.shell.launch import open_game
from game.shell.savegame import save_session
from game.shell.toolkit.richtext import Span
from game.systems.tactical.client import rq, text
from game.systems.tactical.client.plugin import tactical_session
from game.systems.tactical.client.rq import reach_cost
from game.systems.tactical.rules import commands as cmd
from game.systems.tactical.rules.models import SpecialMove
from game.systems.tactical.rules.move_then_dash import move_then_dash_plan, move_then_dash_targets
from game.table import TABLE
from tests.client.clientfix import (
    CATALOGUE,
    battle,
    click_hex,
    hover_hex,
    key,
    make_app,
    make_session,
    press_button,
    top_name,
)


def test_the_commander_hands_leadership_points_to_a_selected_unit() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))],
                           phase="movement")
    st = session.state
    sides = dict(st.sides)
    sides["blue"] = sides["blue"].model_copy(update={"advantage": {**sides["blue"].advantage, "leadership": 2}})
    session.state = st.model_copy(update={"sides": sides})
    app = make_app(session, blackout=False)
    click_hex(app, session.state.units["r1"].hex)
    press_button(app, "Give Leadership (2 left)")
    assert session.state.units["r1"].leadership == 1
    assert session.state.sides["blue"].advantage["leadership"] == 1
    press_button(app, "Give Leadership (1 left)")
    assert session.state.units["r1"].leadership == 2


def test_a_unit_stuck_in_difficult_terrain_is_offered_the_one_hex_step() -> None:
    # a field gun (move 2) ringed by swamp (cost 3) cannot enter any neighbour with its move
    ring = {(c, r): "swamp" for c in range(1, 6) for r in range(1, 6)}
    session = make_session([("g1", "field_gun", "blue", (3, 3)), ("m1", "militia_band", "red", (10, 7))],
                           overrides=ring, phase="movement")
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["g1"].hex)
    labels = {b.label: b for b in scene.mode.buttons(scene)}
    assert "Stuck: step (lose attack)" in labels
    assert not labels["Stuck: step (1 Adrenaline)"].enabled  # a vehicle has no Adrenaline
    press_button(app, "Stuck: step (lose attack)")
    assert scene.mode.name == "stuck"
    to = session.board.hex_at(4, 3)
    click_hex(app, to)
    u = session.state.units["g1"]
    assert u.hex == to and u.action_used


def test_a_special_move_teleports_without_a_path() -> None:
    skirmisher = CATALOGUE.units["rifle_section"].model_copy(
        update={"name": "Blink Scouts", "special_move": SpecialMove(name="blink", range=3)})
    session = make_session([("s1", "blink_scouts", "blue", (2, 2)), ("m1", "militia_band", "red", (10, 7))],
                           phase="movement", extra_types={"blink_scouts": skirmisher})
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["s1"].hex)
    press_button(app, "Blink (3)")
    assert scene.mode.name == "special"
    to = session.board.hex_at(5, 2)
    click_hex(app, to)
    u = session.state.units["s1"]
    assert u.hex == to and u.dashed
    assert [e.kind for e in session.history[-1].events].count("unit_moved") == 1


def test_ending_a_phase_with_idle_units_asks_and_can_be_refused() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))],
                           phase="movement")
    app = make_app(session, blackout=False)
    key(app, pygame.K_e)
    assert top_name(app) == "confirm_end"
    assert "Rifle Section" in app.scenes.top.body_text  # type: ignore[union-attr]
    key(app, pygame.K_ESCAPE)
    assert top_name(app) == "battle" and session.state.phase == "movement"
    key(app, pygame.K_RETURN)
    press_button(app, "End phase")
    assert session.state.phase == "attack"


def test_undo_takes_back_what_rolled_no_dice_and_never_a_roll() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))],
                           phase="movement")
    app = make_app(session, blackout=False)
    start = session.state.units["r1"].hex
    click_hex(app, start)
    click_hex(app, session.board.hex_at(4, 2))
    assert session.can_undo
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert session.state.units["r1"].hex == start and not session.history
    assert not session.can_undo
    key(app, pygame.K_z, pygame.KMOD_CTRL)  # nothing left: a message, no change
    assert session.state.units["r1"].hex == start
    # a dash rolled nothing and revealed nothing: it comes back too, and the move before it
    click_hex(app, start)
    click_hex(app, session.board.hex_at(3, 2))
    click_hex(app, session.board.hex_at(6, 2))
    assert [s.command.kind for s in session.history] == ["move", "dash"]
    assert session.can_undo
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert session.state.units["r1"].hex == start and not session.history


def test_the_move_mode_shows_reach_paths_and_where_a_dash_could_go_next() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (10, 7))],
                           phase="movement", roads={(c, 2) for c in range(12)})
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["r1"].hex)
    _, fills = scene.mode.fills(scene)
    tints = {h: c for h, c, _ in fills}
    far_road = session.board.hex_at(7, 2)  # 5 hexes along the road: only with the road bonus
    assert tints.get(far_road) == draw.ROAD_COLOUR
    assert tints.get(session.board.hex_at(3, 3)) == draw.MOVE_COLOUR
    hover_hex(app, session.board.hex_at(4, 4))
    key_, after = scene.mode.hover_fills(scene)
    assert after and all(c == draw.DASH_COLOUR for _, c, _ in after)
    view = scene.mode.path_view(scene)
    assert view is not None and view.points[0] == session.state.units["r1"].hex
    assert view.points[-1] == session.board.hex_at(4, 4) and "cost" in view.label


def test_hovering_an_enemy_to_charge_shows_the_odds_of_the_melee_attack_on_arrival() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (5, 2))],
                           phase="movement")
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["r1"].hex)
    hover_hex(app, session.state.units["m1"].hex)
    view = scene.mode.path_view(scene)
    assert view is not None and view.target == "m1" and "Charge" in view.label
    pv = scene.mode.preview(scene)
    assert pv is not None and pv[0].weapon == "bayonets"
    assert 0 < pv[0].odds.hit_chance <= 1
    ac = next(ln for ln in scene.panels.info_text(scene) if ln[0].text == "Accuracy Challenge ")
    assert ac[1] == Span(str(pv[0].ac.total), bold=True)  # the challenge's total, in bold


def test_dialog_buttons_can_be_picked_with_number_keys() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))])
    app = make_app(session, blackout=False)
    assert top_name(app) == "initiative"
    key(app, pygame.K_1)  # Tactics
    assert session.state.sides["blue"].initiative_option == "tactics"


def test_a_refused_command_shows_the_rules_reason_and_changes_nothing() -> None:
    session = make_session([("r1", "rifle_section", "blue", (0, 0)), ("m1", "militia_band", "red", (11, 8))],
                           phase="attack", width=40, height=30)
    # put the militia far beyond the rifles' extreme range (14 hexes)
    st = session.state
    far = session.board.hex_at(38, 28)
    session.state = st.model_copy(update={"units": {**st.units, "m1": st.units["m1"].model_copy(update={"hex": far})}})
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["r1"].hex)
    before = session.state
    click_hex(app, far)
    assert session.state == before and not session.history
    assert scene.toast_text is not None and "range" in scene.toast_text.lower()


def test_options_switch_the_blackout_and_the_animation_speed() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))],
                           phase="movement")
    app = make_app(session, blackout=False)
    scene = battle(app)
    key(app, pygame.K_o)
    assert top_name(app) == "options"
    press_button(app, "Blackout")
    assert scene.settings.blackout is True
    press_button(app, "Animation speed")
    assert scene.settings.animation == "normal"
    press_button(app, "Close")
    assert top_name(app) == "battle"


def test_advantage_can_be_spent_on_a_charge_and_improves_its_odds() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (5, 2))],
                           phase="movement", rule_changes={"defensive_action_prompt": "never"})
    st = session.state
    sides = dict(st.sides)
    sides["blue"] = sides["blue"].model_copy(update={"advantage": {**sides["blue"].advantage, "command": 2}})
    session.state = st.model_copy(update={"sides": sides})
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["r1"].hex)
    hover_hex(app, session.state.units["m1"].hex)
    p0 = scene.mode.preview(scene)[0].odds.hit_chance  # type: ignore[index]
    press_button(app, "+1 Adv. on charge (0/2)")
    hover_hex(app, session.state.units["m1"].hex)
    pv = scene.mode.preview(scene)
    assert pv is not None and pv[0].odds.hit_chance >= p0 and pv[1] is not None
    click_hex(app, session.state.units["m1"].hex)
    kinds = [e.kind for e in session.history[-1].events]
    assert "advantage_spent" in kinds
    assert session.state.sides["blue"].advantage["command"] == 1


def test_attack_mode_labels_every_target_with_its_hit_chance() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (5, 2)),
                            ("m2", "militia_band", "red", (6, 5))], phase="attack")
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["r1"].hex)
    labels = {item[0]: item[1] for item in scene.mode.hex_labels(scene)}
    assert set(labels) == {session.state.units["m1"].hex, session.state.units["m2"].hex}
    assert all(v.endswith("%") for v in labels.values())


def test_personal_initiative_gives_the_commanders_unit_its_own_slot_on_screen() -> None:

    base = make_session([("r1", "rifle_section", "blue", (2, 2)), ("r2", "rifle_section", "blue", (2, 4)),
                         ("m1", "militia_band", "red", (8, 5))])
    blue, red = base.setup.sides
    blue = blue.model_copy(update={"commander": blue.commander.model_copy(update={"unit": "r1"})})
    session = tactical_session(base.setup.model_copy(update={"sides": (blue, red)}), base.board, base.layout, 7)
    app = make_app(session, blackout=False)
    scene = battle(app)
    session.state = session.state.model_copy(update={"forced_rolls": (10, 1)})
    press_button(app, "Personal (PHY)")
    press_button(app, "Tactics")
    press_button(app, "Go first")
    slot = session.state.active_slot
    assert slot is not None and slot.unit_id == "r1"
    assert "Personal" in scene.panels.shown("status") and "alone" in scene.panels.shown("status")
    click_hex(app, session.state.units["r2"].hex)  # the troops wait for their own slot
    assert scene.mode.name == "select"
    click_hex(app, session.state.units["r1"].hex)
    assert scene.mode.name == "move"


# ---------------------------------------------------------------------------- C2 follow-ups

def _with_leadership(session, unit_id: str, points: int):  # type: ignore[no-untyped-def]
    st = session.state
    units = dict(st.units)
    units[unit_id] = units[unit_id].model_copy(update={"leadership": points})
    session.state = st.model_copy(update={"units": units})
    return session


def test_the_casualty_advantage_standing_order_is_set_from_the_unit_panel_and_shown() -> None:
    session = _with_leadership(make_session([("r1", "rifle_section", "blue", (2, 2)),
                                             ("m1", "militia_band", "red", (9, 6))], phase="movement"), "r1", 2)
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["r1"].hex)
    press_button(app, "Casualty rolls: none")
    u = session.state.units["r1"]
    assert (u.casualty_advantage, u.casualty_advantage_kind) == (1, "leadership")
    assert session.history[-1].command.kind == "set_casualty_advantage"
    assert "Casualty rolls: +1 leadership Advantage on each" in scene.panels.shown("unit")
    press_button(app, "Casualty: +1 leadership")
    assert session.state.units["r1"].casualty_advantage == 2
    # the counter carries a gold pip while the order stands
    size = 40
    pip = scene.map_view.counter(scene, session.state.units["r1"], size)
    r = max(3, size // 9)
    assert pip.get_at((pip.get_width() - r - 2, pip.get_height() - r - 2))[:3] == (240, 200, 90)
    press_button(app, "Casualty: +2 leadership")  # only 2 points held: back to none
    assert session.state.units["r1"].casualty_advantage == 0
    assert "Casualty rolls:" not in scene.panels.shown("unit").split("Advantage to spend")[-1]


def test_overwatch_names_the_advantage_chosen_with_the_plus_buttons() -> None:
    session = _with_leadership(make_session([("r1", "rifle_section", "blue", (2, 2)),
                                             ("m1", "militia_band", "red", (12, 7))], width=16,
                                            phase="attack"), "r1", 2)
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["r1"].hex)
    press_button(app, "+1 Advantage (0/2)")
    press_button(app, "Overwatch +1 Adv.")
    u = session.state.units["r1"]
    assert (u.stance, u.stance_weapon) == ("overwatch", "bolt rifles")
    assert (u.stance_advantage, u.stance_advantage_kind) == (1, "leadership")
    assert u.leadership == 2  # named now, spent when the shot is made
    click_hex(app, u.hex)
    assert "+1 leadership Advantage on its shot" in scene.panels.shown("unit")


def test_guard_without_advantage_names_none() -> None:
    session = _with_leadership(make_session([("r1", "rifle_section", "blue", (2, 2)),
                                             ("m1", "militia_band", "red", (12, 7))], width=16,
                                            phase="attack"), "r1", 2)
    app = make_app(session, blackout=False)
    click_hex(app, session.state.units["r1"].hex)
    press_button(app, "Guard")
    u = session.state.units["r1"]
    assert u.stance == "guard" and u.stance_advantage == 0 and u.stance_advantage_kind is None


def _combo_hex(scene, unit_id: str):  # type: ignore[no-untyped-def]
    """A hex only a move then a dash reaches (the farthest along row 2)."""
    mode = scene.mode
    st = scene.state
    move = reach_cost(rq.move_reach(st, unit_id))
    start = st.units[unit_id].hex
    for col in range(11, 2, -1):
        h = st.board.hex_at(col, 2)
        if h not in move and h != start and mode.combo(scene, h) is not None:
            return h
    raise AssertionError("no move+dash hex")


def test_clicking_past_the_move_reach_moves_then_dashes_in_one_rules_command() -> None:
    session = make_session([("r1", "rifle_section", "blue", (1, 2)), ("m1", "militia_band", "red", (12, 8))],
                           width=16, phase="movement")
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["r1"].hex)
    target = _combo_hex(scene, "r1")
    assert (target, draw.DASH_COLOUR, 45) in scene.mode.fills(scene)[1]  # shown (faint) before any hover
    hover_hex(app, target)
    view = scene.mode.path_view(scene)
    assert view is not None and view.points[0] == session.state.units["r1"].hex and view.points[-1] == target
    assert view.label.startswith("Move ") and "+ dash" in view.label
    click_hex(app, target)
    step = session.history[-1]
    assert step.command.kind == "move_then_dash" and len(session.history) == 1
    assert step.command == move_then_dash_plan(step.before, "r1", target).command  # type: ignore[union-attr]
    moved = [e for e in step.events if e.kind == "unit_moved"]
    assert [e.mode for e in moved] == ["move", "dash"]  # the events a move then a dash make
    assert [*moved[0].path[1:], *moved[1].path[1:]] == view.points[1:]  # the path shown is the path taken
    u = session.state.units["r1"]
    assert u.hex == target and u.move_done and u.dashed and u.adrenaline == 2


def test_a_move_then_dash_path_shows_and_draws_the_overwatch_of_its_dash() -> None:
    # a red rifle on overwatch watches the far end of the run
    session = make_session([("r1", "rifle_section", "blue", (1, 2)), ("w1", "rifle_section", "red", (10, 6))],
                           width=16, phase="movement")
    st = session.state
    units = dict(st.units)
    units["w1"] = units["w1"].model_copy(update={"stance": "overwatch", "stance_weapon": "bolt rifles"})
    session.state = st.model_copy(update={"units": units})
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["r1"].hex)
    target = _combo_hex(scene, "r1")
    hover_hex(app, target)
    view = scene.mode.path_view(scene)
    assert view is not None and [e.watcher_id for e in view.exposures] == ["w1"]
    # the marker's step counts from the start of the move
    ex = view.exposures[0]
    assert view.points[ex.step] == ex.hex
    app.render()
    assert "Overwatch at step" in scene.panels.shown("info")
    session.state = session.state.model_copy(update={"forced_rolls": (1,)})  # the snap shot misses
    click_hex(app, target)
    assert "overwatch_fired" in [e.kind for e in session.history[-1].events]
    assert session.state.units["r1"].hex == target


def test_a_target_out_of_all_reach_is_greyed_labelled_0_and_the_preview_says_why() -> None:
    # bolt rifles at 12 hexes: extreme band AC 20, best roll 3 + 2 + 10 + braced 2 = 17
    session = make_session([("r1", "rifle_section", "blue", (1, 2)), ("m1", "militia_band", "red", (13, 2)),
                            ("m2", "militia_band", "red", (4, 2))], width=16, phase="attack")
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["r1"].hex)
    far, near = session.state.units["m1"].hex, session.state.units["m2"].hex
    labels = {item[0]: item for item in scene.mode.hex_labels(scene)}
    assert labels[far][1:] == ("0%", False) and labels[near][2] is True
    tints = {h: c for h, c, _ in scene.mode.fills(scene)[1]}
    assert tints[far] == draw.NO_CHANCE_COLOUR and tints[near] == draw.TARGET_COLOUR
    hover_hex(app, far)
    info = scene.panels.shown("info")
    assert "0% to hit" in info and "the best possible roll is 17" in info and "against AC 20" in info
    why = next(ln for ln in scene.panels.styled("info") if ln[0].text == "0% to hit:")
    assert why[0] == Span("0% to hit:", bold=True, colour=text.BAD) and all(sp.colour == text.BAD for sp in why)
    click_hex(app, far)  # still allowed
    assert session.history[-1].command.kind == "attack"
    assert session.history[-1].command.target_id == "m1"


def test_a_move_then_dash_is_all_or_nothing_unless_the_move_rolled_dice() -> None:
    # moves draw overwatch in this variant; a red rifle watches the row
    session = make_session([("r1", "rifle_section", "blue", (1, 2)), ("w1", "rifle_section", "red", (6, 2))],
                           width=16, phase="movement", rule_changes={"overwatch_triggers": ["move", "dash", "charge"]})
    st = session.state
    units = dict(st.units)
    units["w1"] = units["w1"].model_copy(update={"stance": "overwatch", "stance_weapon": "bolt rifles"})
    session.state = st.model_copy(update={"units": units})
    app = make_app(session, blackout=False)
    scene = battle(app)
    board = session.board
    start = session.state.units["r1"].hex
    bogus = (board.hex_at(12, 8),)  # not adjacent: a dash along it is always refused
    # a zero-hex move rolls nothing: when the dash is refused, the whole command is
    assert not scene.submit(cmd.MoveThenDash(unit_id="r1", move_path=(), dash_path=bogus))
    assert session.history == [] and session.state.units["r1"].hex == start  # nothing kept
    session.state = session.state.model_copy(update={"forced_rolls": (1,)})  # the shot misses
    step = board.hex_at(2, 2)
    assert scene.submit(cmd.MoveThenDash(unit_id="r1", move_path=(step,), dash_path=bogus))
    assert [s.command.kind for s in session.history] == ["move_then_dash"]  # the shot was seen: the move stands
    assert session.record.rolled_dice(session.history[0]) and session.state.units["r1"].hex == step
    assert not session.state.units["r1"].dashed
    assert "Stopped" in scene.panels.hint(scene)

def test_a_game_with_a_move_then_dash_saves_loads_and_verifies_bit_for_bit(tmp_path) -> None:  # type: ignore[no-untyped-def]
    session = open_game(TABLE, None)  # the default scenario, played to its first movement phase
    while session.state.phase != "movement":
        session.apply(ail.legal_commands(session.state)[0])
    st = session.state
    uid = next(u for u in ail.units_that_can_act(st, st.active_side) if move_then_dash_targets(st, u))
    plan = move_then_dash_plan(st, uid, min(move_then_dash_targets(st, uid)))
    ok, _, reason = session.apply(plan.command)  # type: ignore[union-attr]
    assert ok, reason
    path = save_session(session, tmp_path / "mtd.yaml")
    assert any(e.command.get("kind") == "move_then_dash" for e in load_save(path).log)
    assert verify_save(TABLE, path).commands == len(session.history)
    assert load_game(TABLE, path).state.units[uid].hex == session.state.units[uid].hex


def _edit_unit(session, unit_id: str, **changes):  # type: ignore[no-untyped-def]
    st = session.state
    session.state = st.model_copy(update={"units": {**st.units, unit_id: st.units[unit_id].model_copy(update=changes)}})


def test_the_dash_payment_buttons_are_the_ways_the_rules_accept_and_leadership_pays_the_dash() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))],
                           phase="movement")
    _edit_unit(session, "r1", adrenaline=3, leadership=2)
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["r1"].hex)
    pays = {b.label: b for b in scene.mode.buttons(scene) if b.id.startswith("pay:")}
    assert list(pays) == ["Dash: Adrenaline (3)", "Dash: Leadership (2)"]
    assert pays["Dash: Adrenaline (3)"].selected and not pays["Dash: Leadership (2)"].selected  # the default way
    assert all(b.enabled for b in pays.values())
    press_button(app, "Dash: Leadership (2)")
    assert scene.mode.pay == "leadership"
    assert [b.label for b in scene.mode.buttons(scene) if b.selected and b.id.startswith("pay:")] == \
        ["Dash: Leadership (2)"]
    far = max(scene.mode.combo_reach(scene))  # only a move then a dash gets there
    click_hex(app, far)
    u = session.state.units["r1"]
    assert u.hex == far and u.dashed and u.leadership == 0 and u.adrenaline == 3  # the dash paid in points


def test_a_unit_that_cannot_pay_for_a_dash_sees_the_adrenaline_button_greyed_with_the_rules_reason() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))],
                           phase="movement")
    _edit_unit(session, "r1", adrenaline=0, leadership=1)
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["r1"].hex)
    pays = [b for b in scene.mode.buttons(scene) if b.id.startswith("pay:")]
    assert [b.label for b in pays] == ["Dash: Adrenaline (0)"]  # no Leadership button without the points
    assert not pays[0].enabled and not pays[0].selected
    assert pays[0].tooltip == f"{session.state.unit_name('r1')} has no Adrenaline left to dash."  # the rules' words
    assert scene.mode.combo_reach(scene) == frozenset() and not scene.mode._dash(scene)  # nor any dash offered


def test_a_unit_out_of_adrenaline_pays_its_dash_with_leadership_by_default_and_that_button_shows_chosen() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))],
                           phase="movement")
    _edit_unit(session, "r1", adrenaline=0, leadership=2)
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["r1"].hex)
    pays = {b.label: b for b in scene.mode.buttons(scene) if b.id.startswith("pay:")}
    assert not pays["Dash: Adrenaline (0)"].enabled and not pays["Dash: Adrenaline (0)"].selected
    assert pays["Dash: Leadership (2)"].enabled and pays["Dash: Leadership (2)"].selected
