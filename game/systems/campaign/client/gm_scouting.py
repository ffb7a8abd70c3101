"""The GM's scouting seed in the campaign's GM view (K): the week's scouting dice drawn from a
secret of the GM's, committed to before the week's first move (docs/campaign.md, "The dice").

A battle's scouting dice are rolled when it starts (the week's last declaration), before any order.
Without a scouting seed they come from the campaign's generator, which anyone holding the save can
replay: the GM and every player given the save can foresee them while moving and declaring. The
command line protects them with `campaign commit` and `import --scouting`; here the GM does it in
the window: the dialog gives a fresh random secret (or takes one the GM types, if strong enough to
hide behind its public commitment), shows the commitment to post to the players, and applies the
rules' own command `gm_scouting_seed {week, commitment, secret}` through the session (`scene.gm_do`):
logged, saved, replayed and checked by `campaign verify-dice --scouting-commitment` like the one the
command line puts in a script, and taken back with Ctrl+Z in the GM view while it is the last
command. The GM view's panel says whether the week's scouting dice are protected.

The secret never reaches a player's screen: the rules' view removes it from the state, and the map's
log, every player's, names the seed by its commitment alone (`log_line`). It is in the save (as the
forced rolls' faces are), and public once the week's battles have started (the report prints it).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

import pygame

from game.shell.keymap import Binding
from game.shell.toolkit.buttons import Button
from game.systems.campaign.cli.trust import used_scouting
from game.systems.campaign.client.gm_dialog import GmEntryDialog
from game.systems.campaign.io.files import salt_problem
from game.systems.campaign.rules.commands import GmScoutingSeed
from game.systems.campaign.rules.dice_seed import commitment_of
from game.systems.campaign.rules.state import CampaignState

GOOD = (150, 220, 150)
BAD = (255, 150, 110)
DIM = (180, 180, 190)


def scouting_step(history: Sequence[Any], state: CampaignState) -> Any:
    """The step of the `gm_scouting_seed` of the week on the board (None: its scouting dice have no
    seed)."""
    for step in reversed(history):
        if step.before.week != state.week:
            break
        if getattr(step.command, "kind", "") == "gm_scouting_seed":
            return step
    return None


def battles_started(state: CampaignState) -> bool:
    """Battles of the week on the board have started (and rolled their scouting dice)."""
    return any(b.started_week == state.week for b in state.battles.values())


def moves_made(history: Sequence[Any], state: CampaignState) -> bool:
    """An army has moved in the week on the board (a commitment posted now comes after it)."""
    return any(getattr(s.command, "kind", "") == "move_army" for s in history if s.before.week == state.week)


def can_seed(history: Sequence[Any], state: CampaignState) -> bool:
    """The week's scouting seed may still be given: the rules take it in the movement or declare
    phase, once a week, before the week's battles start (rules/dice_seed.py, seed_scouting)."""
    return (state.phase in ("movement", "declare") and not battles_started(state)
            and state.scouting_secret is None and scouting_step(history, state) is None)


def split_commitment(commitment: str) -> list[str]:
    """A commitment in lines short enough for the GM's panel: `sha256:` and its 64 digits in two."""
    head, _, digits = commitment.partition(":")
    if not digits:
        return [commitment]
    half = (len(digits) + 1) // 2
    return [f"{head}:{digits[:half]}", digits[half:]]


def status_lines(history: Sequence[Any], state: CampaignState) -> list[tuple[str, tuple[int, int, int]]]:
    """The GM view's lines on the week's scouting dice: protected or foreseeable, and what to do
    (the commitment in full while it is still to be posted, before the week's battles start)."""
    w = state.week
    seed = scouting_step(history, state)
    if seed is not None:
        if battles_started(state):
            return [(f"Week {w}'s scouting dice: seeded, protected.", GOOD)]
        return [(f"Scouting dice of week {w}: protected by the scouting seed. Post this commitment to the "
                 "players (before the week's first move):", GOOD),
                *((f"    {part}", GOOD) for part in split_commitment(seed.command.commitment))]
    # (after the week's battles have started there is nothing to do until the next week: one short line)
    if battles_started(state):
        return [(f"Week {w}'s scouting dice: no seed, foreseeable (K next week).", BAD)]
    if not can_seed(history, state):
        return [(f"Week {w}: no battle started, no scouting dice (K next week).", DIM)]
    late = (" Moves of the week are made: the players cannot tell a commitment posted now was not chosen "
            "for them." if moves_made(history, state) else "")
    return [(f"Scouting dice of week {w}: NOT protected, anyone holding the save can foresee them. K: the "
             "scouting seed (post its commitment before the first move)." + late, BAD)]


def log_line(state: CampaignState, command: Any) -> str:
    """The map's log line (every player's) for a scouting seed: its commitment, never its secret."""
    return (f"GM: the scouting dice of week {command.week} are drawn from the GM's committed scouting secret "
            f"(commitment {command.commitment[:19]}...); the secret is public once the week's battles have started")


