"""The studio's session without a browser or GL: edits reach the binding graph, undo and
redo put the model back exactly (a save after undoing everything writes the file as it
was), save changes only the edited value, a refused edit leaves no trace, an external edit
is told from our own save; the property panel lists what the materials read."""
from __future__ import annotations

import difflib

import pytest

from kzplayer.studio import panel
from kzplayer.studio.binding_check import check_expression
from kzplayer.studio.ops import EditError, Group, SetBinding, SetValue
from kzplayer.studio.session import StudioSession
from tests.studio.conftest import DEMO, NOZZLE

POOL = "ParticleEmitter.MaximumAmount"      # bound: Rate x (Lifetime + LifetimeVariance)


@pytest.fixture
def session(project):
    return StudioSession(project)


def pool(s):
    return s.graph.value(s.project.find(NOZZLE), POOL)


def changed_lines(a: str, b: str) -> list[str]:
    return [line for line in difflib.unified_diff(a.splitlines(), b.splitlines(), lineterm="", n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def test_a_value_edit_runs_the_bindings_that_read_it_and_undo_redo_follow(session):
    assert pool(session) == 400 * 1.8
    session.edit(SetValue(NOZZLE, "Emission.Rate", "1000"))
    assert pool(session) == 1000 * 1.8 and session.dirty
    session.undo()
    assert pool(session) == 400 * 1.8 and not session.dirty and session.project.changed == []
    assert session.project.find(NOZZLE).properties["Emission.Rate"].text == "400"
    session.redo()
    assert pool(session) == 1000 * 1.8
    with pytest.raises(EditError):
        session.redo()


def test_save_writes_only_the_edited_value_and_undoing_all_writes_the_original(session, project):
    original = project.read_text(encoding="utf-8")
    session.edit(SetValue(NOZZLE, "Emission.Rate", "250"))
    session.edit(SetValue(NOZZLE, "Emission.Lifetime", "3"))
    session.undo()
    session.save()
    assert changed_lines(original, project.read_text(encoding="utf-8")) == [
        '-                <Property name="Emission.Rate">400</Property>',
        '+                <Property name="Emission.Rate">250</Property>']
    assert not session.dirty and not session.external_change()      # our own save
    session.undo()
    assert session.dirty
    session.save()
    assert project.read_text(encoding="utf-8") == original


def test_a_refused_edit_changes_nothing(session):
    version = session.version
    for op in (SetValue(NOZZLE, "Emission.Rate", "-1"), SetValue(NOZZLE, "Emission.Rate", "(1, 2)"),
               SetValue(NOZZLE, "Emission.Rat", "1"), SetValue("No/Such", "Emission.Rate", "1"),
               SetValue(NOZZLE, "ParticleEmitter.EventBuffer", "1"), SetBinding(NOZZLE, 3, "1")):
        with pytest.raises(EditError):
            session.edit(op)
    assert session.version == version and session.done == [] and not session.dirty
    assert session.project.changed == []


def test_a_property_added_then_undone_is_gone_from_the_model(session, project):
    nozzle = session.project.find(NOZZLE)
    session.edit(SetValue(NOZZLE, "Emission.Density", "2"))
    assert nozzle.properties["Emission.Density"].value == 2.0
    session.undo()
    assert "Emission.Density" not in nozzle.properties and not session.dirty


def test_a_group_is_one_step_of_undo(session):
    nozzle = session.project.find(NOZZLE)
    names = ["Emission.Density", "Emission.Seed"]
    session.edit(Group("two", [SetValue(NOZZLE, n, "1") for n in names]))
    assert all(n in nozzle.properties for n in names)
    session.undo()
    assert not any(n in nozzle.properties for n in names)
    with pytest.raises(EditError):                  # one bad member: none is applied
        session.edit(Group("bad", [SetValue(NOZZLE, "Emission.Seed", "1"), SetValue(NOZZLE, "Emission.Rate", "-1")]))
    assert "Emission.Seed" not in nozzle.properties and session.done == []


def test_a_binding_edit_rebuilds_the_graph_and_undo_brings_back_the_raw_expression(session):
    nozzle = session.project.find(NOZZLE)
    before = nozzle.bindings[0].expression
    session.edit(SetBinding(NOZZLE, 0, "{./Emission.Rate} * 3"))
    assert pool(session) == 1200
    session.undo()
    assert nozzle.bindings[0].expression == before and pool(session) == 720


def test_an_external_edit_is_seen_and_reloaded(session, project):
    session.edit(SetValue(NOZZLE, "Emission.Rate", "250"))
    assert not session.external_change()
    project.write_text(project.read_text(encoding="utf-8").replace(">400<", ">55<"), encoding="utf-8")
    assert session.external_change()
    assert session.project.find(NOZZLE).get("Emission.Rate") == 55 and session.done == []


def test_the_binding_check_points_at_the_column_and_gives_the_value(session):
    nozzle = session.project.find(NOZZLE)
    ok = check_expression(session.project, nozzle, 0, "{./Emission.Rate} * 2")
    assert ok == {"ok": True, "problems": [], "value": "800"}
    bad = check_expression(session.project, nozzle, 0, "{./Emission.Rate} * (2")
    assert not bad["ok"] and bad["problems"][0]["column"] == len("{./Emission.Rate} * (2") + 1
    typo = check_expression(session.project, nozzle, 0, "2 + {./Emission.Rat}")
    assert typo["problems"][0]["column"] == 5 and "Emission.Rate" in typo["problems"][0]["hint"]
    assert nozzle.bindings[0].expression.startswith("{./Emission.Rate} * ({./")   # untouched


def test_the_panel_lists_what_each_material_reads(session):
    project = session.project
    p = panel.panel(project, session.graph, project.find(NOZZLE))
    by_material = {g["material"]: g for g in p["groups"] if g["material"]}
    cat = project.catalog
    for name in ("Emitter_Point", "EmissionCount_Schedule"):
        listed = [r["name"] for r in by_material[name]["rows"]]
        assert set(listed) <= set(cat.material(name).properties) and listed
    rate = next(r for r in by_material["EmissionCount_Schedule"]["rows"] if r["name"] == "Emission.Rate")
    assert (rate["type"], rate["unit"], rate["min"], rate["value"], rate["set"]) == ("float", "particles/s", 0.0, "400", True)
    rows = {r["name"]: r for g in p["groups"] for r in g["rows"]}
    assert rows[POOL]["binding"] == 0 and rows[POOL]["value"] == "720"
    assert rows["Emission.Density"]["set"] is False        # unset: shown with its default
    assert "Emission.Density" in by_material["Emitter_Point"]["missing"]
    shown = [r["name"] for g in p["groups"] for r in g["rows"]]
    assert len(shown) == len(set(shown))                    # each property once


def test_diagnostics_point_at_an_item_and_property(session):
    session.edit(SetBinding(NOZZLE, 0, "{./Emission.Rat} * 2"))
    found = session.diagnostics()
    assert any(d["item"] == NOZZLE and d["property"] == POOL and d["severity"] == "error" for d in found)
    session.undo()
    assert session.diagnostics() == []


def test_the_demo_is_where_play_finds_it():
    assert DEMO.exists()


def test_a_folder_project_saves_only_the_edited_items_file(tmp_path):
    from kzplayer.project.convert import convert
    folder = tmp_path / "fountain"
    convert(str(DEMO), str(folder))
    before = {f: f.read_bytes() for f in folder.rglob("*") if f.is_file()}
    s = StudioSession(folder)
    s.edit(SetValue(NOZZLE, "Emission.Rate", "640"))
    s.save()
    after = {f: f.read_bytes() for f in folder.rglob("*") if f.is_file()}
    changed = [f for f in after if after[f] != before.get(f)]
    assert len(changed) == 1 and set(after) == set(before)
    assert changed_lines(before[changed[0]].decode(), after[changed[0]].decode()) == [
        '-  <Property name="Emission.Rate">400</Property>', '+  <Property name="Emission.Rate">640</Property>']


def test_a_binding_added_and_one_removed_each_undo(session):
    from kzplayer.studio.ops import AddBinding, RemoveBinding
    nozzle = session.project.find(NOZZLE)
    session.edit(AddBinding(NOZZLE, "Emission.Lifetime", "{./Emission.Rate} / 200"))
    assert session.graph.value(nozzle, "Emission.Lifetime") == 2.0 and pool(session) == 880     # 400 x (2.0 + 0.2)
    with pytest.raises(EditError):
        session.edit(AddBinding(NOZZLE, "Emission.Lifetime", "1"))          # bound already
    with pytest.raises(EditError):
        session.edit(AddBinding(NOZZLE, "ParticleEmitter.EventBuffer", "1"))
    session.undo()
    assert len(nozzle.bindings) == 1 and session.graph.value(nozzle, "Emission.Lifetime") == 1.6
    session.edit(RemoveBinding(NOZZLE, 0))
    assert nozzle.bindings == [] and pool(session) == 1000          # the catalog default plays
    session.undo()
    assert len(nozzle.bindings) == 1 and pool(session) == 720 and not session.dirty
    new = check_expression(session.project, nozzle, None, "{./Emission.Rate} * 2", target="Emission.Lifetime")
    assert new["value"] == "800" and len(nozzle.bindings) == 1        # tried, not kept
