"""Control characters in the names of tactical scenarios and mass battles (issue 34 item 8): a NUL
in a force's name crashed `render` (pygame cannot draw it) and an escape sequence in a side's or
force's name reached the terminal through `run`. Both loaders now refuse such a string with the
line and field that hold it, as the campaign loader does; a text's own tabs and line breaks (a
description) stay allowed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile.hostile import cli, copy_demo, map_copy, refused

ROOT = Path(__file__).resolve().parents[2]
MASS = ROOT / "maps" / "mass" / "borderland-valley.yaml"
MASS_COMMANDS = ROOT / "maps" / "mass" / "borderland-valley-commands.yaml"
DEMO_COMMANDS = ROOT / "maps" / "demo-movement-commands.yaml"


def _mass_copy(tmp_path: Path, old: str, new: str) -> Path:
    text = MASS.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    out = tmp_path / "battle.yaml"
    out.write_text(text.replace(old, new), encoding="utf-8")
    return out


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, ln in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in ln)


@pytest.mark.parametrize("bad", ["\\0", "\\e[31m", "\\x7f", "\\x9b", "\\n", "\\t"])
def test_render_refuses_a_mass_force_name_with_a_control_character_at_its_line(tmp_path, capsys, bad):
    battle = _mass_copy(tmp_path, "name: Akira's army", f'name: "Akira{bad}army"')
    line = refused(capsys, battle, "render", str(battle), "--out", str(tmp_path / "b.png"), expect="control character")
    at = _line_of(battle, 'name: "Akira')
    assert f"line {at}: forces[1].name" in line
    assert not (tmp_path / "b.png").exists()


def test_run_refuses_an_escape_sequence_in_an_individuals_name_before_printing_anything(tmp_path, capsys):
    battle = _mass_copy(tmp_path, "name: Isawa Ren (shugenja)", 'name: "Isawa\\e]0;pwned\\aRen"')
    code, out, err, _t = cli(capsys, "run", str(battle), "--commands", str(MASS_COMMANDS))
    assert code != 0 and "\x1b" not in out + err and "\x07" not in out + err
    assert "forces[1].individuals[1].name" in err and "control character (U+001B)" in err


def test_a_mass_description_may_keep_its_line_breaks_and_tabs(tmp_path, capsys):
    battle = _mass_copy(tmp_path, "name: Borderland valley", "name: Borderland valley")
    text = battle.read_text(encoding="utf-8")
    start = text.index("description: >-")
    end = text.index("seed:", start)
    battle.write_text(text[:start] + 'description: "first line\\n\\tsecond, indented"\n' + text[end:],
                      encoding="utf-8")
    code, out, err, _t = cli(capsys, "validate", str(battle))
    assert code == 0, err


def _demo_with(tmp_path: Path, old: str, new: str) -> Path:
    scenario = copy_demo(tmp_path)
    text = scenario.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    scenario.write_text(text.replace(old, new), encoding="utf-8")
    return scenario


def test_run_refuses_a_tactical_side_name_with_an_escape_sequence(tmp_path, capsys):
    scenario = _demo_with(tmp_path, "name: Zone Patrol", 'name: "Zone\\e[2JPatrol"')
    code, out, err, _t = cli(capsys, "run", str(scenario), "--commands", str(DEMO_COMMANDS))
    assert code == 1 and "\x1b" not in out + err
    at = _line_of(scenario, 'name: "Zone')
    assert f"line {at}: sides[0].name" in err
    assert "control character (U+001B) in a name" in err


def test_a_tactical_scenario_with_a_nul_in_a_commanders_name_is_refused_by_validate(tmp_path, capsys):
    scenario = _demo_with(tmp_path, "name: Sergeant Adler", 'name: "Sergeant\\0Adler"')
    line = refused(capsys, scenario, expect="control character (U+0000) in a name")
    assert "sides[0].commander.name" in line


def test_the_shipped_scenarios_have_no_control_characters_to_refuse(capsys):
    for path in (MASS, ROOT / "maps" / "demo-movement.yaml", ROOT / "maps" / "demo-overwatch.yaml",
                 ROOT / "maps" / "hollow-ridge.yaml"):
        code, _out, err, _t = cli(capsys, "validate", str(path))
        assert code == 0, err


@pytest.mark.parametrize(("old", "key"), [
    ('<property name="id" value="map-scout"/>', "id"),
    ('<property name="side" value="red"/>', "side"),
])
def test_a_map_unit_whose_id_or_side_holds_a_c1_escape_is_refused_naming_the_property(tmp_path, capsys, old, key):
    # (XML itself refuses C0 characters but for tab and line breaks; it lets DEL and the C1 codes through)
    value = old.split('value="')[1].split('"')[0]
    tmx = map_copy(tmp_path, (old, old.replace(f'value="{value}"', f'value="{value}&#155;[2J"')))
    code, out, err, _t = cli(capsys, "validate", str(tmx))
    assert code != 0 and "\x9b" not in out + err and "Traceback" not in err
    assert f"property '{key}' holds a control character (U+009B)" in err and str(tmx) in err
