"""The GM's commands set only values the rules allow (engine.gm_range_problem): Wounds up to the
wound track's end (one past it is dead), Void points up to the individual's own, status 0 to 10,
Brutes up to 100,000 a division, a Way's Advantage up to 1 + 10 Raises, the terrain's up to a ring's
rank, an Honor change of at most 10 either way (its reason at most 200 characters), 1 to 500 die
faces at a time. A refusal names the field and its range and changes nothing; a value left as the
battle made it is never refused; a command script (`python -m game run`) is refused in the same
words."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.__main__ import main
from game.systems.mass.rules import commands as c
from game.systems.mass.rules.engine import dead_at
from tests.rules.mass.massfix import ok, refused, start

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(("cmd", "said"), [
    (c.GmSetPerson(person="red-cmd", wounds=99_999_999),
     "Wounds taken: 0 to 58 for Red-Cmd (Earth 3: 57 fill the wound track, 58 is dead), not 99999999"),
    (c.GmSetPerson(person="red-cmd", void_left=4), "Void points left: 0 to 3 for Red-Cmd (their Void points), not 4"),
    (c.GmSetPerson(person="red-cmd", status=11), "Status: 0 to 10 (the Celestial Order), not 11"),
    (c.GmSetBrutes(force="red", armour="heavy", count=100_001),
     "Brutes in heavy armour: 0 to 100000 in one division, not 100001"),
    (c.GmSetAdvantage(force="red", way="glory", value=12), "Glory Advantage: 0 to 11 (1 for the Way, +1 per Raise), "
                                                          "not 12"),
    (c.GmSetAdvantage(force="red", way="terrain", value=11), "Terrain Advantage: 0 to 10 (a ring's rank), not 11"),
    (c.GmHonor(person="red-cmd", points=-11, reason="fled the field"), "Honor change: -10 to +10 at a time, not -11"),
    (c.GmHonor(person="red-cmd", points=1, reason="x" * 201), "Why: at most 200 characters (a line of the ledger), "
                                                              "not 201"),
    (c.GmForceRolls(values=(1,) * 501), "Forced dice: 1 to 500 faces at a time, not 501"),
    (c.GmForceRolls(values=()), "Forced dice: give at least one die face (1 to 10)"),
    (c.GmForceRolls(values=(3, 11)), "Forced dice: d10 faces 1 to 10, not 11"),
])
def test_a_gm_value_out_of_the_rules_range_is_refused_naming_the_field_and_the_range(cmd: object, said: str) -> None:
    s = start()
    assert refused(s, cmd) == said


def test_gm_values_at_the_ends_of_their_ranges_are_accepted() -> None:
    s = start()
    p = s.person("red-cmd")
    s, _ = ok(s, c.GmSetPerson(person="red-cmd", wounds=dead_at(s.rules, p), void_left=0, status=10))
    s, _ = ok(s, c.GmSetPerson(person="red-mage", wounds=0, void_left=3, status=2.5))
    s, _ = ok(s, c.GmSetBrutes(force="blue", armour="light", count=100_000))
    s, _ = ok(s, c.GmSetAdvantage(force="blue", way="heaven", value=11))
    s, _ = ok(s, c.GmSetAdvantage(force="blue", way="terrain", value=10))
    s, _ = ok(s, c.GmHonor(person="blue-cmd", points=10, reason="spared the village"))
    s, _ = ok(s, c.GmHonor(person="blue-cmd", points=-10, reason="y" * 200))
    s, _ = ok(s, c.GmForceRolls(values=(10,) * 500))
    assert s.person("red-cmd").wounds == 58 and s.person("red-mage").stats.status == 2.5


def test_a_value_the_battle_reached_by_itself_is_not_refused_when_the_gm_leaves_it_as_it_is() -> None:
    s = start()
    people = s.forces["red"].people
    past_dead = people["red-mage"].model_copy(update={"wounds": 75})  # a Wave's roll may go past the track
    s.forces["red"].people = {**people, "red-mage": past_dead}
    s, _ = ok(s, c.GmSetPerson(person="red-mage", wounds=75, void_left=0))
    assert (s.person("red-mage").wounds, s.person("red-mage").void_left) == (75, 0)
    assert refused(s, c.GmSetPerson(person="red-mage", wounds=76)).startswith("Wounds taken: 0 to 58")


def test_a_command_script_with_an_absurd_gm_value_is_refused_in_the_same_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    battle = ROOT / "maps" / "mass" / "borderland-valley.yaml"
    script = tmp_path / "gm.yaml"
    script.write_text(f"system: mass-battle\nbattle: {battle}\ncommands:\n"
                      "  - {kind: gm_set_person, person: hida-jo, wounds: 99999999}\n"
                      "  - {kind: gm_set_person, person: hida-jo, wounds: 7}\n", encoding="utf-8")
    main(["run", str(battle), "--commands", str(script)])
    out = capsys.readouterr().out
    assert ("[1] gm_set_person: REJECTED: Wounds taken: 0 to 77 for Hida Jo (Earth 4: 76 fill the wound track, "
            "77 is dead), not 99999999") in out
    assert "1 command accepted, 1 rejected" in out
