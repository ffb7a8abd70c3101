"""The why lines a person reads while the computer plays, in the three rule systems (docs/ai.md,
"In the window"; QA of a game watched at 960 x 600): every figure says what it counts (strength
points, casualties on balance, points of the Wave's losses, a roll's average, a chance), no why
says its command again (the window shows the command beside it: the toast, the dice log's heading,
the hint), no '(s)' plural, and no unit id where the unit has a name. And a side's button in the
players dialog keeps a whole short word rather than a word cut in two."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from game.core.ai import play_out
from game.core.plugin import Plugin
from game.shell.scenes.seats import short
from game.systems.campaign.plugin import PLUGIN as CAMPAIGN
from game.systems.mass.plugin import PLUGIN as MASS
from game.systems.tactical.plugin import PLUGIN as TACTICAL

MAPS = Path(__file__).resolve().parents[2] / "maps"
DECIMAL = re.compile(r"(?<![\d,])[+-]?\d+\.\d+")
# what a decimal figure may be, by system: the words that give its unit somewhere on its line
UNITS = {
    "tactical": ("strength points", "on average"),
    "campaign": ("casualties on balance",),
    "mass": ("points our way", "points against us", "on average"),
}


def _game(plugin: Plugin, path: Path, levels: dict[str, str], *, commands: int, rounds: int | None = None) -> Any:
    setup = plugin.setup_of(plugin.load(path))
    initial = plugin.system.initial_state(setup, 7)
    seats = {side: plugin.players[level](random.Random(f"qa:{side}")) for side, level in levels.items()}
    return play_out(plugin.system, initial, seats, seconds=30.0, work=1500, max_commands=commands, max_rounds=rounds)


GAMES: dict[str, Callable[[], Any]] = {
    "tactical": lambda: _game(TACTICAL, MAPS / "default.yaml", {"zone": "hard", "zenith": "easy"}, commands=120),
    "campaign": lambda: _game(CAMPAIGN, MAPS / "campaign" / "teaching.yaml",
                              {"zones": "hard", "resistance": "easy", "zenith": "hard", "jibril": "easy"},
                              commands=400, rounds=8),
    "mass": lambda: _game(MASS, MAPS / "mass" / "borderland-valley.yaml", {"hida": "hard", "akira": "easy"},
                          commands=400),
}
PLUGINS = {"tactical": TACTICAL, "campaign": CAMPAIGN, "mass": MASS}


@cache
def _played(system: str) -> Any:
    return GAMES[system]()


@pytest.fixture(params=sorted(GAMES))
def played(request: pytest.FixtureRequest) -> tuple[str, Any]:
    return request.param, _played(request.param)


def test_every_figure_in_a_why_line_says_what_it_counts(played: tuple[str, Any]) -> None:
    system, game = played
    assert len(game.whys) > 20, f"{system}: too few why lines to read ({len(game.whys)})"
    bare = [why for why in game.whys.values()
            if DECIMAL.search(why) and not any(unit in why for unit in UNITS[system])]
    assert not bare, f"{system}: figures with no unit: {bare[:3]}"


def test_no_why_line_says_its_command_again_nor_writes_a_plural_as_s(played: tuple[str, Any]) -> None:
    system, game = played
    plugin = PLUGINS[system]
    for i, why in game.whys.items():
        step = game.record.steps[i]
        said = plugin.system.describe_command(step.before, step.command)
        assert "(s)" not in why, why
        if system != "mass":  # (the mass board cuts the choice's label off the front itself: _reason)
            assert not why.startswith(said), (said, why)


def test_the_tactical_why_lines_name_units_never_their_ids() -> None:
    game = _played("tactical")
    units = game.record.initial.units
    ids = [uid for uid in units if game.record.initial.unit_name(uid) != uid]
    assert ids
    for why in game.whys.values():
        assert not any(re.search(rf"\b{re.escape(uid)}\b", why) for uid in ids), why


def test_the_campaign_names_a_battle_as_a_battle_and_gives_a_fight_its_unit() -> None:
    game = _played("campaign")
    lines = list(game.whys.values())
    orders = [why for why in lines if "equilibrium" in why]
    assert orders and all(why.startswith("battle B") and "casualties on balance" in why for why in orders), orders[:2]
    moves = [why for why in lines if "(the fight: " in why]
    assert moves and all(re.search(r"\(the fight: [+-]\d+\.\d\d casualties on balance\)", why) for why in moves)


def test_a_side_button_keeps_a_whole_short_word_rather_than_cutting_a_long_one() -> None:
    # QA at 960 x 600: "Zone Expedi\u2026: easy" when two sides left room for 12 letters
    assert short("Zone Expeditionary Column", 12) == "Zone"
    assert short("Zenith Town Militia", 12) == "Zenith Town"
    assert short("Resistance Fronts", 6) == "Resis\u2026"  # no whole word fits: marked cut
    assert short("Al Qadir Host", 12) == "Al Qadir"


def test_a_defensive_action_answer_gives_the_other_answers_figures_and_the_attack_it_costs() -> None:
    # QA: "take the defensive action: expected loss 4.80" alone did not say what it was weighed against
    game = _played("tactical")
    answers = [(step.command, game.whys[i]) for i, step in enumerate(game.record.steps)
               if step.command.kind == "defensive_action" and i in game.whys]
    assert answers
    for command, why in answers:
        if command.accept:
            assert "; without it " in why and "the attack it costs is worth" in why, why
        else:
            assert "; with it " in why and "not worth the attack it costs" in why, why


def test_the_random_yardstick_counts_its_commands_in_words() -> None:
    from game.core.ai import Budget, RandomPlayer

    one = RandomPlayer(random.Random(1), lambda system, view, side: ["the only command"])
    assert one.decide(None, None, "red", Budget()).why == "at random among 1 command"  # type: ignore[arg-type]
    two = RandomPlayer(random.Random(1), lambda system, view, side: ["a", "b"])
    assert two.decide(None, None, "red", Budget()).why == "at random among 2 commands"  # type: ignore[arg-type]
