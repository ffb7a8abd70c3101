"""Saves in the client: the bridge between a client `Session` and save files.

- `save_session` / `quick_save` / `autosave_if_new_round`: a session to a save file (atomic,
  the previous file kept as `.bak`, autosaves rotated).
- `session_from_save` (registered as an opener of `game.client.launch`): `python -m game play
  SAVE` and the load menu resume a saved game exactly, history and dice log included.
- `load_into(app, path)`: load a save and swap it in for the running battle; on any problem the
  running game carries on and the reason (file, line, field) is returned for the screen.
- `run_guarded(app)`: the app loop with a crash guard: an unexpected error writes an emergency
  save of every battle on the stack and a readable crash report, then exits with status 1.

The folder is `saves/` at the top of the project, or `$AIL_SAVES_DIR` when set (tests).
"""

from __future__ import annotations

import datetime as _dt
import os
import sys
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.errors import GameFileError
from game.io import saves
from game.replay import load_game, make_save, rolls_of
from game.rules.ail.gm import is_gm_command

if TYPE_CHECKING:
    from game.client.app import App
    from game.client.session import Session

ROOT = Path(__file__).resolve().parents[2]
QUICK_SAVE_NAME = "quicksave.yaml"
AUTOSAVE_DIR = "autosave"
AUTOSAVE_KEEP = 5


def saves_dir() -> Path:
    env = os.environ.get("AIL_SAVES_DIR")
    return Path(env) if env else ROOT / "saves"


def quick_save_path() -> Path:
    return saves_dir() / QUICK_SAVE_NAME


# --------------------------------------------------------------------------- session -> save


def gm_marks(session: Session) -> dict[int, Any]:
    """History steps made while GM mode was on: index -> the step object (kept on the session).
    A mark only counts while that very step is still at that index (see `is_gm_marked`), so an
    undo outside GM mode can never pass the mark on to the next command."""
    marks: dict[int, Any] | None = getattr(session, "gm_marks", None)
    if marks is None:
        marks = {}
        session.gm_marks = marks  # type: ignore[attr-defined]
    return marks


def mark_gm(session: Session, index: int) -> None:
    gm_marks(session)[index] = session.history[index]


def is_gm_marked(session: Session, index: int) -> bool:
    step = gm_marks(session).get(index)
    return step is not None and index < len(session.history) and session.history[index] is step


def session_save(session: Session, *, title: str = "", gm_mode: bool = False) -> saves.SaveData:
    if session.path is None:
        raise GameFileError("<battle>", "", "this battle was not started from a scenario file, "
                                           "so it cannot be saved")
    data = make_save(session.state, session.history, scenario_path=session.path, seed=session.seed,
                     title=title or session.setup.name, gm_mode=gm_mode)
    if gm_marks(session):
        log = tuple(e.model_copy(update={"gm": True}) if is_gm_marked(session, i) else e
                    for i, e in enumerate(data.log))
        data = saves.SaveData(data.header, data.state, log)
    return data


def save_session(session: Session, path: str | os.PathLike[str], *, title: str = "",
                 gm_mode: bool = False) -> Path:
    return saves.write_save(path, session_save(session, title=title, gm_mode=gm_mode))


def quick_save(session: Session, *, gm_mode: bool = False) -> Path:
    return save_session(session, quick_save_path(), title=f"{session.setup.name} (quick save)",
                        gm_mode=gm_mode)


def autosave_if_new_round(session: Session) -> Path | None:
    """Write an autosave the first time a session is seen in a new round (keeps the last few)."""
    state = session.state
    last = getattr(session, "autosaved_round", None)
    if last is None:
        session.autosaved_round = state.round  # type: ignore[attr-defined]
        return None
    if state.round <= last or session.path is None:
        return None
    session.autosaved_round = state.round  # type: ignore[attr-defined]
    data = session_save(session, title=f"{session.setup.name} (autosave, round {state.round})")
    stem = "autosave-" + "".join(ch if ch.isalnum() else "-" for ch in Path(session.path).stem)
    return saves.autosave(saves_dir() / AUTOSAVE_DIR, data, keep=AUTOSAVE_KEEP, stem=stem)


