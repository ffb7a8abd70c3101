"""The core apply kernel (game/core/kernel.py): one transaction and one dispatch for every system."""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from game.core.dice import Rng
from game.core.kernel import Txn, dispatch
from game.core.roller import Roller
from game.core.system import Accepted, Reject, Rejection

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Toy:
    total: int = 0
    rng: int = Rng.from_seed(7).state
    forced: tuple[int, ...] = ()


@dataclass(frozen=True)
class Cmd:
    kind: str
    n: int = 1


def _add(txn: Txn[Toy, str], cmd: Cmd) -> None:
    if cmd.n < 0:
        raise Reject("n must not be negative")
    value = txn.roll(6, "add")
    txn.state = replace(txn.state, total=txn.state.total + value * cmd.n)
    txn.emit(f"added {value}x{cmd.n}")


def _half_then_reject(txn: Txn[Toy, str], cmd: Cmd) -> None:
    txn.state = replace(txn.state, total=999)
    txn.emit("half done")
    raise Reject("changed my mind")


HANDLERS = {"add": _add, "broken": _half_then_reject}


def _finish(txn: Txn[Toy, str]) -> Accepted[Toy, str]:
    return txn.accepted(replace(txn.state, rng=txn.roller.rng_state, forced=txn.roller.forced_left))


def _apply(state: Toy, cmd: Any) -> Any:
    return dispatch(HANDLERS, cmd, begin=lambda: Txn(state, Roller(state.rng, state.forced)), finish=_finish)


def test_kernel_dispatch_runs_the_handler_of_the_kind_and_finishes_with_its_state_and_events() -> None:
    out = _apply(Toy(), Cmd("add", 2))
    assert isinstance(out, Accepted)
    value, _ = Rng(Toy().rng).roll(6)
    assert out.state.total == 2 * value
    assert out.events == (f"added {value}x2",)


def test_kernel_dispatch_refuses_an_unknown_kind_without_starting_a_transaction() -> None:
    started: list[int] = []

    def begin() -> Txn[Toy, str]:
        started.append(1)
        return Txn(Toy(), Roller(0))

    out = dispatch(HANDLERS, Cmd("jump"), begin=begin, finish=_finish)
    assert isinstance(out, Rejection) and "'jump'" in out.reason
    assert started == []


def test_kernel_a_reject_drops_the_half_built_transaction_and_never_changes_the_state() -> None:
    before = Toy(total=3)
    out = _apply(before, Cmd("broken"))
    assert out == Rejection("changed my mind")
    assert before.total == 3
    assert _apply(before, Cmd("add", -1)) == Rejection("n must not be negative")


def test_kernel_guard_refuses_every_command_before_its_handler() -> None:
    def guard(txn: Txn[Toy, str], kind: str) -> None:
        if txn.state.total >= 10 and not kind.startswith("gm_"):
            raise Reject("the game is over")

    out = dispatch(HANDLERS, Cmd("add"), begin=lambda: Txn(Toy(total=10), Roller(0)), finish=_finish, guard=guard)
    assert out == Rejection("the game is over")


def test_kernel_dice_come_forced_first_then_from_the_states_generator_and_are_written_back() -> None:
    state = Toy(forced=(4, 9))
    first = _apply(state, Cmd("add"))
    assert isinstance(first, Accepted)
    assert first.state.total == 4 and first.state.forced == (9,)
    assert first.state.rng == state.rng                      # a forced die leaves the generator alone
    second = _apply(first.state, Cmd("add"))
    assert isinstance(second, Accepted)
    assert second.state.total == 4 + 6                       # 9 clamped to the d6
    third = _apply(second.state, Cmd("add"))
    assert isinstance(third, Accepted)
    value, after = Rng(state.rng).roll(6)
    assert third.state.total == 10 + value and third.state.rng == after.state


def test_kernel_transaction_keeps_every_die_drawn_and_which_are_unreported() -> None:
    txn: Txn[Toy, str] = Txn(Toy(forced=(2,)), Roller(Toy().rng, (2,)))
    txn.roll(6, "a")
    txn.roll(10, "b")
    assert [(d.sides, d.purpose, d.forced) for d in txn.dice] == [(6, "a", True), (10, "b", False)]
    txn.dice[0].reported = True
    assert [d.purpose for d in txn.unreported()] == ["b"]


def test_kernel_roller_set_forced_replaces_the_queue_of_values_to_come() -> None:
    roller = Roller(0, (1, 2, 3))
    roller.set_forced((5,))
    assert roller.roll(6, "x") == 5 and roller.forced_left == ()


def _names_defined(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in ast.walk(tree) if isinstance(n, (ast.ClassDef, ast.FunctionDef))}


def test_kernel_is_the_only_transaction_and_dispatch_every_rule_system_applies_through() -> None:
    rules = sorted(ROOT.glob("game/systems/*/rules/*.py"))
    assert rules
    for path in rules:
        defined = _names_defined(path)
        assert not defined & {"Die", "Ctx", "RngRoller"}, f"{path}: its own dice or context class"
        assert "Roller" not in defined, f"{path}: a second Roller (use game.core.roller)"
    for system in ("tactical", "campaign", "mass"):
        engine = (ROOT / "game" / "systems" / system / "rules" / "engine.py").read_text(encoding="utf-8")
        assert "dispatch(" in engine, f"the {system} rules do not apply through game.core.kernel.dispatch"
        assert "except Reject" not in engine, f"the {system} rules catch Reject themselves"
