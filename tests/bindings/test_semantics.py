"""One binding's semantics: modes, push targets, fields, enabling, references, inputs, types."""
import pytest

from kzplayer.bindings import resolve
from kzplayer.values import Color4, Srt3D, Vector

from .conftest import where
from .test_graph import bind, emitter, prop


def binding_item(target, expr, raw, sources=(), *, mode="ONE_WAY", field="WHOLE_PROPERTY",
                 push=None, enabled="true", name="B"):
    props = [("Target", target), ("TargetPropertyAttribute", field), ("BindingMode", mode),
             ("IsBindingEnabled", enabled), ("SourceExpression", expr), ("RawCode", raw)]
    if push:
        props.append(("PushTarget", push))
    out = [f'<BindingItem name="{name}">'] + [prop(f"BindingItem.{k}", v) for k, v in props]
    for n, (item, source, *fld) in enumerate(sources):
        out += [f'<BindingSourceItem name="{n}">', prop("BindingSourceItem.Item", item),
                prop("BindingSourceItem.Source", source)]
        if fld:
            out.append(prop("BindingSourceItem.Field", fld[0]))
        out.append("</BindingSourceItem>")
    return "\n".join(out + ["</BindingItem>"])


def node(name, *lines, type="EmptyNode"):
    return f'<{type} name="{name}">\n' + "\n".join(lines) + f"\n</{type}>"


# -- modes -------------------------------------------------------------------------------

def test_two_way_writes_a_target_change_back_to_the_source(project_of):
    p = project_of(emitter("Src", prop("Emission.Rate", 10),
                           bind("ParticleEmitter.MaximumAmount", "{./Emission.Rate} * 3"))
                   + emitter("Dst", binding_item("Emission.Rate", "{../Src/Emission.Rate}", "{0}",
                                                 [("Screens/Screen/Src", "Emission.Rate")], mode="TWO_WAY")))
    src, dst = p.find("Screens/Screen/Src"), p.find("Screens/Screen/Dst")
    graph = resolve(p)
    assert graph.value(dst, "Emission.Rate") == 10
    changed = graph.set_value(dst, "Emission.Rate", 20)
    assert graph.value(src, "Emission.Rate") == 20
    assert graph.value(src, "ParticleEmitter.MaximumAmount") == 60       # the source's dependents follow
    assert changed == {(dst, "Emission.Rate"), (src, "Emission.Rate"), (src, "ParticleEmitter.MaximumAmount")}
    graph.set_value(src, "Emission.Rate", 7)                              # and the usual direction
    assert graph.value(dst, "Emission.Rate") == 7


def test_one_way_does_not_write_back(project_of):
    p = project_of(emitter("Src", prop("Emission.Rate", 10))
                   + emitter("Dst", bind("Emission.Rate", "{../Src/Emission.Rate}")))
    src, dst = p.find("Screens/Screen/Src"), p.find("Screens/Screen/Dst")
    graph = resolve(p)
    assert graph.set_value(dst, "Emission.Rate", 20) == {(dst, "Emission.Rate")}
    assert graph.value(src, "Emission.Rate") == 10
    graph.set_value(src, "Emission.Rate", 11)             # the next source change wins again
    assert graph.value(dst, "Emission.Rate") == 11


def test_to_source_writes_the_expression_into_the_push_target(project_of):
    # Kanzi's "Creating a to-source binding": the expression's value is pushed into the push
    # target's property (here the item itself); the source keeps its value when the target
    # changes by other means (the user toggling the button)
    p = project_of(emitter("Src", prop("Emission.Rate", 0))
                   + emitter("Dst", prop("Emission.Seed", 5),
                             bind("Emission.Seed", "{@../Src/Emission.Rate} == 0 ? 0 : 1", mode="TO_SOURCE")))
    src, dst = p.find("Screens/Screen/Src"), p.find("Screens/Screen/Dst")
    graph = resolve(p)
    assert graph.diagnostics == []
    assert graph.value(dst, "Emission.Seed") == 0
    assert graph.set_value(src, "Emission.Rate", 12) == {(src, "Emission.Rate"), (dst, "Emission.Seed")}
    assert graph.value(dst, "Emission.Seed") == 1
    assert graph.set_value(dst, "Emission.Seed", 0) == {(dst, "Emission.Seed")}   # toggled off by hand
    assert graph.value(src, "Emission.Rate") == 12                                # the slider keeps its value


