"""The AI:L tactical rules' data files: the rules file (assets/rules/, with a scenario's
overrides merged onto it) and the unit catalogue, read into the rules' own models with located
errors (game.io.datafiles does the reading and the locating for every system)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from game import paths
from game.core.errors import GameFileError
from game.io.datafiles import (
    GameFileErrors,
    Loc,
    YamlDoc,
    clean_loc,
    deep_merge,
    describe_error,
    format_loc,
    has_path,
    override_owns,
    read_yaml,
    validate_model,
)
from game.systems.tactical.rules.models import Catalogue, RulesData

DEFAULT_RULES = paths.default_rules()
DEFAULT_CATALOGUE = paths.default_catalogue()


def load_rules(path: str | Path = DEFAULT_RULES, overrides: Mapping[str, Any] | None = None,
               overrides_doc: YamlDoc | None = None, overrides_loc: Loc = ("rules",)) -> RulesData:
    """The rules data file, with optional scenario overrides deep-merged onto it.

    A problem caused by an override is reported against the scenario file (`overrides_doc`)
    at its field path under `overrides_loc`; others against the rules file.
    """
    doc = read_yaml(path, "rules file")
    if not isinstance(doc.data, dict):
        raise GameFileError(str(doc.path), "", "expected a rules file (a YAML mapping of rule sections)")
    if overrides is not None and not isinstance(overrides, dict):
        where = format_loc(overrides_loc)
        src = overrides_doc.path if overrides_doc else doc.path
        raise GameFileError(str(src), where, "rules overrides must be a mapping (e.g. terrain: {woods: {cover: 3}})")
    merged = deep_merge(doc.data, dict(overrides or {}))
    try:
        return RulesData.model_validate(merged)
    except ValidationError as exc:
        problems: list[GameFileError] = []
        for err in exc.errors():
            loc = clean_loc(tuple(err.get("loc", ())))
            if overrides and overrides_doc is not None and has_path(overrides, loc[:1]) and (
                    override_owns(overrides, loc) or not has_path(doc.data, loc)):
                full = overrides_loc + loc
                line = overrides_doc.line_of(full)
                where = format_loc(full)
                problems.append(GameFileError(str(overrides_doc.path),
                                              f"line {line}: {where}" if line else where, describe_error(err)))
            else:
                line = doc.line_of(loc)
                where = format_loc(loc) or "top level"
                problems.append(GameFileError(str(doc.path),
                                              f"line {line}: {where}" if line else where, describe_error(err)))
        raise GameFileErrors(problems) from None


def load_catalogue(path: str | Path = DEFAULT_CATALOGUE) -> Catalogue:
    """A unit catalogue file: `units: {id: UnitType, ...}`."""
    doc = read_yaml(path, "unit catalogue")
    return validate_model(Catalogue, doc.data, doc, doc.path, what="unit catalogue")
