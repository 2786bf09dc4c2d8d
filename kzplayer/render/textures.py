"""Textures: image files as the renderer samples them.

Images hold sRGB colour with straight (unassociated) alpha, as painted. Each is decoded to
linear light, premultiplied by its alpha, and uploaded as 16-bit float RGBA with a full
mipmap chain: premultiplied linear texels filter and mip-average correctly (no dark fringes
round a sprite's edge, no darkening of a minified texture), and the blend that follows is
then `ONE, ONE_MINUS_SRC_ALPHA` for alpha and `ONE, ONE` for additive. Trilinear filtering;
particle sprites clamp to their edge and are not filtered anisotropically (a billboard faces
the camera: 8x anisotropy bought nothing there and cost 1.8x the textured fill on llvmpipe),
scene textures (floors seen at grazing angles) repeat, 4x anisotropic.

Files are named relative to the project and must lie inside its folder (kzplayer.meshes
inside_project); an unreadable or refused image is reported once and drawn as the material
would draw without one.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

MAX_SIDE = 8192


def srgb_to_linear(c: np.ndarray) -> np.ndarray:
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(c: np.ndarray) -> np.ndarray:
    c = np.clip(c, 0.0, 1.0)
    return np.where(c <= 0.0031308, c * 12.92, 1.055 * c ** (1 / 2.4) - 0.055)


def premultiplied_linear(rgba8: np.ndarray) -> np.ndarray:
    """(H, W, 4) uint8 sRGB + straight alpha -> float32 linear, premultiplied."""
    f = rgba8.astype(np.float32) / 255.0
    out = np.empty_like(f)
    out[..., :3] = srgb_to_linear(f[..., :3]) * f[..., 3:4]
    out[..., 3] = f[..., 3]
    return out


def read_image(path: str | Path) -> np.ndarray:
    """(H, W, 4) uint8 RGBA, top row first; OSError/ValueError when it cannot be read."""
    from PIL import Image
    with Image.open(path) as img:
        if max(img.size) > MAX_SIDE:
            raise ValueError(f"{img.size[0]}x{img.size[1]} is larger than {MAX_SIDE} pixels a side")
        return np.asarray(img.convert("RGBA"))


class TextureCache:
    """GL textures by (file, repeat), made once."""

    def __init__(self, ctx):
        self.ctx = ctx
        self._textures: dict[tuple, object] = {}
        self.problems: dict[str, str] = {}          # file -> why it is not drawn

    def get(self, path: str | Path, repeat: bool = False):
        key = (str(path), repeat)
        if key not in self._textures:
            self._textures[key] = self._load(Path(path), repeat)
        return self._textures[key]

    def _load(self, path: Path, repeat: bool):
        try:
            rgba = read_image(path)
        except (OSError, ValueError) as exc:
            self.problems[str(path)] = f"{exc.__class__.__name__}: {exc}" if str(exc) else exc.__class__.__name__
            return None
        data = premultiplied_linear(rgba)[::-1]         # GL's rows run bottom-up
        tex = self.ctx.texture((data.shape[1], data.shape[0]), 4, np.ascontiguousarray(data, np.float16).tobytes(),
                               dtype="f2")
        tex.build_mipmaps()
        tex.filter = (self.ctx.LINEAR_MIPMAP_LINEAR, self.ctx.LINEAR)
        tex.anisotropy = 4.0 if repeat else 1.0
        tex.repeat_x = tex.repeat_y = repeat
        return tex

    def release(self) -> None:
        for tex in self._textures.values():
            if tex is not None:
                tex.release()
        self._textures.clear()
