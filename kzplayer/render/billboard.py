"""The default particle material: camera-facing billboards, drawn additively.

player.md: the runtime supplies a default material, so a particle without a Particle
Material is still visible. Each emitter's Particle Data Buffer is bound as an SSBO and one
quad per pool slot is drawn instanced; the vertex shader reads the slot by gl_InstanceID
and drops dead ones, so nothing is read back to the CPU to draw a frame.

The look (docs/play.md): a soft round sprite whose width is `SPRITE_SIZE` x the particle's
scale (at least `MIN_PIXELS` wide), white-hot at birth, orange, then deep red, fading
out over the last part of its life, tinted by the particle's colour; additive on black,
no depth test (order-independent).
"""
from __future__ import annotations

import numpy as np

from kzplayer.gpu.layout import BINDING_PARTICLES

SPRITE_SIZE = 1.0     # world units across at scale 1, like a unit quad mesh
MIN_PIXELS = 1.5      # below this, particles would flicker in and out between pixels
INTENSITY = 0.6       # one particle's centre: overlaps add up towards white


class Renderer:
    """Draws emitters into an offscreen RGBA8 framebuffer of exactly `size` = (W, H).

    `draw(emitters, camera)` clears to black and draws every emitter (objects with
    `.particles`, a moderngl Buffer of Particle records, `.capacity` and an optional
    `.model` 4x4 simulation-to-world matrix); `read()` returns the image as (H, W, 3)
    uint8, top row first. `draw(..., target=fbo)` draws into another framebuffer (the
    window's) instead.
    """

    def __init__(self, ctx, size: tuple[int, int], *, sprite_size: float = SPRITE_SIZE,
                 min_pixels: float = MIN_PIXELS, intensity: float = INTENSITY):
        from kzplayer.render.shaders import build_program
        self.ctx = ctx
        self.size = (int(size[0]), int(size[1]))
        self.program = build_program(ctx, "render/billboard.vert.glsl", "render/billboard.frag.glsl")
        self.vao = ctx.vertex_array(self.program, [])
        self._color = ctx.renderbuffer(self.size, components=4)
        self.fbo = ctx.framebuffer(color_attachments=[self._color])
        self._set("u_sprite_size", sprite_size)
        self._set("u_min_pixels", min_pixels)
        self._set("u_intensity", intensity)

    def _set(self, name: str, value) -> None:
        if name in self.program:   # the driver drops uniforms a shader does not use
            self.program[name].value = value

    def _write_matrix(self, name: str, m: np.ndarray) -> None:
        if name in self.program:
            # GLSL matrices are column-major: hand over the transpose's bytes.
            self.program[name].write(np.asarray(m, dtype="f4").T.tobytes())

    def draw(self, emitters, camera, target=None) -> None:
        target = target or self.fbo
        width, height = target.viewport[2], target.viewport[3]
        previous = self.ctx.fbo
        target.use()
        target.clear(0.0, 0.0, 0.0, 1.0)
        self._write_matrix("u_view", camera.view)
        self._write_matrix("u_projection", camera.projection(width / height))
        self._set("u_viewport", (float(width), float(height)))
        ctx = self.ctx
        ctx.disable(ctx.DEPTH_TEST | ctx.CULL_FACE)
        ctx.enable(ctx.BLEND)
        ctx.blend_func = ctx.ONE, ctx.ONE
        ctx.blend_equation = ctx.FUNC_ADD
        try:
            for em in emitters:
                if not em.capacity:
                    continue
                model = getattr(em, "model", None)
                self._write_matrix("u_model", np.eye(4) if model is None else model)
                em.particles.bind_to_storage_buffer(BINDING_PARTICLES)
                self.vao.render(ctx.TRIANGLE_STRIP, vertices=4, instances=int(em.capacity))
        finally:
            ctx.disable(ctx.BLEND)
            # Leave the framebuffer binding as found (the default one, 0, when there was
            # none): moderngl rebinds ctx.fbo after creating framebuffers, and a released
            # one would then be a deleted name (GL_INVALID_OPERATION).
            if previous is not target:
                (previous or self.ctx.detect_framebuffer(0)).use()

    def read(self) -> np.ndarray:
        """The last drawn image, (H, W, 3) uint8, top row first (GL's rows run bottom-up)."""
        data = self.fbo.read(components=3, alignment=1)
        img = np.frombuffer(data, dtype=np.uint8).reshape(self.size[1], self.size[0], 3)
        return np.ascontiguousarray(img[::-1])

    def release(self) -> None:
        for obj in ("vao", "program", "fbo", "_color"):
            res = getattr(self, obj, None)
            if res is not None:
                res.release()
                setattr(self, obj, None)
