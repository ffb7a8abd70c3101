"""Loading and checking the campaign layer's files: rules data, the powers' catalogue, the
scenario (with its Tiled island map), and play-by-post order files with their fingerprints.

Every problem is a GameFileError naming the file, the line and field, and what was expected.

    loaded = load_campaign("maps/campaign/ascension-isle.yaml")  # .setup .seed .path .name .description
    rules = load_campaign_rules(); catalogue = load_campaign_catalogue()
    orders = read_orders_file(path); fingerprint(orders.orders, orders.salt)
"""

# No `from __future__ import annotations`: pydantic would evaluate every annotation of these models
# from its string at import, about a quarter of this module's import time (start-up, issue 14).
import hashlib
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    ValidationError,
    field_validator,
)

from game import paths
from game.core.errors import GameFileError, UserError
from game.core.palette import palette_colour
from game.core.system import counted
from game.io.datafiles import (
    ROOT,
    GameFileErrors,
    clean_loc,
    control_character,
    deep_merge,
    describe_error,
    format_loc,
    read_yaml,
    validate_model,
)
from game.io.outpaths import write_output
from game.io.safe_read import read_text
from game.io.tmx import ObjectLayer, TileLayer, load_map
from game.systems.campaign.rules.commands import COMMAND_KINDS, parse_command
from game.systems.campaign.rules.models import (
    ArmySetup,
    CampaignMap,
    CampaignSetup,
    Catalogue,
    Coord,
    GeneralSetup,
    Manoeuvre,
    PlayerSetup,
    RulesData,
    Stratagem,
    Trait,
    UnitSetup,
)

DEFAULT_RULES = ROOT / "assets" / "rules" / "campaign.yaml"
DEFAULT_CATALOGUE = ROOT / "assets" / "units" / "campaign-powers.yaml"
SYSTEM_NAME = "campaign"

# Operational terrain of each tile of the project's hex tilesets (local tile id, the order of
# game/tools/make_tiles.py TERRAIN_TILES); road overlay tiles (16 and up) are roads.
TILE_TERRAIN: dict[int, str] = {
    0: "plains", 1: "forest", 2: "forest", 3: "hills", 4: "marsh", 5: "sea", 6: "town", 7: "town",
    8: "hills", 9: "fortress", 10: "fortress", 11: "mountains", 12: "road", 13: "road", 14: "river",
    15: "town",
}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _where(doc: Any, loc: tuple[int | str, ...]) -> str:
    line = doc.line_of(loc) if doc is not None else None
    w = format_loc(loc) or "top level"
    return f"line {line}: {w}" if line else w


def _validate(model: type[Any], data: Any, doc: Any, path: Path, what: str, drop: tuple[str, ...] = ()) -> Any:
    if isinstance(data, dict):
        data = {k: v for k, v in data.items() if k not in drop}
    return validate_model(model, data, doc, path, what=what)


def load_campaign_rules(path: str | Path = DEFAULT_RULES, overrides: dict[str, Any] | None = None,
                        overrides_doc: Any = None) -> RulesData:
    doc = read_yaml(path, "campaign rules file")
    if not isinstance(doc.data, dict):
        raise GameFileError(str(doc.path), "", "expected a campaign rules file (a YAML mapping)")
    data = {k: v for k, v in doc.data.items() if k != "kind"}
    if overrides:
        data = deep_merge(data, overrides)
    try:
        return RulesData.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            loc = clean_loc(tuple(err.get("loc", ())))
            if overrides and loc and loc[0] in overrides and overrides_doc is not None:
                problems.append(GameFileError(str(overrides_doc.path), _where(overrides_doc, ("rules", *loc)),
                                              describe_error(err)))
            else:
                problems.append(GameFileError(str(doc.path), _where(doc, loc), describe_error(err)))
        raise GameFileErrors(problems) from None


