"""A property of the move and attack modes, over random reachable tactical states (random legal
commands played from the default scenario): every hex and target the client highlights is
accepted by the rules' `apply` when clicked, and every move, dash, charge, special move and
attack that `legal_commands` lists is highlighted on screen. The client holds no rules of its
own, so the two can never disagree (issue 12, issue 9's list)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import game.systems.tactical.rules as ail
from game.shell import draw
from game.shell.app import App, Settings
from game.shell.launch import layout_of, open_game, scene_for
from game.systems.tactical.bench import bigmap
from game.systems.tactical.client.battle import BattleScene
from game.systems.tactical.client.battle_actions import unit_command
from game.systems.tactical.client.modes import AttackMode, MoveMode, SpecialMoveMode, state_dash_blocked
from game.systems.tactical.client.plugin import tactical_session
from game.systems.tactical.rules import commands as cmd
from game.systems.tactical.rules.state import TurnSlot
from game.table import TABLE

SCENE: dict[str, Any] = {}


def _scene() -> Any:
    """One headless battle scene of the default scenario, shown whatever state a test sets."""
    if "scene" not in SCENE:
        app = App(TABLE, size=(1280, 800), headless=True, settings=Settings(animation="instant", blackout=False))
        session = open_game(TABLE, None)
        SCENE["initial"] = session.state
        SCENE["scene"] = scene_for(app, session)
    return SCENE["scene"]


def _play(picks: list[int]) -> Any:
    """The state after playing, for each pick, the legal command it points at."""
    _scene()
    state = SCENE["initial"]
    for pick in picks:
        if state.phase == "ended":
            break
        legal = ail.legal_commands(state)
        out = ail.apply(state, legal[pick % len(legal)])
        assert isinstance(out, ail.Accepted), out
        state = out.state
    return state


def _accepted(state: Any, intent: Any) -> bool:
    """The intent carries one command and the rules accept it."""
    return intent is not None and intent.command is not None and isinstance(ail.apply(state, intent.command),
                                                                             ail.Accepted)


def _tinted(scene: Any, mode: Any, colours: tuple[tuple[int, int, int], ...] | None = None) -> set[Any]:
    return {f[0] for f in mode.fills(scene)[1] if colours is None or f[1] in colours}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(min_value=0, max_value=10_000), min_size=0, max_size=40))
def test_every_highlighted_hex_is_legal_and_every_legal_move_or_attack_is_highlighted(picks: list[int]) -> None:
    state = _play(picks)
    if state.phase not in ("movement", "attack") or state.pending is not None:
        return
    scene = _scene()
    scene.session.state = state
    scene.viewer = state.active_side
    legal = ail.legal_commands(state)
    for uid in ail.units_that_can_act(state, state.active_side):
        if not scene.is_mine(uid):
            continue
        if state.phase == "movement":
            mode = MoveMode(uid)
            tinted = _tinted(scene, mode)
            for h in sorted(tinted):  # everything highlighted is accepted as clicked
                result = mode.click(scene, h)
                assert _accepted(state, result), (uid, h, result)
            targets = _tinted(scene, mode, (draw.TARGET_COLOUR,))
            special = _tinted(scene, SpecialMoveMode(uid)) if state.unit_type(uid).special_move else set()
            for c in legal:  # everything legal is highlighted
                if isinstance(c, cmd.Move | cmd.Dash) and c.unit_id == uid and c.path:
                    assert c.path[-1] in tinted, c
                elif isinstance(c, cmd.MoveThenDash) and c.unit_id == uid:
                    assert c.dash_path[-1] in tinted, c
                elif isinstance(c, cmd.Charge) and c.unit_id == uid:
                    assert state.units[c.target_id].hex in targets, c
                elif isinstance(c, cmd.SpecialMove) and c.unit_id == uid:
                    assert c.to in special, c
            for h in special:
                assert _accepted(state, SpecialMoveMode(uid).click(scene, h)), (uid, h)
            _check_buttons(scene, state, mode)
            _check_pay_buttons(scene, state, mode)
            for b in mode.buttons(scene):  # the stuck step's own modes: every hex offered is accepted
                if b.id.startswith("stuck:") and b.enabled:
                    stuck = mode.button(scene, b.id).mode
                    for h in _tinted(scene, stuck):
                        assert _accepted(state, stuck.click(scene, h)), (uid, h, b.id)
        else:
            for w in state.unit_type(uid).weapons:
                mode = AttackMode(uid, w.name)
                tinted = _tinted(scene, mode)
                for h in sorted(tinted):
                    result = mode.click(scene, h)
                    assert isinstance(result.command, cmd.Attack) and _accepted(state, result), (uid, w.name, h)
                for c in legal:
                    if isinstance(c, cmd.Attack) and c.attacker_id == uid and c.weapon == w.name:
                        assert state.units[c.target_id].hex in tinted, c
                _check_buttons(scene, state, mode)


def _check_buttons(scene: Any, state: Any, mode: Any) -> None:
    """Every enabled button of the mode that makes a command (a stance), and the unit's own
    buttons (Leadership, the casualty order), make one the rules accept."""
    for b in mode.buttons(scene):
        if b.enabled:
            intent = mode.button(scene, b.id)
            if intent is not None and intent.command is not None:
                assert _accepted(state, intent), (mode.unit_id, b.id, intent.command)
    for bid in ("leadership", "casualty"):
        if bid == "casualty" and len(ail.queries.casualty_options(state, mode.unit_id)) < 2:
            continue
        if bid == "leadership" and not state.sides[state.units[mode.unit_id].side].advantage.get("leadership"):
            continue
        command = unit_command(state, mode.unit_id, bid)
        assert isinstance(ail.apply(state, command), ail.Accepted), (mode.unit_id, bid, command)


def _check_pay_buttons(scene: Any, state: Any, mode: Any) -> None:
    """The dash-payment buttons are the ways the rules' `dash_payments` accept (enabled) and the
    refused ones shown with the rules' reason; each enabled one makes a mode whose every hex and
    target offered is accepted when clicked, each dash and charge paid the way chosen."""
    ways = {w.pay: w for w in ail.dash_payments(state, mode.unit_id)}
    pays = [b for b in mode.buttons(scene) if b.id.startswith("pay:")]
    for b in pays:
        way = ways[b.id.split(":", 1)[1]]
        if way.pay != "pilot":  # (the pilot check: the one way, shown chosen, nothing to pick)
            assert b.enabled == (way.refusal is None), (b, way)
            assert way.refusal is None or way.refusal.rstrip(".") in b.tooltip, (b, way)
    assert {b.id for b in pays if b.enabled} == {f"pay:{p}" for p, w in ways.items() if w.refusal is None and p != "pilot"}
    for b in pays:
        if not b.enabled:
            continue
        way = ways[b.id.split(":", 1)[1]]
        paid = mode.button(scene, b.id).mode
        assert isinstance(paid, MoveMode) and paid.pay == (None if way.default else way.pay)
        if paid.pay is None:
            continue  # the default payment: the very mode checked above
        for h in sorted(_tinted(scene, paid)):
            result = paid.click(scene, h)
            assert _accepted(state, result), (mode.unit_id, h, b.id, result)
            if isinstance(result.command, cmd.Dash | cmd.Charge | cmd.MoveThenDash):
                assert result.command.pay == way.pay, (b.id, result.command)


@pytest.fixture(autouse=True, scope="module")
def _forget_scene() -> Any:
    yield
    SCENE.clear()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(min_value=0, max_value=10_000), min_size=0, max_size=40))
def test_the_charge_targets_found_at_once_are_the_enemies_a_charge_path_reaches(picks: list[int]) -> None:
    state = _play(picks)
    if state.phase != "movement" or state.pending is not None:
        return
    scene = _scene()
    scene.session.state = state
    scene.viewer = state.active_side
    for uid in ail.units_that_can_act(state, state.active_side):
        mode = MoveMode(uid)
        one_by_one = {u.id for u in state.live_units()
                      if u.side != state.units[uid].side and mode.charge_path(scene, u.id) is not None}
        assert mode.charge_targets(scene) == one_by_one, uid


def _every_enemy_gun_watching(state: Any) -> Any:
    """The state with every unit of the side not to move that has a gun on overwatch with it."""
    units = dict(state.units)
    for u in state.live_units():
        gun = next((w.name for w in state.unit_type(u.id).weapons if not w.melee), None)
        if u.side != state.active_side and gun is not None:
            units[u.id] = u.model_copy(update={"stance": "overwatch", "stance_weapon": gun})
    return state.model_copy(update={"units": units})


def _crowded_scene(tmp_path: Any, w: int, h: int, units: int, watched: bool = False) -> Any:
    """A headless battle scene of the benchmark's crowded battle, first side to move, its movement
    phase (with every enemy gun on overwatch when `watched`)."""
    battle = bigmap.big_battle(tmp_path, w, h, units)
    sides = tuple(TurnSlot(side=x.id) for x in battle.setup.sides)
    state = ail.initial_state(battle.setup, battle.board, 1).model_copy(
        update={"phase": "movement", "turn_order": sides, "turn_index": 0, "pending": None})
    if watched:
        state = _every_enemy_gun_watching(state)
    session = tactical_session(battle.setup, battle.board, layout_of(battle.map_data), 1, state=state,
                               map_data=battle.map_data)
    app = App(TABLE, size=(1280, 800), headless=True, settings=Settings(animation="instant", blackout=False))
    scene = BattleScene(app, session)
    scene.viewer = state.active_side
    return scene


def test_charge_targets_match_one_path_per_enemy_on_a_crowded_map(tmp_path: Any) -> None:
    """The same equivalence where charges abound: the benchmark's crowded 30 x 30 battle."""
    scene = _crowded_scene(tmp_path, 30, 30, 300)
    state = scene.state
    found = 0
    for uid in list(ail.units_that_can_act(state, state.active_side))[:40]:
        mode = MoveMode(uid)
        one_by_one = {u.id for u in state.live_units()
                      if u.side != state.units[uid].side and mode.charge_path(scene, u.id) is not None}
        assert mode.charge_targets(scene) == one_by_one, uid
        found += len(one_by_one)
    assert found > 0  # the map is crowded enough for charges: the comparison is not of empty sets


