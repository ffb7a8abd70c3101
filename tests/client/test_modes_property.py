"""A property of the move and attack modes, over random reachable tactical states (random legal
commands played from the default scenario): every hex and target the client highlights is
accepted by the rules' `apply` when clicked, and every move, dash, charge, special move and
attack that `legal_commands` lists is highlighted on screen. The client holds no rules of its
own, so the two can never disagree (issue 12, issue 9's list)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import game.rules.ail as ail
from game.client import draw
from game.client.ail.modes import AttackMode, MoveMode, SpecialMoveMode
from game.client.app import App, Settings
from game.client.launch import open_game, scene_for
from game.rules.ail import commands as cmd

SCENE: dict[str, Any] = {}


def _scene() -> Any:
    """One headless battle scene of the default scenario, shown whatever state a test sets."""
    if "scene" not in SCENE:
        app = App(size=(1280, 800), headless=True, settings=Settings(animation="instant", blackout=False))
        session = open_game(None)
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


def _accepted(state: Any, result: Any) -> bool:
    for c in result if isinstance(result, list) else [result]:
        out = ail.apply(state, c)
        if not isinstance(out, ail.Accepted):
            return False
        state = out.state
    return True


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
                assert result is not None and not hasattr(result, "click"), (uid, h)
                assert _accepted(state, result), (uid, h, result)
            targets = _tinted(scene, mode, (draw.TARGET_COLOUR,))
            special = _tinted(scene, SpecialMoveMode(uid)) if state.unit_type(uid).special_move else set()
            for c in legal:  # everything legal is highlighted
                if isinstance(c, cmd.Move | cmd.Dash) and c.unit_id == uid and c.path:
                    assert c.path[-1] in tinted, c
                elif isinstance(c, cmd.Charge) and c.unit_id == uid:
                    assert state.units[c.target_id].hex in targets, c
                elif isinstance(c, cmd.SpecialMove) and c.unit_id == uid:
                    assert c.to in special, c
            for h in special:
                assert _accepted(state, SpecialMoveMode(uid).click(scene, h)), (uid, h)
        else:
            for w in state.unit_type(uid).weapons:
                mode = AttackMode(uid, w.name)
                tinted = _tinted(scene, mode)
                for h in sorted(tinted):
                    result = mode.click(scene, h)
                    assert isinstance(result, cmd.Attack) and _accepted(state, result), (uid, w.name, h)
                for c in legal:
                    if isinstance(c, cmd.Attack) and c.attacker_id == uid and c.weapon == w.name:
                        assert state.units[c.target_id].hex in tinted, c


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
                      if u.side != state.units[uid].side and mode._charge_path(scene, u.id) is not None}
        assert mode.charge_targets(scene) == one_by_one, uid


def test_charge_targets_match_one_path_per_enemy_on_a_crowded_map(tmp_path: Any) -> None:
    """The same equivalence where charges abound: the benchmark's crowded 30 x 30 battle."""
    from game.bench import bigmap
    from game.client.ail.battle import BattleScene
    from game.client.ail.plugin import tactical_session
    from game.client.launch import layout_of
    from game.rules.ail.state import TurnSlot

    battle = bigmap.big_battle(tmp_path, 30, 30, 300)
    sides = tuple(TurnSlot(side=x.id) for x in battle.setup.sides)
    state = ail.initial_state(battle.setup, battle.board, 1).model_copy(
        update={"phase": "movement", "turn_order": sides, "turn_index": 0, "pending": None})
    session = tactical_session(battle.setup, battle.board, layout_of(battle.map_data), 1, state=state,
                               map_data=battle.map_data)
    app = App(size=(1280, 800), headless=True, settings=Settings(animation="instant", blackout=False))
    scene = BattleScene(app, session)
    scene.viewer = state.active_side
    found = 0
    for uid in list(ail.units_that_can_act(state, state.active_side))[:40]:
        mode = MoveMode(uid)
        one_by_one = {u.id for u in state.live_units()
                      if u.side != state.units[uid].side and mode._charge_path(scene, u.id) is not None}
        assert mode.charge_targets(scene) == one_by_one, uid
        found += len(one_by_one)
    assert found > 0  # the map is crowded enough for charges: the comparison is not of empty sets
