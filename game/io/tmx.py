"""Tiled hexagonal maps (.tmx) -> our own models. The ONLY module that imports pytmx.

`load_map(path)` returns a MapData: the map geometry (a HexLayout placing tiles exactly where
Tiled draws them), the tilesets (image paths only: images are loaded lazily by game.render, so
validation and the rules need no display), the layers in the FILE's own order (pytmx groups
layers by kind, so the order is read from the XML), the rules' Board and any units placed on an
object layer.

Map conventions (docs/formats.md#maps):
- orientation must be "hexagonal" (either stagger axis, either index; any tile size).
- terrain: tile custom property `terrain` (string, a name of the rules' terrain table). Every
  tile layer counts, visible or not; where layers overlap, the last layer in the file wins.
  A hex with no terrain tile is off the board.
- roads: tile custom property `road` (bool) = true on a tile of any tile layer marks the hex a
  road (the project tilesets have transparent road overlays carrying it).
- units: objects on any object layer with string properties `unit_type` and `side`
  (optional string `id`); the object's centre picks its hex.
"""

from __future__ import annotations

import math
import os
import xml.etree.ElementTree as ET
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pytmx  # noqa: E402
from pytmx import pytmx as _pytmx_impl  # noqa: E402

from game.board import Board  # noqa: E402
from game.errors import GameFileError, cut  # noqa: E402
from game.hexgrid import Hex, Stagger  # noqa: E402
from game.hexlayout import HexLayout  # noqa: E402
from game.io import safe_read  # noqa: E402

FLIP_H = 0x80000000
FLIP_V = 0x40000000
FLIP_D = 0x20000000
ROT_120 = 0x10000000
GID_MASK = 0x0FFFFFFF

_PROPERTY_TYPES = {"string", "int", "float", "bool", "color", "file", "object", "class"}

# What `play` can draw (docs/formats.md#limits): it renders the whole map at zoom 1 and keeps
# tileset images in memory, so `validate` refuses what would exhaust memory there.
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
    name: str
    id: int
    visible: bool
    opacity: float
    offset: tuple[float, float]
    gids: tuple[tuple[int, ...], ...]  # [row][col] raw Tiled gids (flip bits included); 0 = empty
    properties: Mapping[str, Any] = field(default_factory=dict)

    def cells(self) -> Iterator[tuple[int, int, int]]:
        """(col, row, raw gid) of every non-empty cell."""
        for row, line in enumerate(self.gids):
            for col, gid in enumerate(line):
                if gid:
                    yield col, row, gid


@dataclass(frozen=True)
class MapObject:
    id: int
    name: str
    kind: str  # Tiled's object class/type
    x: float
    y: float
    width: float
    height: float
    gid: int
    properties: Mapping[str, Any]

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.width / 2, self.y + self.height / 2


@dataclass(frozen=True)
class ObjectLayer:
    name: str
    id: int
    visible: bool
    opacity: float
    offset: tuple[float, float]
    objects: tuple[MapObject, ...]


@dataclass(frozen=True)
class ImageLayer:
    name: str
    id: int
    visible: bool
    opacity: float
    offset: tuple[float, float]
    image: Path | None


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

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def tile_layers(self) -> tuple[TileLayer, ...]:
        return tuple(la for la in self.layers if isinstance(la, TileLayer))

    def tileset_for(self, gid: int) -> tuple[Tileset, int] | None:
        """(tileset, local id) of a raw gid (flip bits ignored), or None."""
        base = gid & GID_MASK
        for ts in self.tilesets:
            if ts.contains(base):
                return ts, base - ts.firstgid
        return None


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
    """Every <property> under `el`'s own <properties> must have a valid type and value."""
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
            try:
                if kind == "int":
                    int(value)
                elif kind == "float":
                    float(value)
                elif kind == "bool" and value.strip().lower() not in ("true", "false", "1", "0"):
                    raise ValueError
            except ValueError:
                raise _err(path, here, f"has type {kind} but its value '{value}' is not a valid {kind}") from None


def _typed_props(el: ET.Element) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for props in el.findall("properties"):
        for prop in props.findall("property"):
            kind = prop.get("type", "string")
            value = prop.get("value")
            if value is None:
                value = prop.text or ""
            name = prop.get("name", "")
            if kind == "int":
                out[name] = int(value)
            elif kind == "float":
                out[name] = float(value)
            elif kind == "bool":
                out[name] = value.strip().lower() in ("true", "1")
            else:
                out[name] = value
    return out


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