def test_to_source_with_a_plain_reference_reads_it(project_of):
    p = project_of(emitter("Src", prop("Emission.Rate", 1))
                   + emitter("Dst", prop("Emission.Rate", 42),
                             bind("Emission.Rate", "{../Src/Emission.Rate}", mode="TO_SOURCE")))
    src, dst = p.find("Screens/Screen/Src"), p.find("Screens/Screen/Dst")
    graph = resolve(p)
    assert graph.value(dst, "Emission.Rate") == 1 and graph.value(src, "Emission.Rate") == 1
    assert graph.set_value(dst, "Emission.Rate", 5) == {(dst, "Emission.Rate")}
    assert graph.value(src, "Emission.Rate") == 1


def test_mode_spellings(project_of):
    p = project_of(emitter("E", prop("Emission.Rate", 3), bind("Emission.Lifetime", "{./Emission.Rate}", mode="OneWay"),
                           bind("Emission.Seed", "{./Emission.Rate}")))
    p.find("Screens/Screen/E").bindings[1].mode = "SIDEWAYS"     # the schema refuses it in files
    graph = resolve(p)
    [d] = graph.diagnostics
    assert d.rule == "binding.mode" and "SIDEWAYS" in d.message
    assert graph.value(p.find("Screens/Screen/E"), "Emission.Lifetime") == 3


# -- push target, references -----------------------------------------------------------------

def test_push_target_receives_while_paths_start_at_the_owner(project_of):
    # the BindingItem sits on Holder; ./ is Holder, the value lands on Target
    p = project_of(node("Group",
                        emitter("Holder", prop("Emission.Rate", 12),
                                binding_item("Emission.Lifetime", "{./Emission.Rate} / 4", "{0} / 4",
                                             [("Screens/Screen/Group/Holder", "Emission.Rate")],
                                             push="Screens/Screen/Group/Target")),
                        emitter("Target")))
    holder, target = p.find("Screens/Screen/Group/Holder"), p.find("Screens/Screen/Group/Target")
    graph = resolve(p)
    assert graph.diagnostics == []
    assert graph.value(target, "Emission.Lifetime") == 3
    assert graph.is_bound(target, "Emission.Lifetime") and not graph.is_bound(holder, "Emission.Lifetime")
    assert [b.item for b in graph.bindings_of(holder)] == [target]


def test_path_forms(project_of):
    p = project_of(node("RootNode",
                        '<Alias name="Noz" target="./Sys/Nozzle"/>',
                        node("Sys", emitter("Nozzle", prop("Emission.Rate", 8)), type="ParticleSystem"),
                        emitter("Reader",
                                bind("Emission.Rate", "{Test/Screens/Screen/RootNode/Sys/Nozzle/Emission.Rate} + 1"),
                                bind("Emission.Lifetime", "{Screens/Screen/RootNode/Sys/Nozzle/Emission.Rate} + 2"),
                                bind("Emission.Seed", "{#Noz/Emission.Rate} + 3"),
                                bind("Emission.ParticlesPerEvent", "&lt;../Sys/Nozzle/Emission.Rate&gt; + 4"))))
    r = p.find("Screens/Screen/RootNode/Reader")
    graph = resolve(p)
    assert graph.diagnostics == []
    assert [graph.value(r, n) for n in ("Emission.Rate", "Emission.Lifetime", "Emission.Seed",
                                        "Emission.ParticlesPerEvent")] == [9, 10, 11, 12]
    graph.set_value(p.find("Screens/Screen/RootNode/Sys/Nozzle"), "Emission.Rate", 0)
    assert [graph.value(r, n) for n in ("Emission.Rate", "Emission.Lifetime", "Emission.Seed",
                                        "Emission.ParticlesPerEvent")] == [1, 2, 3, 4]


def test_unresolved_reference_names_the_nearest_item(project_of):
    p = project_of(node("Group", emitter("Source"), emitter("Sub", prop("Emission.Rate", 6),
                                                             bind("Emission.Rate", "{../Sorce/Emission.Rate} * 2"))))
    graph = resolve(p)
    [d] = graph.diagnostics
    assert d.rule == "path.unresolved"
    assert (d.span.line, d.span.column) == where(p.path, "{../Sorce/Emission.Rate}")
    assert "Screens/Screen/Group has no child 'Sorce'" in d.message and "did you mean 'Source'" in d.message
    assert graph.value(p.find("Screens/Screen/Group/Sub"), "Emission.Rate") == 6    # unchanged


