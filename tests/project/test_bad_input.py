"""Bad input: one clear diagnostic with file:line:column, never a traceback, never an
expanded entity or a read outside the project (kzm-format.md section 6)."""
import os
from pathlib import Path

import pytest

import kzplayer
from kzplayer.diagnostics import KzError
from kzplayer.project.loader import load_project


def write(tmp_path: Path, text: str, name: str = "bad.kzm") -> Path:
    f = tmp_path / name
    f.parent.mkdir(parents=True, exist_ok=True)
    f.write_text(text, encoding="utf-8")
    return f


def only(diags, rule):
    found = [d for d in diags if d.rule == rule]
    assert len(found) == 1, [str(d) for d in diags]
    return found[0]


def where(d):
    return d.span.line, d.span.column


def test_malformed_xml_has_lxml_position(tmp_path):
    f = write(tmp_path, '<Project name="X">\n  <Screens>\n    <Scene name="A">\n  </Screens>\n</Project>\n')
    project, diags = load_project(f)
    assert project is None
    d = only(diags, "xml.malformed")
    assert d.span.file == str(f) and d.span.line == 4
    assert "Opening and ending tag mismatch" in d.message
    with pytest.raises(KzError) as info:
        kzplayer.load(f)
    assert info.value.exit_code == 1


BILLION_LAUGHS = """<?xml version="1.0"?>
<!-- comment first, so the DOCTYPE is on line 3 -->
<!DOCTYPE Project [
  <!ENTITY lol "lol">
  <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
  <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<Project name="&lol9;"><Screens/></Project>
"""


def test_billion_laughs_is_refused_at_the_doctype(tmp_path):
    f = write(tmp_path, BILLION_LAUGHS)
    project, diags = load_project(f)
    assert project is None
    d = only(diags, "xml.entities")
    assert where(d) == (3, 1) and "declares entities" in d.message
    assert len(diags) == 1


def test_external_entity_is_never_read(tmp_path, monkeypatch):
    secret = write(tmp_path, "TOP-SECRET", "secret.txt")
    f = write(tmp_path, f'<?xml version="1.0"?>\n<!DOCTYPE Project [ <!ENTITY x SYSTEM "file://{secret}"> '
                        f'<!ENTITY p SYSTEM "file:///etc/passwd"> ]>\n'
                        '<Project name="X"><Screens><Scene name="&x;&p;"/></Screens></Project>\n')
    opened = []
    real_open = open

    def spy(path, *a, **k):
        opened.append(os.fspath(path))
        return real_open(path, *a, **k)
    monkeypatch.setattr("builtins.open", spy)
    project, diags = load_project(f)
    assert project is None
    assert where(only(diags, "xml.entities")) == (2, 1)
    assert str(secret) not in opened and "/etc/passwd" not in opened
    assert not any("TOP-SECRET" in str(d) for d in diags)


def test_external_dtd_is_refused(tmp_path):
    f = write(tmp_path, '<?xml version="1.0"?>\n<!DOCTYPE Project SYSTEM "http://example.com/kzm.dtd">\n'
                        '<Project name="X"/>\n')
    project, diags = load_project(f)
    assert project is None and "external DTD" in only(diags, "xml.entities").message


def test_plain_doctype_without_entities_is_fine(tmp_path):
    f = write(tmp_path, '<?xml version="1.0"?>\n<!DOCTYPE Project>\n<Project name="X"><Screens/></Project>\n')
    project, diags = load_project(f)
    assert project is not None and diags == []


def test_undeclared_entity_reference_is_malformed(tmp_path):
    f = write(tmp_path, '<Project name="X">\n  <Screens><Scene name="&x;"/></Screens></Project>')
    project, diags = load_project(f)
    assert project is None and only(diags, "xml.malformed").span.line == 2


def test_unknown_item_type_suggests_the_nearest(tmp_path):
    f = write(tmp_path, '<Project name="X">\n  <Screens>\n    <Scene name="S">\n'
                        '      <ParticleEmiter name="E"/>\n    </Scene>\n  </Screens>\n</Project>\n')
    project, diags = load_project(f)
    d = only(diags, "item.unknown-type")
    assert where(d) == (4, 7)
    assert d.message == "unknown item type <ParticleEmiter>"      # the suggestion once, in the hint
    assert d.hint == "did you mean <ParticleEmitter>?"
    assert project.find("Screens/S/E").type == "ParticleEmiter"     # still loaded, for the validator


