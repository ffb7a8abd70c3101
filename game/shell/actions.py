"""What the shell does for any game scene: save, load, the load menu, the replay view, GM mode,
undo and redo, the help, quitting (with the question and the recovery save), and the end-of-game
choices every system offers. Called from the key map (game/shell/keys.py), from buttons and from
the game scenes. Saving and loading go through the save service (game/shell/savegame.py).

A game scene (any rule system's) is a `game.shell.contracts.GameScene`: `game_scene = True`, a
`session` (game.shell.session), `toast(text, seconds)`, and from the Scene base `notify` (a
message's tone), `after_change()`
(show the state afresh after an undo or redo) and `key_map()`.
"""

from __future__ import annotations

import datetime as _dt
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pygame

from game.core import gm_lock
from game.core.errors import GameFileError
from game.core.system import Accepted, Step
from game.shell import savegame
from game.shell.contracts import (
    AppContext,
    GameScene,
    game_scenes,
    is_game_scene,
    live_game,
    tell,
    unsent_lines,
)
from game.shell.gm_seat import PassphraseScene, outer_seat
from game.shell.keymap import Binding, help_pieces
from game.shell.launch import client_of, load_into
from game.shell.scenes.dialog import Choice, DialogScene
from game.shell.seats import Seats
from game.shell.session import Session
from game.shell.toolkit.richtext import Span, styled

APP_TITLE = "Ascension Isle: Legacy"


def _gm_active(app: AppContext) -> bool:
    return any(s.name == "gm" for s in app.scenes)


def mark_saved(session: Session) -> None:
    session.saved_steps = len(session.history)


def unsaved(session: Session) -> bool:
    """Play since the last save (or since the start, for a fresh game)."""
    return len(session.history) != (session.saved_steps or 0)


def window_title(session: Session | None) -> str:
    """The window's title: the game, its rule system and its own clock ("Week 3")."""
    if session is None:
        return APP_TITLE
    clock = savegame.clock_text(session.system, session.state)
    return f"{APP_TITLE} - {savegame.game_title(session)} - {session.system.title}, {clock}"


# --------------------------------------------------------------------------- refusals where they are seen


def say(app: AppContext, text: str, seconds: float = 4.0, title: str = "Not here") -> None:
    """A refusal from the shell on the screen in front: the game's message line when the game is
    in front; else the screen's own message line when it has one (its `notify`: the hand-off, the
    load menu); else a small dialog over it (Enter or Esc closes it). Never only on the game's
    line under a dialog: the dialog may hide it (the campaign's players dialog does)."""
    top = app.scenes.top
    if top is not None and is_game_scene(top):
        tell(top, text, seconds, problem=True)
        return
    notify = getattr(top, "notify", None)
    if notify is not None and notify(text, seconds, True):
        return
    app.push(DialogScene(app, title, text, [Choice("OK", None, pygame.K_RETURN, primary=True)],
                         size=(560, 200), cancel=Choice("OK", None), name="not_here"))


def refuse(scene: GameScene, text: str, seconds: float) -> None:
    """A shell key's refusal (not saved, no quick save, nowhere to go back to): on the game's
    message line, and on the screen in front of it when there is one (a dialog, a menu: `say`)."""
    tell(scene, text, seconds, problem=True)
    top = scene.app.scenes.top
    if top is not None and top is not scene and not is_game_scene(top):
        say(scene.app, text, seconds, title="Not done")


# --------------------------------------------------------------------------- saving and loading


def quick_save_action(scene: GameScene) -> None:
    """F5: the quick save; when the slot (one per scenario) held another game of it, the message
    says so and where that game went (the previous file is kept as a .bak)."""
    other = savegame.holds_another_game(scene.session, savegame.quick_save_path(scene.session))
    try:
        path = savegame.quick_save(scene.session, gm_mode=_gm_active(scene.app))
    except (GameFileError, OSError) as exc:
        refuse(scene, f"Not saved: {exc}", 6.0)
        return
    mark_saved(scene.session)
    if other:
        tell(scene, f"Saved to {path} (F9 loads it). It replaced the quick save of another game of this "
             f"scenario, kept as {path.name}.bak.", 6.0)
        return
    tell(scene, f"Saved to {path} (F9 loads it)", 3.0)


