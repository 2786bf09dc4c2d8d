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

import os
from pathlib import Path

import numpy as np
from kzplayer.project.files import read_regular

# Formats are chosen by their first bytes, never by the name, and decoded by Pillow's own
# PNG and JPEG decoders only (no plugin that hands bytes to an external program: EPS).
SIGNATURES = {b"\x89PNG\r\n\x1a\n": "PNG", b"\xff\xd8\xff": "JPEG"}
MAX_SIDE = 8192                    # pixels a side
MAX_PIXELS = 8192 * 8192           # pixels an image (a decompression bomb is refused before it is decoded)
MAX_FILE_BYTES = 64 << 20          # bytes a file
BUDGET_BYTES = 1 << 30             # GPU texture memory of a project (RGBA16F with mipmaps): one 8192^2 fits
_DECODE_CACHE_BYTES = 512 << 20    # decoded images kept for a second use in a run


def gpu_bytes(width: int, height: int) -> int:
    """What a texture takes on the GPU: RGBA 16-bit float with its mipmap chain (4/3)."""
    return width * height * 8 * 4 // 3


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


def _key(path: str | Path):
    st = os.stat(path)
    return (os.path.realpath(path), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


_decoded: dict[tuple, np.ndarray] = {}
_sizes: dict[tuple, tuple[int, int] | str] = {}       # key -> (w, h) or why it cannot be read


def _decode(path: str | Path) -> np.ndarray:
    from PIL import Image
    import io
    data = read_regular(path, MAX_FILE_BYTES, "the image")
    kind = next((k for sig, k in SIGNATURES.items() if data.startswith(sig)), None)
    if kind is None:
        raise ValueError("not a PNG or JPEG image (kzplayer reads only these two, by their first bytes)")
    if kind == "PNG" and data[12:16] == b"IHDR":       # the size, before Pillow looks at it
        _check_size(int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big"))
    try:
        with Image.open(io.BytesIO(data), formats=[kind]) as img:
            _check_size(*img.size)
            img.load()
            return _to_rgba8(img)
    except ValueError:
        raise
    except Exception as exc:        # Pillow's decoders raise what they meet (SyntaxError, EOFError, zlib ...)
        why = str(exc).splitlines()[0][:200] if str(exc) else exc.__class__.__name__
        raise ValueError(f"not a readable {kind} image ({why})") from None


def _check_size(w: int, h: int) -> None:
    if max(w, h) > MAX_SIDE or w * h > MAX_PIXELS:
        raise ValueError(f"{w}x{h} is larger than an image may be ({MAX_SIDE} pixels a side)")


def _to_rgba8(img) -> np.ndarray:
    """(H, W, 4) uint8 RGBA. 16-bit greyscale (Pillow's I;16 and I modes) is scaled to 8 bits,
    not clipped (clipping drew it white); palette and grey images with transparency keep it."""
    if img.mode in ("I;16", "I;16B", "I;16L", "I;16N", "I"):
        grey = np.asarray(img).astype(np.uint32)
        top = 65535                     # only a 16-bit PNG opens in these modes
        grey8 = (np.clip(grey, 0, top) * 255 + top // 2) // top
        out = np.empty(grey.shape + (4,), np.uint8)
        out[..., :3] = grey8[..., None]
        out[..., 3] = 255
        return out
    if img.mode == "F":
        grey = np.clip(np.nan_to_num(np.asarray(img)), 0, 1)
        return np.repeat((grey * 255 + 0.5).astype(np.uint8)[..., None], 4, axis=2)
    if img.mode == "P" and "transparency" in img.info:
        img = img.convert("PA")
    return np.asarray(img.convert("RGBA"))


def read_image(path: str | Path) -> np.ndarray:
    """(H, W, 4) uint8 RGBA, top row first; OSError/ValueError when it cannot be read.
    Decoded once per file and run (by real path, inode, size and modification time)."""
    key = _key(path)
    if isinstance(_sizes.get(key), str):
        raise ValueError(_sizes[key])
    if key in _decoded:
        return _decoded[key]
    try:
        rgba = _decode(path)
    except ValueError as exc:
        _sizes[key] = str(exc)
        raise
    _sizes[key] = (rgba.shape[1], rgba.shape[0])
    while _decoded and sum(a.nbytes for a in _decoded.values()) + rgba.nbytes > _DECODE_CACHE_BYTES:
        _decoded.pop(next(iter(_decoded)))
    if rgba.nbytes <= _DECODE_CACHE_BYTES:
        _decoded[key] = rgba
    return rgba


def image_size(path: str | Path) -> tuple[int, int]:
    """(width, height) of a readable image (read_image decodes it, once)."""
    key = _key(path)
    if not isinstance(_sizes.get(key), tuple):
        read_image(path)
    return _sizes[key]


class TextureCache:
    """GL textures by (file, repeat), made once."""

    def __init__(self, ctx):
        self.ctx = ctx
        self._textures: dict[tuple, object] = {}
        self.problems: dict[str, str] = {}          # file -> why it is not drawn
        self.used = 0                               # GPU bytes of the textures made

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
        need = gpu_bytes(rgba.shape[1], rgba.shape[0])
        if self.used + need > BUDGET_BYTES:
            self.problems[str(path)] = (f"{rgba.shape[1]}x{rgba.shape[0]} would take the project's textures past "
                                        f"their {BUDGET_BYTES >> 20:,} MiB budget ({self.used >> 20:,} MiB used)")
            return None
        self.used += need
        data = np.empty(rgba.shape, np.float16)         # in bands: a large image never as float32 whole
        for top in range(0, rgba.shape[0], 512):
            data[top:top + 512] = premultiplied_linear(rgba[top:top + 512])
        tex = self.ctx.texture((data.shape[1], data.shape[0]), 4, np.ascontiguousarray(data[::-1]).tobytes(),
                               dtype="f2")              # GL's rows run bottom-up
        tex.build_mipmaps()
        tex.filter = (self.ctx.LINEAR_MIPMAP_LINEAR, self.ctx.LINEAR)
        tex.anisotropy = 4.0 if repeat else 1.0
        tex.repeat_x = tex.repeat_y = repeat
        return tex

    def forget(self, files) -> int:
        """Drop the textures of `files` (a live save of an image: read again when next
        drawn, nothing else reloaded); returns how many."""
        files = {os.path.realpath(f) for f in files}
        gone = [key for key in self._textures if os.path.realpath(key[0]) in files]
        for key in gone:
            tex = self._textures.pop(key)
            if tex is not None:
                self.used -= gpu_bytes(*tex.size)
                tex.release()
            self.problems.pop(key[0], None)
        return len(gone)

    def release(self) -> None:
        for tex in self._textures.values():
            if tex is not None:
                tex.release()
        self._textures.clear()
