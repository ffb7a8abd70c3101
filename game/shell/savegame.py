"""The save service: every save, autosave, load and check of the window goes through here, for
any rule system. Ctrl+S runs keys -> actions -> this service -> files (game.io.saves), and nothing
here reaches back up to the window: it is given a `Session` (and the table, to load).

- Slots per game: the quick save and the autosaves are per rule system and scenario
  (`quicksave-<system>-<scenario>.yaml`, `autosave/autosave-<system>-<scenario>-r..`), so F5 in a
  mass battle never replaces the campaign's quick save.
- Recovery saves (a game left with moves since its last save: quitting, a load over it, a
  terminate signal) are never written over: each is a new file in `recovery/`, named after its
  system, scenario and clock, and the newest few of each game are kept there (older ones move
  to `deleted/`, never erased).
- Every write is checked before it replaces anything: the text is read back (the save format's
  own checksums) and written atomically, the previous file kept as `.bak`; a save that cannot be
  made or read back leaves the file that was there untouched.
- The autosave at a new round (week, wave: the system's clock) is encoded, checked and written
  by a background thread (AUTOSAVES): the frame loop only takes a snapshot of the history.
- `load_session(table, path)`: `python -m game play SAVE` and the load menu resume a saved game of
  any rule system exactly, history and dice log included; `verify` replays a save's log.
- `run_guarded(app)`: the app loop with a crash guard: an unexpected error writes an emergency
  save of the game on the stack and a readable crash report, then exits with status 1.

The folder is `saves/` at the top of the project, or `$AIL_SAVES_DIR` when set (tests).
"""

from __future__ import annotations

import datetime as _dt
import os
import re
import sys
import threading
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import pygame

from game import paths
from game.core import gm_lock
from game.core.errors import GameFileError
from game.core.plugin import Table
from game.core.record import Step
from game.core.system import RuleSystem, clock_of
from game.io import leftovers
from game.shell.contracts import AppContext, game_scenes
from game.shell.seats import Seats
from game.shell.session import Session, session_for

if TYPE_CHECKING:
    from game.io import saves
    from game.replay import LoadedGame, VerifyReport

# game.io.saves and game.replay (the save format, its models and checksums) are imported where a
# save is made or read, not by the window's start: its first frame needs neither (issue 14).

ROOT = paths.data_root()
AUTOSAVE_DIR = "autosave"
AUTOSAVE_KEEP = 5


def saves_dir() -> Path:
    return paths.saves_dir()


def _word(text: str) -> str:
    return "-".join("".join(ch if ch.isalnum() else " " for ch in text).split()) or "game"


def slot_name(session: Session) -> str:
    """`<system>-<scenario>`: what a game's quick save and autosaves are named after."""
    return f"{_word(session.system.name)}-{_word(session.path.stem if session.path else 'game')}"


def quick_save_path(session: Session) -> Path:
    """This game's quick-save slot: one per rule system and scenario."""
    return saves_dir() / f"quicksave-{slot_name(session)}.yaml"


def autosave_stem(session: Session) -> str:
    return f"autosave-{slot_name(session)}"


RECOVERY_DIR = "recovery"  # sub-folder of the saves folder: the games left with unsaved play
RECOVERY_KEEP = 5  # recovery saves kept per game (system and scenario); older ones move to deleted/
DISMISSED = "-dismissed"  # a recovery save set aside by "New game" at a start: listed, not offered again


def recovery_dir() -> Path:
    return saves_dir() / RECOVERY_DIR


def recovery_stem(session: Session) -> str:
    """`recovery-<system>-<scenario>`: what a game's recovery saves are named after."""
    return f"recovery-{slot_name(session)}"


def legacy_recovery_paths() -> list[Path]:
    """The recovery saves of older versions, in the saves folder itself: `recovery-<system>.yaml`
    (one per rule system) and `recovery.yaml` (one in all). Still offered, never written."""
    folder = saves_dir()
    try:
        found = [*folder.glob("recovery-*.yaml"), folder / "recovery.yaml"]
        return [p for p in found if p.is_file() and not p.stem.endswith(DISMISSED)]
    except OSError:
        return []


