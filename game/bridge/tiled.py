"""A campaign battle's generated ground as a Tiled map, and the tactical battle that is fought on
it (docs/scales.md "The ground").

`write_ground` writes game/bridge/ground.py's Ground as a .tmx painted with the project's hex
tileset (assets/tiles/hex-flat.tsx or hex-pointy.tsx, by the campaign map's orientation): a
"ground" layer of terrain tiles (each carries its `terrain` property) and a "roads" layer of road
overlays (`road: true`), like the shipped maps (game/tools/make_maps.py). A GM may open and edit
it in Tiled before the battle is played. `generate_tactical` writes the map and the scenario that
refers to it, side by side.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr

import yaml

from game import paths
from game.bridge.ground import Ground, compass, direction_vectors, make_ground, surroundings
from game.bridge.models import ScalesRules
from game.bridge.sides import BridgeError, open_battle, place_name
from game.bridge.tactical import Cells, TacticalPlan, tactical_plan
from game.core.errors import UserError
from game.core.hexlayout import HexLayout
from game.io.outpaths import write_output
from game.io.tmx import load_tileset
from game.systems.tactical.io.data import load_rules
from game.systems.tactical.io.scenario import load_scenario


@dataclass(frozen=True)
class TileIds:
    """Local tile ids of a hex tileset: the first tile carrying each terrain, and the road
    overlays (ROAD_BASE + mask, bit i of mask: the road leaves by DIRECTIONS[i])."""

    source: Path
    width: int
    height: int
    terrain: dict[str, int]
    road_base: int


def tileset_for(axis: str) -> Path:
    return paths.asset("tiles", "hex-flat.tsx" if axis == "x" else "hex-pointy.tsx")


def tile_ids(path: Path) -> TileIds:
    ts = load_tileset(path)
    terrain: dict[str, int] = {}
    overlays: list[int] = []
    for local in sorted(ts.properties):
        props = ts.properties[local]
        t = props.get("terrain")
        if isinstance(t, str) and t and t not in terrain:
            terrain[t] = local
        if props.get("road") is True and not t:
            overlays.append(local)
    if len(overlays) < 64 or overlays[:64] != list(range(overlays[0], overlays[0] + 64)):
        raise BridgeError(f"the tileset {path} has no run of 64 road overlay tiles (road: true, no terrain)")
    return TileIds(path, ts.tilewidth, ts.tileheight, terrain, overlays[0])


def check_ground_terrain(rules: ScalesRules, known: set[str], tiles: TileIds) -> list[str]:
    """Tactical terrain names the ground rules use that the tactical rules or the tileset lack."""
    out = []
    g = rules.tactical.ground
    for name, t in sorted(g.terrain.items()):
        for tt in [*t.mix, *([t.core] if t.core else [])]:
            if tt not in known or tt not in tiles.terrain:
                out.append(f"tactical.ground.terrain.{name}: {tt!r}")
    for tt in (g.ford, "water", "road"):
        if tt not in known or tt not in tiles.terrain:
            out.append(f"tactical.ground.ford / river / road: {tt!r}")
    return out


def tmx_text(ground: Ground, tiles: TileIds, tileset_ref: str, properties: dict[str, str]) -> str:
    """The map as Tiled writes one (CSV layers), byte for byte the same for the same ground."""
    axis = ground.stagger.axis
    # the project tilesets' regular-looking hexes (game/tools/make_tiles.py geometry): 74 x 64, side 36
    side = round(max(tiles.width, tiles.height) * 36 / 74)
    HexLayout(tiles.width, tiles.height, side, ground.stagger, ground.width, ground.height)  # checks the geometry

    def csv(rows: list[list[int]]) -> str:
        return "\n" + ",\n".join(",".join(str(g) for g in r) for r in rows) + "\n"

    ground_rows = [[tiles.terrain[ground.terrain[(c, r)]] + 1 for c in range(ground.width)]
                   for r in range(ground.height)]
    road_rows = []
    for r in range(ground.height):
        row = []
        for c in range(ground.width):
            links = ground.roads.get((c, r))
            row.append(0 if links is None else tiles.road_base + sum(1 << d for d in links) + 1)
        road_rows.append(row)
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<map version="1.10" tiledversion="1.10.2" orientation="hexagonal" renderorder="right-down" '
        f'width="{ground.width}" height="{ground.height}" tilewidth="{tiles.width}" tileheight="{tiles.height}" '
        f'infinite="0" hexsidelength="{side}" staggeraxis="{axis}" staggerindex="{ground.stagger.index}" '
        f'nextlayerid="3" nextobjectid="1">',
        " <properties>",
        *[f"  <property name={quoteattr(k)} value={quoteattr(v)}/>" for k, v in properties.items()],
        " </properties>",
        f" <tileset firstgid=\"1\" source={quoteattr(tileset_ref)}/>",
        f' <layer id="1" name="ground" width="{ground.width}" height="{ground.height}">',
        f'  <data encoding="csv">{csv(ground_rows)}</data>',
        " </layer>",
        f' <layer id="2" name="roads" width="{ground.width}" height="{ground.height}">',
        f'  <data encoding="csv">{csv(road_rows)}</data>',
        " </layer>",
        "</map>",
    ]
    return "\n".join(lines) + "\n"


def cells_of_ground(ground: Ground, impassable: set[str]) -> Cells:
    ok = frozenset(c for c, t in ground.terrain.items() if t not in impassable)
    return Cells(ground.width, ground.height, ok, ground.stagger)


@dataclass(frozen=True)
class TacticalBattle:
    scenario: Path
    map: Path
    plan: TacticalPlan
    ground: Ground
    replaced: tuple[Path, ...] = ()  # files that were there before: each kept as <name>.bak


def battle_ground(state: Any, battle_id: str, rules: ScalesRules, seed: int) -> tuple[Ground, dict[str, str]]:
    """The generated ground of an open campaign battle, and the map's properties (what it was
    generated from, for the GM who opens it in Tiled)."""
    battle = open_battle(state, battle_id)
    sur = surroundings(state, battle)
    where = place_name(state, battle)
    ground = make_ground(rules.tactical.ground, sur, seed, battle_id, title=f"Battle {battle_id} at {where}")
    vecs = direction_vectors(sur.axis)
    around = ", ".join(f"{compass(vecs[d])} {t or 'off the map'}" for d, t in enumerate(sur.around))
    props = {
        "title": ground.title,
        "generated_from": (f"campaign hex {battle.hex[0]},{battle.hex[1]} ({sur.terrain}); neighbours: {around}; "
                           f"seed {seed}, battle {battle_id} (python -m game scales tactical; docs/scales.md)"),
    }
    return ground, props


SCENARIO_HEADER = ("# A campaign battle as a tactical scenario (python -m game scales tactical); docs/scales.md\n"
                   "# Its map, beside it, was generated from the campaign hex: edit it in Tiled before play.\n")


def write_generated(path: Path, text: str, what: str, inputs: tuple[str | Path, ...]) -> bool:
    """A generated battle file: never through a symbolic link, never onto an input (outpaths).
    [decision] The file it replaces, which a GM may have edited in Tiled or by hand, is kept as
    `<name>.bak` (one copy); a file that already holds exactly this text is not written again (so
    its .bak stays). True when the file was replaced (its old text is in the .bak)."""
    try:
        if path.is_file() and not path.is_symlink() and path.read_text(encoding="utf-8") == text:
            return False
    except (OSError, UnicodeDecodeError):
        pass
    existed = path.exists()
    written = write_output(path, text, what, inputs=inputs, backup=True)
    if written.failed:
        raise UserError(f"{written.failed}; it was kept in {written.path}")
    return existed


def fresh_seed() -> int:
    """[decision] The dice seed of a battle fought out: drawn from the operating system's secure
    random source (`secrets`) when its battle file is written, so nobody could know it before (not
    from the campaign's seed, whose dice are in the campaign's log). Kept in the battle file
    (`seed:`) and so in the battle's saves, which replay every die from it."""
    return secrets.randbelow(2**31 - 1) + 1