def test_unknown_property_in_a_reference(project_of):
    p = project_of(emitter("E", bind("Emission.Lifetime", "{./Emission.Rat} * 2")))
    [d] = resolve(p).diagnostics
    assert d.rule == "path.unresolved" and "'Emission.Rat'" in d.message and "Emission.Rate" in d.hint


def test_data_context_is_an_input(project_of):
    p = project_of(emitter("E", prop("Emission.Rate", 5),
                           bind("Emission.Lifetime", "-{DataContext.gauges.battery}+39")))
    e = p.find("Screens/Screen/E")
    graph = resolve(p)
    [d] = graph.diagnostics
    assert d.rule == "binding.data-context" and d.severity.value == "warning"
    assert "DataContext.gauges.battery=VALUE" in d.hint
    assert graph.value(e, "Emission.Lifetime") == e.get("Emission.Lifetime")
    assert graph.set_data_context("gauges.battery", 39) == {(None, "gauges.battery"), (e, "Emission.Lifetime")}
    assert graph.value(e, "Emission.Lifetime") == 0
    assert graph.diagnostics == []
    graph.set_value(None, "DataContext.gauges.battery", 30)     # what parse_override returns
    assert graph.value(e, "Emission.Lifetime") == 9
    assert resolve(p, data_context={"gauges.battery": 1}).value(e, "Emission.Lifetime") == 38


# -- fields ----------------------------------------------------------------------------------

def test_field_targets_write_one_component(project_of):
    p = project_of(emitter("E", prop("Emission.Rate", 4),
                           prop("Node3D.RenderTransformation", "Srt3D(1,1,1, 0,0,0, 1,2,3)"),
                           prop("Emission.InitialVelocityDirection", "(0, 1, 0)"),
                           bind("Node3D.RenderTransformation", "{./Emission.Rate} * 2", field="TRANSLATION_Y"),
                           bind("Node3D.RenderTransformation", "{./Emission.Rate} * 10", field="ROTATION_Z"),
                           bind("Emission.InitialVelocityDirection", "{./Emission.Rate}", field="VECTOR_Z")))
    e = p.find("Screens/Screen/E")
    graph = resolve(p)
    assert graph.diagnostics == []
    assert graph.value(e, "Node3D.RenderTransformation") == Srt3D((1, 1, 1), (0, 0, 40), (1, 8, 3))
    assert graph.value(e, "Emission.InitialVelocityDirection") == Vector((0, 1, 4))
    graph.set_value(e, "Emission.Rate", 1)
    assert graph.value(e, "Node3D.RenderTransformation") == Srt3D((1, 1, 1), (0, 0, 10), (1, 2, 3))


def test_field_binding_in_the_full_form(project_of):
    p = project_of(emitter("E", prop("Emission.Rate", 0.25),
                           '<Property name="MyFx.Tint">Color4(1, 1, 1, 1)</Property>',
                           binding_item("MyFx.Tint", "{./Emission.Rate}", "{0}",
                                        [("Screens/Screen/E", "Emission.Rate")], field="COLOR_A")),
                   property_types='<PropertyType name="MyFx.Tint" type="color4" default="Color4(1,1,1,1)"/>')
    graph = resolve(p)
    assert graph.diagnostics == []
    assert graph.value(p.find("Screens/Screen/E"), "MyFx.Tint") == Color4(1, 1, 1, 0.25)


def test_source_item_field_reads_one_component(project_of):
    p = project_of(emitter("Src", prop("Node3D.RenderTransformation", "Srt3D(1,1,1, 0,0,0, 5,6,7)"))
                   + emitter("Dst", binding_item("Emission.Rate", "{../Src/Node3D.RenderTransformation}.translationY",
                                                 "{0}", [("Screens/Screen/Src", "Node3D.RenderTransformation",
                                                          "TRANSLATION_Y")])))
    graph = resolve(p)
    assert graph.diagnostics == []          # `.translationY` in the expression is the source item's field
    assert graph.value(p.find("Screens/Screen/Dst"), "Emission.Rate") == 6


def test_source_item_field_and_a_field_in_raw_code_say_the_same(project_of):
    p = project_of(emitter("Src", prop("Node3D.RenderTransformation", "Srt3D(1,1,1, 0,0,0, 5,6,7)"))
                   + emitter("Dst", binding_item("Emission.Rate", "{../Src/Node3D.RenderTransformation}.translationY",
                                                 "{0}.translationY", [("Screens/Screen/Src", "Node3D.RenderTransformation")])))
    graph = resolve(p)
    assert graph.diagnostics == [] and graph.value(p.find("Screens/Screen/Dst"), "Emission.Rate") == 6


