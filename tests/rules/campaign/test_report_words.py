"""Words a forum reader meets in a week's report and the event lines (from a QA pass of a
play-by-post week): stratagem names as the rules write them, a casualty range roll read as its
count, one casualty in the singular."""

from __future__ import annotations

from game.systems.campaign.rules.commands import parse_command
from game.systems.campaign.rules.describe import _casualties, _range_roll, _successes, event_text
from game.systems.campaign.rules.events import GmDid
from game.systems.campaign.rules.models import STRATAGEMS, display_name
from game.systems.campaign.rules.orders import title
from game.systems.campaign.rules.queries import describe_command
from tests.rules.campaign.test_scouting_seed import _first_declare, _play


def test_stratagem_names_keep_their_small_words_in_lower_case() -> None:
    assert display_name("hold_the_line") == "Hold the Line"
    assert display_name("hammer_and_anvil") == "Hammer and Anvil"
    assert title("last_stand") == "Last Stand" and title("block") == "Block"
    assert all(display_name(s)[0].isupper() and "_" not in display_name(s) for s in STRATAGEMS)


def test_a_casualty_range_roll_reads_the_die_as_its_place_in_the_range() -> None:
    assert _range_roll("casualties on The Zones (0-1)", (2,)) == "rolled 2 on a d2: 1 (of 0-1)"
    assert _range_roll("casualties on Jibril (3-6)", (1,)) == "rolled 1 on a d4: 3 (of 3-6)"
    assert _range_roll("casualties", (4,)) == "rolled [4]"


def test_one_casualty_and_one_success_are_singular() -> None:
    assert (_casualties(1), _casualties(0), _casualties(3)) == ("1 casualty", "0 casualties", "3 casualties")
    assert (_successes(1), _successes(2)) == ("1 success", "2 successes")


def test_forced_rolls_are_said_without_their_faces_in_every_players_log() -> None:
    state = _play(stop=_first_declare()).state
    assert event_text(state, GmDid(what="forced the next rolls: [3, 7]")) == "GM: forced the next 2 rolls"
    assert event_text(state, GmDid(what="forced the next rolls: [10]")) == "GM: forced the next 1 roll"
    assert event_text(state, GmDid(what="edited z.1: x")) == "GM: edited z.1: x"


def test_a_players_command_without_its_own_words_names_the_player() -> None:
    state = _play(stop=_first_declare()).state
    player = state.players[0]
    assert state.player_name(player) == "The Zones"  # a plural name: the verb agrees
    assert describe_command(state, parse_command({"kind": "narrative_done", "player": player})) == \
        "The Zones have finished posting"
