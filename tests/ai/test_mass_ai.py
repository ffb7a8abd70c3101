"""The mass battle's computer commanders (game/systems/mass/ai.py): honest (the same decisions
whatever the hidden fields hold: the generator's state, the GM's forced dice, the other force's
sealed appointment), every command accepted, never an Act of Vice it could avoid, and better
than chance."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from game.core.ai import Budget, choose, play_out
from game.systems.mass.ai import player, side_of_command
from game.systems.mass.plugin import PLUGIN

MAPS = Path(__file__).resolve().parents[2] / "maps" / "mass"


def _initial(seed: int) -> Any:
    loaded = PLUGIN.load(MAPS / "borderland-valley.yaml")
    return PLUGIN.system.initial_state(PLUGIN.setup_of(loaded), seed)


def _game(seed: int, a: str = "hard", b: str = "easy") -> Any:
    return play_out(PLUGIN.system, _initial(seed), {"hida": player(a, random.Random(seed)),
                                                   "akira": player(b, random.Random(seed + 1))}, work=2000)


def _hidden_changed(state: Any, side: str) -> Any:
    appointments = {k: ({"heaven": "nobody", "honor": "nobody"} if k != side else v)
                    for k, v in state.appointments.items()}
    return state.model_copy(update={"rng": (state.rng * 13 + 7) % (2 ** 62) or 3, "forced": [10, 10, 1],
                                     "appointments": appointments})


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_mass_decisions_are_identical_whatever_the_hidden_fields_hold(level: str) -> None:
    system = PLUGIN.system
    game = _game(4)
    checked = 0
    for step in game.record.steps[:80]:
        state = step.before
        side = system.to_move(state)[0]
        other = _hidden_changed(state, side) if state.stage == "appoint" else \
            state.model_copy(update={"rng": (state.rng * 13 + 7) % (2 ** 62) or 3, "forced": [10, 10, 1]})
        a = choose(system, state, side, player(level, random.Random(2)), Budget(60, work=2000))
        b = choose(system, other, side, player(level, random.Random(2)), Budget(60, work=2000))
        assert a.decision.command == b.decision.command and a.decision.why == b.decision.why
        checked += 1
    assert checked >= 20


def test_every_command_a_commander_chooses_is_its_own_and_accepted() -> None:
    system = PLUGIN.system
    for seed in (1, 2):
        game = _game(seed)  # play_out raises RefusedCommand on a refused command
        assert game.over
        for step in game.record.steps:
            side = system.to_move(step.before)[0]
            assert side_of_command(step.before, step.command) == side
            assert step.command in system.legal_commands(step.before)


def test_a_computer_commander_never_surrenders_cedes_flees_or_wrests_command() -> None:
    for seed in (3, 5):
        game = _game(seed, "hard", "hard")
        kinds = {s.command.kind for s in game.record.steps}
        actions = {getattr(s.command, "action", "") for s in game.record.steps}
        assert not kinds & {"surrender", "cede", "wrest_command"}
        assert "flee" not in actions


def test_hard_beats_random_with_sides_swapped() -> None:
    wins = 0
    for g in range(4):
        hard = ("hida", "akira")[g % 2]
        seats = {s: player("hard" if s == hard else "random", random.Random(g)) for s in ("hida", "akira")}
        game = play_out(PLUGIN.system, _initial(50 + g), seats, work=2000)
        wins += game.winner == hard
    assert wins >= 3


def test_the_mass_summary_names_the_winner_for_the_arena() -> None:
    game = _game(6)
    assert PLUGIN.system.summary(game.record.state)["winner"] == game.winner
    assert game.winner in ("hida", "akira")
