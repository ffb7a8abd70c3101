"""The static map picture: every visible layer of a Tiled map, in file order, at Tiled's positions.

Tile images are loaded lazily (first render) and cached per tileset image; the full-size
(scale 1) picture is cached per MapData, and other scales are smooth-scaled from it, so a zoom
level costs one scale operation (`_render_base(md, scale)` can also draw every tile at a scale
directly). Works headless: no display is needed.
"""

from __future__ import annotations

import math
import weakref
from pathlib import Path

import pygame

from game.errors import GameFileError
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
)

_images: dict[Path, pygame.Surface] = {}
_tiles: dict[tuple[object, ...], pygame.Surface] = {}
_placed_cache: dict[tuple[object, ...], pygame.Surface] = {}
_base_cache: weakref.WeakKeyDictionary[MapData, pygame.Surface] = weakref.WeakKeyDictionary()


def _load_image(path: Path) -> pygame.Surface:
    img = _images.get(path)
    if img is None:
        try:
            img = pygame.image.load(str(path))
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
        rotated = pygame.transform.rotate(img, -angle)
        canvas = pygame.Surface(img.get_size(), pygame.SRCALPHA)
        canvas.blit(rotated, rotated.get_rect(center=canvas.get_rect().center))
        img = canvas
    _tiles[key] = img
    return img


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


def _draw_tile_layer(target: pygame.Surface, md: MapData, layer: TileLayer, scale: float = 1.0) -> None:
    lay = md.layout
    ox, oy = layer.offset
    staggered_x = md.stagger.axis == "x"

    def order() -> list[tuple[int, int]]:
        # Tiled's drawing order: row by row; on x-staggered maps the upper half-row first.
        cells: list[tuple[int, int]] = []
        for row in range(md.height):
            if staggered_x:
                cells += [(c, row) for c in range(md.width) if not lay.staggered(c)]
                cells += [(c, row) for c in range(md.width) if lay.staggered(c)]
            else:
                cells += [(c, row) for c in range(md.width)]
        return cells

    for col, row in order():
        gid = layer.gids[row][col]
        if not gid:
            continue
        found = md.tileset_for(gid)
        if found is None:
            continue
        ts, local = found
        flags = gid & ~GID_MASK
        height = ts.tile_size(local)[1] if ts.render_size == "tile" else md.tileheight
        if ts.render_size == "tile" and local in ts.tile_images:
            height = tile_image(ts, local, flags).get_height()
        x, y = lay.tile_image_position(col, row, height, ts.offset)
        img = _placed(ts, local, flags, md, scale)
        if scale == 1:
            target.blit(img, (x + round(ox), y + round(oy)))
        else:
            target.blit(img, (round((x + ox) * scale), round((y + oy) * scale)))


def _draw_objects(target: pygame.Surface, md: MapData, layer: ObjectLayer, scale: float = 1.0) -> None:
    """Tile objects (objects showing a tile image); other shapes are editor-only and not drawn."""
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
        target.blit(img, (round((obj.x + ts.offset[0]) * scale), round((obj.y + ts.offset[1]) * scale)))


def _render_base(md: MapData, scale: float = 1.0) -> pygame.Surface:
    mw, mh = md.layout.map_pixel_size
    w, h = (mw, mh) if scale == 1 else (max(1, round(mw * scale)), max(1, round(mh * scale)))
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    if md.background is not None:
        surf.fill((*md.background, 255))
    for layer in md.layers:
        if not layer.visible or layer.opacity <= 0:
            continue
        target = surf
        if layer.opacity < 1:
            target = pygame.Surface((w, h), pygame.SRCALPHA)
        if isinstance(layer, TileLayer):
            _draw_tile_layer(target, md, layer, scale)
        elif isinstance(layer, ObjectLayer):
            _draw_objects(target, md, layer, scale)
        elif isinstance(layer, ImageLayer) and layer.image is not None:
            img = _load_image(layer.image)
            if scale != 1:
                iw, ih = img.get_size()
                img = pygame.transform.smoothscale(img, (max(1, round(iw * scale)), max(1, round(ih * scale))))
            target.blit(img, (round(layer.offset[0] * scale), round(layer.offset[1] * scale)))
        if target is not surf:
            target.set_alpha(round(255 * layer.opacity))
            surf.blit(target, (0, 0))
    return surf


def render_map_layer(map_data: MapData, scale: float = 1.0) -> pygame.Surface:
    """All visible layers of the map in file order; at scale 1 exactly the map's pixel size.

    The result is a new surface the caller may keep or change (the client caches one per zoom).
    """
    if not (scale > 0 and math.isfinite(scale)):
        raise ValueError(f"scale must be a positive number, got {scale}")
    base = _base_cache.get(map_data)
    if base is None:
        base = _render_base(map_data)
        _base_cache[map_data] = base
    if scale == 1:
        return base.copy()
    # Any other zoom: one smooth scale of the full-size picture. (Drawing each tile scaled gives
    # the same pixels for raster art, at about four times the cost.)
    w, h = base.get_size()
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return pygame.transform.smoothscale(base, size)


def clear_caches() -> None:
    _images.clear()
    _tiles.clear()
    _placed_cache.clear()
    _base_cache.clear()
