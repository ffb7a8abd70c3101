"""The battle scene's dialogs: the briefing, the initiative choice, the turn place, the
defensive action (with the odds of each casualty-Advantage choice), the end of the battle, the
options and the help.

`Dialogs` is one part of the battle scene (game/systems/tactical/client/battle.py), constructed by it with
what it needs: the app (to push a dialog), the session (its description and history), the
settings, and two callbacks (submit a command, restart the battle). The scene decides when a
dialog opens (BattleScene.sync) and passes the state on screen to each call."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

import game.systems.tactical.rules as ail  # (its names load when first used: start-up time)
from game.core.system import counted
from game.shell import actions, draw, keys
from game.shell.keymap import Binding, dispatch, help_pieces
from game.shell.scenes.dialog import Choice, DialogScene
from game.shell.toolkit.richtext import Styled
from game.systems.tactical.client import text
from game.systems.tactical.client.battle_keys import BATTLE_KEYS, REPLAY_KEYS
from game.systems.tactical.client.battle_panels import side_names, where
from game.systems.tactical.client.decision import DecisionDialog, DecisionKeys
from game.systems.tactical.client.text import DIM, GOLD, Colour, Lines, Piece, bold, ink, line, rgb, words
from game.systems.tactical.client.widgets import casualty_label

if TYPE_CHECKING:
    from collections.abc import Callable

    from game.shell.contracts import AppContext, Settings
    from game.shell.session import Session

HELP_MOUSE: Styled = (
    line(bold("Mouse")),
    line("Left click: select a unit / act (move, attack, charge)"),
    line("Right click or Esc: cancel"),
    line("Left or middle drag: pan the map · Wheel: zoom towards the cursor"),
)
HELP_COLOURS: Styled = (
    line(bold("Colours")),
    line(ink("Blue", (0x50, 0xaa, 0xff)), ": move reach · ", ink("orange", (0xff, 0xaa, 0x3c)), ": dash reach "
         "(click past the blue to move and dash in one go) · ", ink("yellow", (0xff, 0xf0, 0x78)),
         ": reachable only thanks to the road bonus · ", ink("red", (0xff, 0x46, 0x3c)),
         ": targets / charge. A red crosshair on a path marks a hex where overwatch would fire, with who fires "
         "and the chance to hit. Hover a unit on overwatch: its danger zone is rimmed in red. Grey targets (0%) "
         "cannot be hit."),
)


def help_text(app: Any = None) -> Styled:
    """The F1 help, generated from the key maps (the battle's and the shell's; `app`: Ctrl+B only
    for a battle opened from another game)."""
    groups = [("Battle keys", BATTLE_KEYS), ("Replay view (F3)", REPLAY_KEYS), *keys.shell_help_groups(app)]
    return (*HELP_MOUSE, (), *help_pieces(groups), (), *HELP_COLOURS)


class EndDialog(DialogScene):
    """The end-of-battle summary. Its F1 help lists its buttons' keys (Restart R, Load L, Replay P,
    Quit Q, the way back B), which it takes and the help did not name."""

    WHAT = {"Restart": "restart the battle (asks first when it has moves since its last save)",
            "Load": "the load menu (every save, newest first)", "Replay": "the replay view of this battle",
            "Quit": "quit (asks first when there is unsaved play)"}

    def key_map(self) -> tuple[Binding, ...]:
        return tuple(Binding((c.key,), pygame.key.name(c.key).upper(), self.WHAT.get(c.label, c.label.lower()))
                     for c in self.choices if c.key is not None)


class BriefingDialog(DialogScene):
    """The opening briefing. Its F1 help lists its own keys, then the battle's (they work on the
    map once the briefing is closed), then the shell's: the first screen of a battle names the
    battle's keys, as the first screen of the campaign and of the mass battle name theirs."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        own = [Binding((pygame.K_RETURN, pygame.K_ESCAPE), "Enter or Esc", "start the battle (close the briefing)")]
        if any(c.key == pygame.K_p for c in self.choices):
            own.append(Binding((pygame.K_p,), "P", "players: who plays each side (Human, or the computer at a "
                               "level); the briefing opens again after"))
        own.append(Binding((pygame.K_F1,), "F1", "this help: the briefing's keys, the battle's, the shell's",
                           lambda d: d.help()))
        self._own: tuple[Binding, ...] = tuple(own)

    def key_map(self) -> tuple[Binding, ...]:
        return self._own

    def help_groups(self) -> list[tuple[str, Any]]:
        """This screen's keys, the battle's once the briefing is closed (not its F1: this one), the shell's."""
        battle = [b for b in BATTLE_KEYS if b.label != "F1"]
        mine, *shell = keys.help_groups(self)
        return [("The briefing", mine[1]), ("The battle (on the map, once the briefing is closed)", battle), *shell]

    def help(self) -> None:
        actions.show_help(self.app, self.help_groups())

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and dispatch([b for b in self._own if b.action is not None], event, self):
            return
        super().handle_event(event)


