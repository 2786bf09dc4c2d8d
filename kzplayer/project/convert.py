"""Converting between the single-file and the folder layout, and comparing models.

`convert(src, dst)`: DST ending in `.kzm` (not `.proj.kzm`) is a single file, anything else a
project folder; the files the project names (kzplayer.project.assets) are copied beside it. `canonical(project)` is the model as plain data, without positions; two
projects are the same model when their canonical forms are equal (`model_equal`).
"""
from __future__ import annotations

import filecmp
import os
from dataclasses import dataclass, field
from typing import NamedTuple

from lxml import etree

from kzplayer.diagnostics import KzError
from kzplayer.project.assets import KINDS, Asset, Assets, LeftOut, list_assets
from kzplayer.project.layout import PROJECT_FILE_SUFFIX
from kzplayer.project.loader import load
from kzplayer.project.model import Project
from kzplayer.project.source import _diag
from kzplayer.project.writer import (DESTINATION, UNWRITABLE, check_folder, encode_text, folder_files,
                                     single_file_text, studio_only)
from kzplayer.atomic import Refused, check_target, write_all


def target_layout(dst: str) -> str:
    dst = os.fspath(dst)
    return "file" if dst.endswith(".kzm") and not dst.endswith(PROJECT_FILE_SUFFIX) else "folder"


class Converted(NamedTuple):
    project: Project
    files: list[str]        # every file written: the project's, then the assets copied
    assets: "Copies"


@dataclass
class Copies:
    """What convert did with the project's assets (kzplayer.project.assets)."""
    copied: list[Asset] = field(default_factory=list)      # copied beside the converted project
    present: list[Asset] = field(default_factory=list)     # already there, the same bytes
    left_out: list[LeftOut] = field(default_factory=list)  # outside the project folder, or missing

    def summary(self) -> str:
        """"1 shader file, 3 textures and 2 mesh files" (kinds in a fixed order); "" for none."""
        words = {"shader": ("shader file", "shader files"), "texture": ("texture", "textures"),
                 "mesh": ("mesh file", "mesh files"), "file": ("other file", "other files")}
        parts = []
        for kind in KINDS:
            n = sum(1 for a in self.copied if a.kind == kind)
            if n:
                parts.append(f"{n} {words[kind][n != 1]}")
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + (f" and {parts[-1]}" if parts else "")


def convert(src: str, dst: str, force: bool = False) -> Converted:
    """Load SRC (any layout, or a .kzproj) and write it to DST, with every file it names (its
    assets) copied beside it at the same relative path; returns (project, files written,
    Copies). Raises KzError (exit 1 bad project, 2 unreadable SRC or unusable DST). Never
    writes over a file of the project being converted; an existing DST file is replaced only
    with `force` (and then atomically: a failure leaves it whole); a different file where an
    asset goes stops it before anything is written."""
    dst = os.fspath(dst)
    if dst.lower().endswith((".kzproj", ".kzmat")):
        raise KzError(_diag(DESTINATION, f"{dst}: kzplayer writes .kzm projects, not Kanzi Studio "
                                         "files", hint=f"write {os.path.splitext(dst)[0]}.kzm (one "
                                         "file) or a folder name (the folder layout)"), exit_code=2)
    project = load(src)
    assets = list_assets(project)
    own = own_files(project, assets)
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
    if target_layout(dst) == "folder":
        if os.path.islink(folder.rstrip("/\\") or folder):
            raise KzError(_diag(DESTINATION, f"{dst} is a symbolic link; convert does not write through links",
                                hint="convert to a real folder"), exit_code=2)
        check_folder(folder)
    copies, pairs = asset_copies(assets, folder)
    _no_clash(project, dst, folder, pairs)
    texts = ({dst: single_file_text(project)} if target_layout(dst) == "file" else
             {os.path.join(folder, rel): text for rel, text in folder_files(project).items()})
    data = {path: encode_text(path, text) for path, text in texts.items()}
    _write(data, dict((t, s) for s, t in pairs), folder)
    return Converted(project, list(data) + [t for _, t in pairs], copies)


