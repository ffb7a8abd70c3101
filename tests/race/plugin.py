"""The race as the program sees it: its Plugin, as a system's folder under game/systems/ builds
one in its plugin.py (rules in racesystem.py, files in load_race, the window in raceclient.py)."""

from __future__ import annotations

from game.core.plugin import Plugin, SystemClient
from game.core.system import RuleSystem
from tests.race import racesystem


def rules() -> RuleSystem:
    return racesystem.SYSTEM


def client() -> SystemClient:
    from tests.race import raceclient

    return raceclient


PLUGIN = Plugin("race", rules, racesystem.load_race, client)
