"""The few OpenGL calls moderngl does not wrap: texel-buffer textures over existing buffers
and binding them to image units (glTexBuffer, glBindImageTexture).

The simulation reads and writes its particle buffers as `uimageBuffer`s: an image load or
store moves a whole 16-byte texel, where a CPU rasteriser (Mesa's llvmpipe) runs every
4-byte lane of a storage-block access through a loop of its own (3-4x slower for a particle
step, docs/benchmarks.md); GPUs serve both from the same memory at the same speed. The
buffers stay ordinary moderngl buffers, bound as storage blocks for drawing.

`TexelBuffers.available(ctx)` is False when the entry points cannot be found or the
driver's GL_MAX_TEXTURE_BUFFER_SIZE is too small; the simulation then uses storage blocks.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import sys

GL_TEXTURE_BUFFER = 0x8C2A
GL_TEXTURE0 = 0x84C0
GL_RGBA32F = 0x8814
GL_RGBA32UI = 0x8D70
GL_R32UI = 0x8236
GL_READ_WRITE = 0x88BA

_FORMATS = {"rgba32ui": (GL_RGBA32UI, 16), "r32ui": (GL_R32UI, 4), "rgba32f": (GL_RGBA32F, 16)}


class _Entry:
    """The GL functions, resolved once from the platform's GL library."""

    def __init__(self):
        lib = _library()
        self.ok = lib is not None
        if not self.ok:
            return
        u, i, b = ctypes.c_uint, ctypes.c_int, ctypes.c_ubyte

        def fn(name, *args):
            f = getattr(lib, name)
            f.argtypes, f.restype = list(args), None
            return f
        try:
            self.gen_textures = fn("glGenTextures", i, ctypes.POINTER(u))
            self.delete_textures = fn("glDeleteTextures", i, ctypes.POINTER(u))
            self.bind_texture = fn("glBindTexture", u, u)
            self.tex_buffer = fn("glTexBuffer", u, u, u)
            self.bind_image_texture = fn("glBindImageTexture", u, u, i, b, i, u, u)
            self.active_texture = fn("glActiveTexture", u)
        except AttributeError:
            self.ok = False


def _library():
    names = ["libOpenGL.so.0", "libGL.so.1", ctypes.util.find_library("OpenGL"), ctypes.util.find_library("GL")]
    if sys.platform == "win32":
        return None         # opengl32.dll exports GL 1.1 only: storage blocks are used there
    for name in names:
        if not name:
            continue
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    return None


_entry: _Entry | None = None


def _gl() -> _Entry:
    global _entry
    if _entry is None:
        _entry = _Entry()
    return _entry


class TexelBuffer:
    """A buffer texture over a moderngl buffer, in one image format."""

    def __init__(self, buffer, fmt: str):
        gl = _gl()
        self.format, self.texel = _FORMATS[fmt]
        name = ctypes.c_uint(0)
        gl.gen_textures(1, ctypes.byref(name))
        gl.bind_texture(GL_TEXTURE_BUFFER, name.value)
        gl.tex_buffer(GL_TEXTURE_BUFFER, self.format, buffer.glo)
        gl.bind_texture(GL_TEXTURE_BUFFER, 0)
        self.name = name.value

    def bind(self, unit: int) -> None:
        _gl().bind_image_texture(unit, self.name, 0, 0, 0, GL_READ_WRITE, self.format)

    def bind_texture(self, unit: int) -> None:
        """For a samplerBuffer (texelFetch, read-only) at texture unit `unit`."""
        gl = _gl()
        gl.active_texture(GL_TEXTURE0 + unit)
        gl.bind_texture(GL_TEXTURE_BUFFER, self.name)

    def release(self) -> None:
        if self.name:
            name = ctypes.c_uint(self.name)
            _gl().delete_textures(1, ctypes.byref(name))
            self.name = 0


def available(ctx, texels_needed: int = 0) -> bool:
    """Can this context give the simulation texel-buffer images of `texels_needed` texels?"""
    if not _gl().ok:
        return False
    # GL 4.3 guarantees compute shaders 8 image uniforms and 8 image units: 6 are used
    limit = int(ctx.info.get("GL_MAX_TEXTURE_BUFFER_SIZE", 0) or 0)
    return limit >= max(texels_needed, 65536)
