"""Scenario files (YAML): a map, the sides and their commanders, the units, objectives, rules overrides.

`load_scenario(path) -> LoadedScenario` reads and checks everything a battle needs and builds
the rules' BattleSetup and Board. Unknown keys are refused; every problem is a GameFileError
naming the file, the field path (e.g. ``units[3].at``), the line and what was expected.
The format is documented in docs/formats.md#scenarios.
"""

# No `from __future__ import annotations`: pydantic would evaluate every annotation of these models
# from its string at import, about a quarter of this module's import time (start-up, issue 14).
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from game.core.board import Board
from game.core.errors import GameFileError, brief
from game.core.hexgrid import Hex
from game.io import safe_read
from game.io.datafiles import (
    GameFileErrors,
    YamlDoc,
    format_loc,
    read_yaml,
    refuse_control_characters,
    validate_model,
)
from game.io.tmx import (
    MapData,
    Tileset,
    board_from_cells,
    load_map,
    terrain_of_cells,
    tile_property_terrain,
)
from game.systems.tactical.io.data import DEFAULT_CATALOGUE, DEFAULT_RULES, load_catalogue, load_rules
from game.systems.tactical.rules.models import (
    BattleSetup,
    Catalogue,
    Commander,
    Objective,
    RulesData,
    SideSetup,
    UnitSetup,
)
from game.systems.tactical.rules.terrain import can_stand_on

Colour = tuple[int, int, int]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def parse_colour(value: Any) -> Any:
    """'#rrggbb' or [r, g, b] -> (r, g, b); anything else is left for pydantic to refuse."""
    if isinstance(value, str):
        text = value.strip().lstrip("#")
        if len(text) != 6:
            raise ValueError(f"colour {brief(value)} should be '#rrggbb' or [r, g, b]")
        try:
            return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)
        except ValueError:
            raise ValueError(f"colour '{value}' should be '#rrggbb' or [r, g, b]") from None
    return value


class ScenarioSide(_Strict):
    id: str = Field(min_length=1)
    name: str
    colour: tuple[int, int, int]
    commander: Commander

    @field_validator("colour", mode="before")
    @classmethod
    def _colour(cls, v: Any) -> Any:
        return parse_colour(v)

    @field_validator("colour")
    @classmethod
    def _colour_range(cls, v: Colour) -> Colour:
        if any(not 0 <= c <= 255 for c in v):
            raise ValueError(f"colour components must be 0-255, got {list(v)}")
        return v


class ScenarioUnit(_Strict):
    id: str = Field(min_length=1)
    type: str
    side: str
    at: tuple[int, int] = Field(description="[col, row] in Tiled's tile coordinates")
    strength: int | None = Field(None, ge=1)
    name: str | None = None


class ScenarioObjective(_Strict):
    kind: Literal["destroy_all", "hold", "survive"]
    side: str
    hexes: tuple[tuple[int, int], ...] = ()  # [col, row] each
    round: int | None = Field(None, ge=1)
    description: str = ""


class ScenarioOptions(_Strict):
    # Ask the defender about the defensive action before each attack it may answer (true) or
    # never (false). It sets the rules' `defensive_action_prompt` (ask / never), which the
    # engine, `run` and the client all obey; left out (None): the rules file's value stands.
    ask_defensive_action: bool | None = None


class TerrainMapping(_Strict):
    """Which tile means which terrain, for a map painted with tiles that carry no `terrain`
    property (docs/formats.md#terrain-mapping). A terrain name, or null: the tile puts its cell
    off the board. By tileset (its name in Tiled or its file name) and tile id first, then by the
    tile's class (Tiled 1.9+; `type` before), then the tile's own `terrain` property."""

    tilesets: dict[str, dict[int, str | None]] = Field(default_factory=dict)
    classes: dict[str, str | None] = Field(default_factory=dict)

    def rule(self) -> Any:
        def tile_terrain(ts: Tileset, local: int) -> str | None:
            for key in ts.keys():
                ids = self.tilesets.get(key)
                if ids is not None and local in ids:
                    return ids[local] or ""
            cls = ts.classes.get(local)
            if cls and cls in self.classes:
                return self.classes[cls] or ""
            return tile_property_terrain(ts, local)

        return tile_terrain


