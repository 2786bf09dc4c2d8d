"""Saving: a change touches only its own text; comments, formatting and untouched files keep
their bytes; both layouts; the tree changed -> written anew."""
import shutil

import pytest

import kzplayer
from kzplayer.diagnostics import KzError
from kzplayer.project.convert import canonical
from kzplayer.values import Vector

NOZZLE = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Nozzle"

ODD = ("<?xml version='1.0' encoding='utf-8'?>\r\n"
       "<!-- odd but valid formatting must survive -->\r\n"
       "<Project name='Odd' format=\"1\">\r\n"
       "  <Screens>\r\n"
       "    <Scene   name = 'S' >\r\n"
       "\t<ParticleEmitter name=\"E\"><Property name=\"Emission.Rate\">  10 </Property>"
       "<Property name=\"Emission.Lifetime\"/>\r\n"
       "\t  <Binding target=\"ParticleEmitter.MaximumAmount\">{./Emission.Rate} > 5 ? 100 : 10 &amp;&amp; 1</Binding>\r\n"
       "\t</ParticleEmitter>\r\n"
       "    </Scene>\r\n"
       "  </Screens>\r\n"
       "</Project>\r\n")


@pytest.fixture
def single(tmp_path, data):
    shutil.copy(data / "fountain.kzm", tmp_path / "fountain.kzm")
    return tmp_path / "fountain.kzm"


@pytest.fixture
def folder(tmp_path, data):
    shutil.copytree(data / "fountain_folder", tmp_path / "fountain")
    return tmp_path / "fountain"


def test_changed_value_changes_only_its_text(single):
    before = single.read_bytes()
    p = kzplayer.load(single)
    p.find(NOZZLE).set("Emission.Rate", 800)
    assert p.save() == [str(single)]
    expected = before.replace(b'<Property name="Emission.Rate">500</Property>',
                              b'<Property name="Emission.Rate">800</Property>')
    assert expected != before and single.read_bytes() == expected
    assert kzplayer.load(single).find(NOZZLE).get("Emission.Rate") == 800.0


def test_new_property_is_one_new_line_after_the_last_property(single):
    before = single.read_text(encoding="utf-8")
    p = kzplayer.load(single)
    p.find(NOZZLE).set("Emission.Seed", 7)
    p.save()
    anchor = '<Property name="Emission.InitialVelocityOuterAngle">0.25</Property>'
    indent = " " * 16
    assert single.read_text(encoding="utf-8") == before.replace(
        anchor, anchor + "\n" + indent + '<Property name="Emission.Seed">7</Property>')


def test_odd_formatting_crlf_and_comments_survive(tmp_path):
    f = tmp_path / "odd.kzm"
    f.write_bytes(ODD.encode())
    p = kzplayer.load(f)
    e = p.find("Screens/S/E")
    e.set("Emission.Lifetime", 2.5)          # a self-closing <Property/> gets a value
    e.set("Emission.Rate", 12)
    p.save()
    expected = (ODD.replace('<Property name="Emission.Rate">  10 </Property>',
                            '<Property name="Emission.Rate">12</Property>')
                .replace('<Property name="Emission.Lifetime"/>',
                         '<Property name="Emission.Lifetime">2.5</Property>'))
    assert f.read_bytes() == expected.encode()


def test_repeated_saves_keep_working(single, position_of):
    p = kzplayer.load(single)
    n = p.find(NOZZLE)
    for rate in (600, 700, 701.5):
        n.set("Emission.Rate", rate)
        p.save()
        assert kzplayer.load(single).find(NOZZLE).get("Emission.Rate") == rate
    n.set("Emission.InitialVelocityDirection", (1, 0, 0))
    p.save()
    assert "(1, 0, 0)" in single.read_text(encoding="utf-8")
    line = n.bindings[0].span.line
    n.set("Emission.Seed", 3)                      # a new line above the binding
    p.save()
    assert n.bindings[0].span.line == line + 1      # positions follow the file
    assert (n.bindings[0].span.line, n.bindings[0].span.column) == position_of(single, "<Binding target")