def _read_tileset(ts_el: ET.Element, map_path: Path, index: int) -> Tileset:
    where0 = f"tileset #{index + 1}"
    firstgid = _int_attr(ts_el, "firstgid", map_path, where0, minimum=1)
    source = ts_el.get("source")
    tsx: Path | None = None
    file_path = map_path
    el = ts_el
    if source:
        tsx = safe_read.resolve(map_path.parent / source, "tileset file", origin=str(map_path), where=where0)
        if not tsx.exists():
            raise _err(map_path, f"{where0}", f"tileset file '{source}' not found (looked for {tsx})")
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
        if not image.exists():
            raise _err(file_path, where, f"tileset image '{src}' not found (looked for {image})")
        check_image(image, file_path, where)

    tile_images: dict[int, Path] = {}
    tile_sizes: dict[int, tuple[int, int]] = {}
    properties: dict[int, dict[str, Any]] = {}
    for tile in el.findall("tile"):
        tid = _int_attr(tile, "id", file_path, f"{where}: <tile>", minimum=0)
        here = f"{where}: tile {tid}"
        _check_properties(tile, file_path, here)
        props = _typed_props(tile)
        if props:
            properties[tid] = props
        t_img = tile.find("image")
        if t_img is not None:
            src = t_img.get("source")
            if not src:
                raise _err(file_path, here, "<image> has no source")
            p = safe_read.resolve(base_dir / src, "tile image", origin=str(file_path), where=here)
            if not p.exists():
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
                   render_size=render_size, fill_mode=fill_mode)


# --------------------------------------------------------------------------- layers

@dataclass
class _Ctx:
    visible: bool = True
    opacity: float = 1.0
    ox: float = 0.0
    oy: float = 0.0


def _layer_data(el: ET.Element, path: Path, where: str, width: int, height: int) -> tuple[tuple[int, ...], ...]:
    data = el.find("data")
    if data is None:
        raise _err(path, where, "tile layer has no <data>")
    if data.findall("chunk"):
        raise _err(path, where, "infinite maps (chunked data) are not supported: untick 'Infinite' in Map Properties")
    encoding = data.get("encoding")
    compression = data.get("compression")
    if encoding is None:
        raise _err(path, where, "tile data is stored as XML <tile> elements; set the layer format to CSV or "
                                "Base64 in Map Properties")
    text = (data.text or "").strip()
    check_layer_data(text, encoding, compression, width * height, path, where)
    try:
        gids = _pytmx_impl.unpack_gids(text=text, encoding=encoding, compression=compression)
    except Exception as exc:  # noqa: BLE001 - any decoding failure is a bad file
        raise _err(path, where, f"cannot decode tile data ({encoding}{'/' + compression if compression else ''}): "
                                f"{exc or type(exc).__name__}") from None
    if gids is None or len(gids) != width * height:
        got = 0 if gids is None else len(gids)
        raise _err(path, where, f"tile data has {got} cells; expected {width} x {height} = {width * height}")
    return tuple(tuple(gids[r * width:(r + 1) * width]) for r in range(height))


def _walk_layers(parent: ET.Element, ctx: _Ctx) -> Iterator[tuple[ET.Element, _Ctx]]:
    """Layer elements in file order (depth first through groups), with inherited display state."""
    for el in parent:
        if el.tag not in ("layer", "objectgroup", "imagelayer", "group"):
            continue
        visible = ctx.visible and el.get("visible", "1") != "0"
        try:
            opacity = ctx.opacity * float(el.get("opacity", "1"))
            ox = ctx.ox + float(el.get("offsetx", "0"))
            oy = ctx.oy + float(el.get("offsety", "0"))
        except ValueError:
            opacity, ox, oy = ctx.opacity, ctx.ox, ctx.oy  # reported by the caller's checks
        here = _Ctx(visible, max(0.0, min(1.0, opacity)), ox, oy)
        if el.tag == "group":
            yield from _walk_layers(el, here)
        else:
            yield el, here


# --------------------------------------------------------------------------- the loader