def test_duplicate_sibling_names_point_at_the_second(tmp_path):
    f = write(tmp_path, '<Project name="X">\n  <Screens>\n    <Scene name="S">\n'
                        '      <EmptyNode name="Twin"/>\n      <EmptyNode name="Other"/>\n'
                        '      <EmptyNode name="Twin"/>\n    </Scene>\n  </Screens>\n</Project>\n')
    project, diags = load_project(f)
    d = only(diags, "item.duplicate-name")
    assert where(d) == (6, 7)
    assert "'Twin'" in d.message and "line 4" in d.message
    assert d.related and d.related[0].line == 4
    with pytest.raises(KzError) as info:
        kzplayer.load(f)
    assert info.value.exit_code == 1


@pytest.mark.parametrize("name, words", [("a/b", "contains '/'"), ("..", "not an item name"), ("", "empty")])
def test_bad_item_names(tmp_path, name, words):
    f = write(tmp_path, f'<Project name="X">\n  <Screens>\n    <Scene name="{name}"/>\n  </Screens>\n</Project>\n')
    _, diags = load_project(f)
    d = only(diags, "item.name")
    assert words in d.message and d.span.line == 3 and d.span.column == 18


def test_value_that_does_not_fit_its_type_points_at_the_column(tmp_path):
    f = write(tmp_path, '<Project name="X"><Screens><Scene name="S"><ParticleEmitter name="E">\n'
                        '  <Property name="Emission.InitialVelocityDirection">(1, 2)</Property>\n'
                        '  <Property name="ParticleEmitter.MaximumAmount">2.5</Property>\n'
                        '  <Property name="Emission.Lifetime"> abc</Property>\n'
                        '</ParticleEmitter></Scene></Screens></Project>\n')
    _, diags = load_project(f)
    errs = [d for d in diags if d.rule == "property.type"]
    assert [(d.span.line, d.span.column, d.span.end_column) for d in errs] == [(2, 54, 60), (3, 50, 53), (4, 39, 42)]
    assert [d.message for d in errs] == [
        "Emission.InitialVelocityDirection: a vector3 needs 3 numbers, this has 2",
        "ParticleEmitter.MaximumAmount takes an int, not `2.5`",
        "Emission.Lifetime takes a float, not `abc`"]
    assert [d.hint for d in errs] == ["write it like (0, 1, 0)", "write it like 100", "write it like 2.5"]


def test_missing_file_is_exit_2(tmp_path):
    with pytest.raises(KzError) as info:
        kzplayer.load(tmp_path / "nope.kzm")
    assert info.value.exit_code == 2
    assert "does not exist" in str(info.value)


def test_folder_without_project_file_is_exit_2(tmp_path):
    with pytest.raises(KzError) as info:
        kzplayer.load(tmp_path)
    assert info.value.exit_code == 2 and "NAME.proj.kzm" in str(info.value)


def test_unreadable_file_is_exit_2(tmp_path, monkeypatch):
    f = write(tmp_path, '<Project name="X"/>')

    f.chmod(0)                          # unreadable for anyone but root, who the tests may be:

    def denied(*args, **kwargs):        # ... so the reader's open() refuses too
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr("kzplayer.project.source.open", denied, raising=False)
    with pytest.raises(KzError) as info:
        kzplayer.load(f)
    assert info.value.exit_code == 2 and "Permission denied" in str(info.value)


def folder_project(tmp_path, child_line):
    root = tmp_path / "proj"
    write(root, '<Project name="P">\n  <Child name="Screens"/>\n</Project>\n', "P.proj.kzm")
    write(root, f'<Screens>\n  {child_line}\n</Screens>\n', "Screens.kzm")
    return root


def test_child_file_missing(tmp_path):
    root = folder_project(tmp_path, '<Child name="Gone"/>')
    project, diags = load_project(root)
    d = only(diags, "file.missing")
    assert d.span.file.endswith("Screens.kzm") and where(d) == (2, 16)
    with pytest.raises(KzError) as info:
        kzplayer.load(root)
    assert info.value.exit_code == 1


@pytest.mark.parametrize("name", ["..", "../../etc/passwd", "x/../../y"])
def test_child_names_cannot_leave_the_folder(tmp_path, name):
    root = folder_project(tmp_path, f'<Child name="{name}"/>')
    _, diags = load_project(root)
    assert only(diags, "path.outside-project").span.line == 2


