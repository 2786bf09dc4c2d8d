"""Loading both layouts into one model, with positions, bindings, aliases and custom types."""
import shutil
from pathlib import Path

import pytest

import kzplayer
from kzplayer.project.convert import canonical, model_diff
from kzplayer.project.loader import load_project
from kzplayer.values import EnumValue, MaterialRef, Srt3D, Vector

NOZZLE = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Nozzle"
SWIRL = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Swirl"


def test_both_layouts_give_the_same_model(data):
    single = kzplayer.load(data / "fountain.kzm")
    folder = kzplayer.load(data / "fountain_folder")
    assert (single.layout, folder.layout) == ("file", "folder")
    assert model_diff(single, folder) == []
    assert canonical(single) == canonical(folder)
    assert len(folder.files) == 15 and len(single.files) == 1


def test_folder_loads_from_the_folder_or_its_project_file(data):
    a = kzplayer.load(data / "fountain_folder")
    b = kzplayer.load(data / "fountain_folder" / "Fountain.proj.kzm")
    assert canonical(a) == canonical(b)


def test_tree_order_and_types(data):
    p = kzplayer.load(data / "fountain.kzm")
    assert p.name == "Fountain"
    assert [lib.name for lib in p.libraries] == ["Screens", "Materials", "PropertyTypes"]
    system = p.find(NOZZLE).parent
    assert [c.name for c in system.children] == ["Nozzle", "Gravity", "Swirl"]
    assert [i.name for i in p.items("ParticleAffector")] == ["Gravity", "Swirl"]
    assert p.find(NOZZLE).type == "ParticleEmitter"


def test_typed_values_from_the_catalog(data):
    p = kzplayer.load(data / "fountain.kzm")
    n = p.find(NOZZLE)
    assert n.get("Emission.Rate") == 500.0 and isinstance(n.get("Emission.Rate"), float)
    assert n.get("Emission.InitialVelocityDirection") == Vector((0, 1, 0))
    assert n.get("ParticleEmitter.EmissionMaterial") == MaterialRef("Emitter_Point")
    assert n.parent.get("ParticleSystem.IntegrationMethod") == EnumValue("Verlet")
    cam = p.find("Screens/Screen/RootNode/Viewport 2D/Scene/Camera")
    assert cam.get("Node3D.RenderTransformation") == Srt3D((1, 1, 1), (-15, 0, 0), (0, 3, 12))


def test_unset_values_come_from_the_catalog_and_custom_types(data):
    p = kzplayer.load(data / "fountain.kzm")
    n = p.find(NOZZLE)
    spec = p.catalog.property("Emission.Lifetime")
    assert spec is not None
    assert n.get("Emission.Seed") == p.catalog.property("Emission.Seed").default
    assert n.get("MyFx.Heat") == 0.5                     # <PropertyType default="0.5">
    assert p.find(SWIRL).get("Swirl.Strength") == 2.5    # written
    assert p.catalog.property("Swirl.Strength").default == 1.0
    assert p.catalog.material("Materials/Swirl").slot == "Affector"
    assert n.get("No.SuchProperty") is None
    with pytest.raises(KeyError, match="did you mean 'Emission.Rate'"):
        n["Emision.Rate"]


def test_custom_types_are_items_of_the_tree(data):
    p = kzplayer.load(data / "fountain.kzm")
    heat = p.find("PropertyTypes/MyFx.Heat")
    assert heat.type == "PropertyType"
    assert heat.attributes == {"type": "float", "default": "0.5", "min": "0", "max": "1"}
    swirl = p.find("Materials/Swirl")
    assert swirl.attributes["shader"] == "shaders/swirl.glsl"
    assert [c.name for c in swirl.children] == ["Swirl.Strength"]


def test_positions_of_items_properties_and_bindings(data, position_of):
    path = data / "fountain.kzm"
    p = kzplayer.load(path)
    n = p.find(NOZZLE)
    assert (n.span.file, n.span.line, n.span.column) == (str(path), *position_of(path, '<ParticleEmitter name="Nozzle">'))
    rate = n.properties["Emission.Rate"]
    assert (rate.span.line, rate.span.column) == position_of(path, '<Property name="Emission.Rate">')
    line, col = position_of(path, ">500<")
    assert (rate.value_span.line, rate.value_span.column, rate.value_span.end_column) == (line, col + 1, col + 4)
    short = n.bindings[0]
    assert short.short and short.target == "ParticleEmitter.MaximumAmount" and short.owner is n
    assert (short.span.line, short.span.column) == position_of(path, "<Binding target")
    eline, ecol = position_of(path, "{./Emission.Rate} * ")
    assert (short.expression_span.line, short.expression_span.column) == (eline, ecol)
    tline, tcol = position_of(path, "ParticleEmitter.MaximumAmount")
    assert (short.target_span.line, short.target_span.column) == (tline, tcol)


def test_full_binding_item(data, position_of):
    path = data / "fountain.kzm"
    p = kzplayer.load(path)
    b = p.find(SWIRL).bindings[0]
    assert not b.short and b.name == "Heat" and b.mode == "ONE_WAY"    # "OneWay" normalised
    assert (b.target, b.field, b.enabled, b.raw_code) == ("Swirl.Strength", "WHOLE_PROPERTY", True, "{0} * 4")
    assert b.expression == "{#Nozzle/MyFx.Heat} * 4"
    assert (b.expression_span.line, b.expression_span.column) == position_of(path, "{#Nozzle")
    assert (b.raw_code_span.line, b.raw_code_span.column) == position_of(path, "{0} * 4")
    [s] = b.sources
    assert (s.name, s.item, s.source) == ("0", NOZZLE, "MyFx.Heat")
    assert (s.span.line, s.span.column) == position_of(path, "<BindingSourceItem")
    assert (s.item_span.line, s.item_span.column) == position_of(path, NOZZLE, 1)
    assert [x.owner.name for x in p.bindings()] == ["Nozzle", "Swirl"]