# --------------------------------------------------------------------------- save -> session


def is_save_file(path: Path) -> bool:
    """A cheap look at the start of the file: saves open with the '--- # header' document."""
    if path.suffix.lower() not in (".yaml", ".yml") or not path.is_file():
        return False  # (not a regular file: the scenario reader says what it is)
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            head = fh.read(4096)
    except OSError:
        return False
    return "--- # header" in head or ("\nformat:" in head and "\n---" in head and "state_checksum" in head)


def _layout_for(scenario: Any) -> Any:
    from game.client.launch import layout_of
    from game.hexlayout import HexLayout

    if getattr(scenario, "map", None) is not None:
        return layout_of(scenario.map)
    board = scenario.board
    return HexLayout(64, 74, 37, board.stagger, board.width, board.height)


LEFTOVER_AGE = 120.0  # seconds: a younger temporary file may be another copy's save in progress


def clean_leftovers(folder: Path | None = None) -> list[Path]:
    """Remove the temporary files a save killed half-way left in the saves folder (and its autosave
    folder), or in `folder`. Never raises: an unusable folder has nothing to clean."""
    removed: list[Path] = []
    for d in ((folder,) if folder is not None else (saves_dir(), saves_dir() / AUTOSAVE_DIR)):
        try:
            removed += saves.clean_temp_files(d, older_than=LEFTOVER_AGE)
        except OSError:
            continue
    return removed


def session_from_save(path: Path) -> Session | None:
    """A Session resuming the save at `path` (None if the file is not a save). Raises SaveError."""
    if not is_save_file(Path(path)):
        return None
    clean_leftovers(Path(path).parent)
    from game.client.session import Session, Step

    loaded = load_game(path)
    sc = loaded.scenario
    session = Session(setup=sc.setup, board=sc.board, layout=_layout_for(sc), state=loaded.state,
                      map_data=getattr(sc, "map", None), seed=loaded.header.seed,
                      path=Path(sc.path) if getattr(sc, "path", None) else None,
                      history=[Step(s.before, s.command, s.events) for s in loaded.record.steps])
    for i, entry in enumerate(loaded.save.log):
        if entry.gm and not is_gm_command(session.history[i].command):
            mark_gm(session, i)  # a player's command made in GM mode stays marked
    session.autosaved_round = session.state.round  # type: ignore[attr-defined]
    session.save_path = Path(path)  # type: ignore[attr-defined]
    session.load_warnings = list(loaded.warnings)  # type: ignore[attr-defined]
    return session


def open_for_launch(path: Path) -> Session | None:
    """The opener `python -m game play SAVE` uses: like session_from_save, warnings to stderr."""
    session = session_from_save(path)
    for warning in getattr(session, "load_warnings", ()):
        print(f"warning: {path}: {warning}", file=sys.stderr)
    return session


def register_opener() -> None:
    from game.client import launch

    if open_for_launch not in launch.OPENERS:
        launch.OPENERS.insert(0, open_for_launch)


def battle_scenes(app: App) -> list[Any]:
    from game.client.scenes.battle import BattleScene

    return [s for s in app.scenes if isinstance(s, BattleScene)]


def load_into(app: App, path: str | os.PathLike[str]) -> str | None:
    """Load a save over the running battle. Returns None on success, else the one-line reason
    (the running game is left exactly as it was, and no file is written)."""
    from game.client.scenes.battle import BattleScene

    try:
        session = session_from_save(Path(path))
        if session is None:
            return f"{path}: not a saved game"
    except GameFileError as exc:
        return exc.line()
    except (OSError, ValueError) as exc:
        return f"{path}: {exc}"
    app.scenes.clear()
    scene = BattleScene(app, session)
    app.push(scene)
    warnings = getattr(session, "load_warnings", [])
    if warnings:
        scene.toast("Warning: " + "; ".join(warnings), 8.0)
    return None


# --------------------------------------------------------------------------- crash guard


