"""Read-only import of Kanzi Studio 3.9 files (`.kzproj` projects, `.kzmat` material types)
into the project model, so kzplayer can list, check and evaluate their bindings.

Kanzi Studio 3.9 saves WCF DataContract XML: every item is a `<ProjectItem i:type="...">`
with a `properties` dictionary (`Key` -> `Value/value` with its own `i:type`), a
`SerializedName` and `children`. This module maps it onto the same model as the .kzm loader:

* an item's type is its `i:type` without the namespace prefix (`ImageLayer`, `Screen`,
  `ScreenLibrary`), its name the SerializedName; children keep their order;
* a value becomes a kzplayer value where one fits (numbers, bools, strings, HSLA colours as
  RGBA Color4, Vector2D/3D, SRT transformations, item references as ItemRef, enum words as
  EnumValue); anything else keeps its text (`Property.text`, value a string);
* Kanzi Studio 3.6's `MultiExpressionPropertyBindings` property becomes `model.Binding`s of
  its node (kzplayer.project.kzproj36);
* `BindingItem` children become `model.Binding`s of their parent (expression =
  DisplayCodeForMerge, raw code = RawCode, sources from their BindingSourceItem children);
* a `.kzmat` becomes a `Materials` library holding one MaterialType whose PropertyType
  children are the material's custom property types; a `.kzproj`'s own property types
  (`Gauges.Speed`, int in [0, 240]) become a `PropertyTypes` library after Kanzi's libraries.

Every item, property and binding keeps a Span of the raw text (the loader's scan).
"""
from __future__ import annotations

import colorsys
import os

from kzplayer.diagnostics import Diagnostic, Severity, Span
from kzplayer.project.bindings_reader import mode_word
from kzplayer.project.literals import format_literal
from kzplayer.project.kzproj_xml import (DATA_TYPES, PRIMITIVES, UNIFORM_TYPES, VALUE_FIELDS, XSI_NIL,
                                         enum_options, find_child, item_path_of, local_name,
                                         number_field, summary_of, text_of, xsi_type)
from kzplayer.project.kzproj36 import PROPERTY as MULTI_EXPRESSION
from kzplayer.project.kzproj36 import multi_expression_bindings
from kzplayer.project.model import Alias, Binding, BindingSource, Item, Project, Property
from kzplayer.project.source import DUPLICATE, _diag, read_source
from kzplayer.values import Color4, EnumValue, ItemRef, ResourceRef, Srt2D, Srt3D, Vector

_STRUCTURE = ("KZ004", "schema.invalid")


def load_kzproj(path: str | os.PathLike) -> tuple[Project | None, list[Diagnostic]]:
    """Import a Kanzi Studio 3.9 .kzproj or .kzmat. Never raises for bad input."""
    path = os.fspath(path)
    diagnostics: list[Diagnostic] = []
    src = read_source(path, diagnostics)
    if src is None:
        return None, diagnostics
    top = src.tree.getroot()
    importer = _Importer(src, diagnostics)
    kind = local_name(top.tag)
    if top.tag in ("Project", "MaterialTypePersistenceContainer"):      # no Kanzi namespace
        diagnostics.append(Diagnostic(*_STRUCTURE, Severity.ERROR,
                                      f"not a Kanzi Studio file: <{top.tag}> without Kanzi Studio's "
                                      "namespace (a .kzm project named .kzproj?)", src.element_span(top),
                                      hint="give a .kzm project the .kzm extension"))
        return None, diagnostics
    if kind == "Project":
        project = importer.project(top)
    elif kind == "MaterialTypePersistenceContainer":
        project = importer.material_file(top)
    else:
        diagnostics.append(Diagnostic(*_STRUCTURE, Severity.ERROR,
                                      f"not a Kanzi Studio 3.9 project or material type: the top "
                                      f"element is <{kind}>", src.element_span(top)))
        return None, diagnostics
    project.path, project.layout, project.files = path, "kzproj", [path]
    project.diagnostics = sorted(diagnostics, key=Diagnostic.sort_key)
    return project, project.diagnostics