def recovery_paths() -> list[Path]:
    """Every recovery save not set aside, newest first: those in `recovery/`, then the older
    versions' (legacy_recovery_paths)."""
    try:
        found = [p for p in recovery_dir().glob("recovery-*.yaml") if p.is_file() and DISMISSED not in p.stem]
    except OSError:
        found = []

    def age(p: Path) -> tuple[float, str]:
        try:
            return (p.stat().st_mtime, p.name)
        except OSError:
            return (0.0, p.name)
    return sorted(found + legacy_recovery_paths(), key=age, reverse=True)


def _recovery_name(session: Session, folder: Path) -> Path:
    """`<stem>-<clock><n>-<date>.yaml` (`-r02-`, `-week03-`), never one that exists."""
    word, n_clock = clock(session.system, session.state)
    when = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    base = f"{recovery_stem(session)}-{word[0] if word == 'round' else word}{n_clock:02d}-{when}"
    path = folder / f"{base}.yaml"
    n = 1
    while path.exists() or path.is_symlink():
        n += 1
        path = folder / f"{base}-{n}.yaml"
    return path


def _of_stem(path: Path, stem: str) -> bool:
    """Whether a file in recovery/ is one of the game `stem`'s (not of a scenario whose name
    only begins like this one's: `<stem>-<clock><n>-<date>...`)."""
    rest = path.stem.removeprefix(stem + "-")
    return rest != path.stem and re.match(r"[a-z]+\d+-\d{8}-\d{6}(-|$)", rest) is not None


def _rotate_recoveries(folder: Path, stem: str, keep: int = RECOVERY_KEEP) -> list[Path]:
    """Keep the newest `keep` recovery saves of the game `stem` (set aside or not); move the
    older ones into deleted/ (never erased). Returns where they went; never raises."""
    try:
        mine = [p for p in folder.glob(f"{stem}-*.yaml") if p.is_file() and _of_stem(p, stem)]
        mine.sort(key=lambda p: (p.stat().st_mtime, p.name), reverse=True)
    except OSError:
        return []
    moved = []
    for old in mine[keep:]:
        try:
            moved.append(delete_save(old))
        except OSError:
            continue
    return moved


def clock(system: RuleSystem, state: Any) -> tuple[str, int]:
    """The system's own clock: ("week", 3) for a campaign, ("round", 2), ("wave", 1)."""
    return clock_of(system), int(system.summary(state).get("round", 0))


def clock_text(system: RuleSystem, state: Any) -> str:
    """"Week 3", "Round 2", "Wave 1"."""
    word, n = clock(system, state)
    return f"{word.capitalize()} {n}"


# --------------------------------------------------------------------------- session -> save


def _summary(session: Session) -> dict[str, Any]:
    return session.system.summary(session.state)


def game_title(session: Session) -> str:
    """The game's name for save titles and the crash report."""
    name = getattr(session.setup, "name", "") or getattr(session.loaded, "name", "")
    return str(name or (session.path.stem if session.path else "game"))


def session_save(session: Session, *, title: str = "", gm_mode: bool = False) -> saves.SaveData:
    """The save of a session as it is now (its data; nothing is written)."""
    if session.path is None:
        raise GameFileError("<battle>", "", "this battle was not started from a scenario file, "
                                           "so it cannot be saved")
    steps = tuple(session.history)
    data = _encode(session.system, session.state, steps, session.path, session.seed,
                   title or game_title(session), gm_mode, session.seats.by_place(steps))
    return with_gm(with_seats(data, session.seats.levels), gm_lock.keeping(session))


