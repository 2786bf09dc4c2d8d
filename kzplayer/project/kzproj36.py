"""Kanzi Studio 3.6 bindings in a .kzproj: the `MultiExpressionPropertyBindings` property.

Kanzi Studio 3.6 keeps a node's bindings in one property of the node, not as BindingItem
children (3.9). Its value is a list of bindings, each with the code of its expression, in
which `{0}`, `{1}`... stand for references, and the map from those keys to the references
(`referenceKeyValuesInCode`: key -> `../Controller/App.Speed`, a path and a property name,
written with or without braces):

    <Key>MultiExpressionPropertyBindings</Key>
    <Value><propertyTypeReference>MultiExpressionPropertyBindings</propertyTypeReference>
      <value i:type="dNp1:ArrayOfMultiExpressionPropertyBinding">
        <dNp1:MultiExpressionPropertyBinding>
          <dNp1:code>{0} * 10 + 5</dNp1:code>
          <dNp1:propertyTypeReference>Emission.Rate</dNp1:propertyTypeReference>
          <dNp1:propertyAttribute>WHOLE_PROPERTY</dNp1:propertyAttribute>    (optional)
          <dNp1:bindingMode>ONE_WAY</dNp1:bindingMode>                       (optional)
          <dNp1:referenceKeyValuesInCode>
            <dMp1:KeyValueOfstringstring><dMp1:Key>0</dMp1:Key>
              <dMp1:Value>../Controller/App.Speed</dMp1:Value></dMp1:KeyValueOfstringstring>
          </dNp1:referenceKeyValuesInCode>
        </dNp1:MultiExpressionPropertyBinding>
      </value></Value>

Each becomes a `model.Binding` of the node in the short form, its expression the code with
each placeholder replaced by its reference in braces (`{../Controller/App.Speed} * 10 + 5`):
validated, evaluated and shown like any other binding, and written by `convert` as a .kzm
`<Binding target=...>` that evaluates the same. Positions map back into the file: the code's
characters to the code, a reference's to the text of its map entry, so a diagnostic points at
the place in the file that says it. Element names are matched without their namespace and
case (`code` / `Code`).
"""
from __future__ import annotations

import re

from kzplayer.project.kzproj_xml import find_child, local_name, text_of
from kzplayer.project.model import Binding, text_positions

PROPERTY = "MultiExpressionPropertyBindings"
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _child(el, *names):
    """The first child whose local name is one of `names`, case ignored."""
    want = {n.lower() for n in names}
    for c in el:
        if local_name(c.tag).lower() in want:
            return c
    return None


def multi_expression_bindings(src, owner, prop) -> list[Binding]:
    """The bindings a MultiExpressionPropertyBindings Property (its entry element) holds."""
    holder = find_child(prop.element, "Value") if prop.element is not None else None
    array = find_child(holder, "value") if holder is not None else None
    out = []
    for el in (array if array is not None else ()):
        if isinstance(el.tag, str) and local_name(el.tag).lower().endswith("multiexpressionpropertybinding"):
            out.append(_binding(src, owner, el))
    return out


def _binding(src, owner, el) -> Binding:
    code_el = _child(el, "code")
    code = code_el.text or "" if code_el is not None else ""
    target_el = _child(el, "propertyTypeReference", "targetPropertyType", "propertyType")
    refs = {}
    entries = _child(el, "referenceKeyValuesInCode")
    for entry in (entries if entries is not None else ()):
        key, value = find_child(entry, "Key"), find_child(entry, "Value")
        if text_of(key) is not None and value is not None:
            refs[text_of(key)] = value
    expression, anchors = _expand(src, code, code_el, refs)
    mode = text_of(_child(el, "bindingMode")) or "ONE_WAY"
    field = text_of(_child(el, "propertyAttribute", "targetPropertyAttribute")) or "WHOLE_PROPERTY"
    code_span = _text_span(src, code_el)
    return Binding(target=text_of(target_el) or "", expression=expression, field=field, mode=mode,
                   short=True, span=src.element_span(el), expression_span=code_span,
                   target_span=_text_span(src, target_el), owner=owner, element=el,
                   expression_anchors=anchors)


def _expand(src, code: str, code_el, refs: dict) -> tuple[str, tuple]:
    """The code with each known placeholder replaced by `{reference}`, and the anchors that
    map the expression's offsets to the file: code characters to the code text, a
    reference's characters to its map entry's text. An unknown key stays as written (the
    expression checker reports it)."""
    code_at = _positions(src, code_el, code)
    out, anchors, last = [], [], 0

    def piece(text: str, at_line_col=None, code_from=None):
        offset = sum(len(p) for p in out)
        if code_from is not None:
            anchors.append((offset, *code_at(code_from)))
        elif at_line_col is not None:
            anchors.append((offset, *at_line_col))
        out.append(text)

    for m in _PLACEHOLDER.finditer(code):
        value_el = refs.get(m.group(1))
        if value_el is None:
            continue
        piece(code[last:m.start()], code_from=last)
        ref = (value_el.text or "").strip()
        ref = ref[1:-1] if ref.startswith("{") and ref.endswith("}") else ref
        line, col = _text_span(src, value_el).line, _text_span(src, value_el).column
        piece("{", at_line_col=(line, col))            # the brace: where the reference is written
        piece(ref + "}", at_line_col=(line, col))
        last = m.end()
    piece(code[last:], code_from=last)
    return "".join(out), tuple(anchors)


def _positions(src, el, text: str):
    """(line, column) of each character of an element's text."""
    return text_positions(text, _text_span(src, el), src.anchors(*src.text_range(el), text) if el is not None else ())


def _text_span(src, el):
    if el is None:
        return None
    start, end = src.text_range(el)
    return src.span(start, end)
