"""A real install: build the wheel, install it in a fresh virtual environment, and use the
`ail-tactics` command from a folder that is not the checkout (data found through the package)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(cmd: list[str], cwd: Path, env: dict[str, str], timeout: int = 300,
         ok: tuple[int, ...] = (0,)) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    assert proc.returncode in ok, f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    return proc


def _source_copy(dest: Path) -> Path:
    """The files a wheel is built from, copied so the build writes nothing into the checkout."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build")
    for name in ("game", "assets", "maps"):
        shutil.copytree(ROOT / name, dest / name, ignore=ignore)
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, dest / name)
    return dest


# About 30 s here (wheels from pip's local index); mark it slow if that grows past a minute.
def test_the_wheel_installs_into_a_fresh_venv_and_ail_tactics_works_from_another_folder(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHONPATH"))}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", AIL_SAVES_DIR=str(tmp_path / "saves"),
               XDG_DATA_HOME=str(tmp_path / "xdg"), PIP_DISABLE_PIP_VERSION_CHECK="1")
    wheels = tmp_path / "wheels"
    # The wheel from this checkout (build isolation fetches setuptools through pip's usual index).
    src = _source_copy(tmp_path / "src")
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(src)], tmp_path, env)
    (wheel,) = wheels.glob("ascension_isle_tactics-*.whl")
    venv.create(tmp_path / "venv", with_pip=True)
    bin_dir = tmp_path / "venv" / ("Scripts" if os.name == "nt" else "bin")
    # Dependencies come from the wheels pip already has (its cache / find-links), else PyPI.
    _run([str(bin_dir / "python"), "-m", "pip", "install", "-q", str(wheel)], tmp_path, env, timeout=600)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    cmd = str(bin_dir / "ail-tactics")

    assert _run([cmd, "--version"], elsewhere, env).stdout.startswith("ail-tactics 0.")
    maps = Path(_run([str(bin_dir / "python"), "-c", "from game import paths; print(paths.maps_dir())"],
                     elsewhere, env).stdout.strip())
    assert not maps.is_relative_to(ROOT) and (maps / "default.yaml").is_file()  # the installed copy

    out = _run([cmd, "validate", str(maps), str(maps.parent / "assets")], elsewhere, env).stdout
    assert "ok:" in out and "problems" not in out
    _run([cmd, "render", str(maps / "riverford.tmx"), "--out", "riverford.png"], elsewhere, env)
    assert (elsewhere / "riverford.png").stat().st_size > 10_000
    run = _run([cmd, "run", str(maps / "demo-movement.yaml"), "--commands", str(maps / "demo-movement-commands.yaml"),
                "--out", "demo.yaml"], elsewhere, env, ok=(3,)).stdout  # 3: the demo shows one refused move
    assert "REJECTED" in run and "-- saved to demo.yaml" in run
    assert (elsewhere / "demo.yaml").is_file()
    _run([cmd, "play", "--frames", "3"], elsewhere, env)  # the default scenario, theme and tiles from the package
    usage = subprocess.run([cmd, "nonsense"], cwd=elsewhere, env=env, capture_output=True, text=True, timeout=60)
    assert usage.returncode != 0 and "usage: ail-tactics" in usage.stderr
