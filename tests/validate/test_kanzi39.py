"""Every real Kanzi Studio 3.9 file of ../shared/kanzi39 and its demos/ folder: shipped, working
projects, so an error there is a false alarm.

* `validate` reports no error on any; what remains is named and explained (docs/validate.md:
  expr.not-evaluable for material bindings, binding.data-context where a data source plugin
  gives the value at runtime);
* every binding expression parses and type-checks, material bindings included;
* `convert` gives a .kzm, in both layouts, that validates with the same findings and holds the
  same bindings;
* the demos' bindings compute what Kanzi computes (aliases, prefabs, triggers, field reads);
* and deliberately broken copies of the demos are still caught: a real mistake stays an error.
"""
from __future__ import annotations

from collections import Counter

import pytest

import kzplayer
from kzplayer.bindings import resolve
from kzplayer.project.convert import convert
from kzplayer.validate import validate_paths
from kzplayer.values import Color4, Range
from tests.conftest import kanzi39_files

FILES = kanzi39_files()
# The findings a working Kanzi project may still get, and why (docs/validate.md):
ALLOWED = {
    # material type bindings: Kanzi runs them per node drawn; kzplayer checks them, evaluates light ones
    ("expr.not-evaluable", "note"),
    # {DataContext.x} of a list item or a plugin, which the project holds no data object for: it waits
    ("binding.data-context", "warning"),
}


def findings(path) -> Counter:
    result = validate_paths([str(path)])
    return Counter((d.rule, d.severity.value, d.message) for d in result.diagnostics)


@pytest.fixture(scope="module")
def original():
    """The findings of each real file, validated once."""
    cache = {}

    def get(path):
        if path not in cache:
            cache[path] = findings(path)
        return cache[path]
    return get


def test_every_file_of_both_folders_is_here(kanzi39):
    on_disk = {str(f.relative_to(kanzi39)) for sub in ("", "demos") for f in (kanzi39 / sub).iterdir()
               if f.suffix in (".kzproj", ".kzmat")}
    assert set(FILES) == on_disk and any(n.startswith("demos") for n in FILES)


@pytest.mark.parametrize("name", FILES)
def test_validate_reports_no_error(kanzi39, original, name):
    found = original(kanzi39 / name)
    assert {(rule, sev) for rule, sev, _ in found} <= ALLOWED, [f for f in found if f[:2] not in ALLOWED]


@pytest.mark.parametrize("name", FILES)
def test_no_kzplayer_only_note_on_a_real_kanzi_project(kanzi39, original, name):
    """They work in Kanzi, so nothing in them is something Kanzi does not ship: their own
    material types, their properties and the Kanzi Particles demo material get no
    material.kzplayer-only note (a false alarm there would tell users to port what works)."""
    found = original(kanzi39 / name)
    assert [f for f in found if f[0] == "material.kzplayer-only"] == []
    project = kzplayer.load(kanzi39 / name)
    properties = [n for item in project.walk() for n in item.properties]
    assert properties, "a real file with no properties checks nothing"


@pytest.mark.parametrize("name", FILES)
def test_every_binding_parses_and_type_checks(kanzi39, name):
    from kzplayer.validate.context import Context
    project = kzplayer.load(kanzi39 / name)
    context = Context(project)
    programs = [p for _, b in context.bindings for p in context.programs[id(b)] if p is not None]
    assert programs and all(p.diagnostics == [] for p in programs)
    errors = [d for d in context.expression_diagnostics if d.severity.value == "error"]
    assert errors == []


@pytest.mark.parametrize("layout", ["single", "folder"])
@pytest.mark.parametrize("name", FILES)
def test_convert_validates_with_the_same_findings_and_bindings(kanzi39, original, tmp_path, name, layout):
    src = kanzi39 / name
    dst = tmp_path / (src.stem + (".kzm" if layout == "single" else ""))
    convert(str(src), str(dst))
    assert findings(dst) == original(src)
    before, after = kzplayer.load(src), kzplayer.load(dst)
    assert [b.key() for b in after.bindings()] == [b.key() for b in before.bindings()]
    assert [str(b.owner.path) for b in after.bindings()] == [str(b.owner.path) for b in before.bindings()]


# -- what the demos' bindings compute ------------------------------------------------------------