def _entered(reach: Any, h: Any) -> tuple[Any, ...]:
    path = tuple(reach.path_to(h))
    return path[1:] if path and path[0] == reach.start else path


def _combo_one_move_end_at_a_time(state: Any, uid: str, h: Any) -> Any:
    """The move then dash to `h` the plain way: every hex the move can end on keeping the dash,
    its what-if state and dash reach, ranked by overwatch shots drawn, dash cost, total cost, hex:
    (move path, dash path, exposures)."""
    keep = ail.move_reach_keeping_dash(state, uid)
    best = None
    for m, mcost in keep.costs.items():
        if m == keep.start:
            continue
        mpath = _entered(keep, m)
        after = ail.state_after_move(state, uid, mpath)
        if isinstance(after, ail.Rejection):
            continue
        dash = ail.dash_reach(after, uid)
        if h not in dash.costs or h == dash.start:
            continue
        dpath = _entered(dash, h)
        ex = list(ail.overwatch_exposure(state, uid, list(mpath), "move"))
        fired = {e.watcher_id for e in ex}
        ex += [replace(e, step=e.step + len(mpath)) for e in ail.overwatch_exposure(after, uid, list(dpath), "dash")
               if e.watcher_id not in fired]
        rank = (len(ex), dash.costs[h], mcost + dash.costs[h], m)
        if best is None or rank < best[0]:
            best = (rank, (mpath, dpath, ex))
    return None if best is None else best[1]


