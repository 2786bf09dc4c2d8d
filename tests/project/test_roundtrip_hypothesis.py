"""Random item trees (names with spaces and unicode, typed properties, bindings, aliases)
survive save + load and convert in both directions unchanged, and every item's path finds it."""
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kzplayer
from kzplayer.project.convert import convert, model_diff
from kzplayer.project.model import Alias, Binding, BindingSource, Item, Project, Property
from kzplayer.project.writer import write_single
from kzplayer.values import Color4, EnumValue, ItemRef, MaterialRef, Matrix, Srt2D, Srt3D, Vector

NODE_TYPES = ["EmptyNode", "Scene", "ParticleSystem", "ParticleEmitter", "ParticleAffector",
              "ParticleCollider", "Camera"]
ENUM_WORDS = ("Alpha", "Beta_2", "GAMMA")

# Names: any printable character but '/', XML-safe; not blank, not '.' or '..'.
_name_chars = st.characters(blacklist_categories=("Cs", "Cc", "Co", "Cn", "Zl", "Zp"),
                            blacklist_characters="/\ufffe\uffff")
names = st.text(_name_chars, min_size=1, max_size=12).filter(
    lambda s: s.strip() and s.strip() == s and s not in (".", ".."))
floats = st.floats(allow_nan=False, allow_infinity=False)
ints = st.integers(-2**31, 2**31 - 1)        # Kanzi int properties are 32-bit


def vec(n):
    return st.lists(floats, min_size=n, max_size=n).map(Vector)


VALUES = {
    "bool": st.booleans(), "int": ints, "float": floats,
    "string": st.text(st.characters(blacklist_categories=("Cs",)), max_size=20),
    "vector2": vec(2), "vector3": vec(3), "vector4": vec(4),
    "color4": st.lists(floats, min_size=4, max_size=4).map(Color4),
    "srt2d": st.tuples(vec(2), floats, vec(2)).map(lambda t: Srt2D(tuple(t[0]), t[1], tuple(t[2]))),
    "srt3d": st.tuples(vec(3), vec(3), vec(3)).map(lambda t: Srt3D(*(tuple(x) for x in t))),
    "matrix3": st.lists(floats, min_size=9, max_size=9).map(lambda v: Matrix(tuple(v))),
    "matrix4": st.lists(floats, min_size=16, max_size=16).map(lambda v: Matrix(tuple(v))),
    "enum": st.sampled_from(ENUM_WORDS).map(EnumValue),
    "item": st.lists(names, min_size=1, max_size=3).map(lambda p: ItemRef("../" + "/".join(p))),
    "material": st.sampled_from(["Gravity", "Materials/My Swirl"]).map(MaterialRef),
}
TYPES = sorted(VALUES)
PROP_NAMES = {t: f"Fuzz.{t.capitalize()}Value" for t in TYPES}
PROP_NAMES["bool"] = "FuzzFlag"      # a plain name, as Kanzi names material properties

expressions = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=30)


@st.composite
def bindings(draw):
    target = PROP_NAMES[draw(st.sampled_from(TYPES))]
    if draw(st.booleans()):
        return Binding(target=target, expression=draw(expressions), short=True,
                       field=draw(st.sampled_from(["WHOLE_PROPERTY", "VECTOR_X"])),
                       mode=draw(st.sampled_from(["ONE_WAY", "TWO_WAY"])))
    sources = [BindingSource(str(i), "Screens/" + draw(names), PROP_NAMES["float"])
               for i in range(draw(st.integers(0, 2)))]
    return Binding(target=target, expression=draw(expressions), name=draw(names),
                   mode=draw(st.sampled_from(["ONE_WAY", "TO_SOURCE"])),
                   push_target=draw(st.none() | names), enabled=draw(st.booleans()),
                   raw_code=draw(st.none() | expressions), sources=sources, short=False)


@st.composite
def items(draw, depth):
    item = Item(draw(st.sampled_from(NODE_TYPES)), "")
    for t in draw(st.lists(st.sampled_from(TYPES), max_size=4, unique=True)):
        item.properties[PROP_NAMES[t]] = Property(PROP_NAMES[t], draw(VALUES[t]))
    item.bindings = draw(st.lists(bindings(), max_size=2))
    for alias in draw(st.lists(names, max_size=1)):
        item.aliases[alias] = Alias(alias, "../" + draw(names))
    if depth > 0:
        kids = draw(st.lists(items(depth - 1), max_size=3))
        kid_names = draw(st.lists(names, min_size=len(kids), max_size=len(kids), unique=True))
        for kid, name in zip(kids, kid_names):
            kid.name = name
            item.add_child(kid)
    return item


@st.composite
def projects(draw):
    root = Item("Project", "")
    screens = root.add_child(Item("Screens", "Screens"))
    for i, top in enumerate(draw(st.lists(items(2), min_size=1, max_size=3))):
        top.name = f"Top {i} {draw(names)}"
        screens.add_child(top)
    types = root.add_child(Item("PropertyTypes", "PropertyTypes"))
    for t in TYPES:
        attrs = {"type": t} | ({"enum": " ".join(ENUM_WORDS)} if t == "enum" else {})
        types.add_child(Item("PropertyType", PROP_NAMES[t], attributes=attrs))
    mats = root.add_child(Item("Materials", "Materials"))
    mats.add_child(Item("MaterialType", "My Swirl", attributes={"slot": "Affector", "shader": "s.glsl"}))
    for b in (b for i in root.walk() for b in i.bindings):
        b.owner = None
    return Project(draw(names), root)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(projects())
def test_random_trees_survive_save_load_and_convert(project):
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        write_single(project, tmp / "a.kzm")
        loaded = kzplayer.load(tmp / "a.kzm")
        assert model_diff(project, loaded) == []
        convert(tmp / "a.kzm", tmp / "folder")
        folder = kzplayer.load(tmp / "folder")
        assert folder.layout == "folder"
        assert model_diff(project, folder) == []
        convert(tmp / "folder", tmp / "back.kzm")
        assert model_diff(project, kzplayer.load(tmp / "back.kzm")) == []
        loaded.save(tmp / "saved.kzm")            # save-as of an untouched project
        assert model_diff(project, kzplayer.load(tmp / "saved.kzm")) == []
        for item in folder.walk():                # every path, absolute and relative, leads back
            assert folder.find(item.path) is item
            assert folder.find(f"{folder.name}/{item.path}") is item or folder.root.child(folder.name)
            if item.parent.parent is not None:
                assert folder.find(f"../{item.name}", relative_to=item) is item
                assert folder.find(f"./{item.name}", relative_to=item.parent) is item


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(projects(), st.data())
def test_changed_values_saved_in_place_read_back_as_set(project, data):
    """The splice path: values changed through the API and saved in place (both layouts)
    read back as set, and everything else as it was."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        write_single(project, tmp / "a.kzm")
        convert(tmp / "a.kzm", tmp / "folder")
        for where in (tmp / "a.kzm", tmp / "folder"):
            loaded = kzplayer.load(where)
            props = [(item, name) for item in loaded.walk() for name in item.properties
                     if name.startswith("Fuzz")]
            if not props:
                return
            for item, name in data.draw(st.lists(st.sampled_from(props), max_size=3, unique=True)):
                t = next(t for t, n in PROP_NAMES.items() if n == name)
                item.set(name, data.draw(VALUES[t]))
            loaded.save()
            assert model_diff(loaded, kzplayer.load(where)) == []
