"""The colours of the powers and sides, one palette for every scale.

A power (a campaign player) keeps its colour on the island, in its battles fought out at the
tactical and the mass scale, on their counters and on the hand-off screen: a campaign scenario
gives each player a `colour:` (or takes the palette's colour of its place in the list), and the
bridge between the scales hands it to the battle files it writes. The shipped scenarios use these
colours for the powers (docs/playing.md, "Colours"):

    blue      the Zones             amber   the Resistance Fronts
    vermilion the Zenith Empire     mauve   Jibril
    ivory, sky: further players and sides

The six are told apart with each of the three common colour-vision deficiencies (protanopia,
deuteranopia, tritanopia): tests/render/test_palette.py simulates them and checks that every two
colours stay at least MIN_DISTANCE apart (CIE76 colour difference, CIELAB).
"""

from __future__ import annotations

# (name, "#rrggbb"), in the order a scenario's players take them when they name no colour
PALETTE: tuple[tuple[str, str], ...] = (
    ("blue", "#3f4cc8"),
    ("amber", "#fe9f01"),
    ("vermilion", "#cc5514"),
    ("mauve", "#b174a4"),
    ("ivory", "#f0f0e0"),
    ("sky", "#70d3ff"),
)

MIN_DISTANCE = 25.0  # the least CIE76 difference of any two, with normal vision and each deficiency

RGB = tuple[int, int, int]


def rgb(colour: str) -> RGB:
    """"#rrggbb" -> (r, g, b); ValueError for anything else."""
    text = colour.strip()
    if len(text) != 7 or text[0] != "#":
        raise ValueError(f"expected a colour as #rrggbb, got {colour!r}")
    try:
        return int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16)
    except ValueError:
        raise ValueError(f"expected a colour as #rrggbb, got {colour!r}") from None


def palette_colour(index: int) -> str:
    """The palette's colour for the player or side at `index` (round again after the last)."""
    return PALETTE[index % len(PALETTE)][1]


def colour_of(colours: dict[str, str] | None, who: str, index: int) -> str:
    """`who`'s colour from a table of colours by id, else the palette's for its place."""
    if colours and who in colours:
        return colours[who]
    return palette_colour(index)
