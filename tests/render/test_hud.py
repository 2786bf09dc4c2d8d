"""The debug view (render/hud.py): the built-in bitmap font, the layout of lines, the text
drawn over a frame headless (`play --hud`) pixel for pixel where the font says, the debug
view's figures, and a hand-made list of Diagnostics drawn as file:line:column lines, in the
window's loop too."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from PIL import Image

import kzplayer
from kzplayer.bindings import resolve
from kzplayer.diagnostics import Diagnostic, Severity, Span
from kzplayer.render.hud import (CELL, COLORS, ERROR, FIRST, LINE, PAD, Hud, burn_problems, font_atlas, layout,
                                 lines, problem_lines)
from kzplayer.render.offline import render_offline
from kzplayer.render.player import Player
from kzplayer.render.window import Keys, _loop
from kzplayer.resources import samples_dir

BROKEN = [Diagnostic("KZ002", "xml.malformed", Severity.ERROR, "mismatched tag: expected </Item>",
                     Span("effect.kzm", 12, 5)),
          Diagnostic("KZ002", "xml.malformed", Severity.WARNING, "a second problem", None)]


def srgb(linear: float) -> int:
    """The 8-bit sRGB value of a linear one, as the resolve pass encodes it."""
    v = linear * 12.92 if linear <= 0.0031308 else 1.055 * linear ** (1 / 2.4) - 0.055
    return int(round(v * 255))


def glyph(ch: str) -> np.ndarray:
    atlas = font_atlas()
    k = ord(ch) - FIRST
    return atlas[:, k * CELL[0]:(k + 1) * CELL[0]] > 0


def test_the_font_has_every_printable_glyph_on_its_own_cell():
    atlas = font_atlas()
    assert atlas.shape == (CELL[1], CELL[0] * 95) and set(np.unique(atlas)) <= {0, 255}
    assert not glyph(" ").any()
    shapes = {glyph(chr(c)).tobytes() for c in range(33, 127)}
    assert all(glyph(chr(c)).any() for c in range(33, 127)) and len(shapes) == 94     # all different


def test_layout_cuts_lines_to_the_image_and_doubles_from_720_pixels():
    quads = layout([("ab c", 0)], (640, 360))
    # a box, then a quad per glyph that is not a space
    assert quads.shape == (4, 6) and quads[0][4] == -1 and list(quads[1][:4]) == [PAD, PAD, CELL[0], CELL[1]]
    assert [int(q[4]) for q in quads[1:]] == [ord(c) - FIRST for c in "abc"]
    assert layout([("x" * 500, 0)], (60, 40)).shape[0] == 1 + (60 - 2 * PAD) // CELL[0]
    assert layout([("x", 0)] * 100, (64, 40)).shape[0] == 2 * ((40 - 2 * PAD) // LINE)
    big = layout([("x", 0)], (1280, 720))
    assert list(big[1][2:4]) == [2 * CELL[0], 2 * CELL[1]]
    bottom = layout([("x", 0), ("y", 0)], (640, 360), at="bottom")
    assert bottom[-1][1] == 360 - PAD - LINE


def fountain(ctx, size=(160, 90), **kw):
    project = kzplayer.load(str(samples_dir() / "demo_fountain.kzm"))
    return Player(ctx, project, resolve(project), size, seed=1, **kw)


def test_the_text_is_drawn_where_the_font_says_in_its_colour(ctx):
    player = fountain(ctx)
    try:
        for _ in range(3):
            player.advance(1 / 60)
        player.draw()
        plain = player.image()
        player.overlay = Hud(ctx)            # released with the player
        player.overlay.draw(player, ["Kz"])
        shown = player.image()
        white = srgb(COLORS[0][0])
        for k, ch in enumerate("Kz"):
            cell = shown[PAD:PAD + CELL[1], PAD + k * CELL[0]:PAD + (k + 1) * CELL[0]]
            on = (cell == white).all(axis=2)
            assert np.array_equal(on | ~glyph(ch), np.ones_like(on)) and on[glyph(ch)].all(), ch
        # the box darkens what it covers; nothing outside it changes
        box = np.zeros(plain.shape[:2], bool)
        box[PAD - 1:PAD - 1 + LINE, PAD - 1:PAD + 1 + 2 * CELL[0]] = True
        assert np.array_equal(shown[~box], plain[~box])
        text = (shown == white).all(axis=2)
        assert (shown[box & ~text] <= plain[box & ~text]).all() and text[box].sum() == glyph("K").sum() + glyph("z").sum()
    finally:
        player.release()


def test_the_debug_view_says_alive_of_maximum_emitted_died_stalled_lod_and_gpu_times(ctx):
    player = fountain(ctx, gpu_timers=True)
    try:
        for _ in range(8):
            player.advance(1 / 60)
            player.draw()
        text = [t for t, _ in lines(player, frame_ms=16.7)]
        stats = player.latest["Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Nozzle"]
        assert text[0].startswith("t 0.13 s  frame 8") and "16.7 ms/frame" in text[0]
        assert f"(figures of frame {player.latest_frame})" in text[0] and player.latest_frame < 8
        assert text[1].startswith("Particle System: sim ") and " ms  draw " in text[1] and "-" not in text[1]
        most = player.frames.value(player.sim.emitters[0].item, "ParticleEmitter.MaximumAmount")
        assert text[2] == (f"  Nozzle: alive {stats.alive}/{int(most):,}  emitted {stats.emitted}  died {stats.died}  "
                           f"stalled {stats.stalled}  LOD 1.00")
        assert stats.alive > 0
    finally:
        player.release()


def test_play_hud_burns_the_debug_view_into_the_output(ctx, tmp_path):
    project = kzplayer.load(str(samples_dir() / "demo_fountain.kzm"))
    graph = resolve(project)
    render_offline(project, graph, (320, 180), n_frames=6, fps=60, seed=1, output=str(tmp_path / "a.png"), ctx=ctx)
    render_offline(project, graph, (320, 180), n_frames=6, fps=60, seed=1, output=str(tmp_path / "b.png"), ctx=ctx,
                   hud=True)
    a, b = (np.asarray(Image.open(tmp_path / n).convert("RGB")) for n in ("a.png", "b.png"))
    changed = (a != b).any(axis=2)
    rows, cols = np.nonzero(changed)
    assert changed.sum() > 200 and rows.max() < 180 // 2 and cols.min() >= PAD - 1   # the text, top left
    on = glyph("t")                                 # the first line starts "t 0.10 s"
    assert (b[PAD:PAD + CELL[1], PAD:PAD + CELL[0]][on] == srgb(1.0)).all()


def test_problems_are_drawn_as_file_line_column_lines_at_the_bottom(ctx):
    text = problem_lines(BROKEN)
    assert text == [("effect.kzm:12:5: mismatched tag: expected </Item>", ERROR), ("a second problem", 1)]
    many = problem_lines(BROKEN * 6, limit=3)
    assert len(many) == 4 and many[-1][0] == "... 9 more (see the terminal)"
    assert [c for _, c in many[:3]] == [ERROR] * 3                          # errors first
    player = fountain(ctx, size=(400, 120))
    try:
        player.advance(1 / 60)
        player.draw()
        plain = player.image()
        burn_problems(player, BROKEN)
        shown = player.image()
        red = tuple(srgb(c) for c in COLORS[ERROR][:3])
        is_red = (shown == red).all(axis=2)
        rows = np.nonzero(is_red)[0]
        assert len(rows) > 50 and rows.min() >= 120 - PAD - 2 * LINE and rows.max() < 120 - PAD - LINE
        e = glyph("e")                              # "effect.kzm:12:5: ..." begins at the box's left
        top = 120 - PAD - 2 * LINE
        assert is_red[top:top + CELL[1], PAD:PAD + CELL[0]][e].all()
        assert np.array_equal(shown[:top - 1], plain[:top - 1])
    finally:
        player.release()


class Shown:
    """Enough of glfw for the window's loop, keeping what each frame showed."""

    def __init__(self, keys, frames, screen):
        self.keys, self.frames, self.screen, self.frame, self.shown = keys, frames, screen, 0, []

    def window_should_close(self, win):
        return self.frame >= self.frames

    def poll_events(self):
        self.frame += 1

    def get_framebuffer_size(self, win):
        return self.screen.size

    def swap_buffers(self, win):
        w, h = self.screen.size
        data = self.screen.read(components=3, alignment=1)
        self.shown.append(np.frombuffer(data, np.uint8).reshape(h, w, 3)[::-1].copy())

    def set_window_title(self, win, title):
        pass


