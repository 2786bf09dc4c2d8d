"""A file reference that leaves the project folder (refused).

A custom material's shader and the item files of a folder project must lie inside the
project's folder: a project is self-contained and cannot read arbitrary files.

To fix: copy the file into the project folder and name it by a path relative to the project
file.

Failing:

    <MaterialType name="Swirl" slot="Affector" shader="../../elsewhere/swirl.glsl"/>

Passing:

    <MaterialType name="Swirl" slot="Affector" shader="shaders/swirl.glsl"/>
"""
from kzplayer.diagnostics import Severity

CODE = "KZ008"
RULE = "path.outside-project"
SEVERITY = Severity.ERROR

# No check(): found while loading; the engine reports it as found.
