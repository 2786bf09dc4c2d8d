"""The bindings of real Kanzi Studio 3.9 projects resolve and follow their inputs.

Their BindingSourceItems use absolute paths with the project name and a trailing `/`; their
needles are bound to one field (ROTATION_Z) of an Srt2D; material type bindings are Kanzi's
per-node business and are only noted."""
import kzplayer
from kzplayer.bindings import resolve


def test_gauges_needles_follow_the_gauge_values(kanzi39):
    project = kzplayer.load(kanzi39 / "Gauges.kzproj")
    graph = resolve(project)
    assert graph.diagnostics == []
    assert len(graph.order) == len(project.bindings()) == 4
    gauges = project.find("Screens/Screen/RootPage/Gauges")
    fuel = project.find("Screens/Screen/RootPage/FuelNeedle")
    speed = project.find("Screens/Screen/RootPage/SpeedNeedle")
    text = project.find("Screens/Screen/RootPage/Gauges/SpeedView/SpeedValue")
    written = fuel.get("Node2D.RenderTransformation")          # as the file holds it
    after = graph.value(fuel, "Node2D.RenderTransformation")
    assert after.rotation == gauges.get("Gauges.Fuel") - 39     # {@../Gauges/Gauges.Fuel}-39 into ROTATION_Z
    assert (after.scale, after.translation) == (written.scale, written.translation)

    before = graph.evaluations
    changed = graph.set_value(gauges, "Gauges.Speed", 100)
    assert graph.evaluations - before == 2                      # the needle and the text, nothing else
    assert {n for n in changed if n[0] is not gauges} == {(speed, "Node2D.RenderTransformation"),
                                                          (text, "TextConcept.Text")}
    assert graph.value(speed, "Node2D.RenderTransformation").rotation == 100 - 140


def test_indicator_material_bindings_are_notes(kanzi39):
    project = kzplayer.load(kanzi39 / "Indicator.kzproj")
    graph = resolve(project)
    materials = [b for b in project.bindings() if b.owner.type.endswith("MaterialType")]
    assert len(materials) == 9
    assert [d.severity.value for d in graph.diagnostics] == ["note"] * 9
    assert len(graph.order) == len(project.bindings()) - 9
    level = project.find("Screens/Screen/Root/Gauges/Indicators/FuelLevel")
    fuel = project.find("Screens/Screen/Root/Gauges").get("Indicator.Fuel")
    assert graph.value(level, "Node.Visible") is (fuel < 25)
    assert graph.value(level, "UseSecondaryColor") is (fuel < 10)
