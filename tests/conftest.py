"""Suite-wide set-up: no test writes outside its temporary folders.

Saves, autosaves and crash reports go to a temporary folder (through the AIL_SAVES_DIR override
game/paths.py reads), never to the checkout's saves/ or the user's data folder; at the end the
session fails if the checkout's saves/ changed while it ran.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from game import paths

CHECKOUT_SAVES = Path(__file__).resolve().parents[1] / "saves"


def saves_snapshot(folder: Path = CHECKOUT_SAVES) -> dict[str, tuple[int, int]]:
    """Every file under `folder`: relative path -> (size, mtime in ns)."""
    if not folder.is_dir():
        return {}
    return {p.relative_to(folder).as_posix(): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


_BEFORE = saves_snapshot()


@pytest.fixture(autouse=True, scope="session")
def _saves_in_a_temporary_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    # Session-scoped (hypothesis refuses function-scoped fixtures on its tests); a test that needs
    # its own folder sets AIL_SAVES_DIR with monkeypatch, which restores this one afterwards.
    folder = tmp_path_factory.mktemp("user-saves")
    old = os.environ.get(paths.SAVES_ENV)
    os.environ[paths.SAVES_ENV] = str(folder)
    yield folder
    if old is None:
        os.environ.pop(paths.SAVES_ENV, None)
    else:
        os.environ[paths.SAVES_ENV] = old


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    after = saves_snapshot()
    if after != _BEFORE:
        changed = sorted(set(after.items()) ^ set(_BEFORE.items()))
        names = sorted({name for name, _ in changed})
        print(f"\nERROR: the test run changed the checkout's saves/ folder: {', '.join(names[:10])}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