def emergency_save(app: App) -> tuple[Path | None, str | None]:
    """Save the battle on the stack to saves/emergency-<date>.yaml; (path, None) or (None, why)."""
    scenes = battle_scenes(app)
    if not scenes:
        return None, "there was no battle to save"
    session = scenes[-1].session
    try:
        data = session_save(session, title=f"{session.setup.name} (emergency save)")
        path = saves_dir() / f"emergency-{_dt.datetime.now().strftime('%Y%m%d-%H%M%S')}.yaml"
        from game.io.outpaths import write_text_or_keep

        # an unusable saves folder: the save goes to the temporary folder (and the report says where)
        return write_text_or_keep(path, saves.dump_save(data), "emergency save", backup=False).path, None
    except Exception as exc:  # we are already handling a crash: report, don't raise
        return None, f"{type(exc).__name__}: {exc}"


def crash_context(app: App) -> dict[str, Any]:
    scenes = battle_scenes(app)
    context: dict[str, Any] = {"scenes": " > ".join(getattr(s, "name", type(s).__name__) for s in app.scenes)}
    if scenes:
        session = scenes[-1].session
        st = session.state
        context.update({"scenario": session.path, "round": st.round, "phase": st.phase,
                        "side to move": st.active_side, "commands played": len(session.history)})
        if session.history:
            last = session.history[-1]
            context["last command"] = last.command.model_dump(mode="json")
            context["its dice"] = list(rolls_of(last.events))
    return context


def handle_crash(app: App, exc: BaseException) -> Path | None:
    save_path, save_error = emergency_save(app)
    try:
        context = crash_context(app)
    except Exception:
        context = {"context": "unavailable"}
    report = saves.write_crash_report(saves_dir(), exc, emergency_save=save_path,
                                      emergency_error=save_error, context=context)
    print("The game hit an unexpected error and had to close.", file=sys.stderr)
    if save_path is not None:
        print(f"Your game was saved to {save_path}", file=sys.stderr)
        print(f"Resume it with: python -m game play {save_path}", file=sys.stderr)
    if report is not None:
        print(f"A crash report was written to {report}", file=sys.stderr)
    else:
        print("The crash report could not be written anywhere; the error was:", file=sys.stderr)
        traceback.print_exception(exc)
    return report


def run_guarded(app: App, **run_kwargs: Any) -> int:
    """`app.run()` inside the crash guard (emergency save + crash report, exit status 1)."""
    try:
        return int(app.run(**run_kwargs))
    except KeyboardInterrupt:
        raise
    except Exception as exc:  # the whole point: nothing unexpected loses a game
        try:
            handle_crash(app, exc)
        except Exception:  # the report itself failed: at least show the error
            traceback.print_exc()
        try:
            import pygame

            pygame.quit()
        except Exception:
            pass
        return 1


# --------------------------------------------------------------------------- keys and hooks


HELP_EXTRA = (
    "<br><br><b>Saves, replays, GM</b><br>"
    "F5: quick save · F9: quick load · Ctrl+S: save to a new file · Ctrl+O: load menu<br>"
    "F3: replay view of this battle (Left/Right: one command, PageUp/PageDown: by round)<br>"
    "F2: GM mode (place, move, edit, remove units; Advantage; set the next roll; undo/redo "
    "anything with Ctrl+Z / Ctrl+Y; save the set-up as a scenario)"
)


def _gm_active(app: App) -> bool:
    return any(getattr(s, "name", "") == "gm" for s in app.scenes)


def quick_save_action(scene: Any) -> None:
    try:
        path = quick_save(scene.session, gm_mode=_gm_active(scene.app))
    except (GameFileError, OSError) as exc:
        scene.toast(f"Not saved: {exc}", 6.0)
        return
    scene.toast(f"Saved to {path} (F9 loads it)", 3.0)


def new_save_path(session: Session, now: _dt.datetime | None = None) -> Path:
    """saves/<scenario>-r<round>-<date>.yaml: a fresh file for Ctrl+S (never overwrites one)."""
    stem = "".join(ch if ch.isalnum() else "-" for ch in Path(session.path or "battle").stem).strip("-")
    when = (now or _dt.datetime.now()).strftime("%Y%m%d-%H%M%S")
    path = saves_dir() / f"{stem}-r{session.state.round:02d}-{when}.yaml"
    n = 1
    while path.exists():
        n += 1
        path = path.with_name(f"{stem}-r{session.state.round:02d}-{when}-{n}.yaml")
    return path