def new_save_path(session: Session, now: _dt.datetime | None = None) -> Path:
    """saves/<scenario>-<clock><n>-<date>.yaml (e.g. teaching-week03-...): a fresh file for
    Ctrl+S (never overwrites one)."""
    stem = "".join(ch if ch.isalnum() else "-" for ch in Path(session.path or "game").stem).strip("-")
    when = (now or _dt.datetime.now()).strftime("%Y%m%d-%H%M%S")
    word, n_clock = savegame.clock(session.system, session.state)
    base = f"{stem}-{word[0] if word == 'round' else word}{n_clock:02d}-{when}"
    path = savegame.saves_dir() / f"{base}.yaml"
    n = 1
    while path.exists():
        n += 1
        path = path.with_name(f"{base}-{n}.yaml")
    return path


def save_new_action(scene: GameScene) -> None:
    try:
        path = savegame.save_session(scene.session, new_save_path(scene.session), gm_mode=_gm_active(scene.app))
    except (GameFileError, OSError) as exc:
        refuse(scene, f"Not saved: {exc}", 6.0)
        return
    mark_saved(scene.session)
    tell(scene, f"Saved to {path} (Ctrl+O lists every save)", 3.0)


def quick_load_action(scene: GameScene) -> None:
    """F9: load this scenario's quick save; first ask, when the game has moves since its last
    save (they would be lost; "Load" keeps them in the recovery save) or the quick save was
    played with other seats (the slot is one per scenario: it may be another game of it)."""
    path = savegame.quick_save_path(scene.session)
    if not path.exists():
        refuse(scene, f"No quick save of this game yet: F5 saves it ({path.name}).", 4.0)
        return
    session = scene.session
    note = savegame.quick_save_note(session, path)
    lose = unsaved(session) and bool(session.history)
    if not lose and "It was played with" not in note:
        _quick_load(scene, path)
        return
    app = scene.app

    def load() -> None:
        kept = None
        if lose:
            try:
                kept = savegame.keep_recovery(session)  # nothing is lost: the next start offers to resume it
            except (GameFileError, OSError) as exc:
                refuse(scene, f"Not loaded: the moves since the last save could not be kept in a recovery save "
                       f"({exc}); Ctrl+S saves them first.", 8.0)
                return
        _quick_load(scene, path, kept)

    lost = ("This game has moves since its last save: loading takes them off the screen (a recovery save of "
            "its own keeps them, and the next start of this game offers it). ") if lose else ""
    app.push(DialogScene(app, "Load the quick save?", f"{lost}{note}",
                         [Choice("Load", load, primary=True), Choice("Keep playing", None)],
                         cancel=Choice("Keep playing", None), name="quick_load_question"))


def _quick_load(scene: GameScene, path: Path, kept: Path | None = None) -> None:
    """Load the quick save at `path`; `kept`: the recovery save the moves taken off the screen
    went to (said with the load)."""
    app = scene.app
    problem = load_into(app, path)
    if problem is not None:
        refuse(scene, f"Not loaded: {problem}", 8.0)
        return
    top = live_game(app)
    if top is not None and not top.session.load_warnings:  # (a warning about the scenario stays up instead)
        left = f"; the moves left are kept in {kept.parent.name}/{kept.name} (Ctrl+O lists it)" if kept else ""
        tell(top, f"Loaded {path}{left}", 6.0 if kept else 3.0)


def open_load_menu(scene: GameScene) -> None:
    # the load menu reads the save format's headers: imported when it opens, not at start-up
    # import seam: the load menu (and the save reader it lists saves with) loads when the player opens it
    from game.shell.scenes.load_menu import LoadMenuScene

    scene.app.push(LoadMenuScene(scene.app))


