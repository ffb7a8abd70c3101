"""The mass-battle computer's why line names its force once (issue 32 follow-up): the board and
the log line ("Why (Akira's army, computer easy): ...") name the force already, so the why text
itself starts with what was chosen ("Heavy Ground: ..."), not with the force's name again."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from game.core.ai import Budget, choose, play_out
from game.shell.seats import why_line
from game.systems.mass.ai import player
from game.systems.mass.plugin import PLUGIN

MAPS = Path(__file__).resolve().parents[2] / "maps" / "mass"


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_a_mass_why_line_names_the_force_once_as_the_window_names_it_already(level: str) -> None:
    system = PLUGIN.system
    loaded = PLUGIN.load(MAPS / "borderland-valley.yaml")
    start = system.initial_state(PLUGIN.setup_of(loaded), 3)
    game = play_out(system, start, {"hida": player("hard", random.Random(3)),
                                    "akira": player("easy", random.Random(4))}, work=2000)
    checked = 0
    for step in game.record.steps[:120]:
        state = step.before
        side = system.to_move(state)[0]
        d = choose(system, state, side, player(level, random.Random(2)), Budget(60, work=2000)).decision
        name = state.forces[side].name
        line = why_line(level, name, d.why)
        assert not d.why.startswith(name + ":"), line
        assert line.count(name + ":") == 0, line
        checked += 1
    assert checked >= 20
