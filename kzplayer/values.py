"""Typed property values, shared by the loader, the expression evaluator and the player.

Plain Python where Python has the type (bool, int, float, str); small immutable classes
for the rest. Vectors and colours are tuples so they compare, hash and unpack naturally.
Angles in Srt3D are degrees, as in Kanzi Studio.
"""
from __future__ import annotations

from dataclasses import dataclass, field

_XYZW = "xyzw"


class Vector(tuple):
    """Vector2/3/4: `Vector((1, 2, 3))`. Component-wise arithmetic lives in the evaluator."""

    def __new__(cls, components):
        comps = tuple(float(c) for c in components)
        if len(comps) not in (2, 3, 4):
            raise ValueError(f"a vector has 2, 3 or 4 components, not {len(comps)}")
        return super().__new__(cls, comps)

    @property
    def type_name(self) -> str:
        return f"vector{len(self)}"

    def __getattr__(self, name):
        if len(name) == 1 and name in _XYZW and _XYZW.index(name) < len(self):
            return self[_XYZW.index(name)]
        raise AttributeError(name)

    def __repr__(self) -> str:
        return f"Vector{len(self)}({', '.join(_num(c) for c in self)})"


class Color4(tuple):
    """An RGBA colour, components usually in [0, 1]."""

    def __new__(cls, r, g=None, b=None, a=1.0):
        comps = tuple(r) if g is None else (r, g, b, a)
        if len(comps) == 3:
            comps = (*comps, 1.0)
        if len(comps) != 4:
            raise ValueError("Color4 needs 4 components")
        return super().__new__(cls, tuple(float(c) for c in comps))

    type_name = "color4"
    r = property(lambda s: s[0])
    g = property(lambda s: s[1])
    b = property(lambda s: s[2])
    a = property(lambda s: s[3])

    def __repr__(self) -> str:
        return f"Color4({', '.join(_num(c) for c in self)})"


@dataclass(frozen=True)
class Srt3D:
    """Scale, rotation (Euler degrees X, Y, Z) and translation."""
    scale: tuple[float, float, float] = (1.0, 1.0, 1.0)
    rotation: tuple[float, float, float] = (0.0, 0.0, 0.0)
    translation: tuple[float, float, float] = (0.0, 0.0, 0.0)
    type_name = "srt3d"

    def __repr__(self) -> str:
        return "Srt3D(" + ", ".join(_num(c) for c in (*self.scale, *self.rotation, *self.translation)) + ")"


@dataclass(frozen=True)
class Srt2D:
    """Scale (x, y), rotation in degrees, translation (x, y)."""
    scale: tuple[float, float] = (1.0, 1.0)
    rotation: float = 0.0
    translation: tuple[float, float] = (0.0, 0.0)
    type_name = "srt2d"

    def __repr__(self) -> str:
        return "Srt2D(" + ", ".join(_num(c) for c in (*self.scale, self.rotation, *self.translation)) + ")"


@dataclass(frozen=True)
class Matrix:
    """Matrix3 (9 values) or Matrix4 (16 values), column-major like Kanzi."""
    values: tuple[float, ...]

    @property
    def size(self) -> int:
        return 3 if len(self.values) == 9 else 4

    @property
    def type_name(self) -> str:
        return f"matrix{self.size}"


@dataclass(frozen=True)
class EnumValue:
    """An enum word such as `Verlet` or `ONE_WAY`; the catalog says which words are allowed.
    `value` is the integer Kanzi stores for the word where it is known (a Kanzi Studio
    custom enum's options: `Drive` 0, `Browse` 1); an enum compares with an int through it."""
    word: str
    value: int | None = field(default=None, compare=False)
    type_name = "enum"

    def __str__(self) -> str:
        return self.word


@dataclass(frozen=True)
class ItemRef:
    """A reference to a project item by ProjectItemPath (absolute, or relative to its holder)."""
    path: str
    type_name = "item"

    def __str__(self) -> str:
        return self.path


@dataclass(frozen=True)
class ResourceRef:
    """A reference to a resource by its ID, looked up in the resource dictionaries of the node
    and its ancestors (Kanzi Studio's RESOURCE_REFERENCE: a text resource `LOCATION
    INFORMATION`, an image `Image.Image2D.Image`). Written `Resource("ID")`."""
    id: str
    type_name = "resource"

    def __str__(self) -> str:
        return self.id


@dataclass(frozen=True)
class MaterialRef:
    """A material slot value: a stock name, its asset-package path, or a custom material path."""
    name: str
    type_name = "material"

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class BufferHandle:
    """A GPU buffer as a property value: which output buffer ("EventBuffer" or
    "ParticleDataBuffer") of which emitter (its absolute ProjectItemPath)."""
    kind: str
    owner: str
    type_name = "buffer"

    def __str__(self) -> str:
        return f"{self.owner}:{self.kind}"


@dataclass(frozen=True)
class Range:
    """Kanzi's range: an ordered collection with an iteration position. A reference to a node
    list (`{##RenderPass/DrawObjectsRenderPass.PointLights}`) gives a range of ItemRefs,
    `{view ... PointLightColor}` the property read from each, `splitString` the pieces of a
    text. `evaluate()` steps through it; a cast reads the element at `position`. `location`
    marks the value `evaluate()` returns: evaluating a location does not move it."""
    items: tuple = ()
    position: int = 0
    location: bool = False
    type_name = "range"

    def __len__(self) -> int:
        return len(self.items)

    @property
    def current(self):
        """The element at the iteration position (IndexError past the end)."""
        if not 0 <= self.position < len(self.items):
            raise IndexError("the range iterator is past its last element")
        return self.items[self.position]

    def __repr__(self) -> str:
        at = f" @{self.position}" if self.position else ""
        return f"Range({', '.join(map(repr, self.items))}{at})"


def type_name(value) -> str:
    """The catalog type name of a value: bool int float string vector3 color4 ..."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    name = getattr(value, "type_name", None)
    if name is None:
        raise TypeError(f"not a property value: {value!r}")
    return name


def as_float(value, default: float = 0.0) -> float:
    """A property value as a float where it is a number (int or float, not bool), else
    `default`: what the player reads where a value is missing or of another type."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    return float(value)


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() and abs(x) < 1e15 else repr(float(x))