def load_map(path: str | Path, terrain_names: Collection[str] | None = None) -> MapData:
    """Load and check a Tiled hexagonal map. Raises GameFileError naming file, place and problem."""
    p = Path(path)
    if terrain_names is None:
        from game.io.datafiles import load_rules
        terrain_names = set(load_rules().terrain)
    allowed = sorted(terrain_names)
    root = _parse_xml(p, "map file")
    if root.tag != "map":
        raise _err(p, "", f"not a Tiled map (root element <{root.tag}>, expected <map>)")
    orientation = root.get("orientation", "orthogonal")
    if orientation != "hexagonal":
        raise _err(p, "map", f"orientation is '{orientation}'; this game needs a hexagonal map "
                             "(Map Properties > Orientation: Hexagonal)")
    if root.get("infinite", "0") == "1":
        raise _err(p, "map", "infinite maps are not supported: untick 'Infinite' in Map Properties")
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
    check_map_pixels(layout, p)
    _check_properties(root, p, "map")

    tilesets = [_read_tileset(el, p, i) for i, el in enumerate(root.findall("tileset"))]
    tilesets.sort(key=lambda t: t.firstgid)

    def lookup(gid: int) -> tuple[Tileset, int] | None:
        base = gid & GID_MASK
        for ts in tilesets:
            if ts.contains(base):
                return ts, base - ts.firstgid
        return None

    # Check what pytmx would stumble on (property values, tile data) first, with clear messages.
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

    # Let pytmx read the map too: tilesets, tile properties and objects come from it.
    try:
        tiled = pytmx.TiledMap(str(p), allow_duplicate_names=True)
    except GameFileError:
        raise
    except Exception as exc:  # noqa: BLE001 - pytmx raises bare Exceptions for bad files
        raise _err(p, "", f"Tiled map could not be read: {exc}") from None
    pytmx_groups = [la for la in tiled.layers if isinstance(la, pytmx.TiledObjectGroup)]
    og_index = {id(el): i for i, el in enumerate(root.findall(".//objectgroup"))}

    layers: list[Layer] = []
    terrain: dict[tuple[int, int], str] = {}
    roads: set[tuple[int, int]] = set()
    units: list[MapUnit] = []
    checked_tiles: set[int] = set()
    for el, ctx in _walk_layers(root, _Ctx()):
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
            layer = TileLayer(name, lid, ctx.visible, ctx.opacity, offset, gids, _typed_props(el))
            for col, row, gid in layer.cells():
                found = lookup(gid)
                if found is None:
                    raise _err(p, f"{where}, tile ({col},{row})",
                               f"gid {gid & GID_MASK} belongs to no tileset of the map")
                ts, local = found
                props = ts.properties.get(local, {})
                key = gid & GID_MASK
                if key not in checked_tiles:
                    checked_tiles.add(key)
                    src = ts.source or p
                    t_where = f"tileset '{ts.name}' tile {local} (gid {key}, used in {where} at ({col},{row}))"
                    if "terrain" in props:
                        value = props["terrain"]
                        if not isinstance(value, str):
                            raise _err(src, t_where, f"property 'terrain' should be a string, got {value!r}")
                        if value not in terrain_names:
                            raise _err(src, t_where, f"unknown terrain '{value}'; allowed: {', '.join(allowed)}")
                    if "road" in props and not isinstance(props["road"], bool):
                        raise _err(src, t_where, "property 'road' should be a bool (type=\"bool\" in Tiled), "
                                                 f"got {props['road']!r}")
                if "terrain" in props:
                    terrain[(col, row)] = props["terrain"]
                if props.get("road") is True:
                    roads.add((col, row))
            layers.append(layer)
        elif el.tag == "objectgroup":
            group = pytmx_groups[og_index[id(el)]] if id(el) in og_index else []
            objects: list[MapObject] = []
            for obj_el, obj in zip(el.findall("object"), group, strict=False):
                oid = _int_attr(obj_el, "id", p, f"{where}: object", 0)
                oname = obj_el.get("name", "")
                o_where = f"{where}: object " + (f"'{oname}' " if oname else "") + f"(id {oid})"
                _check_properties(obj_el, p, o_where)
                props = dict(obj.properties)
                check_object_geometry(obj, p, o_where)
                mo = MapObject(oid, oname, obj_el.get("type") or obj_el.get("class") or "",
                               float(obj.x) + ctx.ox, float(obj.y) + ctx.oy, float(obj.width or 0),
                               float(obj.height or 0), int(obj_el.get("gid", "0") or 0), props)
                objects.append(mo)
                if "unit_type" in props or "side" in props:
                    units.append(_unit_from_object(p, o_where, mo, name, layout, width, height))
            layers.append(ObjectLayer(name, lid, ctx.visible, ctx.opacity, offset, tuple(objects)))
        elif el.tag == "imagelayer":
            img = el.find("image")
            image: Path | None = None
            if img is not None and img.get("source"):
                image = safe_read.resolve(p.parent / img.get("source", ""), "image", origin=str(p), where=where)
                if not image.exists():
                    raise _err(p, where, f"image '{img.get('source')}' not found (looked for {image})")
                check_image(image, p, where)
            layers.append(ImageLayer(name, lid, ctx.visible, ctx.opacity, offset, image))

    if not any(isinstance(la, TileLayer) for la in layers):
        raise _err(p, "map", "empty map: it has no tile layer")
    if not terrain:
        raise _err(p, "map", "empty map: no tile carries a 'terrain' property (paint it with the project "
                             "tilesets in assets/tiles/, or give your tiles a 'terrain' property)")
    board_terrain = {stagger.to_hex(c, r): t for (c, r), t in terrain.items()}
    board_roads = frozenset(stagger.to_hex(c, r) for c, r in roads if (c, r) in terrain)
    board = Board(width, height, stagger, board_terrain, board_roads, p.stem)
    seen_hexes: dict[Hex, MapUnit] = {}
    for u in units:
        if u.hex not in board:
            raise _err(p, u.describe(), f"stands on tile ({u.col},{u.row}), which has no terrain (off the board)")
        if u.hex in seen_hexes:
            raise _err(p, u.describe(), f"stands on tile ({u.col},{u.row}) with {seen_hexes[u.hex].describe()}; "
                                        "one unit per hex")
        seen_hexes[u.hex] = u
    return MapData(path=p, width=width, height=height, tilewidth=tw, tileheight=th, hexsidelength=side,
                   stagger=stagger, layout=layout, layers=tuple(layers), tilesets=tuple(tilesets), board=board,
                   units=tuple(units), background=_colour(root.get("backgroundcolor")),
                   properties=_typed_props(root))


