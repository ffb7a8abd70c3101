"""Temporary files of an interrupted save: the only part of game.io.saves the game needs while it
starts (to tidy the saves folder), kept apart so that opening a battle does not load the whole
save format (its models, checksums and YAML writer) before the first frame."""

from __future__ import annotations

import os
import time
from pathlib import Path


def unlink_quietly(path: Path) -> None:
    """Remove a file that may already be gone."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def clean_temp_files(directory: str | os.PathLike[str], *, older_than: float = 0.0) -> list[Path]:
    """Remove temporary files left by a save that was interrupted (they are never real saves:
    `saves.atomic_write_text` writes into a hidden ".NAME.*.tmp" next to the target, and a backup
    into ".*.baktmp", and renames it into place only when it is complete).

    `older_than` (seconds) spares younger ones: at start-up another copy of the game may be in the
    middle of writing a save into the same folder."""
    removed: list[Path] = []
    d = Path(directory)
    if not d.is_dir():
        return removed
    now = time.time()
    for p in d.iterdir():
        if p.name.startswith(".") and (p.name.endswith(".tmp") or p.name.endswith(".baktmp")):
            try:
                if older_than and now - p.lstat().st_mtime < older_than:
                    continue
            except OSError:
                continue
            unlink_quietly(p)
            removed.append(p)
    return removed
