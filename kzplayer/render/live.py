"""Live preview (`kzplayer play FILE --watch`, docs/play.md "Live preview"): watch the
project's files, and on a save reload, diff against the running project and bring the
running Player up to date.

    session = LiveSession(path, load=load_for_play, make_player=make, report=show)
    session.start()                     # the first good load and its Player
    outcome = session.reload()          # after a save: "applied", "rebuilt", "broken" or "unchanged"

What a save does (diff_projects, GL-free):
- only property values changed (same items, same bindings, aliases and attributes): each new
  value goes to the running Simulation through `set_value` (the binding graph re-evaluates
  what depends on it; new parameter words, no program compiled, the particles keep flying,
  the clock keeps its time) -> "applied";
- anything else (an item added, removed, renamed or moved, a binding or alias edited, a
  property removed, a material type's shader file or any other watched file changed) ->
  "rebuilt": a new Player for the new project, re-run to the running one's time by
  Player.seek (deterministic, nothing drawn), its pause and speed kept;
- a save that does not load (XML error, unknown material, a binding that cannot compute)
  -> "broken": its diagnostics go to `report`, the last good state keeps playing, and the
  next good save is diffed against that last good state.

`watch_loop` is the headless driver: watchfiles (a real file watcher) yields the changes,
the Player advances by the wall time in between, and `on_change` hears each outcome.
`Watcher` runs watchfiles on a thread of its own for the window's loop (render/window.py),
which polls it between frames: all GL work stays on the loop's thread.
"""
from __future__ import annotations

import os
import queue
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from kzplayer.codes import code_for
from kzplayer.diagnostics import Diagnostic, KzError, Severity

SHADER_SUFFIXES = (".glsl", ".vert", ".frag", ".comp", ".geom", ".inc")
MAX_WALL_STEP = 0.1        # a stall (a rebuild, a slow save) does not explode the effect


@dataclass
class Edit:
    """One property whose value a save changed: `path` is the item's path in the project."""
    path: str
    name: str
    value: object


@dataclass
class Diff:
    edits: list[Edit] = field(default_factory=list)
    structural: str | None = None     # why the save must rebuild; None: the edits are enough


def diff_projects(old, new) -> Diff:
    """What a save changed between two loads of a project: property edits, or the first
    reason it needs a rebuild (the items walked in tree order side by side)."""
    out = Diff()
    old_items, new_items = list(old.walk()), list(new.walk())
    if len(old_items) != len(new_items):
        return Diff(structural=f"items {len(old_items)} -> {len(new_items)}")
    for a, b in zip(old_items, new_items):
        if (a.path, a.type) != (b.path, b.type):
            return Diff(structural=f"{a.path} ({a.type}) is now {b.path} ({b.type})")
        if [x.key() for x in a.bindings] != [x.key() for x in b.bindings]:
            return Diff(structural=f"{b.path}: its bindings changed")
        if ({k: (v.target) for k, v in a.aliases.items()} != {k: v.target for k, v in b.aliases.items()}
                or a.attributes != b.attributes):
            return Diff(structural=f"{b.path}: its aliases or attributes changed")
        if set(a.properties) - set(b.properties):
            return Diff(structural=f"{b.path}: a property was removed")
        for name, prop in b.properties.items():
            before = a.properties.get(name)
            if before is None or not _same(before.value, prop.value):
                out.edits.append(Edit(b.path, name, prop.value))
    return out


def _same(x, y) -> bool:
    try:
        return bool(type(x) is type(y) and x == y)
    except (ValueError, TypeError):        # arrays and the like: compare what is written
        return repr(x) == repr(y)


def watched_folders(project, path: str) -> list[str]:
    """The folders to watch: the project's folder (a folder project: the folder itself)
    and the folder of every file it read. Folders, not files: editors save by writing a
    new file and renaming it over the old one."""
    root = Path(path).resolve()
    folders = {str(root if root.is_dir() else root.parent)}
    for f in project.files:
        folders.add(str(Path(f).resolve().parent))
    return sorted(folders)


def relevant(project, path: str, changed: str) -> bool:
    """A changed file that bears on the project: one it read, a shader (or include) under
    its folder, or any file of a folder project's folder."""
    p = Path(changed).resolve()
    root = Path(path).resolve()
    if p == root or str(p) in {str(Path(f).resolve()) for f in project.files}:
        return True
    base = root if root.is_dir() else root.parent
    inside = base in p.parents
    return inside and (root.is_dir() and p.suffix.lower() in (".kzm", ".xml") or p.suffix.lower() in SHADER_SUFFIXES)


@dataclass
class Outcome:
    kind: str                                  # applied | rebuilt | broken | unchanged
    edits: list[Edit] = field(default_factory=list)
    reason: str | None = None                  # why it rebuilt
    diagnostics: list[Diagnostic] = field(default_factory=list)
    seconds: float = 0.0                       # wall time of the reload and the update


