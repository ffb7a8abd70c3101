"""Tiled files made on the fly for the tests: a GM's own tileset (no project properties), maps in
any layout and layer encoding, tile objects, object templates and a project with property types.

The tileset art is drawn here (four hex tiles with a stripe and a dot, so a flip or a rotation
shows), written as PNG with pygame. Nothing is written outside the folder given.
"""

from __future__ import annotations

import base64
import gzip
import json
import os
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

# tile id -> (class, colour); the classes are what a scenario's terrain_map can use
TILES = [("Meadow", (96, 168, 72)), ("Forest", (30, 96, 40)), ("Lake", (50, 90, 200)), ("Hill", (150, 120, 80))]
GEOMETRY = {"y": (64, 74, 36), "x": (74, 64, 36)}  # tile width, height, hex side for each stagger axis


def tile_sheet(folder: Path, axis: str = "y", name: str = "meadows") -> Path:
    """A 4-tile tileset (.tsx + .png) of hex tiles whose tiles have a class but no properties."""
    import pygame

    from game.core.hexgrid import Stagger
    from game.core.hexlayout import HexLayout

    tw, th, side = GEOMETRY[axis]
    lay = HexLayout(tw, th, side, Stagger(axis, "odd"), 1, 1)  # type: ignore[arg-type]
    sheet = pygame.Surface((tw * len(TILES), th), pygame.SRCALPHA)
    corners = lay.hex_corners(Stagger(axis, "odd").to_hex(0, 0))  # type: ignore[arg-type]
    for i, (_, colour) in enumerate(TILES):
        tile = pygame.Surface((tw, th), pygame.SRCALPHA)
        pygame.draw.polygon(tile, (*colour, 255), corners)
        dark = tuple(max(0, c - 60) for c in colour)
        pygame.draw.line(tile, dark, (tw * 0.3, th * 0.25), (tw * 0.55, th * 0.5), 6)  # a stripe off centre
        pygame.draw.circle(tile, (240, 240, 230), (round(tw * 0.62), round(th * 0.68)), 5)  # a dot
        sheet.blit(tile, (i * tw, 0))
    png = folder / f"{name}.png"
    pygame.image.save(sheet, str(png))
    tiles = "\n".join(f' <tile id="{i}" type="{cls}"/>' for i, (cls, _) in enumerate(TILES))
    tsx = folder / f"{name}.tsx"
    tsx.write_text(f'<?xml version="1.0" encoding="UTF-8"?>\n'
                   f'<tileset version="1.8" tiledversion="1.8.2" name="{name}" tilewidth="{tw}" tileheight="{th}" '
                   f'tilecount="{len(TILES)}" columns="{len(TILES)}">\n'
                   f' <image source="{png.name}" width="{tw * len(TILES)}" height="{th}"/>\n{tiles}\n</tileset>\n',
                   encoding="utf-8")
    return tsx


def encode(gids: Sequence[Sequence[int]], encoding: str) -> str:
    """<data> for a layer: 'csv', 'base64', 'zlib', 'gzip' or 'zstd'."""
    flat = [g for row in gids for g in row]
    if encoding == "csv":
        body = ",\n".join(",".join(str(g) for g in row) for row in gids)
        return f'<data encoding="csv">\n{body}\n</data>'
    raw = b"".join(g.to_bytes(4, "little") for g in flat)
    comp = {"base64": None, "zlib": "zlib", "gzip": "gzip", "zstd": "zstd"}[encoding]
    if comp == "zlib":
        raw = zlib.compress(raw)
    elif comp == "gzip":
        raw = gzip.compress(raw)
    elif comp == "zstd":
        import zstandard

        raw = zstandard.ZstdCompressor().compress(raw)
    attr = f' compression="{comp}"' if comp else ""
    return f'<data encoding="base64"{attr}>\n{base64.b64encode(raw).decode()}\n</data>'


@dataclass
class Layer:
    name: str
    gids: list[list[int]]
    tint: str | None = None
    offset: tuple[float, float] = (0, 0)
    opacity: float = 1.0


@dataclass
class MapSpec:
    axis: str = "y"
    index: str = "odd"
    width: int = 6
    height: int = 5
    layers: list[Layer] = field(default_factory=list)
    encoding: str = "csv"
    objects: list[str] = field(default_factory=list)  # raw <object .../> elements
    tilesets: list[tuple[int, str]] = field(default_factory=list)  # (firstgid, source)
    group_tint: str | None = None


