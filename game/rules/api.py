"""The small interface every rule system shares (AI:L tactical now; operational and mass-battle
layers later). The client, saves and replays talk to a rule system only through this.

    state = rules.initial_state(setup, board, seed)
    outcome = rules.apply(state, command)   # .accepted True: .state, .events; False: .reason
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from game.board import Board


class Outcome(Protocol):
    @property
    def accepted(self) -> bool: ...


@runtime_checkable
class RuleSystem(Protocol):
    name: str

    def initial_state(self, setup: Any, board: Board, seed: int) -> Any: ...

    def legal_commands(self, state: Any) -> list[Any]: ...

    def apply(self, state: Any, command: Any) -> Any: ...

    def preview(self, state: Any, command: Any) -> Any: ...

    def parse_command(self, d: dict[str, Any]) -> Any: ...
