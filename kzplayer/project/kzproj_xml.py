"""Kanzi Studio 3.9's WCF DataContract XML, as kzproj.py reads it: the `i:type` and
`i:nil` attributes, local names across namespaces, the type tables (a custom property's
dataTypeEnum, a uniform's KzbDataTypeEnum, the XML Schema primitives) and the small readers
of structured values (an item reference's path, a custom enum's words, a summary).
"""
from __future__ import annotations

XSI_TYPE = "{http://www.w3.org/2001/XMLSchema-instance}type"
XSI_NIL = "{http://www.w3.org/2001/XMLSchema-instance}nil"
# Kanzi Studio's dataTypeEnum of a custom property type -> catalog type name
DATA_TYPES = {"BOOLEAN": "bool", "INT": "int", "INT32": "int", "INTEGER": "int", "UINT": "int",
               "UINT32": "int", "FLOAT": "float",
               "STRING": "string", "COLOR": "color4", "VECTOR2D": "vector2", "VECTOR3D": "vector3",
               "VECTOR4D": "vector4", "SRT2D": "srt2d", "SRT3D": "srt3d", "MATRIX2D": "matrix3",
               "MATRIX3D": "matrix4", "PROJECT_ITEM_REFERENCE": "item", "ENUM": "enum"}
# A material uniform's KzbDataTypeEnum -> catalog type (RESOURCE_ID: a texture, no value type)
UNIFORM_TYPES = {"BOOLEAN": "bool", "INT": "int", "FLOAT": "float", "VECTOR2D": "vector2",
                  "VECTOR3D": "vector3", "VECTOR4D": "vector4", "COLOR": "color4",
                  "MATRIX3x3": "matrix3", "MATRIX4x4": "matrix4"}
PRIMITIVES = {"string": str, "dateTime": str, "boolean": lambda t: t.strip() == "true",
               "float": float, "double": float, "decimal": float,
               "int": int, "long": int, "short": int, "unsignedInt": int, "unsignedByte": int}


def local_name(tag) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def xsi_type(el) -> str:
    t = el.get(XSI_TYPE) or ""
    return t.rsplit(":", 1)[-1]


def find_child(el, name: str):
    """The first child element with this local name (namespaces vary by nesting depth)."""
    for c in el:
        if local_name(c.tag) == name:
            return c
    return None


# The field that names what a structured value stands for (ShaderVariableInfo's uniform,
# ProjectItemReference's path, PropertyTypeReference's name).
VALUE_FIELDS = ("Name", "pathString", "propertyTypeName")


def enum_options(el) -> list[str]:
    """A custom enum's words in the order of their integer values (Drive 0, Browse 1), when
    those are 0, 1, 2...: the order the catalog's enum list gives them."""
    if el is None:
        return []
    pairs = []
    for entry in el:
        if isinstance(entry.tag, str):
            key, value = text_of(find_child(entry, "Key")), text_of(find_child(entry, "Value"))
            if key and value and value.lstrip("-").isdigit() and " " not in key:
                pairs.append((int(value), key))
    pairs.sort()
    return [w for _, w in pairs] if [v for v, _ in pairs] == list(range(len(pairs))) else []


def text_of(el) -> str | None:
    if el is None or el.get(XSI_NIL) == "true":
        return None
    return (el.text or "").strip()


def number_field(fields: dict, name: str) -> float:
    return float(fields[name].text)


def item_path_of(el) -> str | None:
    """The path a ProjectItemReference names, as kzplayer writes paths: absolute without the
    trailing '/', relative ones (`relative://##RenderPass`) without their scheme."""
    holder = next((c for c in el if local_name(c.tag) == "referredItemPath"), None)
    if holder is None or holder.get(XSI_NIL) == "true":
        return None
    path = text_of(next((c for c in holder if local_name(c.tag) == "pathString"), None))
    if not path:
        return None
    if path.startswith("relative://"):
        path = path[len("relative://"):]
    return path.rstrip("/") or None


def summary_of(el) -> str:
    """A compact text of a structured value kzplayer has no type for."""
    leaves = []
    for c in el.iter():
        if c is not el and isinstance(c.tag, str) and len(c) == 0 and (c.text or "").strip():
            leaves.append(f"{local_name(c.tag)}={c.text.strip()}")
    return f"{xsi_type(el)}({', '.join(leaves)})"
