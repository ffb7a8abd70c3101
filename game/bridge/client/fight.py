"""The GM's Battle panel on the campaign map (docs/scales.md): for an open campaign battle, the
forecast (the tables' exact odds beside the tactical and the mass battle's forces and opening
odds) and the three choices; the hand-over into the battle's own client; the way back.

    fight = FightOut(scene)
    fight.forecast(battle_id)       # game.bridge.files.Forecast (cached per battle and history length)
    fight.choose(battle_id, scale)  # tables | tactical | mass: records gm_battle_choice; a battle
                                    # fought out is generated, the campaign saved, the battle opened
    fight.resume(battle_id) / fight.abandon(battle_id)
    fight.came_back()               # the campaign scene is on top again: confirm the result

A battle fought out is played by whoever plays its powers in the campaign: a power the computer
plays in the campaign is played by the computer in the battle too (`carry_seats`: the battle's
sides are the campaign's powers, by id; the level kept when the battle's rules offer it, else
their strongest), on a copy, so the campaign's seats never change by it. [decision] Only a battle
begun now takes them: a battle resumed from its save keeps the seats the save recorded (taken
from the campaign when it began, or changed since in the battle's own window).

Every number shown comes from the rules' and the bridge's queries (game.systems.campaign.rules.odds,
game.bridge.files.forecast); the hand-over goes through the shell (game.shell.launch), never into
another system's client package. It lives with the bridge (it knows all three scales); the
campaign's client knows it only as the `fight_out` it is handed (game/bridge/plugin.py).
"""

from __future__ import annotations

import math
import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pygame

from game.bridge.files import (
    SCALE_SYSTEMS,
    CampaignBattle,
    backups_text,
    battle_paths,
    campaign_identity,
    check_link,
    forecast,
    generate_battle,
    linked_save,
    load_battle_save,
    load_scales_rules,
    replaced_by_generating,
    result_of,
    rewritten,
    scenario_of_save,
    source_of,
)
from game.bridge.sides import BridgeError
from game.bridge.tiled import fresh_seed
from game.core.errors import GameFileError, UserError
from game.core.palette import rgb
from game.core.system import counted
from game.io.saves import read_header
from game.replay import find_scenario, scenario_fingerprint
from game.shell import actions, launch, savegame
from game.shell.scenes.dialog import Choice, DialogScene
from game.shell.scenes.handoff import HandoffScene
from game.shell.seats import Seats, hint_level
from game.shell.toolkit.richtext import Span, styled
from game.systems.campaign.client.gm_lock import GmLockScene
from game.systems.campaign.rules.commands import GmBattleAbandon, GmBattleChoice, parse_command

SCALES = ("tables", "tactical", "mass")
# the later-save question's two answers: short enough for a dialog button at 960 x 600
LATER_SAVE, BATTLE_SAVE, BEGIN_AGAIN = "Use the later save", "Use the battle save", "Begin it again"
BAND_ORDER = ("minor", "major", "crushing", "legendary")


@dataclass
class Away:
    """A battle fought out whose scene is open over the campaign map."""

    battle: str
    scale: str
    campaign_save: Path
    battle_save: Path
    session: Any
    scene: Any


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


_STEP_HEADS = {"1": "Casualties", "2": "Who won", "3": "Movement"}


def _tidy(step: str) -> str:
    """One working step as read: a Python mapping printed in it becomes "name value" pairs."""
    def pairs(m: re.Match[str]) -> str:
        items = re.findall(r"'([^']*)': ([^,}]+)", m.group(1))
        return ", ".join(f"{k} {v.strip()}" for k, v in items)

    return re.sub(r"\{([^{}]*)\}", pairs, step)


