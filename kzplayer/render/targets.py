"""The images a frame is drawn into, and how the picture leaves them.

The frame is blended into a 32-bit float colour target with its depth, in linear light: an
8-bit target would round after every blend (thousands of faint additive sprites would sum
wrongly) and blending sRGB values is not how light adds. The opaque scene's depth is copied
as view distance into `scene_depth` for soft particles and lens flares (the depth
attachment cannot be sampled while it is tested). `resolve(target)` clamps the float image
and encodes it as sRGB into an 8-bit framebuffer: the renderer's own (`read()`) or the
window's; with the Scene's post settings (render/post.py) it applies exposure, bloom
(render/bloom.py) and the tone curve on the way.

With `samples` > 1 (--msaa) the frame is drawn into multisampled renderbuffers (colour and
depth) and resolved into the single-sampled textures: the depth before the scene-depth copy,
the colour when the frame is done (`finish()`); everything after reads the resolved images.
"""
from __future__ import annotations

import moderngl
import numpy as np

from kzplayer.render.bloom import Bloom
from kzplayer.render.post import PostSettings
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
    """The float colour + depth framebuffer of exactly `size` = (W, H) (multisampled with
    `samples` > 1), the scene-depth copy and the 8-bit picture; `resize()` remakes them only
    when the size changes. `post` (PostSettings) is how the picture is made of the frame."""

    def __init__(self, ctx, programs, vaos: EmptyVaos, size: tuple[int, int], samples: int = 0):
        self.ctx = ctx
        self.programs = programs
        self.vaos = vaos
        self.samples = samples if samples > 1 else 0
        self.resolve_program = programs.render("render/resolve.vert.glsl", "render/resolve.frag.glsl")
        self.size = None
        self.fbo = self.out_fbo = None
        self.post = PostSettings()
        self.bloom = Bloom(ctx, programs, vaos)
        self.generation = 0               # frames drawn: the bloom is made once per frame
        self._bloomed = None              # (generation, settings) the bloom image holds
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
        self.single_fbo = ctx.framebuffer(color_attachments=[self.color], depth_attachment=self.depth)
        self.fbo = self.single_fbo
        multisampled = []
        if self.samples:
            multisampled = [ctx.renderbuffer(size, 4, samples=self.samples, dtype="f4"),
                            ctx.depth_renderbuffer(size, samples=self.samples)]
            self.fbo = ctx.framebuffer(color_attachments=[multisampled[0]], depth_attachment=multisampled[1])
            multisampled.insert(0, self.fbo)
        # the opaque scene's view distance, for soft particles (copied after the opaque passes)
        self.scene_depth = ctx.texture(size, 1, dtype="f4")
        self.scene_depth.filter = (ctx.NEAREST, ctx.NEAREST)
        self.scene_depth_fbo = ctx.framebuffer(color_attachments=[self.scene_depth])
        self.out = ctx.renderbuffer(size, components=4)
        self.out_fbo = ctx.framebuffer(color_attachments=[self.out])
        self._objects = [*multisampled, self.out_fbo, self.out, self.scene_depth_fbo, self.scene_depth,
                         self.single_fbo, self.depth, self.color]
        self._bloomed = None

    def finish(self) -> None:
        """The frame is drawn: a multisampled one resolved into the colour texture."""
        if self.samples:
            self.ctx.copy_framebuffer(self.single_fbo, self.fbo)
        self.generation += 1

    def copy_scene_depth(self, depth_range) -> None:
        """The opaque scene's depth as view distance into scene_depth (soft particles read
        it; the depth attachment itself cannot be sampled while it is being tested)."""
        ctx = self.ctx
        program, initial = self.programs.render("render/resolve.vert.glsl", "render/scene_depth.frag.glsl")
        if self.samples:                  # the multisampled depth resolved (a sample per pixel)
            ctx.copy_framebuffer(self.single_fbo, self.fbo)
        self.scene_depth_fbo.use()
        ctx.disable(ctx.DEPTH_TEST)
        self.depth.use(location=0)
        set_uniform(program, initial, "kz_depth", 0)
        set_uniform(program, initial, "kz_depthRange", depth_range)
        self.vaos.of(program).render(moderngl.TRIANGLES, vertices=3)
        self.fbo.use()
        ctx.enable(ctx.DEPTH_TEST)

    def resolve(self, target, hdr: bool = False) -> None:
        """The float image, clamped and sRGB-encoded, into the framebuffer `target`; with
        post settings, exposed, bloomed and tone mapped on the way (`hdr`: the linear image
        before the tone curve, into a float target: tests)."""
        ctx = self.ctx
        previous = ctx.fbo
        post = self.post
        bloom = self._bloom() if post.bloom else None
        if post.active or hdr:
            defines = {"KZ_POST": 1}
            if bloom is not None:
                defines["KZ_BLOOM"] = 1
            if hdr:
                defines["KZ_HDR_OUT"] = 1
            elif post.tone_mapping == "ACES":
                defines["KZ_TONEMAP_ACES"] = 1
            program, initial = self.programs.render("render/resolve.vert.glsl", "render/resolve.frag.glsl", defines)
        else:
            program, initial = self.resolve_program
        target.use()
        ctx.disable(ctx.BLEND | ctx.DEPTH_TEST | ctx.CULL_FACE)
        self.color.use(location=0)
        set_uniform(program, initial, "kz_image", 0)
        set_uniform(program, initial, "kz_exposureScale", post.scale)
        if bloom is not None:
            bloom.use(location=1)
            set_uniform(program, initial, "kz_bloom", 1)
            set_uniform(program, initial, "kz_bloomIntensity", float(post.bloom_intensity))
        self.vaos.of(program).render(moderngl.TRIANGLES, vertices=3)
        (previous or ctx.detect_framebuffer(0)).use()

    def _bloom(self):
        """The bloom of the last frame, made once for it (read() and show() both resolve)."""
        if self._bloomed != (self.generation, self.post):
            self._bloomed = (self.generation, self.post)
            self._bloom_image = self.bloom.run(self.color, self.size, self.post)
        return self._bloom_image

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

    def read_hdr(self) -> np.ndarray:
        """The picture before the tone curve: exposed, bloomed, linear, (H, W, 3) float32
        (tests: the post settings against their formulas)."""
        out = self.ctx.texture(self.size, 4, dtype="f4")
        fbo = self.ctx.framebuffer(color_attachments=[out])
        try:
            self.resolve(fbo, hdr=True)
            data = out.read()
        finally:
            fbo.release()
            out.release()
        return np.frombuffer(data, dtype=np.float32).reshape(self.size[1], self.size[0], 4)[::-1, :, :3].copy()

    def release(self) -> None:
        self.bloom.release()
        for obj in self._objects:
            obj.release()
        self._objects = []
