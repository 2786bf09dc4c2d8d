"""One side of a diff: a project file or folder, or one file of a git revision
(`REV:PATH`, read with `git show`, PATH as git takes it: from the repository's top, or
`./` for the current folder). A revision's file is written into a temporary folder; its
positions are shown under the name given (`HEAD~1:effect.kzm:12`)."""
from __future__ import annotations

import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from kzplayer.diagnostics import Diagnostic, KzError, Severity
from kzplayer.project.loader import load
from kzplayer.bindings import resolve

_REVISION = re.compile(r"^(?P<rev>[^:\s]+):(?P<path>.+)$")


@dataclass
class Side:
    name: str                   # as given on the command line
    path: str                   # what is loaded (a temporary copy for a revision)
    project: object
    graph: object
    _tmp: object = None

    def shown(self, file: str | None) -> str:
        """A file of this side as the user named it (a revision's temporary copy by REV:PATH)."""
        if not file:
            return self.name
        if self._tmp is not None and str(file).startswith(self._tmp.name):
            return self.name
        rel = os.path.relpath(file) if os.path.isabs(file) else file
        return file if rel.startswith("..") else rel

    def close(self) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None


def _bad(message: str) -> KzError:
    return KzError([Diagnostic("KZ904", "cli.option", Severity.ERROR, message)], exit_code=2)


def open_side(name: str) -> Side:
    """Load one side with its binding graph; KzError (exit 2) for what cannot be read."""
    tmp = None
    path = name
    m = _REVISION.match(name)
    if m and not Path(name).exists():
        tmp = tempfile.TemporaryDirectory(prefix="kzdiff-")
        text = _git_show(m["rev"], m["path"])
        path = str(Path(tmp.name) / Path(m["path"]).name)
        Path(path).write_bytes(text)
    elif not Path(name).exists():
        raise _bad(f"{name}: no such file or folder (a git revision is REV:PATH, e.g. HEAD~1:effect.kzm)")
    try:
        project = load(path)
    except KzError:
        if tmp is not None:
            tmp.cleanup()
        raise
    return Side(name, path, project, resolve(project), tmp)


def _git_show(rev: str, path: str) -> bytes:
    try:
        done = subprocess.run(["git", "show", f"{rev}:{path}"], capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise _bad(f"{rev}:{path}: git could not be run ({exc})") from None
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise _bad(f"{rev}:{path}: {why[-1] if why else 'git show failed'}")
    return done.stdout
