"""QA: the load menu lists saves, not set-up files. A campaign's battle fought out is generated
next to the campaign save, `battles/<campaign>-B1-tactical.yaml` (a tactical scenario) and
`...-B2-mass.yaml` (a mass battle file): those are not broken saves (offering to delete them would
break the campaign's battle), and are not listed. A save that cannot be read still is."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.bridge.files import battle_paths, generate_battle, load_scales_rules
from game.shell.scenes import load_menu
from game.table import TABLE
from tests.bridge.conftest import campaign_record
from tests.client.clientfix import top_name
from tests.client.test_load_menu import ctrl, demo_save, open_app


@pytest.fixture
def saves_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "saves"
    folder.mkdir()
    monkeypatch.setenv("AIL_SAVES_DIR", str(folder))
    return folder


def _battle_files(saves_dir: Path) -> list[Path]:
    """The files the campaign window writes to fight B1 out at the tactical scale and B2 at the
    mass scale, beside a campaign save in the saves folder."""
    rec = campaign_record()
    out = []
    for bid, scale in (("B1", "tactical"), ("B2", "mass")):
        battle_file, _ = battle_paths(saves_dir / "teaching-week01-20261203-120000.yaml", bid, scale)
        out.append(generate_battle(rec.state, bid, scale, battle_file.parent, battle_file.stem, load_scales_rules()))
    return out


def test_a_campaigns_generated_battle_files_are_not_listed_as_broken_saves(saves_dir: Path) -> None:
    generated = _battle_files(saves_dir)
    assert [p.name for p in generated] == ["teaching-week01-20261203-120000-B1-tactical.yaml",
                                           "teaching-week01-20261203-120000-B2-mass.yaml"]
    kept = demo_save(saves_dir / "kept.yaml")
    broken = saves_dir / "battles" / "broken-save.yaml"
    broken.write_text("--- # header\nformat: four\nsystem: ail-tactical\n", encoding="utf-8")
    names = {s.path.name for s in load_menu.listed(saves_dir, TABLE)}
    assert names == {kept.name, broken.name}  # the save, and the save that cannot be read: no set-up file
    assert all(not load_menu.is_setup_file(p, TABLE) for p in (kept, broken))
    assert all(load_menu.is_setup_file(p, TABLE) for p in generated)


def test_the_load_menu_opened_in_the_window_offers_no_set_up_file_to_delete(saves_dir: Path, tmp_path: Path) -> None:
    _battle_files(saves_dir)
    app = open_app(demo_save(tmp_path / "start.yaml"))
    ctrl(app, pygame.K_o)
    menu = app.scenes.top
    assert top_name(app) == "load_menu"
    assert menu.listings == []  # type: ignore[attr-defined]
