"""An item's properties, bindings, aliases and attributes are built from its element when
first read (kzplayer/project/contents.py), never at load, once, and as the eager loader built
them; a clean load runs no RELAX NG validation, a broken one gives its exact messages.
Checked by what they do (never timed)."""
import gc
from pathlib import Path

import pytest

import kzplayer
from kzplayer.project import contents, loader, schema
from kzplayer.project.literals import parse_literal
from kzplayer.project.contents import UnreadItem, is_built
from kzplayer.project.model import Binding, Item, Property
from kzplayer.resources import samples_dir

FIELDS = ("properties", "bindings", "aliases", "attributes")
SAMPLES = sorted(samples_dir().glob("*.kzm"))


def write(tmp_path, body: str, name: str = "p.kzm") -> Path:
    f = tmp_path / name
    f.write_text('<?xml version="1.0" encoding="utf-8"?>\n<Project name="P" format="1">\n'
                 f'<Screens><Screen name="Screen">\n{body}\n</Screen></Screens></Project>\n', encoding="utf-8")
    return f


EMITTERS = '''<ParticleEmitter name="A" extra="x">
  <Property name="Emission.Rate">5</Property>
  <Property name="Emission.Lifetime">2.5</Property>
  <Binding target="ParticleEmitter.MaximumAmount">{./Emission.Rate} * 2</Binding>
  <Alias name="Me" target="."/>
</ParticleEmitter>
<ParticleEmitter name="B">
  <Property name="Emission.Rate">7</Property>
</ParticleEmitter>'''


def test_a_load_builds_no_property_nor_binding_and_the_first_read_builds_every_item_once(tmp_path, monkeypatch):
    project = kzplayer.load(write(tmp_path, EMITTERS))
    [src] = project.document.sources.values()
    assert not [o for o in gc.get_objects() if isinstance(o, (Property, Binding)) and getattr(o, "_source", None) is src]
    items = [project.root, *project.walk()]
    assert all(not is_built(i) and isinstance(i, UnreadItem) for i in items)
    built = []
    real = contents.Contents.build
    monkeypatch.setattr(contents.Contents, "build", lambda self, item: built.append(item) or real(self, item))
    a, b = project.find("Screens/Screen/A"), project.find("Screens/Screen/B")
    first = a.properties
    assert a.properties is first and list(first) == ["Emission.Rate", "Emission.Lifetime"]
    assert sorted(map(id, built)) == sorted(map(id, items)) and all(is_built(i) for i in items)
    assert not any(f in vars(type(a)) for f in FIELDS)       # plain attributes from now on
    assert a.attributes == {"extra": "x"} and list(a.aliases) == ["Me"] and len(a.bindings) == 1
    assert b.bindings == [] and list(b.properties) == ["Emission.Rate"] and len(built) == len(items)
    assert project.root.attributes == {}


def test_a_field_set_by_hand_before_any_read_is_kept(tmp_path):
    project = kzplayer.load(write(tmp_path, EMITTERS))
    a = project.find("Screens/Screen/A")
    a.bindings = []
    assert list(a.properties) == ["Emission.Rate", "Emission.Lifetime"] and a.bindings == []


@pytest.mark.parametrize("path", SAMPLES[:6], ids=lambda p: p.name)
def test_the_values_read_later_are_the_literals_typed_as_the_catalog_says(path):
    project = kzplayer.load(path)
    cat = project.catalog
    n = 0
    for item in project.walk():
        for name, prop in item.properties.items():
            spec = cat.property(name)
            want = parse_literal(prop.text, spec.type if spec else None, enum=(spec.enum or None) if spec else None,
                                 enum_aliases=spec.enum_aliases if spec else ())
            assert prop.value == want, (item.path, name)
            assert prop.element.get("name") == name and (prop.element.text or "") == prop.text
            n += 1
    assert n > 10


def test_a_binding_is_read_as_it_was_loaded_and_a_save_without_changes_writes_nothing_new(tmp_path):
    f = write(tmp_path, EMITTERS)
    before = f.read_bytes()
    project = kzplayer.load(f)
    [b] = project.find("Screens/Screen/A").bindings
    assert b.as_loaded == b.key() and b.owner is project.find("Screens/Screen/A")
    project.save()
    assert f.read_bytes() == before


def test_after_a_save_what_nobody_read_is_read_from_the_file_written(tmp_path):
    f = write(tmp_path, EMITTERS)
    project = kzplayer.load(f)
    screen = project.find("Screens/Screen")
    screen.add_child(Item("EmptyNode", "New"), index=0)       # a new line before A and B
    project.save()
    b = project.find("Screens/Screen/B")
    assert not is_built(b)
    prop = b.properties["Emission.Rate"]
    lines = f.read_text(encoding="utf-8").splitlines()
    assert lines[prop.span.line - 1].strip() == '<Property name="Emission.Rate">7</Property>'
    assert prop.value == 7.0 and project.find("Screens/Screen/A").bindings[0].as_loaded is not None
    assert kzplayer.load(f).find("Screens/Screen/New") is not None


