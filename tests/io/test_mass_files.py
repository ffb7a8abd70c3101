"""Mass-battle files: the rules data, battle files (terrain by kind or by a map's hex), command
scripts, validate and the `dice` command line."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from game.__main__ import main
from game.core.errors import GameFileError
from game.io.sniff import sniff_kind
from game.io.tmx import load_map
from game.systems.mass.io.files import DEFAULT_MASS_RULES, load_battle, load_mass_commands, load_mass_rules
from game.table import TABLE

ROOT = Path(__file__).resolve().parents[2]
BATTLE = ROOT / "maps" / "mass" / "borderland-valley.yaml"


def _write(tmp: Path, data: dict, name: str = "b.yaml") -> Path:
    p = tmp / name
    p.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return p


def _battle_data() -> dict:
    return yaml.safe_load(BATTLE.read_text(encoding="utf-8"))


def test_the_rules_data_loads_with_every_terrain_kind() -> None:
    rules = load_mass_rules()
    assert rules.terrain_ring["constricted"] == "water" and rules.terrain_ring["accessible"] is None
    assert rules.threshold == 50


def test_a_bad_rules_number_names_the_file_line_and_field(tmp_path: Path) -> None:
    text = DEFAULT_MASS_RULES.read_text(encoding="utf-8").replace("raise_step: 5", "raise_step: many")
    p = tmp_path / "r.yaml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(GameFileError) as err:
        load_mass_rules(p)
    assert "raise_step" in str(err.value) and "r.yaml" in str(err.value) and "line" in str(err.value)


def test_the_teaching_battle_loads_with_what_the_shell_needs() -> None:
    lb = load_battle(BATTLE)
    assert lb.setup.terrain == "constricted" and lb.seed == 1121 and lb.name == "Borderland valley"
    assert lb.path == BATTLE and lb.description


def test_expansive_ground_is_refused_with_a_sentence(tmp_path: Path) -> None:
    data = _battle_data() | {"terrain": "expansive"}
    with pytest.raises(GameFileError) as err:
        load_battle(_write(tmp_path, data))
    assert "expansive ground" in str(err.value) and "terrain" in str(err.value)


def test_an_unknown_terrain_kind_lists_the_five(tmp_path: Path) -> None:
    with pytest.raises(GameFileError) as err:
        load_battle(_write(tmp_path, _battle_data() | {"terrain": "marsh"}))
    assert "accessible, constricted, precipitous, stalemated, suspended" in str(err.value)


def test_a_battle_on_a_map_hex_takes_its_terrain_kind_from_the_rules_data(tmp_path: Path) -> None:
    tmx = ROOT / "maps" / "hollow-ridge.tmx"
    md = load_map(tmx)
    rules = load_mass_rules()
    for col in range(md.width):
        h = md.board.stagger.to_hex(col, 0)
        name = md.board.terrain.get(h)
        if name in rules.map_terrain:
            break
    else:
        pytest.fail("no mapped terrain on row 0")
    data = _battle_data()
    data.pop("terrain")
    data |= {"map": str(tmx), "hex": [col, 0]}
    lb = load_battle(_write(tmp_path, data))
    assert lb.setup.terrain == rules.map_terrain[name]
    assert name in lb.setup.terrain_note


def test_a_map_terrain_mapped_to_expansive_refuses_the_battle(tmp_path: Path) -> None:
    tmx = ROOT / "maps" / "hollow-ridge.tmx"
    md = load_map(tmx)
    name = md.board.terrain[md.board.stagger.to_hex(0, 0)]
    data = _battle_data()
    data.pop("terrain")
    data |= {"map": str(tmx), "hex": [0, 0], "rules": {"map_terrain": {name: "expansive"}}}
    with pytest.raises(GameFileError) as err:
        load_battle(_write(tmp_path, data))
    assert "expansive" in str(err.value) and "hex" in str(err.value)


def test_a_commander_who_is_not_in_the_force_is_named(tmp_path: Path) -> None:
    data = _battle_data()
    data["forces"][0]["commander"] = "nobody"
    with pytest.raises(GameFileError) as err:
        load_battle(_write(tmp_path, data))
    assert "forces[0]" in str(err.value) and "nobody" in str(err.value) and "line" in str(err.value)


def test_a_bad_command_in_a_script_names_its_index(tmp_path: Path) -> None:
    p = _write(tmp_path, {"system": "mass-battle", "battle": str(BATTLE),
                          "commands": [{"kind": "hold", "force": "hida"}, {"kind": "charge"}]}, "s.yaml")
    with pytest.raises(GameFileError) as err:
        load_mass_commands(p)
    assert "commands[1]" in str(err.value)


def test_files_are_sniffed_by_their_system_key() -> None:
    assert sniff_kind(BATTLE, TABLE.sniff) == "mass-battle"
    assert sniff_kind(DEFAULT_MASS_RULES, TABLE.sniff) == "mass-rules"
    assert sniff_kind(ROOT / "maps" / "mass" / "borderland-valley-commands.yaml", TABLE.sniff) == "mass-commands"


def test_validate_accepts_the_shipped_mass_files(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(ROOT / "maps" / "mass"), str(DEFAULT_MASS_RULES)]) == 0
    out = capsys.readouterr().out
    assert "mass battle 'Borderland valley'" in out and "command script" in out


def test_dice_command_prints_the_exact_chance(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice", "6k3", "--at-least", "25"]) == 0
    out = capsys.readouterr().out
    assert "P(total >= 25) = 0.5158" in out and "total  P(=)" in out


def test_dice_command_shows_the_ten_dice_conversion_and_refuses_nonsense(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice", "14k12", "--no-table"]) == 0
    assert "14k12 -> 10k10+12" in capsys.readouterr().out
    assert main(["dice", "six"]) == 1
    assert "not a roll-and-keep pool" in capsys.readouterr().err


def test_the_plugin_is_registered_and_loads_battle_files() -> None:
    plugin = TABLE.plugin_named("mass-battle")
    assert plugin.system.name == "mass-battle"
    assert TABLE.name_in(_battle_data()) == "mass-battle"
    assert plugin.load(BATTLE).setup.terrain == "constricted"
