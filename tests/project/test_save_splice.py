"""Saving in place after tree and binding edits: the saved file differs from the original
only in the edited lines (difflib over lines), comments elsewhere are kept, and the file
reads back as the edited model (convert.canonical). Both layouts; the samples round-trip."""
import difflib
import shutil
from pathlib import Path

import pytest

import kzplayer
from kzplayer.diagnostics import KzError
from kzplayer.project.convert import canonical
from kzplayer.project.model import Binding, BindingSource
from kzplayer.studio.tree_ops import clone

SYSTEM = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System"
NOZZLE = SYSTEM + "/Nozzle"
SAMPLES = Path(__file__).resolve().parents[2] / "sample_projects"


@pytest.fixture
def single(tmp_path, data):
    shutil.copy(data / "fountain.kzm", tmp_path / "fountain.kzm")
    return tmp_path / "fountain.kzm"


@pytest.fixture
def folder(tmp_path, data):
    shutil.copytree(data / "fountain_folder", tmp_path / "fountain")
    return tmp_path / "fountain"


def diff(before: str, after: str) -> list[str]:
    """The changed lines: '-' + a line removed, '+' + a line added, in file order."""
    a, b = before.splitlines(), after.splitlines()
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op != "equal":
            out += ["-" + line for line in a[i1:i2]] + ["+" + line for line in b[j1:j2]]
    return out


def saved(path: Path, edit) -> tuple[list[str], object]:
    """Load, edit, save; (the changed lines, the edited model) after checking that the file
    reads back as the edited model."""
    before = path.read_text(encoding="utf-8")
    p = kzplayer.load(path)
    edit(p)
    p.save()
    assert canonical(kzplayer.load(path)) == canonical(p)
    return diff(before, path.read_text(encoding="utf-8")), p


def test_a_short_bindings_expression_is_its_own_text(single):
    def edit(p):
        p.find(NOZZLE).bindings[0].expression = "{./Emission.Rate} * 3"
    lines, _ = saved(single, edit)
    pad = " " * 16
    assert lines == [f'-{pad}<Binding target="ParticleEmitter.MaximumAmount">{{./Emission.Rate}} * {{./Emission.Lifetime}}</Binding>',
                     f'+{pad}<Binding target="ParticleEmitter.MaximumAmount">{{./Emission.Rate}} * 3</Binding>']


def test_a_binding_items_expression_changes_one_property_line(single):
    def edit(p):
        b = p.find(SYSTEM + "/Swirl").bindings[0]
        b.expression, b.raw_code = "{#Nozzle/MyFx.Heat} * 5 < 2", "{0} * 5 < 2"
    lines, _ = saved(single, edit)
    pad = " " * 18
    assert lines == [f'-{pad}<Property name="BindingItem.SourceExpression">{{#Nozzle/MyFx.Heat}} * 4</Property>',
                     f'-{pad}<Property name="BindingItem.RawCode">{{0}} * 4</Property>',
                     f'+{pad}<Property name="BindingItem.SourceExpression">{{#Nozzle/MyFx.Heat}} * 5 &lt; 2</Property>',
                     f'+{pad}<Property name="BindingItem.RawCode">{{0}} * 5 &lt; 2</Property>']


def test_a_binding_item_changed_otherwise_is_its_element_anew(single):
    def edit(p):
        b = p.find(SYSTEM + "/Swirl").bindings[0]
        b.sources[0].source = "Emission.Rate"
        b.expression = "{#Nozzle/Emission.Rate} * 4"
    lines, p = saved(single, edit)
    assert lines == [
        '-' + " " * 18 + '<Property name="BindingItem.SourceExpression">{#Nozzle/MyFx.Heat} * 4</Property>',
        '+' + " " * 18 + '<Property name="BindingItem.SourceExpression">{#Nozzle/Emission.Rate} * 4</Property>',
        '-' + " " * 20 + '<Property name="BindingSourceItem.Source">MyFx.Heat</Property>',
        '+' + " " * 20 + '<Property name="BindingSourceItem.Source">Emission.Rate</Property>']
    assert p.find(SYSTEM + "/Swirl").bindings[0].sources[0].source == "Emission.Rate"


