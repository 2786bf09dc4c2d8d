"""An image file that cannot be drawn (an error).

`Particle.Texture`, `Model3D.Texture` and `FanLight.Gradient` name an image file (PNG or
JPEG, told by its first bytes) relative to the project file. kzplayer reports one that is
missing, lies outside the project folder, is a pipe, device or folder, is larger than its
limits (docs/hardening.md) or past the project's texture memory budget, or is no image it
can read; the player then draws the particle's round
sprite, the model's colour alone, or a fan light's gradient from the particle's colour.

To fix: name an image inside the project folder, relative to the project file.

Failing:

    <Property name="Particle.Texture">textures/smok.png</Property>

Passing:

    <Property name="Particle.Texture">textures/smoke.png</Property>
"""
from kzplayer.diagnostics import Severity
from kzplayer.meshes import MeshError, inside_project
from kzplayer.render.textures import BUDGET_BYTES, gpu_bytes, image_size, read_image
from kzplayer.validate.context import value_span
from kzplayer.validate.engine import Problem

CODE = "KZ702"
RULE = "texture.unreadable"
SEVERITY = Severity.ERROR
PROPERTIES = ("Particle.Texture", "Model3D.Texture", "FanLight.Gradient")


def check(context):
    seen: dict = {}                   # real path -> GPU bytes: the budget counts each file once
    for item in context.items:
        for name in PROPERTIES:
            prop = item.properties.get(name)
            if prop is None or not isinstance(prop.value, str) or not prop.value.strip():
                continue
            try:
                path = inside_project(context.project, prop.value)
                width, height = image_size(path)
                if path not in seen:
                    seen[path] = gpu_bytes(width, height)
                    if sum(seen.values()) > BUDGET_BYTES:
                        yield Problem(value_span(prop), f"{name}: {prop.value}: its {width}x{height} pixels take "
                                      f"the project's textures past their {BUDGET_BYTES >> 20:,} MiB budget "
                                      f"({sum(seen.values()) >> 20:,} MiB); play draws it without the image",
                                      "use smaller images (a particle sprite needs no more than 512x512)")
            except MeshError as exc:
                yield Problem(value_span(prop), f"{name}: {exc}", "name an image inside the project folder")
            except (OSError, ValueError) as exc:
                why = "no such file" if isinstance(exc, FileNotFoundError) else f"not a readable image ({exc})"
                yield Problem(value_span(prop), f"{name}: {prop.value}: {why}",
                              "name a PNG or JPEG file relative to the project file")