def save_new_action(scene: Any) -> None:
    try:
        path = save_session(scene.session, new_save_path(scene.session), gm_mode=_gm_active(scene.app))
    except (GameFileError, OSError) as exc:
        scene.toast(f"Not saved: {exc}", 6.0)
        return
    scene.toast(f"Saved to {path} (Ctrl+O lists every save)", 3.0)


def quick_load_action(scene: Any) -> None:
    path = quick_save_path()
    if not path.exists():
        scene.toast("No quick save yet: F5 saves the battle.", 4.0)
        return
    problem = load_into(scene.app, path)
    if problem is not None:
        scene.toast(f"Not loaded: {problem}", 8.0)
        return
    top = scene.app.scenes.top
    if top is not None and hasattr(top, "toast") and getattr(top, "_toast", None) is None:
        top.toast(f"Loaded {path}", 3.0)  # (a warning about the scenario, if any, stays up instead)


def open_load_menu(scene: Any) -> None:
    from game.client.scenes.load_menu import LoadMenuScene

    scene.app.push(LoadMenuScene(scene.app))


def open_replay_view(scene: Any) -> None:
    from game.client.scenes.replay import replay_current

    replay_current(scene.app, scene.session)


def toggle_gm(scene: Any) -> None:
    from game.client.scenes.gm import GmScene

    scene.app.push(GmScene(scene.app, scene))


def autosave_hook(scene: Any) -> None:
    if scene not in list(scene.app.scenes):  # a replay's display, not the battle being played
        return
    try:
        path = autosave_if_new_round(scene.session)
    except (GameFileError, OSError) as exc:
        scene.toast(f"Autosave failed: {exc}", 6.0)
        return
    if path is not None:
        scene.toast(f"Round {scene.session.state.round}: autosaved", 2.5)


def _global(action: Any, unless_top: str | None = None) -> Any:
    """A global key handler running `action(battle scene)` on the live battle, if there is one."""

    def handler(app: App) -> bool:
        scenes = battle_scenes(app)
        if not scenes:
            return False
        if unless_top is not None and getattr(app.scenes.top, "name", "") == unless_top:
            return True
        action(scenes[-1])
        return True

    return handler


def _from_end(scene: Any, action: Any) -> None:
    """From the end-of-battle summary: when the menu or the replay closes, the summary returns."""
    scene.reopen_end_summary()
    action(scene)


def install() -> None:
    """Register the save/load/replay/GM keys, end-of-battle choices and the autosave hook with
    the battle scene, and the save opener with game.client.launch (idempotent)."""
    import pygame

    from game.client import app as app_module
    from game.client.scenes import battle, battle_dialogs
    from game.client.scenes.dialog import Choice

    register_opener()
    # saving and loading work whatever is on screen (a dialog, the hand-off, the replay view)
    app_module.GLOBAL_KEYS[pygame.K_F5] = _global(quick_save_action)
    app_module.GLOBAL_KEYS[pygame.K_F9] = _global(quick_load_action)
    app_module.GLOBAL_KEYS[(pygame.K_s, "ctrl")] = _global(save_new_action)
    app_module.GLOBAL_KEYS[(pygame.K_o, "ctrl")] = _global(open_load_menu, unless_top="load_menu")
    # the replay view and GM mode need the map: from the battle scene itself
    battle.KEY_HOOKS[pygame.K_F3] = open_replay_view
    battle.KEY_HOOKS[pygame.K_F2] = toggle_gm
    if autosave_hook not in battle.AFTER_CHANGE_HOOKS:
        battle.AFTER_CHANGE_HOOKS.append(autosave_hook)
    if not getattr(battle, "_saves_installed", False):
        battle._saves_installed = True  # type: ignore[attr-defined]
        battle_dialogs.END_CHOICES.append(lambda scene: Choice("Load", lambda: _from_end(scene, open_load_menu),
                                                       pygame.K_l))
        battle_dialogs.END_CHOICES.append(lambda scene: Choice("Replay", lambda: _from_end(scene, open_replay_view),
                                                       pygame.K_p))
        battle_dialogs.HELP_HTML += HELP_EXTRA
