"""Live preview (kzplayer.render.live, `play --watch`): a temp project, a real file watcher
(watchfiles), real saves written by a thread while the loop plays in the test's thread."""
from __future__ import annotations

import queue
import shutil
import threading
import time
from pathlib import Path

import moderngl
import numpy as np
import pytest
from PIL import Image

import kzplayer
from kzplayer.commands.watch import load_live
from kzplayer.render.live import LiveSession, diff_projects
from kzplayer.render.live_loop import watch_loop
from kzplayer.render.player import Player
from kzplayer.resources import samples_dir
from tests.render.live_project import play_watch_saving

DEMO = samples_dir() / "demo_fountain.kzm"
STRENGTH = '<Property name="Emission.InitialVelocityStrength">7</Property>'
WAIT = 60.0          # seconds a save may take to be seen on a loaded machine (a hang, not a timing)


def strength(text: str, value) -> str:
    assert STRENGTH in text
    return text.replace(STRENGTH, f'<Property name="Emission.InitialVelocityStrength">{value}</Property>')


@pytest.fixture
def project(tmp_path) -> Path:
    path = tmp_path / "fountain.kzm"
    shutil.copy(DEMO, path)
    return path


# -- the diff (GL-free) --------------------------------------------------------------------

def test_a_value_edit_is_an_edit_and_an_added_item_or_binding_is_structural(project):
    text = project.read_text()
    old = kzplayer.load(str(project))
    project.write_text(strength(text, 12))
    diff = diff_projects(old, kzplayer.load(str(project)))
    assert diff.structural is None
    assert [(e.path.rsplit("/", 1)[-1], e.name, e.value) for e in diff.edits] == \
        [("Nozzle", "Emission.InitialVelocityStrength", 12.0)]
    project.write_text(text.replace("* ({./Emission.Lifetime}", "* 2 * ({./Emission.Lifetime}"))
    assert "bindings" in diff_projects(old, kzplayer.load(str(project))).structural
    added = text.replace("</ParticleSystem>", '<ParticleAffector name="Drag"/></ParticleSystem>')
    assert added != text
    project.write_text(added)
    n = len(list(old.walk()))
    assert diff_projects(old, kzplayer.load(str(project))).structural == f"items {n} -> {n + 1}"
    assert diff_projects(old, kzplayer.load(str(DEMO))).edits == []


# -- the real watcher ----------------------------------------------------------------------

