"""The GM's commands in the mass battle's log and replay, in words ("GM: Hida Jo: Wounds 7"), and
the faces of forced dice never said there (the log is every player's)."""

from __future__ import annotations

from game.systems.mass.rules.commands import GmForceRolls, GmHonor, GmSetAdvantage, GmSetBrutes, GmSetPerson
from game.systems.mass.rules.system import describe
from tests.rules.mass.massfix import start


def test_gm_commands_are_said_in_words_and_forced_faces_are_not_said() -> None:
    s = start()
    force = next(iter(s.forces))
    person = next(iter(s.forces[force].people))
    name = s.forces[force].people[person].name
    forced = describe(s, GmForceRolls(values=(10, 3)))
    assert forced == "GM: sets the next 2 dice" and "10" not in forced
    assert describe(s, GmSetPerson(person=person, wounds=7, void_left=2)) == f"GM: {name}: Wounds 7, Void 2"
    fname = s.forces[force].name
    assert describe(s, GmSetBrutes(force=force, armour="heavy", count=600)) == \
        f"GM: {fname}: 600 Brutes in heavy armour"
    assert describe(s, GmSetAdvantage(force=force, way="terrain", value=2)) == f"GM: {fname}: Advantage of Terrain 2"
    assert describe(s, GmHonor(person=person, points=-1, reason="fled")) == f"GM: {name}: Honor -1 (fled)"
