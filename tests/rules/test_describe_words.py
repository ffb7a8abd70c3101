"""Tactical commands in the words of the log, the replay and the computer's lines."""

from __future__ import annotations

from game.systems.tactical.rules.commands import (
    AssignLeadership,
    ChooseInitiative,
    ChooseTurnPlace,
    EnterStance,
)
from game.systems.tactical.rules.describe import describe

from .ailfix import make_state


def test_a_stance_command_reads_as_a_sentence() -> None:
    st = make_state([("r1", "rifle_section", "blue", (1, 1))], phase="attack")
    name = st.unit_name("r1")
    assert describe(st, EnterStance(unit_id="r1", stance="overwatch", weapon="bolt rifles")) == \
        f"{name} takes overwatch with bolt rifles"
    assert describe(st, EnterStance(unit_id="r1", stance="guard")) == f"{name} stands guard"
    assert describe(st, EnterStance(unit_id="r1", stance="defensive")) == f"{name} takes a defensive stance"


def test_initiative_turn_place_and_leadership_commands_say_what_was_chosen() -> None:
    st = make_state([("r1", "rifle_section", "blue", (1, 1))], phase="initiative")
    side = st.side_name("blue")
    assert describe(st, ChooseInitiative(side="blue", option="leadership")) == \
        f"{side} picks leadership for the initiative"
    assert describe(st, ChooseInitiative(side="blue", option="personal", personal_stat="senses")) == \
        f"{side} picks personal (senses) for the initiative"
    assert describe(st, ChooseTurnPlace(side="blue", position=1)) == \
        f"{side} takes the second place in the turn order"
    assert describe(st, AssignLeadership(side="blue", unit_id="r1", points=2)) == \
        f"{side} gives 2 Leadership Advantage points to {st.unit_name('r1')}"
