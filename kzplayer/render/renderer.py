"""The renderer: one Frame (kzplayer.render.frame) drawn in the order of rendering.md.

    compute   per emitter: its live list (render/live_list.py), the sort its SortingType
              asks for (render/sort.py), for CastLight the brightest particles gathered as
              lights; the scene's lights into a uniform block. Nothing is read back.
    1         opaque scene: Model3D meshes, lit, writing depth
    2         opaque particles: BlendMode Opaque emitters (mesh particles unless the node
              sets a blend mode), writing depth
    3         blended, in tree order: each emitter sorted within itself (Additive: ONE, ONE;
              Alpha: ONE, ONE_MINUS_SRC_ALPHA, premultiplied), and Model3D nodes with
              Node.Opacity < 1; depth test on, depth write off
    4         screen-space effects that read the opaque scene's depth: lens flares, added
              over the picture without depth test
    resolve   the linear float image, clamped and encoded as sRGB, into 8 bits (with the
              Scene's post settings: exposed, bloomed, tone mapped; render/post.py)

The passes live beside this module: the images drawn into (render/targets.py), what every
draw binds (render/draw_inputs.py), the particles' compute work and draws
(render/particle_draws.py: billboards, meshes and the NeL representations of
render/representations.py) and the scene's models (render/scene_models.py); this module
keeps their order.

A custom rendering material that does not compile is left out: its emitters are drawn with
ParticlesDefault and its errors are kept in `Renderer.problems` (the player reports them).

Every particle draw is indirect: the instance count is the live count the GPU wrote. The
image is blended into a 32-bit float target in linear light. `read()` returns (H, W, 3) uint8 sRGB, top row first; `show(target)`
resolves into another framebuffer (the window's).
"""
from __future__ import annotations

import numpy as np

from kzplayer.diagnostics import Diagnostic, KzError, Severity
from kzplayer.project.catalog import catalog
from kzplayer.render.draw_inputs import DrawInputs
from kzplayer.render.gpu_mesh import MeshCache
from kzplayer.render.live_list import BARRIER
from kzplayer.render.materials import left_out, stock_material
from kzplayer.render.particle_draws import ParticleDraws, on_screen, soft
from kzplayer.render.representations import representation
from kzplayer.render.scene_models import draw_model
from kzplayer.render.shaders import RenderPrograms
from kzplayer.render.shadows import ShadowMaps
from kzplayer.render.targets import EmptyVaos, FrameTargets

MIN_PIXELS = 1.5      # below this, particles would flicker in and out between pixels
INTENSITY = 0.8       # one additive round sprite's centre: overlaps add up towards white


