"""The debug view (HUD) and the problems overlay: lines of text drawn over the frame with a
small built-in bitmap font, on the GPU (docs/play.md, "The debug view").

    hud = Hud(ctx)
    hud.draw(player, lines(player, frame_ms=16.7))       # over the frame the player just drew
    hud.draw(player, problem_lines(diagnostics), at="bottom")

`lines` gives, per ParticleSystem, its last measured simulation and draw GPU time
(gpu/timers.py; "-" until one is in: a headless .png draws one frame only), and per
emitter alive / MaximumAmount, emitted, died, stalled and the emission LOD factor, from the
Player's last figures (a couple of frames old: they are read without waiting for the GPU);
`problem_lines` gives `file:line:column: message` of each Diagnostic (the live preview's
broken save). The text is drawn into the renderer's float image before its sRGB resolve, so
the window shows it and an offline render writes it (`play --hud`).

The font is Pillow's built-in bitmap font (6 x 11 pixels a glyph, printable ASCII), put in
one texture once; other characters are drawn as `?`. It is drawn at a whole multiple of its
size (2x from 720 pixels high), never smoothed.
"""
from __future__ import annotations

import math
import time

import moderngl
import numpy as np

from kzplayer.diagnostics import Severity
from kzplayer.render.shaders import set_uniform

FIRST, LAST = 32, 126          # printable ASCII
CELL = (6, 11)                 # Pillow's built-in font: every glyph this cell
LINE = 12                      # pixels a line (at scale 1)
PAD = 3
TEXT, WARNING, ERROR, BOX = range(4)
COLORS = ((1.0, 1.0, 1.0, 1.0), (1.0, 0.8, 0.2, 1.0), (1.0, 0.3, 0.25, 1.0), (0.0, 0.0, 0.0, 0.6))
MAX_PROBLEMS = 8


def font_atlas() -> np.ndarray:
    """(11, 95 x 6) uint8: the glyphs of FIRST..LAST side by side, 255 where a pixel is on."""
    from PIL import Image, ImageDraw, ImageFont    # lazy: only a frame with text needs Pillow's font
    font = ImageFont.load_default_imagefont()
    image = Image.new("L", (CELL[0] * (LAST - FIRST + 1), CELL[1]), 0)
    draw = ImageDraw.Draw(image)
    for code in range(FIRST, LAST + 1):
        draw.text(((code - FIRST) * CELL[0], 0), chr(code), font=font, fill=255)
    return np.where(np.asarray(image) >= 128, 255, 0).astype(np.uint8)