def test_folder_save_touches_one_file(folder):
    before = {f: f.read_bytes() for f in folder.rglob("*.kzm")}
    p = kzplayer.load(folder)
    p.find(NOZZLE).set("Emission.Lifetime", 3)
    written = p.save()
    item_file = folder / (NOZZLE + ".kzm")
    assert written == [str(item_file)]
    for f, data in before.items():
        if f != item_file:
            assert f.read_bytes() == data, f
    assert item_file.read_bytes() == before[item_file].replace(
        b'"Emission.Lifetime">2<', b'"Emission.Lifetime">3<')


def test_save_as_same_layout_copies_every_file(folder, tmp_path):
    p = kzplayer.load(folder)
    p.find(NOZZLE).set("Emission.Rate", 1.5)
    p.save(tmp_path / "copy")
    q = kzplayer.load(tmp_path / "copy")
    assert canonical(q) == canonical(p)
    comment = "<!-- tree order: affectors run in this order -->"
    assert comment in (tmp_path / "copy" / "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System.kzm").read_text()


def test_save_as_other_layout_converts(single, tmp_path):
    p = kzplayer.load(single)
    p.save(tmp_path / "as_folder")
    assert canonical(kzplayer.load(tmp_path / "as_folder")) == canonical(p)


def test_changed_tree_is_written_anew(single):
    p = kzplayer.load(single)
    system = p.find(NOZZLE).parent
    new = kzplayer.Item("ParticleAffector", "Drag")
    system.add_child(new)
    new.set("ParticleAffector.AffectorMaterial", "Drag")
    p.save()
    q = kzplayer.load(single)
    assert [c.name for c in q.find(system.path).children] == ["Nozzle", "Gravity", "Swirl", "Drag"]
    assert canonical(q) == canonical(p)


def test_set_checks_type_and_range(single):
    p = kzplayer.load(single)
    n = p.find(NOZZLE)
    with pytest.raises(ValueError):
        n.set("Emission.InitialVelocityDirection", (1, 2))
    with pytest.raises(ValueError):
        n.set("ParticleEmitter.MaximumAmount", 2.5)
    with pytest.raises(ValueError, match="must be between 0 and 1, not 2"):
        n.set("MyFx.Heat", 2.0)                       # custom type, max="1"
    n.set("Emission.InitialVelocityDirection", "(0, 0, 1)")
    assert n.get("Emission.InitialVelocityDirection") == Vector((0, 0, 1))


def test_a_folder_rename_onto_a_file_on_disk_is_refused_and_changes_nothing(folder):
    # renames and moves save in place (tests/project/test_save_order.py); onto a name whose
    # file is already there (not one of the project's) they are refused
    (folder / (NOZZLE.rsplit("/", 1)[0] + "/Spout.kzm")).write_text("not an item file")
    before = {f: f.read_bytes() for f in folder.rglob("*") if f.is_file()}
    p = kzplayer.load(folder)
    p.find(NOZZLE).name = "Spout"
    with pytest.raises(KzError) as info:
        p.save()
    assert info.value.exit_code == 2 and "Spout.kzm is there already" in info.value.diagnostics[0].message
    assert {f: f.read_bytes() for f in folder.rglob("*") if f.is_file()} == before


def test_latin1_file_keeps_its_encoding(tmp_path):
    f = tmp_path / "latin.kzm"
    text = ('<?xml version="1.0" encoding="iso-8859-1"?>\n<Project name="Caf\xe9">\n  <Screens>\n'
            '    <Scene name="Ni\xf1o"><Property name="Node.Width">1</Property></Scene>\n  </Screens>\n</Project>\n')
    f.write_bytes(text.encode("latin-1"))
    p = kzplayer.load(f)
    scene = p.find("Screens/Ni\xf1o")
    column = text.splitlines()[3].index(">1<") + 2        # characters, not bytes
    assert p.name == "Caf\xe9" and scene.properties["Node.Width"].value_span.column == column
    scene.set("Node.Width", 2)
    p.save()
    assert f.read_bytes() == text.replace(">1<", ">2<").encode("latin-1")