def with_gm(data: saves.SaveData, kept: gm_lock.GmKeeping) -> saves.SaveData:
    """The save with the shell's GM passphrase (its digest) and GM mode's trace in its header, each
    only when there is one: a game whose GM set no passphrase and never opened GM mode in the
    window is saved as before (game/shell/gm_seat.py, docs/saves.md)."""
    update: dict[str, Any] = {}
    if kept.lock is not None:
        lock = kept.lock
        update["gm_lock"] = {"salt": lock.salt, "iterations": lock.iterations, "digest": lock.digest}
    if kept.opened:
        update["gm_opened"] = tuple(kept.opened)
    if not update:
        return data
    header = type(data.header).model_validate({**data.header.model_dump(), **update})
    return replace(data, header=header)


def with_seats(data: saves.SaveData, levels: Mapping[str, str]) -> saves.SaveData:
    """The save with its header's record of who plays each side (`levels`: side -> computer level;
    none: everybody at the screen, and the header says nothing, as older saves)."""
    if not levels:
        return data
    sides = [str(s) for s in data.header.sides]
    return replace(data, header=data.header.model_copy(update={"seats": Seats(dict(levels)).record(sides)}))


def _encode(system: RuleSystem, state: Any, steps: Sequence[Step], scenario: Path, seed: int, title: str,
            gm_mode: bool, whys: Mapping[int, str] | None = None) -> saves.SaveData:
    """The save of a history; `whys`: the computer's why lines by their place in it (Seats.by_place:
    none still held back), each kept in its command's log entry."""
    # import seam: the save machinery (game.replay, game.io.saves) loads at the first save or load, not at start-up
    from game.io.saves import with_whys
    from game.replay import make_save

    data = make_save(system, state, steps, scenario_path=scenario, seed=seed, title=title, gm_mode=gm_mode)
    return with_whys(data, whys or {})


def write_checked(path: str | os.PathLike[str], data: saves.SaveData, *, backup: bool = True) -> Path:
    """Write a save atomically, only once its text reads back as the same save (the format's
    checksums): a save that comes out broken never replaces the file that was there."""
    # import seam: the save machinery (game.replay, game.io.saves) loads at the first save or load, not at start-up
    from game.io import saves

    text = saves.dump_save(data)
    back = saves.parse_save(text, path)  # raises SaveError naming the problem; nothing written
    if back.header.state_checksum != data.header.state_checksum or len(back.log) != len(data.log):
        raise GameFileError(str(path), "", "the save did not read back as written; the old file was kept")
    return saves.atomic_write_text(path, text, backup=backup)


def save_session(session: Session, path: str | os.PathLike[str], *, title: str = "",
                 gm_mode: bool = False) -> Path:
    return write_checked(path, session_save(session, title=title, gm_mode=gm_mode))


def titled(session: Session, what: str) -> str:
    """A save's title: the game, its system and clock, and what kind of save it is."""
    return f"{game_title(session)} ({session.system.title}, {clock_text(session.system, session.state).lower()}, {what})"


def quick_save(session: Session, *, gm_mode: bool = False) -> Path:
    return save_session(session, quick_save_path(session), title=titled(session, "quick save"), gm_mode=gm_mode)


def holds_another_game(session: Session, path: Path) -> bool:
    """Whether the save at `path` is of another game than `session`'s (another seed: a new game
    deals fresh dice), so that writing over it would replace another game's save. False when
    there is none or its header cannot be read."""
    # import seam: the save machinery (game.replay, game.io.saves) loads at the first save or load, not at start-up
    from game.io import saves

    if not path.exists():
        return False
    try:
        return saves.read_header(path).seed != session.seed
    except (GameFileError, OSError):
        return False


