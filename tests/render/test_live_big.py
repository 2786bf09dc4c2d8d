"""The live preview on a project of 200 emitters (20 ParticleSystems of 10), as `play --watch`
runs it (commands/watch.py: read_live, then check_live after the save's frame): what a value
or binding save touches is counted (systems refreshed, bindings evaluated), not timed; a
save that the whole-project checks refuse is undone and reported at its place."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kzplayer.commands.watch import check_live, read_live
from kzplayer.gpu import word_edit
from kzplayer.gpu.runner import SystemRunner
from kzplayer.render.live import LiveSession
from kzplayer.render.player import Player
from tests.render.live_project import play_watch_saving, save

SYSTEMS, EMITTERS = 20, 10
# one binding reads another's target: an edit of the pool binding re-runs exactly these two
LIFETIME = '<Binding target="Emission.Lifetime">{./ParticleEmitter.MaximumAmount} / 100.0</Binding>'
FIRST = "Screens/Screen/Scene/System 0"


def project_text(speed="2", pool="{./Emission.Rate} * 2", material="Emitter_Point") -> str:
    out = ['<?xml version="1.0" encoding="utf-8"?>\n<Project name="Big" format="1"><Screens><Screen name="Screen">'
           '<Scene name="Scene"><Camera name="Camera"><Property name="Node3D.RenderTransformation">'
           'Srt3D(1,1,1, 0,0,0, 0,2,30)</Property></Camera>\n']
    for s in range(SYSTEMS):
        out.append(f'<ParticleSystem name="System {s}"><Property name="Node3D.RenderTransformation">'
                   f'Srt3D(1,1,1, 0,0,0, {s % 5 - 2},{s // 5},0)</Property>\n')
        for e in range(EMITTERS):
            first = s == 0 and e == 0
            mat, expr = (material, pool) if first else ("Emitter_Point", "{./Emission.Rate} * 2")
            out.append(
                f'<ParticleEmitter name="Emitter {e}">\n'
                f'<Property name="ParticleEmitter.EmissionMaterial">{mat}</Property>\n'
                '<Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_Schedule</Property>\n'
                f'<Property name="Emission.Rate">{40 + 5 * e}</Property>\n'
                '<Property name="Emission.Lifetime">1.5</Property>\n'
                f'<Property name="Emission.InitialVelocityStrength">{speed if first else 2}</Property>\n'
                f'<Binding target="ParticleEmitter.MaximumAmount">{expr}</Binding>\n'
                + (LIFETIME + "\n" if first else "") +
                '</ParticleEmitter>\n')
        out.append('<ParticleAffector name="Gravity"><Property name="ParticleAffector.AffectorMaterial">Gravity'
                   '</Property></ParticleAffector></ParticleSystem>\n')
    out.append("</Scene></Screen></Screens></Project>\n")
    return "".join(out)


@pytest.fixture
def refreshed(monkeypatch):
    """The ParticleSystem paths whose GPU side was brought up to date, one entry a refresh
    or a rewrite of parameter words alone (gpu.word_edit)."""
    calls = []
    original, upload = SystemRunner.refresh, word_edit._upload

    def counted(self, *a, **k):
        calls.append(self.system.item.path)
        return original(self, *a, **k)

    def rewritten(runner, words):
        calls.append(runner.system.item.path)
        return upload(runner, words)
    monkeypatch.setattr(SystemRunner, "refresh", counted)
    monkeypatch.setattr(word_edit, "_upload", rewritten)
    return calls


@pytest.fixture
def session(ctx, tmp_path):
    path = tmp_path / "big.kzm"
    path.write_text(project_text())
    reported = []
    s = LiveSession(str(path), load=read_live, check=check_live, report=reported.append,
                    make_player=lambda p, g: Player(ctx, p, g, (32, 18), seed=2))
    s.reported = reported
    s.start()
    s.player.step(0.3)
    yield s
    s.release()


def first_emitter(sim):
    return next(em for em in sim.emitters if em.path == FIRST + "/Emitter 0")


def test_a_value_save_refreshes_only_the_system_it_is_in(session, refreshed):
    assert len(session.player.sim.emitters) == SYSTEMS * EMITTERS
    save(Path(session.path), project_text(speed="3"))
    outcome = session.apply([session.path])
    assert outcome.kind == "applied" and outcome.reason is None
    assert [(e.path, e.name, e.value) for e in outcome.edits] == \
        [(FIRST + "/Emitter 0", "Emission.InitialVelocityStrength", 3.0)]
    assert refreshed == [FIRST]
    sim = session.player.sim
    assert sim.scene.value(first_emitter(sim).item, "Emission.InitialVelocityStrength") == 3.0
    assert session.settle() is None and session.problems == []


def test_a_binding_save_evaluates_only_its_dependents_and_refreshes_only_their_system(session, refreshed):
    graph = session.player.sim.scene.graph
    assert len(graph.bindings) == SYSTEMS * EMITTERS + 1
    before = graph.evaluations
    save(Path(session.path), project_text(pool="{./Emission.Rate} * 3"))
    outcome = session.apply([session.path])
    assert outcome.kind == "applied" and "bindings" in outcome.reason and outcome.rerun == []
    assert session.player.sim.scene.graph is graph                 # the running graph, not a new one
    assert graph.evaluations - before == 2                         # the edited binding and LIFETIME's
    assert refreshed == [FIRST]
    sim = session.player.sim
    item = first_emitter(sim).item
    assert sim.scene.value(item, "ParticleEmitter.MaximumAmount") == 40 * 3
    assert sim.scene.value(item, "Emission.Lifetime") == pytest.approx(1.2)
    assert first_emitter(sim).capacity >= 120
    assert session.settle() is None and session.problems == []


def test_a_save_the_checks_refuse_is_undone_after_its_frame_and_reported_at_its_place(session):
    sim = session.player.sim
    item = first_emitter(sim).item
    particles = sim.read_particles(first_emitter(sim)).copy()
    text = project_text(speed="5", material="NoSuchMat")
    save(Path(session.path), text)
    outcome = session.apply([session.path])
    assert outcome.kind == "applied"                                   # drawn first ...
    assert sim.scene.value(item, "Emission.InitialVelocityStrength") == 5.0
    session.player.draw()
    broken = session.settle()                                          # ... then checked
    assert broken is not None and broken.kind == "broken"
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "NoSuchMat" in row)
    column = text.splitlines()[line - 1].index("NoSuchMat") + 1
    assert [(d.rule, d.span.line, d.span.column) for d in broken.diagnostics] == [("material.unknown", line, column)]
    assert session.problems == broken.diagnostics and session.reported == [broken.diagnostics]
    # the last good state again: its values, its particles untouched
    sim = session.player.sim
    assert sim.scene.value(item, "Emission.InitialVelocityStrength") == 2.0
    assert str(sim.scene.value(item, "ParticleEmitter.EmissionMaterial")) == "Emitter_Point"
    np.testing.assert_array_equal(sim.read_particles(first_emitter(sim)), particles)
    # a fixed save is diffed against the last good state and resumes
    save(Path(session.path), project_text(speed="4"))
    outcome = session.reload([session.path])
    assert outcome.kind == "applied" and session.problems == []
    assert [(e.name, e.value) for e in outcome.edits] == [("Emission.InitialVelocityStrength", 4.0)]


def test_a_binding_save_the_checks_refuse_is_undone(session):
    graph = session.player.sim.scene.graph
    item = first_emitter(session.player.sim).item
    save(Path(session.path), project_text(pool="{./Emission.Rate} * 3", material="NoSuchMat"))
    outcome = session.reload([session.path])                 # apply and settle in one
    assert outcome.kind == "broken" and [d.rule for d in outcome.diagnostics] == ["material.unknown"]
    assert graph.value(item, "ParticleEmitter.MaximumAmount") == 80
    assert [b.expression for b in item.bindings] == ["{./Emission.Rate} * 2", LIFETIME.split(">")[1].split("<")[0]]


def test_play_watch_draws_a_save_before_its_checks_and_rewrites_the_good_frame_when_they_refuse(ctx, tmp_path):
    """The real watcher and `play --watch --output x.png`: a save the checks refuse is first
    shown (its output written), then undone and reported, the good frame written again."""
    from PIL import Image

    path, out = tmp_path / "big.kzm", tmp_path / "out.png"
    path.write_text(project_text())
    changes, _ = play_watch_saving(ctx, path, out, lambda: save(path, project_text(speed="9", material="NoSuchMat")))
    # on_change hears the applied save (its frame written) and then the checks' verdict
    assert [c.kind for c in changes] == ["applied", "broken"]
    assert [d.rule for d in changes[1].diagnostics] == ["material.unknown"]
    assert Image.open(out).size == (48, 27)
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".")]
