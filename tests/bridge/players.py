"""Scripted players for battles fought out (tests/bridge): a deterministic policy that plays a
tactical or a mass battle with the battle's own legal commands to its end (a side wins or the
round limit comes), and returns the command script it played. No GM command, no surrender: a
real fight, so the way back is tested on real losses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from game.core.system import Accepted
from game.table import TABLE

TACTICAL_PREFERENCE = ("attack", "charge", "move", "dash")
MASS_AVOID = ("surrender", "cede", "hold")


def _pick(system_name: str, legal: list[Any]) -> Any:
    if system_name == "ail-tactical":
        for kind in TACTICAL_PREFERENCE:
            for c in legal:
                if c.kind == kind:
                    return c
        return legal[0]
    actions = [c for c in legal if c.kind == "action"]
    if actions:
        return actions[0]
    return next((c for c in legal if c.kind not in MASS_AVOID), legal[0])


def play_out(battle_file: Path, limit: int = 5000, stop_after: int | None = None) -> tuple[list[dict[str, Any]], Any]:
    """(the command script played, the final state) of a generated battle file."""
    plugin = TABLE.plugin_named(TABLE.name_in(yaml.safe_load(battle_file.read_text(encoding="utf-8"))))
    loaded = plugin.load(battle_file)
    system = plugin.system
    state = system.initial_state(plugin.setup_of(loaded), loaded.seed)
    script: list[dict[str, Any]] = []

    def over(s: Any) -> bool:
        return bool(getattr(s, "phase", None) == "ended" or getattr(s, "stage", None) == "ended")

    while not over(state) and len(script) < limit and (stop_after is None or len(script) < stop_after):
        legal = system.legal_commands(state)
        assert legal, f"{battle_file.name}: nothing legal to do and the battle is not over"
        cmd = _pick(system.name, legal)
        outcome = system.apply(state, cmd)
        assert isinstance(outcome, Accepted), outcome
        state = outcome.state
        script.append(system.command_to_data(cmd))
    return script, state


def write_script(battle_file: Path, script: list[dict[str, Any]], out: Path) -> Path:
    """The script in the form `python -m game run BATTLE --commands SCRIPT` reads."""
    data: Any = script
    if "mass" in battle_file.name:
        data = {"system": "mass-battle", "battle": battle_file.name, "commands": script}
    out.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return out
