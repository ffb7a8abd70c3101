"""The mass battle's computer commanders with allies (game/systems/mass/ai.py): an ally's losses
count as their own, and they never challenge an ally's individual nor contest an ally's ground."""

from __future__ import annotations

import random
from typing import Any

import pytest

from game.core.ai import Budget, choose, play_out
from game.systems.mass.ai import harm, player
from game.systems.mass.rules import commands as c
from game.systems.mass.rules.odds import Odds
from game.systems.mass.rules.system import SYSTEM
from tests.rules.mass.massfix import force, force_dice, ok, person, setup, start

WEAK = {"earth": 1, "water": 1, "fire": 1, "air": 1, "void": 1}
STRONG = {"earth": 5, "water": 5, "fire": 5, "air": 5, "void": 5}
SWORD = {"battle": 5, "kenjutsu": 5, "iaijutsu": 5}


def _allied() -> Any:
    return start(setup(force("red", allies=["green"]), force("blue"), force("green", allies=["red"]),
                       terrain="stalemated"), seed=11)


def test_an_allys_losses_count_as_the_computers_own() -> None:
    s = _allied()
    odds = Odds("casualties", (), percents={"green:none": {10: 1.0}, "blue:none": {4: 1.0}})
    assert harm(s, odds, "red") == -10 + 4
    assert harm(s, odds, "blue") == 10 - 4


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_a_computer_commander_does_not_duel_its_weak_ally_even_when_it_would_surely_win(level: str) -> None:
    s = start(setup(force("red", people=[person("red-cmd", rings=WEAK, skills={"battle": 1})], allies=["green"]),
                    force("blue", people=[person("blue-cmd", rings=STRONG, skills=SWORD)]),
                    force("green", people=[person("green-cmd", rings=STRONG, skills=SWORD)], allies=["red"]),
                    terrain="accessible"), seed=3)
    s, _ = ok(s, c.GmSetAdvantage(force="green", way="heaven", value=5))
    s, _ = ok(s, c.RollWay(force=SYSTEM.to_move(s)[0], way="strategy"))
    s = force_dice(s, *([1] * 30))
    s, _ = ok(s, c.RollActionDice(force=SYSTEM.to_move(s)[0]))
    assert s.stage == "phases" and SYSTEM.to_move(s) == ["green"]
    assert any(getattr(x, "enemy", None) == "red-cmd" for x in SYSTEM.legal_commands(s))  # the rules allow it
    picked = choose(SYSTEM, s, "green", player(level, random.Random(1)), Budget(60, work=5000)).decision.command
    assert getattr(picked, "enemy", None) != "red-cmd"


def test_a_computer_commander_never_challenges_an_allys_individual_nor_contests_its_ground() -> None:
    for seed in (1, 2):
        game = play_out(SYSTEM, _allied(), {f: player(level, random.Random(seed))
                                            for f, level in (("red", "hard"), ("blue", "hard"), ("green", "easy"))},
                        work=2000)
        assert game.over
        against_allies = []
        for step in game.record.steps:
            cmd, s = step.command, step.before
            if getattr(cmd, "action", "") not in ("duel", "contentious_ground"):
                continue
            foe = s.force_of(cmd.enemy).id if cmd.enemy else cmd.target_force
            if s.setup.allied(cmd.force, foe):
                against_allies.append(cmd)
        assert against_allies == []