def decisiveness_words(state: Any, result: Any) -> str:
    """The decisiveness of a won battle in words (docs/scales.md "Back to the campaign": the loser's
    share of its forces lost minus the winner's, in percentage points). The winner is the battle's
    own (its objectives, its victor), so the winner may have lost as large a share as the loser
    (0) or a larger one (below 0): it still wins, at the lowest band the points reach."""
    w, lo = state.player_name(result.winner), state.player_name(result.loser)
    shares = getattr(result, "shares", None) or {}
    # the exact difference when the result carries the shares: 29.6% against 29.1% is "about the
    # same", not "the same" (the band counts whole points, rounded down)
    diff = (round((shares[result.loser] - shares[result.winner]) * 100, 9)
            if result.loser in shares and result.winner in shares else float(result.decisiveness))
    if result.decisiveness > 0:
        return f"{lo} lost {counted(result.decisiveness, 'percentage point', 'percentage points')} more of " \
               f"{state.player_agrees(result.loser, 'its')} " \
               f"forces than {w}"
    if diff == 0:
        return f"{w} won the battle; both sides lost the same share of their forces"
    if abs(diff) < 1:
        return (f"{w} won the battle; both sides lost about the same share of their forces (less than one "
                "percentage point apart)")
    points = counted(math.floor(-diff), "percentage point", "percentage points")
    it, its = state.player_agrees(result.winner, "it"), state.player_agrees(result.winner, "its")
    return f"{w} won the battle though {it} lost {points} more of {its} forces than {lo}"


def result_sentences(state: Any, result: Any) -> list[str]:
    """The translated result as sentences: who won and how, each side's casualties and losses
    (units of a kind counted together), where the loser's armies go."""
    out: list[str] = []
    if result.winner is None:
        out.append("A draw: neither side wins, and nobody moves.")
    else:
        out.append(f"{state.player_says(result.winner, 'wins')} a {result.band_name} over "
                   f"{state.player_name(result.loser)} ({decisiveness_words(state, result)}).")
    b = state.battles[result.battle]
    for player in b.sides:
        hit: dict[str, int] = {}
        gone: dict[str, int] = {}
        total = 0
        for uid, n in result.casualties.items():
            if n and uid in state.units and state.armies.get(state.units[uid].army) is not None \
                    and state.armies[state.units[uid].army].owner == player:
                name = state.unit_type(uid).name
                total += n
                hit[name] = hit.get(name, 0) + 1
                if uid in result.destroyed:
                    gone[name] = gone.get(name, 0) + 1
        if not total:
            out.append(f"{state.player_says(player, 'takes')} no casualties.")
            continue
        units = ", ".join(f"{k} x{n}" if n > 1 else k for k, n in hit.items())
        lost = (" and loses " + ", ".join(f"{k} x{n}" if n > 1 else k for k, n in gone.items())) if gone else ""
        out.append(f"{state.player_says(player, 'takes')} {total} casualt{'y' if total == 1 else 'ies'} "
                   f"(on {units}){lost}.")
    if result.moves:
        for aid, path in result.moves.items():
            where = ", then ".join(f"{c[0]},{c[1]}" for c in path)
            out.append(f"{state.army_says(aid, 'moves')} to {where}.")
    elif result.winner is not None:
        out.append("Nobody moves.")
    return out


def working_text(steps: Any) -> list[Span | str]:
    """The bridge's working steps under bold headings (not numbered lists), a line each, as
    styled pieces (text, never markup)."""
    out: list[Span | str] = []
    heads: set[str] = set()
    for step in steps:
        m = re.match(r"(\d)\. (.*)", step)
        if m:
            head = _STEP_HEADS.get(m.group(1), "")
            if head and head not in heads:
                heads.add(head)
                out += ["\n" if out else "", Span(head, bold=True)]
            out += ["\n" if out else "", _tidy(m.group(2)[:1].upper() + m.group(2)[1:])]
        else:
            out += ["\n" if out else "", "\u00a0\u00a0" + _tidy(step.strip())]
    return out


def carry_seats(campaign: Seats, battle: Any, players: Mapping[str, Any]) -> Seats:
    """The seats of a battle fought out (`battle`: its session) as the campaign's (`campaign`)
    say: each of its sides (a campaign power's id at both scales) the campaign's computer plays
    is played by the computer at the same level, or at the battle rules' strongest when they do
    not offer that level (`players`: the battle system's computer players; none: all Human). A
    new `Seats`: the campaign's are not touched."""
    seats = Seats()
    strongest = hint_level(players)
    for side in (str(s) for s in battle.system.summary(battle.state).get("sides", ())):
        level = campaign.level(side)
        if level is not None and strongest is not None:
            seats.set(side, level if level in players else strongest)
    return seats


