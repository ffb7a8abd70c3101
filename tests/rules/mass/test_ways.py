"""The pieces and the Tao of War (docs/mass-battle.md §2–§3): each test names the line it checks."""

from __future__ import annotations

from game.systems.mass.rules import commands as c
from game.systems.mass.rules.commands import Rolled
from game.systems.mass.rules.models import qualifies
from game.systems.mass.rules.pools import level_name, size, strategy_entry
from game.systems.mass.rules.system import SYSTEM
from tests.rules.mass.massfix import force, force_dice, ok, person, refused, setup, start, texts


def _rolls(events: tuple[object, ...]) -> list[Rolled]:
    return [e for e in events if isinstance(e, Rolled)]


def test_wound_track_holds_earth_times_five_then_earth_times_two_per_level() -> None:
    s = start()
    p = s.forces["red"].people["red-cmd"]  # Earth 3
    names = []
    for w in (0, 15, 16, 21, 22, 28, 46, 52, 58):
        names.append(level_name(s.rules, p.model_copy(update={"wounds": w})))
    assert names == ["Healthy", "Healthy", "Nicked", "Nicked", "Grazed", "Hurt", "Down", "Out", "Dead"]


def test_void_points_start_at_the_void_ring() -> None:
    s = start()
    assert s.forces["red"].people["red-cmd"].void_left == 3


def test_size_counts_individuals_and_brutes() -> None:
    s = start()
    assert size(s.rules, s.forces["red"]) == 102


def test_fifty_combatants_qualify_and_fewer_get_a_note() -> None:
    assert qualifies(setup())[0]
    small = setup(force("red", brutes=[{"armour": "none", "count": 20}]),
                  force("blue", brutes=[{"armour": "none", "count": 20}]))
    yes, note = qualifies(small)
    assert not yes and "44 combatants" in note and "50" in note


def test_a_prepared_battle_assesses_all_four_ways_in_order() -> None:
    s = start(setup(prepared=True))
    assert s.stage == "appoint"
    s, _ = ok(s, c.Appoint(force="red", heaven="red-mage", honor="red-cmd"))
    s, _ = ok(s, c.Appoint(force="blue", heaven="blue-mage", honor="blue-cmd"))
    seen = []
    for way in ("heaven", "honor", "glory", "strategy"):
        assert s.stage == way
        s, ev = ok(s, c.RollWay(force="red", way=way))  # type: ignore[arg-type]
        seen.append(way)
    assert s.stage == "initiative" and seen == ["heaven", "honor", "glory", "strategy"]


def test_a_battle_that_erupts_assesses_only_strategy() -> None:
    s = start(setup(prepared=False))
    assert s.stage == "strategy"
    assert "only strategy" in refused(s, c.RollWay(force="red", way="heaven")).lower()


def test_appointments_are_sealed_until_every_force_has_chosen() -> None:
    s = start(setup(prepared=True))
    s, _ = ok(s, c.Appoint(force="red", heaven="red-mage", honor="red-cmd"))
    assert "red" not in SYSTEM.view(s, "blue").appointments
    assert "red" in SYSTEM.view(s, "red").appointments
    assert SYSTEM.to_move(s) == ["blue"]
    assert "not" in refused(s, c.Appoint(force="red", heaven="red-cmd", honor="red-cmd"))


def test_heaven_is_rolled_by_the_chosen_individual_as_divination_awareness() -> None:
    s = start(setup(prepared=True))
    s, _ = ok(s, c.Appoint(force="red", heaven="red-mage", honor="red-cmd"))
    s, _ = ok(s, c.Appoint(force="blue", heaven="blue-cmd", honor="blue-cmd"))
    s, ev = ok(s, c.RollWay(force="red", way="heaven"))
    r = _rolls(ev)
    assert [x.who for x in r[:2]] == ["red-mage", "blue-cmd"]
    assert r[0].pool == "5k3"  # Divination 2 + Awareness 3, keep 3


def test_honor_is_barred_to_a_commander_of_lower_status_unless_granted() -> None:
    low = force("red", people=[person("red-cmd", status=1), person("red-2")])
    s = start(setup(low, force("blue"), prepared=True))
    s, _ = ok(s, c.Appoint(force="red", heaven="red-cmd", honor="red-cmd"))
    s, _ = ok(s, c.Appoint(force="blue", heaven="blue-cmd", honor="blue-cmd"))
    s, _ = ok(s, c.RollWay(force="red", way="heaven"))
    s2, ev = ok(s, c.RollWay(force="red", way="honor"))
    assert not _rolls(ev) and s2.forces["blue"].advantage["honor"] == 1
    assert any("may not try" in t for t in texts(ev))
    granted = force("red", people=[person("red-cmd", status=1), person("red-2")], granted_status=3)
    s = start(setup(granted, force("blue"), prepared=True))
    s, _ = ok(s, c.Appoint(force="red", heaven="red-cmd", honor="red-cmd"))
    s, _ = ok(s, c.Appoint(force="blue", heaven="blue-cmd", honor="blue-cmd"))
    s, _ = ok(s, c.RollWay(force="red", way="heaven"))
    s, ev = ok(s, c.RollWay(force="red", way="honor"))
    assert len({r.force for r in _rolls(ev)}) == 2