def quick_save_note(session: Session, path: Path) -> str:
    """What the question before a quick load says of the quick save at `path`: its clock, when it
    was saved, and who played its sides when that differs from this game's seats (the slot is one
    per scenario, so it may hold another game of it). Empty if its header cannot be read (the load
    then says why)."""
    # import seam: the save machinery (game.replay, game.io.saves) loads at the first save or load, not at start-up
    from game.io import saves

    try:
        header = saves.read_header(path)
    except (GameFileError, OSError):
        return ""
    word, n = clock(session.system, session.state)
    when = header.saved_at.replace("T", " ")[:16]
    note = f"The quick save is at {word} {header.round}, saved {when}."
    theirs = {side: seat for side, seat in header.seats.items() if seat != "human"}
    ours = {side: f"ai:{level}" for side, level in session.seats.levels.items()}
    if theirs != ours:
        def who(seats: Mapping[str, str]) -> str:
            named = [f"{saves.side_name(header, side)} by the computer ({seat.removeprefix('ai:')})"
                     for side, seat in sorted(seats.items())]
            return ", ".join(named) if named else "every side by people at the screen"
        note += f" It was played with {who(theirs)}; this game has {who(ours)}."
    return note


def keep_recovery(session: Session) -> Path | None:
    """Keep a game that is being left with its play (quitting, a load over it, a terminate
    signal) as a recovery save: a new file in `recovery/` every time, never written over another
    (the next start of its scenario offers it). The same play left twice is written once. None
    when there is nothing to keep (no command played, no scenario file); raises GameFileError or
    OSError when it cannot be written (then nothing was)."""
    if not session.history or session.path is None:
        return None
    steps = session.history
    kept = session.recovered
    if kept is not None and kept[0] == len(steps) and kept[1] is steps[-1] and kept[2].is_file():
        return kept[2]  # this very play is in it already
    data = session_save(session, title=titled(session, "left unfinished"))
    folder = recovery_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = write_checked(_recovery_name(session, folder), data, backup=False)
    session.recovered = (len(steps), steps[-1], path)
    _rotate_recoveries(folder, recovery_stem(session))
    return path


def write_recovery(session: Session) -> Path | None:
    """`keep_recovery` for the ways out that cannot stop (the window closing): None when it
    could not be written."""
    try:
        return keep_recovery(session)
    except (GameFileError, OSError):
        return None


def dismiss_recovery(path: Path) -> Path:
    """Set a recovery save aside ("New game" at a start): renamed `<name>-dismissed.yaml` where it
    is (-2, -3 ... when taken), so it is listed in the load menu but not offered again. Raises
    OSError (then it stays as it was)."""
    for _ in range(20):
        target = _free_name(path.parent, f"{path.stem}{DISMISSED}{path.suffix}")
        try:
            _move_new(path, target)
            return target
        except FileExistsError:
            continue
    raise FileExistsError(17, "no free name to set the recovery save aside", str(path))


def autosave_if_new_round(session: Session) -> Path | None:
    """Start an autosave the first time a session is seen in a new round (or week, or wave: the
    system's clock); keeps the last few per game. Only a snapshot of the history is taken here:
    the save is encoded, checked and written by a background thread (AUTOSAVES), atomically, so
    the frame loop never waits for it. Returns the autosave folder when one was started; a save
    that fails is reported by `AUTOSAVES.problems()`."""
    word, rnd = clock(session.system, session.state)
    last = session.autosaved_round
    if last is None:
        session.autosaved_round = rnd
        return None
    if rnd <= last or session.path is None:
        return None
    session.autosaved_round = rnd
    steps = tuple(session.history)
    snapshot = (session.system, session.state, steps, session.path, session.seed,
                titled(session, "autosave"), False, session.seats.by_place(steps))  # the whys as they are now
    levels = dict(session.seats.levels)  # who plays each side now, as every other save records it
    kept = gm_lock.keeping(session)
    gm = gm_lock.GmKeeping(kept.lock, list(kept.opened))  # the GM's lock and trace as they are now
    folder = saves_dir() / AUTOSAVE_DIR
    AUTOSAVES.submit(folder, lambda: with_gm(with_seats(_encode(*snapshot), levels), gm), autosave_stem(session))
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

    def submit(self, folder: Path, encode: Callable[[], saves.SaveData], stem: str) -> None:
        """Encode (`encode()`), check and write one autosave in a thread of its own."""
        # import seam: the save machinery (game.replay, game.io.saves) loads at the first save or load, not at start-up
        from game.io import saves  # here, not in the writing thread

        def write() -> None:
            with self._lock:
                try:
                    data = encode()
                    folder.mkdir(parents=True, exist_ok=True)
                    path = _autosave_name(folder, data, stem)
                    write_checked(path, data, backup=False)
                    saves.rotate_autosaves(folder, keep=AUTOSAVE_KEEP, stem=stem)
                    self.written.append(path)
                except (GameFileError, OSError, ValueError) as exc:
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