def _plan(scene: Any, mode: Any, h: Any) -> Any:
    plan = mode.combo(scene, h)
    return None if plan is None else (plan.command.move_path, plan.command.dash_path, list(plan.exposures))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(min_value=0, max_value=10_000), min_size=0, max_size=40), st.booleans())
def test_the_move_then_dash_overlay_and_paths_are_those_of_one_what_if_per_move_end(picks: list[int],
                                                                                   watched: bool) -> None:
    state = _play(picks)
    if state.phase != "movement" or state.pending is not None:
        return
    if watched:  # every enemy of the side to move on overwatch: the paths have shots to dodge
        state = _every_enemy_gun_watching(state)
    scene = _scene()
    scene.session.state = state
    scene.viewer = state.active_side
    for uid in list(ail.units_that_can_act(state, state.active_side))[:3]:
        mode = MoveMode(uid)
        if mode._stage(scene) != "move":
            continue
        if state_dash_blocked(scene, state.units[uid]):
            assert mode.combo_reach(scene) == frozenset()
            continue
        move, dash, start = mode._move(scene), mode._dash(scene), state.units[uid].hex
        keep = ail.move_reach_keeping_dash(state, uid)
        union = {h for m in keep.costs if m != keep.start for h in mode.dash_after(scene, m)}
        assert mode.combo_reach(scene) == {h for h in union if h not in move and h not in dash and h != start
                                           and scene.unit_at(h) is None}
        for h in sorted(mode.combo_reach(scene))[::7]:
            assert _plan(scene, mode, h) == _combo_one_move_end_at_a_time(state, uid, h), (uid, h)


def test_the_move_then_dash_path_dodges_overwatch_as_the_one_by_one_search_does(tmp_path: Any) -> None:
    """Where overwatch is everywhere (a crowded battle, every enemy gun watching), the path a move
    then a dash takes is the one the plain search over every move end picks: the fewest shots drawn
    first, not merely the shortest dash."""
    scene = _crowded_scene(tmp_path, 20, 20, 120, watched=True)
    state = scene.state
    dodged = 0
    for uid in list(ail.units_that_can_act(state, state.active_side))[:3]:
        mode = MoveMode(uid)
        for h in sorted(mode.combo_reach(scene))[::9]:
            plain = _combo_one_move_end_at_a_time(state, uid, h)
            assert _plan(scene, mode, h) == plain, (uid, h)
            shortest = min(ail.move_then_dash_sources(state, uid, h).values())
            dodged += plain is not None and mode.dash_after(scene, plain[0][-1])[h] > shortest
    assert dodged > 0  # some paths take a longer dash to draw fewer shots: the ranking is tested
