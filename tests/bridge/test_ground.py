"""Battles fought out on their own ground (issue 29 item 7; game/bridge/ground.py, tiled.py): the
tactical map is generated from the campaign hex and its six neighbours, the same for the same
seed and battle id, written as a Tiled map that validates and that a GM may edit before play; each
army deploys on the edge it came from."""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any

import pytest
import yaml

from game.__main__ import main
from game.bridge.ground import (
    Ground,
    Surroundings,
    army_edges,
    centre_of,
    direction_vectors,
    make_ground,
)
from game.bridge.sides import BridgeError
from game.bridge.tiled import generate_tactical
from game.core.hexgrid import DIRECTIONS
from game.io.tmx import load_map
from game.systems.campaign.rules.state import ArmyState
from game.systems.tactical.io.data import load_rules
from game.systems.tactical.io.scenario import load_scenario

CAMPAIGN_TERRAINS = ("plains", "road", "town", "fortress", "forest", "hills", "river", "marsh", "mountains")


def _impassable() -> set[str]:
    return {k for k, t in load_rules().terrain.items() if t.impassable}


def _sur(centre: str, around: tuple[str | None, ...] = ("plains",) * 6) -> Surroundings:
    return Surroundings((5, 5), centre, around, "x", "")


def _geometry(g: Ground) -> tuple[dict[tuple[int, int], tuple[float, float]], tuple[float, float], tuple[float, float]]:
    pos = {c: centre_of(g.stagger, *c) for c in g.terrain}
    xs, ys = [p[0] for p in pos.values()], [p[1] for p in pos.values()]
    mid = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    half = ((max(xs) - min(xs)) / 2, (max(ys) - min(ys)) / 2)
    return pos, mid, half


def _middle(g: Ground, within: float = 0.55) -> set[tuple[int, int]]:
    pos, mid, half = _geometry(g)
    return {c for c, p in pos.items() if max(abs(p[0] - mid[0]) / half[0], abs(p[1] - mid[1]) / half[1]) < within}


def _distance(share: dict[str, float], mix: dict[str, int]) -> float:
    """Total variation distance between an observed share and a mix's weights."""
    total = sum(mix.values())
    keys = set(share) | set(mix)
    return 0.5 * sum(abs(share.get(k, 0.0) - mix.get(k, 0) / total) for k in keys)


# --------------------------------------------------------------------------- the terrain mix

def _pooled(grounds: list[Ground], pick: Any) -> dict[str, float]:
    counts: dict[str, int] = {}
    for g in grounds:
        for c, t in g.terrain.items():
            if pick(g, c):
                counts[t] = counts.get(t, 0) + 1
    total = sum(counts.values())
    return {k: v / total for k, v in counts.items()}


@pytest.mark.parametrize("terrain", CAMPAIGN_TERRAINS)
def test_the_middle_of_the_map_follows_the_battle_hexs_own_terrain_mix(scales_rules: Any, terrain: str) -> None:
    rules = scales_rules.tactical.ground
    spec = rules.terrain[terrain]
    grounds = [make_ground(rules, _sur(terrain, ("mountains",) * 6), seed, "B1") for seed in range(1, 7)]
    for g in grounds:
        middle = _middle(g)
        # the middle of the map is the hex's own ground (the neighbours' reach in only at its rim) ...
        assert sum(g.source.get(c, -1) == -1 for c in middle) >= 0.9 * len(middle), terrain
        assert set(g.share({c for c in middle if g.source.get(c) == -1})) <= set(spec.mix)
    # ... in the hex's proportions: pooled over six battles, within a few points of the mix (the
    # cells a road, the river or the settlement painted over are not counted: `source` leaves them out)
    share = _pooled(grounds, lambda g, c: g.source.get(c) == -1)
    assert _distance(share, dict(spec.mix)) < 0.12, (terrain, share)