def test_bindings_added_and_removed(single):
    def edit(p):
        p.find(NOZZLE).bindings.clear()
        g = p.find(SYSTEM + "/Gravity")
        g.bindings.append(Binding("Gravity.Strength", "{../Nozzle/Emission.Rate} / 100", short=True, owner=g))
        g.bindings.append(Binding("Gravity.Strength", "{#Nozzle/Emission.Rate}", name="Long", raw_code="{0}",
                                  sources=[BindingSource("0", NOZZLE, "Emission.Rate")], owner=g))
    lines, _ = saved(single, edit)
    pad = " " * 16
    assert lines == [
        f'-{pad}<Binding target="ParticleEmitter.MaximumAmount">{{./Emission.Rate}} * {{./Emission.Lifetime}}</Binding>',
        f'+{pad}<Binding target="Gravity.Strength">{{../Nozzle/Emission.Rate}} / 100</Binding>',
        f'+{pad}<BindingItem name="Long">',
        f'+{pad}  <Property name="BindingItem.Target">Gravity.Strength</Property>',
        f'+{pad}  <Property name="BindingItem.TargetPropertyAttribute">WHOLE_PROPERTY</Property>',
        f'+{pad}  <Property name="BindingItem.BindingMode">ONE_WAY</Property>',
        f'+{pad}  <Property name="BindingItem.IsBindingEnabled">true</Property>',
        f'+{pad}  <Property name="BindingItem.SourceExpression">{{#Nozzle/Emission.Rate}}</Property>',
        f'+{pad}  <Property name="BindingItem.RawCode">{{0}}</Property>',
        f'+{pad}  <BindingSourceItem name="0">',
        f'+{pad}    <Property name="BindingSourceItem.Item">{NOZZLE}</Property>',
        f'+{pad}    <Property name="BindingSourceItem.Source">Emission.Rate</Property>',
        f'+{pad}  </BindingSourceItem>',
        f'+{pad}</BindingItem>']


def test_an_item_removed_takes_its_lines_only(single):
    def edit(p):
        system = p.find(SYSTEM)
        system.children[:] = [c for c in system.children if c.name != "Gravity"]
    lines, _ = saved(single, edit)
    pad = " " * 14
    assert lines == [f'-{pad}<ParticleAffector name="Gravity">',
                     f'-{pad}  <Property name="ParticleAffector.AffectorMaterial">Gravity</Property>',
                     f'-{pad}</ParticleAffector>']


def test_an_item_added_goes_after_its_sibling_indented_as_the_file(single):
    def edit(p):
        system = p.find(SYSTEM)
        new = kzplayer.Item("ParticleAffector", "Drag")
        system.add_child(new, 1)                       # after Nozzle, before Gravity
        new.set("ParticleAffector.AffectorMaterial", "Drag")
        p.find("Screens/Screen/RootNode/Viewport 2D/Scene/Camera").add_child(kzplayer.Item("EmptyNode", "Last"))
    lines, p = saved(single, edit)
    pad = " " * 14
    assert lines == [f'+{pad}<EmptyNode name="Last"/>',
                     f'+{pad}<ParticleAffector name="Drag">',
                     f'+{pad}  <Property name="ParticleAffector.AffectorMaterial">Drag</Property>',
                     f'+{pad}</ParticleAffector>']
    assert [c.name for c in p.find(SYSTEM).children] == ["Nozzle", "Drag", "Gravity", "Swirl"]


