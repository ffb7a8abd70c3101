"""The week through `apply`: movement, declare combat, pick-up, posts, sealed orders, the reveal,
casualties on units, moves after a battle, battles over weeks, GM commands, saves of state."""

from __future__ import annotations

import pytest

from game.systems.campaign.rules import SYSTEM
from game.systems.campaign.rules.commands import (
    Declare,
    EndTurn,
    GiveOrders,
    GmEditUnit,
    GmForceRolls,
    GmMoveArmy,
    MoveArmy,
    NarrativeDone,
    Pickup,
    WritePost,
)
from game.systems.campaign.rules.engine import reach
from game.systems.campaign.rules.state import CampaignState, with_readings
from tests.rules.campaign.campfix import fight, kinds, must, plain_map, refused, setup, to_orders, utype

RIFLE = "zone_rifle_division"  # A2 D3 M2 plain, line
JAI = "jibril_armoured_infantry"  # A5 D6 M2 Armour 2, line
WARJACK = "jibril_warjack"  # A7 D6 M4 Large 4, line
HUSSAR = "zone_hussars"  # M5 scout


def start(armies, generals=(), cmap=None, seed=1) -> CampaignState:
    return SYSTEM.initial_state(setup(armies, generals, cmap=cmap, players=("red", "blue")), seed)


def test_movement_points_are_the_slowest_units_mobility_plus_one() -> None:
    s = start([("a", "red", (2, 2), [RIFLE, HUSSAR], None), ("z", "blue", (10, 8), [RIFLE], None)])
    r = reach(s, "a")
    assert max(e.cost for e in r.values()) == 3
    assert refused(s, MoveArmy(army="a", path=((3, 2), (4, 2), (5, 2), (6, 2)))).startswith("A has 3 movement points")


def test_entering_a_hex_costs_its_terrain_and_sea_cannot_be_entered() -> None:
    cmap = plain_map(overrides={(3, 2): "marsh", (2, 3): "sea"})
    s = start([("a", "red", (2, 2), [RIFLE], None), ("z", "blue", (10, 8), [RIFLE], None)], cmap=cmap)
    s2, ev = must(s, MoveArmy(army="a", path=((3, 2),)))
    assert ev[0].cost == 3
    assert "cannot enter" in refused(s, MoveArmy(army="a", path=((2, 3),)))


def test_an_army_entering_a_hex_with_an_enemy_stops_there() -> None:
    s = start([("a", "red", (2, 2), [HUSSAR, HUSSAR], None), ("z", "blue", (3, 2), [RIFLE], None)])
    assert "must stop" in refused(s, MoveArmy(army="a", path=((3, 2), (4, 2))))
    s2, ev = must(s, MoveArmy(army="a", path=((3, 2),)))
    assert ev[0].stopped_by == "enemy"
    assert (3, 2) not in {c for c, e in reach(s, "a").items() if len(e.path) > 1 and e.path[0] == (3, 2)}


def test_an_army_remembers_the_hex_it_came_from_as_its_route() -> None:
    s = start([("a", "red", (2, 2), [HUSSAR], None), ("z", "blue", (10, 8), [RIFLE], None)])
    s, _ = must(s, MoveArmy(army="a", path=((3, 2), (4, 2))))
    assert s.armies["a"].route == (3, 2) and s.armies["a"].hex == (4, 2)


def test_movement_goes_in_player_order_and_each_army_moves_once() -> None:
    s = start([("a", "red", (2, 2), [RIFLE], None), ("z", "blue", (10, 8), [RIFLE], None)])
    assert "movement" in refused(s, MoveArmy(army="z", path=((9, 8),)))
    s, _ = must(s, MoveArmy(army="a", path=((3, 2),)))
    assert "already moved" in refused(s, MoveArmy(army="a", path=((4, 2),)))
    s, _ = must(s, EndTurn())
    assert SYSTEM.to_move(s) == ["blue"]


def _contested(fight_red: bool, fight_blue: bool) -> CampaignState:
    s = start([("a", "red", (5, 5), [RIFLE], (4, 5)), ("z", "blue", (6, 5), [RIFLE], None)])
    s, _ = must(s, EndTurn())
    s, _ = must(s, MoveArmy(army="z", path=((5, 5),)))
    s, _ = must(s, EndTurn())
    assert s.phase == "declare" and sorted(SYSTEM.to_move(s)) == ["blue", "red"]
    s, _ = must(s, Declare(player="red", hex=(5, 5), fight=fight_red))
    if not fight_red:  # red's fight starts the battle: blue is then not asked
        s, _ = must(s, Declare(player="blue", hex=(5, 5), fight=fight_blue))
    return s


