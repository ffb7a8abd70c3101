"""The die faces a GM types to force the next rolls, read the same way in every GM mode."""

from __future__ import annotations

from game.shell.dice_entry import MAX_FACES, parse_faces


def test_faces_are_read_with_spaces_commas_or_semicolons_between_them() -> None:
    assert parse_faces(" 10 10,3; 1 ", 10, "the campaign's") == (10, 10, 3, 1)


def test_a_face_the_die_cannot_show_or_a_word_is_refused_naming_what_was_expected() -> None:
    assert parse_faces("4 11", 10, "the mass battle's") == (
        "11 cannot be rolled on a d10: expected whole numbers from 1 to 10 (the mass battle's d10), "
        "separated by spaces or commas.")
    assert parse_faces("0", 6, "the campaign's").startswith("0 cannot be rolled on a d6")  # type: ignore[union-attr]
    assert parse_faces("four", 10, "x").startswith("'four' is not a die value")  # type: ignore[union-attr]
    assert parse_faces("  ", 10, "x").startswith("Type at least one die value")  # type: ignore[union-attr]
    assert "At most" in parse_faces(" ".join(["1"] * (MAX_FACES + 1)), 10, "x")