@pytest.mark.parametrize("neighbour", (*CAMPAIGN_TERRAINS, "sea"))
def test_each_edge_of_the_map_takes_the_terrain_of_the_neighbour_on_that_side(scales_rules: Any,
                                                                              neighbour: str) -> None:
    rules = scales_rules.tactical.ground
    spec = rules.terrain[neighbour]
    grounds = []
    for d in range(6):
        around = tuple(neighbour if k == d else "mountains" for k in range(6))
        g = make_ground(rules, _sur("mountains", around), 4, f"B{d}")
        grounds.append((d, g))
        pos, mid, half = _geometry(g)
        # the map's border towards the neighbour is (mostly) the neighbour's ground ...
        rim = [c for c in g.terrain if g.sectors[c] == d and c in g.source
               and max(abs(pos[c][0] - mid[0]) / half[0], abs(pos[c][1] - mid[1]) / half[1]) > 0.92]
        assert sum(g.source[c] == d for c in rim) >= 0.75 * len(rim), (neighbour, d)
        mine = {c for c in g.terrain if g.source.get(c) == d}
        assert set(g.share(mine)) <= set(spec.mix), (neighbour, d)
        # ... and it lies towards the neighbour
        v = direction_vectors("x")[d]
        mean = sum((pos[c][0] - mid[0]) * v[0] + (pos[c][1] - mid[1]) * v[1] for c in mine) / len(mine)
        assert mean > 0.5 * max(half)
    towards = {id(g): d for d, g in grounds}
    share = _pooled([g for _, g in grounds], lambda g, c: g.source.get(c) == towards[id(g)])
    assert _distance(share, dict(spec.mix)) < 0.15, (neighbour, share)


def test_an_off_map_neighbour_leaves_that_edge_to_the_hexs_own_ground(scales_rules: Any) -> None:
    rules = scales_rules.tactical.ground
    g = make_ground(rules, _sur("forest", (None, "marsh", "marsh", "marsh", "marsh", "marsh")), 1, "B1")
    assert not any(g.sectors[c] == 0 for c in g.band)
    assert set(g.share(g.band)) <= set(rules.terrain["marsh"].mix)


def test_a_road_hex_runs_a_road_to_the_map_edge_towards_each_neighbour_with_a_road(scales_rules: Any) -> None:
    rules = scales_rules.tactical.ground
    g = make_ground(rules, _sur("road", ("plains", "town", "plains", "plains", "road", "plains")), 1, "B1")
    pos, mid, half = _geometry(g)
    for d in (1, 4):
        v = direction_vectors("x")[d]
        outer = [c for c in g.roads if g.sectors[c] == d
                 and max(abs(pos[c][0] - mid[0]) / half[0], abs(pos[c][1] - mid[1]) / half[1]) > 0.95]
        assert outer, d
        # and the road leaves the map there (its overlay points off the map)
        c = outer[0]
        assert any(g.stagger.to_offset(g.stagger.to_hex(*c) + DIRECTIONS[k]) not in g.terrain for k in g.roads[c]), v
    assert all(g.terrain[c] == "road" for c in g.roads)
    assert not any(g.sectors[c] in (0, 2, 3, 5) and c in g.band for c in g.roads)  # no road towards plains
    # a hex without a road has none
    assert make_ground(rules, _sur("forest", ("road",) * 6), 1, "B1").roads == {}


def test_a_river_hex_is_crossed_edge_to_edge_by_a_river_with_fords_and_stays_one_battlefield(
        scales_rules: Any) -> None:
    rules = scales_rules.tactical.ground
    g = make_ground(rules, _sur("river", ("plains", "plains", "river", "plains", "plains", "river")), 2, "B1")
    water = {c for c, t in g.terrain.items() if t == "water"}
    pos, mid, half = _geometry(g)
    reaches = {g.sectors[c] for c in water
               if max(abs(pos[c][0] - mid[0]) / half[0], abs(pos[c][1] - mid[1]) / half[1]) > 0.9}
    assert {2, 5} <= reaches  # towards both river neighbours: north and south
    assert water and any(g.terrain[c] == rules.ford for c in _river_line(g))  # fords the infantry can wade
    assert _connected(g, g.terrain.keys() - {c for c, t in g.terrain.items() if t in _impassable()})


@pytest.mark.parametrize("terrain, core", [("town", "building"), ("fortress", "fortification")])
def test_a_town_or_fortress_stands_in_the_middle_of_the_map(scales_rules: Any, terrain: str, core: str) -> None:
    rules = scales_rules.tactical.ground
    g = make_ground(rules, _sur(terrain), 1, "B1")
    assert g.share(_middle(g, 0.2)).get(core, 0) >= 0.5
    assert g.share(_middle(g, 0.2)).get(core, 0) > 2 * g.share(g.band).get(core, 0)


def _river_line(g: Ground) -> set[tuple[int, int]]:
    """The water cells and the cells beside them."""
    water = {c for c, t in g.terrain.items() if t == "water"}
    out = set(water)
    for c in water:
        for d in DIRECTIONS:
            out.add(g.stagger.to_offset(g.stagger.to_hex(*c) + d))
    return {c for c in out if c in g.terrain}


def _connected(g: Ground, cells: Any) -> bool:
    cells = set(cells)
    start = next(iter(sorted(cells)))
    seen = {start}
    todo = deque([start])
    while todo:
        c = todo.popleft()
        for d in DIRECTIONS:
            n = g.stagger.to_offset(g.stagger.to_hex(*c) + d)
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) >= 0.9 * len(cells)


