"""Reading bindings from a .kzm: the short `<Binding target=...>EXPR</Binding>` form and
Kanzi's `<BindingItem>` with its `<BindingSourceItem>`s, into model.Binding with the position
of every part (the expression's, for errors at a column inside it). The load reports their
problems (`*_problem`); the Bindings are built when an item's bindings are first read."""
from __future__ import annotations

from kzplayer.project.model import Binding, BindingSource, Item
from kzplayer.project.spans import ELEMENT_SPAN, VALUE_SPAN, Deferred
from kzplayer.project.source import STRUCTURE, SourceFile, _diag

_MODES = {"ONEWAY": "ONE_WAY", "TWOWAY": "TWO_WAY", "TOSOURCE": "TO_SOURCE"}


_SPELLED: dict = {}    # each spelling met -> its mode word (a project spells a few, 10,000 times)


def mode_word(text: str | None) -> str:
    """ONE_WAY, TWO_WAY or TO_SOURCE, however Kanzi Studio spells it (OneWay, TWO_WAY...)."""
    word = _SPELLED.get(text)
    if word is None:
        t = (text or "ONE_WAY").strip()
        word = _MODES.get(t.replace("_", "").upper(), t)
        if len(_SPELLED) < 256:           # (a hostile file's thousands of spellings: not kept)
            _SPELLED[text] = word
    return word


def short_binding_problem(el, src: SourceFile, diagnostics: list, target: str | None) -> None:
    """What the load reports of a `<Binding>` (with `target`, its attribute): the binding
    itself is built when the item's bindings are first read (`short_binding`)."""
    if not target:
        diagnostics.append(_diag(STRUCTURE, "<Binding> needs a target attribute (the property it writes)",
                                 src.element_span(el),
                                 hint='e.g. <Binding target="ParticleEmitter.MaximumAmount">...</Binding>'))


def binding_item_problem(el, src: SourceFile, diagnostics: list) -> None:
    """What the load reports of a `<BindingItem>`: a missing target (see `binding_item`)."""
    target = ""
    for c in el:
        if c.tag == "Property" and c.get("name") == "BindingItem.Target":
            target = c.text or ""                    # the last one counts, as in binding_item
    if not target:
        diagnostics.append(_diag(STRUCTURE, "<BindingItem> needs a BindingItem.Target property",
                                 src.element_span(el)))


def short_binding(item: Item, el, src: SourceFile, as_read: bool = False) -> Binding | None:
    """A `<Binding target=...>EXPR</Binding>` of `item` (None without a target); `as_read`:
    with its `as_loaded` (what a typed load keeps, for the saver)."""
    target = el.get("target")
    if not target:
        return None
    text = el.text or ""
    # where the file spells no entity and no CDATA, no text needs anchors (nor the positions)
    anchors = () if src.plain else src.anchors(*src.text_range(el), text)
    # (the Deferred positions read the element and `_source`)
    return Binding.loaded(target, text, el.get("name"), el.get("field", "WHOLE_PROPERTY"),
                          mode_word(el.get("mode", "ONE_WAY")), ELEMENT_SPAN, VALUE_SPAN,
                          _TARGET_SPAN, item, el, anchors, src, as_read)


# Where a short binding's target is written, worked out when first read (spans.Deferred).
_TARGET_SPAN = Deferred(lambda b: b._source.attribute_span(b.element, "target"))


def binding_item(item: Item, el, src: SourceFile) -> Binding:
    """A `<BindingItem>` of `item`, with its `<BindingSourceItem>`s."""
    props = {}      # name -> (text, span, start offset, stop offset)
    sources = []
    for c in el:
        if c.tag == "Property" and c.get("name"):
            start, stop = src.text_range(c)
            props[c.get("name")] = (c.text or "", src.span(start, stop), start, stop)
        elif c.tag == "BindingSourceItem":
            sources.append(binding_source(c, src))
    span = src.element_span(el)

    def val(*names, default=None):
        for n in names:
            if n in props:
                return props[n][:2]
        return (default, None)

    target, target_span = val("BindingItem.Target")
    expr_name = next((n for n in ("BindingItem.SourceExpression", "BindingItem.DisplayCodeForMerge",
                                  "BindingItem.RawCode") if n in props), None)
    expr, expr_span = val("BindingItem.SourceExpression", "BindingItem.DisplayCodeForMerge")
    raw, raw_span = val("BindingItem.RawCode")
    push, push_span = val("BindingItem.PushTarget")
    enabled = val("BindingItem.IsBindingEnabled", default="true")[0]
    return Binding(
        target=(target or "").strip(), expression=expr if expr is not None else (raw or ""),
        name=el.get("name"),
        field=(val("BindingItem.TargetPropertyAttribute", default="WHOLE_PROPERTY")[0] or "").strip()
        or "WHOLE_PROPERTY",
        mode=mode_word(val("BindingItem.BindingMode", default="ONE_WAY")[0]),
        push_target=(push or "").strip() or None,
        enabled=(enabled or "true").strip().lower() != "false",
        raw_code=raw, sources=sources, short=False, span=span,
        expression_span=expr_span if expr is not None else raw_span, target_span=target_span,
        push_target_span=push_span, raw_code_span=raw_span, owner=item, element=el,
        expression_anchors=_anchors(src, props.get(expr_name)),
        raw_code_anchors=_anchors(src, props.get("BindingItem.RawCode")))


def _anchors(src: SourceFile, prop: tuple | None) -> tuple:
    return src.anchors(prop[2], prop[3], prop[0]) if prop else ()


def binding_source(el, src: SourceFile) -> BindingSource:
    props = {c.get("name"): c for c in el if c.tag == "Property"}

    def text(name):
        c = props.get(name)
        return (c.text or "").strip() if c is not None else ""

    item_el = props.get("BindingSourceItem.Item")
    fld = text("BindingSourceItem.PropertyAttribute") or text("BindingSourceItem.Field") or None
    return BindingSource(
        name=el.get("name", ""), item=text("BindingSourceItem.Item"),
        source=text("BindingSourceItem.Source"), field=fld, span=src.element_span(el),
        item_span=src.span(*src.text_range(item_el)) if item_el is not None else None, element=el)
