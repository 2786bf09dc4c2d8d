"""Saving a project: in place, keeping every untouched byte, or fresh through writer.py.

`save_project` edits the text of the files a project came from (splice.py plans the edits):
a changed value gets new text between its tags, a new property a new line after the item's
last property; bindings, aliases and start tags changed, items added, removed, renamed,
moved or duplicated change only their own elements and lines (a moved or duplicated item's
own text goes along), indented as the file is. Nothing else in the file moves, comments and
odd formatting included. In the folder layout an added item is a new file and a `<Child>`
line, a removed one loses its line and its files, a renamed or moved one's files go to its
new name and folder; save_order.py puts them on disk in an order that a crash cannot turn
into another project, and undoes a save that fails half-way.

What no splice can write (splice.py lists it) falls back to writing the files anew with
`write_single` / `write_folder`: comments are then lost, and a folder project must be
saved into a new folder.
"""
from __future__ import annotations

import os

from kzplayer.diagnostics import KzError
from kzplayer.project.kzm_reader import read_item_file, read_kzm
from kzplayer.project.layout import PROJECT_FILE_SUFFIX
from kzplayer.project.contents import is_built
from kzplayer.project.model import Item, Project
from kzplayer.project.spans import copy_spans
from kzplayer.project.source import UNREADABLE, _diag
from kzplayer.project.save_order import check_new_names, delete, put_in_order, refuse
from kzplayer.project.splice import Clash, NotSpliceable, Plan, apply, plan
from kzplayer.project.writer import UNWRITABLE, encode_text, write_blobs, write_folder, write_single


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
    edits, why = None, "no files to splice"
    if project.document is not None and layout == project.layout:
        try:
            edits = plan(project)
        except NotSpliceable as exc:
            why = str(exc)
        except Clash as exc:
            raise refuse(f"cannot save: {exc}") from None
    if edits is not None:
        written, left = _save_spliced(project, edits, layout, where, only_dirty=path is None)
        if path is None and layout == "folder" and not edits.tree_changed:
            _relink_files(project, written)      # only the files written are read again
            return written
        _relink(project, layout, where)
        if left:
            raise KzError(_diag(UNWRITABLE, "the project was saved, but these old item files could not be "
                                            f"deleted: {', '.join(left)}",
                                hint="delete them by hand (loading warns about them: file.orphan)"), exit_code=2)
        return written
    if layout == "file":
        written = write_single(project, where)
    else:
        if path is None and os.path.isdir(where):
            raise KzError(_diag(UNREADABLE, f"this change cannot be saved into the folder in place ({why}); "
                                            "save the folder project into a new folder (project.save(NEW_FOLDER))"),
                          exit_code=2)
        written = write_folder(project, where)
    _relink(project, layout, where)
    return written


def _save_spliced(project: Project, edits: Plan, layout: str, where: str,
                  only_dirty: bool) -> tuple[list[str], list[str]]:
    """(the files written, the old files that could not be deleted)."""
    docs = project.document
    gone = set(edits.deleted) - set(edits.new_files)
    if only_dirty:
        check_new_names(edits.new_files, docs.root_dir)

    def out(src_path: str) -> str:
        return where if layout == "file" else os.path.join(where, os.path.relpath(src_path, docs.root_dir))
    files = {}
    for src_path, src in docs.sources.items():
        if src_path in gone or (only_dirty and src_path not in edits.edits):
            continue
        text = apply(src.text, edits.edits.get(src_path, []))
        files[out(src_path)] = encode_text(out(src_path), text, src.encoding, newline="")
    new = {out(p): encode_text(out(p), text) for p, text in edits.new_files.items()}
    if not only_dirty:                 # save as: a new place, no order to keep
        write_blobs({**files, **new})
        return list(files) + list(new), []
    # every file's bytes first, then in place in save_order's order; then the old files go
    # in place every path is as read (out() is the identity but for a relative main file)
    written = put_in_order(new, files, {out(p) for p in edits.tree_files}, docs.sources, out(docs.main))
    return written, delete(sorted(gone), docs.root_dir)


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
    old.element, old._source = new.element, getattr(new, "_source", None)
    # what nobody read yet is built from the new element when first read (contents.py)
    for name, p in (old.properties.items() if is_built(old, "properties") else ()):
        q = new.properties.get(name)
        if q is not None:
            copy_spans(p, q, ("span", "value_span"))
            p.element, p.text = q.element, q.text
    for b, c in zip(old.bindings, new.bindings) if is_built(old, "bindings") else ():
        copy_spans(b, c, ("span", "expression_span", "target_span", "push_target_span", "raw_code_span"))
        b.element, b.expression_anchors, b.raw_code_anchors = c.element, c.expression_anchors, c.raw_code_anchors
        b.as_loaded = b.key()              # the file now says exactly this binding
        for s, t in zip(b.sources, c.sources):
            s.span, s.item_span, s.element = t.span, t.item_span, t.element
    for name, a in (old.aliases.items() if is_built(old, "aliases") else ()):
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