def test_one_declaration_to_fight_starts_the_battle_and_the_other_side_is_not_asked() -> None:
    s = _contested(True, True)
    assert s.phase != "declare" and len(s.battles) == 1 and SYSTEM.to_move(s) != ["blue"]
    s = start([("a", "red", (5, 5), [RIFLE], (4, 5)), ("z", "blue", (6, 5), [RIFLE], None)])
    s, _ = must(s, EndTurn())
    s, _ = must(s, MoveArmy(army="z", path=((5, 5),)))
    s, _ = must(s, EndTurn())
    s, _ = must(s, Declare(player="red", hex=(5, 5), fight=True))
    out = SYSTEM.apply(s, Declare(player="blue", hex=(5, 5), fight=False))
    assert not out.accepted  # the phase moved on: nobody else had to declare
    assert not any(c.kind == "declare" for c in SYSTEM.legal_commands(s))


def test_a_game_begun_under_the_second_readings_still_asks_both_sides() -> None:
    s = start([("a", "red", (5, 5), [RIFLE], (4, 5)), ("z", "blue", (6, 5), [RIFLE], None)])
    s = s.model_copy(update={"setup": with_readings(s.cs, 2), "readings": 2})
    s, _ = must(s, EndTurn())
    s, _ = must(s, MoveArmy(army="z", path=((5, 5),)))
    s, _ = must(s, EndTurn())
    s, _ = must(s, Declare(player="red", hex=(5, 5), fight=True))
    assert s.phase == "declare" and SYSTEM.to_move(s) == ["blue"]  # (its saves replay as they were played)
    s, _ = must(s, Declare(player="blue", hex=(5, 5), fight=True))
    assert len(s.battles) == 1


def test_a_battle_starts_if_either_player_says_fight() -> None:
    assert len(_contested(False, True).battles) == 1
    assert len(_contested(True, False).battles) == 1
    assert len(_contested(False, False).battles) == 0


def test_an_army_in_a_battle_cannot_move_on() -> None:
    s = _contested(True, True)
    for _ in range(2):
        s, _ = must(s, EndTurn())
    for p in ("red", "blue"):
        s, _ = must(s, NarrativeDone(player=p))
    s = s.model_copy(update={"forced": (1,) * 6})  # a draw: Defend against Defend is no result
    s, _ = fight(s, {"manoeuvre": "defend", "vanguard": "a.1"}, {"manoeuvre": "defend", "vanguard": "z.1"})
    assert s.week == 2 and not s.battles["B1"].over  # Defend vs Defend: no result, goes on
    assert "held in a battle" in refused(s, MoveArmy(army="a", path=((4, 5),)))


def test_an_army_entering_a_battle_in_progress_joins_its_side_and_stops() -> None:
    s = to_orders([RIFLE], [RIFLE], extra_armies=[("late", "blue", (8, 5), [HUSSAR], None)], forced=[1] * 6)
    s, _ = fight(s, {"manoeuvre": "defend", "vanguard": "r.1"}, {"manoeuvre": "defend", "vanguard": "b.1"})
    assert not s.battles["B1"].over
    s, _ = must(s, EndTurn())
    s, ev = must(s, MoveArmy(army="late", path=((7, 5), (6, 5), (5, 5))))
    assert kinds(ev, "army_joined") and s.armies["late"].battle == "B1"


def test_a_generals_pick_up_move_reaches_a_friendly_army_within_two_hexes() -> None:
    s = start([("a", "red", (2, 2), [RIFLE], None), ("b", "red", (4, 2), [RIFLE], None),
               ("c", "red", (7, 2), [RIFLE], None), ("z", "blue", (10, 8), [RIFLE], None)],
              generals=[("g", "red", 1, "a")])
    s, _ = must(s, EndTurn())
    s, _ = must(s, EndTurn())
    assert s.phase == "pickup"
    assert "reaches 2" in refused(s, Pickup(general="g", army="c"))
    s, _ = must(s, Pickup(general="g", army="b"))
    assert s.generals["g"].army == "b" and s.generals["g"].hex == (4, 2)


