"""Every path to the game's shipped data and to the player's own folders.

Shipped data (assets/, maps/) is found through the package: a wheel carries it as package data
under ``game/data/`` (``game.data.assets`` <- assets/, ``game.data.maps`` <- maps/, mapped in
pyproject.toml so the checkout keeps its layout), and a checkout (or an editable install, which
runs from the checkout) reads it in place. Either way ``data_root()`` is a folder holding
``assets/`` and ``maps/`` side by side, so the relative paths inside maps and scenarios
(``../assets/tiles/hex-pointy.tsx``) work in both.

The player's folder for saves, autosaves and crash reports (``saves_dir()``):
1. ``$AIL_SAVES_DIR`` when set (the ``--saves-dir`` option sets it; the tests point it at a
   temporary folder);
2. in a checkout, its ``saves/`` folder;
3. installed, the platform's user data folder (platformdirs): ``~/.local/share/ail-tactics/saves``
   on Linux, ``~/Library/Application Support/ail-tactics/saves`` on macOS,
   ``%LOCALAPPDATA%\\ail-tactics\\saves`` on Windows.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

APP_NAME = "ail-tactics"
SAVES_ENV = "AIL_SAVES_DIR"

_PACKAGE_DIR = Path(__file__).resolve().parent
_CHECKOUT = _PACKAGE_DIR.parent


def _packaged_root() -> Path | None:
    """game/data/ of an installed wheel (None when the package has no data beside it)."""
    try:
        root = Path(str(resources.files("game") / "data"))
    except (ModuleNotFoundError, TypeError):  # pragma: no cover - 'game' is always importable here
        return None
    return root if (root / "assets").is_dir() and (root / "maps").is_dir() else None


def is_checkout() -> bool:
    """True when the game runs from a source checkout (or an editable install of one)."""
    return (_CHECKOUT / "pyproject.toml").is_file() and (_CHECKOUT / "assets").is_dir() \
        and (_CHECKOUT / "maps").is_dir()


def data_root() -> Path:
    """The folder holding assets/ and maps/: the installed package data, else the checkout."""
    packaged = _packaged_root()
    if packaged is not None:
        return packaged
    return _CHECKOUT


def assets_dir() -> Path:
    return data_root() / "assets"


def maps_dir() -> Path:
    return data_root() / "maps"


def asset(*parts: str) -> Path:
    """A shipped asset, e.g. asset("rules", "ail-tactical.yaml")."""
    return assets_dir().joinpath(*parts)


def default_rules() -> Path:
    return asset("rules", "ail-tactical.yaml")


def default_catalogue() -> Path:
    return asset("units", "starter.yaml")


def default_scenario() -> Path:
    return maps_dir() / "default.yaml"


def theme_file() -> Path:
    return asset("ui", "theme.json")


def user_data_dir() -> Path:
    """The platform's per-user data folder for this game (not created here)."""
    # import seam: platformdirs (a few ms) only where saves go to the user data folder (an installed game)
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def saves_dir() -> Path:
    """Where saves, autosaves and crash reports go (see the module docstring for the order)."""
    env = os.environ.get(SAVES_ENV)
    if env:
        return Path(env).expanduser()
    if is_checkout():
        return _CHECKOUT / "saves"
    return user_data_dir() / "saves"


def saves_dir_source() -> str:
    """Why saves_dir() is what it is, in a few words (for --help and messages)."""
    if os.environ.get(SAVES_ENV):
        return f"${SAVES_ENV}"
    return "the checkout's saves/ folder" if is_checkout() else "the user data folder"



def _looks(path: str | os.PathLike[str], test: str) -> bool:
    """`Path(path).<test>()`, but False (not an exception) for a name the system cannot even look
    up (longer than the file system allows, or with a NUL byte): such a name comes from a
    hand-edited file, and the caller reports it as a file that is not there."""
    try:
        return bool(getattr(Path(path), test)())
    except (OSError, ValueError):
        return False


def is_file(path: str | os.PathLike[str]) -> bool:
    return _looks(path, "is_file")


def is_dir(path: str | os.PathLike[str]) -> bool:
    return _looks(path, "is_dir")


def exists(path: str | os.PathLike[str]) -> bool:
    return _looks(path, "exists")


def is_symlink(path: str | os.PathLike[str]) -> bool:
    return _looks(path, "is_symlink")
