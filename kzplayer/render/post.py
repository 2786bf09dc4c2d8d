"""What the picture does with the linear frame before it is 8 bits: exposure, bloom and tone
mapping, read from the project's first Scene node (the catalog's Scene.* entries).

    settings = post_settings(project, value)       # PostSettings; .active False: today's picture

The default (no exposure, no bloom, ToneMapping None) is the plain resolve: the float image
clamped and sRGB-encoded, byte for byte what kzplayer drew before these existed. Otherwise
(render/bloom.py, shaders/render/resolve.frag.glsl):

    hdr     = frame x 2^Exposure
    bright  = max(hdr - BloomThreshold, 0)                  per channel
    bloom   = bright blurred by a Gaussian of sigma = BloomRadius x picture height
    picture = sRGB(tonemap(hdr + BloomIntensity x bloom))

tonemap: None = clamp to [0, 1]; ACES = Narkowicz's fit of the ACES filmic curve (2015),
x (2.51 x + 0.03) / (x (2.43 x + 0.59) + 0.14), clamped to [0, 1].
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from kzplayer.values import as_float

TONE_MAPPINGS = ("None", "ACES")


@dataclass(frozen=True)
class PostSettings:
    tone_mapping: str = "None"
    exposure: float = 0.0            # stops
    bloom_intensity: float = 0.0
    bloom_threshold: float = 1.0
    bloom_radius: float = 0.02       # sigma, a fraction of the picture's height

    @property
    def bloom(self) -> bool:
        return self.bloom_intensity > 0.0 and self.bloom_radius > 0.0

    @property
    def active(self) -> bool:
        """False: the plain resolve (clamp + sRGB), today's picture exactly."""
        return self.tone_mapping != "None" or self.exposure != 0.0 or self.bloom

    @property
    def scale(self) -> float:
        return 2.0 ** self.exposure


def _number(value, default: float, low: float, high: float) -> float:
    v = as_float(value, default)
    return min(max(v, low), high) if math.isfinite(v) else default


def post_settings(project, value) -> PostSettings:
    """The first Scene node's settings; `value(item, name)` reads after bindings (catalog
    defaults where unset). No Scene node: the defaults."""
    for item in project.walk():
        if item.type != "Scene":
            continue
        tone = str(value(item, "Scene.ToneMapping") or "None")
        return PostSettings(tone_mapping=tone if tone in TONE_MAPPINGS else "None",
                            exposure=_number(value(item, "Scene.Exposure"), 0.0, -16.0, 16.0),
                            bloom_intensity=_number(value(item, "Scene.BloomIntensity"), 0.0, 0.0, 1e6),
                            bloom_threshold=_number(value(item, "Scene.BloomThreshold"), 1.0, 0.0, 1e30),
                            bloom_radius=_number(value(item, "Scene.BloomRadius"), 0.02, 0.0, 0.25))
    return PostSettings()


def aces(x):
    """Narkowicz's ACES fit, on NumPy arrays (the tests' truth; the shader is tonemap.glsl)."""
    x = np.asarray(x, float)
    return np.clip(x * (2.51 * x + 0.03) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0)