def test_a_general_fights_only_if_named_in_a_post_of_its_owner() -> None:
    s = to_orders([RIFLE, RIFLE], [RIFLE], red_general=2, name_generals=False)
    why = refused(s, GiveOrders(player="red", battle="B1", manoeuvre="attack", stratagems=("feint",), vanguard="r.1"))
    assert "fighting General" in why
    s = to_orders([RIFLE, RIFLE], [RIFLE], red_general=2)
    must(s, GiveOrders(player="red", battle="B1", manoeuvre="attack", stratagems=("feint",), vanguard="r.1"))


def test_a_post_may_name_only_generals_present_in_the_battle() -> None:
    s = start([("a", "red", (5, 5), [RIFLE], None), ("b", "red", (1, 1), [RIFLE], None),
               ("z", "blue", (6, 5), [RIFLE], None)], generals=[("far", "red", 2, "b")])
    s, _ = must(s, EndTurn())
    s, _ = must(s, MoveArmy(army="z", path=((5, 5),)))
    s, _ = must(s, EndTurn())
    s, _ = must(s, Declare(player="red", hex=(5, 5), fight=True))
    s, _ = must(s, EndTurn())
    s, _ = must(s, EndTurn())
    assert "not with the forces" in refused(s, WritePost(player="red", battle="B1", text="x", generals=("far",)))


def test_sealed_orders_are_hidden_from_every_other_side_until_the_reveal() -> None:
    s = to_orders([RIFLE], [RIFLE])
    s, _ = must(s, GiveOrders(player="red", battle="B1", manoeuvre="block", vanguard="r.1"))
    assert SYSTEM.to_move(s) == ["blue"]
    assert "block" not in str(SYSTEM.view(s, "blue").to_dict())
    assert SYSTEM.view(s, "blue").battles["B1"].orders == {}
    assert SYSTEM.view(s, "red").battles["B1"].orders["red"].manoeuvre == "block"
    assert SYSTEM.view(s, None).battles["B1"].orders["red"].manoeuvre == "block"
    assert "block" not in str(SYSTEM.summary(s))
    assert "already sealed" in refused(s, GiveOrders(player="red", battle="B1", manoeuvre="attack", vanguard="r.1"))


def test_a_vanguard_must_be_a_line_unit_but_a_rearguard_may_be_any_unit() -> None:
    s = to_orders([RIFLE, HUSSAR], [RIFLE])
    assert "line unit" in refused(s, GiveOrders(player="red", battle="B1", manoeuvre="attack", vanguard="r.2"))
    must(s, GiveOrders(player="red", battle="B1", manoeuvre="withdraw", vanguard="r.2"))


@pytest.mark.parametrize(("manoeuvre", "stratagem", "words"), [
    ("withdraw", "deception", "level 2"), ("withdraw", "covering_fire", "observer"),
    ("withdraw", "last_stand", "level 1"), ("defend", "continuous_front", "20 infantry divisions"),
    ("defend", "hold_the_line", "level 1"), ("defend", "counter_attack", "level 2"),
    ("defend", "harassing_fire", "observer"), ("block", "delay", "level 2"), ("block", "encirclement", "level 2"),
    ("block", "ambush", "level 2"), ("block", "hammer_and_anvil", "level 3"), ("skirmish", "raid", "level 1"),
    ("skirmish", "guerrilla", "level 2"), ("attack", "flanking", "level 2"), ("attack", "feint", "level 2"),
    ("shock_attack", "surprise", "level 2"), ("shock_attack", "speed", "Mobility 4"),
    ("attack", "breakthrough", "level 1"), ("defend", "raid", "goes with Skirmish"),
])
def test_each_stratagem_is_refused_with_a_sentence_when_its_requirement_is_missing(manoeuvre: str, stratagem: str,
                                                                                  words: str) -> None:
    s = to_orders([RIFLE, RIFLE], [RIFLE])
    why = refused(s, GiveOrders(player="red", battle="B1", manoeuvre=manoeuvre, stratagems=(stratagem,),
                                vanguard="r.1"))
    assert words in why and why.endswith(".")


