"""Who may wrest command of a force now (battle-waves §7.3), found directly from the state.

A member of a force may take its command from the one who leads it: an Act of Vice, and from
then on that member is the real commander (`engine._wrest`). It is not a decision the battle
waits for, so it is not in `choices.legal_commands` (the list of the force whose turn it is, which
the computer players choose from, and they never wrest): any member of a force still on the field
may do it whenever the rules allow, whoever's turn it is.

* `wrest_refusal(state, force)`: why no member of that force may wrest command now, or None.
* `wrest_choices(state, force)`: every individual of the force, each with its `WrestCommand` and
  either None (`engine.apply` accepts it) or the reason apply refuses it, tested in the order
  apply tests them (tests/rules/mass/test_wresting.py checks the two agree on random battles).
  The reasons are apply's own words, except for an individual unable to fight, which is named
  with its wound level ("Kuni Mai is Down") where apply gives the id.
* `wrest_label(state, command)` and `wrest_effects(state, command)`: what the wrest does, in words
  (the board's confirmation and its log line).

Pure: reads the state, changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.systems.mass.rules import commands as c
from game.systems.mass.rules.pools import can_fight, level_name
from game.systems.mass.rules.state import MassState


@dataclass(frozen=True)
class WrestChoice:
    """One individual who might take command: the command, their name, and why the rules
    refuse it now (None: they accept it)."""

    command: c.WrestCommand
    name: str
    refusal: str | None

    @property
    def allowed(self) -> bool:
        return self.refusal is None


def wrest_refusal(s: MassState, force: str) -> str | None:
    """Why nobody of `force` may wrest its command now (the checks `engine.apply` makes before it
    looks at the individual), or None when it depends on who."""
    if s.stage == "ended":
        return "the battle is over"
    if s.stage in ("commander", "duel_answer"):
        return "command cannot change hands now: " + (
            "name a new commander instead" if s.stage == "commander" else "a duel waits for its answer")
    f = s.forces.get(force)
    if f is None:
        return f"there is no force {force!r} in this battle"
    if not f.in_field:
        return f"{s.says(f.id, 'is')} no longer on the field ({f.status})"
    return None


def wrest_choices(s: MassState, force: str) -> list[WrestChoice]:
    """Every individual of `force` (in the force's order), each with its command and the reason
    the rules refuse it now, if they do. An unknown force: no individuals."""
    f = s.forces.get(force)
    if f is None:
        return []
    common = wrest_refusal(s, force)
    out: list[WrestChoice] = []
    for p in f.people.values():
        why = common
        if why is None and not can_fight(s.rules, p):
            why = f"{p.name} has fled the battle" if p.fled else f"{p.name} is {level_name(s.rules, p)}"
            why += ": unable to take command"
        if why is None and p.id == f.commander:
            why = f"{p.name} already commands {f.name}"
        out.append(WrestChoice(c.WrestCommand(force=force, person=p.id), p.name, why))
    return out


def _names(s: MassState, cmd: c.WrestCommand) -> tuple[str, str, str, str]:
    """The force's, the individual's, the commander's now and the appointed leader's names."""
    f = s.forces[cmd.force]
    who = f.people[cmd.person].name if cmd.person in f.people else cmd.person
    now = f.people[f.commander].name if f.commander in f.people else "nobody"
    leader_id = f.leader or f.commander
    leader = f.people[leader_id].name if leader_id and leader_id in f.people else "nobody"
    return f.name, who, now, leader


def wrest_label(s: MassState, cmd: c.WrestCommand) -> str:
    """The wrest in a line: "Hida Jo's army: Kuni Taro wrests command from Hida Jo"."""
    if cmd.force not in s.forces:
        return f"wrest command of {cmd.force}"
    fname, who, now, _ = _names(s, cmd)
    return f"{fname}: {who} wrests command from {now} (an Act of Vice)"


def wrest_effects(s: MassState, cmd: c.WrestCommand) -> tuple[str, ...]:
    """What the wrest does, one sentence a line (as `engine._wrest` does it)."""
    if cmd.force not in s.forces:
        return ()
    fname, who, now, leader = _names(s, cmd)
    vice = s.rules.ledger.vice
    return (f"{who} becomes the real commander of {fname}: from now on Strategy and the commander's "
            f"Battle Actions are theirs, in place of {now}'s.",
            f"{leader} stays the appointed leader, in name only.",
            f"An Act of Vice for {who} in the ledger: Glory {-vice:+d}.",
            "Nothing is rolled: the force keeps its Advantage and its action dice.")
