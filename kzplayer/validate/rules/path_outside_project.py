"""A file reference that leaves the project folder (refused).

A custom material's shader, the files its shaders `#include` (which may also come from
kzplayer's shader library; reported as `shader.compile` where the include is), a
`Particle.Texture` and the item files of a folder project must lie inside the project's
folder: a project is self-contained and cannot read arbitrary files. An absolute path, a
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

# Shaders and item files: found while loading, reported as found. Textures: checked here.


def check(context):
    from kzplayer.project.files import Outside, inside, project_folder
    from kzplayer.validate.engine import Problem
    from kzplayer.validate.rules.file_texture_missing import textures
    base = project_folder(context.project)
    for item, name, spot in textures(context):
        try:
            inside(base, name, [base], f"the Particle.Texture of '{item.name}' ({name})")
        except Outside as exc:
            yield Problem(spot, str(exc), "copy the image into the project folder and name it by a "
                                          "path relative to the project file")
