"""kzplayer: read, validate and play Kanzi-style particle projects.

    import kzplayer
    project = kzplayer.load("effect.kzm")          # or a project folder, or a .kzproj
    nozzle = project.find("Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Nozzle")
    nozzle.get("Emission.Rate")                    # typed, catalog default where unset
    nozzle.set("Emission.Rate", 800)
    project.save()                                 # only that value's text changes
"""
from __future__ import annotations

from kzplayer.diagnostics import Diagnostic, KzError, Severity, Span
from kzplayer.project.loader import load, load_project
from kzplayer.project.model import Alias, Binding, BindingSource, Item, Project, Property
from kzplayer.values import (BufferHandle, Color4, EnumValue, ItemRef, MaterialRef, Matrix, Srt2D,
                             Srt3D, Vector, type_name)

__all__ = ["load", "load_project", "Project", "Item", "Property", "Binding", "BindingSource",
           "Alias", "Diagnostic", "KzError", "Severity", "Span", "Vector", "Color4", "Srt3D",
           "Srt2D", "Matrix", "EnumValue", "ItemRef", "MaterialRef", "BufferHandle", "type_name"]