# --------------------------------------------------------------------------- undo, redo, help


def undo_refusal(session: Session) -> str:
    """Why the last command cannot be taken back, for the player."""
    record = session.record
    if not record.steps:
        return "Nothing to undo: no command has been played yet."
    blocked = session.undo_blocked()
    if blocked is not None:
        return blocked
    if record.steps[-1].gm and not record.can_undo:
        return "Not undone: the last command was the GM's; the GM takes it back with the GM tools (F2)."
    if record.rolled_dice(record.steps[-1]):
        return "Not undone: the last command rolled dice (only a command that rolled no dice and revealed " \
               "nothing can be taken back)."
    return "Not undone: the rules keep the last command (it revealed something or ended a phase)."


def _what(session: Session, step: Step) -> str:
    """A command in the system's words, for the undo and redo messages."""
    return session.system.describe_command(step.before, step.command)


def undo_action(scene: GameScene) -> None:
    """Ctrl+Z in every rule system: take back what the system's `undoable` allows."""
    if not scene.session.undo():
        tell(scene, undo_refusal(scene.session), 4.0, problem=True)
        return
    scene.after_change()
    undone = scene.session.record.redo_stack
    what = f": {_what(scene.session, undone[-1])}" if undone else ""
    tell(scene, f"Taken back{what} (Ctrl+Y plays it again).", 2.5)


def redo_action(scene: GameScene) -> None:
    """Ctrl+Y: play the command just taken back again (same state, so the same dice)."""
    record = scene.session.record
    if not record.can_redo:
        tell(scene, "Nothing to redo: Ctrl+Y plays again a command taken back with Ctrl+Z.", 4.0, problem=True)
        return
    outcome = record.redo()
    if not isinstance(outcome, Accepted):
        reason = getattr(outcome, "reason", "")
        tell(scene, f"Not played again: {reason}" if reason else "Not played again.", 4.0, problem=True)
        return
    scene.after_change()
    tell(scene, f"Played again: {_what(scene.session, record.steps[-1])}.", 2.5)


def show_help(app: AppContext, groups: Sequence[tuple[str, Sequence[Binding]]]) -> None:
    """The F1 help of the screen on top (keys.help_groups builds it from the screen's key map)."""
    dialog = DialogScene(app, "Keys", help_pieces(groups), [Choice("Close", None, pygame.K_F1, primary=True)],
                         size=(760, 620), cancel=Choice("Close", None), name="help")
    app.push(dialog)


# --------------------------------------------------------------------------- replay view and GM mode


def open_replay_view(scene: GameScene) -> None:
    client = client_of(scene.app.table, scene.session)
    opener = getattr(client, "open_replay", None)  # (optional in a system's client)
    if opener is None:
        tell(scene, f"The {scene.session.system.title} has no replay view yet: `python -m game replay` "
             "checks a save.", 5.0, problem=True)
        return
    opener(scene.app, scene.session)


def toggle_gm(scene: GameScene) -> None:
    client = client_of(scene.app.table, scene.session)
    opener = getattr(client, "open_gm", None)  # (optional in a system's client)
    if opener is None:
        tell(scene, f"The {scene.session.system.title} has no GM mode on screen yet.", 5.0, problem=True)
        return
    opener(scene.app, scene)


# --------------------------------------------------------------------------- after every change


def after_change(scene: GameScene) -> None:
    """Run by a game scene after every accepted command or undo: the autosave at a new round
    (week, wave: the system's clock)."""
    if scene not in list(scene.app.scenes):  # a replay's display, not the game being played
        return
    problems = savegame.AUTOSAVES.problems()  # an earlier autosave whose background write failed
    if problems:
        tell(scene, f"Autosave failed: {problems[-1]}", 6.0, problem=True)
    try:
        path = savegame.autosave_if_new_round(scene.session)
    except (GameFileError, OSError) as exc:
        tell(scene, f"Autosave failed: {exc}", 6.0, problem=True)
        return
    if path is not None:
        tell(scene, f"{savegame.clock_text(scene.session.system, scene.session.state)}: autosaved", 2.5)


