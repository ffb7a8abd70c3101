"""The ground a campaign battle is fought on at the tactical scale (docs/scales.md "The ground").

Pure data in, pure data out: `surroundings` reads what the campaign map records for the battle
hex and its six neighbours (terrain, and the town or fortress name); `make_ground` paints a
tactical map from it with a `random.Random` seeded by the campaign seed and the battle id, so
the same campaign battle always gets the same ground; `army_edges` says from which of the six
sides each army in the battle came. Writing the map as a Tiled file is game/bridge/tiled.py.

Directions are the campaign's: index i is `game.core.hexgrid.DIRECTIONS[i]` on the campaign map,
and `direction_vectors` gives each one's direction on screen (x right, y down) for the map's
orientation. The tactical map has the campaign map's orientation, so "the north-west edge" of
the battle is where the north-west neighbour lies on the island.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from game.bridge.models import GroundRules
from game.bridge.sides import BridgeError, defender_of, open_battle
from game.core.hexgrid import DIRECTIONS, Hex, Stagger, StaggerAxis, distance, line
from game.systems.campaign.rules.state import BattleState, CampaignState

Cell = tuple[int, int]  # Tiled's [column, row]
Vector = tuple[float, float]
SQRT3 = math.sqrt(3.0)


# --------------------------------------------------------------------------- geometry

def centre_of(stagger: Stagger, col: int, row: int) -> Vector:
    """A hex's centre on screen for hexes of size 1 (x right, y down), in either orientation."""
    h = stagger.to_hex(col, row)
    return hex_centre(stagger.axis, h)


def hex_centre(axis: str, h: Hex) -> Vector:
    if axis == "x":  # flat-top
        return 1.5 * h.q, SQRT3 * (h.r + h.q / 2)
    return SQRT3 * (h.q + h.r / 2), 1.5 * h.r  # pointy-top


def direction_vectors(axis: str) -> tuple[Vector, ...]:
    """The unit vector on screen of each of the six DIRECTIONS, for a map of this stagger axis."""
    out = []
    for d in DIRECTIONS:
        x, y = hex_centre(axis, d)
        n = math.hypot(x, y)
        out.append((x / n, y / n))
    return tuple(out)