def write_battle_save(session: Any, path: Path) -> Path:
    """The battle save the campaign links to, naming its battle file relative to itself when the
    file sits beside it or below (`battles/`), so a saves folder moved or copied keeps working;
    else as any save names its scenario (game.replay.scenario_ref)."""
    data = savegame.session_save(session)
    if session.path is not None:
        rel = os.path.relpath(os.path.abspath(session.path), os.path.dirname(os.path.abspath(path)))
        if ".." not in Path(rel).parts and not os.path.isabs(rel):
            data = replace(data, header=data.header.model_copy(update={"scenario": Path(rel).as_posix()}))
    return savegame.write_checked(path, data)


def set_aside(path: Path) -> Path:
    """Rename a battle save out of the way of a new battle (never lost): `<name>-earlier.yaml`,
    `-earlier-2` ...; the new name."""
    stem = path.name.removesuffix(".yaml")
    n = 1
    new = path.with_name(f"{stem}-earlier.yaml")
    while new.exists():
        n += 1
        new = path.with_name(f"{stem}-earlier-{n}.yaml")
    os.replace(path, new)
    return new


def save_clock(header: Any) -> str:
    """Where a battle save stands, in its battle's own words: "round 2, attack phase" (tactical),
    "wave 1, phase 5" (mass: its header's round is the wave)."""
    unit = "wave" if header.system == SCALE_SYSTEMS["mass"] else "round"
    phase = str(header.phase or "").split(" (")[0]  # ("initiative (waiting: initiative choice)": its name)
    phase = phase[:1].lower() + phase[1:] if phase.startswith("Phase ") else phase
    if unit == "round" and phase and " " not in phase and phase != "ended":
        phase += " phase"
    return f"{unit} {header.round}, {phase}" if phase else f"{unit} {header.round}"


@dataclass(frozen=True)
class LaterSave:
    path: Path
    commands: int
    clock: str
    saved_at: str


def later_saves(battle_file: Path, battle_save: Path, system: str) -> list[LaterSave]:
    """Saves of this battle in the saves folder (a Save and quit, Ctrl+S, the quick save, an
    autosave, a recovery save) written after the battle file and after the campaign's battle save:
    play the campaign's battle save does not hold. Newest first."""
    try:
        since = max(p.stat().st_mtime for p in (battle_file, battle_save) if p.exists())
    except ValueError:
        since = 0.0
    root = savegame.saves_dir()
    found: list[tuple[float, LaterSave]] = []
    for folder in (root, root / "recovery", root / "autosave"):
        try:
            names = sorted(folder.glob("*.yaml"))
        except OSError:
            continue
        for f in names:
            try:
                st = f.stat()
                if st.st_mtime <= since or f.resolve() == battle_save.resolve():
                    continue
                h = read_header(f)
            except (GameFileError, OSError):
                continue
            where = find_scenario(str(h.scenario), f)
            if h.system != system or where is None or where.resolve() != battle_file.resolve():
                continue
            found.append((st.st_mtime, LaterSave(f, h.commands, save_clock(h), h.saved_at)))
    return [ls for _t, ls in sorted(found, key=lambda x: -x[0])]