def test_rename_changes_the_name_attribute_only(single):
    text = single.read_text(encoding="utf-8")
    lines, _ = saved(single, lambda p: setattr(p.find(SYSTEM + "/Swirl"), "name", 'Swirl "2" & co'))
    line = next(l for l in text.splitlines() if 'name="Swirl">' in l and "ParticleAffector" in l)
    assert lines == ["-" + line, "+" + line.replace('"Swirl"', '"Swirl &quot;2&quot; &amp; co"')]


def test_move_is_removed_and_added(single):
    def edit(p):
        system = p.find(SYSTEM)
        g = system.find("Gravity")
        system.children.remove(g)
        system.add_child(g)                           # after Swirl
    lines, p = saved(single, edit)
    pad = " " * 14
    block = [f'{pad}<ParticleAffector name="Gravity">',
             f'{pad}  <Property name="ParticleAffector.AffectorMaterial">Gravity</Property>',
             f'{pad}</ParticleAffector>']
    assert sorted(lines) == sorted(["-" + l for l in block] + ["+" + l for l in block])
    assert [c.name for c in p.find(SYSTEM).children] == ["Nozzle", "Swirl", "Gravity"]


def test_duplicate_is_one_new_block_after_the_original(single):
    before = single.read_text(encoding="utf-8")

    def edit(p):
        g = p.find(SYSTEM + "/Gravity")
        g.parent.add_child(clone(g, "Gravity copy"), 2)
    saved(single, edit)
    pad = " " * 14
    block = (f'{pad}<ParticleAffector name="Gravity">\n'
             f'{pad}  <Property name="ParticleAffector.AffectorMaterial">Gravity</Property>\n'
             f'{pad}</ParticleAffector>\n')
    copy = block.replace('"Gravity">', '"Gravity copy">', 1)
    assert block in before and single.read_text(encoding="utf-8") == before.replace(block, block + copy)


def test_comments_crlf_and_odd_formatting_survive_tree_edits(tmp_path):
    from tests.project.test_save import ODD
    f = tmp_path / "odd.kzm"
    f.write_bytes(ODD.replace("  <Screens>\r\n", "  <Screens>\r\n    <!-- keep me -->\r\n").encode())
    p = kzplayer.load(f)
    e = p.find("Screens/S/E")
    e.bindings[0].expression = "1 < 2 ? 3 : 4"
    e.parent.add_child(kzplayer.Item("EmptyNode", "N"))
    p.save()
    raw = f.read_bytes()
    assert b"<!-- odd but valid formatting must survive -->\r\n" in raw and b"<!-- keep me -->" in raw
    assert b"\n" not in raw.replace(b"\r\n", b"")                 # every line end still CRLF
    assert b">1 &lt; 2 ? 3 : 4</Binding>" in raw and b"<Scene   name = 'S' >" in raw
    assert canonical(kzplayer.load(f)) == canonical(p)


def test_saves_in_a_row_after_tree_edits_keep_splicing(single, position_of):
    p = kzplayer.load(single)
    system = p.find(SYSTEM)
    system.add_child(kzplayer.Item("ParticleAffector", "Drag"))
    p.save()
    before = single.read_text(encoding="utf-8")
    system.find("Drag").name = "Drag 2"
    p.find(NOZZLE).set("Emission.Rate", 900)
    p.save()
    assert diff(before, single.read_text(encoding="utf-8")) == [
        '-' + " " * 16 + '<Property name="Emission.Rate">500</Property>',
        '+' + " " * 16 + '<Property name="Emission.Rate">900</Property>',
        '-' + " " * 14 + '<ParticleAffector name="Drag"/>',
        '+' + " " * 14 + '<ParticleAffector name="Drag 2"/>']
    drag = system.find("Drag 2")
    assert (drag.span.line, drag.span.column) == position_of(single, '<ParticleAffector name="Drag 2"/>')


