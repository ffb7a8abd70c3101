"""The static map picture: every visible layer of a Tiled map, in file order, at Tiled's positions.

Tile images are loaded lazily (first render) and cached per tileset image; the full-size
(scale 1) picture is cached per MapData, and other scales are smooth-scaled from it, so a zoom
level costs one scale operation (`_render_base(md, scale)` can also draw every tile at a scale
directly). Works headless: no display is needed.
"""

from __future__ import annotations

import math
import threading
import weakref
from pathlib import Path
from typing import Any

import pygame

from game.core.errors import GameFileError
from game.io.tmx import (
    FLIP_D,
    FLIP_H,
    FLIP_V,
    GID_MASK,
    ROT_120,
    ImageLayer,
    MapData,
    ObjectLayer,
    TileLayer,
    Tileset,
    check_map_pixels,
)

# What to do when a map is too large to draw whole at full size (tmx.check_map_pixels).
FULL_SIZE_HINT = "draw it smaller (render --scale below 1, e.g. 0.25), or use smaller tiles or fewer of them"

_images: dict[Path, pygame.Surface] = {}
_tiles: dict[tuple[object, ...], pygame.Surface] = {}
_placed_cache: dict[tuple[object, ...], pygame.Surface] = {}
_base_cache: weakref.WeakKeyDictionary[MapData, dict[bool, pygame.Surface]] = weakref.WeakKeyDictionary()


class _Decoding(threading.Thread):
    """Image files decoded one after another on a thread of their own: SDL_image lets go of
    Python's lock while it decodes, so the decoding runs beside the start-up's Python work on
    another core. Each file's picture (or its error) is kept until `_load_image` takes it."""

    def __init__(self, files: list[Path]) -> None:
        super().__init__(name="decode tile sheets", daemon=True)
        self.files = files
        self.done = {f: threading.Event() for f in files}
        self.results: dict[Path, pygame.Surface | BaseException] = {}

    def run(self) -> None:
        for f in self.files:
            try:
                self.results[f] = pygame.image.load(str(f))
            except BaseException as exc:  # (handed to _load_image, which reports it as before)
                self.results[f] = exc
            self.done[f].set()

    def take(self, path: Path) -> pygame.Surface:
        self.done[path].wait()
        got = self.results.pop(path)
        if isinstance(got, BaseException):
            raise got
        return got


_decoding: dict[Path, _Decoding] = {}  # a file being decoded -> its thread


def prefetch(md: MapData) -> None:
    """Start decoding the tile sheets `md`'s tilesets cut their tiles from (not the single-image
    tiles of image collections: a map may have hundreds), on a thread, while the window opens:
    the default map's sheet is 4 ms of the first frame otherwise. `_load_image` waits for what
    it needs; decoding errors are reported there, exactly as without this."""
    files = list(dict.fromkeys(ts.image for ts in md.tilesets if ts.image is not None))
    files = [f for f in files if f not in _images and f not in _decoding]
    if files:
        worker = _Decoding(files)
        for f in files:
            _decoding[f] = worker
        worker.start()


def _load_image(path: Path) -> pygame.Surface:
    img = _images.get(path)
    if img is None:
        try:
            worker = _decoding.pop(path, None)
            img = worker.take(path) if worker is not None else pygame.image.load(str(path))
        except (pygame.error, FileNotFoundError, OSError) as exc:
            raise GameFileError(str(path), "", f"cannot load image: {exc}") from None
        if pygame.display.get_init() and pygame.display.get_surface() is not None:
            img = img.convert_alpha()
        _images[path] = img
    return img