def end_choices(scene: GameScene) -> list[Choice]:
    """The shell's buttons on a game's end-of-game summary: the load menu and the replay view."""

    def from_end(action: Callable[[GameScene], None]) -> Callable[[], None]:
        def run() -> None:
            reopen = getattr(scene, "reopen_end_summary", None)  # (optional: the summary returns)
            if reopen is not None:
                reopen()
            action(scene)
        return run

    back = scene.session.return_to
    # a game opened from another (a campaign battle fought out): the way back is the default
    extra = [Choice(scene.session.return_label or "Back", lambda: back(scene), pygame.K_b, primary=True)] if back else []
    return [*extra, Choice("Load", from_end(open_load_menu), pygame.K_l),
            Choice("Replay", from_end(open_replay_view), pygame.K_p)]


def restarted(old: Session, fresh: Session) -> Session:
    """`fresh`, the battle begun again (a Restart, a New battle) in place of `old`, given what goes
    on with the players: who plays each side (none of the old game's why lines), the GM's
    passphrase, and the way back to the game it was opened from (a campaign battle fought out:
    Ctrl+B and the end summary still go back, and carry the new battle's play)."""
    fresh.seats = Seats(dict(old.seats.levels))
    gm_lock.keeping(fresh).lock = gm_lock.keeping(old).lock
    fresh.return_to, fresh.return_label = old.return_to, old.return_label
    return fresh


def ask_restart(scene: GameScene, restart: Callable[[], None], back: Callable[[], None] | None = None, *,
                gm_passed: bool = False) -> None:
    """Start the battle again from an end-of-game summary (a Restart, a New battle): a game with
    moves since its last save is not thrown away without asking. "Save and restart" keeps it in a
    new save first (a failed save says why and starts nothing); "Restart" starts again without it;
    "Back" (Esc) returns to the summary (`back`: what shows it again, when it is a dialog), which
    offers the way back when there is one. A battle opened from another game says that the one
    begun again goes back there too (`restarted` keeps the way).

    A battle fought out from a campaign with a GM passphrase (gm_seat.outer_seat) is begun again
    only by the GM [decision]: it deals fresh dice, so a player who lost could otherwise deal the
    battle again until it is won before the way back carries a result; the passphrase is asked
    first (Esc: back to the summary)."""
    session = scene.session
    seat = outer_seat(scene.app) if session.return_to is not None and not gm_passed else None
    if seat is not None:
        scene.app.push(PassphraseScene(
            scene.app, seat.opens, lambda: ask_restart(scene, restart, back, gm_passed=True),
            lines=("The GM's seat", "This battle is fought out from a campaign with a GM passphrase.",
                   "Beginning it again deals its dice again: only the GM does it. A player goes back with Esc."),
            ok_label="Begin it again (Enter)", on_back=back))
        return
    if not (unsaved(session) and session.history):
        restart()
        return

    def back_to_summary() -> None:
        if back is not None:
            back()

    def save_and_restart() -> None:
        try:
            path = savegame.save_session(session, new_save_path(session))
        except (GameFileError, OSError) as exc:
            back_to_summary()
            tell(scene, f"Not saved: {exc}", 8.0, problem=True)
            return
        mark_saved(session)
        print(f"saved to {path}")
        restart()

    way: tuple[Span | str, ...] = ()
    if session.return_to is not None:
        way = (" The battle begun again goes back to the ", Span(session.return_label or "game it was opened from",
                                                                 bold=True), " as this one does (Ctrl+B): "
               "what this one came to does not go back there (a campaign takes the result of the battle "
               "that goes back).")
    scene.app.push(DialogScene(
        scene.app, "Start the battle again?",
        styled("The battle as played has moves since its last save. ", Span("Save and restart", bold=True),
               " keeps it in a new save first; ", Span("Restart", bold=True), " starts again without it; ",
               Span("Back", bold=True), " returns to the summary.", *way),
        [Choice("Save and restart", save_and_restart, pygame.K_RETURN, primary=True), Choice("Restart", restart),
         Choice("Back", back_to_summary, pygame.K_ESCAPE)],
        size=(560, 280 if way else 240), cancel=Choice("Back", back_to_summary), name="restart_question"))


