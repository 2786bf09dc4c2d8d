"""The images a frame is drawn into, and how the picture leaves them.

The frame is blended into a 32-bit float colour target with its depth, in linear light: an
8-bit target would round after every blend (thousands of faint additive sprites would sum
wrongly) and blending sRGB values is not how light adds. The opaque scene's depth is copied
as view distance into `scene_depth` for soft particles and lens flares (the depth
attachment cannot be sampled while it is tested). `resolve(target)` clamps the float image
and encodes it as sRGB into an 8-bit framebuffer: the renderer's own (`read()`) or the
window's.
"""
from __future__ import annotations

import moderngl
import numpy as np

from kzplayer.render.shaders import set_uniform


class EmptyVaos:
    """Vertex arrays without attributes, one per program: draws whose vertex shader makes its
    vertices from gl_VertexID (full-screen passes, billboards, representations)."""

    def __init__(self, ctx):
        self.ctx = ctx
        self._vaos: dict[int, object] = {}

    def of(self, program):
        key = id(program)
        if key not in self._vaos:
            self._vaos[key] = self.ctx.vertex_array(program, [])
        return self._vaos[key]

    def release(self) -> None:
        for vao in self._vaos.values():
            vao.release()
        self._vaos.clear()


class FrameTargets:
    """The float colour + depth framebuffer of exactly `size` = (W, H), the scene-depth copy
    and the 8-bit picture; `resize()` remakes them only when the size changes."""

    def __init__(self, ctx, programs, vaos: EmptyVaos, size: tuple[int, int]):
        self.ctx = ctx
        self.programs = programs
        self.vaos = vaos
        self.resolve_program = programs.render("render/resolve.vert.glsl", "render/resolve.frag.glsl")
        self.size = None
        self.fbo = self.out_fbo = None
        self._objects = []
        self.resize(size)

    def resize(self, size: tuple[int, int]) -> None:
        size = (int(size[0]), int(size[1]))
        if self.fbo is not None and size == self.size:
            return
        for obj in self._objects:
            obj.release()
        self.size = size
        ctx = self.ctx
        self.color = ctx.texture(size, 4, dtype="f4")
        self.color.filter = (ctx.NEAREST, ctx.NEAREST)
        self.depth = ctx.depth_texture(size)
        self.depth.filter = (ctx.NEAREST, ctx.NEAREST)
        self.fbo = ctx.framebuffer(color_attachments=[self.color], depth_attachment=self.depth)
        # the opaque scene's view distance, for soft particles (copied after the opaque passes)
        self.scene_depth = ctx.texture(size, 1, dtype="f4")
        self.scene_depth.filter = (ctx.NEAREST, ctx.NEAREST)
        self.scene_depth_fbo = ctx.framebuffer(color_attachments=[self.scene_depth])
        self.out = ctx.renderbuffer(size, components=4)
        self.out_fbo = ctx.framebuffer(color_attachments=[self.out])
        self._objects = [self.out_fbo, self.out, self.scene_depth_fbo, self.scene_depth, self.fbo, self.depth,
                         self.color]

    def copy_scene_depth(self, depth_range) -> None:
        """The opaque scene's depth as view distance into scene_depth (soft particles read
        it; the depth attachment itself cannot be sampled while it is being tested)."""
        ctx = self.ctx
        program, initial = self.programs.render("render/resolve.vert.glsl", "render/scene_depth.frag.glsl")
        self.scene_depth_fbo.use()
        ctx.disable(ctx.DEPTH_TEST)
        self.depth.use(location=0)
        set_uniform(program, initial, "kz_depth", 0)
        set_uniform(program, initial, "kz_depthRange", depth_range)
        self.vaos.of(program).render(moderngl.TRIANGLES, vertices=3)
        self.fbo.use()
        ctx.enable(ctx.DEPTH_TEST)

    def resolve(self, target) -> None:
        """The float image, clamped and sRGB-encoded, into the framebuffer `target`."""
        ctx = self.ctx
        previous = ctx.fbo
        program, initial = self.resolve_program
        target.use()
        ctx.disable(ctx.BLEND | ctx.DEPTH_TEST | ctx.CULL_FACE)
        self.color.use(location=0)
        set_uniform(program, initial, "kz_image", 0)
        self.vaos.of(program).render(moderngl.TRIANGLES, vertices=3)
        (previous or ctx.detect_framebuffer(0)).use()

    def read(self) -> np.ndarray:
        """The last drawn image, (H, W, 3) uint8 sRGB, top row first (GL's rows run bottom-up)."""
        self.out_fbo.viewport = (0, 0, *self.size)
        self.resolve(self.out_fbo)
        data = self.out_fbo.read(components=3, alignment=1)
        return np.frombuffer(data, dtype=np.uint8).reshape(self.size[1], self.size[0], 3)[::-1].copy()

    def read_linear(self) -> np.ndarray:
        """The last drawn image before the sRGB encode, (H, W, 3) float32 linear (tests)."""
        data = self.color.read()
        return np.frombuffer(data, dtype=np.float32).reshape(self.size[1], self.size[0], 4)[::-1, :, :3].copy()

    def release(self) -> None:
        for obj in self._objects:
            obj.release()
        self._objects = []
