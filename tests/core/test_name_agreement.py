"""Verbs agree with the names they follow: one helper (`game.core.system.agree` / `says`) turns a
verb written for one into the verb for many, and a scenario says which names are plural
(`plural: true` on a campaign player or a mass force; one by default). Bad values are refused
with the file, the line and the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.core.errors import GameFileError
from game.core.system import agree, says
from game.systems.campaign.io.files import load_campaign
from game.systems.mass.io.files import load_battle

ROOT = Path(__file__).resolve().parents[2]
CAMPAIGN = ROOT / "maps" / "campaign"


@pytest.mark.parametrize(("one", "many"), [
    ("has", "have"), ("is", "are"), ("was", "were"), ("does", "do"), ("proposes", "propose"),
    ("declares", "declare"), ("wins", "win"), ("takes", "take"), ("marches", "march"),
    ("passes", "pass"), ("loses", "lose"), ("carries", "carry"), ("cedes", "cede"), ("can", "can"),
    ("must", "must"), ("it", "they"), ("its", "their"), ("Its", "Their"), ("has finished", "have finished"),
])
def test_a_verb_written_for_one_agrees_with_many(one: str, many: str) -> None:
    assert agree(one, True) == many
    assert agree(one, False) == one


def test_says_joins_the_name_and_its_agreeing_verb() -> None:
    assert says("The Zones", True, "has") == "The Zones have"
    assert says("Jibril", False, "has") == "Jibril has"
    assert says("Resistance Fronts", True, "proposes") == "Resistance Fronts propose"


def test_the_shipped_campaigns_say_which_powers_are_plural() -> None:
    for name in ("teaching.yaml", "ascension-isle.yaml"):
        setup = load_campaign(CAMPAIGN / name).setup
        plural = {p.name: p.plural for p in setup.players}
        assert plural == {"The Zones": True, "Resistance Fronts": True, "Zenith Empire": False, "Jibril": False}


def test_campaign_state_lines_agree_with_the_power() -> None:
    from game.systems.campaign.rules.engine import initial_state

    setup = load_campaign(CAMPAIGN / "teaching.yaml").setup
    st = initial_state(setup, 1)
    assert st.player_says("zones", "has") == "The Zones have"
    assert st.player_says("zenith", "has") == "Zenith Empire has"
    assert st.player_agrees("resistance", "its") == "their"
    assert st.player_says("nobody", "has") == "nobody has"  # an unknown id reads as one


def _campaign(tmp_path: Path, plural: str) -> Path:
    (tmp_path / "ascension-isle.tmx").write_text((CAMPAIGN / "ascension-isle.tmx").read_text(encoding="utf-8")
                                                 .replace("../../assets", str(ROOT / "assets")), encoding="utf-8")
    p = tmp_path / "s.yaml"
    p.write_text("system: campaign\nname: t\nmap: ascension-isle.tmx\nplayers:\n"
                 f"  - {{id: a, name: The Reds, power: zones{plural}}}\n"
                 "  - {id: b, name: Blue, power: jibril}\n"
                 "armies:\n  - {id: x, owner: a, at: [16, 9], units: [zone_rifle_division]}\n"
                 "  - {id: y, owner: b, at: [38, 25], units: [jibril_warjack]}\n", encoding="utf-8")
    return p


def test_a_campaign_player_is_one_unless_the_scenario_says_plural(tmp_path: Path) -> None:
    assert [p.plural for p in load_campaign(_campaign(tmp_path, "")).setup.players] == [False, False]
    assert [p.plural for p in load_campaign(_campaign(tmp_path, ", plural: true")).setup.players] == [True, False]


def test_a_campaign_plural_that_is_not_true_or_false_names_the_line_and_field(tmp_path: Path) -> None:
    p = _campaign(tmp_path, ", plural: often")
    with pytest.raises(GameFileError) as exc:
        load_campaign(p)
    assert str(p) in str(exc.value) and "line 5: players[0].plural" in str(exc.value)


def _battle(tmp_path: Path, plural: str) -> Path:
    text = (ROOT / "maps" / "mass" / "borderland-valley.yaml").read_text(encoding="utf-8")
    p = tmp_path / "b.yaml"
    p.write_text(text.replace("    name: Akira's army\n", f"    name: Akira's army\n{plural}"), encoding="utf-8")
    return p


def test_a_mass_force_is_one_unless_the_battle_says_plural_and_saves_omit_the_default(tmp_path: Path) -> None:
    one = load_battle(_battle(tmp_path, "")).setup
    assert [f.plural for f in one.forces] == [False, False]
    assert all("plural" not in f.model_dump() for f in one.forces)  # old saves' state data stays byte for byte
    many = load_battle(_battle(tmp_path, "    plural: true\n")).setup
    assert [f.plural for f in many.forces] == [False, True]
    assert many.forces[1].model_dump()["plural"] is True


def test_a_mass_plural_that_is_not_true_or_false_is_refused_with_its_field(tmp_path: Path) -> None:
    p = _battle(tmp_path, "    plural: \"yes\"\n")
    with pytest.raises(GameFileError) as exc:
        load_battle(p)
    assert str(p) in str(exc.value) and "plural" in str(exc.value)


def test_a_campaign_army_is_one_unless_the_scenario_says_plural_and_its_lines_agree(tmp_path: Path) -> None:
    from game.systems.campaign.rules.describe import event_text
    from game.systems.campaign.rules.engine import initial_state
    from game.systems.campaign.rules.events import ArmyDestroyed

    p = _campaign(tmp_path, "")
    p.write_text(p.read_text(encoding="utf-8").replace(
        "{id: x, owner: a, at: [16, 9], units: [zone_rifle_division]}",
        "{id: x, name: Rangers of the North, owner: a, at: [16, 9], units: [zone_rifle_division], plural: true}"),
        encoding="utf-8")
    st = initial_state(load_campaign(p).setup, 1)
    assert st.army_says("x", "has") == "Rangers of the North have" and st.army_says("y", "has") == "y has"
    assert event_text(st, ArmyDestroyed(army="x")) == "Rangers of the North are destroyed"
