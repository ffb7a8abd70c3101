"""The battle scene is made of parts that each own their state (composition, not mixins):
MapView, Panels, ActionButtons and Dialogs are plain classes constructed by the scene; each reads
and writes only the fields it defines itself, keeps no reference to the scene (what it reads is
passed to each call), and documents its public fields; the scene touches no part's private field.
Checked on the source, so a change that slips back into shared fields fails here."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from game.shell.scene import Scene
from game.systems.tactical.client.battle import BattleScene

AIL = Path(__file__).resolve().parents[2] / "game" / "systems" / "tactical" / "client"
PARTS = {"MapView": "battle_draw.py", "Panels": "battle_panels.py", "ActionButtons": "battle_actions.py",
         "Dialogs": "battle_dialogs.py"}
PART_FIELDS = {"map_view", "panels", "actions", "dialogs"}


def _class(file: str, name: str) -> ast.ClassDef:
    tree = ast.parse((AIL / file).read_text(encoding="utf-8"))
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)


def _defined(cls: ast.ClassDef) -> set[str]:
    """Names a class defines: its methods, properties and class attributes, and every
    `self.x = ...` (or annotated) assignment in its methods."""
    names: set[str] = set()
    for node in cls.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    for node in ast.walk(cls):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = [x for t in node.targets for x in (t.elts if isinstance(t, ast.Tuple) else [t])]
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        for t in targets:
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                names.add(t.attr)
    return names


def _self_reads(cls: ast.ClassDef) -> set[str]:
    return {n.attr for n in ast.walk(cls)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self"}


def test_the_battle_scene_is_a_scene_and_nothing_else() -> None:
    assert BattleScene.__bases__ == (Scene,)


def test_no_class_of_the_battle_modules_inherits_from_another_of_them() -> None:
    for path in sorted(AIL.glob("battle*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                bases = {ast.unparse(b) for b in node.bases}
                # the shell's own screens may be built on (the briefing is the shell's dialog with its
                # own keys); a class of these modules never inherits from another of them
                assert bases <= {"Scene", "DialogScene", "Protocol"}, f"{path.name}: {node.name} inherits {bases}"


@pytest.mark.parametrize("name", sorted(PARTS))
def test_a_part_reads_only_the_fields_it_defines(name: str) -> None:
    cls = _class(PARTS[name], name)
    foreign = _self_reads(cls) - _defined(cls)
    assert not foreign, f"{name} uses fields it does not define: {sorted(foreign)}"


@pytest.mark.parametrize("name", sorted(PARTS))
def test_a_part_keeps_no_reference_to_the_scene_or_the_context_it_is_given(name: str) -> None:
    cls = _class(PARTS[name], name)
    for node in ast.walk(cls):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            params = {a.arg for a in node.args.args[1:] + node.args.kwonlyargs}
            for a in node.args.args[1:]:
                ann = ast.unparse(a.annotation) if a.annotation is not None else ""
                assert "Scene" not in ann, f"{name}.{node.name} takes a scene ({a.arg}: {ann})"
            for sub in ast.walk(node):
                if isinstance(sub, ast.Assign) and isinstance(sub.value, ast.Name) and sub.value.id in ("ctx", "scene") \
                        and sub.value.id in params:
                    for t in sub.targets:
                        assert not (isinstance(t, ast.Attribute) and ast.unparse(t.value) == "self"), \
                            f"{name}.{node.name} keeps its {sub.value.id}"


@pytest.mark.parametrize("name", sorted(PARTS))
def test_a_parts_public_fields_are_documented_in_its_docstring(name: str) -> None:
    cls = _class(PARTS[name], name)
    doc = ast.get_docstring(cls) or ""
    methods = {n.name for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    public = {f for f in _defined(cls) - methods if not f.startswith("_")}
    missing = sorted(f for f in public if f not in doc)
    assert not missing, f"{name}'s docstring does not list its public fields {missing}"
    assert public or "No public fields" in doc


def test_the_scene_touches_no_private_field_of_its_parts() -> None:
    for path in sorted(AIL.parent.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__") \
                    and isinstance(node.value, ast.Attribute) and node.value.attr in PART_FIELDS:
                raise AssertionError(f"{path.name}:{node.lineno} reads {ast.unparse(node)}")


def test_the_scene_builds_its_parts_itself() -> None:
    init = next(n for n in _class("battle.py", "BattleScene").body
                if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    made = {t.attr: ast.unparse(n.value.func) for n in ast.walk(init) if isinstance(n, ast.Assign)
            and isinstance(n.value, ast.Call) for t in n.targets if isinstance(t, ast.Attribute)}
    assert {made[f] for f in PART_FIELDS} == set(PARTS)
