"""Names longer than the file system allows (or with a NUL byte) in hand-edited files: a map,
catalogue, tileset or save that names one is refused with one line naming the file, like any
file that is not there, never an OSError traceback. Found by the save fuzzer (a save naming a
300-character scenario crashed `replay`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game import paths
from tests.hostile.hostile import TILES, cli, map_copy, refused, small_scenario

LONG = "x" * 300  # past the 255 bytes a file name may have on every common file system
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", [LONG + ".tmx", "sub/" + LONG, "a\0b.tmx"])
def test_the_file_helpers_answer_false_for_a_name_the_system_cannot_look_up(name):
    assert not paths.is_file(name) and not paths.exists(name) and not paths.is_dir(name)
    assert not paths.is_symlink(name)


def test_a_scenario_naming_a_map_too_long_for_the_file_system_is_one_line(tmp_path, capsys):
    sc = small_scenario(tmp_path)
    sc.write_text(sc.read_text(encoding="utf-8").replace("map: layout-pointy-odd.tmx", f"map: {LONG}.tmx"),
                  encoding="utf-8")
    refused(capsys, sc, expect="not found")


def test_a_scenario_naming_a_catalogue_too_long_for_the_file_system_is_one_line(tmp_path, capsys):
    sc = small_scenario(tmp_path, f"catalogue: {LONG}.yaml\n")
    refused(capsys, sc, expect="not found")


def test_a_map_naming_a_tileset_too_long_for_the_file_system_is_one_line(tmp_path, capsys):
    tmx = map_copy(tmp_path, (f'source="{TILES.as_posix()}/hex-pointy.tsx"', f'source="{LONG}.tsx"'))
    refused(capsys, tmx, expect="tileset")


def test_a_save_naming_a_scenario_too_long_for_the_file_system_is_refused_by_replay(tmp_path, capsys):
    save = tmp_path / "save.yaml"
    code, _out, err, _t = cli(capsys, "run", str(ROOT / "maps" / "demo-movement.yaml"), "--commands",
                              str(ROOT / "maps" / "demo-movement-commands.yaml"), "--out", str(save))
    assert save.is_file(), err  # (the script has one command the rules refuse on purpose: exit 3)
    text = save.read_text(encoding="utf-8")
    assert "scenario: maps/demo-movement.yaml" in text
    save.write_text(text.replace("scenario: maps/demo-movement.yaml", f"scenario: maps/{LONG}.yaml"),
                    encoding="utf-8")
    before = save.read_bytes()
    refused(capsys, save, "replay", "--verify", str(save))
    assert save.read_bytes() == before  # refusing never writes


def test_validate_refuses_a_path_too_long_for_the_file_system(tmp_path, capsys):
    long_path = str(tmp_path / (LONG + ".yaml"))
    refused(capsys, long_path)