class LiveSession:
    """The running Player of one project file, kept up to date with its saves.

    `load(path)` -> (project, graph), raising KzError for a project that does not play
    (kzplayer.commands.play.load_for_play); `make_player(project, graph)` -> a Player;
    `report(diagnostics)` hears what a broken save found."""

    def __init__(self, path: str, *, load: Callable, make_player: Callable,
                 report: Callable[[list[Diagnostic]], None] = lambda d: None):
        self.path = str(path)
        self._load = load
        self._make_player = make_player
        self.report = report
        self.player = None
        self.good = None          # the last good load (what the next save is diffed against)
        self._running = None      # the project the Player plays: {path: item}

    def start(self, project=None, graph=None):
        """The first Player: of `project` and `graph` when the caller loaded them already."""
        if project is None:
            project, graph = self._load(self.path)
        self._adopt(project, graph)
        return self.player

    def _adopt(self, project, graph) -> None:
        self.player = self._make_player(project, graph)
        self.good = project
        self._running = {item.path: item for item in project.walk()}

    def reload(self, shader_changed: bool = False) -> Outcome:
        t0 = time.perf_counter()
        try:
            project, graph = self._load(self.path)
        except KzError as exc:
            self.report(list(exc.diagnostics))
            return Outcome("broken", diagnostics=list(exc.diagnostics), seconds=time.perf_counter() - t0)
        except Exception as exc:            # never a traceback in the middle of a session
            d = Diagnostic(code_for("play.watch"), "play.watch", Severity.ERROR, f"{self.path}: the save could not be read ({exc})")
            self.report([d])
            return Outcome("broken", diagnostics=[d], seconds=time.perf_counter() - t0)
        diff = diff_projects(self.good, project)
        if shader_changed and diff.structural is None:
            diff.structural = "a shader file changed"
        if diff.structural is None and not diff.edits:
            self.good = project
            return Outcome("unchanged", seconds=time.perf_counter() - t0)
        if diff.structural is None:
            for edit in diff.edits:
                self.player.sim.set_value(self._running[edit.path], edit.name, edit.value)
            self.good = project
            return Outcome("applied", edits=diff.edits, seconds=time.perf_counter() - t0)
        self._rebuild(project, graph)
        return Outcome("rebuilt", reason=diff.structural, seconds=time.perf_counter() - t0)

    def _rebuild(self, project, graph) -> None:
        old = self.player
        at, clock, step = old.time, old.clock, 1.0 / 60.0
        old.release()
        self._adopt(project, graph)
        self.player.clock = clock
        if at > 0:
            self.player.seek(at, step)

    def release(self) -> None:
        if self.player is not None:
            self.player.release()
            self.player = None


def write_atomically(output: str, write: Callable[[str], None]) -> None:
    """`write(temporary path)` then rename it over `output`: an image viewer never sees a
    half-written file. The temporary name keeps the suffix (the writer goes by it)."""
    target = Path(output)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.stem}.live-{os.getpid()}{target.suffix}")
    write(str(tmp))
    os.replace(tmp, target)


def watch_loop(session: LiveSession, *, on_change: Callable[[Outcome], None],
               stop: threading.Event | None = None, frame_ms: int = 16, debounce_ms: int = 30,
               on_turn: Callable[[object], None] | None = None) -> None:
    """Play `session` headless until `stop` is set, the Player advanced by the wall time
    between turns; each relevant save -> session.reload() -> on_change(outcome).
    `on_turn(player)` hears every turn (the watcher is running from the first one)."""
    import watchfiles   # lazy: only --watch needs it

    stop = stop or threading.Event()
    last = time.perf_counter()
    folders = watched_folders(session.good, session.path)
    for changes in watchfiles.watch(*folders, stop_event=stop, debounce=debounce_ms, step=5,
                                    rust_timeout=frame_ms, yield_on_timeout=True, raise_interrupt=False):
        now = time.perf_counter()
        session.player.advance(min(now - last, MAX_WALL_STEP))
        last = now
        if on_turn is not None:
            on_turn(session.player)
        hits = [f for _, f in changes if relevant(session.good, session.path, f)]
        if not hits:
            continue
        shader = any(Path(f).suffix.lower() in SHADER_SUFFIXES for f in hits)
        outcome = session.reload(shader_changed=shader)
        on_change(outcome)
        last = time.perf_counter()       # the reload's wall time is not effect time
        if outcome.kind != "broken":
            new = watched_folders(session.good, session.path)
            if new != folders:           # a folder project gained a folder: watch it too
                folders = new
                return watch_loop(session, on_change=on_change, stop=stop, frame_ms=frame_ms,
                                  debounce_ms=debounce_ms, on_turn=on_turn)


class Watcher:
    """The watcher on a thread of its own, for a loop that is not the watcher's (the window):
    it queues the relevant saves; `poll()`, called from the loop's thread (the GL one),
    reloads the session when there was one and returns the Outcome (else None)."""

    def __init__(self, session: LiveSession, debounce_ms: int = 30):
        import watchfiles   # lazy: only --watch needs it
        self.session = session
        self.stop = threading.Event()
        self._saves: queue.Queue = queue.Queue()
        self._watchfiles = watchfiles
        self.ready = threading.Event()      # set once the watcher runs
        self._thread = threading.Thread(target=self._run, args=(debounce_ms,), daemon=True)
        self._thread.start()

    def _run(self, debounce_ms: int) -> None:
        folders = watched_folders(self.session.good, self.session.path)
        for changes in self._watchfiles.watch(*folders, stop_event=self.stop, debounce=debounce_ms, step=5,
                                              rust_timeout=50, yield_on_timeout=True, raise_interrupt=False):
            self.ready.set()
            hits = [f for _, f in changes if relevant(self.session.good, self.session.path, f)]
            if hits:
                self._saves.put(hits)

    def pending(self) -> bool:
        return not self._saves.empty()

    def poll(self) -> Outcome | None:
        hits = []
        while not self._saves.empty():
            hits.extend(self._saves.get_nowait())
        if not hits:
            return None
        return self.session.reload(shader_changed=any(Path(f).suffix.lower() in SHADER_SUFFIXES for f in hits))

    def close(self) -> None:
        self.stop.set()
        self._thread.join(timeout=5)

