"""A file's path wider than its box is cut at a folder ('/'), not between letters, wherever the
shell's wrap is used (the campaign panel's 'save battles/...', the mass board's notices)."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402

from game.shell.fonts import font, wrap_px  # noqa: E402


def test_a_path_wider_than_the_box_is_cut_after_a_folder_and_every_piece_fits() -> None:
    pygame.font.init()
    path = "/tmp/a-long-saves-folder-for-the-screenshots/saves/battles/teaching-campaign-week01-B1-tactical.yaml"
    width = font(12).size("/tmp/a-long-saves-folder-for-the-screenshots/saves/")[0] + 4
    lines = wrap_px(f"save {path}", 12, width)
    assert all(font(12).size(line)[0] <= width for line in lines)
    assert "".join(line.strip() for line in lines[1:]) == path  # nothing lost, nothing doubled
    assert all(line.rstrip().endswith("/") for line in lines[1:-1]), lines  # each cut at a folder


def test_a_word_with_no_folder_in_it_is_still_cut_between_letters() -> None:
    pygame.font.init()
    word = "x" * 200
    lines = wrap_px(word, 12, 100)
    assert "".join(line.strip() for line in lines) == word and all(font(12).size(x)[0] <= 100 for x in lines)
