"""A live save of one literal at 200 emitters (kzplayer.render.live's fast path,
render/live_text.py): applied without reading the project, the full read after the frame
(settle) finding the same edit; a save that touches markup is read in full as before; a bad
literal is reported where a full load reports it; a binding's expression is rebound in
place; what the checks refuse is still refused and undone."""
from __future__ import annotations

from pathlib import Path

import pytest

from kzplayer.commands.watch import check_live, read_live
from kzplayer.project.loader import load_project
from kzplayer.render.live import LiveSession
from kzplayer.render.player import Player
from tests.render.live_project import save
from tests.render.test_live_big import FIRST, first_emitter, project_text


@pytest.fixture
def session(ctx, tmp_path):
    path = tmp_path / "big.kzm"
    path.write_text(project_text())
    loads = []

    def load(p):
        loads.append(p)
        return read_live(p)
    s = LiveSession(str(path), load=load, check=check_live, report=lambda d: None,
                    make_player=lambda p, g: Player(ctx, p, g, (32, 18), seed=2))
    s.start()
    s.player.step(0.3)
    s.loads = loads
    yield s
    s.release()


def test_a_literal_save_applies_without_a_read_and_the_read_after_the_frame_agrees(session):
    path = Path(session.path)
    save(path, project_text(speed="3"))
    loads = len(session.loads)
    outcome = session.apply([session.path])
    assert len(session.loads) == loads                                   # nothing read but the file's text
    assert outcome.kind == "applied" and outcome.reason is None
    assert [(e.path, e.name, e.value) for e in outcome.edits] == \
        [(FIRST + "/Emitter 0", "Emission.InitialVelocityStrength", 3.0)]
    sim = session.player.sim
    assert sim.scene.value(first_emitter(sim).item, "Emission.InitialVelocityStrength") == 3.0
    session.player.draw()
    assert session.settle() is None and session.problems == []
    assert len(session.loads) == loads + 1                               # the full read, after the frame
    # the last good load is the full read's: the next save is diffed against its values
    assert session.good.find(FIRST + "/Emitter 0").properties["Emission.InitialVelocityStrength"].value == 3.0
    save(path, project_text(speed="4"))
    outcome = session.reload([session.path])
    assert [(e.name, e.value) for e in outcome.edits] == [("Emission.InitialVelocityStrength", 4.0)]
    assert sim.scene.value(first_emitter(sim).item, "Emission.InitialVelocityStrength") == 4.0


def test_a_save_that_touches_markup_is_read_in_full(session):
    loads = len(session.loads)
    text = project_text(speed="3").replace('<Property name="Emission.Lifetime">1.5</Property>',
                                           '<Property name="Emission.Lifetime">1.5</Property><!-- -->', 1)
    save(Path(session.path), text)
    outcome = session.apply([session.path])
    assert len(session.loads) == loads + 1
    assert outcome.kind == "applied" and [e.value for e in outcome.edits] == [3.0]
    assert session.settle() is None
    assert len(session.loads) == loads + 1                               # read once


def test_a_bad_literal_is_broken_at_the_place_a_full_load_gives(session):
    path = Path(session.path)
    item = first_emitter(session.player.sim).item
    save(path, project_text(speed="3.x"))
    outcome = session.apply([session.path])
    assert outcome.kind == "broken"
    _, diagnostics = load_project(str(path))
    errors = [d for d in diagnostics if d.severity.name == "ERROR"]
    assert outcome.diagnostics == errors and session.problems == errors
    line = next(n for n, row in enumerate(path.read_text().splitlines(), 1) if "3.x" in row)
    assert [(d.rule, Path(d.span.file), d.span.line) for d in outcome.diagnostics] == \
        [("property.type", path, line)]
    assert session.settle() is None                                      # nothing applied, nothing to check
    assert session.player.sim.scene.value(item, "Emission.InitialVelocityStrength") == 2.0
    save(path, project_text(speed="5"))                                  # fixed: read in full, applied
    outcome = session.reload([session.path])
    assert outcome.kind == "applied" and [e.value for e in outcome.edits] == [5.0] and session.problems == []


