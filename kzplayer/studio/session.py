"""The project being edited in the studio: the model, its binding graph, the edits with
undo and redo, the validator's findings, save and reload. No GL: the render thread
(engine.py) runs every call of it, and hears what an edit means for the Player through
`live` (the GPU's `set_value`, or a rebuild).

    session = StudioSession("effect.kzm")
    session.edit(SetValue(path, "Emission.Rate", "800"))   # applied live
    session.undo(); session.redo()
    session.save()                  # project.save: the file changes only where a value did
    session.external_change()       # the file changed on disk (not by us): reload, True
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

from kzplayer.bindings import resolve
from kzplayer.diagnostics import KzError, Severity
from kzplayer.project.loader import load, load_project
from kzplayer.studio.ops import Effect, EditError
from kzplayer.validate import validate_project


class Live:
    """What an edit does to the running effect; the default (no Player): the graph only."""

    def __init__(self, session: "StudioSession"):
        self.session = session

    def set_value(self, item, name: str, value) -> None:
        self.session.graph.set_value(item, name, value)

    def rebuild(self) -> None:
        """The project changed beyond values: the session's graph is resolved again already."""


class StudioSession:
    def __init__(self, path: str | os.PathLike):
        self.path = str(Path(path).resolve())
        self.live: Live = Live(self)
        self.version = 0
        self.project = self.graph = None
        self.disk_problem: str | None = None    # the files on disk do not load (watch.py)
        self.reload()

    @property
    def folder(self) -> str:
        """The project's folder: what the server may serve and write."""
        return self.path if os.path.isdir(self.path) else os.path.dirname(self.path)

    # -- loading ---------------------------------------------------------------------------

    def reload(self) -> None:
        """Read the project from disk again (the start, an external edit): edits and their
        history are dropped. A project that does not load raises KzError (the last good
        state stays)."""
        project, found = load_project(self.path)
        if project is None or any(d.severity == Severity.ERROR for d in found):
            load(self.path)          # raises as kzplayer.load does: exit 1, or 2 for a file that cannot be read
        self.project, self.loaded = project, found
        self.graph = resolve(project)
        self.undone: list = []
        self.done: list = []
        self.saved_at = None               # the last edit done when the file last matched the model
        self.disk = self._fingerprint()
        self._findings = None
        self.version += 1

    def _fingerprint(self) -> str:
        h = hashlib.sha256()
        for f in sorted(self.project.files):
            try:
                h.update(Path(f).read_bytes())
            except OSError:
                h.update(b"\0missing")
        return h.hexdigest()

    def external_change(self) -> bool:
        """Whether the files on disk are no longer what we loaded or saved; if so, reload."""
        if self._fingerprint() == self.disk:
            return False
        self.reload()
        return True

    # -- edits -----------------------------------------------------------------------------

    def edit(self, op) -> Effect:
        effect = op.apply(self.project)       # EditError: nothing changed
        self.done.append(op)
        self.undone.clear()
        return self._after(effect)

    def undo(self) -> Effect:
        if not self.done:
            raise EditError("nothing to undo")
        op = self.done.pop()
        self.undone.append(op)
        return self._after(op.revert(self.project))

    def redo(self) -> Effect:
        if not self.undone:
            raise EditError("nothing to redo")
        op = self.undone.pop()
        self.done.append(op)
        return self._after(op.apply(self.project))

    def _after(self, effect: Effect) -> Effect:
        self.version += 1
        self._findings = None
        rebuild = effect.rebuild
        if not rebuild:
            for item, name, value in effect.values:
                try:
                    self.live.set_value(item, name, value)
                except KzError:           # the graph refuses it (a type): start afresh instead
                    rebuild = True
                    break
        for change in effect.then:
            change()
        if rebuild:
            self.graph = resolve(self.project)
            self.live.rebuild()
        return effect

    @property
    def dirty(self) -> bool:
        return (self.done[-1] if self.done else None) is not self.saved_at

    def save(self) -> list[str]:
        """project.save in place (atomic; only the edited values' text changes when only
        values changed). The undo history stays: undoing after a save makes it dirty again."""
        written = self.project.save()
        self.disk = self._fingerprint()
        self.saved_at = self.done[-1] if self.done else None
        self.version += 1
        return written

    # -- what the page shows ---------------------------------------------------------------

    def findings(self) -> list:
        """The validator's findings on the model as it is now (notes left out)."""
        if self._findings is None:
            found = validate_project(self.project, self.loaded, self.graph)
            self._findings = [d for d in found if d.severity != Severity.NOTE]
        return self._findings

    def diagnostics(self) -> list[dict]:
        out = []
        for d in self.findings():
            s = d.span
            where = locate(self.project, s) if s is not None else (None, None)
            out.append({"code": d.code, "rule": d.rule, "severity": d.severity.value, "message": d.message,
                        "hint": d.hint, "file": os.path.basename(s.file) if s else None,
                        "line": s.line if s else None, "column": s.column if s else None,
                        "item": where[0], "property": where[1]})
        return out

    def history(self) -> dict:
        return {"undo": self.done[-1].label if self.done else None,
                "redo": self.undone[-1].label if self.undone else None}


def locate(project, span) -> tuple[str | None, str | None]:
    """(item path, property name) a diagnostic's span falls on: a property or binding on
    that line, else the item that starts last before it in the same file."""
    best, best_at = None, (0, 0)
    for item in project.walk():
        for name, prop in item.properties.items():
            ps = prop.span
            if ps is not None and ps.file == span.file and ps.line == span.line:
                return item.path, name
        for b in item.bindings:
            bs = b.span
            if bs is not None and bs.file == span.file and bs.line <= span.line <= (bs.end_line or bs.line):
                return item.path, b.target
        s = item.span
        if s is not None and s.file == span.file and best_at < (s.line, s.column) <= (span.line, span.column):
            best, best_at = item, (s.line, s.column)
    return (best.path if best is not None else None), None