class ScenarioFile(_Strict):
    name: str
    description: str = ""
    map: str
    catalogue: str | None = None
    rules: dict[str, Any] = Field(default_factory=dict)
    map_units: bool = True  # also place the units of the map's object layers
    terrain_map: TerrainMapping | None = None
    sides: tuple[ScenarioSide, ...] = Field(min_length=2)
    units: tuple[ScenarioUnit, ...] = ()
    objectives: tuple[ScenarioObjective, ...] = ()
    round_limit: int = Field(8, ge=1)
    seed: int = Field(0, ge=0)
    options: ScenarioOptions = ScenarioOptions()
    campaign: dict[str, Any] | None = None  # the campaign battle it was generated for (game/bridge; docs/scales.md)


@dataclass(frozen=True, eq=False)
class LoadedScenario:
    """A scenario read from its files: the battle set-up, the board, the map and the seed."""
    setup: BattleSetup
    board: Board
    map: MapData
    seed: int
    path: Path
    file: ScenarioFile
    catalogue_path: Path
    rules_path: Path

    @property
    def name(self) -> str:
        return self.setup.name

    @property
    def description(self) -> str:
        return self.file.description

    @property
    def options(self) -> ScenarioOptions:
        """The options in effect: ask_defensive_action is always a bool here, from the rules."""
        ask = self.setup.rules.defensive_action_prompt == "ask"
        return self.file.options.model_copy(update={"ask_defensive_action": ask})

    def side_colour(self, side_id: str) -> Colour:
        for s in self.setup.sides:
            if s.id == side_id:
                return s.colour
        return (160, 160, 160)


class _Problems:
    def __init__(self, doc: YamlDoc) -> None:
        self.doc = doc
        self.items: list[GameFileError] = []

    def add(self, loc: tuple[int | str, ...], message: str) -> None:
        line = self.doc.line_of(loc)
        where = format_loc(loc)
        self.items.append(GameFileError(str(self.doc.path), f"line {line}: {where}" if line else where, message))

    def raise_if_any(self) -> None:
        if self.items:
            raise GameFileErrors(self.items)


TERRAIN_HELP = "docs/formats.md, 'Terrain mapping'"


def _apply_terrain_map(md: MapData, sc: ScenarioFile, rules: RulesData, problems: _Problems) -> MapData:
    """The map with the Board the scenario's terrain mapping gives it (the map's own without one).
    Every tile left without a terrain is reported with the cells (col,row) where it stands."""
    mapping = sc.terrain_map
    if mapping is None:
        if not md.has_terrain:
            names = ", ".join(f"'{ts.name}'" for ts in md.tilesets)
            problems.add(("map",), f"map '{sc.map}' cannot be played as it is: none of its tiles (tilesets {names}) "
                                   "has a 'terrain' property; add a terrain_map to the scenario saying which tile "
                                   f"means which terrain ({TERRAIN_HELP})")
            problems.raise_if_any()
        return md
    allowed = ", ".join(sorted(rules.terrain))
    known_sets = {key for ts in md.tilesets for key in ts.keys()}
    for name, ids in mapping.tilesets.items():
        if name not in known_sets:
            problems.add(("terrain_map", "tilesets", name), f"the map has no tileset '{name}'; its tilesets are: "
                                                           f"{', '.join(ts.name for ts in md.tilesets)}")
        for local, terrain in ids.items():
            if terrain is not None and terrain not in rules.terrain:
                problems.add(("terrain_map", "tilesets", name, local), f"unknown terrain '{terrain}'; allowed: {allowed}")
    for cls, terrain in mapping.classes.items():
        if terrain is not None and terrain not in rules.terrain:
            problems.add(("terrain_map", "classes", cls), f"unknown terrain '{terrain}'; allowed: {allowed}")
    problems.raise_if_any()
    terrain_cells, roads, unmapped = terrain_of_cells(md, mapping.rule())
    for tile in unmapped:
        problems.add(("terrain_map",), f"no terrain for {tile.describe()}: map tile {tile.local_id} under "
                                       f"tilesets: {{{tile.tileset}: ...}}" + (" or its class under classes:"
                                                                               if tile.tile_class else "")
                                       + " (null puts those cells off the board)")
    problems.raise_if_any()
    return replace(md, board=board_from_cells(md, terrain_cells, roads))


_NAME_KEYS = ("name", "id", "side")  # (the battle's, a side's, a commander's, a unit's)