def test_items_made_by_hand_hold_what_they_are_given():
    item = Item("ParticleEmitter", "E", attributes={"k": "v"})
    assert is_built(item) and type(item) is Item and not isinstance(item, UnreadItem)
    assert item.properties == {} and item.bindings == [] and item.aliases == {} and item.attributes == {"k": "v"}
    other = Item("ParticleEmitter", "F")
    assert other.properties is not item.properties


def test_a_property_set_twice_is_reported_and_the_last_one_counts(tmp_path):
    f = write(tmp_path, '<ParticleEmitter name="A">\n<Property name="Emission.Rate">1</Property>\n'
                        '<Property name="Emission.Rate">fast</Property>\n<Property name="Emission.Rate">3</Property>\n'
                        '</ParticleEmitter>')
    project, diags = loader.load_project(f)
    twice = [d for d in diags if "set twice" in d.message]
    assert [(d.span.line, d.message.split("(first at line ")[1][0]) for d in twice] == [(6, "5"), (7, "6")]
    [bad] = [d for d in diags if d.rule == "property.type"]
    assert (bad.span.line, bad.span.column) == (6, len('<Property name="Emission.Rate">') + 1)
    assert project.find("Screens/Screen/A").properties["Emission.Rate"].value == 3


def counted_schema(monkeypatch) -> list:
    runs = []
    real = loader.validate_tree
    monkeypatch.setattr(loader, "validate_tree", lambda tree, path, source=None: runs.append(path)
                        or real(tree, path, source=source))
    return runs


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_a_clean_load_runs_no_relax_ng_validation(path, monkeypatch):
    runs = counted_schema(monkeypatch)
    kzplayer.load(path)
    assert runs == []


@pytest.mark.parametrize("body", [
    '<ParticleEmitter name="A"><Property name="Emission.Rate" junk="1">5</Property></ParticleEmitter>',
    '<ParticleEmitter name="A"><Property name="1Emission">5</Property></ParticleEmitter>',
    '<ParticleEmitter name="A">stray text<Property name="Emission.Rate">5</Property></ParticleEmitter>',
    '<ParticleEmitter name="A"><Alias name="a" target="b">x</Alias></ParticleEmitter>',
    '<ParticleEmitter name="A"><Binding target="Emission.Rate" mode="oneway">1</Binding></ParticleEmitter>',
    '<ParticleEmitter name="A"><BindingSourceItem name="0"/></ParticleEmitter>',
])
def test_a_broken_document_gives_the_schema_checks_own_messages(tmp_path, monkeypatch, body):
    f = write(tmp_path, body)
    runs = counted_schema(monkeypatch)
    project, diags = loader.load_project(f)
    assert runs == [str(f)]
    src = project.document.sources[str(f)]
    want = schema.without_repeats(schema.validate_tree(src.tree, str(f), source=src),
                                  [d for d in diags if d.rule != schema.RULE])
    assert want and [d for d in diags if d.rule == schema.RULE] == want


def test_the_walks_items_are_what_item_loaded_makes(tmp_path):
    """The reader makes the usual item inline (kzm_reader.walk): the same fields as the model's
    constructor gives a loaded item."""
    project = kzplayer.load(write(tmp_path, EMITTERS))
    a = project.find("Screens/Screen/A")
    made = Item.loaded(a.type, a.name, a._span, a.element, None, a._source, a._contents)
    made.parent = a.parent
    assert vars(a) == vars(made)


@pytest.mark.parametrize("copy_of", ["copy", "deepcopy"])
def test_a_copy_of_an_unread_item_is_a_plain_item_with_its_contents(tmp_path, copy_of):
    """copy.copy / deepcopy of an item nobody read: a plain Item holding what the file says
    (a copy of the unread item's fields would have had none once the load's class is built)."""
    import copy
    project = kzplayer.load(write(tmp_path, EMITTERS))
    a = project.find("Screens/Screen/A")
    assert not is_built(a)
    dup = getattr(copy, copy_of)(a)
    assert type(dup) is Item
    assert {n: p.value for n, p in dup.properties.items()} == {"Emission.Rate": 5.0, "Emission.Lifetime": 2.5}
    assert [b.expression for b in dup.bindings] == ["{./Emission.Rate} * 2"]
    assert set(dup.aliases) == {"Me"} and dup.attributes == {"extra": "x"}
    assert project.find("Screens/Screen/B").get("Emission.Rate") == 7.0     # the others built too


@pytest.mark.parametrize("text", ["7.5", "fast", "1e999", ""])
def test_a_literal_typed_alone_is_what_a_load_makes_of_it(tmp_path, text):
    """contents.type_literal (a live save's one literal, render/live_text.py) against a load
    of a file holding that literal: the same value, or the same diagnostic at the same place."""
    f = write(tmp_path, f'<ParticleEmitter name="A"><Property name="Emission.Rate">{text}</Property></ParticleEmitter>')
    project, diags = loader.load_project(f)
    src = loader.read_source(str(f), [])
    start = src.text.index('"Emission.Rate">') + len('"Emission.Rate">')
    value, problems = contents.type_literal(project.catalog if project else None, "Emission.Rate", text, src, start)
    assert problems == diags
    if project is not None and not diags:
        assert value == project.find("Screens/Screen/A").properties["Emission.Rate"].value