def _write(data: dict[str, bytes], sources: dict[str, str], folder: str) -> None:
    """Every file of the converted project and every asset copy, all or nothing, inside
    `folder` and never through a link in it (kzplayer.atomic.write_all): temporary files first,
    so a full disk or an interrupt writes nothing and leaves no temporary file; the folders
    made for them are removed again."""
    made: list[str] = []
    path = folder
    try:
        for path in [*data, *sources]:
            check_target(path, folder)
            _makedirs(os.path.dirname(os.path.abspath(path)), made)
        write_all(data, root=folder, sources=sources)
        made = []
    except Refused as exc:
        raise KzError(_diag(DESTINATION, f"cannot write {exc.filename or path}: {exc.strerror}"),
                      exit_code=2) from None
    except (OSError, UnicodeError) as exc:
        where = getattr(exc, "filename", None) or path
        why = getattr(exc, "strerror", None) or str(exc)
        raise KzError(_diag(UNWRITABLE, f"cannot write {where}: {why}; no file was changed"),
                      exit_code=2) from None
    finally:
        for made_folder in reversed(made):
            try:
                os.rmdir(made_folder)
            except OSError:
                pass


def own_files(project: Project, assets: Assets | None = None) -> set[str]:
    """The real paths of every file the project was read from, and of its assets."""
    files = {os.path.realpath(f) for f in (project.files or [project.path]) if f}
    assets = assets if assets is not None else list_assets(project)
    files.update(os.path.realpath(a.path) for a in assets.files)
    return files


def dropped_comments(project: Project) -> int:
    """How many XML comments the files of the project hold: a converted project is written
    fresh, so they are not carried over (convert says so)."""
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


def asset_copies(assets: Assets, folder: str) -> tuple[Copies, list[tuple[str, str]]]:
    """What copying `assets` beside a project written to `folder` does, and the (source,
    destination) pairs to copy: each asset keeps its relative path. One already there with
    the same bytes (or the very file: converting beside the source) is left alone. Raises
    KzError (exit 2) rather than overwrite a different file of the same name."""
    copies = Copies(left_out=list(assets.left_out))
    pairs = []
    for asset in assets.files:
        source, target = str(asset.path), os.path.join(folder, *asset.name.split("/"))
        if os.path.realpath(target) == source:
            copies.present.append(asset)
            continue
        if os.path.lexists(target):
            if os.path.isfile(target) and filecmp.cmp(source, target, shallow=False):
                copies.present.append(asset)
                continue
            raise KzError(_diag(DESTINATION, f"{target} exists and is not the {asset.kind} file that "
                                             f"{asset.by} names ({source}); convert does not overwrite it",
                                hint="convert to another folder, or move that file away"), exit_code=2)
        copies.copied.append(asset)
        pairs.append((source, target))
    return copies, pairs


def _no_clash(project: Project, dst: str, folder: str, pairs: list[tuple[str, str]]) -> None:
    """An asset named like a file of the converted project itself (`Screens.kzm`) would
    replace it: KzError (exit 2) before anything is written."""
    if not any(t.endswith(".kzm") for _, t in pairs):
        return
    written = ({os.path.abspath(dst)} if target_layout(dst) == "file" else
               {os.path.abspath(os.path.join(folder, rel)) for rel in folder_files(project)})
    for source, target in pairs:
        if os.path.abspath(target) in written:
            raise KzError(_diag(DESTINATION, f"{source} would be copied to {target}, a file of the "
                                             "converted project itself",
                                hint="convert to another name, or rename that file"), exit_code=2)


def _makedirs(folder: str, made: list[str]) -> None:
    """os.makedirs, noting each folder it makes (outermost first)."""
    missing = []
    while folder and not os.path.isdir(folder):
        missing.append(folder)
        folder = os.path.dirname(folder)
    for f in reversed(missing):
        os.mkdir(f)
        made.append(f)


def left_out(project: Project) -> list[str]:
    """The Kanzi Studio editor properties a .kzm does not hold (writer.studio_only), by name:
    what converting an imported .kzproj leaves behind."""
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
