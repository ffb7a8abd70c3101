"""Tactical commands in the words of the log, the replay and the computer's lines."""

from __future__ import annotations

from game.systems.tactical.rules.commands import EnterStance
from game.systems.tactical.rules.describe import describe

from .ailfix import make_state


def test_a_stance_command_reads_as_a_sentence() -> None:
    st = make_state([("r1", "rifle_section", "blue", (1, 1))], phase="attack")
    name = st.unit_name("r1")
    assert describe(st, EnterStance(unit_id="r1", stance="overwatch", weapon="bolt rifles")) == \
        f"{name} takes overwatch with bolt rifles"
    assert describe(st, EnterStance(unit_id="r1", stance="guard")) == f"{name} stands guard"
    assert describe(st, EnterStance(unit_id="r1", stance="defensive")) == f"{name} takes a defensive stance"
