"""Output destinations: check where a result will go before the work runs, and never lose the
result when writing fails after all.

- `check_destination(path, what)` refuses, with one line, a destination that cannot work: a
  folder, something that is not a regular file, a read-only file, a place under a regular file,
  a folder that is not writable. Call it before the (long) work that produces the result.
  The same check refuses a destination that is a symbolic link (the write would land on the
  file it points to), one that is an input of the same command (`inputs`: writing there would
  lose that input), and one outside a folder the caller names (`within`).
- `linked_path(base, rel, what, origin)`: the one policy for a path a file names for another
  file (a battle save linked from a campaign save): relative, inside `base`, through no
  symbolic link; else one line naming the file that holds the link.
- `write_output(path, text, what, inputs=...)`: check_destination, then write_text_or_keep.
- `write_text_or_keep(path, text, what)` writes atomically (game.io.saves.atomic_write_text);
  if that fails all the same (disk full, the folder removed meanwhile), the text is written to a
  fallback file in the system's temporary folder and the caller is told where.
"""

from __future__ import annotations

import datetime as _dt
import os
import stat
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from game.core.errors import GameFileError, UserError, cut
from game.io.saves import atomic_write_text

FALLBACK_DIR = "ail-unsaved"  # under the temporary folder


def _nearest_existing(p: Path) -> Path:
    for candidate in (p, *p.parents):
        try:
            os.lstat(candidate)
            return candidate
        except (FileNotFoundError, NotADirectoryError):
            continue
        except OSError:
            return candidate
    return Path(".")


def _same_file(a: Path, b: str | os.PathLike[str]) -> bool:
    """Do `a` and `b` name one file (the same inode, or the same path once resolved)?"""
    try:
        sa, sb = os.stat(a), os.stat(b)
        if (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino):
            return True
    except (OSError, ValueError):
        pass
    try:
        return os.path.realpath(a) == os.path.realpath(os.fspath(b))
    except (OSError, ValueError):
        return False


def _inside(p: Path, folder: str | os.PathLike[str]) -> bool:
    try:
        return Path(os.path.realpath(p)).is_relative_to(os.path.realpath(os.fspath(folder)))
    except (OSError, ValueError):
        return False


def check_destination(path: str | os.PathLike[str], what: str = "file", *,
                      inputs: Iterable[str | os.PathLike[str] | None] = (),
                      within: str | os.PathLike[str] | None = None) -> Path:
    """The destination as a Path if a file can be written there; else UserError (one line).

    Never through a symbolic link, never onto one of `inputs` (the files the same command reads),
    and, when `within` is given, only inside that folder."""
    raw = os.fspath(path)
    if not raw or "\0" in raw:
        raise UserError(f"{cut(raw, 200)!r}: not a usable file name for the {what}")
    p = Path(raw)
    shown = cut(raw, 300)
    try:
        if stat.S_ISLNK(os.lstat(p).st_mode):
            raise UserError(f"{shown}: is a symbolic link; not writing the {what} through it (it would "
                            "overwrite the file it points to); name a plain file")
    except (FileNotFoundError, NotADirectoryError):
        pass
    except OSError as exc:
        raise UserError(f"{shown}: cannot write the {what} there ({exc.strerror or exc})") from None
    for src in inputs:
        if src is not None and _same_file(p, src):
            raise UserError(f"{shown}: is also an input of this command ({cut(os.fspath(src), 200)}); writing "
                            f"the {what} there would lose it; name another file")
    if within is not None and not _inside(p, within):
        raise UserError(f"{shown}: is outside {cut(os.fspath(within), 200)}; the {what} is written only "
                        "inside that folder")
    try:
        st = os.stat(p)
    except (FileNotFoundError, NotADirectoryError):  # (the folder checks below say which part is wrong)
        st = None
    except OSError as exc:
        raise UserError(f"{shown}: cannot write the {what} there ({exc.strerror or exc})") from None
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise UserError(f"{shown}: is a folder; expected a file name for the {what}, e.g. {shown}/game.yaml")
        if not stat.S_ISREG(st.st_mode):
            raise UserError(f"{shown}: is not a regular file (a device, pipe or socket); refusing to write "
                            f"the {what} there")
        if not os.access(p, os.W_OK) or not st.st_mode & 0o222:  # (the mode bits count even for root)
            raise UserError(f"{shown}: is read-only; not overwriting it (choose another file for the {what})")
    parent = p.parent if str(p.parent) else Path(".")
    base = _nearest_existing(parent)
    if not base.is_dir():
        raise UserError(f"{shown}: cannot write the {what} there: {cut(str(base), 200)} is a file, not a folder")
    if not os.access(base, os.W_OK | os.X_OK):
        raise UserError(f"{shown}: cannot write the {what} there: the folder {cut(str(base), 200)} is not "
                        "writable")
    return p


