"""Fuzzing Tiled maps: mutated .tmx maps (and the .tsx tileset they use) either load, and then
render, or are refused with a GameFileError naming the file (the map or its tileset)."""

from __future__ import annotations

import copy
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from game.core.errors import GameFileError  # noqa: E402
from game.io.tmx import load_map  # noqa: E402
from game.systems.tactical.io.data import load_rules  # noqa: E402
from tests.fuzz.fuzzlib import QUICK, SIGNIFICANT, SLOW, mutated_text  # noqa: E402
from tests.scratch import scratch_dir  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
WORK = scratch_dir("ail-fuzz-tmx-")
TERRAIN = set(load_rules().terrain)
SOURCES = sorted((ROOT / "tests" / "fixtures").glob("*.tmx")) + sorted((ROOT / "maps").glob("demo-*.tmx"))
TSX = ROOT / "assets" / "tiles" / "hex-pointy.tsx"


def absolute_sources(text: str, base: Path) -> str:
    """Make every source="..." absolute, so the fuzzed copy (elsewhere) finds the same files."""
    return re.sub(r'source="([^"]+)"', lambda m: f'source="{(base / m.group(1)).resolve()}"', text)


BASES = [absolute_sources(p.read_text(encoding="utf-8"), p.parent) for p in SOURCES]
TSX_TEXT = absolute_sources(TSX.read_text(encoding="utf-8"), TSX.parent)
FUZZ_TSX = WORK / "fuzzed.tsx"

ATTR_VALUES = ["", "0", "-1", "1", "2", "3", "7", "64", "74", "100000", "99999999999999999999", "1.5", "nan",
               "x", "y", "odd", "even", "hexagonal", "orthogonal", "staggered", "true", "false", "bool", "int",
               "float", "string", "color", "file", "object", "#ff00ff", "#12", "base64", "csv", "zlib", "gzip",
               "zstd", "clear", "road", "lava", "units", "rifle_section", "nobody", "1,2", "é"]


@st.composite
def mutated_xml(draw: st.DrawFn, text: str) -> str:
    root = ET.fromstring(text)
    for _ in range(draw(st.integers(1, 3))):
        elements = list(root.iter())
        el = draw(st.sampled_from(elements))
        op = draw(st.sampled_from(["set_attr", "set_attr", "del_attr", "del_el", "dup_el", "text", "add_el"]))
        if op == "set_attr":
            name = draw(st.sampled_from(sorted(el.attrib) or ["width"]) if el.attrib and draw(st.booleans())
                        else st.sampled_from(["width", "height", "tilewidth", "tileheight", "hexsidelength",
                                              "staggeraxis", "staggerindex", "orientation", "firstgid", "source",
                                              "encoding", "compression", "type", "value", "name", "x", "y",
                                              "visible", "opacity", "offsetx", "id", "gid", "columns",
                                              "tilecount", "infinite"]))
            el.set(name, draw(st.one_of(st.sampled_from(ATTR_VALUES), st.text(max_size=6))))
        elif op == "del_attr" and el.attrib:
            del el.attrib[draw(st.sampled_from(sorted(el.attrib)))]
        elif op in ("del_el", "dup_el"):
            parents = [p for p in root.iter() if len(p)]
            if parents:
                parent = draw(st.sampled_from(parents))
                child = draw(st.sampled_from(list(parent)))
                if op == "del_el":
                    parent.remove(child)
                else:
                    parent.insert(list(parent).index(child), copy.deepcopy(child))
        elif op == "text":
            base = el.text or ""
            el.text = draw(st.one_of(
                mutated_text(base) if base.strip() else st.just(base),
                st.lists(st.integers(-5, 2**32 + 5), min_size=0, max_size=40).map(lambda v: ",".join(map(str, v))),
                st.text(alphabet="".join(SIGNIFICANT) + "0123456789", max_size=20)))
        elif op == "add_el":
            tag = draw(st.sampled_from(["property", "properties", "layer", "objectgroup", "object", "tileset",
                                        "group", "imagelayer", "data", "tile", "bogus"]))
            child = ET.SubElement(el, tag)
            for _ in range(draw(st.integers(0, 3))):
                child.set(draw(st.sampled_from(["name", "value", "type", "id", "gid", "width", "height",
                                                "source", "firstgid"])), draw(st.sampled_from(ATTR_VALUES)))
    return ET.tostring(root, encoding="unicode")


def check_map(text: str, tsx_text: str | None = None) -> None:
    path = WORK / "fuzzed.tmx"
    if tsx_text is not None:
        FUZZ_TSX.write_text(tsx_text, encoding="utf-8")
        text = re.sub(r'source="[^"]*hex-pointy\.tsx"', f'source="{FUZZ_TSX}"', text)
    path.write_text(text, encoding="utf-8")
    try:
        md = load_map(path, TERRAIN)
    except GameFileError as exc:
        named = Path(exc.path).name
        assert named in (path.name, FUZZ_TSX.name) or str(path) in str(exc), f"error names no fuzzed file: {exc}"
        assert str(exc).strip()
        return
    from game.render import render_map_layer

    render_map_layer(md, 0.25)  # a map that loads must also draw


def test_the_fuzzing_bases_load_and_render() -> None:
    assert len(BASES) >= 5
    for text in BASES:
        check_map(text)
    check_map(BASES[0], TSX_TEXT)


idx = st.integers(0, len(BASES) - 1)
map_mutation = idx.flatmap(lambda i: st.one_of(mutated_xml(BASES[i]), mutated_text(BASES[i])))
tsx_mutation = st.one_of(mutated_xml(TSX_TEXT), mutated_text(TSX_TEXT))


@settings(max_examples=2 * QUICK, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(map_mutation)
def test_mutated_maps_load_or_get_an_error_naming_the_map(text: str) -> None:
    check_map(text)


@settings(max_examples=QUICK, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tsx_mutation)
def test_a_mutated_tileset_loads_or_gets_an_error_naming_it(tsx: str) -> None:
    check_map(BASES[0], tsx)


@pytest.mark.slow
@settings(max_examples=SLOW, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(map_mutation.map(lambda t: (t, None)), st.tuples(st.just(BASES[0]), tsx_mutation)))
def test_many_mutated_maps_and_tilesets_load_or_get_a_located_error(case: tuple[str, str | None]) -> None:
    check_map(*case)