def pattern(width: int, height: int, first: int = 1) -> list[list[int]]:
    """Every cell painted, the four tiles in a repeating pattern."""
    return [[first + (c + 2 * r) % len(TILES) for c in range(width)] for r in range(height)]


def write_map(path: Path, spec: MapSpec) -> Path:
    tw, th, side = GEOMETRY[spec.axis]
    tilesets = "\n".join(f' <tileset firstgid="{g}" source="{s}"/>' for g, s in spec.tilesets)
    parts = []
    for i, la in enumerate(spec.layers, start=1):
        attrs = f' id="{i}" name="{la.name}" width="{spec.width}" height="{spec.height}"'
        if la.tint:
            attrs += f' tintcolor="{la.tint}"'
        if la.offset != (0, 0):
            attrs += f' offsetx="{la.offset[0]:g}" offsety="{la.offset[1]:g}"'
        if la.opacity != 1:
            attrs += f' opacity="{la.opacity:g}"'
        parts.append(f' <layer{attrs}>\n  {encode(la.gids, spec.encoding)}\n </layer>')
    body = "\n".join(parts)
    if spec.group_tint:
        body = f' <group id="90" name="group" tintcolor="{spec.group_tint}">\n{body}\n </group>'
    if spec.objects:
        body += '\n <objectgroup id="99" name="units">\n  ' + "\n  ".join(spec.objects) + "\n </objectgroup>"
    path.write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<map version="1.8" tiledversion="1.8.2" orientation="hexagonal" renderorder="right-down" '
        f'width="{spec.width}" height="{spec.height}" tilewidth="{tw}" tileheight="{th}" hexsidelength="{side}" '
        f'staggeraxis="{spec.axis}" staggerindex="{spec.index}" infinite="0" nextlayerid="100" nextobjectid="100">\n'
        f'{tilesets}\n{body}\n</map>\n', encoding="utf-8")
    return path


def foreign_map(folder: Path, axis: str = "y", index: str = "odd", encoding: str = "csv", **kw: object) -> Path:
    """A map painted all over with the GM's own tileset (no terrain properties anywhere)."""
    tsx = tile_sheet(folder, axis)
    spec = MapSpec(axis=axis, index=index, encoding=encoding, tilesets=[(1, tsx.name)],
                   layers=[Layer("ground", pattern(6, 5))])
    for k, v in kw.items():
        setattr(spec, k, v)
    return write_map(folder / f"foreign-{axis}{index}-{encoding}.tmx", spec)


def project(folder: Path) -> Path:
    """A Tiled project like maps/ascension-isle.tiled-project: a `unit` class with a nested
    `orders` class, and a `terrain` enum."""
    data = {"propertyTypes": [
        {"id": 1, "name": "terrain", "type": "enum", "storageType": "string", "valuesAsFlags": False,
         "values": ["clear", "woods", "water", "hill"]},
        {"id": 2, "name": "orders", "type": "class", "useAs": ["property"], "members": [
            {"name": "stance", "type": "string", "value": "none"}, {"name": "hold", "type": "bool", "value": False}]},
        {"id": 3, "name": "unit", "type": "class", "useAs": ["property", "object", "tile"], "members": [
            {"name": "unit_type", "type": "string", "value": "rifle_section"},
            {"name": "side", "type": "string", "value": "red"},
            {"name": "id", "type": "string", "value": ""},
            {"name": "orders", "type": "class", "propertyType": "orders", "value": {"stance": "guard"}}]},
    ]}
    p = folder / "test.tiled-project"
    p.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return p


def template(folder: Path, name: str, tileset: str, local_id: int, props: str = "", kind: str = "unit") -> Path:
    """An object template (.tx) of a tile object."""
    tw, th, _ = GEOMETRY["y"]
    p = folder / f"{name}.tx"
    p.write_text(f'<?xml version="1.0" encoding="UTF-8"?>\n<template>\n <tileset firstgid="1" source="{tileset}"/>\n'
                 f' <object name="{name}" type="{kind}" gid="{local_id + 1}" width="{tw}" height="{th}">\n'
                 f'  <properties>\n{props}\n  </properties>\n </object>\n</template>\n', encoding="utf-8")
    return p