def load_campaign_catalogue(path: str | Path = DEFAULT_CATALOGUE) -> Catalogue:
    doc = read_yaml(path, "campaign unit catalogue")
    cat: Catalogue = _validate(Catalogue, doc.data, doc, doc.path, "campaign unit catalogue", ("kind",))
    seen: dict[str, str] = {}
    for pid, power in cat.powers.items():
        for uid in power.units:
            if uid in seen:
                raise GameFileError(str(doc.path), _where(doc, ("powers", pid, "units", uid)),
                                    f"unit id {uid!r} is also used by power {seen[uid]!r}; ids must be unique")
            seen[uid] = pid
    return cat


# --------------------------------------------------------------------------- the map

def load_campaign_map(path: str | Path) -> CampaignMap:
    """The island from a Tiled .tmx painted with the project's hex tileset."""
    m = load_map(path, terrain_names={"clear", "woods", "dense_woods", "rough", "swamp", "water", "building",
                                      "rubble", "hill", "fortification", "bunker", "cliff", "road"})
    terrain: dict[Coord, str] = {}
    for layer in m.layers:
        if not isinstance(layer, TileLayer):
            continue
        for col, row, gid in layer.cells():
            found = m.tileset_for(gid)
            if found is None:
                continue
            _, local = found
            terrain[(col, row)] = TILE_TERRAIN.get(local, "road" if local >= 16 else "plains")
    names: dict[Coord, str] = {}
    for layer in m.layers:
        if isinstance(layer, ObjectLayer):
            for obj in layer.objects:
                if obj.name:
                    names[m.layout.pixel_to_tile(*obj.centre)] = obj.name
    return CampaignMap(m.width, m.height, terrain, m.stagger.axis, m.stagger.index, names)


# --------------------------------------------------------------------------- the scenario

def _plain_name(v: str) -> str:
    """A name shown on the map, in the window and in reports: no control character (a NUL or an
    escape sequence is not a name, and no screen can draw it)."""
    bad = control_character(v)
    if bad is not None:
        raise ValueError(f"a control character (U+{ord(bad):04X}) in a name; expected printable text")
    return v


Name = Annotated[str, AfterValidator(_plain_name)]


class UnitEntry(_Strict):
    type: str
    count: Annotated[int, Field(ge=1, le=200)] = 1
    id: Name | None = None


class ArmyEntry(_Strict):
    id: Name
    name: Name = ""
    owner: str
    at: Coord
    route: Coord | None = None
    units: list[UnitEntry] = Field(min_length=1)
    plural: StrictBool = False  # the name takes a plural verb ("the Rangers of the North have"); one without it

    @field_validator("units", mode="before")
    @classmethod
    def _names_are_entries(cls, v: Any) -> Any:
        """A bare unit type id is one unit of that type."""
        return [{"type": x} if isinstance(x, str) else x for x in v] if isinstance(v, list) else v


class GeneralEntry(_Strict):
    id: Name
    name: Name
    owner: str
    level: Annotated[int, Field(ge=0, le=3)]
    army: str
    traits: tuple[Trait, ...] = ()


class PlayerEntry(_Strict):
    id: Name
    name: Name
    power: str
    colour: str = Field("", pattern=r"^#[0-9a-fA-F]{6}$")  # "#rrggbb"; the palette's for its place without
    plural: StrictBool = False  # the name takes a plural verb ("The Zones have"); without it, one ("Jibril has")


class ScenarioFile(_Strict):
    system: str
    name: Name
    description: str = ""
    seed: int = 1
    map: str
    rules: str | None = None
    catalogue: str | None = None
    rules_overrides: dict[str, Any] | None = None
    players: list[PlayerEntry] = Field(min_length=2)
    armies: list[ArmyEntry] = Field(min_length=1)
    generals: list[GeneralEntry] = []


def _named(doc: Any, key: str, ref: Path | None, load: Any) -> Any:
    """`load()` of a file the scenario names under `key`; a file that cannot be read at all (not
    there, a device, too large) is reported against the scenario's line that names it."""
    try:
        return load()
    except GameFileErrors:
        raise
    except GameFileError as exc:
        if ref is None or exc.where or exc.path not in (str(ref), str(ref.resolve() if ref.is_absolute() else ref)):
            raise
        raise GameFileError(str(doc.path), _where(doc, (key,)), f"{key} {exc.path}: {exc.message}") from None


