"""Packaging glue that pyproject.toml cannot say on its own: ship assets/ and maps/ as package data.

The checkout keeps assets/ and maps/ at the top (other tools and branches add files there); a wheel
carries them as the data packages game.data.assets and game.data.maps, side by side under
game/data/ so the relative paths inside maps and scenarios still resolve. game/paths.py finds them.
Everything else (name, version, dependencies, the ail-tactics command) is in pyproject.toml.
"""

from setuptools import find_packages, setup

DATA = {"game.data.assets": "assets", "game.data.maps": "maps"}

setup(
    packages=find_packages(include=["game", "game.*"]) + list(DATA),
    package_dir=DATA,
    package_data={name: ["**/*"] for name in DATA},
    exclude_package_data={name: ["**/__pycache__/*", "**/*.pyc"] for name in DATA},
)
