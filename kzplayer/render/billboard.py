"""The default particle material: camera-facing billboards, drawn additively.

player.md: the runtime supplies a default material, so a particle without a Particle
Material is still visible. Each emitter's Particle Data Buffer is bound as an SSBO and one
quad per pool slot is drawn instanced; the vertex shader reads the slot by gl_InstanceID
and drops dead ones, so nothing is read back to the CPU to draw a frame.

The look (docs/play.md): a soft round sprite whose width is `Particle.Size` (0.1 m) x the
particle's scale (at least `MIN_PIXELS` wide), white-hot at birth, orange, then deep red,
fading out over the last part of its life, tinted by the particle's colour and
`Particle.Color`; additive on black, no depth test (order-independent). The stock Particle
materials ParticlesColorOverLife and ColorOverLife_ImageUV swap the ramp for StartColor ->
EndColor, and `Particle.Texture` for the round sprite.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import moderngl
import numpy as np

from kzplayer.gpu.layout import BINDING_PARTICLES

SPRITE_SIZE = 0.1     # metres across at scale 1: the catalog default of Particle.Size
MIN_PIXELS = 1.5      # below this, particles would flicker in and out between pixels
INTENSITY = 0.8       # one additive particle's centre: overlaps add up towards white
COLOR_OVER_LIFE = {"ParticlesColorOverLife", "ColorOverLife_ImageUV"}


@dataclass(frozen=True)
class Look:
    """How one emitter's particles are drawn (from its Particle* properties)."""
    size: float = SPRITE_SIZE
    tint: tuple = (1.0, 1.0, 1.0, 1.0)
    additive: bool = True
    opaque: bool = False                      # Particle.BlendMode = Opaque: hard-edged, no blending
    color_over_life: tuple | None = None      # (start RGBA, end RGBA)
    texture: str | None = None                # image file path


def look_for(item, value, base_dir: str | Path = ".") -> Look:
    """The Look of an emitter node; `value(item, name)` reads properties after bindings
    (None when absent). Particle.* properties are optional on the node, as in Kanzi."""
    material = value(item, "ParticleEmitter.ParticleMaterial")
    name = str(material).rstrip("/").rsplit("/", 1)[-1] if material else ""
    size = value(item, "Particle.Size")
    tint = value(item, "Particle.Color")
    blend = str(value(item, "Particle.BlendMode") or _catalog_default("Particle.BlendMode"))
    texture = value(item, "Particle.Texture")
    over_life = None
    if name in COLOR_OVER_LIFE:
        start = value(item, "ColorOverLife.StartColor") or (1.0, 1.0, 1.0, 1.0)
        end = value(item, "ColorOverLife.EndColor") or (1.0, 1.0, 1.0, 0.0)
        over_life = (tuple(start), tuple(end))
    return Look(
        size=float(size) if isinstance(size, (int, float)) and size > 0 else SPRITE_SIZE,
        tint=tuple(tint) if tint is not None else (1.0, 1.0, 1.0, 1.0),
        additive=blend == "Additive",
        opaque=blend == "Opaque",
        color_over_life=over_life,
        texture=texture_file(base_dir, texture),
    )


def texture_file(base_dir, texture) -> str | None:
    """The image file of a Particle.Texture value, inside the project folder; None (the
    round sprite) when empty, missing or outside it (validate reports those:
    file.texture-missing, path.outside-project). Nothing outside the project is ever opened."""
    from kzplayer.project.files import Outside, inside, is_file
    if not texture or not str(texture).strip():
        return None
    try:
        path = inside(base_dir, str(texture).strip(), [base_dir])
    except Outside:
        return None
    return str(path) if is_file(path) else None


def _catalog_default(name: str):
    """A property's catalog default, for a `value` that has none (an item off the catalog)."""
    from kzplayer.project.catalog import catalog
    return catalog().property(name).default


