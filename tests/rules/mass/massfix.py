"""Builders for short mass-battle tests: a battle of two (or more) small forces, and helpers to
drive it through `apply` with forced dice."""

from __future__ import annotations

from typing import Any

from game.core.system import Accepted
from game.systems.mass.io.files import load_mass_rules
from game.systems.mass.rules import commands as c
from game.systems.mass.rules.models import Individual, MassRules, MassSetup
from game.systems.mass.rules.state import MassState
from game.systems.mass.rules.system import SYSTEM

_RULES: MassRules | None = None


def rules(**over: Any) -> MassRules:
    global _RULES
    if _RULES is None:
        _RULES = load_mass_rules()
    return _RULES.model_copy(update=over) if over else _RULES


def person(pid: str, **kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"id": pid, "name": pid.title(),
                            "rings": {"earth": 3, "water": 3, "fire": 3, "air": 3, "void": 3},
                            "skills": {"battle": 3, "divination": 2, "politics": 2, "oratory": 2, "kenjutsu": 3,
                                       "iaijutsu": 2, "spellcraft": 2}, "status": 3}
    base.update(kw)
    return base


def force(fid: str, people: list[dict[str, Any]] | None = None, brutes: list[dict[str, Any]] | None = None,
          **kw: Any) -> dict[str, Any]:
    people = people or [person(f"{fid}-cmd"), person(f"{fid}-mage", tags=["shugenja"])]
    out = {"id": fid, "name": fid.title(), "commander": people[0]["id"], "individuals": people,
           "brutes": [{"armour": "none", "count": 100}] if brutes is None else brutes}
    out.update(kw)
    return out


def setup(*forces: dict[str, Any], terrain: str = "constricted", prepared: bool = False,
          rules_: MassRules | None = None) -> MassSetup:
    fs = list(forces) or [force("red"), force("blue")]
    return MassSetup.model_validate({"name": "test", "terrain": terrain, "prepared": prepared, "forces": fs,
                                     "rules": rules_ or rules()})


def start(su: MassSetup | None = None, seed: int = 7) -> MassState:
    return SYSTEM.initial_state(su or setup(), seed)


def ok(state: MassState, cmd: Any) -> tuple[MassState, tuple[Any, ...]]:
    out = SYSTEM.apply(state, cmd)
    assert isinstance(out, Accepted), getattr(out, "reason", out)
    return out.state, out.events


def refused(state: MassState, cmd: Any) -> str:
    out = SYSTEM.apply(state, cmd)
    assert not out.accepted, "expected a refusal"
    return str(getattr(out, "reason", ""))


def force_dice(state: MassState, *values: int) -> MassState:
    return ok(state, c.GmForceRolls(values=tuple(values)))[0]


def to_phases(state: MassState, dice: dict[str, list[int]] | None = None) -> MassState:
    """Roll Strategy (forced: the first force wins) and the action dice (forced if given)."""
    s = state
    assert s.stage == "strategy"
    s, _ = ok(s, c.RollWay(force=SYSTEM.to_move(s)[0], way="strategy"))
    forced: list[int] = []
    if dice:
        for fid in s.order:
            if s.forces[fid].in_field and s.forces[fid].commander:
                forced += dice[fid]
    if forced:
        s = force_dice(s, *forced)
    s, _ = ok(s, c.RollActionDice(force=SYSTEM.to_move(s)[0]))
    return s


def texts(events: tuple[Any, ...]) -> list[str]:
    return [getattr(e, "text", "") for e in events]


def individual(**kw: Any) -> Individual:
    return Individual.model_validate(person("x", **kw))
