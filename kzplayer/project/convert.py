"""Converting between the single-file and the folder layout, and comparing models.

`convert(src, dst)`: DST ending in `.kzm` (not `.proj.kzm`) is a single file, anything else a
project folder. `canonical(project)` is the model as plain data, without positions; two
projects are the same model when their canonical forms are equal (`model_equal`).
"""
from __future__ import annotations

import filecmp
import os
import shutil

from kzplayer.diagnostics import KzError
from kzplayer.project.loader import PROJECT_FILE_SUFFIX, UNREADABLE, _diag, load
from kzplayer.project.model import Project
from kzplayer.project.writer import DESTINATION


def target_layout(dst: str) -> str:
    dst = os.fspath(dst)
    return "file" if dst.endswith(".kzm") and not dst.endswith(PROJECT_FILE_SUFFIX) else "folder"


def convert(src: str, dst: str, force: bool = False) -> tuple[Project, list[str]]:
    """Load SRC (any layout, or a .kzproj) and write it to DST; returns the project and the
    files written. Raises KzError (exit 1 bad project, 2 unreadable SRC or unusable DST).
    Never writes over a file of the project being converted; an existing DST file is
    replaced only with `force` (and then atomically: a failure leaves it whole)."""
    dst = os.fspath(dst)
    if dst.lower().endswith((".kzproj", ".kzmat")):
        raise KzError(_diag(DESTINATION, f"{dst}: kzplayer writes .kzm projects, not Kanzi Studio "
                                         "files", hint=f"write {os.path.splitext(dst)[0]}.kzm (one "
                                         "file) or a folder name (the folder layout)"), exit_code=2)
    project = load(src)
    own = own_files(project)
    if target_layout(dst) == "file":
        folder = os.path.dirname(os.path.abspath(dst))
        targets = [dst]
    else:
        folder = os.path.dirname(os.path.abspath(dst)) if dst.endswith(PROJECT_FILE_SUFFIX) else dst
        targets = [folder]
    for target in targets:
        real = os.path.realpath(target)
        if real in own or any(f.startswith(os.path.join(real, "")) for f in own):
            raise KzError(_diag(DESTINATION, f"{dst} is {'a file' if real in own else 'the folder'} of the "
                                             f"project being converted; converting onto it would break "
                                             "the project", hint="choose a destination outside the project"),
                          exit_code=2)
    if target_layout(dst) == "file" and os.path.exists(dst) and not force:
        raise KzError(_diag(DESTINATION, f"{dst} exists; convert does not overwrite a file unless told to",
                            hint="add --force to replace it, or choose another name"), exit_code=2)
    from kzplayer.project.writer import write_folder, write_single
    shaders = custom_shaders(project, folder)
    files = write_single(project, dst) if target_layout(dst) == "file" else write_folder(project, folder)
    for source, target in shaders:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(source, target)
        files.append(target)
    return project, files


def own_files(project: Project) -> set[str]:
    """The real paths of every file the project was read from, and its custom shaders."""
    files = {os.path.realpath(f) for f in (project.files or [project.path]) if f}
    base = os.path.dirname(os.path.abspath(project.path))
    for item in project.items("MaterialType"):
        for attribute in ("shader", "vertex", "fragment"):
            shader = item.attributes.get(attribute)
            if shader:
                files.add(os.path.realpath(os.path.join(base, shader)))
    return files


def dropped_comments(project: Project) -> int:
    """How many XML comments the files of the project hold: a converted project is written
    fresh, so they are not carried over (convert says so)."""
    from lxml import etree
    docs = project.document
    sources = getattr(docs, "sources", None) or {}
    count = 0
    for src in sources.values():
        tree = getattr(src, "tree", None)
        if tree is not None:
            count += sum(1 for _ in tree.getroot().iter(etree.Comment))
            count += sum(1 for n in tree.getroot().itersiblings(preceding=True) if isinstance(n, etree._Comment))
            count += sum(1 for n in tree.getroot().itersiblings() if isinstance(n, etree._Comment))
    return count


def custom_shaders(project: Project, folder: str) -> list[tuple[str, str]]:
    """(source, destination) of each custom material's shader to copy beside a converted
    project in `folder`: `shader=` is relative to the project file, so it keeps its relative
    path. Shaders the loader refused (outside the project), missing ones (the validator says
    so) and ones already there unchanged are left alone. Raises KzError (exit 2) rather than
    overwrite a different file of the same name."""
    base = os.path.dirname(os.path.abspath(project.path))
    out = {}
    for item, attribute in ((i, a) for i in project.items("MaterialType") for a in ("shader", "vertex", "fragment")):
        rel = os.path.normpath((item.attributes.get(attribute) or "").replace("\\", "/"))
        if rel in (".", "") or os.path.isabs(rel) or rel.split(os.sep)[0] == "..":
            continue
        source, target = os.path.join(base, rel), os.path.join(folder, rel)
        if not os.path.isfile(source) or os.path.abspath(source) == os.path.abspath(target):
            continue
        if os.path.exists(target) and not filecmp.cmp(source, target, shallow=False):
            raise KzError(_diag(UNREADABLE, f"{target} exists and is not the shader of material "
                                            f"'{item.name}' ({source}); convert to another folder"),
                          exit_code=2)
        out[target] = (source, target)
    return list(out.values())


def left_out(project: Project) -> list[str]:
    """The Kanzi Studio editor properties a .kzm does not hold (writer.studio_only), by name:
    what converting an imported .kzproj leaves behind."""
    from kzplayer.project.writer import studio_only
    return sorted({n for item in project.walk() for n in item.properties if studio_only(item, n)})


def canonical(project: Project) -> dict:
    """The model as plain, comparable data: everything but positions and file bookkeeping."""
    items = []
    for item in project.walk():
        items.append({
            "path": item.path, "type": item.type,
            "attributes": dict(sorted(item.attributes.items())),
            "properties": {n: (p.value if p.value is not None else p.text.strip())
                           for n, p in sorted(item.properties.items())},
            "aliases": {n: a.target for n, a in sorted(item.aliases.items())},
            "bindings": [
                {"target": b.target, "expression": b.expression, "name": b.name, "field": b.field,
                 "mode": b.mode, "push_target": b.push_target, "enabled": b.enabled,
                 "raw_code": b.raw_code, "short": b.short,
                 "sources": [(s.name, s.item, s.source, s.field) for s in b.sources]}
                for b in item.bindings],
            "children": [c.name for c in item.children],
        })
    return {"name": project.name, "format": project.format_version, "items": items}


def model_equal(a: Project, b: Project) -> bool:
    return canonical(a) == canonical(b)


def model_diff(a: Project, b: Project) -> list[str]:
    """Where two models differ, one line per item path (for test failure messages)."""
    ca, cb = canonical(a), canonical(b)
    out = [f"project {k}: {ca[k]!r} != {cb[k]!r}" for k in ("name", "format") if ca[k] != cb[k]]
    ia = {i["path"]: i for i in ca["items"]}
    ib = {i["path"]: i for i in cb["items"]}
    for path in sorted(set(ia) | set(ib)):
        x, y = ia.get(path), ib.get(path)
        if x != y:
            keys = [k for k in (x or y) if (x or {}).get(k) != (y or {}).get(k)]
            out.append(f"{path}: differs in {', '.join(keys)}")
    return out