def test_light_view_bindings_evaluate_against_the_scenes_lights(kanzi39):
    from kzplayer.bindings.lights import evaluate_light_uniforms, uniforms
    project = kzplayer.load(kanzi39 / "demos" / "Interpolate.kzproj")
    lit = {u.binding.target: u for u in evaluate_light_uniforms(project)}
    light = project.find("Screens/Screen/RootPage/Viewport 2D/Scene/Point Light")
    assert str(light.get("LightType")) == "PointLight"
    # createView<OutputSize> over the scene's one point light, read per light, into PointLightColor[2]
    assert lit["PointLightColor"].value == Range((light.get("PointLightColor"),))
    assert lit["PointLightAttenuation"].value == Range((light.get("PointLightAttenuation"),))
    assert lit["PointLightColor"].length == uniforms(lit["PointLightColor"].material)["PointLightColor"][1] == 2
    assert lit["DirectionalLightColor"].value == Range(())          # the scene has no directional light
    assert "PointLightPosition" not in lit      # Kanzi computes it from the light's transformation

    project = kzplayer.load(kanzi39 / "demos" / "Keyframe_animations.kzproj")
    sun = project.find("Screens/Screen/RootPage/Viewport 2D/Scene/Directional Light")
    lit = {u.binding.target: u.value for u in evaluate_light_uniforms(project)}
    assert lit["DirectionalLightColor"] == Range((sun.get("DirectionalLightColor"),)) == Range((Color4(1, 1, 1, 1),))
    assert lit["PointLightColor"] == Range(())


def test_a_material_file_alone_has_no_lights_to_evaluate(kanzi39):
    from kzplayer.bindings.lights import evaluate_light_uniforms
    assert evaluate_light_uniforms(kzplayer.load(kanzi39 / "demos" / "Phong.kzmat")) == []


def test_alias_from_a_resource_dictionary_and_a_rotation_field(kanzi39):
    # {#RootPage/Interpolate.Direction} is a NODE entry of the Screen's dictionary; the Dial
    # binds createRotationZ(...) into the ROTATION of its Node3D.RenderTransformation
    project = kzplayer.load(kanzi39 / "demos" / "Interpolate.kzproj")
    graph = resolve(project)
    root = project.find("Screens/Screen/RootPage")
    dial = project.find("Screens/Screen/RootPage/Viewport 2D/Scene/Dial")
    before = graph.value(dial, "Node3D.RenderTransformation")
    assert before.rotation == (0, 0, 60)        # the data source's preview value, direction 60
    graph.set_data_context("compass.direction", 75)
    assert graph.value(root, "Interpolate.Direction") == 75
    assert graph.value(dial, "Interpolate.Interpolator") == 75
    after = graph.value(dial, "Node3D.RenderTransformation")
    assert after.rotation == (0, 0, 75) and (after.scale, after.translation) == (before.scale, before.translation)


def test_data_context_starts_from_the_projects_data_objects(kanzi39):
    # RootPage's DataContext.DataContext is the XML data source; its Root/compass objects
    # hold Kanzi Studio's preview values, and {DataContext.compass.x} reads them
    project = kzplayer.load(kanzi39 / "demos" / "Interpolate.kzproj")
    root = project.find("Screens/Screen/RootPage")
    source = project.find("Data Sources/XML data source/Root/compass")
    destination = int(source.child("destination").get("DataObjectValue"))
    direction = int(source.child("direction").get("DataObjectValue"))
    graph = resolve(project)
    assert graph.value(root, "Interpolate.Destination") == destination == 30
    assert graph.value(root, "Interpolate.RelativeBearing") == abs((destination - direction) % 360)
    # a value given for the input wins
    graph = resolve(project, {"compass.destination": 100})
    assert graph.value(root, "Interpolate.Destination") == 100


def test_field_read_after_a_reference_is_read_once(kanzi39):
    # RawCode {0}.translationY + 0.4 whose BindingSourceItem takes TRANSLATION_Y, into SCALE_X
    project = kzplayer.load(kanzi39 / "demos" / "Keyframe_animations.kzproj")
    graph = resolve(project)
    ball = project.find("Screens/Screen/RootPage/Viewport 2D/Scene/BeachBall")
    ground = project.find("Screens/Screen/RootPage/Viewport 2D/Scene/Ground")
    y = ball.get("Node3D.RenderTransformation").translation[1]
    assert graph.value(ground, "Node3D.RenderTransformation").scale[0] == pytest.approx(y + 0.4)
    graph.set_value(ball, "Node3D.RenderTransformation",
                    ball.get("Node3D.RenderTransformation").__class__(translation=(0, 2.0, 0)))
    assert graph.value(ground, "Node3D.RenderTransformation").scale[0] == pytest.approx(2.4)
    assert graph.value(ground, "BlendIntensity") == pytest.approx(0.5 * (1 - 0.4))   # mix(0.5, 0, y * 0.2)


