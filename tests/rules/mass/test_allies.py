"""Allies in a mass battle: a force cedes victory only to an ally, surrenders only to an enemy;
the battle file names the allies (`forces[].allies`, mutual); a battle begun under the readings
before allies keeps its old rule (docs/mass-battle.md section 6)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from game.core.errors import GameFileError
from game.core.system import Accepted, Step
from game.replay import load_game, save_game, verify_save
from game.systems.mass.io.files import load_battle
from game.systems.mass.rules import choices
from game.systems.mass.rules import commands as c
from game.systems.mass.rules.models import ALLIES_READING
from game.systems.mass.rules.state import MassState, with_readings
from game.systems.mass.rules.system import SYSTEM
from game.table import TABLE
from tests.rules.mass.massfix import force, force_dice, ok, refused, rules, setup, start, texts

ROOT = Path(__file__).resolve().parents[3]
BATTLE = ROOT / "maps" / "mass" / "borderland-valley.yaml"


def _three(readings: int | None = None) -> MassState:
    """Red and Green allied, Blue their enemy; Strategy rolled, Red moves first."""
    su = setup(force("red", allies=["green"]), force("blue"), force("green", allies=["red"]),
               rules_=rules(readings=readings) if readings else None)
    s = start(su)
    s = force_dice(s, 9, 9, 9, *([1] * 15))
    s, _ = ok(s, c.RollWay(force="red", way="strategy"))
    return s


def _leaving(s: MassState, fid: str) -> list[tuple[str, str]]:
    return [(x.kind, x.to) for x in choices.legal_commands(s)
            if x.kind in ("surrender", "cede") and x.force == fid]


# the choices and the engine --------------------------------------------------------------------

def test_in_the_two_army_example_battle_no_force_is_offered_a_cede_only_surrender() -> None:
    lb = load_battle(BATTLE)
    s = SYSTEM.initial_state(lb.setup, lb.seed)
    for fid in ("hida", "akira"):
        s, _ = ok(s, next(x for x in choices.legal_commands(s) if x.force == fid))
    assert s.stage == "heaven"
    assert _leaving(s, "hida") == [("surrender", "akira")]
    assert not any("cede" in choices.label(s, x) for x in choices.legal_commands(s))


def test_a_force_cedes_only_to_an_ally_and_the_engine_says_why_it_refuses_an_enemy() -> None:
    lb = load_battle(BATTLE)
    s = SYSTEM.initial_state(lb.setup, lb.seed)
    why = refused(s, c.Cede(force="hida", to="akira"))
    assert why == ("Akira's army is not an ally of Hida Jo's army: a force cedes victory only to an ally "
                   "(the battle file's allies); to an enemy it may surrender")


def test_allies_are_offered_cede_to_each_other_and_surrender_only_to_the_enemy() -> None:
    s = _three()
    assert sorted(_leaving(s, "red")) == [("cede", "green"), ("surrender", "blue")]
    why = refused(s, c.Surrender(force="red", to="green"))
    assert why == ("Green is an ally of Red: a force surrenders only to an enemy; to an ally it may cede victory")
    labels = [choices.label(s, x) for x in choices.legal_commands(s) if x.kind in ("surrender", "cede")]
    assert "Red: cede victory to the ally Green" in labels
    assert "Red: surrender to Blue (ends its battle as a defeat)" in labels


def test_a_cede_to_an_ally_no_longer_in_the_field_is_neither_offered_nor_accepted() -> None:
    s = _three()
    s, events = ok(s, c.Cede(force="red", to="green"))
    assert "Red cedes victory to its ally Green" in texts(events)
    assert refused(s, c.Cede(force="green", to="red")) == "Red is no longer on the field (ceded)"
    while "green" not in SYSTEM.to_move(s):
        s, _ = ok(s, next(x for x in choices.legal_commands(s) if x.kind not in ("surrender", "cede")))
    assert _leaving(s, "green") == [("surrender", "blue")]


def test_a_battle_begun_before_allies_existed_still_lets_a_force_cede_to_any_other() -> None:
    """What an old save holds: readings 2 (no allies yet); it replays and goes on under them."""
    assert ALLIES_READING == 3
    su = setup(force("red"), force("blue"), rules_=rules(readings=2))
    s = start(su)
    s = force_dice(s, 9, 9, 9, *([1] * 15))
    s, _ = ok(s, c.RollWay(force="red", way="strategy"))
    assert s.readings == 2
    assert sorted(_leaving(s, "red")) == [("cede", "blue"), ("surrender", "blue")]
    assert choices.label(s, c.Cede(force="red", to="blue")) == "Red: cede victory to Blue"
    s, events = ok(s, c.Cede(force="red", to="blue"))
    assert s.forces["red"].status == "ceded"
    assert "Red cedes victory to Blue" in texts(events)


# the battle file --------------------------------------------------------------------------------

def _write(tmp: Path, allies: dict[int, list[str]]) -> Path:
    data = yaml.safe_load(BATTLE.read_text(encoding="utf-8"))
    for i, a in allies.items():
        data["forces"][i]["allies"] = a
    p = tmp / "allied.yaml"
    p.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return p


@pytest.mark.parametrize(("allies", "where", "expected"), [
    ({0: ["ikoma"]}, "forces[0].allies[0]", "no force 'ikoma' in this battle; expected one of akira"),
    ({0: ["hida"]}, "forces[0].allies[0]", "force 'hida' lists itself as an ally; expected the id of another force"),
    ({0: ["akira", "akira"], 1: ["hida"]}, "forces[0].allies[1]",
     "'akira' is listed twice among the allies of force 'hida'; expected each ally once"),
    ({0: ["akira"]}, "forces[0].allies[0]",
     "force 'akira' does not list 'hida' among its allies; an alliance is mutual: "
     "expected allies: [hida] (or more) in force 'akira' too"),
])
def test_a_bad_ally_in_a_battle_file_names_the_file_line_place_and_what_was_expected(
        tmp_path: Path, allies: dict[int, list[str]], where: str, expected: str) -> None:
    p = _write(tmp_path, allies)
    with pytest.raises(GameFileError) as err:
        load_battle(p)
    assert err.value.path == str(p)
    assert err.value.where.startswith("line ") and err.value.where.endswith(where)
    assert err.value.message == expected


def test_a_mutual_alliance_in_a_battle_file_loads_and_a_force_without_allies_writes_none(tmp_path: Path) -> None:
    lb = load_battle(_write(tmp_path, {0: ["akira"], 1: ["hida"]}))
    assert lb.setup.allied("hida", "akira") and lb.setup.allied("akira", "hida")
    assert not lb.setup.allied("hida", "hida")
    plain = load_battle(BATTLE).setup
    assert not plain.allied("hida", "akira")
    assert all("allies" not in f for f in plain.model_dump(mode="json")["forces"])


def test_an_old_save_in_which_a_force_cedes_to_its_enemy_still_loads_and_verifies(tmp_path: Path) -> None:
    """A save made before allies existed (its state: readings 2) whose log cedes to the enemy: the
    replay starts under the save's readings, so the cede is accepted again and the save verifies."""
    su = load_battle(BATTLE)
    s = SYSTEM.initial_state(with_readings(su.setup, 2), su.seed)
    steps = []
    for cmd in [*(next(x for x in choices.legal_commands(s) if x.force == f) for f in ("hida", "akira")),
                c.Cede(force="hida", to="akira")]:
        if cmd.kind != "appoint":
            assert cmd in choices.legal_commands(s)
        out = SYSTEM.apply(s, cmd)
        assert isinstance(out, Accepted)
        steps.append(Step(s, cmd, out.events, out.state))
        s = out.state
    assert s.readings == 2 and s.forces["hida"].status == "ceded"
    path = save_game(tmp_path / "old.yaml", SYSTEM, s, steps, scenario_path=BATTLE, seed=su.seed)
    assert verify_save(TABLE, path).commands == 3
    loaded = load_game(TABLE, path)
    assert loaded.state.readings == 2 and loaded.state.forces["hida"].ceded_to == "akira"


def test_a_set_up_built_without_a_file_refuses_a_one_sided_alliance_too() -> None:
    with pytest.raises(ValueError, match=r"forces\[0\]\.allies\[0\]: force 'blue' does not list 'red'"):
        setup(force("red", allies=["blue"]), force("blue"))
