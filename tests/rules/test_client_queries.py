"""The queries the client's modes ask instead of holding rules of their own (issue 12 / issue 9):
the overwatch danger zone, the Advantage a unit can spend, whether a dash can be paid for, and
the roll each initiative option makes. Each is checked against the code `apply` runs."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from game.systems.tactical.rules import Accepted, apply, danger_zone, dash_refusal, spendable_advantage
from game.systems.tactical.rules import base_queries as memo_home
from game.systems.tactical.rules import queries as q
from game.systems.tactical.rules.commands import AssignLeadership, Charge, SetCasualtyAdvantage
from game.systems.tactical.rules.overwatch import qualifying_watchers
from game.systems.tactical.rules.queries import initiative_roll, leadership_to_give
from tests.rules.ailfix import edit_unit, make_state
from tests.rules.test_reach_properties import battles


def test_danger_zone_is_every_hex_where_the_watcher_would_fire_at_a_mover() -> None:
    st = make_state([("r1", "rifle_section", "blue", (0, 1)), ("w1", "rifle_section", "red", (8, 1))],
                    phase="movement")
    st = edit_unit(st, "w1", stance="overwatch", stance_weapon="bolt rifles", acted_round=1)
    zone = danger_zone(st, "w1")
    assert zone
    for h in st.board.terrain:
        fires = any(w.unit_id == "w1" for w in qualifying_watchers(st, "r1", h))
        assert (h in zone) == fires, h


def test_danger_zone_is_empty_without_an_overwatch_stance() -> None:
    st = make_state([("r1", "rifle_section", "blue", (0, 1)), ("w1", "rifle_section", "red", (8, 1))],
                    phase="movement")
    assert danger_zone(st, "w1") == frozenset()


def test_spendable_advantage_lists_what_the_attack_check_would_accept() -> None:
    st = make_state([("r1", "rifle_section", "blue", (0, 1)), ("w1", "rifle_section", "red", (8, 1))],
                    phase="attack")
    assert spendable_advantage(st, "r1") == []
    sides = dict(st.sides)
    sides["blue"] = sides["blue"].model_copy(update={"advantage": {**sides["blue"].advantage, "command": 2,
                                                                   "personal": 1}})
    st = edit_unit(st.model_copy(update={"sides": sides}), "r1", leadership=1)
    # Personal only for the commander's own unit (this commander is attached to none)
    assert spendable_advantage(st, "r1") == [("command", 2), ("leadership", 1)]


def test_dash_refusal_says_why_a_unit_cannot_pay_and_none_when_it_can() -> None:
    st = make_state([("r1", "rifle_section", "blue", (0, 1)), ("w1", "rifle_section", "red", (8, 1))],
                    phase="movement")
    assert dash_refusal(st, "r1") is None
    broke = edit_unit(st, "r1", adrenaline=0, leadership=0)
    assert "Adrenaline" in (dash_refusal(broke, "r1") or "")
    assert dash_refusal(st, "r1", "pilot") is not None  # living units do not dash with a pilot check


def test_initiative_roll_is_intellect_plus_the_option_skill_with_the_skilled_die() -> None:
    st = make_state([("r1", "rifle_section", "blue", (0, 1)), ("w1", "rifle_section", "red", (8, 1))])
    roll = initiative_roll(st, "blue", "tactics")
    assert (roll.stat_name, roll.stat, roll.skill_name, roll.skill) == ("intellect", 3, "tactics", 2)
    assert roll.die == st.setup.rules.check.skilled_die
    personal = initiative_roll(st, "blue", "personal", "senses")
    assert (personal.stat_name, personal.skill_name) == ("senses", "awareness")


def test_the_memo_answers_once_per_state_and_key_and_keeps_only_the_latest_states() -> None:
    st = make_state([("r1", "rifle_section", "blue", (0, 1))], phase="movement")
    calls: list[int] = []

    def ask(state: object) -> object:
        return memo_home.memo(state, ("test", "reach"), lambda: calls.append(1) or object())  # type: ignore[arg-type,func-returns-value]

    first = ask(st)
    assert ask(st) is first and len(calls) == 1  # asked again: the kept answer
    others = [edit_unit(st, "r1", adrenaline=n) for n in range(memo_home._MEMO_SIZE)]
    for other in others:
        assert ask(other) is not first  # another state: its own answer
    assert len(memo_home._MEMO) == memo_home._MEMO_SIZE and all(s is not st for s, _ in memo_home._MEMO)
    assert ask(st) is not first and len(calls) == memo_home._MEMO_SIZE + 2  # forgotten: made again


def test_the_client_keeps_no_query_cache_of_its_own() -> None:
    client = Path(__file__).resolve().parents[2] / "game" / "systems" / "tactical" / "client"
    for path in sorted(client.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                assert node.name != "Queries", path.name
    rq = (client / "rq.py").read_text(encoding="utf-8")
    assert "ail.queries.memo(" in rq and "_cache" not in rq


@settings(max_examples=40, deadline=None)
@given(battles(), st.sampled_from(["movement", "attack"]), st.booleans())
def test_every_command_the_client_queries_offer_is_accepted_by_apply(battle: Any, phase: str, moved: bool) -> None:
    """charge_path / charge_targets, stuck_step_commands, special_move_commands, stance_commands and
    casualty_options: what the client offers from them, `apply` accepts (and a charge found one
    enemy at a time is one found all at once)."""
    board, units = battle
    state = make_state(units, board=board, phase=phase)
    if moved:
        state = edit_unit(state, "u0", move_done=True)
    u0 = state.units["u0"]
    offered: list[Any] = [*q.stuck_step_commands(state, "u0"), *q.special_move_commands(state, "u0"),
                          *q.stance_commands(state, "u0")]
    melee = next((w.name for w in state.unit_type("u0").weapons if w.melee), None)
    one_by_one = set()
    for e in state.live_units():
        path = q.charge_path(state, "u0", e.id) if e.side != u0.side else None
        if path is not None and melee is not None:
            one_by_one.add(e.id)
            offered.append(Charge(unit_id="u0", path=path, target_id=e.id, weapon=melee))
    assert q.charge_targets(state, "u0") == one_by_one
    offered += [SetCasualtyAdvantage(unit_id="u0", points=n, advantage_kind=k)
                for n, k in q.casualty_options(state, "u0") if n]
    for c in offered:
        if phase != "movement" and c.kind in ("charge", "stuck_step", "special_move"):
            raise AssertionError(f"{c} offered outside the Movement phase")
        out = apply(state, c)
        assert isinstance(out, Accepted), (c, out)
    if q.stuck_step_commands(state, "u0"):
        assert q.is_stuck(state, "u0")  # the stuck buttons show whenever a step is offered


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 3), st.sampled_from(["initiative", "movement", "attack"]), st.sampled_from(["blue", "red"]))
def test_leadership_to_give_is_what_assign_leadership_accepts(pool: int, phase: str, whose: str) -> None:
    state = make_state([("b1", "rifle_section", "blue", (0, 1)), ("r1", "rifle_section", "red", (8, 1))],
                       phase=phase)
    sides = dict(state.sides)
    sides[whose] = sides[whose].model_copy(update={"advantage": {"leadership": pool}})
    state = state.model_copy(update={"sides": sides})
    uid = "b1" if whose == "blue" else "r1"
    n = leadership_to_give(state, uid)
    for points in range(1, 5):
        out = apply(state, AssignLeadership(side=whose, unit_id=uid, points=points))
        assert isinstance(out, Accepted) == (points <= n), (points, n, out)
