"""The phase state machine (design page §2, §7), small enough to read in one sitting.

    round r: initiative ──(every side chose, rolls made, winner placed itself)──► slot 0
    slot i:  movement ──EndPhase──► attack ──EndPhase──► slot i+1 ... last slot ──► end of round
    end of round: objectives / round limit ──► battle ended, or round r+1: initiative

A slot is a side's troops, or (Personal initiative) one commander's unit alone. Slots with no
unit left to act are skipped.

Start of a slot, for the units acting in it: stances held since their last turn end (overwatch,
guard, defensive stance last until the start of the side's next turn); move/dash/action flags
reset; a defensive action taken since their last turn costs this turn's action; markers
"until the end of the next turn" become "until the end of this turn".
End of a slot: those markers are removed.
Start of a round: unspent Advantage of every kind but Deception expires, and Leadership points
handed to units expire with it.
"""

from __future__ import annotations

from game.core.system import possessive
from game.systems.tactical.rules import objectives
from game.systems.tactical.rules.commands import EndPhase
from game.systems.tactical.rules.common import known_side, not_waiting
from game.systems.tactical.rules.events import (
    AdvantageExpired,
    AttackGivenUp,
    BattleEnded,
    MarkerRemoved,
    PhaseChanged,
    RoundEnded,
    StanceChanged,
)
from game.systems.tactical.rules.start import initiative_pending
from game.systems.tactical.rules.state import GameState
from game.systems.tactical.rules.txn import Reject, Txn


def start_round(txn: Txn) -> None:
    """Begin the next round's Initiative phase: Advantage (but Deception) and Leadership expire."""
    st = txn.state
    sides = dict(st.sides)
    for sid, side in st.sides.items():
        adv = dict(side.advantage)
        for kind in ("command", "leadership", "personal"):
            if adv.get(kind, 0):
                txn.emit(AdvantageExpired(side=sid, advantage_kind=kind, points=adv[kind]))
                adv[kind] = 0
        sides[sid] = side.model_copy(update={"advantage": adv, "initiative_option": None,
                                             "personal_stat": None})
    txn.update(sides=sides)
    for u in list(txn.state.units.values()):
        if u.leadership:
            txn.emit(AdvantageExpired(side=u.side, advantage_kind="leadership", points=u.leadership,
                                      unit_id=u.id))
            txn.change_unit(u.id, leadership=0)
    txn.update(round=st.round + 1, phase="initiative", turn_order=(), turn_index=0)
    txn.update(pending=initiative_pending(txn.state))
    txn.emit(PhaseChanged(round=txn.state.round, phase="initiative"))


def _slot_units(state: GameState, index: int) -> list[str]:
    slot = state.turn_order[index]
    return [u.id for u in state.units.values() if u.alive and state.acts_in(slot, u)]


def begin_turns(txn: Txn) -> None:
    """The turn order is set: start the first slot with a unit to act."""
    txn.update(turn_index=0, phase="movement", pending=None)
    _start_slot_or_skip(txn)


def _start_slot_or_skip(txn: Txn) -> None:
    while True:
        st = txn.state
        if st.turn_index >= len(st.turn_order):
            end_round(txn)
            return
        if _slot_units(st, st.turn_index):
            start_slot(txn)
            return
        txn.update(turn_index=st.turn_index + 1)


def start_slot(txn: Txn) -> None:
    st = txn.state
    slot = st.turn_order[st.turn_index]
    txn.update(phase="movement")
    txn.emit(PhaseChanged(round=st.round, phase="movement", side=slot.side, unit_id=slot.unit_id))
    for uid in _slot_units(st, st.turn_index):
        u = txn.unit(uid)
        if u.stance != "none":
            txn.emit(StanceChanged(unit_id=uid, stance="none", reason="its side's turn begins"))
        if u.forfeit_attack:
            txn.emit(AttackGivenUp(unit_id=uid, reason="it took a defensive action"))
        txn.change_unit(
            uid, stance="none", stance_weapon=None, stance_advantage=0, stance_advantage_kind=None,
            moved=False, move_done=False, dashed=False, difficult_terrain=None,
            action_used=u.forfeit_attack, forfeit_attack=False,
            pinned="this_turn" if u.pinned else None,
            out_of_action="this_turn" if u.out_of_action else None,
        )


def end_slot(txn: Txn) -> None:
    st = txn.state
    for uid in _slot_units(st, st.turn_index):
        u = txn.unit(uid)
        if u.pinned == "this_turn":
            txn.emit(MarkerRemoved(unit_id=uid, marker="pinned"))
            u = txn.change_unit(uid, pinned=None)
        if u.out_of_action == "this_turn":
            txn.emit(MarkerRemoved(unit_id=uid, marker="out_of_action"))
            txn.change_unit(uid, out_of_action=None)
    txn.update(turn_index=st.turn_index + 1)
    _start_slot_or_skip(txn)


def end_round(txn: Txn) -> None:
    txn.emit(RoundEnded(round=txn.state.round))
    result = objectives.end_of_round_winner(txn.state)
    if result is not None:
        end_battle(txn, *result)
        return
    start_round(txn)


def end_battle(txn: Txn, winner: str | None, reason: str) -> None:
    txn.update(phase="ended", winner=winner, end_reason=reason, pending=None)
    txn.emit(BattleEnded(winner=winner, reason=reason))


def check_battle_end(txn: Txn) -> None:
    """After every accepted command: destroy_all met, or only one side left."""
    if txn.state.phase == "ended":
        return
    result = objectives.immediate_winner(txn.state)
    if result is not None:
        end_battle(txn, *result)


def handle_end_phase(txn: Txn, cmd: EndPhase) -> None:
    st = txn.state
    not_waiting(st)
    known_side(st, cmd.side)
    if st.phase == "initiative":
        raise Reject("the Initiative phase ends by itself once every side has chosen and rolled")
    slot = st.active_slot
    assert slot is not None
    if slot.side != cmd.side:
        raise Reject(f"it is {possessive(st.side_name(slot.side))} turn, not {possessive(st.side_name(cmd.side))}")
    if st.phase == "movement":
        txn.update(phase="attack")
        txn.emit(PhaseChanged(round=st.round, phase="attack", side=slot.side, unit_id=slot.unit_id))
        return
    end_slot(txn)