def test_a_trigger_reads_the_node_it_is_attached_to(kanzi39):
    # a Data Trigger's {@./ActivityProperty.Cluster.MainView}==0 reads the Cluster node, not the trigger
    project = kzplayer.load(kanzi39 / "demos" / "Program_Activities.kzproj")
    graph = resolve(project)
    cluster = project.find("Screens/Screen/Cluster")
    trigger = project.find("Screens/Screen/Cluster/IncomingCallMaximized")
    graph.set_value(cluster, "ActivityProperty.IncomingCall", True)
    graph.set_value(cluster, "ActivityProperty.Cluster.MainView", 0)
    assert graph.value(trigger, "DataTriggerTargetPropertyType") is True
    graph.set_value(cluster, "ActivityProperty.Cluster.MainView", 1)    # Browse
    assert graph.value(trigger, "DataTriggerTargetPropertyType") is False


def test_prefab_paths_continue_where_the_prefab_is_instantiated(kanzi39):
    project = kzplayer.load(kanzi39 / "demos" / "Drag_and_drop.kzproj")
    item = project.find("Prefabs/Navigation Item/Navigation Item")
    # ../.. from the Navigation Item prefab's root: its placeholders sit in the Navigation Bar prefab
    assert project.find("../..", relative_to=item) is project.find("Prefabs/Navigation Bar/Navigation Bar")
    project = kzplayer.load(kanzi39 / "demos" / "Localization.kzproj")
    text = project.find("Prefabs/LocaleButton/LocaleButton/Text Block 2D")
    assert project.find("##Template", relative_to=text) is project.find("Prefabs/LocaleButton/LocaleButton")
    # #Cluster in a prefab that an activity host of the Screen instantiates
    project = kzplayer.load(kanzi39 / "demos" / "Program_Activities.kzproj")
    widgets = project.find("Prefabs/GaugeView/GaugeView/GaugeViewActivityHost/Widgets")
    assert project.find("#Cluster", relative_to=widgets) is project.find("Screens/Screen/Cluster")


# -- real mistakes in copies of the demos stay errors ---------------------------------------------

BROKEN = [
    # a misspelt engine property: the expression's and the source item's
    ("demos/Drag_and_drop.kzproj", "{@../../Node.ActualHeight}", "{@../../Node.ActualHieght}", "path.unresolved"),
    ("demos/Drag_and_drop.kzproj", "propertyTypeName>Node.ActualHeight<", "propertyTypeName>Node.ActualHieght<",
     "property.unknown"),
    # a prefab path through its instances that leads nowhere
    ("demos/Drag_and_drop.kzproj", "{@../Node.ActualWidth}", "{@../Missing/Node.ActualWidth}", "path.unresolved"),
    # an alias no dictionary declares
    ("demos/Interpolate.kzproj", "<d7p1:Key>RootPage</d7p1:Key>", "<d7p1:Key>Root Page</d7p1:Key>", "path.unresolved"),
    ("demos/Program_Activities.kzproj", "<d7p1:Key>Cluster</d7p1:Key>", "<d7p1:Key>Clusters</d7p1:Key>",
     "path.unresolved"),
    # a trigger reading a property its node does not have
    ("demos/Program_Activities.kzproj", "{@./ActivityProperty.IncomingCall}==true",
     "{@./ActivityProperty.IncomingCal}==true", "path.unresolved"),
    # ##Template/a property the prefab root lacks
    ("demos/Localization.kzproj", "{##Template/Localization.LocaleName}", "{##Template/Localization.LocaleNam}",
     "path.unresolved"),
    # a renamed node left behind in a BindingSourceItem
    ("demos/Keyframe_animations.kzproj", "Viewport 2D/Scene/BeachBall/</d21p1:pathString>",
     "Viewport 2D/Scene/Beach Ball/</d21p1:pathString>", "path.stale"),
    # a light view whose values do not fit the uniform, or that the operator cannot take
    ("demos/Phong.kzmat", "{pointLightsView ... PointLightColor}</value>",
     "{pointLightsView ... PointLightAttenuation}</value>", "binding.type-mismatch"),
    ("demos/Phong.kzmat", "{directionalLightsView ... DirectionalLightColor}</value>",
     '{directionalLightsView ... DirectionalLightColor} + "bright"</value>', "expr.type"),
    ("demos/Phong.kzmat", "createView&lt;OutputSize&gt;({0})\n{pointLightsView ... PointLightColor}",
     "createView&lt;OutputSize&gt;({0})\n{pointLightView ... PointLightColor}", "expr.unassigned"),
]


@pytest.mark.parametrize("name, good, bad, rule", BROKEN, ids=[f"{b[0]}:{b[3]}" for b in BROKEN])
def test_a_real_mistake_in_a_demo_is_still_an_error(kanzi39, tmp_path, name, good, bad, rule):
    text = (kanzi39 / name).read_text(encoding="utf-8-sig")
    assert good in text
    broken = tmp_path / (kanzi39 / name).name
    broken.write_text(text.replace(good, bad), encoding="utf-8")
    errors = {d.rule for d in validate_paths([str(broken)]).diagnostics if d.severity.value == "error"}
    assert rule in errors, errors
