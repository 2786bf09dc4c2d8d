"""`play --watch` for real (issue 17): a temp project, the real file watcher (watchfiles,
kzplayer.render.live.watch_loop), saves written by another thread the way an editor writes
them, the Player playing in between. Save by save: what was compiled (counted on the GL
context), which ParticleSystems kept their particles, what a broken save reports."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import kzplayer
from kzplayer.commands.watch import load_live
from kzplayer.render.live import LiveSession
from kzplayer.render.player import Player
from kzplayer.resources import samples_dir
from tests.render.live_project import (BROKEN_PUSH, MARK, SECOND_EMITTER, count_compiles, programs_with,
                                       project_text, push_text, save, watch, write_project, write_texture)

LEFT, RIGHT = "Screens/Screen/Scene/Left", "Screens/Screen/Scene/Right"


class Recording(LiveSession):
    """A LiveSession that notes, around each reload, the programs compiled on its context
    and the particles of the emitter `watched`."""

    def __init__(self, *args, compiled, watched, **kwargs):
        super().__init__(*args, **kwargs)
        self.compiled, self.watched, self.around = compiled, watched, []

    def reload(self, changed=()):
        before, mark = self._particles(), len(self.compiled)
        outcome = super().reload(changed)
        self.player.draw()             # the frame that shows it (a render program would compile now)
        self.around.append((outcome, self.compiled[mark:], before, self._particles(), self.player, self.player.sim))
        return outcome

    def _particles(self):
        sim = self.player.sim
        em = next(e for e in sim.emitters if e.path.endswith("/" + self.watched))
        return sim.read_particles(em).copy()


@pytest.fixture
def compiled(ctx, monkeypatch):
    """The programs compiled on the test's context: ("compute" | "render", ...) per compile."""
    return count_compiles(ctx, monkeypatch)


def test_watched_saves_touch_only_what_they_change(ctx, tmp_path, compiled):
    path = write_project(tmp_path)
    push = tmp_path / "shaders" / "swirl_push.glsl"
    session = Recording(str(path), load=load_live, make_player=lambda p, g: Player(ctx, p, g, (64, 36), seed=7),
                        compiled=compiled, watched="Spray")
    session.start()
    session.player.draw()
    session.player.step(0.5)
    including = programs_with(session.player.sim, MARK.format(n=0))
    saves = [lambda: save(path, project_text(jet_pool="2.5")),                       # a binding
             lambda: save(path, project_text(jet_pool="2.5", left_extra=SECOND_EMITTER)),   # an emitter added
             lambda: save(push, push_text(1, up=2.0)),                                # the affector's include
             lambda: save(push, BROKEN_PUSH),
             lambda: save(push, push_text(2, up=0.5)),
             lambda: write_texture(tmp_path / "textures" / "right.png", (255, 255, 255))]
    try:
        outcomes = watch(session, saves)
        assert [o.kind for o in outcomes] == ["applied", "rebuilt", "rebuilt", "broken", "rebuilt", "reloaded"]
        assert [o.kind for o, *_ in session.around] == [o.kind for o in outcomes]
        (binding, c0, *_), (structural, c1, *_), (shader, c2, *_), (broken, c3, *_), (fixed, c4, *_), \
            (texture, c5, *_) = session.around
        # the binding edit: nothing compiled, both systems kept
        assert c0 == [] and binding.rerun == [] and sorted(binding.kept) == [LEFT, RIGHT]
        # the structural edit: Left rebuilt (its programs; the new emitter's draw is untextured: one
        # render program more), Right kept
        assert structural.rerun == [LEFT] and structural.kept == [RIGHT] and "compute" in c1
        assert c1.count("compute") == structural.compiled
        # the shader edit: exactly the programs that include the file
        assert shader.rerun == [LEFT] and c2 == ["compute"] * including
        # broken: reported at the include's line, nothing built, the last good state plays on
        assert [(d.rule, Path(d.span.file).name, d.span.line) for d in broken.diagnostics] == \
            [("shader.compile", "swirl_push.glsl", 4)]
        # (tried: the first program that holds the file fails, and the build stops there)
        assert 1 <= len(c3) <= including and set(c3) == {"compute"}
        assert session.around[3][5] is session.around[2][5]                 # the same Simulation
        assert fixed.rerun == [LEFT] and c4 == ["compute"] * including and session.problems == []
        # the texture: reloaded alone
        assert texture.assets == [str(tmp_path / "textures" / "right.png")] and c5 == []
        # Right's particles in flight went on through every save: serials and ages continue
        for outcome, _, before, after, *_ in session.around:
            assert len(before) > 50, outcome.kind
            np.testing.assert_array_equal(before["serial"], after["serial"])
            np.testing.assert_array_equal(before["age"], after["age"])
        assert session.around[-1][2]["serial"].max() > session.around[0][3]["serial"].max()    # and it played on
        assert len({id(a[4]) for a in session.around}) == 1                   # one Player throughout
    finally:
        session.release()


def test_a_folder_projects_item_file_change_applies(ctx, tmp_path):
    folder = tmp_path / "fountain"
    kzplayer.load(str(samples_dir() / "demo_fountain.kzm")).save(str(folder))
    nozzle = next(folder.rglob("Nozzle.kzm"))
    text = nozzle.read_text()
    strength = '<Property name="Emission.InitialVelocityStrength">7</Property>'
    assert strength in text
    session = Recording(str(folder), load=load_live, make_player=lambda p, g: Player(ctx, p, g, (48, 27), seed=2),
                        compiled=[], watched="Nozzle")
    session.start()
    session.player.step(0.5)
    try:
        outcomes = watch(session, [lambda: save(nozzle, text.replace(strength, strength.replace(">7<", ">12<")))])
        assert [o.kind for o in outcomes] == ["applied"]
        assert [(e.path.rsplit("/", 1)[-1], e.name, e.value) for e in outcomes[0].edits] == \
            [("Nozzle", "Emission.InitialVelocityStrength", 12.0)]
        sim = session.player.sim
        assert sim.scene.value(sim.emitters[0].item, "Emission.InitialVelocityStrength") == 12
        session.player.step(0.1)
        young = session._particles()
        young = young[young["age"] < 0.09]
        assert len(young) and np.linalg.norm(young["velocity"], axis=1).mean() == pytest.approx(12, abs=1.2)
    finally:
        session.release()
