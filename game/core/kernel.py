"""The one apply kernel every rule system uses: a transaction and the dispatch around it.

A command is applied inside a `Txn`: the evolving state, the events emitted so far, and the
core `Roller` (GM-forced values first, then the state's seeded generator; every die kept). A
handler works on the transaction and raises `Reject(reason)` for anything illegal; `dispatch`
then drops the half-built transaction, so a refused command never changes a state:

    def handle_move(txn: MyTxn, cmd: Move) -> None:
        if not legal(txn.state, cmd):
            raise Reject("that hex is out of reach")
        txn.state = moved(txn.state, cmd)
        txn.emit(Moved(...))

    def apply(state, command):
        return dispatch(HANDLERS, command, begin=lambda: MyTxn(state, Roller(state.rng, state.forced)),
                        finish=MyTxn.finish)

The rule system says how its state stores the generator and the forced values: its `finish`
writes `txn.roller.rng_state` and `txn.roller.forced_left` back into the state (see
`Txn.accepted`). The kernel knows no system: it is part of the pure core.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from game.core.roller import Die, Roller
from game.core.system import Accepted, Outcome, Reject, Rejection

S = TypeVar("S")
E = TypeVar("E")
T = TypeVar("T", bound="Txn[Any, Any]")


@dataclass
class Txn(Generic[S, E]):
    """One command being applied: the evolving `state`, its `events` in order, the `roller`."""

    state: S
    roller: Roller
    events: list[E] = field(default_factory=list)

    # -------------------------------------------------------------- dice

    def roll(self, sides: int, purpose: str) -> int:
        """One die in 1..sides from the core roller (forced values first); it is kept in `dice`."""
        return self.roller.roll(sides, purpose)

    @property
    def dice(self) -> list[Die]:
        """Every die drawn in this transaction, in the order rolled."""
        return self.roller.dice

    def unreported(self) -> list[Die]:
        """The dice no event has reported yet."""
        return self.roller.unreported()

    # -------------------------------------------------------------- events

    def emit(self, event: E) -> None:
        self.events.append(event)

    def accepted(self, state: S | None = None) -> Accepted[S, E]:
        """The outcome: `state` (default: the transaction's) and the events emitted, in order."""
        return Accepted(self.state if state is None else state, tuple(self.events))


def dispatch(
    handlers: Mapping[str, Callable[[T, Any], None]],
    command: Any,
    *,
    begin: Callable[[], T],
    finish: Callable[[T], Accepted[Any, Any]],
    unknown: Callable[[Any], str] = lambda command: f"unknown command kind {getattr(command, 'kind', None)!r}",
    guard: Callable[[T, str], None] | None = None,
) -> Outcome:
    """Apply `command` with the handler listed for its `kind`: never raises for an illegal command.

    unknown(command): the reason for a kind no handler takes; begin: makes the transaction
    (only once the kind is known); guard(txn, kind): a check every
    command passes first (e.g. "the battle is over"), raising Reject; finish(txn): what the system
    does after every accepted handler (end conditions, writing the dice back) and the Accepted.
    A `Reject` raised by the guard, the handler or `finish` gives a Rejection and no new state."""
    kind = str(getattr(command, "kind", ""))
    handler = handlers.get(kind)
    if handler is None:
        return Rejection(unknown(command))
    txn = begin()
    try:
        if guard is not None:
            guard(txn, kind)
        handler(txn, command)
        return finish(txn)
    except Reject as exc:
        return Rejection(exc.reason)


__all__ = ["Accepted", "Die", "Outcome", "Reject", "Rejection", "Roller", "Txn", "dispatch"]
