"""The live preview in the window's loop (render/window.py's _loop with a render/live_loop.py
Watcher, a fake glfw, the real file watcher): a save's whole-project checks run right after
the frame that shows it, before the effect steps on, as in the headless loop; a folder
project's new subfolder is watched as soon as a save brings an item file into it."""
from __future__ import annotations

import time
from contextlib import contextmanager
from types import SimpleNamespace

import kzplayer
from kzplayer.commands.watch import check_live, read_live
from kzplayer.render.live import LiveSession
from kzplayer.render.live_loop import Watcher
from kzplayer.render.player import Player
from kzplayer.render.window import Keys, _loop
from kzplayer.resources import samples_dir
from tests.render.live_project import SECOND_EMITTER, WAIT, project_text, save, write_project
from tests.render.test_window import FakeGlfw

SCENE = "Screens/Screen/RootNode/Viewport 2D/Scene"
SPARKS = """<?xml version="1.0" encoding="utf-8"?>
<ParticleSystem name="Sparks">
  <Child name="Spark"/>
</ParticleSystem>
"""
SPARK = """<?xml version="1.0" encoding="utf-8"?>
<ParticleEmitter name="Spark">
  <Property name="ParticleEmitter.EmissionMaterial">Emitter_Point</Property>
  <Property name="ParticleEmitter.EmissionCountMaterial">EmissionCount_Schedule</Property>
  <Property name="Emission.Rate">{rate}</Property>
  <Property name="ParticleEmitter.MaximumAmount">200</Property>
</ParticleEmitter>
"""


class Clock:
    """The loop's wall clock: 1/60 s a turn."""

    def __init__(self):
        self.t = 0.0

    def __call__(self):
        self.t += 1 / 60
        return self.t


@contextmanager
def watched(ctx, path, size, seed: int, played: float = 0.0):
    """A started LiveSession of `path` (read_live, check_live), played `played` s, then its
    Watcher (ready) and a screen of `size`; all released after."""
    session = LiveSession(str(path), load=read_live, check=check_live,
                          make_player=lambda p, g: Player(ctx, p, g, size, seed=seed))
    session.start()
    if played:
        session.player.step(played)
    watcher = Watcher(session)
    screen = ctx.simple_framebuffer(size)
    try:
        assert watcher.ready.wait(WAIT)
        yield session, watcher, screen
    finally:
        watcher.close()
        session.release()
        screen.release()


def wait_seen(watcher) -> float:
    """Wait for the watcher to queue a save; the deadline of what follows."""
    deadline = time.monotonic() + WAIT
    while not watcher.pending() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert watcher.pending(), "the save was not seen"
    return deadline


def turn_until(watcher, session, screen, heard, count: int, turns: int = 3) -> None:
    """Wait for the watcher to queue a save, then run the window's loop until `count`
    outcomes were heard (a few turns a time)."""
    deadline = wait_seen(watcher)
    while len(heard) < count and time.monotonic() < deadline:
        _loop(FakeGlfw(Keys(), turns), None, SimpleNamespace(screen=screen), Keys(), session.player, 60.0,
              now=Clock(), live=(watcher, heard.append))


def test_a_save_the_checks_refuse_is_undone_before_the_effect_steps_on(ctx, tmp_path):
    path = write_project(tmp_path)
    heard, seen = [], []
    with watched(ctx, path, (64, 36), seed=3, played=0.3) as (session, watcher, screen):
        def said(outcome):
            heard.append(outcome)
            seen.append((outcome.kind, session.player.time, session.player.sim.frames))
        # a value edit and an unknown material: drawn first, then refused by the checks
        save(path, project_text(jet_speed=5.0).replace("Emitter_Point<", "NoSuchMat<", 1))
        wait_seen(watcher)
        fake = FakeGlfw(Keys(), 2)
        _loop(fake, None, SimpleNamespace(screen=screen), Keys(), session.player, 60.0, now=Clock(),
              live=(watcher, said))
        assert [kind for kind, *_ in seen] == ["applied", "broken"]
        # the checks ran right after the save's frame: not one step of the effect in between
        (_, t_applied, f_applied), (_, t_checked, f_checked) = seen
        assert (t_checked, f_checked) == (t_applied, f_applied)
        assert fake.swaps == 2
        assert [d.rule for d in heard[1].diagnostics] == ["material.unknown"]
        item = session.player.sim.emitters[0].item
        assert session.player.sim.scene.value(item, "Emission.InitialVelocityStrength") == 2.0     # undone
        assert "does not play" in fake.titles[-1]


def test_the_window_watches_a_new_subfolder_of_a_folder_project(ctx, tmp_path):
    folder = tmp_path / "fountain"
    kzplayer.load(str(samples_dir() / "demo_fountain.kzm")).save(str(folder))
    scene = folder / (SCENE + ".kzm")
    text = scene.read_text()
    assert '<Child name="Particle System"/>' in text
    heard = []
    new_folder = folder / SCENE / "Sparks"
    with watched(ctx, folder, (48, 27), seed=2) as (session, watcher, screen):
        assert str(new_folder) not in session.folders()
        # a new system in a new subfolder: its files first, then the parent's <Child> line
        (folder / SCENE / "Sparks.kzm").write_text(SPARKS)
        new_folder.mkdir()
        (new_folder / "Spark.kzm").write_text(SPARK.format(rate=50))
        save(scene, text.replace('<Child name="Particle System"/>',
                                 '<Child name="Particle System"/>\n  <Child name="Sparks"/>'))
        turn_until(watcher, session, screen, heard, 1)
        assert heard[-1].kind == "rebuilt"
        spark = SCENE + "/Sparks/Spark"
        assert spark in [em.path for em in session.player.sim.emitters]
        assert str(new_folder) in session.folders() or any(
            str(new_folder).startswith(f + "/") for f in session.folders())
        # then an edit of the new file (in the new subfolder) applies
        time.sleep(0.5)                   # the watcher's next turn watches the new folders
        save(new_folder / "Spark.kzm", SPARK.format(rate=75))
        turn_until(watcher, session, screen, heard, 2)
        assert heard[-1].kind == "applied"
        assert [(e.path, e.name, e.value) for e in heard[-1].edits] == [(spark, "Emission.Rate", 75.0)]
        sim = session.player.sim
        item = next(em.item for em in sim.emitters if em.path == spark)
        assert sim.scene.value(item, "Emission.Rate") == 75


def test_the_watcher_watches_again_when_a_good_save_changes_the_folders(ctx, tmp_path):
    """What a save that brings a folder the watch does not cover yet does (a project's
    folder is watched recursively, so this is a file it plays from outside it): the thread
    reads the folders again after the save and sees the next change there."""
    from tests.render.live_project import write_texture
    path = write_project(tmp_path / "project")
    outside = tmp_path / "outside"
    outside.mkdir()
    heard = []
    with watched(ctx, path, (48, 27), seed=2) as (session, watcher, screen):
        assert str(outside) not in session.folders()
        folders = session.folders
        session.folders = lambda: folders() + [str(outside)]     # (as read after the save below)
        save(path, project_text(left_extra=SECOND_EMITTER))            # (a save read in full)
        turn_until(watcher, session, screen, heard, 1)
        assert heard[-1].kind == "rebuilt"
        session.files.add((outside / "dot.png").resolve())       # what the save makes it play from
        time.sleep(0.5)                   # the watcher's next turn watches the new folders
        write_texture(outside / "dot.png", (255, 0, 0))
        turn_until(watcher, session, screen, heard, 2)
        assert heard[-1].kind == "reloaded" and heard[-1].assets == [str((outside / "dot.png").resolve())]
