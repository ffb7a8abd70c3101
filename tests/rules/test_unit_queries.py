"""Rules queries the client and the scenario loader ask instead of keeping their own copies:
where a unit type may stand (`can_stand_on`) and a unit's numbers for its card (`stat_lines`)."""

from __future__ import annotations

from game.core.board import Board
from game.systems.tactical.rules import can_stand_on, stat_lines
from game.systems.tactical.rules.movement import enter_cost

from .ailfix import CATALOGUE, RULES, edit_unit, make_state


def test_can_stand_on_closes_impassable_terrain_but_opens_water_to_hover_units():
    rifles, skiff = CATALOGUE.units["rifle_section"], CATALOGUE.units["hover_skiff"]
    assert can_stand_on(RULES, rifles, "clear") and can_stand_on(RULES, rifles, "swamp")
    assert not can_stand_on(RULES, rifles, "water") and can_stand_on(RULES, skiff, "water")
    assert not can_stand_on(RULES, rifles, "cliff") and not can_stand_on(RULES, skiff, "cliff")
    assert not can_stand_on(RULES, rifles, "lava")  # a terrain the rules do not know


def test_can_stand_on_agrees_with_what_a_move_may_enter_for_every_terrain_and_unit_type():
    terrains = sorted(RULES.terrain)
    board = Board.filled(len(terrains) + 2, 3, overrides={(i + 1, 1): t for i, t in enumerate(terrains)})
    for type_id, ut in CATALOGUE.units.items():
        st = make_state([("u", type_id, "blue", (0, 0))], board=board)
        for i, name in enumerate(terrains):
            h = board.hex_at(i + 1, 1)
            assert (enter_cost(st, st.units["u"], h) is not None) == can_stand_on(RULES, ut, name), (type_id, name)


def test_stat_lines_give_the_units_numbers_and_the_hit_roll_each_weapon_makes():
    st = make_state([("r1", "rifle_section", "blue", (1, 1)), ("k1", "battlemage_knight", "blue", (3, 3))])
    lines = {line.label: line.text for line in stat_lines(st, "r1")}
    assert lines["stats"] == "physique 3, senses 3, intellect 2, aether 1"
    assert lines["strength"] == "6 of 6" and lines["adrenaline"] == "3 of 3" and lines["move"] == "4"
    assert lines["bolt rifles"].startswith("FP 3, range 2/6/10/14")
    assert lines["bolt rifles"].endswith("hits with senses 3 + firearms 2 + d10")
    knight = {line.label: line.text for line in stat_lines(st, "k1")}
    spell = next(text for label, text in knight.items() if "aether channel" in text and "FP" in text)
    assert "hits with aether 5 + aether channel 4 + d10" in spell
    assert knight["special move"].startswith("blink, 3 hexes")
    worn = edit_unit(st, "r1", strength=2, adrenaline=0)
    lines = {line.label: line.text for line in stat_lines(worn, "r1")}
    assert lines["strength"] == "2 of 6" and lines["adrenaline"] == "0 of 3"


def test_stat_lines_show_the_d6_of_a_weapon_whose_skill_the_unit_lacks():
    st = make_state([("g1", "field_gun", "blue", (1, 1))])
    ut = st.unit_type("g1")
    untrained = ut.model_copy(update={"skills": {k: v for k, v in ut.skills.items() if k != "gunnery"}})
    st = st.model_copy(update={"custom_types": {"field_gun": untrained}})
    lines = {line.label: line.text for line in stat_lines(st, "g1")}
    assert lines["field gun"].endswith("hits with senses 3 + gunnery 0 + d6")
    assert "adrenaline" not in lines  # a vehicle has none
