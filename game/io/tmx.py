"""Tiled hexagonal maps (.tmx) -> our own models. The ONLY module that imports pytmx.

`load_map(path)` returns a MapData: the map geometry (a HexLayout placing tiles exactly where
Tiled draws them), the tilesets (image paths only: images are loaded lazily by game.render, so
validation and the rules need no display), the layers in the FILE's own order (pytmx groups
layers by kind, so the order is read from the XML), the rules' Board and any units placed on an
object layer.

Map conventions (docs/formats.md#maps):
- orientation must be "hexagonal" (either stagger axis, either index; any tile size). Any such
  map loads and draws, whatever tileset it is painted with.
- terrain: tile custom property `terrain` (string, a name of the rules' terrain table), or a
  scenario's terrain mapping (by tileset and tile id, or by the tile's class/type; see
  `board_from_tiles`). Every tile layer counts, visible or not; where layers overlap, the last
  layer in the file wins. A hex with no terrain tile is off the board. A map with no terrain at
  all still loads (its Board is empty); playing it needs a terrain mapping.
- roads: tile custom property `road` (bool) = true on a tile of any tile layer marks the hex a
  road (the project tilesets have transparent road overlays carrying it).
- units: objects on any object layer with string properties `unit_type` and `side`
  (optional string `id`); the object's centre picks its hex. Tile objects inherit their tile's
  properties (the object's own win), objects stamped from a template (.tx) inherit the
  template's, and members of a Tiled class (property types from a `.tiled-project` file beside
  the map or in a folder above it) that are left at their default, and so not written to the
  file, take the project's default.

Objects are read from the XML here (not by pytmx, which loses templates and nested classes);
pytmx decodes the CSV/Base64 (gzip, zlib) layer data, zstandard the zstd-compressed data.
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import math
import os
import struct
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from pytmx import pytmx as _pytmx_impl  # noqa: E402

from game import paths  # noqa: E402
from game.core.board import Board  # noqa: E402
from game.core.errors import GameFileError, cut  # noqa: E402
from game.core.hexgrid import Hex, Stagger  # noqa: E402
from game.core.hexlayout import HexLayout  # noqa: E402
from game.io import safe_read  # noqa: E402
from game.io.datafiles import read_yaml  # noqa: E402

FLIP_H = 0x80000000
FLIP_V = 0x40000000
FLIP_D = 0x20000000
ROT_120 = 0x10000000
GID_MASK = 0x0FFFFFFF

_PROPERTY_TYPES = {"string", "int", "float", "bool", "color", "file", "object", "class"}

# What `play` can hold (docs/formats.md#limits): tiles and tileset images in memory, so the loader
# (and `validate`) refuses what would exhaust memory there. The map's whole picture at zoom 1 is
# capped where such a picture is drawn (check_map_pixels, called by game.render), not on loading:
# a large map still validates, and `render --scale 0.25` draws it smaller without the full picture.
MAX_MAP_CELLS = 1_000_000          # width x height tiles
MAX_TILE_PX = 1024                 # a tile's width or height
MAX_MAP_PIXELS = 25_000_000        # the whole map at zoom 1 (e.g. 5000 x 5000)
MAX_MAP_SIDE_PX = 16_384           # either side of the whole map at zoom 1
MAX_IMAGE_PIXELS = 16_777_216      # one image (e.g. 4096 x 4096)
MAX_IMAGE_SIDE_PX = 16_384
MAX_COORDINATE = 1_000_000.0       # object positions, layer offsets (pixels)


# --------------------------------------------------------------------------- models

@dataclass(frozen=True)
class Tileset:
    """A Tiled tileset: its image, tile size and per-tile properties."""
    name: str
    firstgid: int
    tilecount: int
    columns: int
    tilewidth: int
    tileheight: int
    spacing: int = 0
    margin: int = 0
    image: Path | None = None                       # the tileset's sheet, if any
    tile_images: Mapping[int, Path] = field(default_factory=dict)  # image-collection tiles
    tile_sizes: Mapping[int, tuple[int, int]] = field(default_factory=dict)
    offset: tuple[int, int] = (0, 0)                 # <tileoffset>
    properties: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)  # local id -> props
    source: Path | None = None                       # the .tsx (None when embedded in the map)
    render_size: str = "tile"                         # Tiled's tilerendersize: "tile" or "grid"
    fill_mode: str = "stretch"                        # with "grid": "stretch" or "preserve-aspect-fit"
    classes: Mapping[int, str] = field(default_factory=dict)  # local id -> the tile's class (Tiled 1.9+) / type

    def keys(self) -> tuple[str, ...]:
        """The names a scenario's terrain mapping may use for this tileset: its name, its file name."""
        names = [self.name]
        if self.source is not None:
            names += [self.source.name, self.source.stem]
        return tuple(dict.fromkeys(names))

    def contains(self, gid: int) -> bool:
        return self.firstgid <= gid < self.firstgid + self.tilecount

    def tile_size(self, local_id: int) -> tuple[int, int]:
        return self.tile_sizes.get(local_id, (self.tilewidth, self.tileheight))

    def tile_rect(self, local_id: int) -> tuple[int, int, int, int]:
        """(x, y, w, h) of a tile in the sheet image."""
        cols = max(1, self.columns)
        col, row = local_id % cols, local_id // cols
        return (self.margin + col * (self.tilewidth + self.spacing),
                self.margin + row * (self.tileheight + self.spacing), self.tilewidth, self.tileheight)


@dataclass(frozen=True)
class TileLayer:
    """A Tiled tile layer: the tile of each cell, with its visibility, opacity and offset."""
    name: str
    id: int
    visible: bool
    opacity: float
    offset: tuple[float, float]
    gids: tuple[tuple[int, ...], ...]  # [row][col] raw Tiled gids (flip bits included); 0 = empty
    properties: Mapping[str, Any] = field(default_factory=dict)
    tint: tuple[int, int, int, int] | None = None  # Tiled's tint colour (r, g, b, a), groups multiplied in

    def cells(self) -> Iterator[tuple[int, int, int]]:
        """(col, row, raw gid) of every non-empty cell."""
        for row, line in enumerate(self.gids):
            for col, gid in enumerate(line):
                if gid:
                    yield col, row, gid


@dataclass(frozen=True)
class MapObject:
    """A Tiled object: its place, size, class and properties."""
    id: int
    name: str
    kind: str  # Tiled's object class/type
    x: float
    y: float
    width: float
    height: float
    gid: int
    properties: Mapping[str, Any]
    template: Path | None = None  # the .tx it was stamped from

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.width / 2, self.y + self.height / 2


@dataclass(frozen=True)
class ObjectLayer:
    """A Tiled object layer and its objects."""
    name: str
    id: int
    visible: bool
    opacity: float
    offset: tuple[float, float]
    objects: tuple[MapObject, ...]
    tint: tuple[int, int, int, int] | None = None


