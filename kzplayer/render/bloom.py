"""Bloom on the GPU (render/post.py says what it computes): a downsampled blur chain.

    1  bright pass: the frame's light above the threshold (after exposure), full size, RGBA16F
    2  its mipmaps (glGenerateMipmap: 2x2 box averages) down to the level L where the halo's
       sigma is at most 3 texels
    3  a separable Gaussian at level L (two passes, render/bloom_blur.frag.glsl)
    4  the resolve samples it bilinearly, full size, and adds BloomIntensity x it

The box averages and the bilinear upsampling blur too (a variance of (n^2 - 1) / 4 pixels^2
for n = 2^L together), so the Gaussian at level L is that much narrower: the halo's sigma is
BloomRadius x height in full-size pixels. Averages and a normalised kernel move light without
adding any, so the halo holds exactly the light above the threshold (away from the edges,
where the blur clamps).
"""
from __future__ import annotations

import math

import moderngl

from kzplayer.render.shaders import set_uniform

MAX_TEXELS_SIGMA = 3.0       # a larger halo is blurred at a smaller mip level


def blur_level(sigma: float, size: tuple[int, int]) -> tuple[int, float]:
    """(mip level L, the Gaussian's sigma in level-L texels) for a halo of `sigma` pixels."""
    level = max(0, math.ceil(math.log2(sigma / MAX_TEXELS_SIGMA))) if sigma > MAX_TEXELS_SIGMA else 0
    level = min(level, max(int(math.log2(max(min(size), 1))), 0))
    n = 2 ** level
    return level, math.sqrt(max(sigma * sigma - (n * n - 1) / 4.0, 0.25)) / n


class Bloom:
    """The bright image with its mipmaps and the two blur images of the level used; made on
    first use, remade when the size or the level changes."""

    def __init__(self, ctx, programs, vaos):
        self.ctx = ctx
        self.programs = programs
        self.vaos = vaos
        self._size = None
        self._level = None
        self._objects = []

    def _targets(self, size: tuple[int, int], level: int) -> None:
        if (self._size, self._level) == (size, level):
            return
        self.release()
        ctx = self.ctx
        self.bright = ctx.texture(size, 4, dtype="f2")
        self.bright_fbo = ctx.framebuffer(color_attachments=[self.bright])
        small = (max(size[0] >> level, 1), max(size[1] >> level, 1))
        self.ping = ctx.texture(small, 4, dtype="f2")
        self.pong = ctx.texture(small, 4, dtype="f2")
        for t in (self.ping, self.pong):
            t.repeat_x = t.repeat_y = False
        self.pong.filter = (ctx.LINEAR, ctx.LINEAR)
        self.ping_fbo = ctx.framebuffer(color_attachments=[self.ping])
        self.pong_fbo = ctx.framebuffer(color_attachments=[self.pong])
        self._objects = [self.ping_fbo, self.pong_fbo, self.bright_fbo, self.ping, self.pong, self.bright]
        self._size, self._level = size, level

    def _pass(self, fbo, fragment: str, uniforms: dict, texture) -> None:
        program, initial = self.programs.render("render/resolve.vert.glsl", fragment)
        fbo.use()
        texture.use(location=0)
        for name, value in uniforms.items():
            set_uniform(program, initial, name, value)
        self.vaos.of(program).render(moderngl.TRIANGLES, vertices=3)

    def run(self, image, size: tuple[int, int], settings):
        """The blurred bright pass of `image` (the frame's float colour texture); returns the
        texture the resolve samples."""
        ctx = self.ctx
        level, sigma = blur_level(settings.bloom_radius * size[1], size)
        self._targets(size, level)
        ctx.disable(ctx.BLEND | ctx.DEPTH_TEST | ctx.CULL_FACE)
        self._pass(self.bright_fbo, "render/bloom_bright.frag.glsl",
                   {"kz_image": 0, "kz_exposureScale": settings.scale,
                    "kz_threshold": float(settings.bloom_threshold)}, image)
        if level:
            self.bright.build_mipmaps(0, level)
        self._pass(self.ping_fbo, "render/bloom_blur.frag.glsl",
                   {"kz_source": 0, "kz_level": level, "kz_direction": (1, 0), "kz_sigma": sigma}, self.bright)
        self._pass(self.pong_fbo, "render/bloom_blur.frag.glsl",
                   {"kz_source": 0, "kz_level": 0, "kz_direction": (0, 1), "kz_sigma": sigma}, self.ping)
        return self.pong

    def release(self) -> None:
        for obj in self._objects:
            obj.release()
        self._objects = []
        self._size = self._level = None
