"""Modules that define pydantic models do without `from __future__ import annotations`: with it,
pydantic evaluates every field's annotation from its string when the module is imported, a quarter
to a third of those modules' import time, paid at every start of the game (issue 14)."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import pydantic

import game


def _all_models() -> list[type[pydantic.BaseModel]]:
    for info in pkgutil.walk_packages(game.__path__, "game."):
        importlib.import_module(info.name)
    seen: list[type[pydantic.BaseModel]] = []
    todo = list(pydantic.BaseModel.__subclasses__())
    while todo:
        cls = todo.pop()
        seen.append(cls)
        todo.extend(cls.__subclasses__())
    return [c for c in seen if c.__module__.startswith("game.")]


def test_no_module_defining_a_pydantic_model_postpones_its_annotations() -> None:
    models = _all_models()
    assert len(models) > 100  # every rule system's models were found
    postponed = re.compile(r"^from __future__ import annotations", re.MULTILINE)
    offenders = sorted({c.__module__ for c in models
                        if postponed.search(Path(importlib.import_module(c.__module__).__file__ or "").read_text())})
    assert offenders == [], f"these modules define pydantic models and postpone annotations: {offenders}"