def _autosave_name(folder: Path, data: saves.SaveData, stem: str) -> Path:
    """`<stem>-r<round>-<date>.yaml`, never one that exists (two in the same second)."""
    when = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    path = folder / f"{stem}-r{data.header.round:02d}-{when}.yaml"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-r{data.header.round:02d}-{when}-{n}.yaml"
    return path


# --------------------------------------------------------------------------- deleting (the load menu)

DELETED_DIR = "deleted"  # sub-folder of the saves folder: deleted saves wait there, never listed (= saves.DELETED_DIR)


def deleted_dir(folder: Path | None = None) -> Path:
    """Where the load menu's Delete moves a save: `deleted/` in the saves folder (or in `folder`)."""
    return (folder if folder is not None else saves_dir()) / DELETED_DIR


def _free_name(folder: Path, name: str) -> Path:
    """`folder/name`, or with -2, -3 ... before its suffix when that is taken."""
    target = folder / name
    stem, suffix = Path(name).stem, Path(name).suffix
    n = 1
    while target.exists() or target.is_symlink():
        n += 1
        target = folder / f"{stem}-{n}{suffix}"
    return target


def _move_new(path: Path, target: Path) -> None:
    """Move `path` to `target`, never replacing a file there: a hard link refuses an existing name
    (where links work), else the name was checked just before (rename would replace it)."""
    try:
        os.link(path, target)
    except FileExistsError:
        raise
    except OSError:  # no links here (another file system, a folder that has none): rename
        if target.exists():
            raise FileExistsError(17, "a file of that name is there", str(target)) from None
        path.rename(target)
        return
    try:
        path.unlink()
    except OSError:
        target.unlink()  # the save stays where it was, and only there
        raise


def delete_save(path: Path, folder: Path | None = None) -> Path:
    """Delete a save the recoverable way: move it (and its `.bak`, when there is one) into
    `deleted/` of the saves folder (`folder`, default the saves folder), made when needed; a name
    already there gets -2, -3 ... so nothing is overwritten. Returns where it went. Raises OSError
    (the file, the OS's reason) and then leaves the save where it was."""
    target_dir = deleted_dir(folder)
    target_dir.mkdir(parents=True, exist_ok=True)
    for _ in range(20):  # another copy of the game may take the free name in between
        target = _free_name(target_dir, path.name)
        try:
            _move_new(path, target)
            break
        except FileExistsError:
            continue
    else:
        raise FileExistsError(17, "no free name in the deleted folder", str(target_dir))
    backup = path.with_name(path.name + ".bak")
    if backup.is_file():
        try:
            _move_new(backup, target.with_name(target.name + ".bak"))
        except OSError:
            pass  # the save itself is moved; its backup copy stays (it is never listed)
    return target


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


def load_session(table: Table, path: Path) -> Session | None:
    """A Session resuming the save at `path` (None if the file is not a save). Raises SaveError
    (file, line, field) when it is a broken one."""
    if not is_save_file(Path(path)):
        return None
    clean_leftovers(Path(path).parent)
    # import seam: the save machinery (game.replay, game.io.saves) loads at the first save or load, not at start-up
    from game.replay import load_game  # a save: the save format is needed now, not at every start

    loaded = load_game(table, path)
    session = session_for(loaded.plugin, loaded.scenario, record=loaded.record, seed=loaded.header.seed)
    session.autosaved_round = int(loaded.system.summary(session.state).get("round", 0))
    session.save_path = Path(path)
    session.load_warnings = list(loaded.warnings)
    session.saved_steps = len(session.history)
    _seat(session, loaded)
    return session


