"""Saving a project: in place, keeping every untouched byte, or fresh through writer.py.

`save_project` edits the text of the files a project came from: a changed property gets new
text between its tags, a new property is inserted after the item's last property with the
same indentation; nothing else in the file moves, comments and odd formatting included.
When the tree itself changed (items added, removed or renamed) or the layout changes, the
files are written anew by `write_single` / `write_folder` (comments are then lost).
"""
from __future__ import annotations

import os
import re
from xml.sax.saxutils import escape, quoteattr

from kzplayer.diagnostics import KzError
from kzplayer.project.kzm_reader import read_item_file, read_kzm
from kzplayer.project.layout import PROJECT_FILE_SUFFIX
from kzplayer.project.model import Item, Project, Property
from kzplayer.project.spans import copy_spans
from kzplayer.project.source import UNREADABLE, _diag
from kzplayer.project.writer import (INDENT, encode_text, property_text, type_of, write_blobs,
                                     write_folder, write_single)

# ------------------------------------------------------------------ saving in place

def structure_unchanged(project: Project) -> bool:
    """Whether the files still hold every item, property, binding and alias of the model in
    the same places and only property values changed, so that saving in place can edit
    values only. Checked against the parsed elements at save time."""
    for item in project.root.walk():
        el = item.element
        if el is None:
            return False
        if item.parent is not None and (el.tag != item.type or el.get("name", item.type) != item.name):
            return False
        if item.parent is not None and {k: v for k, v in el.items() if k != "name"} != item.attributes:
            return False
        if any(b.element is None or b.as_loaded != b.key() for b in item.bindings):
            return False
        if any(a.element is None or a.element.get("target") != a.target for a in item.aliases.values()):
            return False
        kids, props, bindings, aliases = [], [], 0, []
        for c in el:
            tag = c.tag
            if not isinstance(tag, str):
                continue
            if tag == "Property":
                props.append(c.get("name"))
            elif tag in ("Binding", "BindingItem"):
                bindings += 1
            elif tag == "Alias":
                aliases.append(c.get("name"))
            else:
                kids.append(c.get("name", tag))
        if kids != [c.name for c in item.children] or bindings != len(item.bindings):
            return False
        if set(props) != {n for n, p in item.properties.items() if p.element is not None}:
            return False
        if set(aliases) != set(item.aliases):
            return False
    return True


def _line_indent(text: str, offset: int) -> str:
    start = text.rfind("\n", 0, offset) + 1
    m = re.match(r"[ \t]*", text[start:offset])
    return m.group() if m else ""


def _element_end(src, el) -> int:
    """Offset just after the end tag of `el` (after '/>' when self-closing)."""
    start, end, closed = src.tags[el]
    if closed:
        return end
    close = re.compile(r"</" + re.escape(el.tag) + r"\s*>")
    depth_probe = list(el.iterdescendants(el.tag))       # nested same-name elements are rare
    pos = end
    for _ in range(len(depth_probe) + 1):
        m = close.search(src.text, pos)
        if not m:
            return end
        pos = m.end()
    return pos


def _edits_for(project: Project, changed: set[int]) -> dict[str, list[tuple[int, int, str]]]:
    """Per file: (start, end, replacement) for every changed or added property."""
    docs = project.document
    edits: dict[str, list] = {}
    for item in project.root.walk():
        new = [p for p in item.properties.values() if id(p) in changed]
        if not new or item.element is None:
            continue
        src = _source_of(docs, item.element)
        for prop in new:
            text = escape(property_text(prop, type_of(item, prop.name)))
            if prop.element is not None and prop.element in src.tags:
                start, end, closed = src.tags[prop.element]
                if closed:
                    tag = src.text[start:end]
                    edits.setdefault(src.path, []).append(
                        (start, end, tag[:-2].rstrip() + (f">{text}</Property>" if text else "/>")))
                else:
                    a, b = src.text_range(prop.element)
                    edits.setdefault(src.path, []).append((a, b, text))
                continue
            edits.setdefault(src.path, []).append(_insertion(src, item, prop, text))
    return edits


def _source_of(docs, el):
    for src in docs.sources.values():
        if el in src.tags:
            return src
    raise KeyError(el)


def _insertion(src, item: Item, prop: Property, text: str) -> tuple[int, int, str]:
    el = item.element
    new = (f"<Property name={quoteattr(prop.name)}>{text}</Property>" if text
           else f"<Property name={quoteattr(prop.name)}/>")
    props = [c for c in el if c.tag == "Property" and c in src.tags]
    if props:
        anchor = props[-1]
        at = _element_end(src, anchor)
        pad = _line_indent(src.text, src.tags[anchor][0])
        return at, at, "\n" + pad + new
    start, end, closed = src.tags[el]
    pad = _line_indent(src.text, start)
    kids = [c for c in el if isinstance(c.tag, str) and c in src.tags]
    inner = _line_indent(src.text, src.tags[kids[0]][0]) if kids else pad + INDENT
    if closed:
        head = src.text[start:end][:-2].rstrip()
        return start, end, f"{head}>\n{inner}{new}\n{pad}</{el.tag}>"
    return end, end, "\n" + inner + new