class FightOut:
    scales = SCALES
    def __init__(self, scene: Any) -> None:
        self.scene = scene
        self.app = scene.app
        self.away: Away | None = None
        self.pending: tuple[str, str, Path, Path] | None = None  # a confirmation for the next frame
        self.last_back: tuple[str, str, Path, Path] | None = None  # the last one shown (to ask it again)
        self._cache: dict[tuple[str, int, str | None], Any] = {}
        self.said = ""  # what the last choice said (a new battle over an earlier one's files)
        self.link_warning = ""  # the last translation's warning (an older battle file: no campaign link)

    def say(self, text: str, ok: bool = False) -> None:
        """A line on the campaign map's panel: a confirmation (`ok`, the normal colour) or a
        refusal / failure (the warning colour)."""
        self.scene.message = text
        self.scene.message_ok = ok

    @property
    def session(self) -> Any:
        return self.scene.session

    @property
    def state(self) -> Any:
        return self.session.state

    # ------------------------------------------------------------------ queries
    def battles(self) -> list[Any]:
        return list(self.state.open_games())

    def forecast(self, battle_id: str, viewer: str | None = None) -> Any:
        """The forecast from the state as `viewer` sees it (None: the GM, who sees sealed orders)."""
        key = (battle_id, len(self.session.history), viewer)
        if key not in self._cache:
            self._cache = {k: v for k, v in self._cache.items() if k[1] == key[1]}
            self._cache[key] = forecast(self.session.system.view(self.state, viewer), battle_id)
        return self._cache[key]

    def lines(self, battle_id: str, viewer: str | None = None) -> list[tuple[str, int, bool]]:
        """The panel's text: (line, size, bold), as `viewer` may see it (None: the GM)."""
        st = self.state
        b = st.battles[battle_id]
        out: list[tuple[str, int, bool]] = []
        where = st.cs.map.names.get(b.hex, f"{b.hex[0]},{b.hex[1]}")
        terrain = st.cs.map.terrain.get(b.hex, "?")
        out.append((f"Battle {b.id} at {where} ({terrain}): "
                    + " vs ".join(st.player_name(p) for p in b.sides), 14, True))
        if b.fought_as != "tables":
            out.append((f"Being fought out as a {b.fought_as} battle; save {b.battle_save}", 12, False))
            out.append(("Resume it, or abandon it to the tables (nothing else changes).", 12, False))
            return out
        f = self.forecast(battle_id, viewer)
        t = f.tables
        out.append(("By the tables (exact odds this week):", 13, True))
        for p in t.sides:
            bands = t.band_chances(p)
            detail = ", ".join(f"{k} {_pct(bands[k])}" for k in BAND_ORDER if bands.get(k, 0) >= 0.0005)
            lo, hi = t.dice[p]
            dice = f"{lo}" if lo == hi else f"{lo}-{hi}"
            out.append((f"  {st.player_says(p, 'wins')} {_pct(t.win(p))} ({detail or '-'}); "
                        f"{st.player_agrees(p, 'rolls')} {dice} dice; "
                        f"{st.player_agrees(p, 'takes')} {t.casualties[p]:.1f} casualties on average", 11, False))
        out.append((f"  draw {_pct(t.draw)}", 11, False))
        for n in t.notes:
            out.append((f"  {n}", 10, False))
        if f.tactical_sides:
            out.append((f"As a tactical battle on {f.tactical_map}:", 13, True))
            for s in f.tactical_sides:
                role = st.player_agrees(s.player, "defends" if s.defender else "attacks")
                out.append((f"  {s.name} {role}: {s.units} units, strength {s.strength}; {s.commander}", 11, False))
        if f.mass_sides:
            out.append((f"As a mass battle on {f.mass_terrain} ground:", 13, True))
            for s in f.mass_sides:
                out.append((f"  {s.name}: {s.strength:,} men ({s.units} campaign units); {s.commander}", 11, False))
            for way, win in f.mass_ways:
                odds = ", ".join(f"{st.player_name(k)} {_pct(v)}" for k, v in win.items())
                out.append((f"  opening Way of {way.title()}: {odds}", 11, False))
        for prob in f.problems:
            out.append((f"  cannot: {prob}", 11, False))
        return out

    def forecast_text(self, battle_id: str, viewer: str | None = None) -> list[Span | str]:
        """The panel's forecast (`lines`, without its title line) as styled pieces for a dialog:
        its headings bold, its detail lines indented as on the panel."""
        out: list[Span | str] = []
        for text, _size, bold in self.lines(battle_id, viewer)[1:]:
            out.append("\n")
            if bold:
                out.append(Span(text, bold=True))
            else:
                body = text.lstrip(" ")
                out.append("\u00a0" * (len(text) - len(body)) * 2 + body)
        return out

    # ------------------------------------------------------------------ choosing
    def _campaign_save(self) -> Path:
        return Path(self.session.save_path) if self.session.save_path else actions.new_save_path(self.session)

    def link(self, battle_id: str) -> CampaignBattle:
        """This campaign battle, as its battle file names it (game.bridge.files.CampaignBattle): the
        campaign's scenario checksum and seed, the battle, this week."""
        path = self.session.path
        checksum = scenario_fingerprint(path) if path is not None else ""
        return CampaignBattle(campaign_identity(checksum, int(self.session.seed)), battle_id, int(self.state.week))

    def choose(self, battle_id: str, scale: str, note: str = "") -> bool:
        if scale == "tables":
            return bool(self.scene.gm_do(GmBattleChoice(battle=battle_id, scale="tables", note=note)))
        camp = self._campaign_save()
        battle_file, battle_save = battle_paths(camp, battle_id, scale)
        replaced, since = replaced_by_generating(battle_file, scale), time.time_ns()
        try:
            generate_battle(self.state, battle_id, scale, battle_file.parent, battle_file.stem,
                            seed=int(self.session.seed), link=self.link(battle_id))
            replaced = rewritten(replaced, since)  # (a file that came out the same was not written)
            earlier = set_aside(battle_save) if battle_save.exists() else None
        except (BridgeError, GameFileError, OSError) as exc:
            self.say(f"Cannot fight it out: {exc}")
            return False
        rel = battle_save.relative_to(camp.parent).as_posix()
        if not self.scene.gm_do(GmBattleChoice(battle=battle_id, scale=scale, save=rel, note=note)):
            return False
        if not self._save_campaign(camp):
            return False
        said = []
        if earlier is not None or replaced:  # a battle fought out before: this one begins afresh
            said.append(f"A new {scale} battle {battle_id} begins, with fresh dice")
            if earlier is not None:
                said.append(f"the earlier battle save is kept as {earlier.name}")
            if replaced:
                said.append(backups_text(replaced))
        self.said = "; ".join(said)
        if self.said:
            self.say(self.said, ok=True)
        return self._open(battle_id, scale, camp, battle_save)

    def propose(self, battle_id: str, player: str, scale: str, colour: tuple[int, int, int]) -> None:
        """Players, not the GM: `player` proposes to fight its battle out; the other side is asked
        behind the hand-off screen, and only if it agrees is the choice made (with a note naming
        both). The forecast is shown with the question. Each hand-off is in the colour of the
        player it passes the screen to, its campaign colour (CampaignSetup.colour_of); `colour`
        (the proposer's, from the map) is not needed for that and is left unused.

        [decision] A side the computer plays in the campaign agrees at once: nobody at the screen
        answers for it, and it plays the battle at its campaign level (`carry_seats`)."""
        st = self.state
        b = st.battles[battle_id]
        foe = next(p for p in b.sides if p != player)
        me, them = st.player_name(player), st.player_name(foe)
        if self.session.seats.is_computer(foe):
            level = self.session.seats.level(foe)
            if self.choose(battle_id, scale, note=f"{me} proposed it, {them} (computer, {level}) agreed"):
                self.say(f"{st.player_says(foe, 'is')} played by the computer ({level}), which agreed: battle {b.id} is fought "
                         f"out as a {scale} battle", ok=True)
            return
        my_colour, their_colour = rgb(st.cs.colour_of(player)), rgb(st.cs.colour_of(foe))
        body = styled(Span(me, bold=True), f" {st.player_agrees(player, 'proposes')} to fight battle {b.id} out as a ", Span(scale, bold=True),
                      " battle instead of resolving it by the tables. It is fought out only if you agree.\n",
                      *self.forecast_text(battle_id, foe))

        def agree() -> None:
            self.choose(battle_id, scale, note=f"{me} proposed it, {them} agreed")

        def refuse() -> None:
            self.say(f"{st.player_says(foe, 'refuses')}: battle {b.id} is resolved by the tables", ok=True)
            self.app.push(HandoffScene(self.app, me, my_colour, f"{them} refused. Pass the screen back to {me}."))

        w, h = self.app.screen.get_size()
        self.app.push(DialogScene(self.app, f"{them}: fight battle {b.id} out as a {scale} battle?", body,
                                  [Choice("Agree", agree, pygame.K_y, primary=True), Choice("Refuse", refuse, pygame.K_n)],
                                  size=(min(820, w - 40), min(520, h - 40)), cancel=Choice("Refuse", refuse),
                                  name="battle_proposal"))
        self.app.push(HandoffScene(self.app, them, their_colour,
                                   f"{st.player_says(player, 'proposes')} to fight battle {b.id} out. Pass the screen to {them}."))

    def resume(self, battle_id: str) -> bool:
        """Reopen the battle fought out from its save (or its battle file, never saved). A later
        save of it in the saves folder (a Save and quit inside the battle writes a new file there)
        is offered first: the campaign's battle save does not hold that play."""
        b = self.state.battles[battle_id]
        camp = self._campaign_save()
        try:  # only inside the campaign save's folder, through no symbolic link (issue 34)
            battle_save = linked_save(camp, b.battle_save, battle_id)
        except GameFileError as exc:
            self.say(f"Cannot open the battle: {exc.line()}")
            return False
        later = later_saves(scenario_of_save(battle_save), battle_save, SCALE_SYSTEMS[b.fought_as])
        if later:
            self.ask_later(battle_id, b.fought_as, camp, battle_save, later[0])
            return True
        return self._open(battle_id, b.fought_as, camp, battle_save)

    def ask_later(self, battle_id: str, scale: str, camp: Path, battle_save: Path, later: LaterSave) -> DialogScene:
        """A later save of the battle than the campaign's battle save: which to go on from."""
        other, opened = BATTLE_SAVE, "the campaign's battle save is opened"
        try:
            h = read_header(battle_save)
            mine = (f"holds {counted(h.commands, 'command', 'commands')} ({save_clock(h)}, saved "
                    f"{h.saved_at[:16].replace('T', ' ')})")
        except (GameFileError, OSError):
            mine = "has not been written yet"
            other, opened = BEGIN_AGAIN, "the battle begins again from its battle file, with fresh dice"
        folder = later.path.parent.name
        why = {"recovery": "quitting without saving kept it as a recovery save",
               "autosave": "the battle's own autosave"}.get(folder, "a Save and quit inside the battle writes a new file")
        shown = f"{folder}/{later.path.name}" if folder in ("recovery", "autosave") else later.path.name
        body = styled("A later save of battle ", Span(battle_id, bold=True), " is in the saves folder: ",
                      Span(shown, bold=True),
                      f" ({later.clock}, {counted(later.commands, 'command', 'commands')}, saved "
                      f"{later.saved_at[:16].replace('T', ' ')}). The campaign's battle save {battle_save.name} "
                      f"{mine}: the play since is only in the later save ({why}).\n\n",
                      Span(LATER_SAVE, bold=True), ": its play is carried on, and the way back "
                      "(Ctrl+B) writes it to the campaign's battle save. ",
                      Span(other, bold=True), f": {opened}; the later save is left as it is.")
        w, h_ = self.app.screen.get_size()
        dialog = DialogScene(
            self.app, f"Battle {battle_id}: a later save", body,
            [Choice(LATER_SAVE, lambda: self._open(battle_id, scale, camp, battle_save, later.path),
                    pygame.K_RETURN, primary=True),
             Choice(other, lambda: self._open(battle_id, scale, camp, battle_save), pygame.K_o),
             Choice("Back", None, pygame.K_ESCAPE)],
            size=(min(760, w - 40), min(340, h_ - 40)), cancel=Choice("Back", None), name="battle_later")
        self.app.push(dialog)
        return dialog

    def abandon(self, battle_id: str) -> None:
        """The GM panel's "Abandon to tables": asked first, as on the way back (ask_abandon)."""
        self.ask_abandon(battle_id, from_panel=True)

    def abandon_now(self, battle_id: str) -> bool:
        """Set the battle fought out aside (gm_battle_abandon) and save the campaign, as a result
        applied is."""
        if not self.scene.gm_do(GmBattleAbandon(battle=battle_id, note="abandoned in the client")):
            return False
        back = self.last_back
        camp = back[2] if back is not None and back[0] == battle_id else self._campaign_save()
        if self._save_campaign(camp):
            self.say(f"Battle {battle_id} goes back to the tables; campaign saved to {camp.name}", ok=True)
        return True

    def what_is_lost(self, battle_id: str) -> str:
        """The battle fought so far, in words: its scale, where, and what its save holds."""
        st = self.state
        b = st.battles[battle_id]
        where = st.cs.map.names.get(b.hex, f"{b.hex[0]},{b.hex[1]}")
        head = f"the {b.fought_as} battle {battle_id} at {where}"
        try:
            path = linked_save(self._campaign_save(), b.battle_save, battle_id)
            h = read_header(path)
        except (GameFileError, OSError):
            return f"{head} (not saved yet: whatever was played of it)"
        return f"{head} as its save {path.name} holds it (round {h.round}, {h.commands} commands)"

    def ask_abandon(self, battle_id: str, from_panel: bool = False) -> None:
        """Abandon (tables) on the way back, or the GM panel's "Abandon to tables": setting a battle
        fought out aside is the GM's command, so with a GM passphrase set, only the passphrase
        opens it (outside the GM view); and it is asked first, naming what goes [decision,
        docs/scales.md]."""
        def keep() -> None:
            if not from_panel:
                self.confirm_again(battle_id)

        def confirm() -> None:
            w, h = self.app.screen.get_size()
            self.app.push(DialogScene(
                self.app, f"Abandon battle {battle_id}?",
                styled("Lost: ", Span(self.what_is_lost(battle_id), bold=True), ". It no longer counts: the tables "
                       "resolve ", Span(battle_id, bold=True), " this week, as if it had never been fought out, and "
                       "its sides give orders. Its files stay where they are; fighting it out again begins a new "
                       "battle with fresh dice. The campaign is saved with it. This is the GM's command (the log "
                       "says so)."),
                [Choice("Abandon", lambda: self.abandon_now(battle_id), primary=True),
                 Choice("Keep the battle", keep, pygame.K_ESCAPE)],
                size=(min(640, w - 40), min(300, h - 40)),
                cancel=Choice("Keep the battle", keep), name="battle_return"))

        seat = getattr(self.scene, "gm_seat", None)
        if self.scene.gm or seat is None or not seat.is_set:
            confirm()
            return
        self.app.push(GmLockScene(self.app, seat, True, confirm, purpose="abandon"))

    def confirm_again(self, battle_id: str) -> None:
        """Back to the question of the way back (the abandon not taken)."""
        away = self.last_back
        if away is not None and away[0] == battle_id:
            self.pending = away

    def _save_campaign(self, camp: Path) -> bool:
        try:
            savegame.save_session(self.session, camp)
        except (GameFileError, OSError) as exc:
            self.say(f"Not saved: {exc}")
            return False
        self.session.save_path = camp
        actions.mark_saved(self.session)
        return True

    def _open(self, battle_id: str, scale: str, camp: Path, battle_save: Path, later: Path | None = None) -> bool:
        path = later or (battle_save if battle_save.is_file() else scenario_of_save(battle_save))
        begun = path == scenario_of_save(battle_save)
        try:  # begun from the battle file: fresh dice each time (never the dice of an attempt not kept)
            bs = launch.open_game(self.app.table, path, seed=fresh_seed() if begun else None)
            if begun:  # begun now: its powers' seats as in the campaign (see the module)
                bs.fresh_dice = True  # and a restart of it deals fresh dice again (the shell's Restart)
                bs.seats = carry_seats(self.session.seats, bs, self.app.table.plugin_named(bs.system.name).players)
            bs.return_to = self._back
            bs.return_label = "Campaign map"
            scene: Any = launch.scene_for(self.app, bs)
        except (GameFileError, UserError, OSError) as exc:  # (UserError: neither its save nor its file is there)
            self.say(f"Cannot open the battle: {exc}")
            return False
        self.away = Away(battle_id, scale, camp, battle_save, bs, scene)
        if self.scene.gm:  # the battle's players take the screen: nothing of the GM view waits under it
            self.scene.close_gm()
        self.app.push(scene)
        scene.toast(f"Campaign battle {battle_id}: Ctrl+B goes back to the campaign map"
                    + (f". {self.said}" if self.said else ""), 6.0)
        self.said = ""
        return True

    def _back(self, battle_scene: Any) -> None:
        """The battle's return hook: uncover the campaign map (came_back does the rest). The battle
        coming back may be one begun again (a Restart, a New battle keep the hook: actions.restarted):
        its play is what goes to the battle save."""
        away = self.away
        if away is not None and getattr(battle_scene, "session", None) is not None:
            away.session, away.scene = battle_scene.session, battle_scene
        while self.app.scenes.top is not None and self.app.scenes.top is not self.scene:
            self.app.scenes.pop()

    # ------------------------------------------------------------------ the way back
    def came_back(self) -> None:
        """Called when the campaign scene is on top again: if a battle was open and its scene is
        gone, save it where the campaign's choice says and show what it translates to."""
        away = self.away
        if away is None or any(s is away.scene for s in self.app.scenes):
            return
        self.away = None
        try:
            write_battle_save(away.session, away.battle_save)
        except (GameFileError, OSError) as exc:
            self.say(f"The battle was not saved: {exc}")
            return
        # shown from the next frame's update, once the input that closed the battle is spent
        self.pending = (away.battle, away.scale, away.campaign_save, away.battle_save)

    def update(self) -> None:
        if self.pending is not None and self.app.scenes.top is self.scene:
            pending, self.pending = self.pending, None
            self.confirm(*pending)

    def translation(self, battle_id: str, battle_save: Path) -> tuple[Any, str]:
        """(the CampaignResult or None, the text: the steps or why there is no result yet). A
        save of another campaign battle (its battle file names another campaign, battle or week)
        gives no result; one whose battle file names none (older) gives it with `link_warning`."""
        self.link_warning = ""
        try:
            bg = load_battle_save(self.app.table, battle_save)
            self.link_warning = check_link(battle_save, bg.header, self.link(battle_id)) or ""
            result = result_of(self.state, battle_id, load_scales_rules(), bg)
        except GameFileError as exc:
            return None, exc.line()
        except BridgeError as exc:
            return None, str(exc)
        return result, "\n".join(result.steps)

    def confirm(self, battle_id: str, scale: str, camp: Path, battle_save: Path) -> DialogScene:
        result, text = self.translation(battle_id, battle_save)
        body = styled(text)
        if result is not None:
            body = styled("\n".join(result_sentences(self.state, result)), "\n\n",
                          *((Span(self.link_warning, colour=(255, 210, 122)), "\n\n") if self.link_warning else ()),
                          Span("How it was worked out", bold=True), "\n", *working_text(result.steps))
            who = f" for {self.state.player_name(result.winner)}" if result.winner else ""
            title = f"Battle {battle_id}: {result.band_name}{who}"
            choices = [Choice("Apply the result", lambda: self.apply(result, scale, camp, battle_save),
                              pygame.K_RETURN, primary=True)]
        else:
            title = f"Battle {battle_id}: not over yet"
            why = text.removeprefix(f"{battle_save}: ")  # (the save is named once, below)
            body = styled(why[:1].upper() + why[1:] + ".\n\nIts play so far is saved in ",
                          Span(self._shown(battle_save, camp), bold=True),
                          f"; the campaign waits for its result (battle {battle_id} gets no orders).")
            choices = [Choice("Back to the battle", lambda: self.resume(battle_id), pygame.K_RETURN, primary=True)]
        self.last_back = (battle_id, scale, camp, battle_save)
        choices += [Choice("Abandon (tables)...", lambda: self.ask_abandon(battle_id), pygame.K_a),
                    Choice("Later", None, pygame.K_ESCAPE)]
        if result is not None:
            choices.insert(1, Choice("Back to the battle", lambda: self.resume(battle_id), pygame.K_b))
        w, h = self.app.screen.get_size()
        dialog = DialogScene(self.app, title, body, choices, size=(min(900, w - 40), min(560, h - 40)),
                             cancel=Choice("Later", None), name="battle_return")
        self.app.push(dialog)
        return dialog

    @staticmethod
    def _shown(path: Path, camp: Path) -> str:
        """A battle save as a player reads it: relative to the campaign save's folder when inside it
        (`battles/...`), else whole."""
        try:
            return path.resolve().relative_to(camp.resolve().parent).as_posix()
        except ValueError:
            return str(path)

    def apply(self, result: Any, scale: str, camp: Path, battle_save: Path) -> bool:
        cmd = parse_command(result.command(note=f"{scale} battle {battle_save.name}",
                                           source=source_of(battle_save, camp, scale)))
        if not self.scene.gm_do(cmd):
            return False
        ok = self._save_campaign(camp)
        if ok:
            self.say(f"Result applied; campaign saved to {camp.name}", ok=True)
        return ok