def test_the_window_draws_the_live_sessions_problems_and_the_debug_view_with_h(ctx):
    player = fountain(ctx, size=(400, 120), gpu_timers=True)
    screen = ctx.simple_framebuffer((400, 120))
    session = SimpleNamespace(problems=BROKEN, player=player)
    live = (SimpleNamespace(poll=lambda: None, session=session), lambda outcome: None)
    red = tuple(srgb(c) for c in COLORS[ERROR][:3])
    try:
        keys = Keys()
        fake = Shown(keys, 3, screen)
        _loop(fake, None, SimpleNamespace(screen=screen), keys, player, 60.0, live=live)
        assert all((image == red).all(axis=2)[120 - 2 * LINE - PAD:].any() for image in fake.shown)
        assert not (fake.shown[-1][:40] == srgb(1.0)).all(axis=2).any()         # no debug view
        keys = Keys(hud=True)
        fake = Shown(keys, 3, screen)
        _loop(fake, None, SimpleNamespace(screen=screen), keys, player, 60.0, live=live)
        on = glyph("t")
        assert (fake.shown[-1][PAD:PAD + CELL[1], PAD:PAD + CELL[0]][on] == srgb(1.0)).all()
        session.problems = []
        fake = Shown(Keys(), 2, screen)
        _loop(fake, None, SimpleNamespace(screen=screen), fake.keys, player, 60.0, live=live)
        assert not (fake.shown[-1] == red).all(axis=2).any()
    finally:
        player.release()
        screen.release()


def test_a_scripts_player_can_burn_the_debug_view_in(ctx):
    with kzplayer.Player(samples_dir() / "demo_fountain.kzm", size=(160, 90), seed=1, ctx=ctx) as plain, \
            kzplayer.Player(samples_dir() / "demo_fountain.kzm", size=(160, 90), seed=1, ctx=ctx, hud=True) as hud:
        plain.step(4)
        hud.step(4)
        a, b = plain.frame(), hud.frame()
        assert not np.array_equal(a, b) and np.array_equal(a[60:], b[60:])

