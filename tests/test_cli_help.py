"""Every command's --help reads as written: argparse formats a description as given, so a
doubled percent sign meant for %-formatting shows as "%%"."""

from __future__ import annotations

import argparse

from game.__main__ import build_parser


def _parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    parser = build_parser(prog="game")
    found = [("game", parser)]
    for action in parser._actions:  # argparse keeps its subcommands only here
        if isinstance(action, argparse._SubParsersAction):
            found += sorted(action.choices.items())
    return found


def test_no_command_help_shows_a_doubled_percent_sign_or_a_raw_format_field() -> None:
    parsers = _parsers()
    assert len(parsers) > 8  # play, replay, run, arena, campaign, scales...
    for name, p in parsers:
        text = p.format_help()
        assert "%%" not in text and "%(" not in text, f"{name} --help: {text}"
