"""Import of real Kanzi Studio 3.9 files (../shared/kanzi39, the `kanzi39` fixture).

Expected figures come from the files themselves (counted in the raw text with regular
expressions, or read off by hand), not from the importer."""
from __future__ import annotations

import html
import re

import pytest

from kzplayer.expr.ast import Number, walk
from kzplayer.project.kzproj import load_kzproj
from kzplayer.project.loader import load_project
from kzplayer.values import Color4, EnumValue, ItemRef, Srt2D, Srt3D, Vector

_PROJECT_ITEM = re.compile(r'<ProjectItem\b[^>]*?i:type="(?:\w+:)?(\w+)"', re.S)
_EXPRESSION = re.compile(r"<(?:\w+:)?Key>BindingItem\.DisplayCodeForMerge</(?:\w+:)?Key>.*?"
                         r"<value\b[^>]*>([^<]*)</value>", re.S)


@pytest.fixture(scope="module")
def gauges(kanzi39):
    project, diags = load_kzproj(kanzi39 / "Gauges.kzproj")
    assert diags == []
    return project


def _raw(path) -> str:
    return path.read_text(encoding="utf-8-sig")


@pytest.mark.parametrize("name", ["Gauges.kzproj", "Indicator.kzproj", "ColorOverLife_ImageUV.kzmat"])
def test_every_project_item_and_binding_is_imported(kanzi39, name):
    text = _raw(kanzi39 / name)
    types = _PROJECT_ITEM.findall(text)
    items = [t for t in types if t not in ("BindingItem", "BindingSourceItem")]
    project, diags = load_kzproj(kanzi39 / name)
    assert diags == []
    walked = list(project.walk())
    if name.endswith(".kzmat"):   # + the Materials library, the MaterialType and its property types
        n_types = len(re.findall(r"<(?:\w+:)?DynamicPropertyType\b", text))
        assert len(walked) == len(items) + 2 + n_types
    else:     # + a PropertyTypes library with the project's own property types
        n_types = len(re.findall(r"<(?:\w+:)?KeyValueOfstringDynamicPropertyType\w*>", text))
        assert len(walked) == len(items) + 1 + n_types
    bindings = project.bindings()
    assert len(bindings) == types.count("BindingItem")
    assert sum(len(b.sources) for b in bindings) == types.count("BindingSourceItem")
    expected = [html.unescape(e) for e in _EXPRESSION.findall(text)]
    assert [b.expression for b in bindings] == expected


def test_gauges_bindings_as_written(gauges):
    got = [(b.owner.path, b.target, b.field, b.mode, b.enabled, b.expression, b.raw_code,
            [(s.name, s.item, s.source) for s in b.sources]) for b in gauges.bindings()]
    src = "Gauges/Screens/Screen/RootPage/Gauges"
    assert got == [
        ("Screens/Screen/RootPage/FuelNeedle", "Node2D.RenderTransformation", "ROTATION_Z", "ONE_WAY", True,
         "{@../Gauges/Gauges.Fuel}-39", "{0}-39", [("0", src, "Gauges.Fuel")]),
        ("Screens/Screen/RootPage/BatteryNeedle", "Node2D.RenderTransformation", "ROTATION_Z", "ONE_WAY", True,
         "-{@../Gauges/Gauges.Battery} + 39", "-{0} + 39", [("0", src, "Gauges.Battery")]),
        ("Screens/Screen/RootPage/Gauges/SpeedView/SpeedValue", "TextConcept.Text", "WHOLE_PROPERTY", "ONE_WAY",
         True, "{@../../Gauges.Speed}", "{0}", [("0", src, "Gauges.Speed")]),
        ("Screens/Screen/RootPage/SpeedNeedle", "Node2D.RenderTransformation", "ROTATION_Z", "ONE_WAY", True,
         "{@../Gauges/Gauges.Speed} - 140", "{0} - 140", [("0", src, "Gauges.Speed")]),
    ]
    # Kanzi 3.9 stores a property-type reference (Node2D.BackgroundBrush) as PushTarget here:
    # not an item, so no push target.
    assert all(b.push_target is None for b in gauges.bindings())


def test_binding_spans_point_at_the_raw_text(kanzi39):
    for name in ("Gauges.kzproj", "Indicator.kzproj", "ColorOverLife_ImageUV.kzmat"):
        lines = _raw(kanzi39 / name).split("\n")
        project, _ = load_kzproj(kanzi39 / name)
        for b in project.bindings():
            s = b.expression_span
            written = html.escape(b.expression, quote=False)
            assert lines[s.line - 1][s.column - 1:].startswith(written), (name, s, b.expression)
            r = b.raw_code_span
            assert lines[r.line - 1][r.column - 1:].startswith(html.escape(b.raw_code, quote=False))
            assert "<ProjectItem" in lines[b.span.line - 1][b.span.column - 1:]