def tile_image(ts: Tileset, local_id: int, flags: int = 0) -> pygame.Surface:
    """The image of one tile of a tileset, with Tiled's flip/rotation flags applied."""
    key = (ts.image, ts.tile_images.get(local_id), ts.tile_rect(local_id), flags)
    img = _tiles.get(key)
    if img is not None:
        return img
    if local_id in ts.tile_images:
        img = _load_image(ts.tile_images[local_id])
    else:
        if ts.image is None:
            raise GameFileError(str(ts.source or ""), f"tileset '{ts.name}'", f"tile {local_id} has no image")
        sheet = _load_image(ts.image)
        x, y, w, h = ts.tile_rect(local_id)
        rect = pygame.Rect(x, y, w, h).clip(sheet.get_rect())
        img = sheet.subsurface(rect).copy()
    if flags & (FLIP_H | FLIP_V):
        img = pygame.transform.flip(img, bool(flags & FLIP_H), bool(flags & FLIP_V))
    angle = (60 if flags & FLIP_D else 0) + (120 if flags & ROT_120 else 0)  # hex maps: rotation bits
    if angle:
        img = rotate_smooth(img, angle)
    _tiles[key] = img
    return img


def rotate_smooth(img: pygame.Surface, degrees: float) -> pygame.Surface:
    """`img` turned clockwise by `degrees` about its exact centre, on a canvas of its own size,
    each pixel sampled bilinearly (premultiplied alpha) as Tiled's smooth transform does; pygame's
    own rotate is jagged (nearest pixel) and rotozoom shifts the centre by growing the canvas."""
    w, h = img.get_size()
    src = pygame.image.tobytes(img, "RGBA")
    pre = [0.0] * (w * h * 4)
    for i in range(w * h):
        a = src[4 * i + 3] / 255
        pre[4 * i:4 * i + 4] = (src[4 * i] * a, src[4 * i + 1] * a, src[4 * i + 2] * a, float(src[4 * i + 3]))
    rad = math.radians(degrees)
    cos, sin = math.cos(rad), math.sin(rad)
    cx, cy = w / 2, h / 2
    out = bytearray(w * h * 4)

    def at(x: int, y: int) -> tuple[float, float, float, float]:
        if 0 <= x < w and 0 <= y < h:
            j = 4 * (y * w + x)
            return pre[j], pre[j + 1], pre[j + 2], pre[j + 3]
        return 0.0, 0.0, 0.0, 0.0

    for y in range(h):
        for x in range(w):
            dx, dy = x + 0.5 - cx, y + 0.5 - cy
            sx = cos * dx + sin * dy + cx - 0.5  # the inverse turn, in pixel-centre coordinates
            sy = -sin * dx + cos * dy + cy - 0.5
            x0, y0 = math.floor(sx), math.floor(sy)
            fx, fy = sx - x0, sy - y0
            p00, p10, p01, p11 = at(x0, y0), at(x0 + 1, y0), at(x0, y0 + 1), at(x0 + 1, y0 + 1)
            r, g, b, a = (p00[k] * (1 - fx) * (1 - fy) + p10[k] * fx * (1 - fy) + p01[k] * (1 - fx) * fy
                          + p11[k] * fx * fy for k in range(4))
            j = 4 * (y * w + x)
            if a > 0.5:
                k = 255 / a
                out[j:j + 4] = bytes((min(255, round(r * k)), min(255, round(g * k)), min(255, round(b * k)),
                                      min(255, round(a))))
    return pygame.image.frombytes(bytes(out), (w, h), "RGBA")


