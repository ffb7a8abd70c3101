"""Saves in the client: the bridge between a client `Session` and save files.

- `save_session` / `quick_save` / `autosave_if_new_round`: a session to a save file (atomic,
  the previous file kept as `.bak`, autosaves rotated).
- `session_from_save`: `python -m game play SAVE` (through game.shell.launch) and the load menu
  resume a saved game of any rule system exactly, history and dice log included.
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
import threading
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game import paths
from game.core.errors import GameFileError
from game.io import leftovers

if TYPE_CHECKING:
    from game.io import saves
    from game.shell.app import App
    from game.shell.session import Session

# game.io.saves and game.replay (the save format, its models and checksums) are imported where a
# save is made or read, not by the window's start: its first frame needs neither (issue 14).

ROOT = paths.data_root()
QUICK_SAVE_NAME = "quicksave.yaml"
AUTOSAVE_DIR = "autosave"
AUTOSAVE_KEEP = 5


def saves_dir() -> Path:
    return paths.saves_dir()


def quick_save_path() -> Path:
    return saves_dir() / QUICK_SAVE_NAME


# --------------------------------------------------------------------------- session -> save


def _summary(session: Session) -> dict[str, Any]:
    return session.system.summary(session.state)


def game_title(session: Session) -> str:
    """The game's name for save titles and the crash report."""
    name = getattr(session.setup, "name", "") or getattr(session.loaded, "name", "")
    return str(name or (session.path.stem if session.path else "game"))


def session_save(session: Session, *, title: str = "", gm_mode: bool = False) -> saves.SaveData:
    from game.replay import make_save

    if session.path is None:
        raise GameFileError("<battle>", "", "this battle was not started from a scenario file, "
                                           "so it cannot be saved")
    return make_save(session.system, session.state, session.history, scenario_path=session.path,
                     seed=session.seed, title=title or game_title(session), gm_mode=gm_mode)


def save_session(session: Session, path: str | os.PathLike[str], *, title: str = "",
                 gm_mode: bool = False) -> Path:
    from game.io import saves

    return saves.write_save(path, session_save(session, title=title, gm_mode=gm_mode))


def quick_save(session: Session, *, gm_mode: bool = False) -> Path:
    return save_session(session, quick_save_path(), title=f"{game_title(session)} (quick save)",
                        gm_mode=gm_mode)


def autosave_if_new_round(session: Session) -> Path | None:
    """Start an autosave the first time a session is seen in a new round (or week: whatever the
    rule system's summary counts as `round`); keeps the last few. The save's data is made here
    (only the commands played since the last save are encoded: game.replay.STEP_LOG); the text is
    written by a background thread (AUTOSAVES), atomically as any save, so the UI never waits for
    the disk. Returns the autosave folder when one was started; a write that fails is reported by
    `AUTOSAVES.problems()`."""
    rnd = int(_summary(session).get("round", 0))
    last = session.autosaved_round
    if last is None:
        session.autosaved_round = rnd
        return None
    if rnd <= last or session.path is None:
        return None
    session.autosaved_round = rnd
    data = session_save(session, title=f"{game_title(session)} (autosave, round {rnd})")
    stem = "autosave-" + "".join(ch if ch.isalnum() else "-" for ch in Path(session.path).stem)
    folder = saves_dir() / AUTOSAVE_DIR
    AUTOSAVES.submit(folder, data, stem)
    return folder


class AutosaveWriter:
    """Writes autosaves off the UI thread, one at a time and in the order they were started.

    Each autosave runs in its own (non-daemon) thread, so a game that quits right after a new
    round still finishes writing it before the process ends; a lock keeps two of them from
    racing over file names and rotation. Failures are kept for the UI to show."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._problems: list[str] = []
        self.written: list[Path] = []

    def submit(self, folder: Path, data: saves.SaveData, stem: str) -> None:
        from game.io import saves  # here, not in the writing thread

        def write() -> None:
            with self._lock:
                try:
                    self.written.append(saves.autosave(folder, data, keep=AUTOSAVE_KEEP, stem=stem))
                except (GameFileError, OSError) as exc:
                    self._problems.append(str(exc))

        thread = threading.Thread(target=write, name="autosave", daemon=False)
        self._threads = [t for t in self._threads if t.is_alive()] + [thread]
        thread.start()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for every autosave started so far; True when all are written (or failed)."""
        for thread in list(self._threads):
            thread.join(timeout)
        return not any(t.is_alive() for t in self._threads)

    def problems(self) -> list[str]:
        """The failures since the last call (each one line), oldest first."""
        with self._lock:
            out, self._problems = self._problems, []
        return out


AUTOSAVES = AutosaveWriter()


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


LEFTOVER_AGE = 120.0  # seconds: a younger temporary file may be another copy's save in progress


def clean_leftovers(folder: Path | None = None) -> list[Path]:
    """Remove the temporary files a save killed half-way left in the saves folder (and its autosave
    folder), or in `folder`. Never raises: an unusable folder has nothing to clean."""
    removed: list[Path] = []
    for d in ((folder,) if folder is not None else (saves_dir(), saves_dir() / AUTOSAVE_DIR)):
        try:
            removed += leftovers.clean_temp_files(d, older_than=LEFTOVER_AGE)
        except OSError:
            continue
    return removed


def battle_scenes(app: App) -> list[Any]:
    """The scenes on the stack playing a live game (any rule system), bottom first."""
    return [s for s in app.scenes if getattr(s, "game_scene", False)]


# --------------------------------------------------------------------------- crash guard


def emergency_save(app: App) -> tuple[Path | None, str | None]:
    """Save the battle on the stack to saves/emergency-<date>.yaml; (path, None) or (None, why)."""
    scenes = battle_scenes(app)
    if not scenes:
        return None, "there was no battle to save"
    session = scenes[-1].session
    try:
        data = session_save(session, title=f"{game_title(session)} (emergency save)")
        path = saves_dir() / f"emergency-{_dt.datetime.now().strftime('%Y%m%d-%H%M%S')}.yaml"
        from game.io import saves
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
        summary = _summary(session)
        context.update({"rule system": session.system.name, "scenario": session.path,
                        "round": summary.get("round"), "phase": summary.get("phase"),
                        "side to move": summary.get("to_move"), "commands played": len(session.history)})
        if session.history:
            last = session.history[-1]
            context["last command"] = session.system.command_to_data(last.command)
            context["its dice"] = list(session.system.rolls(last.events))
    return context


def handle_crash(app: App, exc: BaseException) -> Path | None:
    save_path, save_error = emergency_save(app)
    try:
        context = crash_context(app)
    except Exception:
        context = {"context": "unavailable"}
    from game.io import saves

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