def compass(v: Vector) -> str:
    """The edge's name as players read it (north is up): "north-west", "east", ..."""
    names = ("east", "south-east", "south", "south-west", "west", "north-west", "north", "north-east")
    a = math.degrees(math.atan2(v[1], v[0])) % 360
    return names[int((a + 22.5) // 45) % 8]


def nearest_direction(axis: str, v: Vector) -> int:
    vecs = direction_vectors(axis)
    return max(range(6), key=lambda i: (vecs[i][0] * v[0] + vecs[i][1] * v[1], -i))


# --------------------------------------------------------------------------- the campaign hex

@dataclass(frozen=True)
class Surroundings:
    """What the campaign map records for a battle hex and its six neighbours."""

    hex: Cell
    terrain: str
    around: tuple[str | None, ...]  # the neighbour's terrain in each direction; None: off the map
    axis: StaggerAxis = "x"  # the campaign map's stagger axis: the tactical map takes its orientation
    name: str = ""  # the town's or fortress's name, if the hex has one


def surroundings(state: CampaignState, battle: BattleState) -> Surroundings:
    m = state.cs.map
    st = Stagger(m.stagger_axis, m.stagger_index)
    centre = st.to_hex(*battle.hex)
    around: list[str | None] = []
    for d in DIRECTIONS:
        c = st.to_offset(centre + d)
        inside = 0 <= c[0] < m.width and 0 <= c[1] < m.height
        around.append(m.terrain.get(c) if inside else None)
    return Surroundings(battle.hex, m.terrain.get(battle.hex, ""), tuple(around), m.stagger_axis,
                        m.names.get(battle.hex, ""))


# --------------------------------------------------------------------------- the ground

@dataclass(frozen=True)
class Ground:
    """A generated tactical map: the tactical terrain of every cell and the road links."""

    width: int
    height: int
    stagger: Stagger
    terrain: Mapping[Cell, str]
    roads: Mapping[Cell, frozenset[int]] = field(default_factory=dict)  # cell -> tactical DIRECTIONS a road leaves by
    title: str = ""
    sectors: Mapping[Cell, int] = field(default_factory=dict)  # cell -> campaign direction whose edge it lies towards
    source: Mapping[Cell, int] = field(default_factory=dict)  # cell -> the neighbour whose mix painted it; -1: the hex's

    @property
    def band(self) -> frozenset[Cell]:
        """The cells painted from a neighbour's terrain mix."""
        return frozenset(c for c, d in self.source.items() if d >= 0)

    def share(self, cells: set[Cell] | frozenset[Cell] | None = None) -> dict[str, float]:
        """Each tactical terrain's share of the given cells (all by default)."""
        pick = list(self.terrain) if cells is None else [c for c in self.terrain if c in cells]
        out: dict[str, float] = {}
        for c in pick:
            out[self.terrain[c]] = out.get(self.terrain[c], 0) + 1
        return {k: v / max(1, len(pick)) for k, v in out.items()}


def _pick(rng: random.Random, mix: Mapping[str, int]) -> str:
    names = sorted(mix)
    return rng.choices(names, weights=[mix[n] for n in names])[0]


def make_ground(rules: GroundRules, sur: Surroundings, seed: int, battle_id: str, title: str = "") -> Ground:
    """[decision] Patches of terrain, each drawn from one campaign terrain's mix
    (`tactical.ground.terrain`): the battle hex's mix in the middle, each neighbour's on the
    outer `edge` share of the map towards it (sea and off-map neighbours: the sea's mix and the
    hex's own); then the hex's features: a river through it, roads from it to each neighbour
    that carries a road, the town's or fortress's core in the middle."""
    for t in (sur.terrain, *[a for a in sur.around if a is not None]):
        if t not in rules.terrain:
            raise BridgeError(f"scales rules: tactical.ground.terrain has no entry for the campaign terrain {t!r} "
                              f"(it knows {', '.join(sorted(rules.terrain))})")
    rng = random.Random(f"ground:{seed}:{battle_id}")  # str seeds are hashed stably (sha512)
    st = Stagger(sur.axis, "odd")
    w, h = rules.width, rules.height
    vecs = direction_vectors(sur.axis)
    cells = [(c, r) for r in range(h) for c in range(w)]
    pos = {c: centre_of(st, *c) for c in cells}
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    mid = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    half = ((max(xs) - min(xs)) / 2 or 1.0, (max(ys) - min(ys)) / 2 or 1.0)

    def rel(c: Cell) -> Vector:
        return pos[c][0] - mid[0], pos[c][1] - mid[1]

    def sector(c: Cell) -> int:
        x, y = rel(c)
        return max(range(6), key=lambda i: (vecs[i][0] * x / half[0] + vecs[i][1] * y / half[1], -i))

    def outward(c: Cell) -> float:  # 0 in the middle, 1 on the map's border
        x, y = rel(c)
        return max(abs(x) / half[0], abs(y) / half[1])

    sectors = {c: sector(c) for c in cells}
    # the patches: seeds spread over the map, each cell takes its nearest seed's terrain
    count = max(6, len(cells) // rules.patch)
    seeds: list[tuple[Vector, str, int]] = []
    for _ in range(count):
        c = cells[rng.randrange(len(cells))]
        x, y = pos[c][0] + rng.uniform(-0.5, 0.5), pos[c][1] + rng.uniform(-0.5, 0.5)
        neighbour = sur.around[sectors[c]]
        in_band = outward(c) + rng.uniform(-0.08, 0.08) >= 1 - rules.edge and neighbour is not None
        source = neighbour if in_band and neighbour is not None else sur.terrain
        seeds.append(((x, y), _pick(rng, rules.terrain[source].mix), sectors[c] if in_band else -1))
    terrain: dict[Cell, str] = {}
    painted: dict[Cell, int] = {}
    for c in cells:
        p = pos[c]
        _, t, src = min(seeds, key=lambda s: (s[0][0] - p[0]) ** 2 + (s[0][1] - p[1]) ** 2)
        terrain[c] = t
        painted[c] = src
    roads: dict[Cell, set[int]] = {}
    here = rules.terrain[sur.terrain]
    centre_cell = min(cells, key=lambda c: (rel(c)[0] ** 2 + rel(c)[1] ** 2, c))
    edge_cell = {d: _edge_cell(cells, pos, mid, vecs[d]) for d in range(6)}
    hexes = {c: st.to_hex(*c) for c in cells}
    on_map = {v: k for k, v in hexes.items()}

    def path(a: Cell, b: Cell) -> list[Cell]:
        return [on_map[x] for x in line(hexes[a], hexes[b]) if x in on_map]

    # the town's or fortress's core
    if here.core:
        ring = rules.core_radius
        for c in cells:
            dist = distance(hexes[c], hexes[centre_cell])
            if dist <= ring and rng.random() < (0.9 if dist < ring else 0.5):
                terrain[c] = here.core
                painted.pop(c, None)
    # the river: through the hex towards its river (else sea) neighbours, edge to edge
    if here.river:
        wet = [d for d in range(6) if sur.around[d] is not None and rules.terrain[sur.around[d] or ""].river]
        if not wet:
            wet = [d for d in range(6) if sur.around[d] == "sea"]
        if not wet:
            wet = [rng.randrange(6)]
        if len(wet) == 1:
            wet.append((wet[0] + 3) % 6)
        river: list[Cell] = []
        for d in wet:
            river += _wander(rng, path(centre_cell, edge_cell[d]), hexes, on_map)
        for i, c in enumerate(river):
            ford = rules.ford_every and i % rules.ford_every == rules.ford_every // 2
            terrain[c] = rules.ford if ford else "water"
            painted.pop(c, None)
    # the roads: from the middle to each neighbour that carries one, when this hex does
    if here.road:
        ways = [d for d in range(6) if sur.around[d] is not None and rules.terrain[sur.around[d] or ""].road]
        if not ways:
            first = rng.randrange(6)
            ways = [first, (first + 3) % 6]
        for d in ways:
            run = path(centre_cell, edge_cell[d])
            for a, b in zip(run, run[1:], strict=False):
                k = DIRECTIONS.index(hexes[b] - hexes[a])
                roads.setdefault(a, set()).add(k)
                roads.setdefault(b, set()).add((k + 3) % 6)
            last = run[-1]
            out = hexes[last] + DIRECTIONS[_outward_step(sur.axis, vecs[d])]
            if out not in on_map:  # the road leaves the map there
                roads.setdefault(last, set()).add(_outward_step(sur.axis, vecs[d]))
            for c in run:
                terrain[c] = "road"  # a bridge where it crosses the river
                painted.pop(c, None)
    return Ground(w, h, st, terrain, {c: frozenset(v) for c, v in roads.items()}, title, sectors, painted)


def _edge_cell(cells: list[Cell], pos: Mapping[Cell, Vector], mid: Vector, v: Vector) -> Cell:
    """The cell on the map's border straight out from the middle in direction v."""
    def key(c: Cell) -> tuple[float, float, Cell]:
        x, y = pos[c][0] - mid[0], pos[c][1] - mid[1]
        along = x * v[0] + y * v[1]
        across = abs(x * v[1] - y * v[0])
        return (-(along - 2.0 * across), across, c)
    return min(cells, key=key)


def _outward_step(axis: str, v: Vector) -> int:
    return nearest_direction(axis, v)


def _wander(rng: random.Random, run: list[Cell], hexes: Mapping[Cell, Hex], on_map: Mapping[Hex, Cell]) -> list[Cell]:
    """A river along a straight run, bent a little: now and then a step sideways, kept connected."""
    out: list[Cell] = []
    for c in run:
        out.append(c)
        if rng.random() < 0.3 and len(out) > 1:
            side = hexes[c] + DIRECTIONS[rng.randrange(6)]
            if side in on_map and on_map[side] not in out:
                out.append(on_map[side])
    return out


# --------------------------------------------------------------------------- where the armies came from

@dataclass(frozen=True)
class Edge:
    army: str
    player: str
    direction: int  # the campaign direction it came from (its edge of the tactical map)
    why: str  # "came from 22,27", "faces its own armies", "opposite the enemy"


def army_edges(state: CampaignState, battle_id: str) -> list[Edge]:
    """[decision] Each army deploys on the edge of the side it came from: the direction of its
    route hex (the hex it entered the battle hex from, or its previous hex in the campaign
    state). An army with no route faces its own side's other armies on the island; failing
    that, it stands opposite the enemy. When an army's edge is one an enemy army already holds,
    the side that did not march in (the defender) gives way to the free edge farthest from the
    enemy's."""
    battle = open_battle(state, battle_id)
    m = state.cs.map
    st = Stagger(m.stagger_axis, m.stagger_index)
    axis = m.stagger_axis
    at = hex_centre(axis, st.to_hex(*battle.hex))

    def towards(c: tuple[int, int]) -> Vector:
        p = hex_centre(axis, st.to_hex(*c))
        return p[0] - at[0], p[1] - at[1]

    defender = defender_of(state, battle)
    order = [p for p in battle.sides if p != defender] + [defender]  # the attacker's edges stand first
    found: dict[str, tuple[int | None, str]] = {}
    for p in order:
        for a in state.forces(battle, p):
            if a.route is not None and a.route != a.hex:
                found[a.id] = (nearest_direction(axis, towards(a.route)), f"came from {a.route[0]},{a.route[1]}")
                continue
            home = [x.hex for x in state.armies.values() if x.owner == p and x.battle != battle.id
                    and x.hex != battle.hex and any(not state.units[u].destroyed for u in x.units)]
            if home:
                v = [towards(c) for c in home]
                mean = (sum(x for x, _ in v) / len(v), sum(y for _, y in v) / len(v))
                if mean != (0.0, 0.0):
                    found[a.id] = (nearest_direction(axis, mean), "faces its side's other armies")
                    continue
            found[a.id] = (None, "opposite the enemy")
    out: list[Edge] = []
    held: dict[str, set[int]] = {p: set() for p in battle.sides}
    for p in order:
        enemy = next(x for x in battle.sides if x != p)
        for a in state.forces(battle, p):
            d, why = found[a.id]
            theirs = held[enemy] or {x for e in state.forces(battle, enemy)
                                     if (x := found[e.id][0]) is not None}
            if d is None:
                d = (min(theirs) + 3) % 6 if theirs else (0 if p == defender else 3)
            if d in held[enemy]:
                free = [k for k in range(6) if k not in held[enemy]]
                d = max(free, key=lambda k: (min(min((k - e) % 6, (e - k) % 6) for e in held[enemy]), -k))
                why += "; gave way to the enemy on that edge"
            held[p].add(d)
            out.append(Edge(a.id, p, d, why))
    return out


def edge_cells(width: int, height: int, stagger: Stagger, standable: frozenset[Cell], direction: Vector,
               count: int, taken: set[Cell]) -> list[Cell]:
    """[decision] `count` free standable cells at the map's edge towards `direction`: the
    outermost line first, nearest the middle of that edge first; further in when it is full."""
    cells = [c for c in standable if c not in taken]
    if len(cells) < count:
        raise BridgeError(f"the tactical map has {len(cells)} free cells for {count} units")
    pos = {c: centre_of(stagger, *c) for c in cells}
    allpos = [centre_of(stagger, c, r) for r in range(height) for c in range(width)]
    mid = ((min(p[0] for p in allpos) + max(p[0] for p in allpos)) / 2,
           (min(p[1] for p in allpos) + max(p[1] for p in allpos)) / 2)
    far = max((p[0] - mid[0]) * direction[0] + (p[1] - mid[1]) * direction[1] for p in allpos)

    def key(c: Cell) -> tuple[int, float, Cell]:
        x, y = pos[c][0] - mid[0], pos[c][1] - mid[1]
        along = x * direction[0] + y * direction[1]
        across = abs(x * direction[1] - y * direction[0])
        return (int((far - along) // 1.5), across, c)

    return sorted(cells, key=key)[:count]
