"""The dynamic state of an AI:L battle: one immutable pydantic model.

`GameState` holds everything that changes during play (round, phase, turn order, units,
Advantage pools, the pending decision, the generator state, forced rolls). The static context
(the `BattleSetup` and the `Board`) rides along but is not part of the serialised state:
`to_dict()` gives plain JSON/YAML types and `GameState.from_dict(d, setup, board)` rebuilds it.
Two states are equal when their dynamic parts are equal.

New states are made with `model_copy(update=...)`; nothing is ever mutated in place.
"""

# No `from __future__ import annotations`: pydantic would evaluate every annotation of these models
# from its string at import, about a quarter of this module's import time (start-up, issue 14).
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from game.core.board import Board
from game.core.hexgrid import Hex
from game.systems.tactical.rules.models import BattleSetup, UnitType

Phase = Literal["initiative", "movement", "attack", "ended"]
Stance = Literal["none", "overwatch", "guard", "defensive"]
AdvantageKind = Literal["command", "leadership", "deception", "personal"]
# The kinds a unit may spend on its own casualty rolls (design page §3: Leadership points it
# holds; Personal Advantage for the commander's unit).
CasualtyAdvantageKind = Literal["leadership", "personal"]
ADVANTAGE_KINDS: tuple[AdvantageKind, ...] = ("command", "leadership", "deception", "personal")
InitiativeOption = Literal["tactics", "leadership", "deception", "personal"]
PersonalStat = Literal["physique", "senses", "aether"]
# How long a pinned / out-of-action marker still lasts:
#   "next_turn": until the end of the unit's side's next turn (that turn has not started yet);
#   "this_turn": until the end of the turn now being played by the unit's side.
MarkerLife = Literal["next_turn", "this_turn"]


class Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class UnitState(Frozen):
    id: str
    type_id: str
    side: str
    hex: Hex
    strength: int
    adrenaline: int
    stance: Stance = "none"
    stance_weapon: str | None = None  # the weapon held for overwatch
    # Advantage named with an overwatch / guard stance for the hit roll of its triggered shot
    # (spent when it fires, as far as the points are still there).
    stance_advantage: int = 0
    stance_advantage_kind: AdvantageKind | None = None
    pinned: MarkerLife | None = None
    out_of_action: MarkerLife | None = None
    moved: bool = False  # left its hex during its side's current/latest turn (not braced)
    move_done: bool = False  # its move action of this turn is taken (a dash may follow)
    dashed: bool = False  # its second move (dash, charge or special move) of this turn is taken
    action_used: bool = False  # its one Attack-phase action of this turn is used
    # The difficult terrain it stood in or entered during its side's current turn (the first met),
    # or None: such a unit cannot dash or charge this turn (docs/rules.md §4.3).
    difficult_terrain: str | None = None
    forfeit_attack: bool = False  # a defensive action took its next turn's action
    acted_round: int = 0  # last round in which it used its action or took a defensive action
    leadership: int = 0  # Leadership Advantage points handed to it by its commander
    # Standing order: Advantage points spent on EACH of its casualty rolls when it is attacked
    # (while it has them), and of which kind. Set by its side (SetCasualtyAdvantage); a
    # defensive-action answer may choose otherwise for one attack.
    casualty_advantage: int = 0
    casualty_advantage_kind: CasualtyAdvantageKind | None = None
    destroyed: bool = False
    annihilated: bool = False

    @property
    def alive(self) -> bool:
        return not self.destroyed


class SideState(Frozen):
    id: str
    advantage: dict[AdvantageKind, int] = Field(default_factory=lambda: {k: 0 for k in ADVANTAGE_KINDS})
    initiative_option: InitiativeOption | None = None  # this round's choice
    personal_stat: PersonalStat | None = None


class TurnSlot(Frozen):
    """One activation in the turn order: a side's troops, or (Personal initiative) a commander's unit."""

    side: str
    unit_id: str | None = None  # set for a Personal slot: only this unit acts in it


class DeclaredAttack(Frozen):
    """An attack waiting for the defender's answer to the defensive-action prompt."""

    attacker_id: str
    target_id: str
    weapon: str
    advantage: int = 0
    advantage_kind: AdvantageKind | None = None
    charge: bool = False


class Pending(Frozen):
    """A decision the game waits for before anything else can happen."""

    kind: Literal["initiative_choice", "turn_place", "defensive_action"]
    sides: tuple[str, ...]  # the side(s) whose answer is awaited
    unit_id: str | None = None  # defensive_action: the unit being attacked
    attack: DeclaredAttack | None = None
    ranking: tuple[TurnSlot, ...] = ()  # turn_place: slots in roll order (winner first)
    trailing: tuple[TurnSlot, ...] = ()  # turn_place: troops that forfeited initiative (go last)