def test_source_item_field_other_than_the_expression_field(project_of):
    p = project_of(emitter("Src", prop("Node3D.RenderTransformation", "Srt3D(1,1,1, 0,0,0, 5,6,7)"))
                   + emitter("Dst", binding_item("Emission.Rate", "{../Src/Node3D.RenderTransformation}.translationX",
                                                 "{0}", [("Screens/Screen/Src", "Node3D.RenderTransformation",
                                                          "TRANSLATION_Y")])))
    [d] = resolve(p).diagnostics
    assert d.rule == "binding.source-mismatch"


def test_field_that_the_type_does_not_have(project_of):
    p = project_of(emitter("E", prop("Emission.Rate", 4), bind("Emission.Lifetime", "1", field="VECTOR_X")))
    [d] = resolve(p).diagnostics
    assert d.rule == "binding.type-mismatch" and "VECTOR_X" in d.message


@pytest.mark.parametrize("target, field", [("Emission.Lifetime", "VECTOR_X"),
                                           ("Emission.InitialVelocityDirection", "TRANSLATION_Y")])
def test_field_the_target_lacks_stops_the_binding_before_it_runs(project_of, target, field):
    # getCurrentValue() reads that field of the target: a diagnostic, never a traceback
    p = project_of(emitter("E", bind(target, "getCurrentValue() + 1", field=field)))
    graph = resolve(p)
    [d] = graph.diagnostics
    assert d.rule == "binding.type-mismatch" and field in d.message
    assert (d.span.line, d.span.column) == where(p.path, f'{target}" field')
    assert graph.evaluations == 0 and not graph.order


@pytest.mark.parametrize("field", [{}, {"field": "VECTOR_X"}])
def test_get_current_value_of_nothing(project_of, field):
    # a dynamic property with no value has no type and nothing to compute with
    p = project_of(emitter("E", bind("My.Dynamic", "getCurrentValue() + 1", **field)))
    [d] = resolve(p).diagnostics
    assert d.rule == "expr.value" and "getCurrentValue()" in d.message and "no value" in d.message


def test_reading_an_empty_dynamic_property(project_of):
    p = project_of(emitter("E", '<Property name="My.Empty"/>', bind("Emission.Rate", "{./My.Empty} * 2")))
    [d] = resolve(p).diagnostics
    assert d.rule == "expr.value" and "My.Empty has no value" in d.message
    assert (d.span.line, d.span.column) == where(p.path, "{./My.Empty}")


# -- enabling, types, errors -------------------------------------------------------------------

def test_disabled_binding_does_nothing(project_of):
    p = project_of(emitter("E", prop("Emission.Rate", 4), prop("Emission.Lifetime", 9),
                           binding_item("Emission.Lifetime", "{./Emission.Rate}", "{0}",
                                        [("Screens/Screen/E", "Emission.Rate")], enabled="false")))
    e = p.find("Screens/Screen/E")
    graph = resolve(p)
    assert graph.value(e, "Emission.Lifetime") == 9 and not graph.is_bound(e, "Emission.Lifetime")
    assert graph.set_value(e, "Emission.Rate", 5) == {(e, "Emission.Rate")}
    assert graph.evaluations == 0


@pytest.mark.parametrize("expr, want", [
    ("Vector3(1, 2, 3)", "vector3"),              # a vector into a float
    ('"fast"', "string"),
    ("{./Emission.Scale}", "vector3"),
])
def test_only_like_types_bind(project_of, expr, want):
    p = project_of(emitter("E", prop("Emission.Lifetime", 2), bind("Emission.Lifetime", expr)))
    graph = resolve(p)
    [d] = graph.diagnostics
    assert d.rule == "binding.type-mismatch" and want in d.message and "float" in d.message
    assert graph.value(p.find("Screens/Screen/E"), "Emission.Lifetime") == 2


def test_numbers_and_bools_convert(project_of):
    p = project_of(emitter("E", prop("Emission.Rate", 3),
                           bind("Emission.InitialVelocityOrientToNormal", "{./Emission.Rate}"),
                           bind("Emission.Lifetime", "{./Emission.Rate} &gt; 2"),
                           bind("Emission.Seed", "{./Emission.Rate} / 2")))
    e = p.find("Screens/Screen/E")
    graph = resolve(p)
    assert graph.diagnostics == []
    assert graph.value(e, "Emission.InitialVelocityOrientToNormal") is True
    assert graph.value(e, "Emission.Lifetime") == 1.0 and type(graph.value(e, "Emission.Lifetime")) is float
    assert graph.value(e, "Emission.Seed") == 1


