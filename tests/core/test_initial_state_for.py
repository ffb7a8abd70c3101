"""game.core.system.initial_state_for: a replay starts under the readings the save was played with."""

from __future__ import annotations

from typing import Any

from game.core.system import initial_state_for


class Plain:
    def initial_state(self, setup: Any, seed: int) -> tuple[str, Any, int]:
        return ("plain", setup, seed)


class Versioned(Plain):
    def initial_state_for(self, setup: Any, seed: int, saved: Any) -> tuple[str, Any, int]:
        return ("as saved: " + str(saved), setup, seed)


def test_initial_state_for_uses_the_systems_own_hook_when_it_has_one() -> None:
    assert initial_state_for(Versioned(), "setup", 3, "readings 1") == ("as saved: readings 1", "setup", 3)


def test_initial_state_for_falls_back_to_the_initial_state_of_a_system_without_the_hook() -> None:
    assert initial_state_for(Plain(), "setup", 3, "anything") == ("plain", "setup", 3)