def test_glory_is_rolled_by_each_commander_as_oratory_awareness() -> None:
    s = start(setup(prepared=True))
    s, _ = ok(s, c.Appoint(force="red", heaven="red-mage", honor="red-mage"))
    s, _ = ok(s, c.Appoint(force="blue", heaven="blue-mage", honor="blue-mage"))
    s, _ = ok(s, c.RollWay(force="red", way="heaven"))
    s, _ = ok(s, c.RollWay(force="red", way="honor"))
    s, ev = ok(s, c.RollWay(force="red", way="glory"))
    assert {r.who for r in _rolls(ev)} == {"red-cmd", "blue-cmd"}


def test_strategy_morale_modifiers() -> None:
    su = setup(force("red", morale=[{"result": "lost", "veterans": 60}]), force("blue"))
    s = start(su)
    e = strategy_entry(s, s.forces["red"])
    assert (e.pool.rolled, e.pool.kept) == (5, 3)  # Battle 3 + Water 3 = 6k3, -1k0
    s.forces["red"].last_wave = "lost"
    assert strategy_entry(s, s.forces["red"]).pool.rolled == 4
    s.forces["red"].last_wave = "won"
    assert strategy_entry(s, s.forces["red"]).pool.rolled == 6


def test_a_minority_of_veterans_of_a_lost_battle_gives_no_penalty() -> None:
    s = start(setup(force("red", morale=[{"result": "lost", "veterans": 40}]), force("blue")))
    assert not s.forces["red"].lost_last_battle


def test_size_ratio_gives_plus_x_k_x_rounded_down_from_two_to_one() -> None:
    big = force("red", brutes=[{"armour": "none", "count": 298}])       # 300 against 100: X = 3
    s = start(setup(big, force("blue", brutes=[{"armour": "none", "count": 98}])))
    assert (strategy_entry(s, s.forces["red"]).pool.rolled, strategy_entry(s, s.forces["red"]).pool.kept) == (9, 6)
    assert strategy_entry(s, s.forces["blue"]).pool.rolled == 6
    nearly = force("red", brutes=[{"armour": "none", "count": 197}])    # 199 against 100: 1.99, none
    s = start(setup(nearly, force("blue", brutes=[{"armour": "none", "count": 98}])))
    assert strategy_entry(s, s.forces["red"]).pool.rolled == 6


def test_a_way_winner_gains_one_plus_a_raise_per_five_capped_by_void() -> None:
    s = start()
    # red 6k3: 10+9 exploded chain? keep it simple: red 9,9,9 (27) vs blue 1,1,1 (3): margin 24 -> 4, cap Void 3
    s = force_dice(s, 9, 9, 9, 1, 1, 1, 1, 1, 1, 1, 1, 1)
    s, ev = ok(s, c.RollWay(force="red", way="strategy"))
    assert s.forces["red"].advantage["strategy"] == 1 + 3


def test_ties_are_rolled_again() -> None:
    s = start()
    s = force_dice(s, 5, 5, 5, 1, 1, 1, 5, 5, 5, 1, 1, 1, 9, 9, 9, 1, 1, 1, 1, 1, 1, 1, 1, 1)
    s, ev = ok(s, c.RollWay(force="red", way="strategy"))
    assert any("tie" in t for t in texts(ev)) and len(_rolls(ev)) == 4


def test_the_strategy_winner_gains_the_terrain_ring() -> None:
    for terrain, ring in (("constricted", "water"), ("precipitous", "earth"), ("stalemated", "fire"),
                          ("suspended", "air"), ("accessible", None)):
        red = force("red", people=[person("red-cmd", rings={"earth": 4, "water": 3, "fire": 5, "air": 2, "void": 3}),
                                   person("red-2")])
        s = start(setup(red, force("blue"), terrain=terrain))
        s = force_dice(s, 9, 9, 9, 2, 2, 2, 1, 1, 1, 1, 1, 1)
        s, _ = ok(s, c.RollWay(force="red", way="strategy"))
        want = {"water": 3, "earth": 4, "fire": 5, "air": 2, None: 0}[ring]
        assert s.forces["red"].advantage["terrain"] == want, terrain


def test_heaven_and_honor_last_the_battle_and_strategy_is_rolled_again_each_wave() -> None:
    s = start()
    s.forces["red"].advantage["heaven"] = 2
    s.forces["blue"].advantage["honor"] = 1
    s.forces["red"].advantage["glory"] = 1
    s = force_dice(s, 9, 9, 9, 2, 2, 2, 1, 1, 1, 1, 1, 1)
    s, _ = ok(s, c.RollWay(force="red", way="strategy"))
    s, _ = ok(s, c.RollActionDice(force="red"))
    while s.stage == "phases":
        s, _ = ok(s, c.Hold(force=SYSTEM.to_move(s)[0]))
    s, _ = ok(s, c.ResolveWave(force="red"))
    assert s.wave == 2 and s.stage == "strategy"
    red, blue = s.forces["red"], s.forces["blue"]
    assert (red.advantage["heaven"], blue.advantage["honor"], red.advantage["glory"]) == (2, 1, 1)
    assert red.advantage["strategy"] == 0 and red.advantage["terrain"] == 0