def test_a_binding_expression_is_rebound_in_place_without_a_read(session):
    graph = session.player.sim.scene.graph
    before, loads = graph.evaluations, len(session.loads)
    save(Path(session.path), project_text(pool="{./Emission.Rate} * 3"))
    outcome = session.apply([session.path])
    assert len(session.loads) == loads
    assert outcome.kind == "applied" and outcome.reason == f"{FIRST}/Emitter 0: its bindings changed"
    assert session.player.sim.scene.graph is graph and graph.evaluations - before == 2
    sim = session.player.sim
    item = first_emitter(sim).item
    assert sim.scene.value(item, "ParticleEmitter.MaximumAmount") == 120
    assert sim.scene.value(item, "Emission.Lifetime") == pytest.approx(1.2)
    assert session.settle() is None and len(session.loads) == loads + 1
    assert [b.expression for b in session.good.find(FIRST + "/Emitter 0").bindings][0] == "{./Emission.Rate} * 3"


def test_a_literal_the_checks_refuse_is_undone_after_its_frame(session):
    path = Path(session.path)
    item = first_emitter(session.player.sim).item
    text = project_text(material="NoSuchMat")
    save(path, text)
    outcome = session.apply([session.path])
    assert outcome.kind == "applied" and [e.name for e in outcome.edits] == ["ParticleEmitter.EmissionMaterial"]
    session.player.draw()
    broken = session.settle()
    assert broken is not None and broken.kind == "broken"
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "NoSuchMat" in row)
    assert [(d.rule, d.span.line) for d in broken.diagnostics] == [("material.unknown", line)]
    assert str(session.player.sim.scene.value(item, "ParticleEmitter.EmissionMaterial")) == "Emitter_Point"


def test_a_file_saved_again_before_the_read_is_applied_as_the_read_finds_it(session):
    """The full read after the frame finds a later save already: the fast edit is undone
    and what the read finds applied (and checked) instead."""
    path = Path(session.path)
    item = first_emitter(session.player.sim).item
    save(path, project_text(speed="3"))
    assert session.apply([session.path]).kind == "applied"
    save(path, project_text(speed="6", pool="{./Emission.Rate} * 3"))     # before the frame's checks
    outcome = session.settle()
    assert outcome is not None and outcome.kind == "applied"
    assert [(e.name, e.value) for e in outcome.edits] == [("Emission.InitialVelocityStrength", 6.0)]
    sim = session.player.sim
    assert sim.scene.value(item, "Emission.InitialVelocityStrength") == 6.0
    assert sim.scene.value(item, "ParticleEmitter.MaximumAmount") == 120
    assert session._pending is None and session.problems == []


def test_a_saved_drawing_value_shows_in_the_next_frame(ctx, tmp_path):
    """Particle.Color is read by the drawing only (the frame's values, the material's
    uniforms kept per emitter): the frame after the save draws with the new one."""
    import shutil

    from kzplayer.resources import samples_dir
    path = tmp_path / "fountain.kzm"
    shutil.copy(samples_dir() / "demo_fountain.kzm", path)
    strength = '<Property name="Emission.InitialVelocityStrength">7</Property>'
    text = path.read_text()
    assert strength in text

    def coloured(colour: str) -> str:
        return text.replace(strength, strength + f'\n<Property name="Particle.Color">{colour}</Property>')
    path.write_text(coloured("Color4(1, 1, 1, 1)"))
    s = LiveSession(str(path), load=read_live, check=check_live,
                    make_player=lambda p, g: Player(ctx, p, g, (64, 36), seed=2))
    s.start()
    try:
        s.player.step(0.8)
        s.player.draw()
        white = s.player.image().astype(float)
        save(path, coloured("Color4(1, 0, 0, 1)"))
        outcome = s.apply([str(path)])
        assert [(e.name, tuple(e.value)) for e in outcome.edits] == [("Particle.Color", (1.0, 0.0, 0.0, 1.0))]
        s.player.draw()
        red = s.player.image().astype(float)
        assert s.settle() is None
        assert white[..., 1].sum() > 0 and red[..., 1].sum() < 0.2 * white[..., 1].sum()
        assert red[..., 0].sum() > 0.5 * white[..., 0].sum()
    finally:
        s.release()


def test_a_value_save_keeps_every_frames_figures_for_the_player(session):
    """A change of parameter words waits for no frame in flight: the Player is handed the
    figures of every frame, those in flight at the save included (they were taken and
    dropped by the save before)."""
    player = session.player
    frames = []
    player.on_stats = lambda frame, figures: frames.append(frame)
    for _ in range(3):
        player.step(1 / 60)
    save(Path(session.path), project_text(speed="3"))
    assert session.apply([session.path]).kind == "applied"
    assert session.settle() is None
    for _ in range(3):
        player.step(1 / 60)
    player.flush_stats()
    assert frames and frames == list(range(frames[0], player.sim.frames))