@dataclass(frozen=True)
class LoadedCampaign:
    setup: CampaignSetup
    seed: int
    path: Path
    name: str
    description: str
    system: str = SYSTEM_NAME

    @property
    def system_name(self) -> str:
        return self.system


def load_campaign(path: str | Path) -> LoadedCampaign:
    doc = read_yaml(path, "campaign scenario")
    p = doc.path
    sc: ScenarioFile = validate_model(ScenarioFile, doc.data, doc, p, what="campaign scenario")
    if sc.system != SYSTEM_NAME:
        raise GameFileError(str(p), _where(doc, ("system",)), f"system is {sc.system!r}; expected {SYSTEM_NAME!r}")
    base = p.parent
    rules = _named(doc, "rules", base / sc.rules if sc.rules else None,
                   lambda: load_campaign_rules(base / sc.rules if sc.rules else DEFAULT_RULES, sc.rules_overrides, doc))
    cat = _named(doc, "catalogue", base / sc.catalogue if sc.catalogue else None,
                 lambda: load_campaign_catalogue(base / sc.catalogue if sc.catalogue else DEFAULT_CATALOGUE))
    cmap = _named(doc, "map", base / sc.map, lambda: load_campaign_map(base / sc.map))
    for t in set(cmap.terrain.values()):
        if t not in rules.terrain:
            raise GameFileError(str(p), _where(doc, ("map",)), f"the map uses terrain {t!r} that the rules do not define")
    types = cat.unit_types()
    players = [PlayerSetup(x.id, x.name, x.power, x.colour.lower() or palette_colour(i), x.plural) for i, x in enumerate(sc.players)]
    pids = [x.id for x in players]
    for i, pl in enumerate(sc.players):
        if pids.count(pl.id) > 1:
            raise GameFileError(str(p), _where(doc, ("players", i, "id")), f"two players are called {pl.id!r}")
        same = [o.name for o in players[:i] if o.colour == players[i].colour]
        if same:
            raise GameFileError(str(p), _where(doc, ("players", i, "colour") if pl.colour else ("players", i)),
                                f"{pl.name} has the colour {players[i].colour} of {same[0]}; give each player "
                                "a colour of its own (docs/playing.md, Colours)")
        if pl.power not in cat.powers:
            raise GameFileError(str(p), _where(doc, ("players", i, "power")),
                                f"unknown power {pl.power!r}; the catalogue has {', '.join(cat.powers)}")
    armies: list[ArmySetup] = []
    unit_ids: set[str] = set()
    for i, a in enumerate(sc.armies):
        if a.owner not in pids:
            raise GameFileError(str(p), _where(doc, ("armies", i, "owner")),
                                f"unknown player {a.owner!r}; players are {', '.join(pids)}")
        for key, c in (("at", a.at), ("route", a.route)):
            if c is None:
                continue
            if not (0 <= c[0] < cmap.width and 0 <= c[1] < cmap.height):
                raise GameFileError(str(p), _where(doc, ("armies", i, key)),
                                    f"hex {c[0]},{c[1]} is off the {cmap.width}x{cmap.height} map")
            cost = rules.terrain[cmap.terrain.get(c, "sea")].cost if cmap.terrain.get(c, "sea") in rules.terrain else None
            if cost is None:
                raise GameFileError(str(p), _where(doc, ("armies", i, key)),
                                    f"hex {c[0]},{c[1]} is {cmap.terrain.get(c, 'empty')}: armies cannot stand there")
        units: list[UnitSetup] = []
        n = 1
        for j, entry in enumerate(a.units):
            e = entry
            if e.type not in types:
                raise GameFileError(str(p), _where(doc, ("armies", i, "units", j)), f"unknown unit type {e.type!r}")
            for _k in range(e.count):
                uid = e.id if (e.id and e.count == 1) else f"{a.id}.{n}"
                n += 1
                if uid in unit_ids:
                    raise GameFileError(str(p), _where(doc, ("armies", i, "units", j)), f"unit id {uid!r} used twice")
                unit_ids.add(uid)
                units.append(UnitSetup(uid, e.type))
        armies.append(ArmySetup(a.id, a.name or a.id, a.owner, a.at, tuple(units), a.route, a.plural))
    aids = {a.id: a for a in armies}
    if len(aids) != len(armies):
        raise GameFileError(str(p), _where(doc, ("armies",)), "two armies share an id")
    generals: list[GeneralSetup] = []
    for i, g in enumerate(sc.generals):
        if g.army not in aids:
            raise GameFileError(str(p), _where(doc, ("generals", i, "army")), f"unknown army {g.army!r}")
        if aids[g.army].owner != g.owner:
            raise GameFileError(str(p), _where(doc, ("generals", i, "army")),
                                f"army {g.army!r} belongs to {aids[g.army].owner!r}, not {g.owner!r}")
        generals.append(GeneralSetup(g.id, g.name, g.owner, g.level, g.army, g.traits))
    setup = CampaignSetup(sc.name, rules, types, cmap, tuple(players), tuple(armies), tuple(generals), sc.description)
    return LoadedCampaign(setup, sc.seed, p, sc.name, sc.description)