def _splice(text: str, edits: list[tuple[int, int, str]]) -> str:
    for start, end, rep in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        text = text[:start] + rep + text[end:]
    return text


def _target(project: Project, path: str | None) -> tuple[str, str]:
    """(layout, location) a save writes to."""
    if path is None:
        if project.layout == "folder":
            return "folder", project.document.root_dir
        return "file", project.path
    path = os.fspath(path)
    if path.endswith(PROJECT_FILE_SUFFIX):
        return "folder", os.path.dirname(os.path.abspath(path))
    if path.endswith(".kzm"):
        return "file", path
    return "folder", path


def save_project(project: Project, path: str | None = None) -> list[str]:
    """Save `project` (path None: where it was loaded from). See the module docstring."""
    if project.layout == "kzproj" and path is None:
        raise KzError(_diag(UNREADABLE, "a Kanzi Studio project is read-only here; "
                                        "save it as a .kzm file or a project folder"), exit_code=2)
    layout, where = _target(project, path)
    docs = project.document
    in_place = docs is not None and layout == project.layout and structure_unchanged(project)
    if in_place:
        written = _save_spliced(project, layout, where, only_dirty=path is None)
        if path is None and layout == "folder":
            _relink_files(project, written)      # only the files written are read again
            return written
    elif layout == "file":
        written = write_single(project, where)
    else:
        if path is None and os.path.isdir(where):
            raise KzError(_diag(UNREADABLE, "the item tree changed; save the folder project "
                                            "into a new folder (project.save(NEW_FOLDER))"), exit_code=2)
        written = write_folder(project, where)
    _relink(project, layout, where)
    return written


def _save_spliced(project: Project, layout: str, where: str, only_dirty: bool) -> list[str]:
    docs = project.document
    changed = {id(p) for p in project.changed}
    edits = _edits_for(project, changed)
    by_encoding: dict[str, dict[str, str]] = {}
    for src_path, src in docs.sources.items():
        if only_dirty and src_path not in edits:
            continue
        text = _splice(src.text, edits.get(src_path, []))
        if layout == "file":
            out = where
        else:
            out = os.path.join(where, os.path.relpath(src_path, docs.root_dir))
        by_encoding.setdefault(src.encoding, {})[out] = text
    # every file's bytes first, then all of them replace the old files (writer.write_files)
    files = {path: encode_text(path, text, encoding, newline="")
             for encoding, group in by_encoding.items() for path, text in group.items()}
    write_blobs(files)
    return list(files)


def _relink(project: Project, layout: str, where: str) -> None:
    """Point the model at the files just written (positions, elements), so that later saves
    work in place again. The model objects the caller holds stay the same objects."""
    fresh, _ = read_kzm(where if layout == "file" else _project_file(where), typed=False)   # checked before
    if fresh is None:
        return
    _take_positions(project.root, fresh.root)
    project.document, project.files, project.layout = fresh.document, fresh.files, fresh.layout
    project.path = fresh.path
    project.changed = []


def _relink_files(project: Project, paths: list[str]) -> None:
    """_relink for an in-place save of a folder project: read only the item files written,
    each on its own (its <Child> lines are not followed), and take their positions."""
    docs = project.document
    roots = {id(src.tree.getroot()): path for path, src in docs.sources.items()}
    owners = {roots[id(i.element)]: i for i in project.root.walk() if id(i.element) in roots}
    for path in paths:
        fresh = read_item_file(path, docs.root_dir)
        if fresh is None:                 # cannot happen for a file just written; be safe
            return _relink(project, "folder", docs.root_dir)
        item, src = fresh
        old = owners[path]
        _take_positions(old, item)
        docs.sources[path] = src
    project.changed = []


def _take_positions(old: Item, new: Item) -> None:
    """Copy positions and elements from a freshly read twin of `old`'s subtree. Children
    that the fresh read left as <Child> placeholders (no element) keep theirs."""
    copy_spans(old, new, ("span",))
    old.element = new.element
    for name, p in old.properties.items():
        q = new.properties.get(name)
        if q is not None:
            copy_spans(p, q, ("span", "value_span"))
            p.element, p.text = q.element, q.text
    for b, c in zip(old.bindings, new.bindings):
        copy_spans(b, c, ("span", "expression_span", "target_span", "push_target_span", "raw_code_span"))
        b.element, b.expression_anchors, b.raw_code_anchors = c.element, c.expression_anchors, c.raw_code_anchors
        b.as_loaded = b.key()              # the file now says exactly this binding
        for s, t in zip(b.sources, c.sources):
            s.span, s.item_span, s.element = t.span, t.item_span, t.element
    for name, a in old.aliases.items():
        if name in new.aliases:
            a.span, a.element = new.aliases[name].span, new.aliases[name].element
    for oc, nc in zip(old.children, new.children):
        if nc.element is not None:
            _take_positions(oc, nc)


def _project_file(folder: str) -> str:
    for f in sorted(os.listdir(folder)):
        if f.endswith(PROJECT_FILE_SUFFIX):
            return os.path.join(folder, f)
    return folder