class Dialogs:
    """The dialogs of the battle scene. No public fields; it holds only what it was given."""

    def __init__(self, app: AppContext, session: Session, settings: Settings, submit: Callable[[Any], bool],
                 restart: Callable[[], None]) -> None:
        self._app = app
        self._session = session
        self._settings = settings
        self._submit = submit
        self._restart = restart

    def briefing(self, st: Any, players: Callable[[], None] | None = None) -> DialogScene:
        """The scenario before the first roll: the situation, the sides (and who plays each), what
        wins. `players`: opens the players dialog (who plays each side), when the rules have
        computer players."""
        out = Lines().add(words(self._session.description.strip())).add()
        for s in st.setup.sides:
            c = s.commander
            rides = f", with {words(st.unit_name(c.unit))}" if c.unit and c.unit in st.units else ""
            out.add(bold(s.name, rgb(s.colour)), f": {counted(len(st.live_units(s.id)), 'unit', 'units')}, commander {words(c.name)}{rides}"
                    f" — {words(self._session.seats.label(s.id))}")
        out.add()
        for objective in ail.describe_objectives(st):
            out.add(ink(objective, GOLD))
        out.add().add(f"{counted(st.setup.round_limit, 'round', 'rounds')}. Press F1 at any time for the controls.")
        return BriefingDialog(self._app, st.setup.name, out.text,
                              [*([Choice("Players... (P)", players, pygame.K_p)] if players is not None else []),
                               Choice("Start the battle", None, pygame.K_RETURN, primary=True)],
                              size=(760, 440), cancel=Choice("Start the battle"), name="briefing")

    def handoff_detail(self, st: Any) -> str:
        """What the hand-off screen says the next side is to do."""
        if st.pending is not None:
            return {"initiative_choice": f"Round {st.round}: choose your initiative option.",
                    "turn_place": "You won the initiative: choose your place in the turn order.",
                    "defensive_action": "One of your units is under attack: answer, then pass the screen back."}.get(st.pending.kind, "")
        return f"Round {st.round}: {st.phase} phase."

    def initiative(self, st: Any, side: str, decision: DecisionKeys) -> DialogScene:
        """The initiative choice: each option's roll, what it gives, and its exact chance to win
        whatever the other side chooses (the rules' `initiative_win_chances`: the least over its
        choices, with two sides)."""
        ini = ail.initiative  # (the facade loads the initiative rules with the first dialog, not the first frame)
        initiative_roll = ail.queries.initiative_roll
        cdr = ini.commander(st, side)
        rows = Lines()
        choices: list[Choice] = []
        adv = st.sides[side].advantage.get("deception", 0)
        why_not = ini.personal_available(st, side)
        personal = ini.personal_stat_options(st, side) if why_not is None else []
        least: dict[tuple[str, str | None], tuple[float, tuple[str, str | None]] | None] = {(opt, stat): _least(ail.queries.initiative_win_chances(st, side, opt, stat))
                 for opt, stat in [("tactics", None), ("leadership", None), ("deception", None),
                                   *(("personal", stat) for stat in personal)]}
        against = {x[1] for x in least.values() if x is not None}
        one = len(against) == 1  # the same choice of theirs is the worst for every option: named once

        def wins(opt: str, stat: str | None = None) -> str:
            x = least.get((opt, stat))
            return "" if x is None else f"wins at least {round(100 * x[0])}%" + ("" if one else f" (against {_choice(x[1])})")
        for opt in ("tactics", "leadership", "deception"):
            title, roll, gives = text.OPTION_TEXT[opt]
            chance = wins(opt)
            rows.add(bold(title), f" — {words(initiative_roll(st, side, opt).text)}",
                     ink(f"  · {chance}" if chance else "", GOLD)).add(ink(gives, DIM))
            choices.append(Choice(title, partial(self._submit, ail.ChooseInitiative(side=side, option=opt))))
        if personal:
            title, roll, gives = text.OPTION_TEXT["personal"]
            rolls = []
            for stat in personal:
                rolls.append(words(initiative_roll(st, side, "personal", stat).text))
                choices.append(Choice(f"Personal ({stat[:3].upper()})", partial(self._submit, ail.ChooseInitiative(
                    side=side, option="personal", personal_stat=stat))))
            rows.add(bold(title), f" — {' | '.join(rolls)}")
            if against:
                rows.add(ink(" · ".join(f"{stat[:3].upper()} {wins('personal', stat)}" for stat in personal), GOLD))
            rows.add(ink(gives, DIM))
        elif ini.commander(st, side).unit is not None:
            # the commander's unit is gone: say why the Personal options are not offered
            rows.add(bold("Personal", DIM), ink(f" — not offered: {words(why_not or '')}.", DIM))
        if adv:
            rows.add(ink(f"Banked Deception: +{adv} on this roll.", GOLD))
        if against:
            other = next(s for s in st.sides if s != side)
            theirs = (f" its strongest roll ({_choice(next(iter(against)))}: "
                      f"{words(initiative_roll(st, other, *next(iter(against))).text)})") if one else \
                " the choice named in brackets, the one that makes it least"
            rows.add().add(ink(f"Wins: the exact chance to win the initiative whatever {words(st.side_name(other))} "
                               f"chooses (its choice is sealed): against{theirs}; ties roll again.", DIM))
        body = (line("Commander ", bold(cdr.name), f" of {words(st.side_name(side))} picks one option:"), (),
                *rows.text)
        return DecisionDialog(self._app, f"Round {st.round}: initiative — {st.side_name(side)}", body, choices,
                              decision, size=(760, 470), name="initiative")  # (470: fits 960 x 600 with a hint)

    def turn_place(self, st: Any, p: Any, decision: DecisionKeys) -> DialogScene:
        side = p.sides[0]
        session = self._session
        last = session.history[-1].events if session.history else ()
        rolls = [text.event_line(ev, st.unit_name, side_names(session), lambda h: where(session, h)) for ev in last
                 if getattr(ev, "kind", "") in ("roll_made", "initiative_rolled", "initiative_won",
                                                "advantage_gained")]
        places = max(1, len(p.ranking))  # one button per place the winner may take
        ordinal = ["first", "second", "third", "fourth", "fifth", "sixth"]
        choices = [Choice(f"Go {ordinal[i] if i < len(ordinal) else i + 1}",
                          partial(self._submit, ail.ChooseTurnPlace(side=side, position=i)),
                          pygame.K_RETURN if i == 0 else None, primary=i == 0)  # Enter: the lit button
                   for i in range(places)]
        body = (*rolls, (), line(f"{words(st.side_name(side))} won: choose its place in the turn order "
                                 f"({places} place{'' if places == 1 else 's'} to choose from)."))
        return DecisionDialog(self._app, f"{st.side_name(side)} wins the initiative", body, choices,
                              decision, size=(720, 380), name="turn_place")

    def defensive(self, st: Any, p: Any, casualty: tuple[int, str | None] | None = None,
                  decision: DecisionKeys | None = None) -> DialogScene:
        """The defensive-action question; with `decision`, it takes H (the computer's answer in the
        defender's place, at the foot of the dialog, as in the initiative dialog) and P."""
        uid = p.unit_id
        atk = p.attack
        options = ail.queries.casualty_options(st, uid)
        u = st.units[uid]
        if casualty is None or casualty not in options:
            standing = (u.casualty_advantage, u.casualty_advantage_kind if u.casualty_advantage else None)
            casualty = standing if standing in options else options[0]
        spend: int | None = casualty[0] if len(options) > 1 else None
        ckind = casualty[1]
        who = st.unit_name(atk.attacker_id) if atk else "an enemy"
        weapon = f" with {atk.weapon}" if atk else ""
        body = Lines().add(bold(st.unit_name(uid)), " is about to be attacked by ", bold(who), f"{words(weapon)}.")
        body.add().add("A defensive action adds +5 to the Accuracy Challenge of this attack, but the unit loses its "
                       "attack (this turn if it has not acted yet, otherwise its next one).")
        if atk is not None:
            lines = Lines()
            for n, k in options:  # the odds of each casualty-Advantage choice, with and without
                pv = ail.attack_preview(st, atk.attacker_id, uid, atk.weapon, atk.advantage, atk.advantage_kind,
                                        check_turn=False, casualty_advantage=n if len(options) > 1 else None,
                                        casualty_kind=k)
                if isinstance(pv, ail.Rejection):
                    continue
                mark = (n, k) == casualty
                colour = GOLD if mark and len(options) > 1 else text.INK
                head: list[Piece] = []
                if len(options) > 1:
                    head = [ink("> " if mark else "", colour), ink(f"Casualty rolls {casualty_label(n, k)}", colour,
                                                                     bold=True),
                            ink(f"{' (chosen)' if mark else ''}: ", colour)]
                lines.add(*head, ink("to be hit ", colour), ink(draw.percent(pv.odds.hit_chance), colour, bold=True),
                          ink(", ", colour), *_loss_pieces(pv.odds, colour))
                if pv.odds_if_defensive_action is not None:
                    da = pv.odds_if_defensive_action
                    lines.add(ink("\u00a0\u00a0with the defensive action: ", colour),
                              ink(draw.percent(da.hit_chance), colour, bold=True), ink(", ", colour),
                              *_loss_pieces(da, colour))
            if lines:
                body.add().extend(lines.text)

        def answer(accept: bool) -> Any:
            return lambda: self._submit(ail.DefensiveAction(
                unit_id=uid, accept=accept, casualty_advantage=spend,
                casualty_advantage_kind=ckind if spend else None))

        def never() -> None:
            self._settings.ask_defensive = False
            answer(False)()

        choices = [Choice("Take it (+5 AC)", answer(True), pygame.K_y, primary=True),
                   Choice("No", answer(False), pygame.K_n),
                   Choice("No, never ask", never)]
        if len(options) > 1:
            nxt = options[(options.index(casualty) + 1) % len(options)]
            choices.append(Choice(f"Casualty: {casualty_label(*casualty)}",
                                  lambda: self._app.push(self.defensive(st, p, nxt, decision)), pygame.K_c))
        title = f"{st.side_name(p.sides[0])}: defensive action?"
        size = (760, 420 if len(options) > 1 else 330)
        if decision is None:
            return DialogScene(self._app, title, body.text, choices, size=size, name="defensive")
        # (room for the hint's lines at the foot: 480 still fits a 960 x 600 window)
        return DecisionDialog(self._app, title, body.text, choices, decision, size=(760, size[1] + 60),
                              name="defensive")

    def end(self, st: Any, game_scene: Any) -> DialogScene:
        """The end-of-battle summary; `game_scene`: the scene the shell's end choices act on."""
        winner = st.winner
        title = f"{st.side_name(winner)} wins!" if winner else "The battle ends in a draw"
        lines = Lines().add(bold(st.end_reason or "")).add()
        for s in st.setup.sides:
            units = [u for u in st.units.values() if u.side == s.id]
            lost = sum(1 for u in units if u.destroyed)
            full = sum(st.unit_type(u.id).strength for u in units)
            left = sum(u.strength for u in units if not u.destroyed)
            lines.add(bold(s.name, rgb(s.colour)), f": {lost} of {counted(len(units), 'unit', 'units')} lost · strength {left}/{full}")
        lines.add().add(f"Rounds played: {st.round}")
        choices = [Choice("Restart", lambda: self.ask_restart(game_scene), pygame.K_r), *actions.end_choices(game_scene),
                   Choice("Quit", lambda: actions.request_quit(self._app), pygame.K_q,
                          primary=game_scene.session.return_to is None)]  # (else the way back is)
        # (wide enough for each button's label: five with a way back, 'Campaign map' whole at 960x600)
        return EndDialog(self._app, title, lines.text, choices, size=(max(560, 24 + 130 * len(choices)), 320),
                         name="end")

    def ask_restart(self, game_scene: Any) -> None:
        """Restart from the end summary: the shell's question (actions.ask_restart: a battle with
        moves since its last save is not thrown away without asking; Back shows the summary again)."""
        actions.ask_restart(game_scene, self._restart, game_scene.reopen_end_summary)

    def options(self) -> None:
        st = self._settings

        def cycle_speed() -> None:
            order = ["normal", "fast", "instant"]
            st.animation = order[(order.index(st.animation) + 1) % 3]  # type: ignore[assignment]
            self.options()

        def flip(attr: str) -> Any:
            def run() -> None:
                setattr(st, attr, not getattr(st, attr))
                self.options()
            return run

        body = (line("Animation: ", bold(st.animation)),
                line("Blackout between sides: ", bold("on" if st.blackout else "off (GM at the table)")),
                line("Ask the defender about defensive actions: ", bold("yes" if st.ask_defensive else "no")),
                line("Ask before ending a phase with idle units: ", bold("yes" if st.confirm_end_phase else "no")),
                line("Hex grid: ", bold("on" if st.show_grid else "off"), " (G)"))
        self._app.push(DialogScene(self._app, "Options", body, [
            Choice("Animation speed", cycle_speed), Choice("Blackout", flip("blackout")),
            Choice("Ask defender", flip("ask_defensive")), Choice("Confirm end", flip("confirm_end_phase")),
            Choice("Quit", lambda: actions.request_quit(self._app)),
            Choice("Close", None, pygame.K_ESCAPE, primary=True),
        ], size=(860, 280), cancel=Choice("Close"), name="options"))

    def help(self) -> None:
        self._app.push(DialogScene(self._app, "Controls", help_text(self._app),
                                  [Choice("Close", None, pygame.K_F1, primary=True)],
                                  size=(640, 470), cancel=Choice("Close"), name="help"))


def _loss_pieces(odds: Any, colour: Colour) -> list[Piece]:
    """Expected strength lost and the chances of the markers (what casualty rolls decide)."""
    res = odds.results
    ooa = sum(float(res.get(k, 0)) for k in ("out_of_action", "destroyed", "annihilated"))
    pinned = ooa + float(res.get("pinned", 0))
    return [ink(f"expected strength lost {float(odds.expected_strength_lost):.2f}, pinned or worse ", colour),
            ink(draw.percent(pinned), colour, bold=True), ink(f", out of action or worse {draw.percent(ooa)}", colour)]


def _least(chances: dict[tuple[str, str | None], float] | None) -> tuple[float, tuple[str, str | None]] | None:
    """(the least chance, the other side's choice that makes it); None with none to give."""
    if not chances:
        return None
    choice, chance = min(chances.items(), key=lambda kv: (kv[1], kv[0][0], kv[0][1] or ""))
    return chance, choice


def _choice(choice: tuple[str, str | None]) -> str:
    option, stat = choice
    return f"Personal {stat}" if option == "personal" else option.capitalize()
