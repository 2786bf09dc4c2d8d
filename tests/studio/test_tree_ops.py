"""The studio's tree edits on the session: add from the catalog, remove, rename, duplicate,
move, each undone exactly; subemitter wiring as the events page's recipe says, and the
wired subemitter's particles appear when it plays (GL)."""
from __future__ import annotations

import shutil

import pytest

from kzplayer.project.loader import load
from kzplayer.studio.ops import EditError
from kzplayer.studio.session import StudioSession
from kzplayer.studio.tree_ops import (AddItem, DuplicateItem, MoveItem, RemoveItem, RenameItem,
                                      WireSubemitter, relative_path)
from tests.conftest import REPO
from tests.studio.conftest import NOZZLE

SYSTEM = NOZZLE.rsplit("/", 1)[0]
SPARKS = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Death Sparks"


@pytest.fixture
def session(project):
    return StudioSession(project)


@pytest.fixture
def sparks(tmp_path):
    path = tmp_path / "sparks" / "07_death_sparks.kzm"
    shutil.copytree(REPO / "sample_projects", path.parent, ignore=shutil.ignore_patterns("golden", "pictures"))
    return StudioSession(path)


def names(s, path=SYSTEM):
    return [c.name for c in s.project.find(path).children]


def errors(s):
    return [d for d in s.findings() if d.severity.value == "error"]


def test_add_from_the_catalog_and_undo(session):
    session.edit(AddItem(SYSTEM, material="Wind"))
    assert names(session) == ["Nozzle", "Gravity", "Wind"]
    wind = session.project.find(SYSTEM + "/Wind")
    assert wind.type == "ParticleAffector" and str(wind.get("ParticleAffector.AffectorMaterial")) == "Wind"
    session.edit(AddItem(SYSTEM, material="Emitter_Box"))
    box = session.project.find(SYSTEM + "/Emitter_Box")
    assert box.type == "ParticleEmitter" and str(box.get("ParticleEmitter.EmissionCountMaterial")) == "EmissionCount_Schedule"
    assert errors(session) == []
    session.undo()
    session.undo()
    assert names(session) == ["Nozzle", "Gravity"] and not session.dirty
    for bad in (AddItem(SYSTEM, type="Screens"), AddItem(SYSTEM, material="NoSuch"),
                AddItem(SYSTEM, type="ParticleAffector", name="Gravity"), AddItem(SYSTEM, type="EmptyNode", name="a/b")):
        with pytest.raises(EditError):
            session.edit(bad)


def test_remove_rename_move_duplicate_each_undone_to_the_same_objects(session):
    gravity = session.project.find(SYSTEM + "/Gravity")
    session.edit(RemoveItem(SYSTEM + "/Gravity"))
    assert names(session) == ["Nozzle"]
    session.undo()
    assert session.project.find(SYSTEM + "/Gravity") is gravity
    session.edit(MoveItem(SYSTEM + "/Gravity", SYSTEM, 0))
    assert names(session) == ["Gravity", "Nozzle"]
    session.edit(RenameItem(SYSTEM + "/Nozzle", "Jet"))
    assert names(session) == ["Gravity", "Jet"] and errors(session) == []
    session.edit(DuplicateItem(SYSTEM + "/Jet"))
    assert names(session) == ["Gravity", "Jet", "Jet copy"] and errors(session) == []
    copy = session.project.find(SYSTEM + "/Jet copy")
    assert copy.bindings[0].owner is copy and copy.bindings[0] is not session.project.find(SYSTEM + "/Jet").bindings[0]
    for _ in range(3):
        session.undo()
    assert names(session) == ["Nozzle", "Gravity"] and not session.dirty
    with pytest.raises(EditError):
        session.edit(MoveItem(SYSTEM, SYSTEM + "/Nozzle", 0))      # into itself
    with pytest.raises(EditError):
        session.edit(RenameItem(SYSTEM + "/Nozzle", "Gravity"))    # a sibling's name
    with pytest.raises(EditError):
        session.edit(RemoveItem("Screens"))


def test_rename_and_move_keep_absolute_binding_paths_pointing_at_the_item(sparks):
    sub = SPARKS + "/Subemitter"
    assert errors(sparks) == []
    sparks.edit(RenameItem(sub, "Sparks"))
    moved = sparks.project.find(SPARKS + "/Sparks")
    assert {b.push_target for b in moved.bindings if b.push_target} == {SPARKS + "/Sparks"}
    assert errors(sparks) == []
    sparks.edit(RenameItem(SPARKS + "/Source", "Rocket"))
    assert {s.item for b in moved.bindings for s in b.sources} == {SPARKS + "/Rocket"}
    sparks.undo()
    sparks.undo()
    original = sparks.project.find(sub)
    assert {b.push_target for b in original.bindings if b.push_target} == {sub}
    assert {s.item for b in original.bindings for s in b.sources} == {SPARKS + "/Source"}