@dataclass(frozen=True)
class ImageLayer:
    """A Tiled image layer: one picture drawn at an offset."""
    name: str
    id: int
    visible: bool
    opacity: float
    offset: tuple[float, float]
    image: Path | None
    tint: tuple[int, int, int, int] | None = None


Layer = TileLayer | ObjectLayer | ImageLayer


@dataclass(frozen=True)
class MapUnit:
    """A unit placed on an object layer of the map."""

    unit_type: str
    side: str
    col: int
    row: int
    hex: Hex
    id: str | None
    layer: str
    object_id: int
    object_name: str

    def describe(self) -> str:
        label = f"'{self.object_name}' " if self.object_name else ""
        return f"object {label}(id {self.object_id}) in layer '{self.layer}'"


@dataclass(frozen=True, eq=False)  # compared and hashed by identity (renderers cache per map)
class MapData:
    """A Tiled map as read from its file: size, stagger, tilesets and layers."""
    path: Path
    width: int
    height: int
    tilewidth: int
    tileheight: int
    hexsidelength: int
    stagger: Stagger
    layout: HexLayout
    layers: tuple[Layer, ...]  # file order, groups flattened (their visibility/opacity/offset applied)
    tilesets: tuple[Tileset, ...]
    board: Board
    units: tuple[MapUnit, ...] = ()
    background: tuple[int, int, int] | None = None
    properties: Mapping[str, Any] = field(default_factory=dict)
    painted: frozenset[tuple[int, int]] = frozenset()  # (col, row) of every cell any tile layer paints

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def has_terrain(self) -> bool:
        """True when the map's own tiles say the terrain of at least one hex (it can be played as is)."""
        return bool(self.board.terrain)

    def painted_hexes(self) -> list[Hex]:
        """Every hex some tile layer paints (what the grid outlines when the map has no terrain)."""
        return [self.stagger.to_hex(c, r) for c, r in sorted(self.painted, key=lambda cr: (cr[1], cr[0]))]

    @property
    def tile_layers(self) -> tuple[TileLayer, ...]:
        return tuple(la for la in self.layers if isinstance(la, TileLayer))

    def tileset_for(self, gid: int) -> tuple[Tileset, int] | None:
        """(tileset, local id) of a raw gid (flip bits ignored), or None (remembered per gid: a
        map asks for the same few gids thousands of times)."""
        base = gid & GID_MASK
        memo = self._tileset_memo
        try:
            return memo[base]
        except KeyError:
            found = memo[base] = next(((ts, base - ts.firstgid) for ts in self.tilesets if ts.contains(base)), None)
            return found

    @functools.cached_property
    def _tileset_memo(self) -> dict[int, tuple[Tileset, int] | None]:
        return {}


# --------------------------------------------------------------------------- XML helpers

def _err(path: Path, where: str, message: str) -> GameFileError:
    return GameFileError(str(path), where, message)


def _parse_xml(path: Path, what: str) -> ET.Element:
    try:
        return ET.fromstring(safe_read.read_bytes(path, what))  # a regular file within the size limit
    except FileNotFoundError:
        raise _err(path, "", f"{what} not found") from None
    except ET.ParseError as exc:
        line, col = exc.position
        msg = str(exc).split(":")[0]
        raise _err(path, f"line {line}, column {col + 1}", f"not valid XML ({msg})") from None
    except OSError as exc:
        raise _err(path, "", f"cannot read {what}: {exc.strerror or exc}") from None
    except (LookupError, ValueError) as exc:  # e.g. an unknown encoding in the XML declaration
        raise _err(path, "", f"not valid XML ({exc})") from None


def _int_attr(el: ET.Element, name: str, path: Path, where: str, default: int | None = None,
              minimum: int | None = None) -> int:
    raw = el.get(name)
    if raw is None:
        if default is None:
            raise _err(path, where, f'missing attribute {name}="..." (a whole number)')
        return default
    try:
        value = int(raw) if len(raw) <= 40 else None
    except ValueError:
        value = None
    if value is None:
        raise _err(path, where, f'attribute {name}="{cut(raw, 40)}" should be a whole number')
    if minimum is not None and value < minimum:
        raise _err(path, where, f'attribute {name}="{raw}" should be at least {minimum}')
    return value


def _float_attr(el: ET.Element, name: str, path: Path, where: str, default: float) -> float:
    raw = el.get(name)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise _err(path, where, f'attribute {name}="{cut(raw, 40)}" should be a number') from None
    if not math.isfinite(value) or abs(value) > MAX_COORDINATE:
        raise _err(path, where, f'attribute {name}="{cut(raw, 40)}" should be a finite number between '
                                f'{-MAX_COORDINATE:g} and {MAX_COORDINATE:g}')
    return value


def _check_properties(el: ET.Element, path: Path, where: str) -> None:
    """Every <property> under `el`'s own <properties> (and inside class values) must have a valid
    type and value."""
    for props in el.findall("properties"):
        for prop in props.findall("property"):
            name = prop.get("name", "")
            kind = prop.get("type", "string")
            value = prop.get("value")
            if value is None:
                value = prop.text or ""
            here = f"{where}: property '{name}'"
            if kind not in _PROPERTY_TYPES:
                raise _err(path, here, f"unknown property type '{kind}'")
            if kind == "class":
                _check_properties(prop, path, here)
                continue
            try:
                if kind == "int":
                    int(value)
                elif kind == "float":
                    float(value)
                elif kind == "bool" and value.strip().lower() not in ("true", "false", "1", "0"):
                    raise ValueError
            except ValueError:
                raise _err(path, here, f"has type {kind} but its value '{value}' is not a valid {kind}") from None


# --------------------------------------------------------------------------- property types

@dataclass(frozen=True)
class PropertyTypes:
    """Tiled's custom property types (a project's "propertyTypes"): class members with their
    defaults and enum values. Tiled writes a class member only when it differs from its default,
    so reading a class value starts from these defaults."""

    classes: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # name -> member -> default
    enums: Mapping[str, tuple[str, ...]] = field(default_factory=dict)       # name -> values
    source: Path | None = None

    def defaults(self, class_name: str | None) -> dict[str, Any]:
        """A fresh copy of a class's member defaults (nested classes as dicts); {} if unknown."""
        if not class_name or class_name not in self.classes:
            return {}
        return _deep_copy(self.classes[class_name])

    def enum_name(self, enum: str | None, value: Any) -> Any:
        """An enum stored as an index (storageType int) -> its name; anything else unchanged."""
        values = self.enums.get(enum or "")
        if values and isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(values):
            return values[value]
        return value


def _deep_copy(d: Mapping[str, Any]) -> dict[str, Any]:
    return {k: _deep_copy(v) if isinstance(v, Mapping) else v for k, v in d.items()}


def _merge(base: dict[str, Any], top: Mapping[str, Any]) -> dict[str, Any]:
    """`top` over `base`, class values (dicts) merged member by member."""
    out = dict(base)
    for k, v in top.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), Mapping):
            out[k] = _merge(dict(out[k]), v)
        else:
            out[k] = v
    return out