def layout(lines, size, at: str = "top", scale: int | None = None) -> np.ndarray:
    """The quads of `lines` ([(text, colour index)]) for an image of `size`: per line a box,
    then its glyphs; rows of (x, y, w, h, glyph or -1, colour), float32. Lines past the
    image's height or width are cut."""
    w, h = size
    scale = scale or (2 if h >= 720 else 1)
    cw, lh = CELL[0] * scale, LINE * scale
    fits = max((h - 2 * PAD) // lh, 0)
    lines = list(lines)[:fits]
    top = PAD if at == "top" else h - PAD - lh * len(lines)
    columns = max((w - 2 * PAD) // cw, 0)
    quads = []
    for row, (text, color) in enumerate(lines):
        text = text[:columns]
        if not text:
            continue
        y = top + row * lh
        quads.append((PAD - 1, y - 1, len(text) * cw + 2, lh, -1, BOX))
        for k, ch in enumerate(text):
            code = ord(ch) if FIRST <= ord(ch) <= LAST else ord("?")
            if ch != " ":
                quads.append((PAD + k * cw, y, cw, CELL[1] * scale, code - FIRST, color))
    return np.array(quads, np.float32).reshape(-1, 6)


class Hud:
    """The text overlay's GPU side: the font texture, the program, a buffer of quads."""

    def __init__(self, ctx):
        self.ctx = ctx
        atlas = font_atlas()
        self.font = ctx.texture((atlas.shape[1], atlas.shape[0]), 1, atlas.tobytes(), dtype="u1")
        self.font.filter = (moderngl.NEAREST, moderngl.NEAREST)
        self._buffer = None
        self._vao = None
        self._program = None
        self.last_draw = None          # perf_counter of the last draw (headless frame time)

    def draw(self, player, lines, at: str = "top") -> None:
        """Draw `lines` ([(text, colour index)], or plain strings) over the player's frame."""
        lines = [(t, TEXT) if isinstance(t, str) else t for t in lines]
        renderer = player.renderer
        quads = layout(lines, renderer.size, at)
        if not len(quads):
            return
        ctx = self.ctx
        if self._program is None:
            self._program = renderer.programs.render("render/hud_text.vert.glsl", "render/hud_text.frag.glsl")
        program, initial = self._program
        data = quads.tobytes()
        if self._buffer is None or self._buffer.size < len(data):
            if self._vao is not None:
                self._vao.release()
                self._buffer.release()
            self._buffer = ctx.buffer(reserve=max(len(data), 4096) * 2)
            self._vao = ctx.vertex_array(program, [(self._buffer, "4f 2f/i", "a_rect", "a_glyph")])
        self._buffer.write(data)
        previous = ctx.fbo
        target = renderer.targets.single_fbo
        target.use()
        ctx.viewport = (0, 0, *renderer.size)
        ctx.disable(ctx.DEPTH_TEST | ctx.CULL_FACE)
        ctx.enable(ctx.BLEND)
        ctx.blend_func = (ctx.SRC_ALPHA, ctx.ONE_MINUS_SRC_ALPHA)
        self.font.use(location=0)
        set_uniform(program, initial, "kz_font", 0)
        set_uniform(program, initial, "kz_viewport", tuple(float(v) for v in renderer.size))
        set_uniform(program, initial, "kz_cell", tuple(float(v) for v in CELL))
        program["kz_colors"].write(np.array(COLORS, np.float32).tobytes())
        self._vao.render(moderngl.TRIANGLE_STRIP, vertices=4, instances=len(quads))
        ctx.disable(ctx.BLEND)
        (previous or ctx.detect_framebuffer(0)).use()
        self.last_draw = time.perf_counter()

    def frame_ms(self) -> float | None:
        """Wall milliseconds since the last draw (a headless run's frame time)."""
        return None if self.last_draw is None else (time.perf_counter() - self.last_draw) * 1e3

    def release(self) -> None:
        for obj in (self._vao, self._buffer, self.font):
            if obj is not None:
                obj.release()
        self._vao = self._buffer = None


def lines(player, frame_ms: float | None = None) -> list[tuple[str, int]]:
    """The debug view's text for the player's current state (see the module's docstring)."""
    clock = player.clock
    state = " paused" if clock.paused else ""
    speed = f" {clock.speed:g}x" if clock.speed != 1 else ""
    frame = f"  {frame_ms:.1f} ms/frame" if frame_ms is not None and math.isfinite(frame_ms) else ""
    late = f"   (figures of frame {player.latest_frame})" if player.latest_frame is not None else ""
    out = [(f"t {player.time:.2f} s  frame {player.sim.frames}{speed}{state}{frame}{late}", TEXT)]
    figures = player.latest
    value = player.frames.value
    for runner in player.sim.runners:
        system = runner.system
        members = list(system.members)
        mine = [figures.get(em.path) for em in members]
        times = [player.gpu_ms.get((kind, system.item.path)) for kind in ("sim", "draw")]
        sim, draw = (f"{t:.2f} ms" if t is not None else "-" for t in times)
        out.append((f"{system.item.name}: sim {sim}  draw {draw} GPU", TEXT))
        for em, f in zip(members, mine):
            if em.channel_of is not None:
                continue                        # a bound subemitter's hidden channel
            most = value(em.item, "ParticleEmitter.MaximumAmount")
            most = f"{int(most):,}" if isinstance(most, (int, float)) and math.isfinite(most) else "?"
            if f is None:
                out.append((f"  {em.item.name}: alive -/{most}", TEXT))
                continue
            out.append((f"  {em.item.name}: alive {int(f.alive):,}/{most}  emitted {int(f.emitted)}  "
                        f"died {int(f.died)}  stalled {int(f.stalled)}  LOD {f.lod_rate:.2f}",
                        WARNING if f.stalled else TEXT))
    return out


def problem_lines(diagnostics, limit: int = MAX_PROBLEMS) -> list[tuple[str, int]]:
    """`file:line:column: message` for each Diagnostic (errors first, as they came), at most
    `limit` and a line saying how many more."""
    ordered = sorted(diagnostics, key=lambda d: d.severity != Severity.ERROR)
    out = []
    for d in ordered[:limit]:
        where = ""
        if d.span is not None:
            where = f"{d.span}: "
        color = ERROR if d.severity == Severity.ERROR else WARNING
        out.append((f"{where}{d.message}", color))
    if len(ordered) > limit:
        out.append((f"... {len(ordered) - limit} more (see the terminal)", TEXT))
    return out


def burn_in(player, frame_ms: float | None = None, problems=()) -> None:
    """The debug view (and `problems`, Diagnostics, at the bottom) over the frame the player
    drew last: what the window shows with H, what `play --hud` writes. The Hud is made on
    first use and kept by the player (released with it)."""
    if player.overlay is None:
        player.overlay = Hud(player.ctx)
    hud = player.overlay
    if frame_ms is None:
        frame_ms = hud.frame_ms()
    hud.draw(player, lines(player, frame_ms))
    if problems:
        hud.draw(player, problem_lines(problems), at="bottom")


def burn_problems(player, problems) -> None:
    """Only the problems over the frame (the window without the debug view)."""
    if not problems:
        return
    if player.overlay is None:
        player.overlay = Hud(player.ctx)
    player.overlay.draw(player, problem_lines(problems), at="bottom")