def test_custom_property_type_added_through_the_api_is_known(single):
    p = kzplayer.load(single)
    assert p.property_spec("Fx.New") is None
    p.find("PropertyTypes").add_child(kzplayer.Item("PropertyType", "Fx.New", attributes={"type": "int", "default": "4"}))
    assert p.find(NOZZLE).get("Fx.New") == 4


def test_changed_binding_or_attribute_is_saved_too(single):
    p = kzplayer.load(single)
    n = p.find(NOZZLE)
    n.bindings[0].expression = "{./Emission.Rate} * 3"
    p.find("Materials/Swirl").attributes["shader"] = "shaders/swirl2.glsl"
    p.save()
    q = kzplayer.load(single)
    assert q.find(NOZZLE).bindings[0].expression == "{./Emission.Rate} * 3"
    assert q.find("Materials/Swirl").attributes["shader"] == "shaders/swirl2.glsl"


def test_after_a_rewrite_saves_are_in_place_again(single):
    p = kzplayer.load(single)
    p.find(NOZZLE).bindings[0].expression = "{./Emission.Rate} * 3"
    p.save()                                         # written anew
    before = single.read_bytes()
    p.find(NOZZLE).set("Emission.Rate", 900)
    p.save()                                         # in place: one value
    assert single.read_bytes() == before.replace(b'"Emission.Rate">500<', b'"Emission.Rate">900<')


def test_folder_saves_in_a_row_keep_positions_right(folder, position_of):
    p = kzplayer.load(folder)
    n = p.find(NOZZLE)
    item_file = folder / (NOZZLE + ".kzm")
    n.set("Emission.Rate", 600)
    p.save()
    n.set("Emission.Seed", 11)                    # a new line above the binding
    assert p.save() == [str(item_file)]
    assert (n.bindings[0].span.file, n.bindings[0].span.line, n.bindings[0].span.column) == \
        (str(item_file), *position_of(item_file, "<Binding target"))
    assert (n.properties["Emission.Seed"].span.line, n.properties["Emission.Seed"].span.column) == \
        position_of(item_file, '<Property name="Emission.Seed">')
    n.set("Emission.Seed", 12)
    p.save()
    q = kzplayer.load(folder)
    assert (q.find(NOZZLE).get("Emission.Rate"), q.find(NOZZLE).get("Emission.Seed")) == (600.0, 12)
    assert canonical(q) == canonical(p)


@pytest.mark.parametrize("make", ["non-empty folder", "file"])
def test_an_unusable_destination_is_a_command_line_error(single, tmp_path, make):
    from kzplayer.project.writer import write_folder
    dest = tmp_path / "out"
    if make == "file":
        dest.write_text("x")
    else:
        dest.mkdir()
        (dest / "keep.txt").write_text("x")
    with pytest.raises(KzError) as e:
        write_folder(single, str(dest))
    d = e.value.diagnostics[0]
    assert (d.rule, d.code, e.value.exit_code) == ("cli.destination", "KZ905", 2)
    assert str(dest) in d.message


def test_set_refuses_an_unknown_property_name(single):
    p = kzplayer.load(single)
    n = p.find(NOZZLE)
    with pytest.raises(ValueError) as e:
        n.set("Emission.Rat", 5)
    assert str(e.value) == (f"{NOZZLE} has no property 'Emission.Rat'; did you mean 'Emission.Rate'? "
                            "(a property of your own needs a PropertyType first)")
    assert "Emission.Rat" not in n.properties and p.changed == []


