"""Errors for mistakes in users' files: each names the file, the place in it and what was expected."""

from __future__ import annotations


class GameFileError(Exception):
    """A problem in a map, scenario, catalogue, rules or save file.

    str() gives one line: "<file>: <where>: <what was expected>".
    """

    def __init__(self, path: str, where: str, message: str) -> None:
        self.path = str(path)
        self.where = where
        self.message = message
        super().__init__(self.line())

    def line(self) -> str:
        return f"{self.path}: {self.where}: {self.message}" if self.where else f"{self.path}: {self.message}"


class UserError(Exception):
    """A mistake in command-line arguments: printed as one line, no traceback."""
