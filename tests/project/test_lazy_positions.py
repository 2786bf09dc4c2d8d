"""Loading internals that keep big projects fast, checked by what they do (never timed):
positions worked out on first use and then exact, the loader's one-step constructors equal
to the dataclasses', and the child index of items with many children."""
from pathlib import Path

import kzplayer
from kzplayer.project.model import Binding, Item, Property


def where(path, needle: str, nth: int = 0) -> tuple[int, int]:
    """(line, column), 1-based, of the nth `needle` in the file: from the text, not the loader."""
    text = Path(path).read_text(encoding="utf-8")
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


def write(tmp_path, body: str) -> Path:
    f = tmp_path / "p.kzm"
    f.write_text('<?xml version="1.0" encoding="utf-8"?>\n<Project name="P" format="1">\n'
                 f'<Screens><Screen name="Screen">\n{body}\n</Screen></Screens></Project>\n', encoding="utf-8")
    return f


def test_a_clean_load_scans_no_positions_and_a_read_one_is_exact(tmp_path):
    f = write(tmp_path, '<ParticleEmitter name="A">\n  <Property name="Emission.Rate">5</Property>'
                        '<Binding target="Emission.Lifetime">{./Emission.Rate} * 2</Binding>\n'
                        '</ParticleEmitter>\n<ParticleEmitter name="B"/>')
    project = kzplayer.load(f)
    [src] = project.document.sources.values()
    assert src._tags is None and src._line_starts is None       # nothing asked for a position yet
    a = project.find("Screens/Screen/A")
    prop = a.properties["Emission.Rate"]
    assert (prop.span.line, prop.span.column) == where(f, '<Property name="Emission.Rate">')
    assert src._tags is not None
    assert (prop.value_span.line, prop.value_span.column) == where(f, "5</Property>")
    [b] = a.bindings
    assert (b.expression_span.line, b.expression_span.column) == where(f, "{./Emission.Rate} * 2")
    assert (b.target_span.line, b.target_span.column) == where(f, "Emission.Lifetime")
    item = project.find("Screens/Screen/B")
    assert (item.span.line, item.span.column, item.span.end_column) == (*where(f, '<ParticleEmitter name="B"/>'),
                                                                       where(f, '<ParticleEmitter name="B"/>')[1] + 27)


def test_a_wrong_value_is_reported_at_its_place_without_asking_first(tmp_path):
    f = write(tmp_path, '<ParticleEmitter name="A"><Property name="Emission.Rate">fast</Property></ParticleEmitter>')
    project, diags = kzplayer.project.loader.load_project(f)
    [d] = diags
    assert d.rule == "property.type" and (d.span.line, d.span.column) == where(f, "fast")


def test_the_loaders_constructors_make_what_the_dataclasses_make():
    p, q = Property("A.B", None, "1", "S", "E", "V"), Property.loaded("A.B", "1", "S", "E", "V")
    assert p.__dict__ == q.__dict__ and p == q
    i, j = Item("T", "n", span="S", element="E", attributes={"k": "v"}), Item.loaded("T", "n", "S", "E", {"k": "v"})
    assert i.__dict__ == j.__dict__
    for name, as_read in ((None, True), ("N", False)):
        b = Binding("T.P", "{../A}", name, "VECTOR_X", "TWO_WAY", short=True, span="S", expression_span="V",
                    target_span="TS", owner=i, element="E", expression_anchors=((1, 2, 3),))
        b._source = "F"
        if as_read:
            b.as_loaded = b.key()
        c = Binding.loaded("T.P", "{../A}", name, "VECTOR_X", "TWO_WAY", "S", "V", "TS", i, "E", ((1, 2, 3),), "F", as_read)
        # the same attributes in the same order (CPython shares one key table between them)
        assert list(b.__dict__.items()) == list(c.__dict__.items()) and b == c


def test_the_child_index_finds_the_first_of_a_name_after_any_change():
    parent = Item("EmptyNode", "P")
    for k in range(40):
        parent.add_child(Item("EmptyNode", f"C{k % 30}"))        # C0..C9 twice: the first counts
    assert parent.child("C5") is parent.children[5]
    assert parent.child("C35") is None
    new = Item("EmptyNode", "C5")
    parent.children[5] = new                                     # replaced in place (the scene does)
    assert parent.child("C5") is new
    parent.children[5] = Item("EmptyNode", "X")                  # renamed by replacement
    assert parent.child("C5") is parent.children[35] and parent.child("X") is parent.children[5]
    first = parent.add_child(Item("EmptyNode", "C7"), index=0)
    assert parent.child("C7") is first
    parent.children.pop(0)
    parent.children.append(Item("EmptyNode", "Z"))
    assert parent.child("C7") is parent.children[7] and parent.child("Z") is parent.children[-1]
    parent.children = [Item("EmptyNode", "only")] * 20            # a new list
    assert parent.child("only") is parent.children[0] and parent.child("C1") is None