class _Importer:
    def __init__(self, src, diagnostics):
        self.src = src
        self.diagnostics = diagnostics

    # ---- files
    def project(self, top) -> Project:
        root = Item("Project", "", span=self.src.element_span(top), element=top)
        name = text_of(find_child(top, "SerializedName")) or os.path.splitext(os.path.basename(self.src.path))[0]
        project = Project(name=name, root=root, format_version=text_of(find_child(top, "FileFormatVersionString")) or "")
        self.fill(root, top)
        self.project_property_types(root, find_child(top, "projectsPropertyTypeLibrary"))
        return project

    def project_property_types(self, root: Item, library_el) -> None:
        """The project's own property types (Gauges.Speed, ...) as a PropertyTypes library, so
        that bindings and checks know their types and ranges."""
        holder = find_child(library_el, "propertyTypes") if library_el is not None else None
        if holder is None or not len(holder):
            return
        library = root.add_child(Item("PropertyTypes", "PropertyTypes",
                                      span=self.src.element_span(library_el), element=library_el))
        for entry in holder:
            value = find_child(entry, "Value") if isinstance(entry.tag, str) else None
            if value is not None:
                prop_type = self.property_type(value, text_of(find_child(entry, "Key")))
                if prop_type is not None:
                    library.add_child(prop_type)

    def material_file(self, top) -> Project:
        """A .kzmat: one material type with its custom property types."""
        root = Item("Project", "", span=self.src.element_span(top), element=top)
        library = root.add_child(Item("Materials", "Materials", span=root.span, element=top))
        mt_el = find_child(top, "materialType")
        name = text_of(find_child(mt_el, "SerializedName")) if mt_el is not None else None
        name = name or os.path.splitext(os.path.basename(self.src.path))[0]
        # A Kanzi material type draws meshes: in kzplayer it can only render particles.
        material = library.add_child(Item("MaterialType", name, attributes={"slot": "Particle", "shader": ""},
                                          span=self.src.element_span(mt_el if mt_el is not None else top),
                                          element=mt_el))
        types = find_child(top, "customPropertyTypes")
        for el in (types if types is not None else ()):
            if isinstance(el.tag, str):
                prop_type = self.property_type(el)
                if prop_type is not None:
                    material.add_child(prop_type)
        if mt_el is not None:
            self.fill(material, mt_el)
        return Project(name=name, root=root, format_version=text_of(find_child(top, "version")) or "")

    def property_type(self, el, name: str | None = None) -> Item | None:
        """A DynamicPropertyType as a PropertyType item (attributes as in a .kzm file)."""
        name = name or text_of(find_child(el, "name"))
        if not name:
            return None
        type_name = DATA_TYPES.get(text_of(find_child(el, "dataTypeEnum")) or "", "string")
        default = find_child(el, "defaultValue")
        if type_name == "item" and default is not None and text_of(find_child(default, "ContentType")) == "TEXT":
            type_name = "string"      # a Text property type: its values are texts written in place
        attrs = {"type": type_name}
        if default is not None and default.get(XSI_NIL) != "true" and type_name != "enum":
            value, _ = self.value(default)
            if (value is not None and not isinstance(value, str)) or type_name == "string":
                attrs["default"] = format_literal(value, type_name)
        for bound, attr in (("lowerBound", "min"), ("upperBound", "max")):
            b = find_child(el, bound)
            if b is not None and len(b) == 0 and text_of(b):
                attrs[attr] = text_of(b)
        options = enum_options(find_child(el, "options"))
        if type_name == "enum" and options:
            attrs["enum"] = " ".join(options)
        display = text_of(find_child(el, "displayName"))
        if display:
            attrs["doc"] = display
        return Item("PropertyType", name, attributes=attrs, span=self.src.element_span(el), element=el)

    # ---- items
    def fill(self, item: Item, el) -> None:
        item.properties.update(self.properties_of(el))
        multi = item.properties.pop(MULTI_EXPRESSION, None)     # Kanzi Studio 3.6's bindings
        if multi is not None:
            item.bindings.extend(multi_expression_bindings(self.src, item, multi))
        children = find_child(el, "children")
        seen: dict[str, Item] = {}
        for child in (children if children is not None else ()):
            if local_name(child.tag) != "ProjectItem":
                continue
            kind = xsi_type(child)
            if kind == "BindingItem":
                item.bindings.append(self.binding(item, child))
                continue
            if kind == "ResourceDictionaryItem":
                self.aliases(item, child)
            sub = Item(kind or "ProjectItem", text_of(find_child(child, "SerializedName")) or "",
                       span=self.src.element_span(child), element=child)
            if sub.name in seen:        # as the .kzm reader: its converted .kzm says the same
                first = seen[sub.name]
                self.diagnostics.append(_diag(
                    DUPLICATE, f"{item.path or 'the project'} already has a child named '{sub.name}' "
                               f"(line {first.span.line}); sibling names must be unique", sub.span,
                    related=[first.span]))
            seen.setdefault(sub.name, sub)
            item.add_child(sub)
            self.fill(sub, child)

    def aliases(self, item: Item, dictionary) -> None:
        """The NODE entries of a node's resource dictionary are its aliases: `{#RootPage/...}`
        in the node or below it names the entry's node (Kanzi's "Using aliases"; RESOURCE
        entries are resources that `acquire()` loads)."""
        entries = find_child(dictionary, "entries")
        for entry in (entries if entries is not None else ()):
            if not isinstance(entry.tag, str) or text_of(find_child(entry, "entryType")) != "NODE":
                continue
            name, ref = text_of(find_child(entry, "Key")), find_child(entry, "resourceReference")
            target = item_path_of(ref) if ref is not None else None
            if name and target and name not in item.aliases:
                item.aliases[name] = Alias(name, target, span=self.src.element_span(entry), element=entry)

    def properties_of(self, el) -> dict[str, Property]:
        """The `properties` dictionary of a ProjectItem, in file order."""
        out = {}
        holder = find_child(el, "properties")
        for entry in (holder if holder is not None else ()):
            prop = self.property(entry) if isinstance(entry.tag, str) else None
            if prop is not None:
                out[prop.name] = prop
        return out

    def property(self, entry) -> Property | None:
        key, holder = find_child(entry, "Key"), find_child(entry, "Value")
        value_el = find_child(holder, "value") if holder is not None else None
        name = text_of(key) or (text_of(find_child(holder, "propertyTypeReference")) if holder is not None else "")
        if not name:
            return None
        value, text = self.value(value_el) if value_el is not None else (None, "")
        value_span = self.value_span(value_el) if value_el is not None else None
        return Property(name, value, text, self.src.element_span(entry), entry, value_span)

    def value_span(self, el) -> Span:
        """Where a value is written: its text, or the text of the field that holds it in a
        structured value (a material binding's uniform name, an item path)."""
        leaf = el
        for c in el.iter():
            if isinstance(c.tag, str) and local_name(c.tag) in VALUE_FIELDS and (c.text or "").strip():
                leaf = c
                break
        if leaf is el and any(isinstance(c.tag, str) for c in el):
            return self.src.element_span(el)       # a struct (colour, vector...): its start tag
        start, end = self.src.text_range(leaf)
        return self.src.span(start, end)

    def value(self, el) -> tuple[object, str]:
        """(typed value, text) of a DataContract value element."""
        if el is None or el.get(XSI_NIL) == "true":
            return None, ""
        kind = xsi_type(el)
        fields = {local_name(c.tag): c for c in el if isinstance(c.tag, str)}
        text = el.text or ""
        try:
            if kind in PRIMITIVES:
                return PRIMITIVES[kind](text), text
            if kind == "HSLAColor":
                h, s, l, a = (number_field(fields, k) for k in ("hue", "saturation", "luminance", "alpha"))
                color = Color4(*colorsys.hls_to_rgb(h, l, s), a)
                return color, format_literal(color)
            if kind in ("Vector2D", "Vector3D"):
                names = ("X", "Y") if "X" in fields else ("_x", "_y", "_z")
                vec = Vector(number_field(fields, k) for k in names)
                return vec, format_literal(vec)
            if kind == "SRTTransformation":
                parts = [tuple(number_field({local_name(c.tag): c for c in fields[k]}, a) for a in ("_x", "_y", "_z"))
                         for k in ("scale", "rotation", "translation")]
                srt = Srt3D(*parts)
                return srt, format_literal(srt)
            if kind == "SRT2DTransformation":
                xy = [tuple(number_field({local_name(c.tag): c for c in fields[k]}, a) for a in ("X", "Y"))
                      for k in ("scale", "translation")]
                srt2 = Srt2D(xy[0], number_field(fields, "rotation"), xy[1])
                return srt2, format_literal(srt2)
        except (ValueError, KeyError):
            return text, text                      # keep what is written
        if kind == "ProjectItemReference":
            content = text_of(fields.get("ContentType"))
            if content == "TEXT":                 # a text written in place (a localisable text)
                words = text_of(fields.get("textContent")) or ""
                return words, words
            ref = item_path_of(el)
            if content == "RESOURCE_REFERENCE" and ref:
                return ResourceRef(ref), ref      # a resource ID, not an item path
            return (ItemRef(ref) if ref else None), ref or ""
        if kind == "PropertyTypeReference":
            name = text_of(fields.get("propertyTypeName"))
            return (name or None), name or ""
        if kind == "ShaderVariableInfo":            # a material binding's target: the uniform
            name = text_of(fields.get("Name"))
            return name, name
        if not fields:                               # an enum word (BindingType, TextureFilterMode...)
            word = text.strip()
            return (EnumValue(word) if word else None), word
        summary = summary_of(el)
        return summary, summary

    def binding(self, owner: Item, el) -> Binding:
        props = self.properties_of(el)

        def get(name, default=None):
            p = props.get(name)
            return (p.value if p is not None and p.value is not None else default,
                    p.value_span if p is not None else None)

        target, target_span = get("BindingItem.Target", "")
        expression, expression_span = get("BindingItem.DisplayCodeForMerge", "")
        raw_code, raw_span = get("BindingItem.RawCode")
        push, push_span = get("BindingItem.PushTarget")
        mode, _ = get("BindingItem.BindingMode", "ONE_WAY")
        field_word, _ = get("BindingItem.TargetPropertyAttribute", "WHOLE_PROPERTY")
        enabled, _ = get("BindingItem.IsBindingEnabled", True)
        sources = []
        children = find_child(el, "children")
        seen: dict[str, Item] = {}
        for child in (children if children is not None else ()):
            if local_name(child.tag) == "ProjectItem" and xsi_type(child) == "BindingSourceItem":
                sources.append(self.binding_source(child))
        self.uniform(owner, props.get("BindingItem.Target"))
        return Binding(
            target=str(target), expression=str(expression), name=text_of(find_child(el, "SerializedName")),
            # 3.9 files often hold a property-type reference here, not an item: no push target
            field=str(field_word), mode=mode_word(str(mode)),
            push_target=push.path if isinstance(push, ItemRef) else None,
            enabled=bool(enabled), raw_code=str(raw_code) if raw_code is not None else None,
            sources=sources, short=False, span=self.src.element_span(el),
            expression_span=expression_span, target_span=target_span, push_target_span=push_span,
            raw_code_span=raw_span, owner=owner, element=el,
            expression_anchors=self.text_anchors(props.get("BindingItem.DisplayCodeForMerge")),
            raw_code_anchors=self.text_anchors(props.get("BindingItem.RawCode")))

    def uniform(self, owner: Item, target: Property | None) -> None:
        """A material type binding targets a shader uniform: its type and array length go into
        the material type's `uniforms` attribute (`PointLightColor:color4[2] kzWorldMatrix:matrix4`),
        which tells what the binding fills (kzplayer.bindings.lights)."""
        holder = find_child(target.element, "Value") if target is not None else None
        info = find_child(holder, "value") if holder is not None else None
        if info is None or xsi_type(info) != "ShaderVariableInfo":
            return
        fields = {local_name(c.tag): c for c in info if isinstance(c.tag, str)}
        name = text_of(fields.get("Name"))
        kind = UNIFORM_TYPES.get(text_of(fields.get("KzbDataTypeEnum")) or "")
        if not name or kind is None:
            return
        count = text_of(fields.get("ArrayElementCount"))
        entry = f"{name}:{kind}" + (f"[{count}]" if count and count.isdigit() and count != "1" else "")
        have = owner.attributes.get("uniforms", "").split()
        if not any(e.split(":")[0] == name for e in have):
            owner.attributes["uniforms"] = " ".join([*have, entry])

    def text_anchors(self, prop: Property | None) -> tuple:
        """SourceFile.anchors of a string property's value (`{0} &lt; 25` in RawCode)."""
        holder = find_child(prop.element, "Value") if prop is not None else None
        value_el = find_child(holder, "value") if holder is not None else None
        if value_el is None or value_el.text is None:
            return ()
        return self.src.anchors(*self.src.text_range(value_el), value_el.text)

    def binding_source(self, el) -> BindingSource:
        props = self.properties_of(el)
        item = props.get("BindingSourceItem.Item")
        source = props.get("BindingSourceItem.Source")
        attribute = props.get("BindingSourceItem.PropertyAttribute")
        return BindingSource(
            name=text_of(find_child(el, "SerializedName")) or "",
            item=str(item.value) if item is not None and item.value is not None else "",
            source=str(source.value) if source is not None and source.value is not None else "",
            field=str(attribute.value) if attribute is not None and attribute.value is not None else None,
            span=self.src.element_span(el), item_span=item.value_span if item is not None else None,
            element=el)
