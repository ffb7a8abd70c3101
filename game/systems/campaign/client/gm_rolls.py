"""The GM's forced rolls in the campaign's GM view (N): the next dice the campaign rolls take the
values the GM types, in order.

The dialog reads die values (spaces or commas between them), checks each against the campaign's
die (`rules.dice.sides`: 1 to 10 on the shipped d10) and refuses anything else with a sentence
naming what was expected. The values go to the rules as the GM command `gm_force_rolls {values}`
through the session (`scene.gm_do`), so they are logged, saved and replayed like every GM command
and taken back with Ctrl+Z in the GM view; the GM view's panel lists the values still queued.

The dice commitment protocol (docs/campaign.md "The dice"): a week whose dice were seeded by
`gm_dice_seed` draws every die from the GM's secret and the players' salts; a forced roll after
the seed breaks that, and `campaign verify-dice` reports it as a problem. The dialog says so when
the week on the board is seeded and forces nothing until the GM confirms (a second dialog).
Values forced *before* the seed are dropped by it (the rules' `seed_week`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pygame

from game.shell.dice_entry import expected_faces, parse_faces
from game.shell.keymap import Binding
from game.shell.scenes.dialog import Choice, DialogScene
from game.shell.toolkit.buttons import Button
from game.systems.campaign.client.gm_dialog import GmEntryDialog
from game.systems.campaign.rules.commands import GmForceRolls
from game.systems.campaign.rules.state import CampaignState


def die_sides(state: CampaignState) -> int:
    return int(state.cs.rules.dice.sides)


def expected(sides: int) -> str:
    return expected_faces(sides, "the campaign's")


def parse_values(text: str, sides: int) -> tuple[int, ...] | str:
    """The die values typed, or why they are refused (naming what was expected): the shell's
    reading, as in every GM mode."""
    return parse_faces(text, sides, "the campaign's")


def week_seed_step(history: Sequence[Any], state: CampaignState) -> Any:
    """The step of the `gm_dice_seed` that seeded the dice of the week on the board (None: the
    week's dice are not drawn by the commitment protocol)."""
    for step in reversed(history):
        if step.before.week != state.week:
            break
        if getattr(step.command, "kind", "") == "gm_dice_seed":
            return step
    return None


def queue_text(state: CampaignState) -> str:
    """The GM view's line on the forced rolls still queued."""
    if not state.forced:
        return "No rolls forced. N: force the next rolls."
    shown = ", ".join(str(v) for v in state.forced[:24]) + (" ..." if len(state.forced) > 24 else "")
    return (f"Next rolls forced ({len(state.forced)}): {shown}. The next dice rolled take them in order "
            "(N: more; Ctrl+Z: take back).")


def command_text(system: Any, state: CampaignState, command: Any) -> str:
    """A command in words (the forced values and the dice seed named, which the rules' own
    description leaves to the events)."""
    kind = getattr(command, "kind", "")
    if kind == "gm_force_rolls":
        return "GM: force the next rolls " + ", ".join(str(v) for v in command.values)
    if kind == "gm_dice_seed":
        return f"GM: seed the dice of week {command.week} (commitment protocol)"
    if kind == "gm_scouting_seed":  # (its commitment, never its secret)
        return f"GM: seed the scouting dice of week {command.week} (commitment {command.commitment[:19]}...)"
    return str(system.describe_command(state, command))


class ForceRollsScene(GmEntryDialog):
    """The dialog: type the values, Enter forces them (asking first on a seeded week)."""

    name = "gm_force_rolls"
    KEYS = (Binding((pygame.K_RETURN, pygame.K_KP_ENTER), "Enter", "force the values typed (asks first when "
                    "the week's dice were seeded)"),
            Binding((pygame.K_ESCAPE,), "Esc", "close without forcing anything"))

    def __init__(self, app: Any, scene: Any, on_done: Callable[[], None] | None = None) -> None:
        self.on_done = on_done
        super().__init__(app, scene)

    def seed_step(self) -> Any:
        return week_seed_step(self.scene.session.history, self.state)

    def title(self) -> str:
        return "GM: force the next rolls"

    def buttons(self, box: pygame.Rect) -> None:
        bw = (box.w - 42) // 2
        label = "Force anyway... (Enter)" if self.seed_step() is not None else "Force them (Enter)"
        self.ok = Button(pygame.Rect(box.x + 16, box.bottom - 56, bw, 40), label, self.ui)
        self.cancel = Button(pygame.Rect(box.x + 26 + bw, box.bottom - 56, bw, 40), "Cancel (Esc)", self.ui)

    def lines(self) -> list[tuple[str, tuple[int, int, int]]]:
        st = self.state
        sides = die_sides(st)
        out = [(f"Type the values of the next dice the campaign rolls: {expected(sides)}. Each is used, in "
                "order, for the next die rolled (scouting, battle pools, casualties).", (215, 215, 220)),
               (("Already queued: " + ", ".join(str(v) for v in st.forced) + "; these come after them.")
                if st.forced else "No rolls are forced yet.", (200, 200, 250))]
        seed = self.seed_step()
        if seed is not None:
            out.append((f"Warning: the dice of week {st.week} were seeded by the commitment protocol "
                        f"(gm_dice_seed, commitment {seed.command.commitment[:20]}...). A roll forced now is not "
                        f"drawn from the seed: `campaign verify-dice` for week {st.week} will then fail, and "
                        "the players can see it did. You will be asked to confirm.", (255, 150, 110)))
        elif st.phase == "orders":
            out.append(("If the week's dice are then seeded by the commitment protocol, the seed drops the "
                        "values still queued, and `campaign verify-dice` lists this command among the GM's "
                        "commands before the seed for the players to check.", (180, 180, 190)))
        return out

    def submit_typed(self) -> bool:
        return self.submit(self.entry.get_text())

    def submit(self, text: str) -> bool:
        """The values typed: True when they were forced (after the confirmation on a seeded week
        the confirmation's button forces them; False meanwhile)."""
        values = parse_values(text, die_sides(self.state))
        if isinstance(values, str):
            self.message = values
            return False
        seed = self.seed_step()
        if seed is not None:
            self._confirm(values)
            return False
        return self.force(values)

    def _confirm(self, values: tuple[int, ...]) -> None:
        week = self.state.week
        body = (f"The dice of week {week} were seeded by the commitment protocol. Forcing "
                f"{', '.join(str(v) for v in values)} now puts a gm_force_rolls after the seed in the log: "
                f"`python -m game campaign verify-dice` for week {week} will report it as a problem "
                "(dice not drawn from the seed), and every player who runs it will see that.")
        w, h = self.app.screen.get_size()
        self.app.push(DialogScene(self.app, "Force rolls after the dice seed?", body,
                                  [Choice("Force anyway (F)", lambda: self.force(values), pygame.K_f),
                                   Choice("Do not force (Esc)", None, pygame.K_ESCAPE, primary=True)],
                                  size=(min(600, w - 40), min(300, h - 40)), cancel=Choice("Do not force", None),
                                  name="gm_force_after_seed"))

    def force(self, values: tuple[int, ...]) -> bool:
        """Apply `gm_force_rolls` through the session (logged, undoable in the GM view)."""
        if not self.scene.gm_do(GmForceRolls(values=values)):
            self.message = f"Refused: {self.scene.message}"
            return False
        self.scene.message = f"GM: forced the next rolls {', '.join(str(v) for v in values)}."
        self.scene.message_ok = True
        if self.app.scenes.top is self:  # (the confirmation has closed before its action runs)
            self.app.pop()
        if self.on_done is not None:
            self.on_done()
        return True