@pytest.mark.parametrize(("stratagem", "manoeuvre", "units", "level"), [
    ("flanking", "attack", [RIFLE, HUSSAR], 2), ("hold_the_line", "defend", [RIFLE], 1),
    ("covering_fire", "withdraw", [RIFLE, "zone_balloon_corps"], 0), ("guerrilla", "skirmish", [RIFLE], 2),
    ("hammer_and_anvil", "block", [RIFLE], 3), ("continuous_front", "defend", [RIFLE] * 20, 0),
    ("speed", "shock_attack", ["jibril_shield_cavalry"], 0), ("flee", "attack", [RIFLE], 0),
])
def test_each_stratagem_is_accepted_when_its_requirement_is_met(stratagem: str, manoeuvre: str, units: list[str],
                                                                level: int) -> None:
    extra = [("second", "red", (5, 5), [RIFLE], None)] if stratagem == "hammer_and_anvil" else []
    cmap = plain_map(overrides={(5, 5): "forest"}) if stratagem == "guerrilla" else None
    s = to_orders(units, [RIFLE], red_general=level or None, extra_armies=extra, cmap=cmap)
    must(s, GiveOrders(player="red", battle="B1", manoeuvre=manoeuvre, stratagems=(stratagem,), vanguard="r.1"))


def test_casualties_land_on_the_vanguard_first_then_the_largest_reinforcing_units() -> None:
    s = to_orders([RIFLE, WARJACK, RIFLE], [JAI, JAI, JAI], forced=[1] * 3 + [10] * 6 + [3])
    s, ev = fight(s, {"manoeuvre": "attack", "vanguard": "r.1"}, {"manoeuvre": "attack", "vanguard": "b.1"})
    placed = kinds(ev, "casualties_placed")
    red = next(p for p in placed if p.player == "red")
    assert red.placed[0][0] == "r.1" and red.placed[1][0] == "r.2"


def test_armour_damage_resets_each_week_and_large_damage_accumulates_over_the_battle() -> None:
    s = to_orders([JAI, WARJACK], [RIFLE], forced=[1] * 9)  # a draw
    s = s.model_copy(update={"units": {**s.units, "r.1": s.units["r.1"].model_copy(update={"armour_damage": 1}),
                                       "r.2": s.units["r.2"].model_copy(update={"large_damage": 2})}})
    s, _ = fight(s, {"manoeuvre": "defend", "vanguard": "r.1"}, {"manoeuvre": "defend", "vanguard": "b.1"})
    assert s.units["r.1"].armour_damage == 0 and s.units["r.2"].large_damage == 2
    assert not s.units["r.2"].destroyed


def test_two_casualties_in_one_week_destroy_armour_2_but_one_a_week_never_does() -> None:
    from game.systems.campaign.rules.battle import hit
    from tests.rules.campaign.campfix import types
    t = types()[JAI]
    u = SYSTEM.initial_state(setup([("a", "red", (1, 1), [JAI], None), ("z", "blue", (3, 3), [RIFLE], None)]),
                             1).units["a.1"]
    assert hit(t, hit(t, u, 1), 1).destroyed
    weekly = u
    for _ in range(10):
        weekly = hit(t, weekly, 1).model_copy(update={"armour_damage": 0})
    assert not weekly.destroyed
    lt = types()[WARJACK]
    big = u.model_copy(update={"type_id": WARJACK})
    for _ in range(3):
        big = hit(lt, big, 1).model_copy(update={"armour_damage": 0})
    assert not big.destroyed and hit(lt, big, 1).destroyed


def test_a_winning_withdraw_moves_into_the_chosen_hex_of_its_arc_and_ends_the_battle() -> None:
    # red withdraws with 5 forced successes against a blue defence of none
    s = to_orders([HUSSAR], [RIFLE], forced=[10] * 5 + [1] * 3 + [1])
    s, ev = fight(s, {"manoeuvre": "withdraw", "vanguard": "r.1", "withdraw_to": (4, 6)},
                  {"manoeuvre": "defend", "vanguard": "b.1"})
    from game.systems.campaign.rules import hexes
    assert sorted(hexes.arc(s.cs.map, (5, 5), (4, 5))) == [(4, 5), (4, 6), (5, 4)]
    assert s.armies["r"].hex == (4, 6)
    assert s.battles["B1"].over and kinds(ev, "battle_ended")


def test_a_rout_falls_back_two_hexes_and_every_unit_takes_one_more_casualty() -> None:
    s = to_orders([JAI, WARJACK, WARJACK, WARJACK], [JAI, JAI, JAI], forced=[1] * 6 + [10] * 6 + [1])
    s, ev = fight(s, {"manoeuvre": "shock_attack", "vanguard": "r.1"}, {"manoeuvre": "shock_attack", "vanguard": "b.1"})
    routed = kinds(ev, "routed")
    assert routed and routed[0].player == "red"
    moves = [e for e in kinds(ev, "army_moved") if e.reason == "rout"]
    assert moves and moves[0].path == ((4, 5), (3, 4))
    assert s.armies["r"].hex == (3, 4) and s.battles["B1"].over


