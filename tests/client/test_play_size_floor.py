"""`play --size` below 960x600 is refused in one line saying the smallest size (`play --help`:
"at least 960x600"; docs/playing.md); it opened a window too small for the screens' layout."""

from __future__ import annotations

import pytest

from game.__main__ import main


@pytest.mark.parametrize("size", ["800x500", "959x600", "960x599"])
def test_play_refuses_a_window_smaller_than_960x600_naming_the_smallest(size: str, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["play", "--size", size, "--frames", "1"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"error: --size: at least 960x600, the smallest window every screen is laid out for, got {size}"]