MOVES = """<?xml version="1.0" encoding="utf-8"?>
<Project name="Moves" format="1">
  <Screens>
    <Scene name="A">
      <EmptyNode name="Box">   <!-- the box keeps this note -->
        <!-- and this one -->
        <Property name="Node.Width">  7 </Property>
        <EmptyNode   name='Inner'  />
      </EmptyNode>
      <EmptyNode name="Deep">
        <EmptyNode name="Deeper">
          <Property name="Node.Height">2</Property>
        </EmptyNode>
      </EmptyNode>
    </Scene>
  </Screens>
</Project>
"""


@pytest.fixture
def moves(tmp_path):
    f = tmp_path / "moves.kzm"
    f.write_text(MOVES, encoding="utf-8")
    return f


def saved_text(path: Path, edit) -> str:
    """Load, edit, save: the saved text, after checking that it reads back as the model."""
    p = kzplayer.load(path)
    edit(p)
    p.save()
    assert canonical(kzplayer.load(path)) == canonical(p)
    return path.read_text(encoding="utf-8")


def test_a_moved_item_takes_its_own_text_to_its_new_depth(moves):
    def edit(p):
        box = p.find("Screens/A/Box")
        box.parent.children.remove(box)
        p.find("Screens/A/Deep/Deeper").add_child(box)
        box.name = "Crate"
        box.set("Node.Width", 8)
    assert saved_text(moves, edit) == """<?xml version="1.0" encoding="utf-8"?>
<Project name="Moves" format="1">
  <Screens>
    <Scene name="A">
      <EmptyNode name="Deep">
        <EmptyNode name="Deeper">
          <Property name="Node.Height">2</Property>
          <EmptyNode name="Crate">   <!-- the box keeps this note -->
            <!-- and this one -->
            <Property name="Node.Width">8</Property>
            <EmptyNode   name='Inner'  />
          </EmptyNode>
        </EmptyNode>
      </EmptyNode>
    </Scene>
  </Screens>
</Project>
"""


def test_a_duplicate_is_its_originals_text_with_the_new_name(moves):
    def edit(p):
        box = p.find("Screens/A/Box")
        copy = box.parent.add_child(clone(box, "Box copy"), 1)
        copy.parent.add_child(clone(copy, "Box copy 2"), 2)      # a duplicate of a duplicate
    assert saved_text(moves, edit) == MOVES.replace("""      <EmptyNode name="Deep">""", """      <EmptyNode name="Box copy">   <!-- the box keeps this note -->
        <!-- and this one -->
        <Property name="Node.Width">  7 </Property>
        <EmptyNode   name='Inner'  />
      </EmptyNode>
      <EmptyNode name="Box copy 2">   <!-- the box keeps this note -->
        <!-- and this one -->
        <Property name="Node.Width">  7 </Property>
        <EmptyNode   name='Inner'  />
      </EmptyNode>
      <EmptyNode name="Deep">""")


def test_an_item_moved_into_a_new_item_keeps_its_text(moves):
    def edit(p):
        scene = p.find("Screens/A")
        box = scene.find("Box")
        scene.children.remove(box)
        group = scene.add_child(kzplayer.Item("EmptyNode", "Group"))
        group.add_child(box)
    assert saved_text(moves, edit) == MOVES.replace("""      <EmptyNode name="Box">   <!-- the box keeps this note -->
        <!-- and this one -->
        <Property name="Node.Width">  7 </Property>
        <EmptyNode   name='Inner'  />
      </EmptyNode>
""", "").replace("""    </Scene>""", """      <EmptyNode name="Group">
        <EmptyNode name="Box">   <!-- the box keeps this note -->
          <!-- and this one -->
          <Property name="Node.Width">  7 </Property>
          <EmptyNode   name='Inner'  />
        </EmptyNode>
      </EmptyNode>
    </Scene>""")


