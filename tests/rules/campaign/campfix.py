"""Shared helpers for the campaign rules tests: small set-ups built in code (the shipped rules
data and catalogue), and a battle brought to its orders phase through real commands."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from game.core.system import Accepted
from game.systems.campaign.io.files import load_campaign_catalogue, load_campaign_rules
from game.systems.campaign.rules import SYSTEM
from game.systems.campaign.rules.combat import Play, SideFacts, UnitFacts, make_plays
from game.systems.campaign.rules.commands import (
    Declare,
    EndTurn,
    GiveOrders,
    MoveArmy,
    NarrativeDone,
    WritePost,
)
from game.systems.campaign.rules.models import (
    ArmySetup,
    CampaignMap,
    CampaignSetup,
    GeneralSetup,
    PlayerSetup,
    RulesData,
    UnitSetup,
    UnitType,
)
from game.systems.campaign.rules.state import CampaignState


@cache
def rules() -> RulesData:
    return load_campaign_rules()


@cache
def types() -> dict[str, UnitType]:
    return load_campaign_catalogue().unit_types()


def utype(name: str = "T", attack: int = 3, defense: int = 3, mobility: int = 3, line: bool = True,
          traits: Sequence[str] = (), armour: int = 0, large: int = 0) -> UnitType:
    return UnitType(name=name, attack=attack, defense=defense, mobility=mobility, line=line,
                    traits=tuple(traits), armour=armour, large=large)  # type: ignore[arg-type]


def facts(player: str, units: Sequence[tuple[str, UnitType]], level: int = 0, scouting: int = 0,
          armies: int = 1, locked: bool = False, difficult: bool = False,
          general_traits: Sequence[str] = ()) -> SideFacts:
    return SideFacts(player, tuple(UnitFacts(uid, t) for uid, t in units), level, frozenset(general_traits),
                     armies, scouting, locked, difficult)


def plays(a: SideFacts, am: str, b: SideFacts, bm: str, astr: Sequence[str] = (), bstr: Sequence[str] = (),
          avan: str | None = None, bvan: str | None = None) -> tuple[Play, Play]:
    return make_plays(a, am, tuple(astr), avan or a.units[0].id, b, bm, tuple(bstr),  # type: ignore[arg-type]
                      bvan or b.units[0].id)


def plain_map(w: int = 12, h: int = 10, terrain: str = "plains", overrides: dict[tuple[int, int], str] | None = None
              ) -> CampaignMap:
    cells = {(c, r): terrain for c in range(w) for r in range(h)}
    cells.update(overrides or {})
    return CampaignMap(w, h, cells)


def setup(armies: Sequence[tuple[str, str, tuple[int, int], Sequence[str], tuple[int, int] | None]],
          generals: Sequence[tuple[str, str, int, str]] = (), players: Sequence[str] = ("red", "blue", "green"),
          cmap: CampaignMap | None = None, rules_data: RulesData | None = None,
          extra_types: dict[str, UnitType] | None = None) -> CampaignSetup:
    """armies: (id, owner, hex, unit type ids, route); generals: (id, owner, level, army)."""
    ts = dict(types())
    ts.update(extra_types or {})
    arm = tuple(ArmySetup(aid, aid.title(), owner, at, tuple(UnitSetup(f"{aid}.{i + 1}", t) for i, t in enumerate(us)),
                          route) for aid, owner, at, us, route in armies)
    gens = tuple(GeneralSetup(gid, gid.title(), owner, lvl, army) for gid, owner, lvl, army in generals)
    return CampaignSetup("test", rules_data or rules(), ts, cmap or plain_map(),
                         tuple(PlayerSetup(p, p.title(), "zones") for p in players), arm, gens)


def must(state: CampaignState, cmd: Any) -> tuple[CampaignState, tuple[Any, ...]]:
    out = SYSTEM.apply(state, cmd)
    assert isinstance(out, Accepted), getattr(out, "reason", out)
    return out.state, out.events


def refused(state: CampaignState, cmd: Any) -> str:
    out = SYSTEM.apply(state, cmd)
    assert not out.accepted, f"{cmd} was accepted"
    return str(getattr(out, "reason", ""))


def to_orders(red_units: Sequence[str], blue_units: Sequence[str], *, red_general: int | None = None,
              blue_general: int | None = None, seed: int = 1, forced: Sequence[int] = (),
              cmap: CampaignMap | None = None, red_route: tuple[int, int] = (4, 5),
              extra_armies: Sequence[tuple[str, str, tuple[int, int], Sequence[str], tuple[int, int] | None]] = (),
              name_generals: bool = True, extra_types: dict[str, UnitType] | None = None) -> CampaignState:
    """A battle B1 at hex (5, 5): red's army `r` holds it, blue's army `b` (and any extra blue army
    at (6, 5)) marches in from (6, 5); `forced` dice are queued after the scouting rolls.
    Generals `rg` / `bg` of the given levels are named in their owners' posts (when asked)."""
    gens = []
    if red_general is not None:
        gens.append(("rg", "red", red_general, "r"))
    if blue_general is not None:
        gens.append(("bg", "blue", blue_general, "b"))
    s = SYSTEM.initial_state(setup([("r", "red", (5, 5), red_units, red_route),
                                    ("b", "blue", (6, 5), blue_units, (7, 5)), *extra_armies],
                                   gens, players=("red", "blue"), cmap=cmap, extra_types=extra_types), seed)
    s, _ = must(s, EndTurn())
    s, _ = must(s, MoveArmy(army="b", path=((5, 5),)))
    for a in [x for x in extra_armies if x[1] == "blue" and x[2] == (6, 5)]:
        s, _ = must(s, MoveArmy(army=a[0], path=((5, 5),)))
    s, _ = must(s, EndTurn())
    s, _ = must(s, Declare(player="red", hex=(5, 5), fight=True))  # (blue is then not asked)
    s, _ = must(s, EndTurn())
    s, _ = must(s, EndTurn())
    for p, g in (("red", "rg"), ("blue", "bg")):
        gen = (g,) if (name_generals and g in s.generals) else ()
        s, _ = must(s, WritePost(player=p, battle="B1", text="Onwards.", generals=gen))
        s, _ = must(s, NarrativeDone(player=p))
    assert s.phase == "orders"
    if forced:
        s = s.model_copy(update={"forced": tuple(forced)})
    return s


def fight(s: CampaignState, red: dict[str, Any], blue: dict[str, Any]) -> tuple[CampaignState, tuple[Any, ...]]:
    s, e1 = must(s, GiveOrders(player="red", battle="B1", **red))
    s, e2 = must(s, GiveOrders(player="blue", battle="B1", **blue))
    return s, e1 + e2


def kinds(events: Sequence[Any], kind: str) -> list[Any]:
    return [e for e in events if getattr(e, "kind", "") == kind]