class Renderer:
    """Draws emitters into an offscreen float framebuffer of exactly `size` = (W, H).

    Float, not RGBA8: an 8-bit target rounds after every blend, so thousands of faint
    additive sprites would sum to the wrong brightness (each rounds up or vanishes). The
    image is clamped and quantised once, when it is read or shown.

    `draw(emitters, camera)` clears to black and draws every emitter (objects with
    `.particles`, a moderngl Buffer of Particle records, `.capacity`, and optionally
    `.model`, a 4x4 simulation-to-world matrix, and `.look`, a Look); `read()` returns
    the image as (H, W, 3) uint8, top row first; `show(framebuffer)` copies it to another
    framebuffer (the window's). `resize(size)` follows a window.
    """

    def __init__(self, ctx, size: tuple[int, int], *, min_pixels: float = MIN_PIXELS, intensity: float = INTENSITY):
        from kzplayer.render.shaders import build_program
        self.ctx = ctx
        self.size = (int(size[0]), int(size[1]))
        self.program = build_program(ctx, "render/billboard.vert.glsl", "render/billboard.frag.glsl")
        self.vao = ctx.vertex_array(self.program, [])
        self._color = self.fbo = None
        self.resize(self.size)
        self._set("u_min_pixels", min_pixels)
        self.intensity = intensity
        self._textures: dict[str, object] = {}
        self._set("u_texture", 0)

    def _set(self, name: str, value) -> None:
        if name in self.program:   # the driver drops uniforms a shader does not use
            self.program[name].value = value

    def _write_matrix(self, name: str, m: np.ndarray) -> None:
        if name in self.program:
            # GLSL matrices are column-major: hand over the transpose's bytes.
            self.program[name].write(np.asarray(m, dtype="f4").T.tobytes())

    def resize(self, size: tuple[int, int]) -> None:
        size = (int(size[0]), int(size[1]))
        if self.fbo is not None and size == self.size:
            return
        if self.fbo is not None:
            self.fbo.release()
            self._color.release()
        self.size = size
        self._color = self.ctx.renderbuffer(size, components=4, dtype="f4")
        self.fbo = self.ctx.framebuffer(color_attachments=[self._color])

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
        ctx.blend_equation = ctx.FUNC_ADD
        # The pools were written by compute shaders: their stores must be visible to the
        # vertex shader's SSBO reads. The simulation's own barriers cover it today; the
        # renderer does not rely on whoever wrote the buffer last.
        ctx.memory_barrier(moderngl.SHADER_STORAGE_BARRIER_BIT)
        try:
            for em in emitters:
                if not em.capacity:
                    continue
                model = getattr(em, "model", None)
                self._write_matrix("u_model", np.eye(4) if model is None else model)
                self._apply(getattr(em, "look", None) or Look())
                em.particles.bind_to_storage_buffer(BINDING_PARTICLES)
                self.vao.render(ctx.TRIANGLE_STRIP, vertices=4, instances=int(em.capacity))
        finally:
            ctx.disable(ctx.BLEND)
            # Leave the framebuffer binding as found (the default one, 0, when there was
            # none): moderngl rebinds ctx.fbo after creating framebuffers, and a released
            # one would then be a deleted name (GL_INVALID_OPERATION).
            if previous is not target:
                (previous or self.ctx.detect_framebuffer(0)).use()

    def _apply(self, look: Look) -> None:
        ctx = self.ctx
        # Premultiplied colour: additive adds it, alpha composites it over; opaque
        # overwrites (the shader then keeps full colour inside the sprite's edge).
        if look.opaque:
            ctx.disable(ctx.BLEND)
        else:
            ctx.enable(ctx.BLEND)
            ctx.blend_func = (ctx.ONE, ctx.ONE) if look.additive else (ctx.ONE, ctx.ONE_MINUS_SRC_ALPHA)
        self._set("u_opaque", look.opaque)
        self._set("u_intensity", self.intensity if look.additive else 1.0)
        self._set("u_sprite_size", look.size)
        self._set("u_tint", tuple(look.tint))
        self._set("u_color_over_life", 1 if look.color_over_life else 0)
        if look.color_over_life:
            self._set("u_start_color", look.color_over_life[0])
            self._set("u_end_color", look.color_over_life[1])
        texture = self._texture(look.texture) if look.texture else None
        self._set("u_textured", texture is not None)
        if texture is not None:
            texture.use(location=0)

    def _texture(self, path: str):
        """The texture of an image file, loaded once; None (the round sprite) if unreadable."""
        if path not in self._textures:
            from PIL import Image
            try:
                with Image.open(path) as img:
                    rgba = img.convert("RGBA").transpose(Image.Transpose.FLIP_TOP_BOTTOM)
            except OSError:
                self._textures[path] = None
            else:
                tex = self.ctx.texture(rgba.size, 4, rgba.tobytes())
                tex.build_mipmaps()
                tex.filter = (self.ctx.LINEAR_MIPMAP_LINEAR, self.ctx.LINEAR)
                tex.repeat_x = tex.repeat_y = False   # clamp: no bleeding from the far edge
                self._textures[path] = tex
        return self._textures[path]

    def read(self) -> np.ndarray:
        """The last drawn image, (H, W, 3) uint8, top row first (GL's rows run bottom-up)."""
        data = self.fbo.read(components=3, alignment=1, dtype="f4")
        img = np.frombuffer(data, dtype=np.float32).reshape(self.size[1], self.size[0], 3)[::-1]
        return np.rint(np.clip(img, 0.0, 1.0) * 255.0).astype(np.uint8)

    def show(self, target) -> None:
        """Copy the last drawn image into `target` (the window), converting and clamping."""
        self.ctx.copy_framebuffer(target, self.fbo)

    def release(self) -> None:
        for tex in self._textures.values():
            if tex is not None:
                tex.release()
        self._textures.clear()
        for obj in ("vao", "program", "fbo", "_color"):
            res = getattr(self, obj, None)
            if res is not None:
                res.release()
                setattr(self, obj, None)
