"""An in-place save's files put on disk in an order that an interruption cannot turn into a
project that loads as something else, and undone when it fails (saver.py; docs/format.md,
"Saving").

Every file's bytes first go to a temporary file beside it (kzplayer.atomic), so that a full
disk or a size limit stops the save before anything is in place. Then, one `os.replace`
each: (1) the new item files that no file of the old project names (they are orphans until
then: the old project loads, with a warning about them); (2) the edited files: when there
is one (a rename, an add, a remove in one parent), its one `os.replace` turns the old
project into the new; when there are several (a move to another parent, a rename and a
value elsewhere), those that name a new file go first and (3) the new files they name are
put in place only after all of them, so that in between the project refuses to load
(file.missing) rather than load as a mix of the two (the moved item twice, or the new tree
with the old values); (4) the old files of moved and removed items are deleted, then the
folders they leave empty. An exception in (1)-(3) (an OSError, Ctrl-C) puts back every
file replaced so far and removes every new one: the project is as it was, byte for byte.
Several edited files and no new one (values in two files, an inline item moved from one
file to another) have no such order: a crash between two os.replace calls can leave half.

A new file is refused before anything is written when its name, or its folder's, is on
disk already, or differs from a name in its folder only in case (one file on Windows and
macOS).
"""
from __future__ import annotations

import os

from kzplayer.atomic import AtomicFile
from kzplayer.diagnostics import KzError
from kzplayer.project.layout import ITEM_FILE_SUFFIX
from kzplayer.project.source import _diag
from kzplayer.project.writer import UNWRITABLE


def refuse(message: str, hint: str | None = None) -> KzError:
    return KzError(_diag(UNWRITABLE, message + "; nothing was written", hint=hint), exit_code=2)


def check_new_names(new_files, root: str) -> None:
    """Refuse (KzError, nothing written) a new file whose name or folder is on disk, or
    collides in case with a name on disk or another new file."""
    planned: dict[str, dict[str, str]] = {}
    for path in new_files:
        folder, base = os.path.split(path)
        stem = base[:-len(ITEM_FILE_SUFFIX)]
        shown = os.path.relpath(path, root)
        for there in (path, os.path.join(folder, stem)):
            if os.path.lexists(there):
                raise refuse(f"cannot save in place: {os.path.relpath(there, root)} is there already",
                             hint="rename the item, or save once after removing or moving the item "
                                  "that had this name, then again")
        mine = planned.setdefault(folder, {})
        names = list(mine) + (os.listdir(folder) if os.path.isdir(folder) else [])
        for name in (base, stem):
            other = next((n for n in names if n != name and n.casefold() == name.casefold()), None)
            if other is not None:
                raise refuse(f"cannot save in place: {shown} and {os.path.join(os.path.relpath(folder, root), other)} "
                             "differ only in case, and are one file on Windows and macOS",
                             hint="choose a name that differs in more than case (for a change of case "
                                  "alone, rename through another name, saving in between)")
        mine[base] = mine[stem] = path


def put_in_order(new: dict[str, bytes], edited: dict[str, bytes], tree_files: set[str],
                 existing: set[str], main: str) -> list[str]:
    """Write `new` (paths that are not there) and `edited` (files replaced) in the order of
    the module docstring, all or nothing against an exception. `tree_files`: the edited
    files whose items or <Child> lines change (after the others that name a new file,
    before the rest); `existing`: every file of the project as read; `main`: its
    NAME.proj.kzm. The paths written."""
    hosts = {}                      # a new file a kept file's text names -> that file
    for path in new:
        host = _host(path, new, existing, main)
        if host is not None:
            hosts[path] = host
    several = len(edited) > 1
    late = [p for p in new if several and p in hosts]
    early = [p for p in new if p not in late]
    gaining = set(hosts.values())
    order = early + sorted(edited, key=lambda p: (p not in gaining, p not in tree_files)) + late
    data = {**new, **edited}
    made = _missing_folders(new)
    staged: dict[str, AtomicFile] = {}
    done: list[tuple[str, bytes | None]] = []       # (path, old bytes; None for a new file)
    try:
        try:
            for path in order:
                f = staged[path] = AtomicFile(path, follow=True)
                f.file.write(data[path])
                f.finish()
            for path in order:
                f = staged[path]
                old = None
                if path in edited:
                    with open(f.path, "rb") as inp:
                        old = inp.read()
                f.put_in_place()
                done.append((f.path, old))
        except BaseException as exc:
            for f in staged.values():     # the temporary files first: their folders may go
                f.abandon()
            left = _undo(done, made)
            if isinstance(exc, (OSError, UnicodeError)):
                where = getattr(exc, "filename", None) or (order[len(done)] if len(done) < len(order) else "")
                why = getattr(exc, "strerror", None) or str(exc) or exc.__class__.__name__
                if left:
                    raise KzError(_diag(UNWRITABLE, f"cannot write {where}: {why}; the save stopped half-way "
                                                    f"and these could not be put back: {', '.join(left)}"),
                                  exit_code=2) from None
                raise KzError(_diag(UNWRITABLE, f"cannot write {where}: {why}; no file was changed"),
                              exit_code=2) from None
            raise
    finally:
        for f in staged.values():
            f.abandon()
    return list(data)


def _host(path: str, new, existing, main: str) -> str | None:
    """The file kept in place whose text names the new file `path` (its parent's file, or
    the file its nearest ancestor with a file of its own is in), or None when that is a new
    file too. Paths are the model's: an item's file is its parent's folder + its name."""
    folder, root = os.path.dirname(path), os.path.dirname(main)
    while True:
        if os.path.abspath(folder) == os.path.abspath(root):
            return main
        owner = folder + ITEM_FILE_SUFFIX
        if owner in new:
            return None
        if owner in existing:
            return owner
        up = os.path.dirname(folder)
        if up == folder:
            return main
        folder = up


def _missing_folders(paths) -> list[str]:
    """The folders writing `paths` will make, deepest last."""
    made = []
    for path in paths:
        folder = os.path.dirname(os.path.abspath(path))
        chain = []
        while not os.path.isdir(folder) and folder not in made:
            chain.append(folder)
            folder = os.path.dirname(folder)
        made += reversed(chain)
    return made


def _undo(done: list, made: list[str]) -> list[str]:
    """Put back what `done` put in place; the paths that could not be."""
    left = []
    for path, old in reversed(done):
        try:
            if old is None:
                os.unlink(path)
            else:
                with AtomicFile(path, follow=True) as f:
                    f.file.write(old)
        except OSError:
            left.append(path)
    for folder in reversed(made):
        try:
            os.rmdir(folder)
        except OSError:
            pass
    return left


def delete(paths, root: str) -> list[str]:
    """The old files of moved and removed items, and the folders they leave empty (once
    the new files are all in place); the paths that could not be deleted."""
    left, folders = [], set()
    for path in paths:
        try:
            os.remove(path)
        except FileNotFoundError:
            pass
        except OSError:
            left.append(path)
        folders.add(os.path.dirname(path))
    for folder in sorted(folders, key=len, reverse=True):
        while os.path.abspath(folder) != os.path.abspath(root):
            try:
                os.rmdir(folder)
            except OSError:
                break
            folder = os.path.dirname(folder)
    return left