def check_folder(path: str | os.PathLike[str], what: str = "files") -> Path:
    """A folder to write `what` into (made if missing), as a Path; else UserError (one line): an
    empty or NUL name, a file or device in its place, a file above it, a name too long, a folder
    that cannot be written."""
    raw = os.fspath(path)
    if not raw or "\0" in raw:
        raise UserError(f"{cut(raw, 200)!r}: not a usable folder name for the {what}")
    p = Path(raw)
    shown = cut(raw, 300)
    if any(len(part.encode("utf-8", "surrogateescape")) > 255 for part in p.parts):
        raise UserError(f"{shown}: a name in the path is too long (at most 255 bytes each)")
    try:
        st = os.stat(p)
    except (FileNotFoundError, NotADirectoryError):
        st = None
    except OSError as exc:
        raise UserError(f"{shown}: cannot write the {what} there ({exc.strerror or exc})") from None
    if st is not None and not stat.S_ISDIR(st.st_mode):
        raise UserError(f"{shown}: is a file, not a folder; expected a folder for the {what}")
    base = _nearest_existing(p)
    if not base.is_dir():
        raise UserError(f"{shown}: cannot write the {what} there: {cut(str(base), 200)} is a file, not a folder")
    if not os.access(base, os.W_OK | os.X_OK):
        raise UserError(f"{shown}: cannot write the {what} there: the folder {cut(str(base), 200)} is not "
                        "writable")
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"{shown}: cannot make the folder for the {what} ({exc.strerror or exc})") from None
    return p


def fallback_path(path: str | os.PathLike[str], now: _dt.datetime | None = None) -> Path:
    """A fresh file in `<temporary folder>/ail-unsaved/` named after `path`."""
    name = Path(os.fspath(path)).name or "result"
    stem, suffix = os.path.splitext(name)
    stamp = (now or _dt.datetime.now()).strftime("%Y%m%d-%H%M%S")
    folder = Path(tempfile.gettempdir()) / FALLBACK_DIR
    candidate = folder / f"{stem[:80]}-{stamp}{suffix[:10]}"
    n = 1
    while candidate.exists():
        n += 1
        candidate = folder / f"{stem[:80]}-{stamp}-{n}{suffix[:10]}"
    return candidate


@dataclass(frozen=True)
class Written:
    """Where a result went: `path`; when it could not go where asked, `failed` says why."""

    path: Path
    failed: str | None = None


def write_text_or_keep(path: str | os.PathLike[str], text: str, what: str = "file", *,
                       backup: bool = True) -> Written:
    """Write `text` to `path`; if that fails, to `fallback_path(path)`. Raises OSError only when
    both fail (the caller then has nowhere left to put it)."""
    try:
        return Written(atomic_write_text(path, text, backup=backup))
    except OSError as exc:
        reason = f"{exc.strerror or exc}" + (f": {exc.filename}" if getattr(exc, "filename", None) else "")
        keep = fallback_path(path)
        atomic_write_text(keep, text, backup=False)
        return Written(keep, cut(f"could not write the {what} to {os.fspath(path)} ({reason})", 400))


def write_output(path: str | os.PathLike[str], text: str, what: str = "file", *,
                 inputs: Iterable[str | os.PathLike[str] | None] = (),
                 within: str | os.PathLike[str] | None = None, backup: bool = True) -> Written:
    """check_destination (symbolic links, inputs, `within`), then write_text_or_keep."""
    check_destination(path, what, inputs=inputs, within=within)
    return write_text_or_keep(path, text, what, backup=backup)


def linked_path(base: str | os.PathLike[str], rel: str, what: str, origin: str | os.PathLike[str],
                where: str = "") -> Path:
    """`base / rel` for a path that one file names for another (a linked battle save): relative,
    no `..` out of `base`, and no symbolic link on the way from `base`; else GameFileError
    against `origin` (the file holding the link)."""
    def bad(why: str) -> GameFileError:
        return GameFileError(os.fspath(origin), where, f"{what} {cut(rel, 200)!r}: {why}; expected a path "
                                                      f"inside {cut(os.fspath(base), 200)}")
    if not isinstance(rel, str) or not rel or "\0" in rel:
        raise bad("not a usable file name")
    pure = Path(rel)
    if pure.is_absolute() or rel.startswith(("/", "\\")) or (len(rel) > 1 and rel[1] == ":"):
        raise bad("an absolute path")
    if ".." in pure.parts or ".." in rel.replace("\\", "/").split("/"):
        raise bad("goes up out of its folder")
    b = Path(os.fspath(base))
    cur = b
    for part in pure.parts:
        cur = cur / part
        try:
            if stat.S_ISLNK(os.lstat(cur).st_mode):
                raise bad(f"passes through the symbolic link {cut(str(cur), 200)}")
        except (FileNotFoundError, NotADirectoryError):
            break
        except OSError as exc:
            raise bad(f"cannot be looked at ({exc.strerror or exc})") from None
    return b / pure