def test_a_campaign_terrain_the_rules_do_not_know_is_refused_in_one_line(scales_rules: Any) -> None:
    with pytest.raises(BridgeError, match="tactical.ground.terrain has no entry for the campaign terrain 'lava'"):
        make_ground(scales_rules.tactical.ground, _sur("lava"), 1, "B1")


# --------------------------------------------------------------------------- the same seed, the same map

def test_the_same_seed_and_battle_give_the_same_map_byte_for_byte_and_another_gives_another(
        campaign: Any, scales_rules: Any, tmp_path: Path) -> None:
    def tmx(seed: int, battle: str, folder: str) -> bytes:
        made = generate_tactical(campaign, battle, scales_rules, tmp_path / folder, "b", seed=seed)
        return made.map.read_bytes()

    first = tmx(7, "B1", "a")
    assert tmx(7, "B1", "b") == first
    assert tmx(8, "B1", "c") != first
    assert tmx(7, "B2", "d") != first
    # the scenario too, but for its dice: each battle file gets a fresh seed (docs/scales.md "The dice")
    a, b = (yaml.safe_load((tmp_path / f / "b.yaml").read_text()) for f in ("a", "b"))
    assert a["seed"] != b["seed"]
    assert {**a, "seed": 0} == {**b, "seed": 0}


# --------------------------------------------------------------------------- the Tiled map

def test_the_generated_map_validates_and_loads_with_the_tactical_terrain_of_every_cell(
        campaign: Any, scales_rules: Any, tmp_path: Path, capsys: Any) -> None:
    made = generate_tactical(campaign, "B1", scales_rules, tmp_path, "b1", seed=7)
    assert main(["validate", str(made.map), str(made.scenario)]) == 0, capsys.readouterr()
    md = load_map(made.map, set(load_rules().terrain))
    for (c, r), t in made.ground.terrain.items():
        assert md.board.terrain_at(md.stagger.to_hex(c, r)) == t
    assert {md.stagger.to_hex(*c) for c in made.ground.roads} == set(md.board.roads)  # the road overlays
    text = made.map.read_text()
    assert 'source="../' in text and "hex-flat.tsx" in text  # the project's tileset, found from the map
    assert "Lowmarch" in text  # the map's title names the place


def test_a_gm_may_edit_the_generated_map_in_tiled_before_play_and_the_battle_uses_the_edit(
        campaign: Any, scales_rules: Any, tmp_path: Path) -> None:
    made = generate_tactical(campaign, "B1", scales_rules, tmp_path, "b1", seed=7)
    tiles_before = load_scenario(made.scenario)
    ids = {"clear": 1, "hill": 9}  # gids (local id + 1) of hex-flat.tsx
    text = made.map.read_text()
    head, rest = text.split('<data encoding="csv">\n', 1)
    first_row, tail = rest.split("\n", 1)
    cells = first_row.split(",")
    cells[0] = str(ids["hill"])  # the GM paints a hill in the top-left corner
    made.map.write_text(head + '<data encoding="csv">\n' + ",".join(cells) + "\n" + tail)
    after = load_scenario(made.scenario)
    h = after.map.stagger.to_hex(0, 0)
    assert after.map.board.terrain_at(h) == "hill"
    assert tiles_before.map.board.terrain_at(h) == made.ground.terrain[(0, 0)]


# --------------------------------------------------------------------------- deployment

def _units_towards(plan: Any, ground: Ground, army: str, campaign: Any, direction: int) -> float:
    """How far out towards `direction` an army's units stand: 1 on the map's border."""
    pos, mid, _ = _geometry(ground)
    v = direction_vectors("x")[direction]
    far = max((p[0] - mid[0]) * v[0] + (p[1] - mid[1]) * v[1] for p in pos.values())
    mine = [u for u in plan.scenario["units"] if campaign.units[plan.origin[u["id"]]].army == army]
    along = [((pos[tuple(u["at"])][0] - mid[0]) * v[0] + (pos[tuple(u["at"])][1] - mid[1]) * v[1]) / far
             for u in mine]
    return sum(along) / len(along)