PROJECT_SUFFIX = ".tiled-project"


def find_project(map_path: Path, levels: int = 3) -> Path | None:
    """The Tiled project file whose property types a map uses: the first `*.tiled-project` in the
    map's folder or up to `levels` folders above it."""
    folder = map_path.resolve().parent
    for d in [folder, *folder.parents][: levels + 1]:
        try:
            found = sorted(d.glob(f"*{PROJECT_SUFFIX}"))
        except OSError:
            continue
        if found:
            return found[0]
    return None


def load_property_types(project: Path | None) -> PropertyTypes:
    """Read the property types of a Tiled project file (JSON). No file: no types."""
    if project is None:
        return PropertyTypes()
    try:
        data = json.loads(project.read_text(encoding="utf-8"))
    except OSError as exc:
        raise _err(project, "", f"cannot read the Tiled project: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise _err(project, "", f"not a valid Tiled project (JSON): {exc}") from None
    raw = data.get("propertyTypes", []) if isinstance(data, dict) else None
    if not isinstance(raw, list):
        raise _err(project, "propertyTypes", "should be a list of property types")
    by_name: dict[str, dict[str, Any]] = {}
    for i, entry in enumerate(raw):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or entry.get("type") not in (
                "class", "enum"):
            raise _err(project, f"propertyTypes[{i}]", "should have a 'name' and a 'type' of class or enum")
        by_name[entry["name"]] = entry
    enums = {name: tuple(str(v) for v in e.get("values", [])) for name, e in by_name.items() if e["type"] == "enum"}
    classes: dict[str, dict[str, Any]] = {}

    def resolve(name: str, stack: tuple[str, ...]) -> dict[str, Any]:
        if name in classes:
            return classes[name]
        if name in stack:  # a class containing itself: stop (Tiled forbids it too)
            return {}
        entry = by_name[name]
        out: dict[str, Any] = {}
        for j, m in enumerate(entry.get("members", [])):
            if not isinstance(m, dict) or not isinstance(m.get("name"), str):
                raise _err(project, f"propertyTypes '{name}' members[{j}]", "should have a 'name'")
            ptype = m.get("propertyType")
            value = m.get("value")
            if m.get("type") == "class":
                nested = resolve(ptype, (*stack, name)) if ptype in by_name and by_name[ptype]["type"] == "class" else {}
                value = _merge(_deep_copy(nested), value if isinstance(value, dict) else {})
            elif ptype in enums:
                value = PropertyTypes(enums=enums).enum_name(ptype, value)
            out[m["name"]] = value
        classes[name] = out
        return out

    for name, e in by_name.items():
        if e["type"] == "class":
            resolve(name, ())
    return PropertyTypes(classes=classes, enums=enums, source=project)


def _typed_props(el: ET.Element, types: PropertyTypes | None = None,
                 base: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The <properties> of an element as Python values; class values are dicts of their members,
    the members not written taken from `base` (what the value inherits: the enclosing class's
    default for that member) or else from the class's own defaults in `types`; enums stored as an
    index become their name."""
    types = types or PropertyTypes()
    out: dict[str, Any] = {}
    for props in el.findall("properties"):
        for prop in props.findall("property"):
            kind = prop.get("type", "string")
            ptype = prop.get("propertytype")
            name = prop.get("name", "")
            if kind == "class":
                inherited = (base or {}).get(name)
                member_base = _deep_copy(inherited) if isinstance(inherited, Mapping) else types.defaults(ptype)
                out[name] = _merge(member_base, _typed_props(prop, types, member_base))
                continue
            value: Any = prop.get("value")
            if value is None:
                value = prop.text or ""
            if kind == "int":
                value = types.enum_name(ptype, int(value))
            elif kind == "float":
                value = float(value)
            elif kind == "bool":
                value = value.strip().lower() in ("true", "1")
            out[name] = value
    return out


def _tint(raw: str | None) -> tuple[int, int, int, int] | None:
    """Tiled's tintcolor '#rrggbb' or '#aarrggbb' -> (r, g, b, a); None for none or white."""
    if not raw:
        return None
    text = raw.strip().lstrip("#")
    try:
        if len(text) == 8:
            a, r, g, b = (int(text[i:i + 2], 16) for i in range(0, 8, 2))
        elif len(text) == 6:
            a, (r, g, b) = 255, (int(text[i:i + 2], 16) for i in range(0, 6, 2))
        else:
            return None
    except ValueError:
        return None
    return None if (r, g, b, a) == (255, 255, 255, 255) else (r, g, b, a)


def _mul_tint(a: tuple[int, int, int, int] | None,
              b: tuple[int, int, int, int] | None) -> tuple[int, int, int, int] | None:
    if a is None or b is None:
        return a or b
    return tuple(round(x * y / 255) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def _colour(raw: str | None) -> tuple[int, int, int] | None:
    if not raw:
        return None
    text = raw.lstrip("#")
    if len(text) == 8:  # AARRGGBB
        text = text[2:]
    try:
        return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)
    except ValueError:
        return None


# --------------------------------------------------------------------------- tilesets

JSON_MAP_HINT = ("this is a Tiled JSON file; the game reads Tiled's XML formats: open it in Tiled and use "
                 "File > Save As (or Export As) with the type 'Tiled map files (*.tmx)' (tilesets: *.tsx, "
                 "templates: *.tx)")


def _refuse_json(path: Path, what: str) -> None:
    """A .tmj/.tsj/.tj/.json file, or one that starts like JSON: refuse saying how to re-save it."""
    looks_json = path.suffix.lower() in (".tmj", ".tsj", ".tj", ".json")
    if not looks_json:
        try:
            with path.open("rb") as f:
                looks_json = f.read(64).lstrip().startswith((b"{", b"["))
        except OSError:
            return
    if looks_json:
        raise _err(path, "", f"{what}: {JSON_MAP_HINT}")


def _read_tileset(ts_el: ET.Element, map_path: Path, index: int, types: PropertyTypes | None = None) -> Tileset:
    where0 = f"tileset #{index + 1}"
    firstgid = _int_attr(ts_el, "firstgid", map_path, where0, minimum=1)
    source = ts_el.get("source")
    tsx: Path | None = None
    file_path = map_path
    el = ts_el
    if source:
        tsx = safe_read.resolve(map_path.parent / source, "tileset file", origin=str(map_path), where=where0)
        if not paths.exists(tsx):
            raise _err(map_path, f"{where0}", f"tileset file '{source}' not found (looked for {tsx})")
        _refuse_json(tsx, "tileset file")
        el = _parse_xml(tsx, "tileset file")
        if el.tag != "tileset":
            raise _err(tsx, "", f"not a Tiled tileset (root element <{el.tag}>)")
        file_path = tsx
    name = el.get("name") or (tsx.stem if tsx else f"tileset{index + 1}")
    where = f"tileset '{name}'"
    tw = _int_attr(el, "tilewidth", file_path, where, minimum=1)
    th = _int_attr(el, "tileheight", file_path, where, minimum=1)
    check_tile_size(tw, th, file_path, where)
    spacing = _int_attr(el, "spacing", file_path, where, 0, 0)
    margin = _int_attr(el, "margin", file_path, where, 0, 0)
    columns = _int_attr(el, "columns", file_path, where, 0, 0)
    base_dir = file_path.parent
    _check_properties(el, file_path, where)

    image: Path | None = None
    img_el = el.find("image")
    if img_el is not None:
        src = img_el.get("source")
        if not src:
            raise _err(file_path, where, "<image> has no source")
        image = safe_read.resolve(base_dir / src, "tileset image", origin=str(file_path), where=where)
        if not paths.exists(image):
            raise _err(file_path, where, f"tileset image '{src}' not found (looked for {image})")
        check_image(image, file_path, where)

    tile_images: dict[int, Path] = {}
    tile_sizes: dict[int, tuple[int, int]] = {}
    properties: dict[int, dict[str, Any]] = {}
    classes: dict[int, str] = {}
    for tile in el.findall("tile"):
        tid = _int_attr(tile, "id", file_path, f"{where}: <tile>", minimum=0)
        here = f"{where}: tile {tid}"
        _check_properties(tile, file_path, here)
        t_class = tile.get("class") or tile.get("type") or ""
        if t_class:
            classes[tid] = t_class
        t_base = (types or PropertyTypes()).defaults(t_class)
        props = _merge(t_base, _typed_props(tile, types, t_base))
        if props:
            properties[tid] = props
        t_img = tile.find("image")
        if t_img is not None:
            src = t_img.get("source")
            if not src:
                raise _err(file_path, here, "<image> has no source")
            p = safe_read.resolve(base_dir / src, "tile image", origin=str(file_path), where=here)
            if not paths.exists(p):
                raise _err(file_path, here, f"tile image '{src}' not found (looked for {p})")
            check_image(p, file_path, here)
            tile_images[tid] = p
            w = _int_attr(t_img, "width", file_path, here, 0, 0)
            h = _int_attr(t_img, "height", file_path, here, 0, 0)
            if w and h:
                tile_sizes[tid] = (w, h)
    if image is None and not tile_images:
        raise _err(file_path, where, "tileset has no image (neither a sheet nor per-tile images)")

    tilecount = _int_attr(el, "tilecount", file_path, where, 0, 0)
    if image is not None and img_el is not None:
        iw = _int_attr(img_el, "width", file_path, where, 0, 0)
        ih = _int_attr(img_el, "height", file_path, where, 0, 0)
        if not columns and iw:
            columns = max(1, (iw - 2 * margin + spacing) // (tw + spacing))
        if not tilecount and iw and ih:
            rows = max(1, (ih - 2 * margin + spacing) // (th + spacing))
            tilecount = columns * rows
    if tile_images:
        tilecount = max(tilecount, max(tile_images) + 1)
    render_size = el.get("tilerendersize", "tile")
    fill_mode = el.get("fillmode", "stretch")
    if render_size not in ("tile", "grid"):
        raise _err(file_path, where, f"tilerendersize '{render_size}' should be 'tile' or 'grid'")
    if fill_mode not in ("stretch", "preserve-aspect-fit"):
        raise _err(file_path, where, f"fillmode '{fill_mode}' should be 'stretch' or 'preserve-aspect-fit'")
    off = el.find("tileoffset")
    offset = (0, 0)
    if off is not None:
        offset = (_int_attr(off, "x", file_path, f"{where}: <tileoffset>", 0),
                  _int_attr(off, "y", file_path, f"{where}: <tileoffset>", 0))
    return Tileset(name=name, firstgid=firstgid, tilecount=tilecount, columns=columns, tilewidth=tw,
                   tileheight=th, spacing=spacing, margin=margin, image=image, tile_images=tile_images,
                   tile_sizes=tile_sizes, offset=offset, properties=properties, source=tsx,
                   render_size=render_size, fill_mode=fill_mode, classes=classes)


# --------------------------------------------------------------------------- layers

@dataclass
class _Ctx:
    """What a layer inherits from the groups around it: visibility, opacity, offset."""
    visible: bool = True
    opacity: float = 1.0
    ox: float = 0.0
    oy: float = 0.0
    tint: tuple[int, int, int, int] | None = None


def _layer_data(el: ET.Element, path: Path, where: str, width: int, height: int) -> tuple[tuple[int, ...], ...]:
    data = el.find("data")
    if data is None:
        raise _err(path, where, "tile layer has no <data>")
    if data.findall("chunk"):
        raise _err(path, where, INFINITE_HINT)
    encoding = data.get("encoding")
    compression = data.get("compression")
    if encoding is None:
        raise _err(path, where, "tile data is stored as XML <tile> elements; set the layer format to CSV or "
                                "Base64 in Map Properties")
    text = (data.text or "").strip()
    check_layer_data(text, encoding, compression, width * height, path, where)
    try:
        if compression == "zstd" and encoding == "base64":
            gids = _unpack_zstd(text, path, where)
        else:
            gids = _pytmx_impl.unpack_gids(text=text, encoding=encoding, compression=compression)
    except GameFileError:
        raise
    except Exception as exc:  # noqa: BLE001 - any decoding failure is a bad file
        raise _err(path, where, f"cannot decode tile data ({encoding}{'/' + compression if compression else ''}): "
                                f"{exc or type(exc).__name__}") from None
    if gids is None or len(gids) != width * height:
        got = 0 if gids is None else len(gids)
        raise _err(path, where, f"tile data has {got} cells; expected {width} x {height} = {width * height}")
    return tuple(tuple(gids[r * width:(r + 1) * width]) for r in range(height))


INFINITE_HINT = ("infinite maps are not supported: in Tiled open Map > Map Properties, untick 'Infinite' "
                 "(the map becomes as big as what is painted) and save again")


def _unpack_zstd(text: str, path: Path, where: str) -> list[int]:
    try:
        # import seam: zstandard's C codec (about 2 ms) only for a map whose layers are zstd-compressed
        import zstandard
    except ImportError:  # pragma: no cover - a dependency; only a broken install lacks it
        raise _err(path, where, "zstd-compressed tile data needs the 'zstandard' package; or in Tiled set "
                                "Map Properties > Tile Layer Format to 'Base64 (zlib compressed)' and save again") from None
    raw = zstandard.ZstdDecompressor().decompressobj().decompress(base64.b64decode(text))
    n = len(raw) // 4
    return [int.from_bytes(raw[i * 4:i * 4 + 4], "little") for i in range(n)]


def _walk_layers(parent: ET.Element, ctx: _Ctx, path: Path) -> Iterator[tuple[ET.Element, _Ctx]]:
    """Layer elements in file order (depth first through groups), with inherited display state.
    A group's own opacity and offsets are checked here (a layer's by the caller): a group offset of
    "nan" or 1e20 would otherwise reach every layer inside it and the drawing."""
    for el in parent:
        if el.tag not in ("layer", "objectgroup", "imagelayer", "group"):
            continue
        if el.tag == "group":
            where = f"group '{el.get('name', '')}'"
            for name, default in (("opacity", 1.0), ("offsetx", 0.0), ("offsety", 0.0)):
                _float_attr(el, name, path, where, default)
        visible = ctx.visible and el.get("visible", "1") != "0"
        try:
            opacity = ctx.opacity * float(el.get("opacity", "1"))
            ox = ctx.ox + float(el.get("offsetx", "0"))
            oy = ctx.oy + float(el.get("offsety", "0"))
        except ValueError:
            opacity, ox, oy = ctx.opacity, ctx.ox, ctx.oy  # reported by the caller's checks
        here = _Ctx(visible, max(0.0, min(1.0, opacity)), ox, oy, _mul_tint(ctx.tint, _tint(el.get("tintcolor"))))
        if el.tag == "group":
            yield from _walk_layers(el, here, path)
        else:
            yield el, here


# --------------------------------------------------------------------------- the loader

TileTerrain = Callable[[Tileset, int], "str | None"]


def tile_property_terrain(ts: Tileset, local: int) -> str | None:
    """The terrain a tile's own `terrain` property names (None: it says nothing)."""
    value = ts.properties.get(local, {}).get("terrain")
    return value if isinstance(value, str) and value else None


@dataclass(frozen=True)
class UnmappedTile:
    """A tile that gives no terrain, and the cells (col, row) where it is the top tile of a cell
    that nothing else gives a terrain to."""

    tileset: str
    local_id: int
    tile_class: str
    cells: tuple[tuple[int, int], ...]

    def describe(self) -> str:
        kind = f", class '{self.tile_class}'" if self.tile_class else ""
        shown = ", ".join(f"({c},{r})" for c, r in self.cells[:40])
        more = f" and {len(self.cells) - 40} more" if len(self.cells) > 40 else ""
        return f"tileset '{self.tileset}' tile {self.local_id}{kind} at {shown}{more}"


def terrain_of_cells(md: MapData, tile_terrain: TileTerrain = tile_property_terrain
                     ) -> tuple[dict[tuple[int, int], str], set[tuple[int, int]], list[UnmappedTile]]:
    """(terrain by (col, row), road cells, unmapped tiles) of a map under a tile -> terrain rule
    (a terrain name; "" = this tile puts its cell off the board on purpose; None = it says nothing).
    The last tile layer in the file that gives a cell a terrain wins; roads come from the tiles'
    `road` property. A painted cell no tile gives a terrain to is listed under its top tile."""
    terrain: dict[tuple[int, int], str] = {}
    roads: set[tuple[int, int]] = set()
    top: dict[tuple[int, int], tuple[Tileset, int]] = {}
    known: set[tuple[int, int]] = set()  # cells a tile explicitly leaves off the board (rule says "")
    for layer in md.tile_layers:
        for col, row, gid in layer.cells():
            found = md.tileset_for(gid)
            if found is None:
                continue
            ts, local = found
            top[(col, row)] = (ts, local)
            name = tile_terrain(ts, local)
            if name:
                terrain[(col, row)] = name
            elif name == "":
                known.add((col, row))
            if ts.properties.get(local, {}).get("road") is True:
                roads.add((col, row))
    missing: dict[tuple[str, int], list[tuple[int, int]]] = {}
    classes: dict[tuple[str, int], str] = {}
    for cell, (ts, local) in sorted(top.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        if cell not in terrain and cell not in known:
            missing.setdefault((ts.name, local), []).append(cell)
            classes[(ts.name, local)] = ts.classes.get(local, "")
    unmapped = [UnmappedTile(name, local, classes[(name, local)], tuple(cells))
                for (name, local), cells in sorted(missing.items())]
    return terrain, roads, unmapped


def board_from_cells(md: MapData, terrain: Mapping[tuple[int, int], str], roads: Collection[tuple[int, int]]) -> Board:
    stagger = md.stagger
    board_terrain = {stagger.to_hex(c, r): t for (c, r), t in terrain.items()}
    board_roads = frozenset(stagger.to_hex(c, r) for c, r in roads if (c, r) in terrain)
    return Board(md.width, md.height, stagger, board_terrain, board_roads, md.path.stem)


def default_terrain_names() -> set[str]:
    """The terrain names of the default rules file (assets/rules/): what a map's tiles may say
    when the caller names no rules. Read as plain data: this module knows no rule system."""
    data = read_yaml(paths.default_rules(), "rules file").data
    terrain = data.get("terrain") if isinstance(data, dict) else None
    return {str(name) for name in terrain} if isinstance(terrain, dict) else set()


def load_map(path: str | Path, terrain_names: Collection[str] | None = None) -> MapData:
    """Load and check a Tiled hexagonal map. Raises GameFileError naming file, place and problem.

    Any valid hexagonal map loads, whatever its tiles: tiles with a `terrain` property make the
    Board (which is empty when none has one; see `MapData.has_terrain`)."""
    p = Path(path)
    if terrain_names is None:
        terrain_names = default_terrain_names()
    allowed = sorted(terrain_names)
    if paths.is_file(p):
        _refuse_json(p, "map file")
    root = _parse_xml(p, "map file")
    if root.tag != "map":
        raise _err(p, "", f"not a Tiled map (root element <{root.tag}>, expected <map>)")
    orientation = root.get("orientation", "orthogonal")
    if orientation != "hexagonal":
        raise _err(p, "map", f"orientation is '{orientation}'; this game needs a hexagonal map "
                             "(Map Properties > Orientation: Hexagonal)")
    if root.get("infinite", "0") == "1":
        raise _err(p, "map", INFINITE_HINT)
    width = _int_attr(root, "width", p, "map", minimum=0)
    height = _int_attr(root, "height", p, "map", minimum=0)
    if width == 0 or height == 0:
        raise _err(p, "map", f"empty map ({width} x {height} tiles)")
    tw = _int_attr(root, "tilewidth", p, "map", minimum=2)
    th = _int_attr(root, "tileheight", p, "map", minimum=2)
    side = _int_attr(root, "hexsidelength", p, "map", 0, 0)
    check_map_size(width, height, tw, th, side, p)
    axis = root.get("staggeraxis", "y")
    index = root.get("staggerindex", "odd")
    if axis not in ("x", "y"):
        raise _err(p, "map", f"staggeraxis '{axis}' should be 'x' or 'y'")
    if index not in ("odd", "even"):
        raise _err(p, "map", f"staggerindex '{index}' should be 'odd' or 'even'")
    stagger = Stagger(axis, index)  # type: ignore[arg-type]
    try:
        layout = HexLayout(tw, th, side, stagger, width, height)
    except ValueError as exc:
        raise _err(p, "map", str(exc)) from None
    _check_properties(root, p, "map")
    types = load_property_types(find_project(p))

    tilesets = [_read_tileset(el, p, i, types) for i, el in enumerate(root.findall("tileset"))]
    tilesets.sort(key=lambda t: t.firstgid)

    def lookup(gid: int) -> tuple[Tileset, int] | None:
        base = gid & GID_MASK
        for ts in tilesets:
            if ts.contains(base):
                return ts, base - ts.firstgid
        return None

    # Check property values and tile data first, with clear messages.
    layer_data: dict[int, tuple[tuple[int, ...], ...]] = {}
    for el in root.iter():
        if el.tag in ("layer", "objectgroup", "imagelayer", "group"):
            _check_properties(el, p, f"layer '{el.get('name', '')}'")
        elif el.tag == "object":
            _check_properties(el, p, f"object '{el.get('name', '')}' (id {el.get('id', '?')})")
        if el.tag == "layer":
            where = f"layer '{el.get('name', '')}'"
            lw = _int_attr(el, "width", p, where, width)
            lh = _int_attr(el, "height", p, where, height)
            if (lw, lh) != (width, height):
                raise _err(p, where, f"layer is {lw} x {lh} tiles but the map is {width} x {height}")
            layer_data[id(el)] = _layer_data(el, p, where, width, height)

    templates = _Templates(p, tilesets, types)
    layers: list[Layer] = []
    painted: set[tuple[int, int]] = set()
    units: list[MapUnit] = []
    checked_tiles: set[int] = set()
    for el, ctx in _walk_layers(root, _Ctx(), p):
        name = el.get("name", "")
        lid = _int_attr(el, "id", p, f"layer '{name}'", 0)
        where = f"layer '{name}'"
        _check_properties(el, p, where)
        _float_attr(el, "opacity", p, where, 1.0)
        _float_attr(el, "offsetx", p, where, 0.0)
        _float_attr(el, "offsety", p, where, 0.0)
        offset = (ctx.ox, ctx.oy)
        if el.tag == "layer":
            gids = layer_data[id(el)]
            layer = TileLayer(name, lid, ctx.visible, ctx.opacity, offset, gids, _typed_props(el, types), ctx.tint)
            for col, row, gid in layer.cells():
                found = lookup(gid)
                if found is None:
                    raise _err(p, f"{where}, tile ({col},{row})",
                               f"gid {gid & GID_MASK} belongs to no tileset of the map")
                painted.add((col, row))
                ts, local = found
                key = gid & GID_MASK
                if key not in checked_tiles:
                    checked_tiles.add(key)
                    props = ts.properties.get(local, {})
                    src = ts.source or p
                    t_where = f"tileset '{ts.name}' tile {local} (gid {key}, used in {where} at ({col},{row}))"
                    if "terrain" in props:
                        value = props["terrain"]
                        if not isinstance(value, str):
                            raise _err(src, t_where, f"property 'terrain' should be a string, got {value!r}")
                        if value and value not in terrain_names:
                            raise _err(src, t_where, f"unknown terrain '{value}'; allowed: {', '.join(allowed)}")
                    if "road" in props and not isinstance(props["road"], bool):
                        raise _err(src, t_where, "property 'road' should be a bool (type=\"bool\" in Tiled), "
                                                 f"got {props['road']!r}")
            layers.append(layer)
        elif el.tag == "objectgroup":
            objects: list[MapObject] = []
            for obj_el in el.findall("object"):
                oid = _int_attr(obj_el, "id", p, f"{where}: object", 0)
                oname = obj_el.get("name", "")
                o_where = f"{where}: object " + (f"'{oname}' " if oname else "") + f"(id {oid})"
                mo = _read_object(obj_el, p, o_where, templates, lookup, types, ctx)
                check_object_geometry(mo, p, o_where)
                objects.append(mo)
                props = mo.properties
                if "unit_type" in props or "side" in props:
                    units.append(_unit_from_object(p, o_where, mo, name, layout, width, height))
            layers.append(ObjectLayer(name, lid, ctx.visible, ctx.opacity, offset, tuple(objects), ctx.tint))
        elif el.tag == "imagelayer":
            img = el.find("image")
            image: Path | None = None
            if img is not None and img.get("source"):
                image = safe_read.resolve(p.parent / img.get("source", ""), "image", origin=str(p), where=where)
                if not paths.exists(image):
                    raise _err(p, where, f"image '{img.get('source')}' not found (looked for {image})")
                check_image(image, p, where)
            layers.append(ImageLayer(name, lid, ctx.visible, ctx.opacity, offset, image, ctx.tint))

    if not any(isinstance(la, TileLayer) for la in layers):
        raise _err(p, "map", "empty map: it has no tile layer")
    md = MapData(path=p, width=width, height=height, tilewidth=tw, tileheight=th, hexsidelength=side,
                 stagger=stagger, layout=layout, layers=tuple(layers), tilesets=tuple(tilesets),
                 board=Board(width, height, stagger, {}, frozenset(), p.stem), units=tuple(units),
                 background=_colour(root.get("backgroundcolor")), properties=_typed_props(root, types),
                 painted=frozenset(painted))
    terrain, roads, _ = terrain_of_cells(md)
    board = board_from_cells(md, terrain, roads)
    md = replace(md, board=board)
    if terrain:  # a map with no terrain of its own gets it from a scenario, which checks the units
        check_units_on_board(md, board)
    else:
        seen: dict[Hex, MapUnit] = {}
        for u in units:
            if u.hex in seen:
                raise _err(p, u.describe(), f"stands on tile ({u.col},{u.row}) with {seen[u.hex].describe()}; "
                                            "one unit per hex")
            seen[u.hex] = u
    return md


def check_units_on_board(md: MapData, board: Board) -> None:
    """The map's unit objects stand on hexes of `board`, one per hex (GameFileError otherwise)."""
    seen_hexes: dict[Hex, MapUnit] = {}
    for u in md.units:
        if u.hex not in board:
            raise _err(md.path, u.describe(), f"stands on tile ({u.col},{u.row}), which has no terrain (off the board)")
        if u.hex in seen_hexes:
            raise _err(md.path, u.describe(), f"stands on tile ({u.col},{u.row}) with "
                                              f"{seen_hexes[u.hex].describe()}; one unit per hex")
        seen_hexes[u.hex] = u


# --------------------------------------------------------------------------- objects and templates

class _Templates:
    """Object templates (.tx) used by a map, read once each; their tile gids mapped to the map's."""

    def __init__(self, map_path: Path, tilesets: list[Tileset], types: PropertyTypes) -> None:
        self.map_path = map_path
        self.tilesets = tilesets  # the map's, in place: a template's tileset the map lacks is added
        self.types = types
        self.cache: dict[Path, tuple[ET.Element, int]] = {}

    def get(self, source: str, where: str) -> tuple[Path, ET.Element, int]:
        """(path, the template's <object>, gid of its tile in the map's numbering or 0)."""
        tx = (self.map_path.parent / source).resolve()
        if tx in self.cache:
            obj, gid = self.cache[tx]
            return tx, obj, gid
        if not paths.is_file(tx):
            raise _err(self.map_path, where, f"object template '{source}' not found (looked for {tx})")
        _refuse_json(tx, "object template")
        root = _parse_xml(tx, "object template")
        found = root.find("object")
        if root.tag != "template" or found is None:
            raise _err(tx, "", f"not a Tiled object template (root element <{root.tag}> with an <object>)")
        obj = found
        _check_properties(obj, tx, "template object")
        gid = 0
        raw = obj.get("gid")
        if raw:
            t_gid = _int_attr(obj, "gid", tx, "template object", minimum=0)
            ts_el = root.find("tileset")
            if ts_el is None or not ts_el.get("source"):
                raise _err(tx, "template object", "a tile template needs its <tileset source=...>")
            t_first = _int_attr(ts_el, "firstgid", tx, "<tileset>", minimum=1)
            ts_path = (tx.parent / ts_el.get("source", "")).resolve()
            ts = next((t for t in self.tilesets if t.source == ts_path), None)
            if ts is None:  # Tiled normally lists it in the map too; if not, give it the next gids
                first = max((t.firstgid + max(1, t.tilecount) for t in self.tilesets), default=1)
                ref = ET.Element("tileset", {"firstgid": str(first), "source": ts_el.get("source", "")})
                ts = _read_tileset(ref, tx, len(self.tilesets), self.types)
                self.tilesets.append(ts)
            flags = t_gid & ~GID_MASK
            gid = (ts.firstgid + (t_gid & GID_MASK) - t_first) | flags
        self.cache[tx] = (obj, gid)
        return tx, obj, gid


def _read_object(obj_el: ET.Element, p: Path, where: str, templates: _Templates,
                 lookup: Callable[[int], tuple[Tileset, int] | None], types: PropertyTypes, ctx: _Ctx) -> MapObject:
    """One object as Tiled means it: template values under the object's own, a tile object's
    tile properties under both, class member defaults under everything."""
    _check_properties(obj_el, p, where)
    oid = _int_attr(obj_el, "id", p, f"{where}", 0)
    tmpl_el: ET.Element | None = None
    tmpl_path: Path | None = None
    gid = 0
    if obj_el.get("template"):
        tmpl_path, tmpl_el, gid = templates.get(obj_el.get("template", ""), where)
    if obj_el.get("gid"):
        gid = _int_attr(obj_el, "gid", p, where, minimum=0)

    def attr(name: str) -> str | None:
        v = obj_el.get(name)
        if v is None and tmpl_el is not None:
            v = tmpl_el.get(name)
        return v

    def num(name: str) -> float:
        raw = attr(name)
        if raw is None:
            return 0.0
        try:
            value = float(raw)
        except ValueError:
            raise _err(p, where, f'attribute {name}="{raw}" should be a number') from None
        if not math.isfinite(value):
            raise _err(p, where, f'attribute {name}="{raw}" should be a finite number')
        return value

    tile_props: dict[str, Any] = {}
    tile_class = ""
    w, h = num("width"), num("height")
    if gid:
        found = lookup(gid)
        if found is None:
            raise _err(p, where, f"tile object: gid {gid & GID_MASK} belongs to no tileset of the map")
        ts, local = found
        tile_props = dict(ts.properties.get(local, {}))
        tile_props.pop("id", None)  # a tile's own id is not a unit's: only the object (or template) names it
        tile_class = ts.classes.get(local, "")
        if not (w and h):
            w, h = ts.tile_size(local)
    kind = obj_el.get("class") or obj_el.get("type") or (
        (tmpl_el.get("class") or tmpl_el.get("type")) if tmpl_el is not None else None) or tile_class or ""
    props = types.defaults(kind)
    props = _merge(props, tile_props)
    if tmpl_el is not None:
        props = _merge(props, _typed_props(tmpl_el, types, props))
    props = _merge(props, _typed_props(obj_el, types, props))
    x, y = num("x"), num("y")
    if gid:
        y -= h  # Tiled anchors a tile object at its bottom-left corner
    return MapObject(oid, attr("name") or "", kind, x + ctx.ox, y + ctx.oy, w, h, gid, props, tmpl_path)


def _unit_from_object(p: Path, where: str, mo: MapObject, layer: str, layout: HexLayout, width: int,
                      height: int) -> MapUnit:
    props = mo.properties
    for key in ("unit_type", "side"):
        if key not in props:
            raise _err(p, where, f"a unit object needs both 'unit_type' and 'side' properties; '{key}' is missing")
        if not isinstance(props[key], str) or not props[key]:
            raise _err(p, where, f"property '{key}' should be a non-empty string, got {props[key]!r}")
    uid = props.get("id")
    if isinstance(uid, int) and not isinstance(uid, bool):
        uid = str(uid)
    if uid == "":
        uid = None  # a class member left at its default: no id given
    if uid is not None and not isinstance(uid, str):
        raise _err(p, where, f"property 'id' should be a string, got {uid!r}")
    for key, value in (("unit_type", props["unit_type"]), ("side", props["side"]), ("id", uid or "")):
        bad = next((c for c in value if ord(c) < 32 or 127 <= ord(c) < 160), None)
        if bad is not None:  # (shown by the window, `render` and `run`: a NUL, an escape sequence)
            raise _err(p, where, f"property '{key}' holds a control character (U+{ord(bad):04X}); "
                                 "expected printable text")
    cx, cy = mo.centre
    col, row = layout.pixel_to_tile(cx, cy)
    if not (0 <= col < width and 0 <= row < height):
        raise _err(p, where, f"is off the map: pixel ({cx:g},{cy:g}) falls on tile ({col},{row}), "
                             f"outside the {width} x {height} map")
    return MapUnit(unit_type=props["unit_type"], side=props["side"], col=col, row=row,
                   hex=layout.stagger.to_hex(col, row), id=uid, layer=layer, object_id=mo.id,
                   object_name=mo.name)


def load_tileset(path: str | Path, terrain_names: Collection[str] | None = None) -> Tileset:
    """Load and check a Tiled tileset (.tsx): images exist, `terrain`/`road` properties are right."""
    p = safe_read.resolve(Path(path), "tileset file")
    if terrain_names is None:
        terrain_names = default_terrain_names()
    ref = ET.Element("tileset", {"firstgid": "1", "source": p.name})
    ts = _read_tileset(ref, p.parent / "_.tmx", 0, load_property_types(find_project(p)))
    allowed = ", ".join(sorted(terrain_names))
    for local, props in sorted(ts.properties.items()):
        where = f"tileset '{ts.name}' tile {local}"
        value = props.get("terrain")
        if value is not None:
            if not isinstance(value, str):
                raise _err(p, where, f"property 'terrain' should be a string, got {value!r}")
            if value and value not in terrain_names:
                raise _err(p, where, f"unknown terrain '{value}'; allowed: {allowed}")
        if "road" in props and not isinstance(props["road"], bool):
            raise _err(p, where, f"property 'road' should be a bool (type=\"bool\" in Tiled), got {props['road']!r}")
    return ts


# --------------------------------------------------------------------------- size checks
# Each runs before the work it protects: a map's size before anything is allocated for it, a
# layer's encoded size before it is decoded, an image's header before `play` loads it.


def check_map_size(width: int, height: int, tw: int, th: int, side: int, path: Path) -> None:
    """Tile counts and tile sizes `play` can hold, checked before any layer is decoded."""
    if width * height > MAX_MAP_CELLS:
        raise _err(path, "map", f"the map is {width:,} x {height:,} tiles; at most {MAX_MAP_CELLS:,} tiles "
                                "(e.g. 1000 x 1000) are supported")
    check_tile_size(tw, th, path, "map")
    if side > MAX_TILE_PX:
        raise _err(path, "map", f"hexsidelength {side:,} px is more than {MAX_TILE_PX} px")


def check_tile_size(tw: int, th: int, path: Path, where: str) -> None:
    if tw > MAX_TILE_PX or th > MAX_TILE_PX:
        raise _err(path, where, f"tiles of {tw:,} x {th:,} px; at most {MAX_TILE_PX} x {MAX_TILE_PX} px are "
                                "supported")


def check_map_pixels(layout: HexLayout, path: Path, hint: str = "use smaller tiles or fewer of them") -> None:
    """The whole map at zoom 1, checked right before a picture of all of it is drawn at full size
    (game.render: `render` at a scale of 1 or more, the window's picture of a map its region
    painter cannot draw piece by piece); never on loading, so `validate` and a scaled-down
    `render` of a large map are not refused. `hint` says what to do instead."""
    w, h = layout.map_pixel_size
    if w > MAX_MAP_SIDE_PX or h > MAX_MAP_SIDE_PX or w * h > MAX_MAP_PIXELS:
        raise _err(path, "map", f"the map is {w:,} x {h:,} px at zoom 1; the game draws at most "
                                f"{MAX_MAP_PIXELS:,} px (e.g. 5000 x 5000, each side at most {MAX_MAP_SIDE_PX:,}) "
                                f"at full size: {hint}")


def check_layer_data(text: str, encoding: str, compression: str | None, cells: int, path: Path,
                     where: str) -> None:
    """A layer's data cannot hold (or inflate to) more than `cells` gids: checked before decoding."""
    if encoding == "csv":
        if len(text) > cells * 16 + 4096:
            raise _err(path, where, f"tile data is {len(text):,} characters, too long for {cells:,} cells")
        return
    if encoding != "base64":
        return  # pytmx names the unknown encoding
    if len(text) > cells * 8 + 4096:
        raise _err(path, where, f"tile data is {len(text):,} characters, too long for {cells:,} cells")
    if compression not in ("zlib", "gzip"):
        return  # uncompressed (bounded by its length above) or a compression pytmx reports on
    try:
        raw = base64.b64decode(text)
        inflater = zlib.decompressobj(zlib.MAX_WBITS | 32)  # zlib or gzip header
        out = inflater.decompress(raw, cells * 4 + 1)
    except (binascii.Error, ValueError, zlib.error) as exc:
        raise _err(path, where, f"cannot decode tile data (base64/{compression}): {exc or type(exc).__name__}") \
            from None
    if len(out) > cells * 4 or inflater.unconsumed_tail:
        raise _err(path, where, f"tile data inflates to more than {cells * 4:,} bytes, the {cells:,} cells of "
                                "the layer (a damaged or hostile file)")


def check_object_geometry(obj: Any, path: Path, where: str) -> None:
    """An object's position and size are finite numbers `play` can draw."""
    for name in ("x", "y", "width", "height"):
        try:
            value = float(getattr(obj, name, 0) or 0)
        except (TypeError, ValueError, OverflowError):
            value = math.nan
        if not math.isfinite(value) or abs(value) > MAX_COORDINATE:
            raise _err(path, where, f"{name} should be a finite number between {-MAX_COORDINATE:g} and "
                                    f"{MAX_COORDINATE:g} px, got {cut(str(getattr(obj, name, '')), 40)}")
        if name in ("width", "height") and value < 0:
            raise _err(path, where, f"{name} should not be negative, got {value:g}")


def check_image(image: Path, origin: Path, where: str) -> None:
    """An image `play` can load: a regular file of a known format whose size is within bounds."""
    try:
        head = safe_read.read_bytes(image, "image", limit=safe_read.MAX_FILE_BYTES)[: 1 << 16]
    except GameFileError as exc:
        raise _err(origin, where, f"image {image.name}: {exc.message}") from None
    size: tuple[int, int] | None = None
    kind = ""
    if head.startswith(b"\x89PNG\r\n\x1a\n") and len(head) >= 24 and head[12:16] == b"IHDR":
        kind, size = "PNG", struct.unpack(">II", head[16:24])
    elif head[:6] in (b"GIF87a", b"GIF89a") and len(head) >= 10:
        kind, size = "GIF", struct.unpack("<HH", head[6:10])
    elif head.startswith(b"BM") and len(head) >= 26:
        w, h = struct.unpack("<ii", head[18:26])
        kind, size = "BMP", (abs(w), abs(h))
    elif head.startswith(b"\xff\xd8\xff"):
        kind, size = "JPEG", _jpeg_size(head)
    elif head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        kind, size = "WebP", _webp_size(head)
    if not kind:
        raise _err(origin, where, f"image {image.name} is not a PNG, JPEG, GIF, BMP or WebP image")
    if size is not None:
        w, h = size
        if w == 0 or h == 0:
            raise _err(origin, where, f"image {image.name} is empty ({w} x {h} px)")
        if w > MAX_IMAGE_SIDE_PX or h > MAX_IMAGE_SIDE_PX or w * h > MAX_IMAGE_PIXELS:
            raise _err(origin, where, f"image {image.name} is {w:,} x {h:,} px; at most {MAX_IMAGE_PIXELS:,} px "
                                      f"(e.g. 4096 x 4096) are supported")


def _jpeg_size(head: bytes) -> tuple[int, int] | None:
    i = 2
    while i + 9 < len(head):
        if head[i] != 0xFF:
            return None
        marker = head[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        length = int.from_bytes(head[i + 2:i + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return int.from_bytes(head[i + 7:i + 9], "big"), int.from_bytes(head[i + 5:i + 7], "big")
        i += 2 + length
    return None  # the size is further in: the file size limit still holds


def _webp_size(head: bytes) -> tuple[int, int] | None:
    chunk = head[12:16]
    if chunk == b"VP8X" and len(head) >= 30:
        return int.from_bytes(head[24:27], "little") + 1, int.from_bytes(head[27:30], "little") + 1
    if chunk == b"VP8L" and len(head) >= 25:
        bits = int.from_bytes(head[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8 " and len(head) >= 30:
        return int.from_bytes(head[26:28], "little") & 0x3FFF, int.from_bytes(head[28:30], "little") & 0x3FFF
    return None