def test_the_studios_duplicate_and_move_keep_comments(tmp_path):
    from kzplayer.studio.session import StudioSession
    from kzplayer.studio.tree_ops import DuplicateItem, MoveItem
    f = tmp_path / "moves.kzm"
    f.write_text(MOVES, encoding="utf-8")
    s = StudioSession(f)
    s.edit(DuplicateItem("Screens/A/Box"))
    s.edit(MoveItem("Screens/A/Box", "Screens/A/Deep", 0))
    s.save()
    text = f.read_text(encoding="utf-8")
    assert text.count("<!-- the box keeps this note -->") == 2 and text.count("<!-- and this one -->") == 2
    assert '        <EmptyNode name="Box">   <!-- the box keeps this note -->\n' \
           '          <!-- and this one -->\n' in text
    assert canonical(kzplayer.load(f)) == canonical(s.project)


def test_aliases_changed_added_and_removed_are_their_own_lines(single):
    before = single.read_text(encoding="utf-8")

    def edit(p):
        scene = p.find("Screens/Screen/RootNode/Viewport 2D/Scene")
        scene.aliases["Nozzle"].target = "./Particle System/Swirl"
        system = scene.find("Particle System")
        system.aliases["Spout"] = kzplayer.project.model.Alias("Spout", "./Nozzle")
    text = saved_text(single, edit)
    assert text == before.replace('<Alias name="Nozzle" target="./Particle System/Nozzle"/>',
                                  '<Alias name="Nozzle" target="./Particle System/Swirl"/>').replace(
        '            <ParticleSystem name="Particle System">\n',
        '            <ParticleSystem name="Particle System">\n              <Alias name="Spout" target="./Nozzle"/>\n')
    assert "<!--" in text
    p = kzplayer.load(single)
    p.find("Screens/Screen/RootNode/Viewport 2D/Scene").aliases.clear()
    p.find(SYSTEM).aliases.clear()
    p.save()
    assert single.read_text(encoding="utf-8") == before.replace(
        '            <Alias name="Nozzle" target="./Particle System/Nozzle"/>\n', "")


def test_an_items_attributes_and_type_are_its_start_tag_only(single):
    before = single.read_text(encoding="utf-8")

    def edit(p):
        swirl = p.find("Materials/Swirl")
        swirl.attributes["shader"] = 'shaders/swirl "2".glsl'
        del swirl.attributes["slot"]
        swirl.attributes["slot"] = "Affector"          # the same value again, now last: no edit
        p.find("PropertyTypes/MyFx.Heat").attributes.pop("max")
        p.find("PropertyTypes/MyFx.Heat").attributes["doc"] = "heat, 0 to 1"
        p.find("Screens/Screen/RootNode").type = "EmptyNode2D"
        p.find("Screens").name = "Views"               # a library without a name attribute
        p.name = "Fountain 2"
    text = saved_text(single, edit)
    assert text == before.replace('shader="shaders/swirl.glsl"', 'shader="shaders/swirl &quot;2&quot;.glsl"').replace(
        'default="0.5" min="0" max="1"/>', 'default="0.5" min="0" doc="heat, 0 to 1"/>').replace(
        '<EmptyNode name="RootNode">', '<EmptyNode2D name="RootNode">').replace(
        '      </EmptyNode>\n    </Screen>', '      </EmptyNode2D>\n    </Screen>').replace(
        '  <Screens>', '  <Screens name="Views">').replace('<Project name="Fountain"', '<Project name="Fountain 2"')


# -- the folder layout ---------------------------------------------------------------------

def test_folder_binding_edit_touches_one_file(folder):
    before = {f: f.read_text(encoding="utf-8") for f in folder.rglob("*.kzm")}
    p = kzplayer.load(folder)
    p.find(NOZZLE).bindings[0].expression = "7"
    assert p.save() == [str(folder / (NOZZLE + ".kzm"))]
    after = {f: f.read_text(encoding="utf-8") for f in folder.rglob("*.kzm")}
    changed = {f: diff(before[f], after[f]) for f in before if before[f] != after[f]}
    assert list(changed) == [folder / (NOZZLE + ".kzm")]
    assert [l for l in next(iter(changed.values())) if l.startswith("+")] == \
        ['+  <Binding target="ParticleEmitter.MaximumAmount">7</Binding>']
    assert canonical(kzplayer.load(folder)) == canonical(p)


