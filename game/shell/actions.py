"""What the shell does for any game scene: save, load, the load menu, the replay view, GM mode,
quitting (with the question and the recovery save), and the end-of-game choices every system
offers. Called from the key map (game/shell/keys.py), from buttons and from the game scenes.

A game scene (any rule system's) has `game_scene = True`, a `session` (game.shell.session),
`toast(text, seconds)` and, optionally, `reopen_end_summary()`.
"""

from __future__ import annotations

import datetime as _dt
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.core.errors import GameFileError
from game.shell import savegame
from game.shell.launch import client_of, load_into
from game.shell.scenes.dialog import Choice, DialogScene

if TYPE_CHECKING:
    from game.shell.app import App
    from game.shell.session import Session

RECOVERY_NAME = "recovery.yaml"


def _gm_active(app: App) -> bool:
    return any(getattr(s, "name", "") == "gm" for s in app.scenes)


def _client(app: App, session: Session) -> Any:
    return client_of(app.table, session)


def mark_saved(session: Session) -> None:
    session.saved_steps = len(session.history)


def unsaved(session: Session) -> bool:
    """Play since the last save (or since the start, for a fresh game)."""
    return len(session.history) != (session.saved_steps or 0)


# --------------------------------------------------------------------------- saving and loading


def quick_save_action(scene: Any) -> None:
    try:
        path = savegame.quick_save(scene.session, gm_mode=_gm_active(scene.app))
    except (GameFileError, OSError) as exc:
        scene.toast(f"Not saved: {exc}", 6.0)
        return
    mark_saved(scene.session)
    scene.toast(f"Saved to {path} (F9 loads it)", 3.0)


def new_save_path(session: Session, now: _dt.datetime | None = None) -> Path:
    """saves/<scenario>-r<round>-<date>.yaml: a fresh file for Ctrl+S (never overwrites one)."""
    stem = "".join(ch if ch.isalnum() else "-" for ch in Path(session.path or "game").stem).strip("-")
    when = (now or _dt.datetime.now()).strftime("%Y%m%d-%H%M%S")
    rnd = int(session.system.summary(session.state).get("round", 0))
    path = savegame.saves_dir() / f"{stem}-r{rnd:02d}-{when}.yaml"
    n = 1
    while path.exists():
        n += 1
        path = path.with_name(f"{stem}-r{rnd:02d}-{when}-{n}.yaml")
    return path


def save_new_action(scene: Any) -> None:
    try:
        path = savegame.save_session(scene.session, new_save_path(scene.session), gm_mode=_gm_active(scene.app))
    except (GameFileError, OSError) as exc:
        scene.toast(f"Not saved: {exc}", 6.0)
        return
    mark_saved(scene.session)
    scene.toast(f"Saved to {path} (Ctrl+O lists every save)", 3.0)


def quick_load_action(scene: Any) -> None:
    path = savegame.quick_save_path()
    if not path.exists():
        scene.toast("No quick save yet: F5 saves the game.", 4.0)
        return
    problem = load_into(scene.app, path)
    if problem is not None:
        scene.toast(f"Not loaded: {problem}", 8.0)
        return
    top = scene.app.scenes.top
    if top is not None and hasattr(top, "toast") and getattr(top, "_toast", None) is None:
        top.toast(f"Loaded {path}", 3.0)  # (a warning about the scenario, if any, stays up instead)


def open_load_menu(scene: Any) -> None:
    from game.shell.scenes.load_menu import LoadMenuScene

    scene.app.push(LoadMenuScene(scene.app))


# --------------------------------------------------------------------------- replay view and GM mode


def open_replay_view(scene: Any) -> None:
    client = _client(scene.app, scene.session)
    opener = getattr(client, "open_replay", None)
    if opener is None:
        scene.toast(f"The {scene.session.system.title} has no replay view yet: `python -m game replay` "
                    "checks a save.", 5.0)
        return
    opener(scene.app, scene.session)


def toggle_gm(scene: Any) -> None:
    client = _client(scene.app, scene.session)
    opener = getattr(client, "open_gm", None)
    if opener is None:
        scene.toast(f"The {scene.session.system.title} has no GM mode on screen yet.", 5.0)
        return
    opener(scene.app, scene)


# --------------------------------------------------------------------------- after every change