class GameState(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    round: int = 1
    phase: Phase = "initiative"
    turn_order: tuple[TurnSlot, ...] = ()
    turn_index: int = 0
    units: dict[str, UnitState]
    sides: dict[str, SideState]
    pending: Pending | None = None
    winner: str | None = None
    end_reason: str | None = None
    rng: int = 0
    forced_rolls: tuple[int, ...] = ()
    seq: int = 0
    # Unit types made by the GM for one unit (edited stats): id -> type. Looked up before the
    # catalogue by unit_type(); saved with the state. (Added for GM tools, game/systems/tactical/rules/gm.py.)
    custom_types: dict[str, UnitType] = Field(default_factory=dict)

    setup: BattleSetup = Field(exclude=True, repr=False)
    board: Board = Field(exclude=True, repr=False)

    # ------------------------------------------------------------------ serialisation

    def to_dict(self) -> dict[str, Any]:
        """The dynamic state as plain JSON/YAML types (hexes become [q, r] lists)."""
        return self.model_dump(mode="json")

    @classmethod
    def from_dict(cls, d: dict[str, Any], setup: BattleSetup, board: Board) -> "GameState":
        return cls.model_validate({**d, "setup": setup, "board": board})

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------------------ lookups

    @property
    def active_slot(self) -> TurnSlot | None:
        if self.phase not in ("movement", "attack") or not self.turn_order:
            return None
        return self.turn_order[self.turn_index]

    @property
    def active_side(self) -> str | None:
        slot = self.active_slot
        return slot.side if slot else None

    def unit(self, unit_id: str) -> UnitState:
        return self.units[unit_id]

    def unit_type(self, unit_id: str) -> UnitType:
        type_id = self.units[unit_id].type_id
        custom = self.custom_types.get(type_id)
        return custom if custom is not None else self.setup.catalogue.units[type_id]

    def unit_name(self, unit_id: str) -> str:
        """The name players read: the scenario's name for the unit, or else its type's name
        numbered among the unnamed units of its side and type ("Rifle Section 2"). The number
        is stable: the set-up's units in file order first, then units placed later (GM) in the
        order they were placed; a unit destroyed keeps its number. Ids are for GM detail only."""
        named, numbers = _name_table(self.setup, self.units)
        name = named.get(unit_id)
        if name is not None:
            return name
        n = numbers.get(unit_id)
        if n is None:
            return unit_id
        return f"{self.unit_type(unit_id).name} {n}"

    def names_version(self) -> object:
        """An object that stays the same (the same object) from one state to the next while every
        unit keeps its name, and changes when a unit's name may change (a GM placed, removed or
        changed a unit): lines naming units can be kept while it holds."""
        return _name_table(self.setup, self.units)[1]

    def unit_at(self, h: Hex) -> UnitState | None:
        for u in self.units.values():
            if u.alive and u.hex == h:
                return u
        return None

    def occupied(self) -> dict[Hex, UnitState]:
        return {u.hex: u for u in self.units.values() if u.alive}

    def live_units(self, side: str | None = None) -> list[UnitState]:
        return [u for u in self.units.values() if u.alive and (side is None or u.side == side)]

    def side_name(self, side: str) -> str:
        for s in self.setup.sides:
            if s.id == side:
                return s.name
        return side

    def personal_units(self) -> dict[str, str]:
        """Side -> commander's unit id for this round's Personal slots."""
        return {s.side: s.unit_id for s in self.turn_order if s.unit_id is not None}

    def acts_in(self, slot: TurnSlot, unit: UnitState) -> bool:
        """Whether `unit` activates in `slot` (a Personal slot holds only the commander's unit)."""
        if unit.side != slot.side:
            return False
        if slot.unit_id is not None:
            return unit.id == slot.unit_id
        return self.personal_units().get(unit.side) != unit.id


# The name tables of the latest (set-up, units) pairs seen, newest first: a pure memo (states never
# change in place), so a panel naming many units costs one pass over the units, not one per name.
_NAMES: list[tuple[BattleSetup, dict[str, UnitState], dict[str, str], dict[str, int]]] = []
_NAMES_SIZE = 8


def _name_table(setup: BattleSetup, units: dict[str, UnitState]) -> tuple[dict[str, str], dict[str, int]]:
    """The scenario's names (id -> name) and every other unit's number among the unnamed units of
    its side and base type (see GameState.unit_name), worked out for all units at once."""
    for kept_setup, kept_units, kept_named, kept_numbers in _NAMES:
        if kept_units is units and kept_setup is setup:
            return kept_named, kept_numbers
    for kept_setup, kept_units, kept_named, kept_numbers in _NAMES:
        # the same roster in another state (a unit moved, hit...): the same names. The dice log
        # names units in the state before each of its 80 commands: one table each cost 2 ms at
        # 1,000 units, 0.1 s a command
        if kept_setup is setup and _same_roster(kept_units, units):
            _NAMES.insert(0, (setup, units, kept_named, kept_numbers))
            del _NAMES[_NAMES_SIZE:]
            return kept_named, kept_numbers
    named = {su.id: su.name for su in setup.units if su.name}
    set_up: dict[tuple[str, str], list[str]] = {}
    for su in setup.units:
        if not su.name:
            set_up.setdefault((su.side, su.type), []).append(su.id)
    known = {g: set(ids) for g, ids in set_up.items()}
    placed: dict[tuple[str, str], list[str]] = {}
    group_of: dict[str, tuple[str, str]] = {}
    for u in units.values():
        g = group_of[u.id] = (u.side, _base_type(u.type_id))
        if u.id not in known.get(g, ()):
            placed.setdefault(g, []).append(u.id)
    numbers: dict[str, int] = {}
    for g in set_up.keys() | placed.keys():
        for i, uid in enumerate(set_up.get(g, []) + placed.get(g, [])):
            if group_of.get(uid) == g:  # numbered in the group it is in now
                numbers[uid] = i + 1
    _NAMES.insert(0, (setup, units, named, numbers))
    del _NAMES[_NAMES_SIZE:]
    return named, numbers


def _same_roster(a: dict[str, UnitState], b: dict[str, UnitState]) -> bool:
    """Whether two units mappings hold the same ids in the same order, each on the same side with
    the same type: all the name table reads (a child state shares its parent's unchanged units)."""
    if len(a) != len(b):
        return False
    for (ka, ua), (kb, ub) in zip(a.items(), b.items(), strict=True):
        if ka != kb or (ua is not ub and (ua.side != ub.side or ua.type_id != ub.type_id)):
            return False
    return True


def _base_type(type_id: str) -> str:
    """The catalogue type behind a GM-edited unit's own type ("rifle@r1" -> "rifle")."""
    return type_id.split("@", 1)[0]