def test_folder_item_added_and_removed_are_files_and_child_lines(folder):
    system_file = folder / (SYSTEM + ".kzm")
    before = system_file.read_text(encoding="utf-8")
    others = {f: f.read_bytes() for f in folder.rglob("*.kzm") if f != system_file}
    p = kzplayer.load(folder)
    system = p.find(SYSTEM)
    system.children[:] = [c for c in system.children if c.name != "Gravity"]
    drag = system.add_child(kzplayer.Item("ParticleAffector", "Drag"))
    drag.set("ParticleAffector.AffectorMaterial", "Drag")
    p.save()
    gravity = folder / (SYSTEM + "/Gravity.kzm")
    assert not gravity.exists() and (folder / (SYSTEM + "/Drag.kzm")).exists()
    assert diff(before, system_file.read_text(encoding="utf-8")) == \
        ['-  <Child name="Gravity"/>', '+  <Child name="Drag"/>']
    assert {f: f.read_bytes() for f in folder.rglob("*.kzm") if f not in (system_file, folder / (SYSTEM + "/Drag.kzm"))} \
        == {f: b for f, b in others.items() if f != gravity}
    q = kzplayer.load(folder)
    assert canonical(q) == canonical(p) and not q.diagnostics


# -- round trips ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(f.name for f in SAMPLES.glob("*.kzm")))
def test_samples_round_trip_with_an_item_added_and_removed(tmp_path, name):
    f = tmp_path / name
    shutil.copy(SAMPLES / name, f)
    original = f.read_bytes()
    p = kzplayer.load(f)
    lib = p.libraries[0]
    lib.add_child(kzplayer.Item("EmptyNode", "Extra node"))
    p.save()
    assert canonical(kzplayer.load(f)) == canonical(p)
    assert len(diff(original.decode("utf-8"), f.read_text(encoding="utf-8"))) == 1
    lib.children.pop()
    p.save()
    assert f.read_bytes() == original


def test_a_binding_goes_after_the_last_binding_and_an_empty_item_opens(single):
    p = kzplayer.load(single)
    p.find(SYSTEM).add_child(kzplayer.Item("ParticleAffector", "Drag"))
    p.save()
    before = single.read_text(encoding="utf-8")

    def edit(p):
        n = p.find(NOZZLE)
        n.bindings.append(Binding("Emission.Lifetime", "{./Emission.Rate} / 250", short=True, owner=n))
        drag = p.find(SYSTEM + "/Drag")
        drag.set("ParticleAffector.AffectorMaterial", "Drag")
        drag.bindings.append(Binding("Drag.Strength", "2", short=True, owner=drag))
    saved(single, edit)
    old = '<Binding target="ParticleEmitter.MaximumAmount">{./Emission.Rate} * {./Emission.Lifetime}</Binding>'
    pad = " " * 14
    assert single.read_text(encoding="utf-8") == before.replace(
        old, old + "\n" + " " * 16 + '<Binding target="Emission.Lifetime">{./Emission.Rate} / 250</Binding>').replace(
        f'{pad}<ParticleAffector name="Drag"/>',
        f'{pad}<ParticleAffector name="Drag">\n{pad}  <Property name="ParticleAffector.AffectorMaterial">Drag</Property>\n'
        f'{pad}  <Binding target="Drag.Strength">2</Binding>\n{pad}</ParticleAffector>')


def test_a_removed_property_takes_its_line(single):
    lines, _ = saved(single, lambda p: p.find(NOZZLE).properties.pop("Emission.Lifetime"))
    assert lines == ["-" + " " * 16 + '<Property name="Emission.Lifetime">2</Property>']


