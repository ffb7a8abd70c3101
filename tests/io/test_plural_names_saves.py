"""`plural:` (a scenario's word that a power's or a force's name is many) changes what a player
reads, never what a save holds: a campaign saved before the shipped scenarios said the Zones are
plural still loads and replays bit for bit, a mass battle's saved set-up gains no key while its
forces are one, and the words of a plural force agree ("The Crabs win", "they share")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from game.__main__ import main
from game.replay import load_game, verify_save
from game.systems.mass.io.files import load_battle, load_mass_commands
from game.systems.mass.rules import choices
from game.systems.mass.rules.engine import initial_state as mass_initial
from game.table import TABLE

ROOT = Path(__file__).resolve().parents[2]
CAMPAIGN = ROOT / "maps" / "campaign"
MASS = ROOT / "maps" / "mass"


def _run(argv: list[str], capsys: Any) -> str:
    code = main(argv)
    out = capsys.readouterr()
    assert code == 0, out.err + out.out
    return str(out.out)


def test_a_campaign_saved_before_plural_existed_loads_and_replays_bit_for_bit(tmp_path: Path, capsys: Any) -> None:
    (tmp_path / "ascension-isle.tmx").write_text((CAMPAIGN / "ascension-isle.tmx").read_text(encoding="utf-8")
                                                 .replace("../../assets", str(ROOT / "assets")), encoding="utf-8")
    now = (CAMPAIGN / "teaching.yaml").read_text(encoding="utf-8")
    assert now.count(", plural: true") == 2
    scenario = tmp_path / "teaching.yaml"
    scenario.write_text(now.replace(", plural: true", ""), encoding="utf-8")  # as it was shipped before
    save = tmp_path / "old.yaml"
    # the whole lesson: battles read by the tables, casualties, a rout, story posts
    _run(["run", str(scenario), "--commands", str(CAMPAIGN / "teaching-commands.yaml"), "--out", str(save)], capsys)
    scenario.write_text(now, encoding="utf-8")  # the scenario as shipped now: the Zones are plural
    report = verify_save(TABLE, save)
    assert report.commands > 20 and any("has changed" in w for w in report.warnings)
    game = load_game(TABLE, save)
    assert game.state.player_says("zones", "has") == "The Zones have"  # the words follow the scenario now
    logs = [line for b in game.state.battles.values() for week in b.log for line in week.lines]
    assert any(line.startswith("The Zones takes ") for line in logs)  # saved lines keep their first words


def test_a_mass_save_holds_no_plural_key_for_forces_that_are_one_and_replays(tmp_path: Path, capsys: Any) -> None:
    save = tmp_path / "mass.yaml"
    _run(["run", str(MASS / "borderland-valley.yaml"), "--commands", str(MASS / "borderland-valley-commands.yaml"),
          "--out", str(save)], capsys)
    assert "plural" not in save.read_text(encoding="utf-8")  # saves of forces that are one are as before
    assert verify_save(TABLE, save).commands > 10
    assert load_game(TABLE, save).state.says("akira", "has") == "Akira's army has"


def _plural_battle(tmp_path: Path) -> Path:
    text = (MASS / "borderland-valley.yaml").read_text(encoding="utf-8")
    p = tmp_path / "crabs.yaml"
    p.write_text(text.replace("    name: Hida Jo's army\n", "    name: The Crabs\n    plural: true\n"), encoding="utf-8")
    return p


def test_a_plural_force_s_words_agree_in_the_rules_and_its_save_keeps_the_key(tmp_path: Path) -> None:
    from game.systems.mass.rules.commands import Cede, Surrender

    loaded = load_battle(_plural_battle(tmp_path))
    s = mass_initial(loaded.setup, loaded.seed)
    assert s.says("hida", "wins") == "The Crabs win" and s.agrees("hida", "its") == "their"
    assert choices.ends_own_battle(s, Surrender(force="hida", to="akira")).startswith(
        "The Crabs surrender to Akira's army: their battle ends as a defeat, an Act of Vice for everyone in them")
    assert choices.ends_own_battle(s, Surrender(force="akira", to="hida")).startswith(
        "Akira's army surrenders to The Crabs: its battle ends as a defeat, an Act of Vice for everyone in it")
    line = choices.preview(s, Cede(force="akira", to="hida")).lines[0]
    assert line == "Akira's army leaves the field; it shares The Crabs' victory if The Crabs win"
    assert s.model_dump(mode="json")["setup"]["forces"][0]["plural"] is True


def test_a_plural_force_s_labels_odds_and_terrain_note_agree(tmp_path: Path) -> None:
    from game.systems.mass.rules.commands import Surrender
    from game.systems.mass.rules.system import SYSTEM

    loaded = load_battle(_plural_battle(tmp_path))
    s = mass_initial(loaded.setup, loaded.seed)
    assert choices.label(s, Surrender(force="hida", to="akira")) == \
        "The Crabs: surrender to Akira's army (ends their battle as a defeat)"
    _, script = load_mass_commands(MASS / "borderland-valley-commands.yaml")
    lines: list[str] = []
    for cmd in script[:10]:  # the appointments and the four Ways, the example's forced dice
        lines += [line for c in choices.legal_commands(s) for line in choices.preview(s, c).lines]
        out = SYSTEM.apply(s, cmd)
        lines += [SYSTEM.describe_event(s, e) for e in out.events]
        s = out.state
    text = "\n".join(lines)
    assert "Constricted ground: The Crabs (won Strategy) gain their commander's Water (4) as Advantage" in text
    assert "The Crabs (Hida Jo, " in text and "): win " in text and "): wins " in text  # Akira's army: one
    assert "The Crabs wins" not in text and "The Crabs has" not in text and "The Crabs is" not in text


def test_a_campaign_battle_s_dice_are_named_as_the_power_s_manoeuvre() -> None:
    from game.systems.campaign.cli.campaign import replay

    _, rec, _ = replay(str(CAMPAIGN / "teaching.yaml"), str(CAMPAIGN / "teaching-commands.yaml"))
    purposes = [e.purpose for e in rec.all_events() if getattr(e, "kind", "") == "dice_rolled"]
    # "The Zones Withdraw (mobility)" read as a sentence whose verb does not agree ("Jibril Block")
    assert "The Zones' Withdraw (mobility)" in purposes and "Jibril's Block (defense)" in purposes
