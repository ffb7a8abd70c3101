"""What players read for a unit: its scenario name, or its type's name numbered per side and
type ("Rifle Section 2"), never its internal id (issue 12, item 8). Ids stay GM detail."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as hs

from game.systems.tactical.rules.gm import EditUnit, PlaceUnit, RemoveUnit

from .ailfix import at, edit_unit, make_state, ok

UNITS = [("alpha-7", "rifle_section", "blue", (1, 1)), ("zz-2", "rifle_section", "blue", (1, 2)),
         ("r-red", "rifle_section", "red", (6, 1)), ("m1", "militia_band", "blue", (1, 3))]


def test_unnamed_units_are_named_by_type_numbered_per_side_and_type_in_set_up_order() -> None:
    st = make_state(UNITS)
    assert [st.unit_name(u) for u in ("alpha-7", "zz-2", "r-red", "m1")] == \
        ["Rifle Section 1", "Rifle Section 2", "Rifle Section 1", "Militia Band 1"]
    for uid in st.units:
        assert uid not in st.unit_name(uid)


def test_a_unit_keeps_its_number_when_another_is_destroyed_edited_or_placed() -> None:
    st = make_state(UNITS, phase="movement")
    st = edit_unit(st, "alpha-7", destroyed=True)
    assert st.unit_name("zz-2") == "Rifle Section 2"
    st = ok(st, EditUnit(unit_id="zz-2", stats={"physique": 5})).state  # its own GM-edited type
    assert st.units["zz-2"].type_id != "rifle_section"
    assert st.unit_name("zz-2") == "Rifle Section 2"
    st = ok(st, PlaceUnit(unit_id="gm-rifle_section-1", type_id="rifle_section", side="blue", at=at(3, 3))).state
    assert st.unit_name("gm-rifle_section-1") == "Rifle Section 3"
    st = ok(st, RemoveUnit(unit_id="alpha-7")).state  # a set-up unit removed: the others keep theirs
    assert st.unit_name("zz-2") == "Rifle Section 2"
    assert st.unit_name("gm-rifle_section-1") == "Rifle Section 3"


def test_a_named_unit_keeps_its_name_and_is_not_counted_among_the_numbered() -> None:
    st = make_state(UNITS)
    named = st.setup.model_copy(update={"units": (st.setup.units[0].model_copy(update={"name": "1st Rifles"}),
                                                  *st.setup.units[1:])})
    st = st.model_copy(update={"setup": named})
    assert st.unit_name("alpha-7") == "1st Rifles"
    assert st.unit_name("zz-2") == "Rifle Section 1"
    assert st.unit_name("nobody") == "nobody"  # an id that is no unit: shown as given


def test_event_lines_for_people_name_sides_and_personal_slots_not_their_ids() -> None:
    from game.systems.tactical.rules.describe import describe_event
    from game.systems.tactical.rules.events import InitiativeWon, PhaseChanged

    st = make_state(UNITS)
    sides = {s.id: s.name for s in st.setup.sides}
    won = InitiativeWon(side="blue", margin=3, ranking=["blue:alpha-7", "red"])
    line = describe_event(st, won)
    assert f"{sides['blue']} ({st.unit_name('alpha-7')} alone)" in line and sides["red"] in line
    assert "alpha-7" not in line and "blue:" not in line
    phase = describe_event(st, PhaseChanged(round=1, phase="movement", side="red"))
    assert sides["red"] in phase and "(red)" not in phase


def _name_one_by_one(st: Any, unit_id: str) -> str:
    """The naming rule written out for one unit, the plain way (the oracle of the name table)."""
    for u in st.setup.units:
        if u.id == unit_id and u.name:
            return str(u.name)
    unit = st.units.get(unit_id)
    if unit is None:
        return unit_id
    group = (unit.side, unit.type_id.split("@", 1)[0])
    set_up = [u.id for u in st.setup.units if not u.name and (u.side, u.type) == group]
    placed = [u.id for u in st.units.values()
              if u.id not in set_up and (u.side, u.type_id.split("@", 1)[0]) == group]
    return f"{st.unit_type(unit_id).name} {(set_up + placed).index(unit_id) + 1}"


@settings(max_examples=60, deadline=None)
@given(hs.lists(hs.tuples(hs.sampled_from(["rifle_section", "militia_band"]), hs.sampled_from(["blue", "red"]),
                          hs.booleans(), hs.booleans(), hs.booleans()), min_size=1, max_size=9))
def test_the_name_table_names_every_unit_as_the_rule_does_one_by_one(spec: list[tuple[str, str, bool, bool, bool]]) -> None:
    units = [(f"u{i}", kind, side, (1 + i % 5, 1 + i // 5)) for i, (kind, side, _, _, _) in enumerate(spec)]
    state = make_state(units)
    setup_units = list(state.setup.units)
    for i, (_, _, named, _, _) in enumerate(spec):
        if named:
            setup_units[i] = setup_units[i].model_copy(update={"name": f"Named {i}"})
    roster = dict(state.units)
    for i, (_, side, _, switch, dropped) in enumerate(spec):
        uid = f"u{i}"
        if switch:  # a unit now on the other side than the set-up put it (numbered where it is now)
            roster[uid] = roster[uid].model_copy(update={"side": "red" if side == "blue" else "blue"})
        if dropped:
            del roster[uid]
    roster["gm-late"] = state.units["u0"].model_copy(update={"id": "gm-late", "hex": at(9, 9)})
    state = state.model_copy(update={"setup": state.setup.model_copy(update={"units": tuple(setup_units)}),
                                     "units": roster})
    for uid in [*roster, "u0", "nobody"]:
        assert state.unit_name(uid) == _name_one_by_one(state, uid)


def test_names_stay_right_through_states_that_share_or_change_the_roster() -> None:
    """The name table is reused for another state with the same roster (ids in order, sides,
    types: a unit moved or hit); a change of side, type, order or of who is there is named anew."""
    state = make_state(UNITS + [("b3", "rifle_section", "blue", (2, 4))])
    u = state.units

    def named(units: dict[str, Any]) -> None:
        st = state.model_copy(update={"units": units})
        for uid in [*units, "nobody"]:
            assert st.unit_name(uid) == _name_one_by_one(st, uid), (uid, list(units))

    named(dict(u))
    named({**u, "zz-2": u["zz-2"].model_copy(update={"hex": at(5, 5), "strength": 1})})  # moved, hit
    named({**u, "alpha-7": u["alpha-7"].model_copy(update={"side": "red"})})  # changed side
    named({**u, "zz-2": u["zz-2"].model_copy(update={"type_id": "militia_band"})})  # changed type
    named({k: v for k, v in u.items() if k != "alpha-7"})  # removed
    named({"zz-2": u["zz-2"], **{k: v for k, v in u.items() if k != "zz-2"}})  # another order
    x = u["b3"].model_copy(update={"id": "gm-x", "hex": at(7, 7)})
    y = u["b3"].model_copy(update={"id": "gm-y", "hex": at(7, 8)})
    named({**u, "gm-x": x, "gm-y": y})  # placed
    named({**u, "gm-y": y, "gm-x": x})  # placed the other way round: numbered the other way
    named(dict(u))


def test_a_gm_placing_a_unit_is_described_by_its_type_side_and_hex_never_its_new_id() -> None:
    from game.systems.tactical.rules.describe import describe

    st = make_state(UNITS, phase="movement")
    cmd = PlaceUnit(unit_id="gm-rifle_section-1", type_id="rifle_section", side="blue", at=at(3, 3))
    text = describe(st, cmd)
    assert text.startswith("GM: place Rifle Section (") and st.side_name("blue") in text, text
    assert "gm-rifle_section-1" not in text and "3,3" in text.replace(" ", "")


def test_a_defensive_action_answer_says_whether_the_unit_takes_it() -> None:
    from game.systems.tactical.rules.commands import DefensiveAction
    from game.systems.tactical.rules.describe import describe

    st = make_state(UNITS, phase="attack")
    name = st.unit_name("r-red")
    assert describe(st, DefensiveAction(unit_id="r-red", accept=True)) == f"{name} takes the defensive action"
    assert describe(st, DefensiveAction(unit_id="r-red", accept=False)) == f"{name} does not take the defensive action"
    assert describe(st, DefensiveAction(unit_id="r-red", accept=False, casualty_advantage=2)) == \
        f"{name} does not take the defensive action, spending 2 Advantage on each casualty roll"
