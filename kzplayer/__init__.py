"""kzplayer: read, validate and play Kanzi-style particle projects.

    import kzplayer
    project = kzplayer.load("effect.kzm")          # or a project folder, or a .kzproj
    kzplayer.validate.validate_paths(["effect.kzm"]).diagnostics     # what validate finds
    nozzle = project.find("Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Nozzle")
    nozzle.get("Emission.Rate")                    # typed, catalog default where unset
    nozzle.set("Emission.Rate", 800)
    project.save()                                 # only that value's text changes
    kzplayer.render("effect.kzm", "take.mp4", seconds=3, seed=7)   # what `kzplayer play` writes
    with kzplayer.Player("effect.kzm", size=(320, 180)) as player:   # frames as numpy arrays
        player.seek(1.5)
        image = player.frame()
"""
from __future__ import annotations

import importlib
from pathlib import Path

from kzplayer.diagnostics import Diagnostic, KzError, Severity, Span
from kzplayer.project.loader import load, load_project
from kzplayer.project.model import Alias, Binding, BindingSource, Item, Project, Property
from kzplayer.resources import samples_dir
from kzplayer.values import (BufferHandle, Color4, EnumValue, ItemRef, MaterialRef, Matrix, Srt2D,
                             Srt3D, Vector, type_name)

# The stages, reachable from `import kzplayer` alone (kzplayer.validate.validate_paths, ...),
# imported when first used so that `import kzplayer` stays light.
_SUBPACKAGES = ("batch", "bindings", "commands", "effecttest", "expr", "gpu", "projdiff", "project", "render",
                "scene", "validate")


def __getattr__(name: str):
    if name in _SUBPACKAGES:                 # kzplayer.render is also callable: render/__init__.py
        return importlib.import_module(f"kzplayer.{name}")
    if name == "Player":                     # the scripts' player (render/scripting.py), loaded on first use
        return importlib.import_module("kzplayer.render.scripting").Player
    raise AttributeError(f"module 'kzplayer' has no attribute {name!r}")


def sample(name: str = "demo_fountain.kzm") -> Path:
    """The path of a built-in sample project (sample_projects/NAME), to copy and start from."""
    path = samples_dir() / name
    if not path.exists():
        known = ", ".join(sorted(p.name for p in samples_dir().glob("*.kzm")))
        raise FileNotFoundError(f"no sample named {name!r}; the samples are: {known}")
    return path


__all__ = ["load", "load_project", "sample", "render", "Player", "validate", "bindings", "expr", "Project", "Item", "Property", "Binding", "BindingSource",
           "Alias", "Diagnostic", "KzError", "Severity", "Span", "Vector", "Color4", "Srt3D",
           "Srt2D", "Matrix", "EnumValue", "ItemRef", "MaterialRef", "BufferHandle", "type_name"]