def test_set_takes_custom_types_and_names_already_written(single, tmp_path):
    p = kzplayer.load(single)
    n = p.find(NOZZLE)
    n.set("MyFx.Heat", 0.5)                           # declared by the project's PropertyTypes
    p.find("PropertyTypes").add_child(kzplayer.Item("PropertyType", "Fx.New", attributes={"type": "int"}))
    n.set("Fx.New", 3)                                # declared through the API
    text = single.read_text(encoding="utf-8").replace(
        '<Property name="Emission.Rate">', '<Property name="Legacy.Thing">1</Property><Property name="Emission.Rate">', 1)
    f = tmp_path / "legacy.kzm"
    f.write_text(text, encoding="utf-8")
    q = kzplayer.load(f)
    owner = next(i for i in q.walk() if "Legacy.Thing" in i.properties)
    owner.set("Legacy.Thing", 2)                      # written in the file: not the API's typo
    assert owner.get("Legacy.Thing") == 2


# -- saves never lose data (writer.write_files: temporary files, then os.replace) -------------

def _no_temporaries(folder):
    return not [p for p in folder.rglob("*.tmp")]


def test_a_character_the_declared_encoding_cannot_hold_is_saved_as_a_character_reference(single):
    text = single.read_text(encoding="utf-8").replace('encoding="utf-8"', 'encoding="us-ascii"')
    single.write_text(text, encoding="ascii")
    project = kzplayer.load(single)
    project.find(NOZZLE).set("Particle.Texture", "étincelle ✨.png")
    project.save()                          # a UnicodeEncodeError left a 0-byte file before
    raw = single.read_bytes()
    assert raw.decode("ascii") and "&#233;tincelle &#10024;.png" in raw.decode("ascii")
    assert kzplayer.load(single).find(NOZZLE).get("Particle.Texture") == "étincelle ✨.png"
    assert _no_temporaries(single.parent)


def test_what_no_xml_file_can_hold_is_the_documented_error_and_the_file_stays_whole(single):
    project = kzplayer.load(single)
    before = single.read_bytes()
    project.find(NOZZLE).name = "bad \ud800 name"        # a lone surrogate: no encoding holds it
    with pytest.raises(KzError) as e:
        project.save()
    assert e.value.exit_code == 2 and e.value.diagnostics[0].rule == "file.unwritable"
    assert single.read_bytes() == before and _no_temporaries(single.parent)


_FSIZE_SAVE = """
import resource, sys
import kzplayer
from kzplayer.diagnostics import KzError
project = kzplayer.load(sys.argv[1])
for item in project.items("ParticleEmitter"):
    item.set("Particle.Texture", "x" * 5000)       # each changed file grows by 5 kB
limit = int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
try:
    project.save()
except KzError as e:
    print(e.diagnostics[0].rule, e.exit_code)
"""


def _save_under_a_size_limit(target, limit):
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-c", _FSIZE_SAVE, str(target), str(limit)],
                          capture_output=True, text=True, timeout=120)


def test_a_save_stopped_by_the_file_size_limit_leaves_the_old_file_whole(single):
    before = single.read_bytes()
    r = _save_under_a_size_limit(single, len(before) + 100)   # truncated the file before
    assert r.stdout.split() == ["file.unwritable", "2"], r.stderr
    assert single.read_bytes() == before and _no_temporaries(single.parent)


def test_a_folder_save_is_all_or_nothing(folder):
    files = sorted(folder.rglob("*.kzm"))
    before = {p: p.read_bytes() for p in files}
    r = _save_under_a_size_limit(folder, max(len(b) for b in before.values()) + 100)
    assert r.stdout.split() == ["file.unwritable", "2"], r.stderr
    assert {p: p.read_bytes() for p in files} == before and _no_temporaries(folder)


def test_a_save_keeps_the_file_mode(single):
    single.chmod(0o640)
    project = kzplayer.load(single)
    project.find(NOZZLE).set("Emission.Rate", 12)
    project.save()
    assert single.stat().st_mode & 0o777 == 0o640