def test_evaluation_errors_are_diagnostics(project_of):
    p = project_of(emitter("E", prop("Emission.Seed", 0), prop("Emission.Lifetime", 5),
                           bind("Emission.Lifetime", "10 / {./Emission.Seed}")))
    graph = resolve(p)
    [d] = graph.diagnostics
    assert d.rule == "expr.division-by-zero"
    assert (d.span.line, d.span.column) == where(p.path, "10 / {./Emission.Seed}")
    e = p.find("Screens/Screen/E")
    assert graph.value(e, "Emission.Lifetime") == 5        # left as it was
    graph.set_value(e, "Emission.Seed", 4)
    assert graph.value(e, "Emission.Lifetime") == 2        # int / int truncates (Kanzi)


def test_a_binding_cannot_write_an_output(project_of):
    p = project_of(emitter("E", bind("ParticleEmitter.EventBuffer", "1")))
    [d] = resolve(p).diagnostics
    assert d.rule == "binding.output-target"


def test_expression_problems_come_with_their_rule(project_of):
    p = project_of(emitter("E", prop("Emission.Rate", 3), prop("Emission.Density", 4),
                           bind("Emission.Lifetime", "mx({./Emission.Rate}, 2)"),
                           bind("Emission.Seed", "{./Emission.Rate} + 1", mode="TWO_WAY"),
                           bind("Emission.Scale", "getCameraPosition()"),
                           bind("Emission.Density", "1 +* 2")))
    graph = resolve(p)
    got = {d.rule: d for d in graph.diagnostics}
    assert sorted(got) == ["binding.mode", "expr.not-evaluable", "expr.syntax", "expr.unknown-function"]
    assert got["expr.unknown-function"].hint == "did you mean 'max()'?"
    assert (got["expr.unknown-function"].span.line, got["expr.unknown-function"].span.column) == where(p.path, "mx(")
    assert got["binding.mode"].severity.value == "warning"          # TWO_WAY needs one plain reference
    assert got["expr.not-evaluable"].severity.value == "note"       # fine in Kanzi, skipped here
    assert (got["expr.syntax"].span.line, got["expr.syntax"].span.column) == where(p.path, "* 2")
    e = p.find("Screens/Screen/E")
    assert graph.value(e, "Emission.Seed") == 4                     # the TWO_WAY one still runs one way
    assert graph.value(e, "Emission.Density") == 4                  # the broken one does not run


def test_an_output_buffer_of_something_not_an_emitter(project_of):
    p = project_of('<ParticleSystem name="S"><ParticleAffector name="G"/>'
                   + emitter("B", prop("Emission.SourceEventBuffer", ""),
                             bind("Emission.SourceEventBuffer", "{../G/ParticleEmitter.EventBuffer}"))
                   + "</ParticleSystem>")
    (d,) = resolve(p).diagnostics
    assert d.rule == "path.unresolved" and "ParticleAffector" in d.message
    assert (d.span.line, d.span.column) == where(p.path, "{../G/ParticleEmitter.EventBuffer}")


def test_invalid_result_type_is_found_before_the_binding_runs(project_of):
    # continueIf stops the run today; Kanzi still refuses the binding (invalid result type)
    p = project_of(emitter("E", prop("Emission.Rate", 3), bind(
        "Emission.Lifetime", "continueIf({./Emission.Rate} &lt; 0)\nMatrix3(1, 0, 0, 0, 1, 0, 0, 0, 1)")))
    graph = resolve(p)
    [d] = graph.diagnostics
    assert d.rule == "binding.type-mismatch" and "matrix3" in d.message and "float" in d.message
    assert (d.span.line, d.span.column) == where(p.path, "continueIf(")
    assert graph.evaluations == 0


def test_empty_raw_code_runs_the_source_expression(project_of):
    p = project_of(emitter("E", prop("Emission.Rate", 4),
                           binding_item("Emission.Lifetime", "{./Emission.Rate} * 2", "")))
    graph = resolve(p)
    assert graph.diagnostics == []
    assert graph.value(p.find("Screens/Screen/E"), "Emission.Lifetime") == 8
