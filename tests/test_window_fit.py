"""The window's default size fits the player's screen (game/cli/play.py `fitted_size`)."""

from game.cli.play import SMALLEST, WINDOW, desktop_size, fitted_size


def test_a_large_screen_gets_the_window_the_screens_are_laid_out_for() -> None:
    assert fitted_size((1920, 1080)) == WINDOW == (1280, 800)


def test_a_laptop_screen_gets_a_shorter_window_that_shows_its_bottom_row_of_buttons() -> None:
    w, h = fitted_size((1366, 768))
    assert w == 1280
    assert h <= 768 - 100  # room left for the title bar and a task bar
    assert h >= SMALLEST[1]


def test_a_tiny_screen_never_gets_a_window_below_the_smallest_laid_out_size() -> None:
    assert fitted_size((800, 480)) == SMALLEST == (960, 600)


def test_without_a_real_screen_the_window_keeps_its_usual_size() -> None:
    assert fitted_size(None) == WINDOW
    assert desktop_size() is None  # tests run on SDL's dummy driver
