"""The examples of docs/formats.md load as written (a new player copies them): the scenario
example (it had a single side, and the rules want two or more) and the unit catalogue example.
Each is taken from the page, pointed at the shipped map and catalogue, and checked as
`python -m game validate` checks a file (which said "1 unit types" of the catalogue's one)."""

from __future__ import annotations

import re
from pathlib import Path

from game import paths
from game.cli.validate import check_file
from game.table import TABLE

DOC = paths.data_root() / "docs" / "formats.md"
MAPS = paths.data_root() / "maps"
UNITS = paths.data_root() / "assets" / "units"


def _example(section: str) -> str:
    """The first ```yaml block after the heading `section`."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"\n{section}\n")
    found = re.search(r"```yaml\n(.*?)```", text[start:], re.S)
    assert found is not None, f"docs/formats.md: no yaml example under {section}"
    return found.group(1)


def test_the_scenario_example_validates(tmp_path: Path) -> None:
    example = _example("## Scenarios")
    assert "map: riverford.tmx" in example and "catalogue: ../assets/units/starter.yaml" in example
    text = (example.replace("map: riverford.tmx", f"map: {(MAPS / 'riverford.tmx').as_posix()}")
            .replace("catalogue: ../assets/units/starter.yaml", f"catalogue: {(UNITS / 'starter.yaml').as_posix()}"))
    path = tmp_path / "example.yaml"
    path.write_text(text, encoding="utf-8")
    said = check_file(TABLE, path)
    assert "2 sides" in said, said


def test_the_unit_catalogue_example_validates(tmp_path: Path) -> None:
    path = tmp_path / "units.yaml"
    path.write_text(_example("## Unit catalogue"), encoding="utf-8")
    said = check_file(TABLE, path)
    assert said == "unit catalogue, 1 unit type", said  # (it said "1 unit types")


def test_every_loader_the_pages_table_names_exists() -> None:
    import importlib
    table = DOC.read_text(encoding="utf-8").split("\n## ", 1)[0]
    loaders = re.findall(r"\| `(game\.[\w.]+)` \|", table)
    assert len(loaders) >= 6, loaders  # maps, tilesets, scenarios, catalogues, rules files, saves
    for dotted in loaders:  # (it named game.io.datafiles.load_catalogue, which is not there)
        module, name = dotted.rsplit(".", 1)
        assert callable(getattr(importlib.import_module(module), name, None)), dotted