def _unit_from_object(p: Path, where: str, mo: MapObject, layer: str, layout: HexLayout, width: int,
                      height: int) -> MapUnit:
    props = mo.properties
    for key in ("unit_type", "side"):
        if key not in props:
            raise _err(p, where, f"a unit object needs both 'unit_type' and 'side' properties; '{key}' is missing")
        if not isinstance(props[key], str) or not props[key]:
            raise _err(p, where, f"property '{key}' should be a non-empty string, got {props[key]!r}")
    uid = props.get("id")
    if uid is not None and (not isinstance(uid, str) or not uid):
        raise _err(p, where, f"property 'id' should be a non-empty string, got {uid!r}")
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
        from game.io.datafiles import load_rules
        terrain_names = set(load_rules().terrain)
    ref = ET.Element("tileset", {"firstgid": "1", "source": p.name})
    ts = _read_tileset(ref, p.parent / "_.tmx", 0)
    allowed = ", ".join(sorted(terrain_names))
    for local, props in sorted(ts.properties.items()):
        where = f"tileset '{ts.name}' tile {local}"
        value = props.get("terrain")
        if value is not None:
            if not isinstance(value, str):
                raise _err(p, where, f"property 'terrain' should be a string, got {value!r}")
            if value not in terrain_names:
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


def check_map_pixels(layout: HexLayout, path: Path) -> None:
    """The whole map at zoom 1, which `play` draws into one picture."""
    w, h = layout.map_pixel_size
    if w > MAX_MAP_SIDE_PX or h > MAX_MAP_SIDE_PX or w * h > MAX_MAP_PIXELS:
        raise _err(path, "map", f"the map is {w:,} x {h:,} px at zoom 1; the game draws at most "
                                f"{MAX_MAP_PIXELS:,} px (e.g. 5000 x 5000, each side at most {MAX_MAP_SIDE_PX:,}): "
                                "use smaller tiles or fewer of them")


def check_layer_data(text: str, encoding: str, compression: str | None, cells: int, path: Path,
                     where: str) -> None:
    """A layer's data cannot hold (or inflate to) more than `cells` gids: checked before decoding."""
    import base64
    import binascii
    import zlib

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
    import struct

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
