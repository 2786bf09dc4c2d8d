"""The events page's end-to-end recipe: two BindingItems carry Source's output buffers into
Subemitter's consumer properties; and the ways that wiring goes wrong."""
from pathlib import Path

import kzplayer
from kzplayer.bindings import resolve
from kzplayer.values import BufferHandle

from .conftest import DATA, where

GROUP = "Screens/Screen/RootNode/Viewport 2D/Scene/Exhibit 6/Particle System/On Hit"
RECIPE = DATA / "subemitter_recipe.kzm"


def broken_copy(tmp_path, old: str, new: str, count: int = 1) -> Path:
    text = RECIPE.read_text(encoding="utf-8")
    assert text.count(old) >= count
    f = tmp_path / "recipe.kzm"
    f.write_text(text.replace(old, new, count), encoding="utf-8")
    return f


def test_subemitter_receives_the_source_buffers():
    project = kzplayer.load(RECIPE)
    graph = resolve(project)
    source, sub = project.find(f"{GROUP}/Source"), project.find(f"{GROUP}/Subemitter")
    assert graph.diagnostics == []
    assert graph.value(sub, "Emission.SourceEventBuffer") == BufferHandle("EventBuffer", f"{GROUP}/Source")
    assert graph.value(sub, "Emission.SourceParticleDataBuffer") == BufferHandle("ParticleDataBuffer", f"{GROUP}/Source")
    # the outputs are computed, never stored, and each emitter has its own
    assert graph.value(sub, "ParticleEmitter.EventBuffer") == BufferHandle("EventBuffer", f"{GROUP}/Subemitter")
    assert graph.is_bound(sub, "Emission.SourceEventBuffer")
    assert not graph.is_bound(source, "ParticleEmitter.EventBuffer")
    assert graph.evaluations == 2
    assert [b.name for b in graph.bindings_of(sub)] == ["Emission.SourceEventBuffer",
                                                        "Emission.SourceParticleDataBuffer"]
    assert graph.bindings_of(source) == []


def test_renamed_source_leaves_stale_source_items(tmp_path):
    # the source was renamed: the relative SourceExpression follows, the absolute source items do not
    f = broken_copy(tmp_path, "<ParticleEmitter name=\"Source\">", "<ParticleEmitter name=\"Primary\">")
    f.write_text(f.read_text().replace("{@../Source/", "{@../Primary/"))
    project = kzplayer.load(f)
    graph = resolve(project)
    assert [d.rule for d in graph.diagnostics] == ["path.stale", "path.stale"]   # one per binding
    d = graph.diagnostics[0]
    assert (d.span.line, d.span.column) == where(f, f"{GROUP}/Source<")          # where the fix goes
    assert d.hint == f"set BindingSourceItem.Item to {GROUP}/Primary"
    assert "leads to no item" in d.message
    [expr] = d.related
    assert (expr.line, expr.column) == where(f, "{@../Primary/ParticleEmitter.EventBuffer}")
    sub = project.find(f"{GROUP}/Subemitter")
    assert graph.value(sub, "Emission.SourceEventBuffer") is None                # nothing to run


def test_source_item_naming_another_emitter(tmp_path):
    # the events binding's source item names the Subemitter itself, the expression names Source
    f = broken_copy(tmp_path, "On Hit/Source</Property>", "On Hit/Subemitter</Property>")
    project = kzplayer.load(f)
    graph = resolve(project)
    [d] = graph.diagnostics
    assert d.rule == "path.stale"
    assert (d.span.line, d.span.column) == where(f, f"{GROUP}/Subemitter</Property>", nth=1)
    assert f"names {GROUP}/Subemitter" in d.message and f"names {GROUP}/Source" in d.message
    [expr] = d.related
    assert (expr.line, expr.column) == where(f, "{@../Source/ParticleEmitter.EventBuffer}")
    # Kanzi runs RawCode and its sources: the subemitter reads its own buffer
    sub = project.find(f"{GROUP}/Subemitter")
    assert graph.value(sub, "Emission.SourceEventBuffer").owner == f"{GROUP}/Subemitter"


def test_misspelt_source_property_is_no_stale_path(tmp_path):
    # the source item still names the emitter the expression means: only the Source is wrong
    f = broken_copy(tmp_path, "<Property name=\"BindingSourceItem.Source\">ParticleEmitter.EventBuffer<",
                    "<Property name=\"BindingSourceItem.Source\">ParticleEmitter.EventBufer<")
    project = kzplayer.load(f)
    graph = resolve(project)
    [d] = graph.diagnostics
    assert d.rule == "property.unknown"
    assert (d.span.line, d.span.column) == where(f, '<BindingSourceItem name="0">')
    assert "'ParticleEmitter.EventBufer'" in d.message
    assert d.hint == "did you mean 'ParticleEmitter.EventBuffer'?"
    sub = project.find(f"{GROUP}/Subemitter")
    assert graph.value(sub, "Emission.SourceEventBuffer") is None                # cannot run