def load_scenario(path: str | Path) -> LoadedScenario:
    """Read a scenario and everything it refers to; raise GameFileError on any problem."""
    doc = read_yaml(path, "scenario file")
    refuse_control_characters(doc, _NAME_KEYS)
    sc = validate_model(ScenarioFile, doc.data, doc, doc.path, what="scenario")
    base = doc.path.parent
    problems = _Problems(doc)

    rules: RulesData = load_rules(DEFAULT_RULES, sc.rules or None, doc, ("rules",))
    ask = sc.options.ask_defensive_action
    if ask is not None:
        wanted = "ask" if ask else "never"
        given = (sc.rules or {}).get("defensive_action_prompt")
        if given is not None and given != wanted:
            problems.add(("options", "ask_defensive_action"),
                         f"{str(ask).lower()} contradicts rules: defensive_action_prompt: {given} "
                         f"(true means ask, false means never); give only one of them")
            problems.raise_if_any()
        rules = rules.model_copy(update={"defensive_action_prompt": wanted})
    catalogue_path = (safe_read.resolve(base / sc.catalogue, "unit catalogue", origin=str(doc.path),
                                        where="catalogue") if sc.catalogue else DEFAULT_CATALOGUE)
    what = safe_read.not_a_file(catalogue_path) if sc.catalogue else None  # (named against this line)
    if what:
        problems.add(("catalogue",), f"unit catalogue '{sc.catalogue}' {what} (looked for {catalogue_path})")
        problems.raise_if_any()
    catalogue: Catalogue = load_catalogue(catalogue_path)
    map_path = safe_read.resolve(base / sc.map, "map", origin=str(doc.path), where="map")
    what = safe_read.not_a_file(map_path)
    if what:
        what = "is a folder, not a .tmx file" if what.startswith("is a folder") else what
        problems.add(("map",), f"map '{sc.map}' {what} (looked for {map_path})")
        problems.raise_if_any()
    md = load_map(map_path, set(rules.terrain))
    md = _apply_terrain_map(md, sc, rules, problems)
    board = md.board
    stagger = md.stagger

    # sides
    side_ids: dict[str, int] = {}
    for i, s in enumerate(sc.sides):
        if s.id in side_ids:
            problems.add(("sides", i, "id"), f"side id '{s.id}' is used twice (also sides[{side_ids[s.id]}])")
        side_ids.setdefault(s.id, i)
    known_types = ", ".join(sorted(catalogue.units))

    def check_placement(loc: tuple[int | str, ...], type_id: str, h: Hex, col: int, row: int) -> None:
        if not (0 <= col < md.width and 0 <= row < md.height):
            problems.add(loc, f"[{col}, {row}] is outside the {md.width} x {md.height} map "
                              f"(columns 0-{md.width - 1}, rows 0-{md.height - 1})")
            return
        if h not in board:
            problems.add(loc, f"[{col}, {row}] has no terrain (off the board)")
            return
        name = board.terrain_at(h)
        t = rules.terrain.get(name)
        ut = catalogue.units.get(type_id)
        if t is not None and (t.impassable if ut is None else not can_stand_on(rules, ut, name)):
            problems.add(loc, f"[{col}, {row}] is {name}, impassable for a {type_id}")

    # units (scenario first, then the map's object layer)
    units: list[UnitSetup] = []
    where_of: dict[str, str] = {}
    occupied: dict[Hex, str] = {}
    for i, u in enumerate(sc.units):
        loc: tuple[int | str, ...] = ("units", i)
        ok = True
        if u.id in where_of:
            problems.add(loc + ("id",), f"unit id '{u.id}' is used twice (also {where_of[u.id]})")
            ok = False
        if u.type not in catalogue.units:
            problems.add(loc + ("type",), f"unknown unit type '{u.type}'; the catalogue has: {known_types}")
            ok = False
        if u.side not in side_ids:
            problems.add(loc + ("side",), f"unknown side '{u.side}'; sides are: {', '.join(side_ids)}")
            ok = False
        col, row = u.at
        h = stagger.to_hex(col, row)
        before = len(problems.items)
        check_placement(loc + ("at",), u.type, h, col, row)
        if len(problems.items) == before and h in occupied:
            problems.add(loc + ("at",), f"[{col}, {row}] is already taken by unit '{occupied[h]}' (one unit per hex)")
        if u.strength is not None and u.type in catalogue.units and u.strength > catalogue.units[u.type].strength:
            problems.add(loc + ("strength",), f"{u.strength} is more than a {u.type}'s full strength "
                                              f"({catalogue.units[u.type].strength})")
            ok = False
        where_of.setdefault(u.id, format_loc(loc))
        occupied.setdefault(h, u.id)
        if ok:
            units.append(UnitSetup(id=u.id, type=u.type, side=u.side, at=h, strength=u.strength, name=u.name))
    if sc.map_units:
        # Problems between the map's unit objects and this scenario are reported against the
        # scenario (its `map` line), naming the map object.
        map_name = md.path.name
        for mu in md.units:
            uid = mu.id or f"{mu.side}-{mu.unit_type}-{mu.object_id}"
            here = f"{mu.describe()} of {map_name}"
            before = len(problems.items)
            if mu.unit_type not in catalogue.units:
                problems.add(("map",), f"{here}: unknown unit_type '{mu.unit_type}'; the catalogue "
                                       f"({catalogue_path.name}) has: {known_types}")
            if mu.side not in side_ids:
                problems.add(("map",), f"{here}: unknown side '{mu.side}'; this scenario's sides are: "
                                       f"{', '.join(side_ids)} (or set map_units: false)")
            if uid in where_of:
                problems.add(("map",), f"{here}: unit id '{uid}' is also used by {where_of[uid]}")
            if mu.hex in occupied:
                problems.add(("map",), f"{here}: tile ({mu.col},{mu.row}) is already taken by unit "
                                       f"'{occupied[mu.hex]}'")
            if mu.hex not in board:
                problems.add(("map",), f"{here}: tile ({mu.col},{mu.row}) has no terrain (off the board)")
                continue
            t = rules.terrain.get(board.terrain_at(mu.hex))
            ut = catalogue.units.get(mu.unit_type)
            if t is not None and (t.impassable if ut is None else not can_stand_on(rules, ut, board.terrain_at(mu.hex))):
                problems.add(("map",), f"{here}: stands on {board.terrain_at(mu.hex)} at ({mu.col},{mu.row}), "
                                       f"impassable for a {mu.unit_type}")
            if len(problems.items) > before:
                continue
            where_of[uid] = here
            occupied[mu.hex] = uid
            units.append(UnitSetup(id=uid, type=mu.unit_type, side=mu.side, at=mu.hex))

    # commanders riding with a unit
    unit_side = {u.id: u.side for u in units}
    for i, s in enumerate(sc.sides):
        ride = s.commander.unit
        if ride is not None:
            if ride not in unit_side:
                problems.add(("sides", i, "commander", "unit"), f"no unit with id '{ride}' in this scenario")
            elif unit_side[ride] != s.id:
                problems.add(("sides", i, "commander", "unit"),
                             f"unit '{ride}' belongs to side '{unit_side[ride]}', not to '{s.id}'")
    for sid in side_ids:
        if not any(u.side == sid for u in units) and not problems.items:
            problems.add(("sides", side_ids[sid], "id"), f"side '{sid}' has no units")

    # objectives
    objectives: list[Objective] = []
    for i, o in enumerate(sc.objectives):
        loc = ("objectives", i)
        if o.side not in side_ids:
            problems.add(loc + ("side",), f"unknown side '{o.side}'; sides are: {', '.join(side_ids)}")
        if o.kind == "hold" and not o.hexes:
            problems.add(loc + ("hexes",), "a 'hold' objective needs at least one hex: hexes: [[col, row], ...]")
        hexes: list[Hex] = []
        for j, (col, row) in enumerate(o.hexes):
            h = stagger.to_hex(col, row)
            if h not in board:
                problems.add(loc + ("hexes", j), f"[{col}, {row}] is not a hex of the board")
            hexes.append(h)
        if o.round is not None and o.round > sc.round_limit:
            problems.add(loc + ("round",), f"round {o.round} is after the last round ({sc.round_limit})")
        objectives.append(Objective(kind=o.kind, side=o.side, hexes=tuple(hexes), round=o.round,
                                    description=o.description))
    problems.raise_if_any()

    sides = tuple(SideSetup(id=s.id, name=s.name, colour=s.colour, commander=s.commander) for s in sc.sides)
    setup = BattleSetup(name=sc.name, rules=rules, catalogue=catalogue, sides=sides, units=tuple(units),
                        objectives=tuple(objectives), round_limit=sc.round_limit)
    return LoadedScenario(setup=setup, board=board, map=md, seed=sc.seed, path=doc.path, file=sc,
                          catalogue_path=catalogue_path, rules_path=DEFAULT_RULES)