def secret_problem(secret: str) -> str | None:
    """Why a secret the GM typed is too weak to hide behind its public commitment (anyone could
    find it from the commitment, then foresee the scouting dice), or None (as a sealed order's salt)."""
    problem = salt_problem(secret)
    if problem is None:
        return None
    problem = problem.split(" (leave --salt")[0].replace("the salt", "the secret")
    return (f"{problem[0].upper()}{problem[1:]}: too weak to hide behind its public commitment (anyone could "
            "find it, then foresee the scouting dice). Generate gives a fresh random one.")


class ScoutingSeedScene(GmEntryDialog):
    """The dialog: a secret (a fresh random one, or the GM's own), its commitment to post, and
    Enter seeds the week's scouting dice with it."""

    name = "gm_scouting_seed"
    SIZE = (680, 440)
    KEYS = (Binding((pygame.K_RETURN, pygame.K_KP_ENTER), "Enter", "seed the week's scouting dice with this secret"),
            Binding((pygame.K_ESCAPE,), "Esc", "close without seeding anything"))

    def __init__(self, app: Any, scene: Any) -> None:
        self.secret = secrets.token_hex(32)  # the box's first text (a fresh random secret)
        super().__init__(app, scene)

    def title(self) -> str:
        return f"GM: the scouting seed of week {self.state.week}"

    def first_text(self) -> str:
        return self.secret

    def buttons(self, box: pygame.Rect) -> None:
        bw = (box.w - 52) // 3
        self.ok = Button(pygame.Rect(box.x + 16, box.bottom - 56, bw, 40), "Seed the scouting dice (Enter)", self.ui)
        self.generate = Button(pygame.Rect(box.x + 26 + bw, box.bottom - 56, bw, 40), "Generate a new secret",
                               self.ui, tool_tip_text="A fresh random secret (256 bits) in the box")
        self.cancel = Button(pygame.Rect(box.x + 36 + 2 * bw, box.bottom - 56, bw, 40), "Cancel (Esc)", self.ui)

    def on_button(self, element: Any) -> None:
        if element is self.generate:
            self.entry.set_text(secrets.token_hex(32))
            self.message = ""

    def typed(self) -> str:
        return str(self.entry.get_text()).strip()

    def lines(self) -> list[tuple[str, tuple[int, int, int]]]:
        st = self.state
        history = self.scene.session.history
        out = [(f"The scouting dice of week {st.week} are rolled when its battles start, before any order. Without a "
                "seed they come from the campaign's generator, which anyone holding the save can replay. With "
                "one they are drawn from this secret and each battle's hex and armies.", (215, 215, 220)),
               ("Post the commitment below to the players before the week's first move. The secret stays in the "
                "GM view and in the saves made from now on (give no player one before the week's battles start); "
                "players' screens and the log show only the commitment. It is public once the battles have "
                "started, so `campaign verify-dice --scouting-commitment` can check every scouting die.",
                (200, 200, 250))]
        out.append(("The box holds a fresh random secret; you may type your own instead (32 or more random "
                    "letters and digits: a short one could be found from its commitment).", DIM))
        if moves_made(history, st):
            out.append((f"Moves of week {st.week} are already made: a commitment posted now comes after them, so "
                        "the players cannot tell it was not chosen for them.", BAD))
        return out

    def tail(self) -> list[tuple[str, tuple[int, int, int]]]:
        commitment = self.commitment()
        if not commitment:
            return []
        parts = split_commitment(commitment)
        return [("Commitment to post: " + parts[0], GOOD), ("    " + parts[-1], GOOD)]

    def commitment(self) -> str:
        text = self.typed()
        return commitment_of(text) if text else ""

    def submit_typed(self) -> bool:
        return self.submit()

    def submit(self) -> bool:
        """Seed the week's scouting dice with the secret in the box: True when the rules took it."""
        secret = self.typed()
        problem = secret_problem(secret) if secret else "Type a secret or press Generate."
        if problem is None:
            used = used_scouting(list(self.scene.session.history), commitment_of(secret), secret)
            if used is not None:
                problem = f"That secret was already used for {used}, so it is public: Generate a fresh one."
        if problem is not None:
            self.message = problem
            return False
        cmd = GmScoutingSeed(week=self.state.week, commitment=commitment_of(secret), secret=secret)
        if not self.scene.gm_do(cmd):
            self.message = f"Refused: {self.scene.message}"
            return False
        self.scene.message = (f"GM: week {cmd.week}'s scouting dice are seeded. Post the commitment shown above "
                              "(Ctrl+Z takes the seed back while nothing has been played since).")
        self.scene.message_ok = True
        if self.app.scenes.top is self:
            self.app.pop()
        return True