def test_positions_in_the_folder_layout_name_the_item_file(data, position_of):
    p = kzplayer.load(data / "fountain_folder")
    n = p.find(NOZZLE)
    f = data / "fountain_folder" / (NOZZLE + ".kzm")
    assert n.span.file == str(f)
    assert (n.span.line, n.span.column) == (2, 1)
    b = n.bindings[0]
    assert (b.expression_span.file, b.expression_span.line, b.expression_span.column) == \
        (str(f), *position_of(f, "{./Emission.Rate}"))


def test_several_elements_on_one_line_and_multiline_start_tags(tmp_path, position_of):
    f = tmp_path / "dense.kzm"
    f.write_text('<Project name="D"><Screens><Scene name="A"><Property name="Node.Width">1</Property>'
                 '<Property name="Node.Height">2</Property></Scene>\n'
                 '<Scene\n    name="B">\n<Binding\n target="Node.Width">\n  {./Node.Height}</Binding></Scene>'
                 '</Screens></Project>\n', encoding="utf-8")
    p = kzplayer.load(f)
    a, b = p.find("Screens/A"), p.find("Screens/B")
    assert (a.properties["Node.Height"].span.line, a.properties["Node.Height"].span.column) == \
        position_of(f, '<Property name="Node.Height">')
    assert (b.span.line, b.span.column) == (2, 1)
    assert (b.bindings[0].expression_span.line, b.bindings[0].expression_span.column) == (5, 22)   # just after the ">" that ends " target=\"Node.Width\">"
    assert b.bindings[0].expression == "\n  {./Node.Height}"


def test_a_folder_may_be_loaded_after_being_copied(tmp_path, data):
    shutil.copytree(data / "fountain_folder", tmp_path / "copy")
    project, diags = load_project(tmp_path / "copy")
    assert project is not None and diags == []


def test_kanzi_studio_files_go_to_the_kzproj_importer(kanzi39):
    project = kzplayer.load(kanzi39 / "Indicator.kzproj")
    assert project.layout == "kzproj"
    assert project.bindings() and all(b.owner is not None for b in project.bindings())


def test_expression_positions_count_entities_as_one_character(tmp_path, position_of):
    f = tmp_path / "entities.kzm"
    f.write_text('<Project name="E"><Screens><Scene name="S">\n'
                 '<Binding target="Node.Width">{./Node.Height} &lt; 5 &amp;&amp; {./Node.Depth} &gt; 1</Binding>\n'
                 '<BindingItem name="B"><Property name="BindingItem.Target">Node.Height</Property>\n'
                 '<Property name="BindingItem.SourceExpression">1 &lt;\n  {./Node.Width}</Property></BindingItem>\n'
                 '</Scene></Screens></Project>\n', encoding="utf-8")
    short, full = kzplayer.load(f).find("Screens/S").bindings
    assert short.expression == "{./Node.Height} < 5 && {./Node.Depth} > 1"
    at = short.expression.index("{./Node.Depth}")
    assert short.expression_position(at) == position_of(f, "{./Node.Depth}")
    assert short.expression_position(0) == position_of(f, "{./Node.Height} &lt;")
    assert full.expression_position(full.expression.index("{./Node.Width}")) == position_of(f, "{./Node.Width}")
    plain = kzplayer.load(Path(__file__).parent / "data" / "fountain.kzm").bindings()[0]
    assert plain.expression_anchors == ()
    assert plain.expression_position(4) == (plain.expression_span.line, plain.expression_span.column + 4)


def test_raw_code_positions_count_entities_as_one_character(tmp_path, position_of):
    from kzplayer.bindings import resolve
    f = tmp_path / "raw.kzm"
    f.write_text('<Project name="R"><Screens><Screen name="S">\n'
                 '<ParticleEmitter name="E"><Property name="Emission.Rate">5</Property>\n'
                 '<BindingItem name="B"><Property name="BindingItem.Target">ParticleEmitter.MaximumAmount</Property>\n'
                 '<Property name="BindingItem.SourceExpression">{./Emission.Rate}</Property>\n'
                 '<Property name="BindingItem.RawCode">{0} &lt; 3 &amp;&amp; zz</Property>\n'
                 '<BindingSourceItem name="0"><Property name="BindingSourceItem.Item">.</Property>'
                 '<Property name="BindingSourceItem.Source">Emission.Rate</Property></BindingSourceItem>'
                 '</BindingItem></ParticleEmitter></Screen></Screens></Project>\n', encoding="utf-8")
    p = kzplayer.load(f)
    (b,) = p.bindings()
    assert b.raw_code == "{0} < 3 && zz"
    assert b.raw_code_anchors != ()
    errors = [d for d in resolve(p).diagnostics if d.rule == "expr.unassigned"]
    assert [(d.span.line, d.span.column, d.span.end_column) for d in errors] == \
        [(*position_of(f, "zz<"), position_of(f, "zz<")[1] + 2)]


def test_decode_text_reads_files_as_the_loader_does():
    from kzplayer.project.source import decode_text
    text = '<?xml version="1.0" encoding="%s"?><Project name="é"/>'
    assert decode_text(b"\xef\xbb\xbf" + (text % "utf-8").encode()) == (text % "utf-8", "utf-8-sig")
    assert decode_text((text % "iso-8859-1").encode("latin-1")) == (text % "iso-8859-1", "iso8859-1")
    assert decode_text((text % "utf-16").encode("utf-16-le")) == (text % "utf-16", "utf-16-le")
    assert decode_text(b'<Project name="\xc3\xa9"/>') == ('<Project name="é"/>', "utf-8")