def _seat(session: Session, loaded: LoadedGame) -> None:
    """Who played each seat of a loaded save (older saves: all Human) and the computer's why
    lines, each by its command's place in the log (older saves: none)."""
    session.seats = Seats.from_record(loaded.header.seats)
    session.seats.restore(session.history, {i: e.why for i, e in enumerate(loaded.save.log) if e.why is not None})
    kept = gm_lock.keeping(session)  # the GM's passphrase (its digest) and GM mode's trace, as saved
    lock = loaded.header.gm_lock
    kept.lock = gm_lock.Lock(lock.salt, lock.iterations, lock.digest) if lock is not None else None
    kept.opened = list(loaded.header.gm_opened)


def load_for_replay(table: Table, path: str | os.PathLike[str]) -> tuple[Session, Any]:
    """A save's game for the replay view (verified on load): (session, its plugin's client or None)."""
    # import seam: the save machinery (game.replay, game.io.saves) loads at the first save or load, not at start-up
    from game.replay import load_game

    loaded = load_game(table, path)
    session = session_for(loaded.plugin, loaded.scenario, record=loaded.record, seed=loaded.header.seed)
    _seat(session, loaded)  # the replay's dice log shows the computer's why lines, as after a load
    return session, loaded.plugin.client() if loaded.plugin.client is not None else None


def verify(table: Table, path: str | os.PathLike[str]) -> VerifyReport:
    """Replay a save's log from its scenario and compare every die and the final state."""
    # import seam: the save machinery (game.replay, game.io.saves) loads at the first save or load, not at start-up
    from game.replay import verify_save

    return verify_save(table, path)


def battle_scenes(app: AppContext) -> list[Any]:
    """The scenes on the stack playing a live game (any rule system), bottom first."""
    return list(game_scenes(app))


# --------------------------------------------------------------------------- crash guard


def emergency_save(app: AppContext) -> tuple[Path | None, str | None]:
    """Save the battle on the stack to saves/emergency-<date>.yaml; (path, None) or (None, why)."""
    scenes = battle_scenes(app)
    if not scenes:
        return None, "there was no battle to save"
    session = scenes[-1].session
    try:
        data = session_save(session, title=f"{game_title(session)} (emergency save)")
        path = saves_dir() / f"emergency-{_dt.datetime.now().strftime('%Y%m%d-%H%M%S')}.yaml"
        # import seam: the save machinery (game.replay, game.io.saves) loads at the first save or load, not at start-up
        from game.io import saves
        from game.io.outpaths import write_text_or_keep

        # an unusable saves folder: the save goes to the temporary folder (and the report says where)
        return write_text_or_keep(path, saves.dump_save(data), "emergency save", backup=False).path, None
    except Exception as exc:  # we are already handling a crash: report, don't raise
        return None, f"{type(exc).__name__}: {exc}"


def crash_context(app: AppContext) -> dict[str, Any]:
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


def handle_crash(app: AppContext, exc: BaseException) -> Path | None:
    save_path, save_error = emergency_save(app)
    try:
        context = crash_context(app)
    except Exception:
        context = {"context": "unavailable"}
    # import seam: the save machinery (game.replay, game.io.saves) loads at the first save or load, not at start-up
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


class Runnable(AppContext, Protocol):
    def run(self, max_frames: int = 0, *, max_seconds: float = 0.0, full_rate: bool = False) -> int: ...


def run_guarded(app: Runnable, **run_kwargs: Any) -> int:
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
            pygame.quit()
        except Exception:
            pass
        return 1
