"""The bindings of one item spliced (splice.py's `_Splicer` takes these methods): a changed
expression is new text in its element, a binding changed otherwise its element anew, added
ones new elements, removed ones lose their lines. A binding without an element of its own
(a duplicate's, tree_ops.clone) keeps the element of its original that says the same."""
from __future__ import annotations

from xml.sax.saxutils import escape

from kzplayer.project.bindings_reader import binding_item, short_binding
from kzplayer.project.model import Binding, Item
from kzplayer.project.splice_text import element_end, line_indent
from kzplayer.project.writer import _binding_lines

BINDINGS = ("Binding", "BindingItem")
# Binding.key() index -> the <Property> of a BindingItem that says it
_ITEM_FIELDS = {0: ("BindingItem.Target",),
                1: ("BindingItem.SourceExpression", "BindingItem.DisplayCodeForMerge"),
                3: ("BindingItem.TargetPropertyAttribute",), 4: ("BindingItem.BindingMode",),
                5: ("BindingItem.PushTarget",), 6: ("BindingItem.IsBindingEnabled",),
                7: ("BindingItem.RawCode",)}


def written_keys(src, elements) -> dict:
    """element -> Binding.key() of what it says, read as the loader reads it."""
    scratch = Item("Scratch", "")
    out = {}
    for el in elements:
        binding = (short_binding if el.tag == "Binding" else binding_item)(scratch, el, src)
        if binding is not None:
            out[el] = binding.key()
    return out


class BindingSplice:
    def bindings(self, src, el, item: Item, kids: list) -> list:
        mine = [c for c in kids if c.tag in BINDINGS]
        kept, inserts, keys = set(), [], None
        for b in item.bindings:
            if b.element in mine and b.element not in kept:
                kept.add(b.element)
                if b.as_loaded != b.key():
                    self.binding(src, b)
                continue
            if b.element is None:            # new, or a duplicate's: an element that says it stays
                keys = keys if keys is not None else written_keys(src, mine)
                same = next((c for c in mine if c not in kept and keys.get(c) == b.key()), None)
                if same is not None:
                    kept.add(same)
                    continue
            inserts.append(("Binding", self.lines(src, _binding_lines(b, ""), "")))
        for c in mine:
            if c not in kept:
                self.remove(src, c)
        return inserts

    def binding(self, src, b: Binding) -> None:
        """A changed binding: only the text of what changed, else its element anew."""
        old, new = b.as_loaded or (), b.key()
        differ = [k for k in range(len(new)) if k >= len(old) or old[k] != new[k]]
        el = b.element
        if b.short and differ == [1] and not src.tags[el][2] and len(el) == 0:
            return self.content(src, el, escape(b.expression), el.tag)
        if not b.short and old and differ and all(k in _ITEM_FIELDS or k == 9 for k in differ):
            props = {c.get("name"): c for c in el if c.tag == "Property"}
            values = {0: b.target, 1: b.expression, 3: b.field, 4: b.mode, 5: b.push_target,
                      6: "true" if b.enabled else "false", 7: b.raw_code}
            targets = [(next((props[n] for n in _ITEM_FIELDS[k] if n in props), None), values[k])
                       for k in differ if k != 9]
            if 9 in differ:
                targets += self.source_fields(b, old[9])
            if all(t is not None and v is not None for t, v in targets):
                for t, v in targets:
                    self.content(src, t, escape(v), "Property")
                return
        start = src.tags[el][0]
        text = self.lines(src, _binding_lines(b, ""), line_indent(src.text, start))
        self.edit(src, start, element_end(src, el), text.lstrip(" \t"))

    @staticmethod
    def source_fields(b: Binding, old: tuple) -> list:
        """(element, new text) for each changed field of a BindingItem's sources, or a
        (None, None) when a source was added, removed or renamed (its element anew)."""
        if len(old) != len(b.sources):
            return [(None, None)]
        out = []
        for s, was in zip(b.sources, old):
            if s.element is None or s.name != was[0]:
                return [(None, None)]
            props = {c.get("name"): c for c in s.element if c.tag == "Property"}
            for k, names, value in ((1, ("BindingSourceItem.Item",), s.item),
                                    (2, ("BindingSourceItem.Source",), s.source),
                                    (3, ("BindingSourceItem.PropertyAttribute", "BindingSourceItem.Field"), s.field)):
                if was[k] != value:
                    out.append((next((props[n] for n in names if n in props), None), value))
        return out