class Renderer:
    """Draws Frames into an offscreen image of exactly `size` = (W, H)."""

    def __init__(self, ctx, size: tuple[int, int], *, min_pixels: float = MIN_PIXELS, intensity: float = INTENSITY,
                 samples: int = 0):
        self.ctx = ctx
        self.min_pixels = min_pixels
        self.intensity = intensity
        self.programs = RenderPrograms(ctx)
        self.meshes = MeshCache(ctx)
        self.problems: list = []          # compile errors of the custom materials left out, each once
        if samples > ctx.max_samples:
            self.problems.append(Diagnostic("KZ911", "play.msaa-limit", Severity.WARNING,
                                            f"--msaa {samples}: this OpenGL driver takes at most {ctx.max_samples} "
                                            f"samples a pixel; drawing with {ctx.max_samples}"))
            samples = ctx.max_samples
        self._vaos = EmptyVaos(ctx)
        self.targets = FrameTargets(ctx, self.programs, self._vaos, size, samples=samples)   # samples: --msaa
        self.inputs = DrawInputs(ctx, self.targets)
        self.textures = self.inputs.textures
        self.particles = ParticleDraws(ctx, self.programs, self.inputs, self.meshes, self._vaos, intensity)
        self.shadows = ShadowMaps(ctx)

    @property
    def size(self) -> tuple[int, int]:
        return self.targets.size

    def resize(self, size: tuple[int, int]) -> None:
        self.targets.resize(size)

    # -- a frame --------------------------------------------------------------------------------

    budget_check = None      # the frame budget's check after each draw (render/budget.py), or None

    def _checked(self, em) -> None:
        if self.budget_check is not None:
            material = getattr(em.material, "name", None) or "its material"
            custom = getattr(em.material, "custom", False)
            self.budget_check(f"the draw of {em.key} ({'custom material ' if custom else ''}'{material}')", custom)

    def draw(self, frame, camera) -> None:
        ctx = self.ctx
        targets, particles = self.targets, self.particles
        width, height = self.size
        previous = ctx.fbo
        self.inputs.begin(frame, camera, self.size, self.min_pixels)
        particles.begin()
        try:
            self._leave_out_broken(frame)
            views = self.shadows.plan(frame, camera, width / height)
            particles.prepare(frame, camera.view, between=(lambda: self._shadow_maps(frame, views)) if views else None)
            targets.fbo.use()
            ctx.viewport = (0, 0, width, height)
            targets.fbo.depth_mask = True
            targets.fbo.clear(0.0, 0.0, 0.0, 1.0, depth=1.0)
            ctx.enable(ctx.DEPTH_TEST)
            ctx.depth_func = "<"
            ctx.memory_barrier(BARRIER)
            ctx.disable(ctx.BLEND)
            for model in frame.models:                                   # 1. opaque scene
                if model.opaque:
                    self._draw_model(model)
            screen = [e for e in frame.emitters if on_screen(e)]
            drawn = [e for e in frame.emitters if not on_screen(e)]
            for em in drawn:                                             # 2. opaque particles
                if em.opaque:
                    particles.draw(em)
                    self._checked(em)
            if screen or any(not e.opaque and soft(e) for e in drawn):
                targets.copy_scene_depth(self.inputs.uniforms["kz_depthRange"])
            targets.fbo.depth_mask = False                               # 3. blended, tree order
            ctx.enable(ctx.BLEND)
            ctx.blend_equation = ctx.FUNC_ADD
            blended = [m for m in frame.models if not m.opaque] + [e for e in drawn if not e.opaque]
            for thing in sorted(blended, key=lambda t: t.order):
                if hasattr(thing, "particles"):
                    particles.draw(thing)
                    self._checked(thing)
                else:
                    # a see-through model shows its front faces only: drawing its back faces
                    # too would composite it twice over itself
                    ctx.blend_func = (ctx.ONE, ctx.ONE_MINUS_SRC_ALPHA)
                    ctx.enable(ctx.CULL_FACE)
                    self._draw_model(thing)
                    ctx.disable(ctx.CULL_FACE)
            ctx.disable(ctx.DEPTH_TEST)                                  # 4. over the picture
            for em in screen:
                particles.draw(em)
                self._checked(em)
            targets.post = frame.post
            targets.finish()                                             # (a multisampled frame resolved)
        finally:
            self.inputs.shadow_maps = []
            ctx.disable(ctx.BLEND | ctx.DEPTH_TEST | ctx.CULL_FACE)
            targets.fbo.depth_mask = True
            # Leave the framebuffer binding as found (the default one where there was none).
            (previous or ctx.detect_framebuffer(0)).use()
        particles.end()

    def _shadow_maps(self, frame, views) -> None:
        """The shadowed lights' depth (render/shadows.py): opaque models and mesh particles."""
        def casters():
            for model in frame.models:
                if model.opaque:
                    self._draw_model(model)
            for em in frame.emitters:
                if em.opaque and em.mesh is not None and not on_screen(em):
                    self.particles.draw(em)
                elif em.values("Particle.CastShadows") is True and representation(em.material) is None:
                    self.particles.draw(em, caster=True)        # a blended billboard's silhouette
        self.inputs.shadow_maps = []
        self.shadows.render(views, self.inputs, casters)
        self.inputs.shadow_maps = self.shadows.maps[:len(views)]

    def _draw_model(self, model) -> None:
        draw_model(self.inputs, self.programs, self.meshes, model)

    def _leave_out_broken(self, frame) -> None:
        """A custom rendering material that does not compile (or link) for an emitter is left
        out: its errors go to `problems`, once, and the emitter is drawn with ParticlesDefault
        (billboards; its ParticleMesh where it has one), as a material that cannot be resolved
        is (render/frame.py). Tried for the variant the emitter draws, before any compute work
        of the frame (the stand-in needs its live list and records); a failure is compiled
        once (RenderPrograms)."""
        for em in frame.emitters:
            if not em.material.custom:
                continue
            try:
                self.particles.program(em)
            except KzError as exc:
                self.problems.extend(d for d in left_out(exc.diagnostics, em.material) if d not in self.problems)
                em.material = stock_material(catalog())

    # -- the picture ---------------------------------------------------------------------------

    def read(self) -> np.ndarray:
        """The last drawn image, (H, W, 3) uint8 sRGB, top row first (GL's rows run bottom-up)."""
        return self.targets.read()

    def read_linear(self) -> np.ndarray:
        """The last drawn image before the sRGB encode, (H, W, 3) float32 linear (tests)."""
        return self.targets.read_linear()

    def read_hdr(self) -> np.ndarray:
        """The last drawn image exposed and bloomed, before the tone curve (tests)."""
        return self.targets.read_hdr()

    def show(self, target) -> None:
        """Resolve the last drawn image into `target` (the window's framebuffer)."""
        self.targets.resolve(target)

    def live_list(self, key: str):
        """The LiveList of an emitter drawn in the last frame (tests, benchmarks)."""
        return self.particles.live_list(key)

    def sorter(self, key: str):
        return self.particles.sorter(key)

    def release(self) -> None:
        self.particles.release()
        self._vaos.release()
        self.inputs.release()
        self.meshes.release()
        self.programs.release()
        self.targets.release()
        self.shadows.release()
