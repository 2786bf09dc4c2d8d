"""A file reference that leaves the project folder (refused).

A custom material's shader, the files its shaders `#include` (which may also come from
kzplayer's shader library; reported as `shader.compile` where the include is), the item
files of a folder project (and textures and meshes: `texture.unreadable`,
`mesh.unreadable`) must lie inside the project's folder: a project is self-contained and
cannot read arbitrary files. An absolute path, a
`..` that leaves the folder and a symbolic link that points out of it are refused before
the file is opened, and no message shows what the file holds.

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

# No check(): found while loading; the engine reports it as found (textures: texture.unreadable).
