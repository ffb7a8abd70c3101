"""Tile sheets decoded on a thread while the window opens (game.render.tiles.prefetch): the picture
is the one a plain load gives, a broken sheet is reported exactly as before, and opening a game
starts the decoding."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pygame
import pytest

from game.core.errors import GameFileError
from game.io.tmx import load_map
from game.render import tiles
from game.table import TABLE

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
ROOT = Path(__file__).resolve().parents[2]


def _pixels(surf: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surf, "RGBA")


def test_a_prefetched_sheet_is_the_picture_a_plain_load_gives_and_is_decoded_off_the_main_thread(
        monkeypatch: pytest.MonkeyPatch) -> None:
    tiles.clear_caches()
    md = load_map(ROOT / "maps" / "riverford.tmx")
    sheet = md.tilesets[0].image
    assert sheet is not None
    threads: list[str] = []
    real = pygame.image.load

    def watch(*args: object) -> pygame.Surface:
        threads.append(threading.current_thread().name)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(pygame.image, "load", watch)
    tiles.prefetch(md)
    got = tiles._load_image(sheet)  # noqa: SLF001 - what the map's drawing asks for
    assert threads == ["decode tile sheets"]
    monkeypatch.setattr(pygame.image, "load", real)
    assert _pixels(got) == _pixels(real(str(sheet)))
    assert tiles._load_image(sheet) is got  # noqa: SLF001 - kept, not decoded again
    tiles.prefetch(md)  # already loaded: nothing more to decode
    assert not tiles._decoding  # noqa: SLF001


def test_a_broken_prefetched_sheet_is_reported_as_a_plain_load_reports_it(tmp_path: Path) -> None:
    tiles.clear_caches()
    (tmp_path / "maps").mkdir()
    shutil.copy(ROOT / "maps" / "riverford.tmx", tmp_path / "maps")
    shutil.copytree(ROOT / "assets" / "tiles", tmp_path / "assets" / "tiles")  # (../assets/tiles/... from the map)
    md = load_map(tmp_path / "maps" / "riverford.tmx")
    sheet = md.tilesets[0].image
    assert sheet is not None
    sheet.write_bytes(b"not a png at all")
    tiles.prefetch(md)
    with pytest.raises(GameFileError) as err:
        tiles._load_image(sheet)  # noqa: SLF001
    assert str(sheet) in str(err.value) and "cannot load image" in str(err.value)
    tiles.clear_caches()
    with pytest.raises(GameFileError) as plain:
        tiles._load_image(sheet)  # noqa: SLF001
    assert str(plain.value) == str(err.value)


def test_opening_a_game_starts_decoding_its_maps_tile_sheets() -> None:
    from game.shell.launch import open_game

    tiles.clear_caches()
    session = open_game(TABLE, ROOT / "maps" / "default.yaml")
    assert session.map_data is not None
    sheets = {ts.image for ts in session.map_data.tilesets if ts.image is not None}
    assert sheets and sheets <= set(tiles._decoding)  # noqa: SLF001
    for sheet in sheets:
        assert tiles._load_image(sheet).get_size() > (0, 0)  # noqa: SLF001
    tiles.clear_caches()