@pytest.mark.parametrize("name", ["Indicator.kzproj", "Gauges.kzproj"])
def test_a_converted_kanzi_project_splices_and_reverts_to_its_bytes(tmp_path, name):
    f = tmp_path / "converted.kzm"
    kzplayer.load(Path(__file__).resolve().parents[2] / "../shared/kanzi39" / name).save(f)
    original = f.read_text(encoding="utf-8")
    p = kzplayer.load(f)
    victim = next(i for i in p.walk() if i.parent is not None and i.parent.parent is not None and i.children
                  and not any(n.bindings for n in i.walk()))
    bindings = p.bindings()
    assert bindings
    for b in bindings:
        b.expression += " + 0"
    parent, at = victim.parent, victim.parent.children.index(victim)
    parent.children.remove(victim)
    p.save()
    assert canonical(kzplayer.load(f)) == canonical(p)
    lines = diff(original, f.read_text(encoding="utf-8"))
    added = [l for l in lines if l.startswith("+")]
    assert len(added) == len(bindings) and all("SourceExpression" in l and l.endswith(" + 0</Property>") for l in added)
    block = [l[1:] for l in lines if l.startswith("-") and "SourceExpression" not in l]
    assert block[0].strip().startswith(f"<{victim.type} ") and block[-1].strip() == f"</{victim.type}>"
    for b in bindings:
        b.expression = b.expression[:-4]
    parent.add_child(victim, at)
    p.save()
    assert canonical(kzplayer.load(f)) == canonical(p)
    # back as it was but for the victim's values, which the writer spells its way (2 -> High)
    lines = diff(original, f.read_text(encoding="utf-8"))
    assert len(lines) % 2 == 0 and {l[1:] for l in lines if l.startswith("-")} <= set(block)
    assert sum(1 for l in lines if l.startswith("+")) == sum(1 for l in lines if l.startswith("-"))


def test_the_studios_tree_edits_save_as_local_edits(single):
    from kzplayer.studio.session import StudioSession
    from kzplayer.studio.tree_ops import AddItem, DuplicateItem, RenameItem
    before = single.read_text(encoding="utf-8")
    s = StudioSession(single)
    s.edit(AddItem(SYSTEM, material="Wind"))
    s.edit(RenameItem(SYSTEM + "/Gravity", "Down"))
    s.edit(DuplicateItem(NOZZLE))
    s.save()
    after = single.read_text(encoding="utf-8")
    lines = diff(before, after)
    assert [l for l in lines if l.startswith("-")] == ["-" + " " * 14 + '<ParticleAffector name="Gravity">']
    assert "+" + " " * 14 + '<ParticleAffector name="Down">' in lines
    assert "+" + " " * 14 + '<ParticleEmitter name="Nozzle copy">' in lines
    assert "+" + " " * 14 + '<ParticleAffector name="Wind">' in lines
    assert after.count("<!--") == before.count("<!--") == 2
    assert canonical(kzplayer.load(single)) == canonical(s.project)


def test_folder_subtree_added_and_removed_with_its_folders(folder):
    nozzle_file = folder / (NOZZLE + ".kzm")
    original = nozzle_file.read_text(encoding="utf-8")
    p = kzplayer.load(folder)
    n = p.find(NOZZLE)
    n.add_child(kzplayer.Item("EmptyNode", "Sub")).add_child(kzplayer.Item("EmptyNode", "Deeper"))
    assert sorted(p.save()) == sorted(str(f) for f in (nozzle_file, folder / (NOZZLE + "/Sub.kzm"),
                                                        folder / (NOZZLE + "/Sub/Deeper.kzm")))
    assert diff(original, nozzle_file.read_text(encoding="utf-8")) == ['+  <Child name="Sub"/>']
    assert canonical(kzplayer.load(folder)) == canonical(p)
    system = n.parent
    system.children.remove(n)
    p.save()
    assert not nozzle_file.exists() and not (folder / NOZZLE).exists()
    q = kzplayer.load(folder)
    assert canonical(q) == canonical(p) and not q.diagnostics


