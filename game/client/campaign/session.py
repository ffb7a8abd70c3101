"""A campaign game as the client holds it: the rules, one Record history, the loaded set-up."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.core.record import Record
from game.core.system import Rejection
from game.rules.campaign import SYSTEM


@dataclass
class CampaignSession:
    system: Any
    record: Record
    loaded: Any
    path: Path | None = None

    @classmethod
    def start(cls, loaded: Any) -> CampaignSession:
        return cls(SYSTEM, Record(SYSTEM, SYSTEM.initial_state(loaded.setup, loaded.seed)), loaded,
                   getattr(loaded, "path", None))

    @property
    def state(self) -> Any:
        return self.record.state

    def apply(self, command: Any) -> tuple[bool, tuple[Any, ...], str | None]:
        outcome = self.record.apply(command)
        if isinstance(outcome, Rejection):
            return False, (), outcome.reason
        return True, tuple(outcome.events), None