def test_a_block_victory_stops_the_loser_from_withdrawing_next_week() -> None:
    s = to_orders([RIFLE] * 8, [JAI, JAI], forced=[1] * 4 + [10, 10, 10, 1, 1, 1] + [1])
    s, ev = fight(s, {"manoeuvre": "attack", "vanguard": "r.1"}, {"manoeuvre": "block", "vanguard": "b.1"})
    assert kinds(ev, "army_locked")
    for _ in range(2):
        s, _ = must(s, EndTurn())
    for _ in range(2):
        s, _ = must(s, EndTurn())
    for p in ("red", "blue"):
        s, _ = must(s, NarrativeDone(player=p))
    alive = s.alive_units("r")
    assert "cannot withdraw" in refused(s, GiveOrders(player="red", battle="B1", manoeuvre="withdraw",
                                                       vanguard=alive[0]))


def test_every_die_is_reported_and_the_same_seed_rolls_the_same_dice() -> None:
    runs = []
    for _ in range(2):
        s = to_orders([RIFLE, RIFLE], [RIFLE], seed=5)
        s, ev = fight(s, {"manoeuvre": "attack", "vanguard": "r.1"}, {"manoeuvre": "defend", "vanguard": "b.1"})
        rolled = kinds(ev, "dice_rolled")
        assert all(d.purpose for d in rolled)
        runs.append(SYSTEM.rolls(ev))
    assert runs[0] == runs[1] and len(runs[0]) >= 4


def test_gm_forced_rolls_are_used_first_and_reported_as_forced() -> None:
    s = to_orders([RIFLE], [RIFLE])
    s, _ = must(s, GmForceRolls(values=(10, 10, 1, 1, 1)))
    s, ev = fight(s, {"manoeuvre": "attack", "vanguard": "r.1"}, {"manoeuvre": "attack", "vanguard": "b.1"})
    first = kinds(ev, "dice_rolled")[0]
    assert first.dice == (10, 10) and first.forced == 2


def test_gm_can_move_an_army_and_edit_a_unit() -> None:
    s = start([("a", "red", (2, 2), [RIFLE], None), ("z", "blue", (10, 8), [RIFLE], None)])
    s, _ = must(s, GmMoveArmy(army="z", to=(8, 8)))
    assert s.armies["z"].hex == (8, 8)
    s, _ = must(s, GmEditUnit(unit="a.1", destroyed=True))
    assert s.units["a.1"].destroyed
    assert SYSTEM.is_gm_command(GmEditUnit(unit="a.1"))


def test_a_state_survives_a_round_trip_through_plain_data() -> None:
    s = to_orders([RIFLE, JAI], [RIFLE])
    s, _ = must(s, GiveOrders(player="red", battle="B1", manoeuvre="block", vanguard="r.1"))
    data = SYSTEM.state_to_data(s)
    back = SYSTEM.state_from_data(data, s.cs)
    assert back == s and SYSTEM.state_to_data(back) == data


def test_a_move_may_be_undone_by_a_player_but_orders_and_dice_may_not() -> None:
    from game.core.record import Record
    s = start([("a", "red", (2, 2), [RIFLE], None), ("z", "blue", (10, 8), [RIFLE], None)])
    rec = Record(SYSTEM, s)
    rec.apply(MoveArmy(army="a", path=((3, 2),)))
    assert rec.can_undo
    rec.apply(EndTurn())
    assert not rec.can_undo


def test_a_unit_type_missing_from_the_catalogue_is_a_setup_error() -> None:
    from game.systems.campaign.rules.engine import SetupError
    with pytest.raises(SetupError):
        SYSTEM.initial_state(setup([("a", "red", (2, 2), ["nope"], None), ("z", "blue", (3, 3), [RIFLE], None)]), 1)
    assert utype().durability == "plain"


def test_forces_with_no_line_unit_left_may_put_any_unit_in_the_vanguard() -> None:
    s = to_orders([HUSSAR], [RIFLE])
    must(s, GiveOrders(player="red", battle="B1", manoeuvre="defend", vanguard="r.1"))