def test_first_binding_position_read_off_the_file(gauges):
    b = gauges.bindings()[0]
    assert (b.expression_span.line, b.expression_span.column) == (1864, 53)
    assert (b.span.line, b.span.column) == (1788, 21)


def test_items_types_names_and_paths(gauges):
    libraries = [(lib.type, lib.name) for lib in gauges.libraries]
    assert libraries[:2] == [("AnimationClipLibrary", "Animation Clips"), ("ScreenLibrary", "Screens")]
    value = gauges.find("Screens/Screen/RootPage/Gauges/SpeedView/SpeedValue")
    assert value is not None and value.type == "TextLayer"
    assert gauges.find("Gauges/Screens/Screen/RootPage").type == "PageHost"     # with project name
    page = gauges.find("Screens/Screen/RootPage")
    assert [c.name for c in page.children] == [
        "FuelNeedle", "BatteryNeedle", "Gauges", "Guides", "Message Trigger", "Message Trigger_1", "SpeedNeedle"]
    assert gauges.name == "Gauges" and gauges.layout == "kzproj"


def test_values_are_typed_where_a_type_fits(gauges, kanzi39):
    needle = gauges.find("Screens/Screen/RootPage/FuelNeedle")
    assert needle.properties["Node2D.RenderTransformation"].value == Srt2D((1, 1), 0, (365, 211))
    assert needle.properties["Node2D.RenderTransformationOrigin"].value == Vector((0.5, 0))
    assert needle.properties["Node.HorizontalAlignment"].value == EnumValue("LEFT")
    assert needle.properties["Image2D.Image"].value == ItemRef("Gauges/Textures/FuelBatteryNeedle")
    assert needle.properties["Name"].value == "FuelNeedle"
    light = gauges.find("Prefabs/<Isolation Preview Set>/<Isolation Preview Set>/Directional Light 1")
    srt = light.properties["Node3D.LayoutTransformation"].value
    assert srt == Srt3D((1, 1, 1), (-105, 4, -5), (0, 17.06, 0))
    screen = gauges.find("Screens/Screen")
    assert screen.properties["Screen.ClearColor"].value == Color4(0, 0, 0, 1)      # HSLA luminance 0


def test_hsla_colours_become_rgba(kanzi39):
    project, _ = load_kzproj(kanzi39 / "Indicator.kzproj")
    fuel = project.find("Screens/Screen/Root/Gauges/Indicators/FuelLevel")
    # hue 0.160784319 (57.9 deg), saturation 0.921568632, luminance 0.5: C = 0.9216,
    # X = C * (1 - |57.88/60 mod 2 - 1|) = 0.8891, m = 0.0392 -> (C+m, X+m, m)
    assert fuel.properties["PrimaryColor"].value == pytest.approx((0.96078, 0.92826, 0.03922, 1.0), abs=1e-4)


def test_a_material_type_file_becomes_a_material_with_its_property_types(kanzi39):
    project, diags = load_kzproj(kanzi39 / "ColorOverLife_ImageUV.kzmat")
    assert diags == []
    (material,) = project.items("MaterialType")
    assert material.name == "ColorOverLife_ImageUV" and material.path == "Materials/ColorOverLife_ImageUV"
    types = {c.name: c.attributes for c in material.children if c.type == "PropertyType"}
    assert types["ColorOverLife.start_color"]["type"] == "color4"
    assert types["ColorOverLife.motionBlur"]["type"] == "bool"
    assert types["GradientValues"]["type"] == "vector2"
    spec = project.catalog.property("ColorOverLife.start_color")
    assert spec is not None and spec.default == Color4(0.5, 0.5, 0.5, 1)      # HSLA(0, 0, 0.5)
    assert project.catalog.property("ColorOverLife.motionBlur").default is False
    assert [c.name for c in material.children if c.type != "PropertyType"] == ["Vertex Shader", "Fragment Shader"]
    targets = [b.target for b in material.bindings]
    assert targets[0] == "kzViewport" and "start_color" in targets


def test_the_loader_dispatches_kanzi_files(kanzi39):
    project, diags = load_project(kanzi39 / "Gauges.kzproj")
    assert project is not None and project.layout == "kzproj" and diags == []