def generate_tactical(state: Any, battle_id: str, rules: ScalesRules, out_dir: str | Path, stem: str, *,
                      seed: int = 1, inputs: tuple[str | Path, ...] = (), dice_seed: int | None = None,
                      link: dict[str, Any] | None = None) -> TacticalBattle:
    """Write `<stem>.tmx` (the ground) and `<stem>.yaml` (the scenario on it) in out_dir and load
    the scenario back like a shipped one. BridgeError / GameFileError (one line) otherwise.
    `seed`: the ground's (the campaign's seed: the same battle gets the same ground);
    `dice_seed`: the battle's dice (None: a fresh one, `fresh_seed`); `link`: the campaign battle
    it is for (`campaign:` in the scenario; game.bridge.files.campaign_link)."""
    trules = load_rules()
    impassable = {k for k, t in trules.terrain.items() if t.impassable}
    ground, props = battle_ground(state, battle_id, rules, seed)
    tiles = tile_ids(tileset_for(ground.stagger.axis))
    bad = check_ground_terrain(rules, set(trules.terrain), tiles)
    if bad:
        raise BridgeError(f"scales rules: tactical terrain unknown to the tactical rules or the tileset: {'; '.join(bad)}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    map_path = out / f"{stem}.tmx"
    try:
        ref = Path(os.path.relpath(tiles.source.resolve(), out.resolve())).as_posix()
    except ValueError:  # another drive: Tiled reads an absolute path too
        ref = tiles.source.resolve().as_posix()
    replaced = []
    if write_generated(map_path, tmx_text(ground, tiles, ref, props), "tactical map", inputs):
        replaced.append(map_path)
    plan = tactical_plan(state, battle_id, rules, cells_of_ground(ground, impassable),
                         seed=fresh_seed() if dice_seed is None else dice_seed, map_name=map_path.name)
    data = dict(plan.scenario)
    if link is not None:
        data["campaign"] = dict(link)
    path = out / f"{stem}.yaml"
    if write_generated(path, SCENARIO_HEADER + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110),
                       "tactical scenario", inputs):
        replaced.append(path)

    load_scenario(path)
    return TacticalBattle(path, map_path, plan, ground, tuple(replaced))