def test_folder_reorder_moves_the_child_line_only(folder):
    system_file = folder / (SYSTEM + ".kzm")
    before = {f: f.read_bytes() for f in folder.rglob("*.kzm")}
    p = kzplayer.load(folder)
    system = p.find(SYSTEM)
    swirl = system.find("Swirl")
    system.children.remove(swirl)
    system.add_child(swirl, 0)
    swirl.set("Swirl.Strength", 3)
    p.save()
    text = system_file.read_text(encoding="utf-8")
    assert diff(before[system_file].decode(), text) == ['+  <Child name="Swirl"/>', '-  <Child name="Swirl"/>']
    swirl_file = folder / (SYSTEM + "/Swirl.kzm")
    assert swirl_file.read_bytes() == before[swirl_file].replace(b">2.5<", b">3<")
    assert {f for f in folder.rglob("*.kzm") if f.read_bytes() != before[f]} == {system_file, swirl_file}
    q = kzplayer.load(folder)
    assert canonical(q) == canonical(p) and [c.name for c in q.find(SYSTEM).children][0] == "Swirl"


def _random_edit(rnd, p, step):
    from kzplayer.studio.tree_ops import free_name
    nodes = [i for i in p.walk() if i.parent is not None and i.path.startswith("Screens/")]
    it = rnd.choice(nodes)
    op = rnd.choice(["remove", "add", "rename", "move", "duplicate", "expression", "unbind", "bind", "unset"])
    if op == "remove":
        it.parent.children.remove(it)
    elif op == "add":
        it.add_child(kzplayer.Item("EmptyNode", free_name(it, f"New {step}")), rnd.randint(0, len(it.children)))
    elif op == "rename":
        it.name = free_name(it.parent, it.name + f" r{step}")
    elif op == "move":
        it.parent.children.remove(it)
        to = rnd.choice([n for n in p.walk() if n.parent is not None and n.path.startswith("Screens")
                         and it not in list(n.walk()) and n.child(it.name) is None] or [p.find("Screens")])
        to.add_child(it, rnd.randint(0, len(to.children)))
    elif op == "duplicate":
        it.parent.add_child(clone(it, free_name(it.parent, it.name + " copy")), it.parent.children.index(it) + 1)
    elif op == "expression" and p.bindings():
        rnd.choice(p.bindings()).expression += " * 1"
    elif op == "unbind" and it.bindings:
        it.bindings.pop(rnd.randrange(len(it.bindings)))
    elif op == "bind":
        short = rnd.random() < 0.5
        it.bindings.append(Binding("Node.Width", "1 + 2", short=short, raw_code=None if short else "1 + 2", owner=it))
    elif op == "unset" and it.properties:
        it.properties.pop(rnd.choice(list(it.properties)))
    return op


@pytest.mark.parametrize("seed", range(12))
def test_random_edits_save_and_read_back_as_the_model(tmp_path, seed):
    import random
    rnd = random.Random(seed)
    source = rnd.choice(sorted(SAMPLES.glob("*.kzm")))
    f = tmp_path / source.name
    shutil.copy(source, f)
    comments = source.read_text(encoding="utf-8").count("<!--")
    p = kzplayer.load(f)
    for step in range(5):
        if not any(i.path.startswith("Screens/") for i in p.walk()):
            break                          # every node removed: nothing left to edit
        op = _random_edit(rnd, p, step)
        p.save()
        assert canonical(kzplayer.load(f)) == canonical(p), (step, op)
        # removed items take their comments along, moved ones keep theirs; only a duplicate
        # adds some (its original's)
        now = f.read_text(encoding="utf-8").count("<!--")
        assert now <= comments or op == "duplicate", (step, op)
        comments = now