def after_change(scene: Any) -> None:
    """Run by a game scene after every accepted command or undo: the autosave at a new round."""
    if scene not in list(scene.app.scenes):  # a replay's display, not the game being played
        return
    problems = savegame.AUTOSAVES.problems()  # an earlier autosave whose background write failed
    if problems:
        scene.toast(f"Autosave failed: {problems[-1]}", 6.0)
    try:
        path = savegame.autosave_if_new_round(scene.session)
    except (GameFileError, OSError) as exc:
        scene.toast(f"Autosave failed: {exc}", 6.0)
        return
    if path is not None:
        rnd = scene.session.system.summary(scene.session.state).get("round")
        scene.toast(f"Round {rnd}: autosaved", 2.5)


def end_choices(scene: Any) -> list[Choice]:
    """The shell's buttons on a game's end-of-game summary: the load menu and the replay view."""
    import pygame

    def from_end(action: Any) -> Any:
        def run() -> None:
            reopen = getattr(scene, "reopen_end_summary", None)
            if reopen is not None:
                reopen()  # when the menu or the replay closes, the summary returns
            action(scene)
        return run

    back = getattr(scene.session, "return_to", None)
    extra = [Choice(scene.session.return_label or "Back", lambda: back(scene), pygame.K_b)] if back else []
    return [*extra, Choice("Load", from_end(open_load_menu), pygame.K_l),
            Choice("Replay", from_end(open_replay_view), pygame.K_p)]


def return_action(scene: Any) -> None:
    """Ctrl+B: back to the game this one was opened from (a campaign battle fought out)."""
    back = getattr(scene.session, "return_to", None)
    if back is None:
        scene.toast("This game was not opened from another one (Ctrl+B goes back to it)", 3.0)
        return
    back(scene)


# --------------------------------------------------------------------------- quitting


def recovery_path() -> Path:
    return savegame.saves_dir() / RECOVERY_NAME


def write_recovery(app: App) -> Path | None:
    """Save the live game to saves/recovery.yaml (what the next start offers to resume)."""
    scene = next(reversed(savegame.battle_scenes(app)), None)
    if scene is None or not scene.session.history or scene.session.path is None:
        return None
    try:
        from game.io import saves

        data = savegame.session_save(scene.session, title=f"{savegame.game_title(scene.session)} (left unfinished)")
        return saves.write_save(recovery_path(), data, backup=False)
    except (GameFileError, OSError):
        return None


def request_quit(app: App) -> bool:
    """The window's close button, Ctrl+Q, Options → Quit: ask first when there is unsaved play."""
    scenes = savegame.battle_scenes(app)
    if any(getattr(s, "name", "") == "quit_dialog" for s in app.scenes):
        return True
    if not scenes or not unsaved(scenes[-1].session) or not scenes[-1].session.history:
        quit_now(app)
        return True
    scene = scenes[-1]

    def save_and_quit() -> None:
        try:
            path = savegame.save_session(scene.session, new_save_path(scene.session))
        except (GameFileError, OSError) as exc:
            scene.toast(f"Not saved: {exc} (the recovery save still has it)", 8.0)
            write_recovery(app)
            return
        mark_saved(scene.session)
        print(f"saved to {path}")
        quit_now(app)

    dialog = DialogScene(app, "Quit the game?",
                         "There are moves since the last save. <b>Save and quit</b> writes a new save; "
                         "<b>Quit</b> keeps them only in the recovery save the next start offers to resume.",
                         [Choice("Save and quit", save_and_quit, primary=True),
                          Choice("Quit", lambda: quit_now(app)),
                          Choice("Cancel", None)],
                         cancel=Choice("Cancel", None))
    dialog.name = "quit_dialog"
    app.push(dialog)
    return True


def quit_now(app: App) -> None:
    write_recovery(app)
    app.quit()


def offer_recovery(app: App) -> bool:
    """At start-up: when a game was left unfinished, offer to resume it (True when offered)."""
    path = recovery_path()
    if not path.is_file():
        return False

    def resume() -> None:
        problem = load_into(app, path)
        if problem is not None:
            top = app.scenes.top
            if top is not None and hasattr(top, "toast"):
                top.toast(f"Not resumed: {problem}", 8.0)

    def discard() -> None:
        try:
            path.replace(path.with_name("recovery-dismissed.yaml"))
        except OSError:
            pass

    from game.io import saves  # only when there is a game to resume

    try:
        header = saves.read_header(path)
        what = f"{header.title}, round {header.round}, saved {header.saved_at.replace('T', ' ')[:16]}"
    except GameFileError as exc:
        what = f"(it cannot be read: {exc.message})"
    app.push(DialogScene(app, "Resume your last game?",
                         f"A game was left unfinished: {what}.<br>Resume it, or start the new one "
                         "(the old one is kept as recovery-dismissed.yaml).",
                         [Choice("Resume", resume, primary=True), Choice("New game", discard)],
                         cancel=Choice("New game", discard)))
    return True
