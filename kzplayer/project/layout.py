"""The two .kzm layouts on disk (docs/format.md): one file, or a folder with
`NAME.proj.kzm` and one `.kzm` per item at its ProjectItemPath. The file suffixes, the file
name an item gets, which file to read for a path, and `Documents` (the files a project was
read from, kept for saving in place).
"""
from __future__ import annotations

import glob
import os
import re
from dataclasses import dataclass, field

from kzplayer.diagnostics import Diagnostic
from kzplayer.project.source import STRUCTURE, UNREADABLE, SourceFile, _diag

FORMAT_VERSION = "1"
ITEM_FILE_SUFFIX = ".kzm"
PROJECT_FILE_SUFFIX = ".proj.kzm"

# Characters that cannot be part of a portable file name; stored as %XX (docs/format.md).
_UNSAFE_FILE_CHARS = re.compile(r'[%\\:*?"<>|\x00-\x1f]|^[ .]|[ .]$')


def item_file_name(name: str) -> str:
    """The file name (without .kzm) an item of this name gets in the folder layout."""
    return _UNSAFE_FILE_CHARS.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode()), name)


@dataclass
class Documents:
    """The files a project was read from, kept for saving in place."""
    root_dir: str
    main: str
    sources: dict[str, SourceFile] = field(default_factory=dict)   # path -> SourceFile


def find_project_file(path: str) -> tuple[str | None, list[Diagnostic]]:
    """The file to read for PATH: a .kzm, a NAME.proj.kzm, or the one NAME.proj.kzm in a folder."""
    if os.path.isdir(path):
        found = sorted(f for f in os.listdir(path) if f.endswith(PROJECT_FILE_SUFFIX))
        if len(found) == 1:
            return os.path.join(path, found[0]), []
        why = "no NAME.proj.kzm in it" if not found else f"several project files: {', '.join(found)}"
        return None, [_diag(UNREADABLE, f"{path} is not a project folder: {why}")]
    if not os.path.exists(path):
        return None, [_diag(UNREADABLE, f"{path} does not exist")]
    return path, []


def not_a_project(path: str, tag: str, span):
    """A file whose top element is an item: most likely one item file of a folder project,
    opened instead of its folder. Name the project to open when one is above it."""
    folder = os.path.dirname(os.path.abspath(path))
    while True:
        projects = sorted(glob.glob(os.path.join(glob.escape(folder), "*" + PROJECT_FILE_SUFFIX)))
        if projects:
            shown = folder if os.path.isabs(path) else os.path.relpath(folder)   # as the user wrote it
            return _diag(STRUCTURE, f"this is an item file (<{tag}>) of the folder project {shown}, "
                                    "not a project", span,
                         hint=f"open the folder {shown} or {os.path.join(shown, os.path.basename(projects[0]))}")
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return _diag(STRUCTURE, f"the top element must be <Project>, not <{tag}>", span,
                 hint="a .kzm file starts with <Project>; an item file of a folder project is "
                      f"opened through its folder, and there is no .proj.kzm in a folder above {path}")