def return_action(scene: GameScene) -> None:
    """Ctrl+B: back to the game this one was opened from (a campaign battle fought out)."""
    back = scene.session.return_to
    if back is None:
        refuse(scene, "This game was not opened from another one (Ctrl+B goes back to it)", 3.0)
        return
    back(scene)


# --------------------------------------------------------------------------- quitting


def write_recovery(app: AppContext) -> list[Path]:
    """Keep every game on the stack that has unsaved play as a recovery save (a new file each
    time, never written over another: savegame.keep_recovery), what the next start of its
    scenario offers; a game saved since its last move needs none."""
    out: list[Path] = []
    for scene in game_scenes(app):
        if not unsaved(scene.session):
            continue
        path = savegame.write_recovery(scene.session)
        if path is not None:
            out.append(path)
    return out


def ask_unsent(app: AppContext, lost: Sequence[str], then: Callable[[], object], verb: str = "Quit") -> None:
    """Before `then` (`verb`: "Quit", "Load") throws away what is typed or chosen and not sent
    (`lost`: the lines of contracts.unsent_lines): a question naming it. "Back to the game"
    (Enter, Esc) keeps it; "<verb> anyway" goes on."""
    it = "it" if len(lost) == 1 else "them"
    w, h = app.screen.get_size()
    app.push(DialogScene(app, f"{verb} without sending {it}?",
                         f"Not sent yet, and lost if you {verb.lower()}: {'; '.join(lost)}. Back to the game keeps {it}.",
                         [Choice("Back to the game", None, pygame.K_RETURN, primary=True),
                          Choice(f"{verb} anyway", then, pygame.K_q if verb == "Quit" else pygame.K_l)],
                         size=(min(620, w - 40), min(260, h - 40)), cancel=Choice("Back to the game", None),
                         name="unsent_question"))


def request_quit(app: AppContext, *, ask_unsent_first: bool = True) -> bool:
    """Esc on a game screen or the hand-off, the window's close button, Ctrl+Q, Options -> Quit:
    first, when a scene on the stack holds something typed or chosen and not sent (its optional
    `unsent`: contracts.HoldsUnsent), ask before it is thrown away ("Back to the game" keeps it);
    then ask when there is unsaved play. `ask_unsent_first=False`: not the first question (a
    terminate signal does not wait on it: `on_terminate`; the question's "Quit anyway")."""
    if any(s.name == "quit_dialog" for s in app.scenes):
        return True
    if ask_unsent_first:
        if any(s.name == "unsent_question" for s in app.scenes):
            return True
        lost = unsent_lines(app)
        if lost:
            ask_unsent(app, lost, lambda: request_quit(app, ask_unsent_first=False))
            return True
    scenes = game_scenes(app)
    if not any(unsaved(s.session) and s.session.history for s in scenes):
        quit_now(app)
        return True
    scene = scenes[-1]
    what = f"{savegame.game_title(scene.session)} ({scene.session.system.title}, " \
           f"{savegame.clock_text(scene.session.system, scene.session.state).lower()})"

    def save_and_quit() -> None:
        try:
            path = savegame.save_session(scene.session, new_save_path(scene.session))
        except (GameFileError, OSError) as exc:
            kept = write_recovery(app)
            still = f" (a recovery save has it: {kept[-1].name})" if kept else ""
            tell(scene, f"Not saved: {exc}{still}", 8.0, problem=True)
            return
        mark_saved(scene.session)
        print(f"saved to {path}")
        quit_now(app)

    # (past the question about them, or a terminate signal that does not wait on it: said again,
    # since no save keeps them)
    lost = unsent_lines(app)
    it = "it" if len(lost) == 1 else "them"
    not_kept = (f"\nNot sent, and in no save (Keep playing keeps {it}): " + "; ".join(lost) + ".",) if lost else ()
    dialog = DialogScene(app, "Quit the game?",
                         styled(f"{what} has moves since the last save. ", Span("Save and quit", bold=True),
                                " writes a new save; ", Span("Quit", bold=True), " keeps them only in a "
                                "recovery save the next start of this game offers to resume; ",
                                Span("Keep playing", bold=True), " goes back to the game.", *not_kept),
                         [Choice("Save and quit", save_and_quit, pygame.K_RETURN, primary=True),
                          Choice("Quit", lambda: quit_now(app)),
                          Choice("Keep playing", None)],
                         size=(600, 340) if not_kept else (520, 300),
                         cancel=Choice("Keep playing", None), name="quit_dialog")
    app.push(dialog)
    return True