def _placed(ts: Tileset, local: int, flags: int, md: MapData, scale: float) -> pygame.Surface:
    """A tile image at the size it is drawn: its own size, or the grid cell's (tilerendersize=grid),
    times `scale` (cached)."""
    key = (ts.image, ts.tile_images.get(local), ts.tile_rect(local), flags, ts.render_size, ts.fill_mode,
           md.tilewidth, md.tileheight, scale)
    img = _placed_cache.get(key)
    if img is not None:
        return img
    img = tile_image(ts, local, flags)
    w, h = img.get_size()
    if ts.render_size == "grid":
        gw, gh = md.tilewidth, md.tileheight
        if ts.fill_mode == "preserve-aspect-fit":
            k = min(gw / w, gh / h)
            fitted = pygame.transform.smoothscale(img, (max(1, round(w * k)), max(1, round(h * k))))
            img = pygame.Surface((gw, gh), pygame.SRCALPHA)
            img.blit(fitted, fitted.get_rect(center=(gw // 2, gh // 2)))
        elif (w, h) != (gw, gh):
            img = pygame.transform.smoothscale(img, (gw, gh))
        w, h = gw, gh
    if scale != 1:
        img = pygame.transform.smoothscale(img, (max(1, round(w * scale)), max(1, round(h * scale))))
    if len(_placed_cache) > 4096:
        _placed_cache.clear()
    _placed_cache[key] = img
    return img


def layer_margins(md: MapData) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) pixels the picture grows by so that visible layers shifted by
    their offsets are not clipped, as Tiled grows its canvas (0s when no layer moves outwards)."""
    left = top = right = bottom = 0
    for la in md.layers:
        if not la.visible:
            continue
        ox, oy = la.offset
        left, top = max(left, math.ceil(-ox)), max(top, math.ceil(-oy))
        right, bottom = max(right, math.ceil(ox)), max(bottom, math.ceil(oy))
    return left, top, right, bottom


_Placement = tuple[Tileset, int, int, float, float]  # (tileset, local id, flip flags, x, y) of a cell's tile


def _tile_at(md: Any, lay: Any, gid: int, col: int, row: int) -> _Placement | None:
    """The tile a cell's gid draws, and where Tiled puts its image: (tileset, local id, flip flags,
    x, y), or None for an empty cell or a gid no tileset holds."""
    if not gid:
        return None
    found = md.tileset_for(gid)
    if found is None:
        return None
    ts, local = found
    flags = gid & ~GID_MASK
    height = ts.tile_size(local)[1] if ts.render_size == "tile" else md.tileheight
    if ts.render_size == "tile" and local in ts.tile_images:
        height = tile_image(ts, local, flags).get_height()
    x, y = lay.tile_image_position(col, row, height, ts.offset)
    return ts, local, flags, x, y


def _draw_tile_layer(target: pygame.Surface, md: MapData, layer: TileLayer, scale: float = 1.0,
                     shift: tuple[int, int] = (0, 0)) -> None:
    """Draw a whole tile layer, in Tiled's order: row by row; on x-staggered maps the upper
    half-row first (MapRegions.draw draws parts of it, in the same order, from its index)."""
    lay = md.layout
    ox, oy = layer.offset[0] + shift[0], layer.offset[1] + shift[1]
    cols = ([c for c in range(md.width) if not lay.staggered(c)] + [c for c in range(md.width) if lay.staggered(c)]
            if md.stagger.axis == "x" else list(range(md.width)))
    for row in range(md.height):
        for col in cols:
            placed = _tile_at(md, lay, layer.gids[row][col], col, row)
            if placed is None:
                continue
            ts, local, flags, x, y = placed
            target.blit(_placed(ts, local, flags, md, scale), _tile_dest(x, y, ox, oy, scale, 0, 0))


def _tile_dest(x: float, y: float, ox: float, oy: float, scale: float, dx: int, dy: int) -> tuple[float, float]:
    """Where a tile image placed at (x, y) of a layer shifted by (ox, oy) lands on a target whose
    top-left is (dx, dy) of the map drawn at `scale` (one formula for the whole picture and the
    regions, so both put every tile on the same pixel)."""
    if scale == 1:
        return x + round(ox) - dx, y + round(oy) - dy
    return round((x + ox) * scale) - dx, round((y + oy) * scale) - dy


def _draw_objects(target: pygame.Surface, md: MapData, layer: ObjectLayer, scale: float = 1.0,
                  shift: tuple[int, int] = (0, 0)) -> None:
    """Tile objects (objects showing a tile image); other shapes are editor-only and not drawn."""
    sx, sy = shift
    for obj in layer.objects:
        if not obj.gid:
            continue
        found = md.tileset_for(obj.gid)
        if found is None:
            continue
        ts, local = found
        img = tile_image(ts, local, obj.gid & ~GID_MASK)
        w, h = (obj.width, obj.height) if obj.width and obj.height else img.get_size()
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        if size != img.get_size():
            img = pygame.transform.smoothscale(img, size)
        target.blit(img, (round((obj.x + ts.offset[0] + sx) * scale), round((obj.y + ts.offset[1] + sy) * scale)))


def _render_base(md: MapData, scale: float = 1.0, grow: bool = False,
                 backdrop: tuple[int, int, int] | None = None) -> pygame.Surface:
    """Every visible layer. `grow`: the canvas grows by `layer_margins` (the map at (left, top)).
    `backdrop`: drawn straight onto an opaque surface of that colour (one surface, no alpha), as
    the client shows it; else a transparent one."""
    if scale >= 1:  # the whole map at full size (a closer zoom is this picture scaled up)
        check_map_pixels(md.layout, md.path, FULL_SIZE_HINT)
    mw, mh = md.layout.map_pixel_size
    left, top, right, bottom = layer_margins(md) if grow else (0, 0, 0, 0)
    mw, mh = mw + left + right, mh + top + bottom
    shift = (left, top)
    w, h = (mw, mh) if scale == 1 else (max(1, round(mw * scale)), max(1, round(mh * scale)))
    if backdrop is not None:
        surf = pygame.Surface((w, h))
        surf.fill(md.background if md.background is not None else backdrop)
    else:
        surf = pygame.Surface((w, h), pygame.SRCALPHA)
        if md.background is not None:
            surf.fill((*md.background, 255))
    for layer in md.layers:
        if not layer.visible or layer.opacity <= 0:
            continue
        target = surf
        if layer.opacity < 1 or layer.tint is not None:
            target = pygame.Surface((w, h), pygame.SRCALPHA)
        if isinstance(layer, TileLayer):
            _draw_tile_layer(target, md, layer, scale, shift)
        elif isinstance(layer, ObjectLayer):
            _draw_objects(target, md, layer, scale, shift)
        elif isinstance(layer, ImageLayer) and layer.image is not None:
            img = _load_image(layer.image)
            if scale != 1:
                iw, ih = img.get_size()
                img = pygame.transform.smoothscale(img, (max(1, round(iw * scale)), max(1, round(ih * scale))))
            target.blit(img, (round((layer.offset[0] + left) * scale), round((layer.offset[1] + top) * scale)))
        if target is not surf:
            if layer.tint is not None:  # Tiled multiplies every pixel of the layer by its tint colour
                target.fill(layer.tint, special_flags=pygame.BLEND_RGBA_MULT)
            if layer.opacity < 1:
                target.set_alpha(round(255 * layer.opacity))
            surf.blit(target, (0, 0))
    return surf


def render_map_layer(map_data: MapData, scale: float = 1.0, grow: bool = False) -> pygame.Surface:
    """All visible layers of the map in file order; at scale 1 exactly the map's pixel size, or
    with `grow` that size plus `layer_margins` (layers offset outwards kept whole, as in Tiled;
    the map's own pixel (0, 0) is then at (left, top) * scale).

    The result is a new surface the caller may keep or change (the client caches one per zoom).
    """
    if not (scale > 0 and math.isfinite(scale)):
        raise ValueError(f"scale must be a positive number, got {scale}")
    base = _base_cache.get(map_data, {}).get(grow)
    if base is None:
        if scale < 1:
            # Drawn at the target scale, each tile scaled once: the full-size picture of a huge map
            # is never made (a 500 x 500 map at 0.1 needs a few MB, not gigabytes).
            return _render_base(map_data, scale, grow=grow)
        if scale != 1:  # zoomed in: drawn once at full size and scaled, not kept
            return _scaled(_render_base(map_data, grow=grow), scale)
        base = _render_base(map_data, grow=grow)
        _base_cache.setdefault(map_data, {})[grow] = base
    if scale == 1:
        return base.copy()
    # A full-size picture is kept already: one smooth scale of it.
    return _scaled(base, scale)


def _scaled(base: pygame.Surface, scale: float) -> pygame.Surface:
    w, h = base.get_size()
    return pygame.transform.smoothscale(base, (max(1, round(w * scale)), max(1, round(h * scale))))


def render_map_picture(map_data: MapData, backdrop: tuple[int, int, int]) -> pygame.Surface:
    """The map at zoom 1 on an opaque `backdrop`, drawn straight into the one surface returned and
    not kept here (the client's map cache holds the only copy)."""
    return _render_base(map_data, backdrop=backdrop)


REGION_BUCKET = 256  # map pixels per side of a bucket of the tile index used by MapRegions
EXTRA_IMAGES_PX = 32_000_000  # scaled tile-object and image-layer images a MapRegions keeps (~128 MB)
FULL_INDEX_CELLS = 64 * 64  # maps up to this many cells build their whole tile index at once


class MapRegions:
    """Parts of the map picture drawn on demand, at any scale, without ever drawing the whole map:
    what the client's map cache asks for, one chunk of the view at a time. Each tile is drawn
    straight at the target scale (its image scaled once per scale, cached). Pixel for pixel this is
    the map Tiled draws, as `render_map_layer` gives, up to the rounding of scaled tile edges.

    Tile layers are drawn from an index of the tiles each part of the map holds; tile objects and
    image layers (few, as a rule) are each drawn when their box meets the part asked for, each image
    scaled once per scale. Any map can be drawn so (`supported`): a map too large to draw whole at
    full size (tmx.check_map_pixels) is still shown, part by part."""

    def __init__(self, md: MapData) -> None:
        self.md = md
        self._index: list[_LayerBuckets] | list[dict[tuple[int, int], list[tuple[int, int, int]]]] | None = None
        # each cell's tile and place per layer (`_tile_at`), and each tile image per scale, worked
        # out once: neighbouring chunks and buckets look at the same cells again
        self._cells: dict[tuple[int, int, int], _Placement | None] = {}
        self._images: dict[tuple[int, int, int, float], pygame.Surface] = {}
        self._extra: dict[tuple[object, ...], pygame.Surface] = {}  # tile objects', image layers' images by size
        self._extra_px = 0  # their pixels, kept under EXTRA_IMAGES_PX

    def placement(self, li: int, col: int, row: int) -> _Placement | None:
        """The tile cell (col, row) of layer number `li` draws and where (`_tile_at`), or None."""
        key = (li, col, row)
        try:
            return self._cells[key]
        except KeyError:
            layer = self.md.layers[li]
            assert isinstance(layer, TileLayer)
            found = self._cells[key] = _tile_at(self.md, self.md.layout, layer.gids[row][col], col, row)
            return found

    def image(self, ts: Tileset, local: int, flags: int, scale: float) -> pygame.Surface:
        """`_placed`, kept per map (the tileset by identity: the map holds it)."""
        key = (id(ts), local, flags, scale)
        img = self._images.get(key)
        if img is None:
            img = self._images[key] = _placed(ts, local, flags, self.md, scale)
        return img

    @staticmethod
    def supported(md: MapData) -> bool:
        return all(isinstance(la, (TileLayer, ObjectLayer, ImageLayer)) or not la.visible or la.opacity <= 0
                   for la in md.layers)

    def _scaled_image(self, key: tuple[object, ...], img: pygame.Surface, size: tuple[int, int]) -> pygame.Surface:
        """`img` at `size` (smooth-scaled as the full picture scales it), kept per key and size."""
        if size == img.get_size():
            return img
        full = (*key, size)
        out = self._extra.get(full)
        if out is None:
            if self._extra_px + size[0] * size[1] > EXTRA_IMAGES_PX:  # (zoomed through many scales)
                self._extra.clear()
                self._extra_px = 0
            out = self._extra[full] = pygame.transform.smoothscale(img, size)
            self._extra_px += size[0] * size[1]
        return out

    def _objects_in(self, layer: ObjectLayer, scale: float, area: pygame.Rect
                    ) -> list[tuple[pygame.Surface, tuple[int, int]]]:
        """The tile objects of `layer` whose picture at `scale` meets `area`, placed as
        `_draw_objects` places them on the whole map, less the area's corner."""
        out: list[tuple[pygame.Surface, tuple[int, int]]] = []
        for obj in layer.objects:
            if not obj.gid:
                continue
            found = self.md.tileset_for(obj.gid)
            if found is None:
                continue
            ts, local = found
            flags = obj.gid & ~GID_MASK
            img = tile_image(ts, local, flags)
            w, h = (obj.width, obj.height) if obj.width and obj.height else img.get_size()
            size = (max(1, round(w * scale)), max(1, round(h * scale)))
            x, y = round((obj.x + ts.offset[0]) * scale), round((obj.y + ts.offset[1]) * scale)
            if not area.colliderect(pygame.Rect(x, y, size[0], size[1])):
                continue
            out.append((self._scaled_image(("tile", id(ts), local, flags), img, size), (x - area.x, y - area.y)))
        return out

    def _image_layer_in(self, layer: ImageLayer, scale: float, area: pygame.Rect
                        ) -> list[tuple[pygame.Surface, tuple[int, int]]]:
        """The part of an image layer's picture at `scale` that meets `area` (placed as
        `_render_base` places the layer): only that part of the image is scaled, never all of it."""
        if layer.image is None:
            return []
        img = _load_image(layer.image)
        iw, ih = img.get_size()
        ox, oy = layer.offset
        x, y = round(ox * scale), round(oy * scale)
        if not area.colliderect(pygame.Rect(x, y, max(1, round(iw * scale)), max(1, round(ih * scale)))):
            return []
        if scale == 1:
            return [(img, (x - area.x, y - area.y))]
        # the image's pixels under the area, one pixel of margin for the smoothing at the edges
        sx0 = max(0, math.floor(area.x / scale - ox) - 1)
        sy0 = max(0, math.floor(area.y / scale - oy) - 1)
        sx1 = min(iw, math.ceil(area.right / scale - ox) + 1)
        sy1 = min(ih, math.ceil(area.bottom / scale - oy) + 1)
        if sx1 <= sx0 or sy1 <= sy0:
            return []
        piece = img.subsurface(pygame.Rect(sx0, sy0, sx1 - sx0, sy1 - sy0))
        size = (max(1, round((sx1 - sx0) * scale)), max(1, round((sy1 - sy0) * scale)))
        return [(pygame.transform.smoothscale(piece, size),
                 (round((ox + sx0) * scale) - area.x, round((oy + sy0) * scale) - area.y))]

    def _build_index(self) -> list[_LayerBuckets]:
        """Per layer, the tiles each bucket holds, worked out per bucket when a chunk first needs
        it (`_LayerBuckets`): the same entries as `_build_full_index`, without going over every
        cell of the map when a battle opens."""
        reach = _tile_reach(self.md)
        return [_LayerBuckets(self, li, reach) for li in range(len(self.md.layers))]

    def _build_full_index(self) -> list[dict[tuple[int, int], list[tuple[int, int, int]]]]:
        """Every bucket of every layer at once (the straightforward index: the tests' oracle)."""
        md, lay = self.md, self.md.layout
        index: list[dict[tuple[int, int], list[tuple[int, int, int]]]] = []
        staggered_x = md.stagger.axis == "x"
        for li, layer in enumerate(md.layers):
            buckets: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
            index.append(buckets)
            if not isinstance(layer, TileLayer) or not layer.visible or layer.opacity <= 0:
                continue
            ox, oy = layer.offset
            n = 0
            for row in range(md.height):
                cols = ([c for c in range(md.width) if not lay.staggered(c)] + [c for c in range(md.width)
                                                                               if lay.staggered(c)]
                        if staggered_x else range(md.width))
                for col in cols:
                    n += 1
                    placed = self.placement(li, col, row)
                    if placed is None:
                        continue
                    ts, local, flags, x, y = placed
                    w, h = self.image(ts, local, flags, 1.0).get_size()
                    x0, y0 = x + ox, y + oy
                    for bx in range(int(x0) // REGION_BUCKET, int(x0 + w) // REGION_BUCKET + 1):
                        for by in range(int(y0) // REGION_BUCKET, int(y0 + h) // REGION_BUCKET + 1):
                            buckets.setdefault((bx, by), []).append((n, col, row))
        return index

    def draw(self, scale: float, area: pygame.Rect, backdrop: tuple[int, int, int]) -> pygame.Surface:
        """The part `area` (in pixels of the map drawn at `scale`) on an opaque `backdrop`."""
        if self._index is None:
            # a small map's whole index costs less than working its buckets out one by one (the
            # default map: 816 cells, ~10 ms at once against ~0.1 s bucket by bucket)
            small = self.md.width * self.md.height <= FULL_INDEX_CELLS
            self._index = self._build_full_index() if small else self._build_index()
        md = self.md
        surf = pygame.Surface((max(1, area.w), max(1, area.h)))
        surf.fill(md.background if md.background is not None else backdrop)
        margin = 2  # map pixels: a tile whose edge rounds into the area is still drawn
        bx0 = int(area.x / scale - margin) // REGION_BUCKET
        by0 = int(area.y / scale - margin) // REGION_BUCKET
        bx1 = int((area.right) / scale + margin) // REGION_BUCKET
        by1 = int((area.bottom) / scale + margin) // REGION_BUCKET
        index: list[Any] = list(self._index)  # per layer: a dict or a _LayerBuckets, both with .get
        dx, dy = area.topleft
        for li, (layer, buckets) in enumerate(zip(md.layers, index, strict=True)):
            if not layer.visible or layer.opacity <= 0:
                continue
            todo: list[tuple[pygame.Surface, tuple[float, float]]] = []
            if isinstance(layer, ObjectLayer):
                todo.extend(self._objects_in(layer, scale, area))
            elif isinstance(layer, ImageLayer):
                todo.extend(self._image_layer_in(layer, scale, area))
            elif isinstance(layer, TileLayer):
                seen: set[tuple[int, int, int]] = set()
                for bx in range(bx0, bx1 + 1):
                    for by in range(by0, by1 + 1):
                        seen.update(buckets.get((bx, by), ()))
                ox, oy = layer.offset
                for _, c, r in sorted(seen):  # Tiled's drawing order, as _draw_tile_layer
                    placed = self.placement(li, c, r)
                    if placed is not None:
                        ts, local, flags, x, y = placed
                        todo.append((self.image(ts, local, flags, scale), _tile_dest(x, y, ox, oy, scale, dx, dy)))
            if not todo:
                continue
            target = surf
            if layer.opacity < 1 or layer.tint is not None:
                target = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
            target.blits(todo, doreturn=False)
            if target is not surf:
                if layer.tint is not None:
                    target.fill(layer.tint, special_flags=pygame.BLEND_RGBA_MULT)
                if layer.opacity < 1:
                    target.set_alpha(round(255 * layer.opacity))
                surf.blit(target, (0, 0))
        return surf


def _tile_reach(md: MapData) -> int:
    """How far (map pixels) a tile image can reach from its cell's box: the largest side of any
    tile image the map's tilesets can draw (grid-sized ones are the grid's), plus the largest
    tileset offset. Bounds which cells can draw into a bucket (`_LayerBuckets`)."""
    reach = max(md.tilewidth, md.tileheight)
    for ts in md.tilesets:
        sizes = [(md.tilewidth, md.tileheight)] if ts.render_size == "grid" else [
            (ts.tilewidth, ts.tileheight), *ts.tile_sizes.values(),
            *(tile_image(ts, local, 0).get_size() for local in ts.tile_images)]
        biggest = max((max(w, h) for w, h in sizes), default=0)
        reach = max(reach, biggest + abs(ts.offset[0]) + abs(ts.offset[1]))
    return reach


class _LayerBuckets:
    """One layer's bucket index of `MapRegions._build_full_index`, one bucket at a time: only the
    cells whose box lies within `reach` (plus the layer's offset) of the bucket are looked at,
    each tested exactly as the full index does."""

    def __init__(self, regions: MapRegions, li: int, reach: int) -> None:
        self.md = md = regions.md
        self.regions, self.li = regions, li
        self.layer = layer = md.layers[li]
        self.reach = reach
        self.drawn = isinstance(layer, TileLayer) and layer.visible and layer.opacity > 0
        self._done: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
        self._order: list[int] | None = None
        # each cell's picture box on the map (x, y, w, h, layer offset included), or None for an
        # empty cell: worked out once, since neighbouring buckets look at the same cells
        self._boxes: dict[tuple[int, int], tuple[float, float, int, int] | None] = {}

    def _position(self, col: int) -> int:
        """A column's place in its row's drawing order (staggered-x maps draw the unshifted
        columns of a row first)."""
        if self._order is None:
            md, lay = self.md, self.md.layout
            cols = ([c for c in range(md.width) if not lay.staggered(c)] + [c for c in range(md.width)
                                                                           if lay.staggered(c)]
                    if md.stagger.axis == "x" else list(range(md.width)))
            order = [0] * md.width
            for k, c in enumerate(cols):
                order[c] = k
            self._order = order
        return self._order[col]

    def get(self, key: tuple[int, int], default: Any = ()) -> Any:
        if not self.drawn:
            return default
        found = self._done.get(key)
        if found is None:
            found = self._done[key] = self._bucket(*key)
        return found or default

    def _bucket(self, bx: int, by: int) -> list[tuple[int, int, int]]:
        md, lay, layer = self.md, self.md.layout, self.layer
        ox, oy = layer.offset
        # the cell's box, a staggered shift (at most a tile) and the image's reach beyond the box
        m = self.reach + 2 * (lay.tw + lay.th) + math.ceil(abs(ox) + abs(oy)) + 2
        x0, x1 = bx * REGION_BUCKET - m, (bx + 1) * REGION_BUCKET + m
        y0, y1 = by * REGION_BUCKET - m, (by + 1) * REGION_BUCKET + m
        if lay.stagger.axis == "y":
            col_pitch, row_pitch = lay.tw + lay.side_x, lay.row_height
        else:
            col_pitch, row_pitch = lay.column_width, lay.th + lay.side_y
        cols = range(max(0, math.floor(x0 / col_pitch) - 1), min(md.width, math.floor(x1 / col_pitch) + 2))
        rows = range(max(0, math.floor(y0 / row_pitch) - 1), min(md.height, math.floor(y1 / row_pitch) + 2))
        out: list[tuple[int, int, int]] = []
        boxes = self._boxes
        for row in rows:
            for col in cols:
                cell = (col, row)
                if cell in boxes:
                    box = boxes[cell]
                else:
                    box = boxes[cell] = self._box(col, row, ox, oy)
                if box is None:
                    continue
                xa, ya, w, h = box
                if (int(xa) // REGION_BUCKET <= bx <= int(xa + w) // REGION_BUCKET
                        and int(ya) // REGION_BUCKET <= by <= int(ya + h) // REGION_BUCKET):
                    out.append((row * md.width + self._position(col) + 1, col, row))
        out.sort()
        return out

    def _box(self, col: int, row: int, ox: float, oy: float) -> tuple[float, float, int, int] | None:
        placed = self.regions.placement(self.li, col, row)
        if placed is None:
            return None
        ts, local, flags, x, y = placed
        w, h = self.regions.image(ts, local, flags, 1.0).get_size()
        return x + ox, y + oy, w, h


def clear_caches() -> None:
    _decoding.clear()
    _images.clear()
    _tiles.clear()
    _placed_cache.clear()
    _base_cache.clear()