def test_child_file_that_is_a_link_out_of_the_project_is_refused(tmp_path):
    root = folder_project(tmp_path, '<Child name="Screen"/>')
    outside = write(tmp_path, '<Screen name="Screen"/>', "outside.kzm")
    (root / "Screens").mkdir()
    os.symlink(outside, root / "Screens" / "Screen.kzm")
    _, diags = load_project(root)
    assert "outside the project" in only(diags, "path.outside-project").message


@pytest.mark.parametrize("shader", ["../evil.glsl", "/etc/passwd", "shaders/../../x.glsl"])
def test_material_shader_cannot_leave_the_folder(tmp_path, shader):
    f = write(tmp_path, f'<Project name="X">\n  <Materials>\n    <MaterialType name="M" slot="Affector" '
                        f'shader="{shader}"/>\n  </Materials>\n</Project>\n')
    _, diags = load_project(f)
    d = only(diags, "path.outside-project")
    assert where(d) == (3, 52)          # the attribute value


def test_shader_inside_the_folder_is_fine(tmp_path):
    f = write(tmp_path, '<Project name="X"><Materials><MaterialType name="M" slot="Affector" '
                        'shader="shaders/m.glsl"/></Materials></Project>')
    _, diags = load_project(f)
    assert diags == []


def test_top_element_must_be_project(tmp_path):
    f = write(tmp_path, '<?xml version="1.0"?>\n<Scene name="S"/>\n')
    project, diags = load_project(f)
    assert project is None and where(diags[0]) == (2, 1)


def test_types_nobody_knows_are_kept_with_a_warning(tmp_path):
    f = write(tmp_path, '<Project name="X">\n  <Screens>\n    <Scene name="S">\n'
                        '      <SpeedDial name="Label"/>\n    </Scene>\n  </Screens>\n</Project>\n')
    project = kzplayer.load(f)                  # a warning does not stop loading
    d = only(project.diagnostics, "item.unknown-type")
    assert d.severity.value == "warning" and where(d) == (4, 7) and "not played" in d.message
    assert project.find("Screens/S/Label").type == "SpeedDial"


@pytest.mark.parametrize("tag", ["TextBlock2D", "TextLayer", "MeshNode", "EmptyNode2D"])
def test_kanzi_s_own_item_types_are_kept_silently(tmp_path, tag):
    # Kanzi's engine and Studio types are known, not played (the catalog lists them), as in
    # an imported .kzproj: no warning (EmptyNode2D is no typo of EmptyNode)
    f = write(tmp_path, '<Project name="X">\n  <Screens>\n    <Scene name="S">\n'
                        f'      <{tag} name="Label"/>\n    </Scene>\n  </Screens>\n</Project>\n')
    project, diags = load_project(f)
    assert diags == [] and project.find("Screens/S/Label").type == tag


def test_item_file_no_parent_lists_is_a_warning(tmp_path, data):
    import shutil
    shutil.copytree(data / "fountain_folder", tmp_path / "f")
    stray = tmp_path / "f" / "Screens" / "Screen" / "Stray.kzm"
    stray.write_text('<EmptyNode name="Stray"/>')
    project = kzplayer.load(tmp_path / "f")
    d = only(project.diagnostics, "file.orphan")
    assert d.severity.value == "warning" and d.span.file == str(stray)
    assert project.find("Screens/Screen/Stray") is None


def test_a_folder_project_nested_too_deep_is_cut_with_a_message(tmp_path):
    root = folder_project(tmp_path, '<Child name="N"/>')
    folder = root / "Screens"
    for _ in range(205):
        folder.mkdir()
        (folder / "N.kzm").write_text('<EmptyNode name="N"><Child name="N"/></EmptyNode>')
        folder = folder / "N"
    project, diags = load_project(root)
    assert "deeper than 200 levels" in only(diags, "schema.invalid").message


def test_property_set_twice_is_a_warning_at_the_second(tmp_path):
    # Spans are worked out when read (model.SpanField): the warning must still hold a Span.
    f = write(tmp_path, '<Project name="X">\n  <Screens>\n    <Scene name="S">\n'
                        '      <Property name="Node.Opacity">0.5</Property>\n'
                        '        <Property name="Node.Opacity">0.7</Property>\n'
                        '    </Scene>\n  </Screens>\n</Project>\n')
    project, diags = load_project(f)
    d = only(diags, "schema.invalid")
    assert d.severity.value == "warning" and "set twice" in d.message and "first at line 4" in d.message
    assert (d.span.file, d.span.line, d.span.column, d.span.end_column) == (str(f), 5, 9, 9 + len(
        '<Property name="Node.Opacity">'))
    assert project.find("Screens/S").get("Node.Opacity") == 0.7
    assert str(d).startswith(f"{f}:5:9: warning:")