class Recording(LiveSession):
    """A LiveSession that reads the particles just before and after each reload."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.around = []

    def reload(self, changed=()):
        before = self._particles()
        outcome = super().reload(changed)
        self.around.append((outcome, before, self._particles(), self.player, self.player.time))
        return outcome

    def _particles(self):
        sim = self.player.sim
        return sim.read_particles(sim.emitters[0]).copy()


def young_speeds(particles, below=0.1):
    young = particles[particles["age"] < below]
    return np.linalg.norm(young["velocity"], axis=1)


def test_watch_applies_values_live_keeps_particles_and_survives_a_broken_save(ctx, project, monkeypatch):
    compiled = []
    for name in ("compute_shader", "program"):
        original = getattr(moderngl.Context, name)
        monkeypatch.setattr(moderngl.Context, name,
                            lambda self, *a, _o=original, _n=name, **k: (compiled.append(_n), _o(self, *a, **k))[1])
    text = project.read_text()
    good_12 = strength(text, 12)
    saves = [("value 12", good_12),
             ("xml", good_12[:1500]),                                        # cut inside line 28
             ("material", good_12.replace("Emitter_Point<", "NoSuchMat<")),  # line 29
             ("value 3", strength(text, 3))]
    session = Recording(str(project), load=load_live,
                        make_player=lambda p, g: Player(ctx, p, g, (64, 36), seed=5))
    session.start()
    session.player.step(0.5)
    turned, outcomes, stop = threading.Event(), queue.Queue(), threading.Event()
    turns = [0]

    def on_turn(player):
        turns[0] += 1
        turned.set()

    def saver():
        try:
            assert turned.wait(WAIT)
            for label, content in saves:
                seen = turns[0]
                while turns[0] < seen + 10 and not stop.is_set():    # let the effect play a little
                    time.sleep(0.01)
                tmp = project.with_suffix(".tmp")                    # an editor's save: write, rename
                tmp.write_text(content)
                tmp.replace(project)
                outcomes.get(timeout=WAIT)
        finally:
            stop.set()

    compiled_before = len(compiled)
    thread = threading.Thread(target=saver)
    thread.start()
    timer = threading.Timer(4 * WAIT, stop.set)
    timer.start()
    try:
        watch_loop(session, on_change=outcomes.put, stop=stop, on_turn=on_turn)
    finally:
        stop.set()
        timer.cancel()
        thread.join()
    try:
        kinds = [o.kind for o, *_ in session.around]
        assert kinds == ["applied", "broken", "broken", "applied"]
        assert len(compiled) == compiled_before                        # nothing compiled on any save
        players = {id(p) for *_, p, _ in session.around}
        assert players == {id(session.player)}                         # the same Player throughout
        times = [t for *_, t in session.around]
        assert times[0] > 0.5 and times == sorted(times) and times[-1] > times[0]    # the clock runs on
        for outcome, before, after, _, _ in session.around:            # particles in flight survive
            assert len(before) > 50
            np.testing.assert_array_equal(before["serial"], after["serial"])
            np.testing.assert_array_equal(before["age"], after["age"])
        # the new value reached the GPU: particles born after the save fly at 12, not 7
        assert young_speeds(session.around[0][1]).mean() == pytest.approx(7, abs=1.0)
        young = young_speeds(session.around[1][1])
        assert len(young) and young.mean() == pytest.approx(12, abs=1.0)
        xml, material = session.around[1][0].diagnostics, session.around[2][0].diagnostics
        assert [(d.rule, d.span.line) for d in xml] == [("xml.malformed", 28)]
        assert [(d.rule, d.span.line, d.span.column) for d in material] == [("material.unknown", 29, 67)]
        assert Path(material[0].span.file) == project
        # the fixed save is diffed against the last good one (12 -> 3) and applies
        assert [e.value for e in session.around[3][0].edits] == [3.0]
        session.player.step(0.2)
        assert young_speeds(session._particles()).mean() == pytest.approx(3, abs=1.0)
    finally:
        session.release()


def test_play_watch_rewrites_the_png_after_a_save(ctx, project, tmp_path):
    out = tmp_path / "out" / "live.png"
    text = project.read_text()
    changes, stamp = play_watch_saving(ctx, project, out, lambda: project.write_text(strength(text, 14)))
    assert [c.kind for c in changes] == ["applied"]
    assert out.stat().st_mtime_ns != stamp                                # rewritten after the save
    assert Image.open(out).size == (48, 27)
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".")]     # no temporary left


@pytest.mark.parametrize("args, says", [
    (["--watch", "--headless"], "--output FILE.png"),
    (["--watch", "--headless", "-o", "x.mp4"], "--output FILE.png"),
    (["--watch", "--window", "-o", "x.png"], None),
    (["--watch", "--headless", "-o", "x.png", "--stats", "s.csv"], "--output only"),
])
def test_watch_needs_a_headless_png_or_gif(project, args, says):
    from click.testing import CliRunner
    from kzplayer.cli import main
    result = CliRunner().invoke(main, ["play", str(project), *args])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    if says:
        assert says in result.output


def test_a_binding_edit_applies_in_place_keeps_the_particles_and_the_clock(ctx, project, monkeypatch):
    made, compiled = [], []
    original = moderngl.Context.compute_shader
    monkeypatch.setattr(moderngl.Context, "compute_shader",
                        lambda self, *a, **k: (compiled.append(1), original(self, *a, **k))[1])

    def make(p, g):
        made.append(Player(ctx, p, g, (48, 27), seed=2))
        return made[-1]

    session = LiveSession(str(project), load=load_live, make_player=make)
    session.start()
    try:
        session.player.clock.speed = 0.5
        for _ in range(30):
            session.player.step(1 / 60)
        at = session.player.time
        sim = session.player.sim
        before = sim.read_particles(sim.emitters[0]).copy()
        text = project.read_text()
        project.write_text(text.replace("{./Emission.Rate} *", "{./Emission.Rate} * 0.5 *"))
        compiled.clear()
        outcome = session.reload([str(project)])
        assert outcome.kind == "applied" and "bindings" in outcome.reason
        assert compiled == [] and outcome.compiled == 0 and outcome.rerun == []
        assert len(made) == 1 and session.player is made[0]                  # the same Player
        assert session.player.time == pytest.approx(at) and session.player.clock.speed == 0.5
        sim = session.player.sim
        # the new pool is the new binding's: 400 x 0.5 x (1.6 + 0.2), the particles in it kept
        assert sim.emitters[0].capacity >= 360
        assert sim.scene.value(sim.emitters[0].item, "ParticleEmitter.MaximumAmount") == pytest.approx(360)
        after = sim.read_particles(sim.emitters[0])
        assert len(before) > 50
        np.testing.assert_array_equal(before["serial"], after["serial"])
        np.testing.assert_array_equal(before["age"], after["age"])
    finally:
        session.release()


def test_the_window_loop_applies_a_save_and_says_a_broken_one_in_its_title(ctx, project):
    from types import SimpleNamespace

    from kzplayer.render.live_loop import Watcher
    from kzplayer.render.window import Keys, _loop
    from tests.render.test_window import FakeGlfw

    session = LiveSession(str(project), load=load_live, make_player=lambda p, g: Player(ctx, p, g, (64, 36), seed=4))
    session.start()
    watcher = Watcher(session)
    screen = ctx.simple_framebuffer((64, 36))
    heard = []
    text = project.read_text()
    try:
        assert watcher.ready.wait(WAIT)
        for content, kind in ((strength(text, 12), "applied"), (text[:1500], "broken")):
            project.write_text(content)
            deadline = time.monotonic() + WAIT
            while not watcher.pending() and time.monotonic() < deadline:
                time.sleep(0.02)
            assert watcher.pending()
            fake = FakeGlfw(Keys(), 3)
            _loop(fake, None, SimpleNamespace(screen=screen), Keys(), session.player, 60.0,
                  live=(watcher, heard.append))
            assert heard[-1].kind == kind
            assert fake.swaps == 3
        assert "does not play" in fake.titles[-1]
        item = session.player.sim.emitters[0].item
        assert session.player.sim.scene.value(item, "Emission.InitialVelocityStrength") == 12
    finally:
        watcher.close()
        session.release()
        screen.release()