def quit_now(app: AppContext, *, anyway: bool = False) -> None:
    """Close the window, each game with unsaved play kept first as a recovery save. When one
    cannot be written (a full disk, a read-only saves folder) the window stays and says so:
    Quit anyway loses those moves, Keep playing goes back (Ctrl+S may save elsewhere)."""
    problems: list[str] = []
    for scene in game_scenes(app):
        if not unsaved(scene.session):
            continue
        try:
            savegame.keep_recovery(scene.session)
        except (GameFileError, OSError) as exc:
            problems.append(f"{savegame.game_title(scene.session)}: {exc}")
    if problems and not anyway:
        app.push(DialogScene(
            app, "Quit without keeping the game?",
            styled("The recovery save could not be written (", "; ".join(problems), "). ",
                   Span("Quit anyway", bold=True), " loses the moves since the last save; ",
                   Span("Keep playing", bold=True), " goes back to the game."),
            [Choice("Keep playing", None, pygame.K_RETURN, primary=True), Choice("Quit anyway", lambda: quit_now(app, anyway=True))],
            size=(620, 260), cancel=Choice("Keep playing", None), name="quit_unkept"))
        return
    app.quit()


def on_terminate(app: AppContext, signum: int) -> list[Path]:
    """A terminate signal (SIGTERM, or SIGHUP: `kill`, a logout, a shutdown), taken in the frame
    loop (App.step): every game with unsaved play is kept as a recovery save at once, since a
    SIGKILL may follow; then the window quits as Ctrl+Q does (asking when there is unsaved play,
    the play already kept), and at once on a second signal. What is typed or chosen and not sent
    (a scene's `unsent`) is in no save: it does not hold the quit up, and is named on stderr as
    lost. Returns the recovery saves written."""
    try:
        name = signal.Signals(signum).name
    except ValueError:
        name = f"signal {signum}"
    kept = write_recovery(app)
    for path in kept:
        print(f"{name}: the game was kept in {path} (the next start offers to resume it)", file=sys.stderr, flush=True)
    lost = unsent_lines(app)  # in no save: a terminate signal does not wait on the question for them
    if lost:
        print(f"{name}: not sent, and not kept: {'; '.join(lost)}", file=sys.stderr, flush=True)
    game = live_game(app)
    if game is not None and kept:
        where = f"{kept[-1].parent.name}/{kept[-1].name}"  # the saves folder's recovery/, as F9's note names it
        tell(game, f"Asked to close ({name}): the moves since the last save are kept in {where} (the next start "
                   "offers to resume it).", 10.0)
    if any(s.name == "quit_dialog" for s in app.scenes):  # asked once already: a logout does not wait
        quit_now(app, anyway=True)
        return kept
    request_quit(app, ask_unsent_first=False)
    return kept