def test_did_you_mean_compares_types_of_the_same_level(tmp_path):
    # <Screen> below a library is not a typo of the library <Screens>; <Screns> where
    # libraries stand is; one warning per type kzplayer does not know
    f = write(tmp_path, '<Project name="X">\n  <Materials>\n    <Materiel name="A"/>\n'
                        '    <Materiel name="B"/>\n  </Materials>\n  <Screns/>\n</Project>\n')
    project, diags = load_project(f)
    typo = [d for d in diags if d.severity.value == "error"]
    assert [(d.rule, where(d)) for d in typo] == [("item.unknown-type", (6, 3))]
    assert typo[0].hint == "did you mean <Screens>?"
    kept = only([d for d in diags if d.severity.value == "warning"], "item.unknown-type")
    assert where(kept) == (3, 5) and "<Materiel>" in kept.message and "2 items" in kept.message
    assert [(s.line, s.column) for s in kept.related] == [(4, 5)]


def test_a_near_miss_of_a_played_type_stays_an_error(tmp_path):
    f = write(tmp_path, '<Project name="X">\n  <Screens>\n    <Scene name="S">\n'
                        '      <ParticleEmiter name="E"/>\n    </Scene>\n  </Screens>\n</Project>\n')
    _, diags = load_project(f)
    d = only(diags, "item.unknown-type")
    assert d.severity.value == "error" and where(d) == (4, 7) and d.hint == "did you mean <ParticleEmitter>?"


def test_a_problem_both_loader_and_schema_see_is_reported_once(tmp_path):
    f = write(tmp_path, '<Project name="X">\n  <Screens>\n    <Screen name="S">\n'
                        '      <Binding>1</Binding>\n    </Screen>\n  </Screens>\n</Project>\n')
    _, diags = load_project(f)
    d = only(diags, "schema.invalid")
    assert where(d) == (4, 7) and "needs a target attribute" in d.message and d.hint


def test_a_control_character_is_one_line_at_its_column(tmp_path):
    f = tmp_path / "nul.kzm"
    f.write_bytes(b'<Project name="X">\n  <Screens>\x00</Screens>\n</Project>\n')
    _, diags = load_project(f)
    d = only(diags, "xml.malformed")
    assert where(d) == (2, 12) and "\n" not in d.message and "Char 0x0" in d.message


def test_child_file_that_is_a_folder_is_exit_1_at_the_child_line(tmp_path):
    root = folder_project(tmp_path, '<Child name="Screen"/>')
    (root / "Screens" / "Screen.kzm").mkdir(parents=True)
    project, diags = load_project(root)
    d = only(diags, "file.missing")
    assert d.span.file.endswith("Screens.kzm") and where(d) == (2, 16) and "is a folder" in d.message
    with pytest.raises(KzError) as info:
        kzplayer.load(root)
    assert info.value.exit_code == 1


def test_child_file_naming_another_item_is_one_message(tmp_path):
    # Screens/B.kzm holds item A (a copy): the name mismatch, not a follow-on duplicate name
    root = folder_project(tmp_path, '<Child name="A"/>\n  <Child name="B"/>')
    write(root, '<Screen name="A"/>\n', "Screens/A.kzm")
    write(root, '<Screen name="A"/>\n', "Screens/B.kzm")
    _, diags = load_project(root)
    assert [d.rule for d in diags if d.severity.value == "error"] == ["schema.invalid"]
    d = only(diags, "schema.invalid")
    assert d.span.file.endswith("B.kzm") and "lists it as 'B'" in d.message


def test_links_that_make_the_tree_contain_itself_are_refused(tmp_path):
    # Screens/S/S.kzm -> ../S.kzm and Screens/S/S -> .. : without a check, S holds S holds S...
    root = folder_project(tmp_path, '<Child name="S"/>')
    write(root, '<Screen name="S"><Child name="S"/></Screen>\n', "Screens/S.kzm")
    (root / "Screens" / "S").mkdir()
    os.symlink("../S.kzm", root / "Screens" / "S" / "S.kzm")
    os.symlink("..", root / "Screens" / "S" / "S")
    _, diags = load_project(root)
    d = only(diags, "schema.invalid")
    assert d.span.file.endswith(os.path.join("Screens", "S.kzm")) and where(d) == (1, 31)
    assert "again (through a link)" in d.message
    assert [x.rule for x in diags if x.severity.value == "error"] == ["schema.invalid"]