def test_each_army_deploys_on_the_edge_of_the_hex_it_came_from(campaign: Any, scales_rules: Any,
                                                                tmp_path: Path) -> None:
    made = generate_tactical(campaign, "B2", scales_rules, tmp_path, "b2", seed=7)
    edges = {e.army: e for e in army_edges(campaign, "B2")}
    # Stonegate (28,11): the Front's previous hex 27,11 is its south-west neighbour, the Host came
    # down from 28,10, its north neighbour
    assert (edges["front"].direction, edges["host"].direction) == (4, 2)
    assert made.plan.edges == {"front": ("south-west", "came from 27,11"), "host": ("north", "came from 28,10")}
    for army, d in (("front", 4), ("host", 2)):
        assert _units_towards(made.plan, made.ground, army, campaign, d) > 0.6
    impassable = _impassable()
    assert all(made.ground.terrain[tuple(u["at"])] not in impassable for u in made.plan.scenario["units"])
    assert "Stonegate Front deploys on the south-west edge" in made.plan.scenario["description"]


def _with_army(state: Any, army: str, **update: Any) -> Any:
    armies = dict(state.armies)
    armies[army] = armies[army].model_copy(update=update)
    return state.model_copy(update={"armies": armies})


def test_an_army_without_a_route_faces_its_sides_other_armies_or_else_stands_opposite_the_enemy(
        campaign: Any) -> None:
    no_route = _with_army(campaign, "rifles", route=None)
    e = {x.army: x for x in army_edges(no_route, "B1")}
    assert e["corps"].direction == 1  # Jibril still came from the north-east
    assert e["rifles"].direction == 4 and e["rifles"].why == "opposite the enemy"  # the south-west
    # a Zone army elsewhere on the island, due south of Lowmarch: the rifles face it
    armies = dict(no_route.armies)
    armies["reserve"] = ArmyState(id="reserve", name="Zone reserve", owner="zones", hex=(21, 31),
                                  units=("rifles.1",))
    with_home = no_route.model_copy(update={"armies": armies})
    e = {x.army: x for x in army_edges(with_home, "B1")}
    assert e["rifles"].direction == 5 and e["rifles"].why == "faces its side's other armies"


def test_when_both_sides_came_from_the_same_side_the_defender_gives_way_to_the_farthest_free_edge(
        campaign: Any) -> None:
    same = _with_army(campaign, "rifles", route=(22, 27))
    e = {x.army: x for x in army_edges(same, "B1")}
    assert e["corps"].direction == 1
    assert e["rifles"].direction == 4 and "gave way" in e["rifles"].why


def test_the_command_line_writes_the_map_beside_the_scenario_and_says_where_each_army_deploys(
        tmp_path: Path, capsys: Any) -> None:
    from game.core.record import Record
    from game.replay import save_game
    from game.systems.campaign.io.files import load_campaign
    from game.systems.campaign.rules import SYSTEM

    from .conftest import TEACHING, campaign_record

    rec: Record = campaign_record()
    save = save_game(tmp_path / "c.yaml", SYSTEM, rec.state, rec.steps, scenario_path=TEACHING,
                     seed=load_campaign(TEACHING).seed)
    assert main(["scales", "tactical", str(save), "--battle", "B1", "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert (tmp_path / "out" / "battle-B1-tactical.tmx").is_file()
    assert "battle-B1-tactical.tmx (generated from the campaign hex" in out
    assert "Lowmarch Rifle Corps deploys on the north-west edge (came from 20,27)" in out
    assert "Jibril Second Corps deploys on the north-east edge (came from 22,27)" in out


def test_a_ground_mix_naming_a_terrain_the_tactical_rules_lack_is_refused_in_one_line(
        campaign: Any, scales_rules: Any, tmp_path: Path) -> None:
    ground = scales_rules.tactical.ground
    bad_town = ground.terrain["town"].model_copy(update={"mix": {"lava": 5, "clear": 5}})
    bad = scales_rules.model_copy(update={"tactical": scales_rules.tactical.model_copy(update={
        "ground": ground.model_copy(update={"terrain": {**ground.terrain, "town": bad_town}})})})
    with pytest.raises(BridgeError, match=r"tactical.ground.terrain.town: 'lava'"):
        generate_tactical(campaign, "B1", bad, tmp_path, "b1")
    assert not (tmp_path / "b1.tmx").exists()  # nothing written


def test_the_map_says_what_it_was_generated_from_for_the_gm_who_opens_it(campaign: Any, scales_rules: Any,
                                                                          tmp_path: Path) -> None:
    made = generate_tactical(campaign, "B1", scales_rules, tmp_path, "b1", seed=7)
    props = load_map(made.map, set(load_rules().terrain)).properties
    assert props["title"] == "Battle B1 at Lowmarch (21,27)"
    assert props["generated_from"].startswith("campaign hex 21,27 (town); neighbours: south-east plains, "
                                              "north-east road, north road, north-west road, south-west marsh, "
                                              "south marsh; seed 7, battle B1")