def _recoveries() -> list[Path]:
    """The recovery saves not set aside, newest first (savegame.recovery_paths)."""
    return savegame.recovery_paths()


def recovery_for(opened: Path | None) -> list[Path]:
    """The recovery saves to offer, newest first: those of the scenario being opened (`opened`,
    the scenario a game was started from), or when no file was named (None) the newest of any
    game and the others of its scenario. Empty: none."""
    candidates = _recoveries()
    if not candidates:
        return []
    # import seam: the save machinery (game.replay, game.io.saves) loads at the first save or load, not at start-up
    from game.io import saves  # only when there is a game to resume
    from game.replay import scenario_ref

    def scenario(path: Path) -> str | None:
        try:
            return saves.read_header(path).scenario
        except GameFileError:
            return None

    want = scenario_ref(opened) if opened is not None else scenario(candidates[0])
    if opened is None and want is None:
        return candidates[:1]  # (unreadable: offered alone, and the dialog says why)
    return [p for p in candidates if scenario(p) == want]


OTHERS_SHOWN = 4  # games left unfinished named in the offer besides the one it resumes


def offer_recovery(app: AppContext, opened: str | Path | None = None,
                   on_resume: Callable[[], object] | None = None) -> bool:
    """At start-up: when a game of the file being opened was left unfinished, offer to resume it,
    naming it and when it was left, and naming the other games of it left unfinished (the load
    menu opens them) (True when offered). `opened`: the file named on the command line (None:
    none was, and a game of any file is offered). `on_resume`: run once it is resumed (`play
    --seat`). "New game" sets them all aside: listed in the load menu, not offered again."""
    game = live_game(app)
    scenario: Path | None = None
    if opened is not None:
        scenario = game.session.path if game is not None and game.session.path is not None else Path(opened)
    found = recovery_for(scenario)
    if not found:
        return False
    newest, others = found[0], found[1:]

    def resume() -> None:
        problem = load_into(app, newest)
        if problem is not None:
            top = live_game(app)
            if top is not None:
                tell(top, f"Not resumed: {problem}", 8.0, problem=True)
            return
        if on_resume is not None:
            on_resume()

    def set_aside() -> None:
        for path in found:
            try:
                savegame.dismiss_recovery(path)
            except OSError:
                continue  # (still offered next time: nothing is lost)

    def load_menu() -> None:
        top = live_game(app)
        if top is not None:
            open_load_menu(top)

    # import seam: the save machinery (game.replay, game.io.saves) loads at the first save or load, not at start-up
    from game.io import saves  # only when there is a game to resume

    def named(path: Path) -> tuple[Span | str, ...]:
        try:
            header = saves.read_header(path)
        except GameFileError as exc:
            return (f"{path.name} (it cannot be read: {exc.message})",)
        return (Span(header.title, bold=True), f", left on {header.saved_at.replace('T', ' ')[:16]}")

    where = savegame.recovery_dir()
    body: list[Span | str] = ["A game was left unfinished: ", *named(newest), "."]
    if others:
        body += [f"\nAlso left unfinished ({len(others)}; the load menu opens them):"]
        for path in others[:OTHERS_SHOWN]:
            body += ["\n  - ", *named(path)]
        if len(others) > OTHERS_SHOWN:
            body += [f"\n  - and {len(others) - OTHERS_SHOWN} more"]
    body += ["\nResume it, or start the one you opened: ", Span("New game", bold=True),
             f" keeps {'them' if others else 'it'} in the load menu ({where.name}/, set aside: not offered again)."]
    choices = [Choice("Resume", resume, primary=True)]
    if others:
        choices.append(Choice("Load menu", load_menu, pygame.K_o))
    choices.append(Choice("New game", set_aside))
    app.push(DialogScene(app, "Resume your last game?", styled(*body), choices,
                         size=(680, 300 + 22 * min(len(others), OTHERS_SHOWN + 1)),
                         cancel=Choice("New game", set_aside)))
    return True
