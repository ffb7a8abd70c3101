"""Installing prints no warnings of the project's own (issue 28 item 7): setup.py declares every
folder of data under assets/ and maps/ as a package (no setuptools "Package would be ignored"), and
an editable install, which reads the data in place, maps no folder elsewhere (no "Editable
installation" notice). pip's verbose output is read, where setuptools' warnings always show."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _copy(dest: Path) -> Path:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build")
    for name in ("game", "assets", "maps"):
        shutil.copytree(ROOT / name, dest / name, ignore=ignore)
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, dest / name)
    return dest


def _pip(python: Path | str, args: list[str], cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHONPATH"))}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    proc = subprocess.run([str(python), "-m", "pip", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout + proc.stderr


def test_the_wheel_and_the_editable_install_build_without_setuptools_warnings_and_ship_every_data_file(tmp_path):
    src = _copy(tmp_path / "src")
    log = _pip(sys.executable, ["wheel", "--no-deps", "-v", "-w", str(tmp_path / "wheels"), str(src)], tmp_path)
    assert "would be ignored" not in log and "absent from the `packages`" not in log
    (wheel,) = (tmp_path / "wheels").glob("ascension_isle_tactics-*.whl")
    shipped = {n for n in zipfile.ZipFile(wheel).namelist() if n.startswith("game/data/")}
    for top in ("assets", "maps"):
        for f in (src / top).rglob("*"):
            if f.is_file():
                assert f"game/data/{f.relative_to(src).as_posix()}" in shipped, f
    venv.create(tmp_path / "venv", with_pip=True)
    python = tmp_path / "venv" / ("Scripts" if os.name == "nt" else "bin") / "python"
    log = _pip(python, ["install", "--no-deps", "-v", "-e", str(src)], tmp_path)
    assert "would be ignored" not in log and "Editable installation" not in log
    where = subprocess.run([str(python), "-c", "from game import paths; print(paths.maps_dir())"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=60, check=True).stdout.strip()
    assert Path(where) == src / "maps"  # the editable install reads the data in place
