"""A particle texture that is not there.

`Particle.Texture` names an image file relative to the project file (`sparks/spark.png`).
When the file is missing (or is a folder, or is not an image kzplayer can read), the
particles are drawn with the default round sprite instead, which looks plausible enough to
go unnoticed: this warning says so. A texture outside the project folder is refused
(`path.outside-project`).

To fix: put the image at the path the message gives, or correct the path.

Failing (no `spark.png` beside the project file):

    <Property name="Particle.Texture">spark.png</Property>

Passing (the file is there):

    <Property name="Particle.Texture">spark.png</Property>
"""
import os

from kzplayer.diagnostics import Severity
from kzplayer.validate.engine import Problem

CODE = "KZ011"
RULE = "file.texture-missing"
SEVERITY = Severity.WARNING


def check(context):
    from kzplayer.project.files import Outside, inside, is_file, project_folder
    base = project_folder(context.project)
    for item, name, spot in textures(context):
        try:
            path = inside(base, name, [base])
        except Outside:
            continue                 # path.outside-project says so
        if is_file(path) and _readable_image(path):
            continue
        why = ("cannot be read as an image" if is_file(path) else
               "is a folder" if os.path.isdir(path) else "is missing")
        yield Problem(spot, f"Particle.Texture of '{item.name}': {path} {why}; its particles are "
                            "drawn as the default round sprite",
                      "put the image there, or correct the path (relative to the project file)")


def textures(context):
    """(item, texture name, span) of every non-empty Particle.Texture, after bindings."""
    from kzplayer.validate.context import value_span
    for item in context.emitters:
        value = context.value(item, "Particle.Texture")
        if not isinstance(value, str) or not value.strip():
            continue
        prop = item.properties.get("Particle.Texture")
        writers = context.bindings_into(item, "Particle.Texture")
        spot = writers[0][1].target_span if writers else (value_span(prop) if prop else item.span)
        yield item, value.strip(), spot or item.span


def _readable_image(path) -> bool:
    try:
        from PIL import Image
        with Image.open(path) as img:
            img.verify()
        return True
    except Exception:           # any reason Pillow cannot read it: the sprite is drawn instead
        return False
