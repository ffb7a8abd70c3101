"""Packaging glue that pyproject.toml cannot say on its own: ship assets/ and maps/ as package data.

The checkout keeps assets/ and maps/ at the top (other tools and branches add files there); a wheel
carries them as the data packages game.data.assets and game.data.maps, side by side under
game/data/ so the relative paths inside maps and scenarios still resolve. game/paths.py finds them.
Every folder under them is declared as a package of its own (game.data.maps.campaign <- maps/campaign,
...): a folder of data left out of `packages` makes setuptools print a "Package would be ignored"
warning for it on every install.

An editable install (`pip install -e .`, what `make` does) runs from the checkout and reads assets/
and maps/ in place (game/paths.py), so it declares the game's packages alone, where they are: with
no folder mapped elsewhere, setuptools installs it with a plain .pth file instead of an import hook
and prints no "Editable installation" notice either. Everything else (name, version, dependencies,
the ail-tactics command) is in pyproject.toml.
"""

import os
import sys

from setuptools import find_packages, setup

DATA = {"game.data.assets": "assets", "game.data.maps": "maps"}


def data_packages() -> dict[str, str]:
    """Each data folder and every folder below it (caches and hidden folders left out), as
    package name -> folder."""
    found: dict[str, str] = {}
    for name, top in DATA.items():
        for folder, subfolders, _files in os.walk(top):
            subfolders[:] = sorted(d for d in subfolders if d != "__pycache__" and not d.startswith("."))
            rel = os.path.relpath(folder, top)
            package = name if rel == os.curdir else name + "." + rel.replace(os.sep, ".")
            found[package] = folder.replace(os.sep, "/")
    return found


GAME = find_packages(include=["game", "game.*"])

if "editable_wheel" in sys.argv:  # setuptools' build of an editable install (PEP 660)
    setup(packages=GAME, package_dir={"": "."})
else:
    PACKAGES = data_packages()
    setup(
        packages=GAME + list(PACKAGES),
        package_dir=PACKAGES,
        package_data={name: ["*"] for name in PACKAGES},
        exclude_package_data={name: ["*.pyc"] for name in PACKAGES},
    )
