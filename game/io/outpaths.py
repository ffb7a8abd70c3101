"""Output destinations: check where a result will go before the work runs, and never lose the
result when writing fails after all.

- `check_destination(path, what)` refuses, with one line, a destination that cannot work: a
  folder, something that is not a regular file, a read-only file, a place under a regular file,
  a folder that is not writable. Call it before the (long) work that produces the result.
- `write_text_or_keep(path, text, what)` writes atomically (game.io.saves.atomic_write_text);
  if that fails all the same (disk full, the folder removed meanwhile), the text is written to a
  fallback file in the system's temporary folder and the caller is told where.
"""

from __future__ import annotations

import datetime as _dt
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from game.core.errors import UserError, cut

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


def check_destination(path: str | os.PathLike[str], what: str = "file") -> Path:
    """The destination as a Path if a file can be written there; else UserError (one line)."""
    raw = os.fspath(path)
    if not raw or "\0" in raw:
        raise UserError(f"{cut(raw, 200)!r}: not a usable file name for the {what}")
    p = Path(raw)
    shown = cut(raw, 300)
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
    from game.io.saves import atomic_write_text

    try:
        return Written(atomic_write_text(path, text, backup=backup))
    except OSError as exc:
        reason = f"{exc.strerror or exc}" + (f": {exc.filename}" if getattr(exc, "filename", None) else "")
        keep = fallback_path(path)
        atomic_write_text(keep, text, backup=False)
        return Written(keep, cut(f"could not write the {what} to {os.fspath(path)} ({reason})", 400))