def test_elements_nested_past_the_parser_limit_are_malformed_with_a_plain_message(tmp_path):
    depth = 300
    f = write(tmp_path, '<Project name="X"><Screens>' + '<EmptyNode name="n">' * depth
              + '</EmptyNode>' * depth + '</Screens></Project>')
    _, diags = load_project(f)
    d = only(diags, "xml.malformed")
    assert d.span.line == 1 and "256 levels" in d.message and "XML_PARSE_HUGE" not in d.message


def test_a_slash_in_an_item_name_is_one_message(tmp_path):
    f = write(tmp_path, '<Project name="X">\n  <Screens>\n    <Scene name="a/b"/>\n  </Screens>\n</Project>\n')
    _, diags = load_project(f)
    assert [(d.rule, where(d)) for d in diags] == [("item.name", (3, 18))]


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-16"])
def test_entities_are_refused_in_utf16_with_or_without_bom(tmp_path, codec):
    f = tmp_path / "wide.kzm"
    f.write_bytes(('<?xml version="1.0" encoding="utf-16"?>\n<!DOCTYPE p [<!ENTITY x SYSTEM '
                   '"file:///etc/passwd">]>\n<Project name="&x;"/>\n').encode(codec))
    _, diags = load_project(f)
    assert where(only(diags, "xml.entities")) == (2, 1)


@pytest.mark.parametrize("text, at", [
    ('<Project name="X">\n  <Screens>\n    <Scene name="S">\n    </Scen>\n  </Screens>\n</Project>\n', (4, 7)),
    ('<Project name="X"><Screens><Scene name="été"></Scen\n  ></Screens></Project>\n', (1, 48)),
])
def test_mismatched_end_tag_points_at_its_name(tmp_path, text, at):
    # libxml2 reports the column after the end tag's '>'; the span is the name in </Scen>
    _, diags = load_project(write(tmp_path, text))
    d = only(diags, "xml.malformed")
    assert (where(d), d.span.end_column) == (at, at[1] + 4)


def test_every_command_gets_the_hint_for_an_xml_slip(tmp_path):
    # the loader gives it, so play/inspect/convert show what validate shows
    f = write(tmp_path, '<Project name="X">\n  <Screens>\n    <Scene name="A">\n  </Screens>\n</Project>\n')
    _, diags = load_project(f)
    assert only(diags, "xml.malformed").hint == \
        "<Scene> opened on line 3 is closed here by </Screens>: correct the end tag, or close <Scene> first"
    g = write(tmp_path, '<Project name="X">\n<Screens><Scene name="A &amp B"/></Screens></Project>\n', "amp.kzm")
    _, diags = load_project(g)
    assert only(diags, "xml.malformed").hint == "write '&' in text as &amp; (a binding's && is &amp;&amp;)"


@pytest.mark.parametrize("item", ["Screens.kzm", "Screens/Screen/RootNode/Viewport 2D.kzm"])
def test_an_item_file_of_a_folder_project_names_the_project_to_open(data, item):
    folder = data / "fountain_folder"
    project, diags = load_project(folder / item)
    assert project is None
    d = only(diags, "schema.invalid")
    top = "Screens" if item == "Screens.kzm" else "Viewport2D"
    assert d.message == f"this is an item file (<{top}>) of the folder project {folder}, not a project"
    assert str(folder / "Fountain.proj.kzm") in d.hint
    assert (d.span.file, d.span.line, d.span.column) == (str(folder / item), *_first_element(folder / item))


def test_a_stray_item_file_still_says_what_the_top_element_must_be(tmp_path):
    f = write(tmp_path, '<ParticleEmitter name="E"/>\n', "lone/E.kzm")
    _, diags = load_project(f)
    d = only(diags, "schema.invalid")
    assert "top element must be <Project>, not <ParticleEmitter>" in d.message
    assert "folder project" in d.hint and "no .proj.kzm" in d.hint


def _first_element(path):
    import re
    text = path.read_text(encoding="utf-8")
    at = re.search(r"<[A-Za-z]", text).start()
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1