def test_source_item_naming_another_emitter_with_a_misspelt_source(tmp_path):
    # both wrong: the stale Item is said (it names another item), and so is the Source
    f = broken_copy(tmp_path, "On Hit/Source</Property>", "On Hit/Subemitter</Property>")
    f.write_text(f.read_text().replace(">ParticleEmitter.EventBuffer</Property>", ">ParticleEmitter.EventBufer</Property>", 1))
    diags = resolve(kzplayer.load(f)).diagnostics
    assert [d.rule for d in diags] == ["property.unknown", "path.stale"]      # by position
    assert f"names {GROUP}/Subemitter" in diags[1].message


def test_source_property_differs_at_both_places(tmp_path):
    # a copied binding whose source item still reads the other buffer
    f = broken_copy(tmp_path, "<Property name=\"BindingSourceItem.Source\">ParticleEmitter.EventBuffer",
                    "<Property name=\"BindingSourceItem.Source\">ParticleEmitter.ParticleDataBuffer")
    [d] = resolve(kzplayer.load(f)).diagnostics
    assert d.rule == "binding.source-mismatch"
    assert (d.span.line, d.span.column) == where(f, "{@../Source/ParticleEmitter.EventBuffer}")
    assert d.span.end_column - d.span.column == len("{@../Source/ParticleEmitter.EventBuffer}")
    [src] = d.related
    assert src.line == where(f, '<BindingSourceItem name="0">')[0]
    assert f"{GROUP}/Source:ParticleEmitter.EventBuffer" in d.message
    assert f"{GROUP}/Source:ParticleEmitter.ParticleDataBuffer" in d.message
    assert d.hint == "set BindingSourceItem.Source to ParticleEmitter.EventBuffer"


def test_source_expression_and_raw_code_are_different_programs(tmp_path):
    f = broken_copy(tmp_path, "<Property name=\"BindingItem.RawCode\">{0}<",
                    "<Property name=\"BindingItem.RawCode\">{0} + 1<")
    diags = resolve(kzplayer.load(f)).diagnostics
    assert [d.rule for d in diags] == ["binding.source-mismatch", "expr.type"]   # a buffer + 1
    assert (diags[0].span.line, diags[0].span.column) == where(f, "{@../Source/ParticleEmitter.EventBuffer}")
    assert diags[0].related[0].line == where(f, "{0} + 1")[0]


def test_raw_code_computing_something_else(tmp_path):
    f = broken_copy(tmp_path, "<Property name=\"BindingItem.RawCode\">{0}<",
                    "<Property name=\"BindingItem.RawCode\">{1}<")
    [d] = resolve(kzplayer.load(f)).diagnostics
    assert d.rule == "binding.source-mismatch" and "no BindingSourceItem named 1" in d.message
    assert (d.span.line, d.span.column) == where(f, "{1}")


def test_only_a_buffer_binds_to_a_buffer(tmp_path):
    f = broken_copy(tmp_path, "{@../Source/ParticleEmitter.EventBuffer}", "{@../Source/Emission.Rate}")
    f.write_text(f.read_text().replace(">ParticleEmitter.EventBuffer<", ">Emission.Rate<"))
    project = kzplayer.load(f)
    graph = resolve(project)
    [d] = graph.diagnostics
    assert d.rule == "binding.type-mismatch"
    assert "float" in d.message and "buffer" in d.message
    assert d.span.line == where(f, "{@../Source/Emission.Rate}")[0]
    sub = project.find(f"{GROUP}/Subemitter")
    assert graph.value(sub, "Emission.SourceEventBuffer") is None     # left unset, not corrupted


def test_push_target_elsewhere_unresolved(tmp_path):
    f = broken_copy(tmp_path, "On Hit/Subemitter</Property>", "On Hit/Subemiter</Property>")
    graph = resolve(kzplayer.load(f))
    [d] = graph.diagnostics
    assert d.rule == "path.unresolved" and "PushTarget" in d.message and "did you mean 'Subemitter'" in d.message
    assert (d.span.line, d.span.column) == where(f, "Screens/Screen/RootNode/Viewport 2D/Scene/Exhibit 6/Particle System/On Hit/Subemiter")


def test_each_consumer_takes_its_own_kind_of_buffer(tmp_path):
    # a copied binding: Target still says SourceParticleDataBuffer, the source is the event buffer
    f = broken_copy(tmp_path, "{@../Source/ParticleEmitter.ParticleDataBuffer}", "{@../Source/ParticleEmitter.EventBuffer}")
    f.write_text(f.read_text().replace(">ParticleEmitter.ParticleDataBuffer<", ">ParticleEmitter.EventBuffer<"))
    project = kzplayer.load(f)
    graph = resolve(project)
    [d] = graph.diagnostics
    assert d.rule == "binding.type-mismatch" and "ParticleEmitter.ParticleDataBuffer" in d.message
    assert (d.span.line, d.span.column) == where(f, "Emission.SourceParticleDataBuffer</Property>")
    sub = project.find(f"{GROUP}/Subemitter")
    assert graph.value(sub, "Emission.SourceParticleDataBuffer") is None
    assert graph.value(sub, "Emission.SourceEventBuffer").kind == "EventBuffer"     # the other one is fine