def test_duplicating_a_group_points_the_copy_at_its_own_source(sparks):
    sparks.edit(DuplicateItem(SPARKS))
    copy = SPARKS + " copy"
    sub = sparks.project.find(copy + "/Subemitter")
    assert {b.push_target for b in sub.bindings if b.push_target} == {copy + "/Subemitter"}
    assert {s.item for b in sub.bindings for s in b.sources} == {copy + "/Source"}
    assert errors(sparks) == []


def test_relative_paths():
    assert relative_path("A/B/Sub", "A/B/Source") == "../Source"
    assert relative_path("A/B/G/Sub", "A/B/Source") == "../../Source"
    assert relative_path("A/B", "A/B/C") == "./C"


def test_wiring_a_subemitter_follows_the_recipe_and_undoes(session):
    session.edit(AddItem(SYSTEM, type="ParticleEmitter", name="Splash"))
    before = session.project.find(SYSTEM + "/Splash")
    props_before = dict(before.properties)
    session.edit(WireSubemitter(SYSTEM + "/Splash", NOZZLE))
    splash, nozzle = session.project.find(SYSTEM + "/Splash"), session.project.find(NOZZLE)
    assert str(splash.get("ParticleEmitter.EmissionMaterial")) == "Emitter_FromEvents"
    assert str(splash.get("ParticleEmitter.EmissionCountMaterial")) == "EmissionCount_FromEvents"
    assert str(nozzle.get("ParticleEmitter.GenerateEventsMaterial")) == "Event_Lifetime"
    wired = {b.target: b for b in splash.bindings}
    events = wired["Emission.SourceEventBuffer"]
    assert (events.expression, events.raw_code, events.mode, events.push_target) == (
        "{@../Nozzle/ParticleEmitter.EventBuffer}", "{0}", "ONE_WAY", SYSTEM + "/Splash")
    assert [(s.name, s.item, s.source) for s in events.sources] == [("0", NOZZLE, "ParticleEmitter.EventBuffer")]
    assert wired["Emission.SourceParticleDataBuffer"].sources[0].source == "ParticleEmitter.ParticleDataBuffer"
    assert "Emission.SourceEventBuffer" in splash.properties and splash.properties["Emission.SourceEventBuffer"].value is None
    assert errors(session) == []
    session.undo()
    assert splash.bindings == [] and dict(splash.properties) == props_before
    assert nozzle.own_property("ParticleEmitter.GenerateEventsMaterial") is None


def test_a_wired_subemitter_plays_and_its_save_loads(session, project, ctx):
    from kzplayer.render.player import Player
    session.edit(AddItem(SYSTEM, type="ParticleEmitter", name="Splash"))
    session.edit(WireSubemitter(SYSTEM + "/Splash", NOZZLE))
    session.save()
    saved = load(str(project))
    assert saved.find(SYSTEM + "/Splash").bindings[0].raw_code == "{0}"
    player = Player(ctx, session.project, session.graph, (64, 36), seed=1)
    try:
        for _ in range(150):                 # 2.5 s: the nozzle's first drops die from 1.4 s on
            player.step(1 / 60)
        stats = player.sim.stats
        assert stats[SYSTEM + "/Splash"].alive > 0 and stats[NOZZLE].alive > 300
    finally:
        player.release()


def test_a_folder_projects_rename_and_move_save_in_place_and_undo_saves_back(tmp_path):
    """Kanzi Studio's rename and move on a folder project: saved in place (files moved), and
    undoing both then saving again gives back every file byte for byte."""
    import kzplayer
    from tests.studio.conftest import DEMO
    folder = tmp_path / "demo"
    kzplayer.load(DEMO).save(folder)
    before = {f.relative_to(folder): f.read_bytes() for f in folder.rglob("*.kzm")}
    s = StudioSession(folder)
    s.edit(RenameItem(SYSTEM + "/Gravity", "Pull"))
    s.edit(MoveItem(SYSTEM + "/Pull", SYSTEM + "/Nozzle", 0))
    s.save()
    assert not (folder / (SYSTEM + "/Gravity.kzm")).exists() and (folder / (NOZZLE + "/Pull.kzm")).exists()
    assert [c.name for c in load(str(folder)).find(NOZZLE).children] == ["Pull"]
    assert not s.external_change()                      # our own save, files moved included
    s.undo()
    s.undo()
    s.save()
    assert {f.relative_to(folder): f.read_bytes() for f in folder.rglob("*.kzm")} == before
    assert not (folder / NOZZLE).exists()               # the folder the move made is gone again