# --------------------------------------------------------------------------- order files

class OrderEntry(_Strict):
    battle: Name
    manoeuvre: Manoeuvre
    stratagems: tuple[Stratagem, ...] = ()
    vanguard: Name
    withdraw_to: Coord | None = None
    breakthrough_to: Coord | None = None


class OrdersFile(_Strict):
    kind: str = "campaign-orders"
    campaign: Name
    week: int
    player: Name
    orders: list[OrderEntry]
    salt: str | None = None  # kept secret until the reveal; a public copy has it removed
    fingerprint: str


def canonical_orders(orders: list[OrderEntry] | list[dict[str, Any]]) -> str:
    """The orders as one canonical JSON text (sorted keys, battles in order, no spaces)."""
    rows = [o.model_dump(mode="json") if isinstance(o, BaseModel) else dict(o) for o in orders]
    rows.sort(key=lambda r: str(r["battle"]))
    return json.dumps(rows, sort_keys=True, separators=(",", ":"))


FINGERPRINT_SCHEME = "ail-campaign-orders/2"


def sealed_text(orders: list[OrderEntry] | list[dict[str, Any]], salt: str, *, campaign: str, week: int,
                player: str, kind: str = "campaign-orders") -> str:
    """What the fingerprint hashes: every field of the order file but the fingerprint itself
    (scheme, kind, campaign, week, player, orders, salt) as one canonical JSON object, so no
    field can be changed, and no two fields run into each other, without changing the hash."""
    rows = json.loads(canonical_orders(orders))
    return json.dumps({"scheme": FINGERPRINT_SCHEME, "kind": kind, "campaign": campaign, "week": week,
                       "player": player, "orders": rows, "salt": salt},
                      sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def fingerprint(orders: list[OrderEntry] | list[dict[str, Any]], salt: str, *, week: int, player: str,
                campaign: str, kind: str = "campaign-orders") -> str:
    text = sealed_text(orders, salt, campaign=campaign, week=week, player=player, kind=kind)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def parse_fingerprint(text: str) -> str:
    """A posted fingerprint as `sha256:` + 64 lowercase hex digits; the prefix may be left off.
    ValueError (saying what was expected) for anything else, the empty text included."""
    t = (text or "").strip()
    if not t:
        raise ValueError("the fingerprint is empty; expected the 64 hex digits the player posted "
                         "(with or without 'sha256:')")
    hexpart = t[7:] if t.lower().startswith("sha256:") else t
    if len(hexpart) != 64 or any(c not in "0123456789abcdefABCDEF" for c in hexpart):
        raise ValueError(f"{t[:80]!r} is not a fingerprint; expected 'sha256:' and 64 hex digits "
                         "(the prefix may be left off)")
    return "sha256:" + hexpart.lower()


SALT_MIN_CHARS = 32          # 32 hex digits = 128 bits
SALT_MAX_CHARS = 256
SALT_ALPHABET = set("0123456789abcdefABCDEFGHIJKLMNOPQRSTUVWXYZghijklmnopqrstuvwxyz-_")


def salt_problem(salt: str) -> str | None:
    """Why a salt a player chose is too weak to hide orders behind a public fingerprint, or None.

    A week's orders come from a small set (a few manoeuvres, stratagems and vanguards per battle),
    so the salt alone keeps them secret: it must be long (at least 32 characters, hex digits or
    URL-safe base64: 128 bits or more), random-looking (at least 12 different characters, no
    repeating pattern) and used once (`SaltLedger`)."""
    if not isinstance(salt, str) or not salt:
        return "the salt is empty"
    if len(salt) < SALT_MIN_CHARS:
        return (f"the salt has {len(salt)} characters; at least {SALT_MIN_CHARS} random ones are needed "
                "(leave --salt out for a fresh random one)")
    if len(salt) > SALT_MAX_CHARS:
        return f"the salt has {len(salt)} characters; at most {SALT_MAX_CHARS}"
    if any(c not in SALT_ALPHABET for c in salt):
        return "the salt may hold only hex digits, letters, '-' and '_'"
    if len(set(salt)) < 12:
        return f"the salt uses only {len(set(salt))} different characters; it does not look random"
    for period in range(1, len(salt) // 2 + 1):
        if all(salt[i] == salt[i % period] for i in range(len(salt))):
            return "the salt repeats a pattern; it does not look random"
    return None


SALT_LEDGER = "campaign-salts-used.txt"


def salt_ledger_path() -> Path:
    """Where `seal` remembers the salts it has used (their SHA-256, never the salts themselves):
    the saves folder (game.paths.saves_dir)."""
    return paths.saves_dir() / SALT_LEDGER


def _salt_digest(salt: str) -> str:
    return hashlib.sha256(("ail-campaign-salt|" + salt).encode("utf-8")).hexdigest()


def salt_used(salt: str) -> bool:
    """Has `seal` on this machine used this salt before?"""
    p = salt_ledger_path()
    try:
        text = read_text(p, "salt ledger")
    except GameFileError:
        return False
    return _salt_digest(salt) in set(text.split())


def remember_salt(salt: str) -> None:
    """Add a salt to the ledger (best effort: a ledger that cannot be written is not an error)."""
    p = salt_ledger_path()
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        if p.is_symlink():
            return
        fd = os.open(p, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as fh:
            fh.write(_salt_digest(salt) + "\n")
    except OSError:
        pass


def new_salt() -> str:
    return secrets.token_hex(16)


def make_orders_file(campaign: str, week: int, player: str, orders: list[OrderEntry], salt: str | None = None) -> OrdersFile:
    s = salt or new_salt()
    return OrdersFile(campaign=campaign, week=week, player=player, orders=orders, salt=s,
                      fingerprint=fingerprint(orders, s, week=week, player=player, campaign=campaign))


def write_orders_file(path: str | Path, f: OrdersFile, *, inputs: tuple[str | Path, ...] = ()) -> None:
    """Write an order file (never through a symbolic link, never onto an input; game.io.outpaths)."""
    data = f.model_dump(mode="json")
    written = write_output(path, yaml.safe_dump(data, sort_keys=False, allow_unicode=True), "order file",
                           inputs=inputs, backup=False)
    if written.failed:
        raise UserError(f"{written.failed}; the order file was kept in {written.path}")


def read_orders_file(path: str | Path) -> OrdersFile:
    doc = read_yaml(path, "order file")
    kind = doc.data.get("kind") if isinstance(doc.data, dict) else None
    if kind is not None and kind != "campaign-orders":  # said before its fields are (another kind lacks them)
        raise GameFileError(str(doc.path), _where(doc, ("kind",)),
                            f"kind is {kind!r}, not a sealed order file (kind: campaign-orders)")
    f: OrdersFile = validate_model(OrdersFile, doc.data, doc, doc.path, what="order file")
    return f


def check_fingerprint(f: OrdersFile, salt: str | None = None, expected: str | None = None) -> bool:
    """Do the file's fields and salt hash to the fingerprint (the file's, or one posted publicly)?

    A posted fingerprint (`expected`) is taken as given: an empty or malformed one matches
    nothing (it never falls back to the file's own)."""
    s = salt if salt is not None else f.salt
    if s is None:
        return False
    if expected is not None:
        try:
            want = parse_fingerprint(expected)
        except ValueError:
            return False
    else:
        want = f.fingerprint
    got = fingerprint(f.orders, s, week=f.week, player=f.player, campaign=f.campaign, kind=f.kind)
    return secrets.compare_digest(got.encode("utf-8"), want.encode("utf-8", "surrogatepass"))


def sniff_campaign(data: Any) -> str:
    """'campaign-scenario', 'campaign-rules', 'campaign-catalogue', 'campaign-orders',
    'campaign-commands' (a script of campaign commands) or ''."""
    if isinstance(data, dict) and isinstance(data.get("commands"), list):
        data = data["commands"]
    if isinstance(data, list):
        kinds = {d.get("kind") for d in data if isinstance(d, dict)}
        if data and kinds and kinds <= set(COMMAND_KINDS) and all(isinstance(d, dict) for d in data):
            return "campaign-commands"
        return ""
    if not isinstance(data, dict):
        return ""
    if data.get("system") == SYSTEM_NAME and "armies" in data:
        return "campaign-scenario"
    kind = data.get("kind")
    if kind in ("campaign-rules", "campaign-catalogue", "campaign-orders"):
        return str(kind)
    return ""


# --------------------------------------------------------------------------- command scripts

def read_script(path: str | Path) -> list[Any]:
    """A campaign command script: a YAML list of commands (hexes as [column, row])."""
    doc = read_yaml(path, "command script")
    data = doc.data
    if isinstance(data, dict) and "commands" in data:
        data = data["commands"]
    if data is None:
        return []
    if not isinstance(data, list):
        raise GameFileError(str(doc.path), "", "expected a YAML list of commands (mappings with a 'kind')")
    out = []
    for i, entry in enumerate(data):
        try:
            out.append(parse_command(entry))
        except ValidationError as exc:
            raise validation_errors_for(exc, doc, (i,)) from None
        except (TypeError, ValueError) as exc:
            raise GameFileError(str(doc.path), _where(doc, (i,)), f"not a campaign command: {exc}") from None
    return out


def validation_errors_for(exc: ValidationError, doc: Any, prefix: tuple[int | str, ...]) -> GameFileErrors:
    problems = []
    for err in exc.errors():
        loc = prefix + clean_loc(tuple(err.get("loc", ())))
        problems.append(GameFileError(str(doc.path), _where(doc, loc), describe_error(err)))
    return GameFileErrors(problems)


def check_campaign_file(path: Path, kind: str) -> str:
    """`validate` for this system's files (kinds from sniff_campaign): one line saying what it holds."""
    if kind == "campaign-scenario":
        loaded = load_campaign(path)
        s = loaded.setup
        return (f"campaign scenario '{loaded.name}', {counted(len(s.players), 'player', 'players')}, "
                f"{counted(len(s.armies), 'army', 'armies')}, "
                f"map {s.map.width} x {s.map.height}")
    if kind == "campaign-rules":
        rules = load_campaign_rules(path)
        return (f"campaign rules file, {counted(len(rules.terrain), 'terrain type', 'terrain types')}, "
                f"{counted(len(rules.stratagems), 'stratagem', 'stratagems')}")
    if kind == "campaign-catalogue":
        cat = load_campaign_catalogue(path)
        return (f"campaign unit catalogue, {counted(len(cat.powers), 'power', 'powers')}, "
                f"{counted(len(cat.unit_types()), 'unit type', 'unit types')}")
    if kind == "campaign-orders":
        f = read_orders_file(path)
        state = "fingerprint matches" if check_fingerprint(f) else (
            "no salt (public copy)" if f.salt is None else "FINGERPRINT DOES NOT MATCH")
        if f.salt is not None and not check_fingerprint(f):
            raise GameFileError(str(path), "fingerprint", "the orders and salt do not match the fingerprint")
        return f"campaign orders of {f.player}, week {f.week}, {counted(len(f.orders), 'order', 'orders')}, {state}"
    return f"campaign command script, {counted(len(read_script(path)), 'command', 'commands')}"