def test_bad_input_gives_diagnostics_not_exceptions(tmp_path):
    missing, diags = load_kzproj(tmp_path / "nothing.kzproj")
    assert missing is None and diags[0].rule == "file.unreadable"
    broken = tmp_path / "broken.kzproj"
    broken.write_text('<?xml version="1.0"?>\n<Project>\n  <children>\n</Project>\n')
    project, diags = load_kzproj(broken)
    assert project is None and diags[0].rule == "xml.malformed" and diags[0].span.line == 4
    other = tmp_path / "other.kzproj"
    other.write_text('<?xml version="1.0"?>\n<Something/>\n')
    project, diags = load_kzproj(other)
    assert project is None and diags[0].rule == "schema.invalid" and "<Something>" in diags[0].message
    bomb = tmp_path / "bomb.kzproj"
    bomb.write_text('<?xml version="1.0"?>\n<!DOCTYPE P [<!ENTITY a "aaaa">]>\n<Project>&a;</Project>\n')
    project, diags = load_kzproj(bomb)
    assert project is None and diags[0].rule == "xml.entities"
    renamed = tmp_path / "renamed.kzproj"          # a .kzm under the wrong name: not an empty import
    renamed.write_text('<?xml version="1.0"?>\n<Project name="P" format="1"><Screens/></Project>\n')
    project, diags = load_kzproj(renamed)
    assert project is None and diags[0].rule == "schema.invalid" and diags[0].span.line == 2
    assert ".kzm" in diags[0].message


def test_the_projects_own_property_types_are_declared(gauges):
    # Gauges.kzproj line 21611 ff.: IntDynamicPropertyType, lowerBound 0, upperBound 240
    speed = gauges.catalog.property("Gauges.Speed")
    assert (speed.type, speed.default, speed.min, speed.max, speed.custom) == ("int", 0, 0, 240, True)
    assert gauges.catalog.property("Gauges.Fuel").max == 100
    assert gauges.find("PropertyTypes/Gauges.Battery").type == "PropertyType"
    assert [s.source for b in gauges.bindings() for s in b.sources
            if gauges.catalog.property(s.source) is None] == []


def test_raw_code_positions_after_entities_are_the_file_columns(kanzi39):
    # Indicator.kzproj writes RawCode `{0} &lt; 25`: `25` is 3 file columns further than text columns
    from kzplayer.bindings.binding import parse_program
    lines = _raw(kanzi39 / "Indicator.kzproj").split("\n")
    project, _ = load_kzproj(kanzi39 / "Indicator.kzproj")
    checked = 0
    for b in project.bindings():
        for which in ("raw_code", "expression"):
            text = getattr(b, which)
            if "<" not in text:
                continue
            program = parse_program(b, which)
            (number,) = [n for n in walk(program) if isinstance(n, Number) and n.value in (25, 10)]
            line = lines[number.span.line - 1]
            assert line[number.span.column - 1:number.span.end_column - 1] == str(int(number.value))
            checked += 1
    assert checked == 4


def test_material_binding_targets_point_at_the_uniform_name(kanzi39):
    lines = _raw(kanzi39 / "Indicator.kzproj").split("\n")
    project, _ = load_kzproj(kanzi39 / "Indicator.kzproj")
    material = [b for b in project.bindings() if b.owner.type.endswith("MaterialType")]
    assert len(material) >= 5
    for b in material:
        s = b.target_span
        assert lines[s.line - 1][s.column - 1:s.end_column - 1] == b.target
        assert lines[s.line - 1][s.end_column - 1:].startswith("</")


def test_item_reference_values_point_at_the_path(kanzi39):
    lines = _raw(kanzi39 / "Gauges.kzproj").split("\n")
    project, _ = load_kzproj(kanzi39 / "Gauges.kzproj")
    refs = [p for i in project.walk() for p in i.properties.values() if isinstance(p.value, ItemRef)]
    assert len(refs) >= 4
    for p in refs:
        s = p.value_span
        written = lines[s.line - 1][s.column - 1:s.end_column - 1]
        assert html.unescape(written).removeprefix("relative://").rstrip("/") == p.value.path, p.name


@pytest.mark.parametrize("name", ["Gauges.kzproj", "Indicator.kzproj", "ColorOverLife_ImageUV.kzmat"])
def test_every_kanzi_type_of_the_real_files_is_played_or_known(kanzi39, name):
    # the catalog's list of Kanzi's own types covers what Kanzi Studio really writes
    from kzplayer.project.catalog import catalog
    cat = catalog()
    raw = set(_PROJECT_ITEM.findall(_raw(kanzi39 / name)))
    assert raw - cat.item_types - cat.kanzi_item_types == set()
