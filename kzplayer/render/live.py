"""Live preview (`kzplayer play FILE --watch`, docs/play.md "Live preview"): watch the
project's files, and on a save reload, diff against the running project and bring the
running Player up to date, touching only what the save changed.

    session = LiveSession(path, load=load_for_play, make_player=make, report=show)
    session.start()                     # the first good load and its Player
    outcome = session.reload([file])    # after a save: "applied", "rebuilt", "reloaded", "broken", "unchanged"
    session.problems                    # the diagnostics of the last broken save ([] after a good one)

What a save does (render/live_diff.py's diff_projects is GL-free):
- only property values changed: each new value goes to the running Simulation through
  `apply_value` (kzplayer.gpu.transplant: the binding graph re-evaluates what depends on
  it, the systems it reaches get new parameter words; no program compiled, the particles
  keep flying, the clock keeps its time) -> "applied";
- only binding expressions (and values) changed, what they bind the same: the running graph
  compiles just those bindings and re-evaluates only what depends on them
  (BindingGraph.rebind), and only the systems whose values changed get new parameter words
  (`apply_bindings`) -> "applied" in place, no new Simulation;
- anything else in the project (a binding added or retargeted, an alias, an item added, removed, renamed
  or moved, a material's shader file) or a shader file saved: `rebuild` (render/rebuild.py) builds the
  new project's Simulation on the old one's compiled programs (only changed program texts
  compile: after a shader save, the programs that include it), and each ParticleSystem whose
  programs are the same keeps its particles and clock with the new parameter words (a
  binding edit: "applied" in place); a system whose programs changed starts afresh and is
  re-run alone to the running time (kzplayer.gpu.transplant) -> "rebuilt" (which ones);
- a texture or mesh file saved: that asset only is read again (the renderer's texture; a
  mesh emitter's or collider's table) -> "reloaded";
- a save that does not load or build (XML error, unknown material, a binding that cannot
  compute, a shader that does not compile) -> "broken": its diagnostics go to `report` and
  `problems`, the last good state keeps playing, the next save is diffed against it.
  With a `check` (commands/watch.py's check_live: what `validate` finds), a save is first
  applied (`apply`) and drawn, and its whole-project checks run after that frame (`settle`);
  one they refuse is undone (values and bindings set back, a rebuild rebuilt on the last
  good project: nothing stepped in between, so the state is the last good one) -> "broken".

`watch_loop` is the headless driver: watchfiles (a real file watcher) yields the changes,
the Player advances by the wall time in between, and `on_change` hears each outcome.
`Watcher` runs watchfiles on a thread of its own for the window's loop (render/window.py),
which polls it between frames: all GL work stays on the loop's thread.
"""
from __future__ import annotations

import dataclasses
import os
import queue
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from kzplayer.codes import code_for
from kzplayer.diagnostics import Diagnostic, KzError, Severity
from kzplayer.gpu.transplant import apply_bindings, apply_value, reload_meshes
from kzplayer.project.assets import list_assets
from kzplayer.render.live_diff import (SHADER_SUFFIXES, Diff, Edit, diff_projects, relevant,  # noqa: F401
                                       watched_folders)
from kzplayer.render.rebuild import rebuild, recompile

MESH_SUFFIXES = (".glb", ".gltf", ".obj", ".bin", ".mtl")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tga", ".gif", ".tif", ".tiff", ".webp")
MAX_WALL_STEP = 0.1        # a stall (a rebuild, a slow save) does not explode the effect


@dataclass
class Outcome:
    kind: str                                  # applied | rebuilt | reloaded | broken | unchanged
    edits: list[Edit] = field(default_factory=list)
    reason: str | None = None                  # what made it rebuild (a binding, an item, a shader)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    seconds: float = 0.0                       # wall time of the reload and the update
    kept: list[str] = field(default_factory=list)      # systems that kept their particles (a rebuild)
    rerun: list[str] = field(default_factory=list)     # systems rebuilt and re-run to the time
    compiled: int = 0                          # simulation programs compiled by this save
    assets: list[str] = field(default_factory=list)    # textures and meshes read again


class LiveSession:
    """The running Player of one project file, kept up to date with its saves.

    `load(path)` -> (project, graph), raising KzError for a project that does not play
    (kzplayer.commands.watch.load_live); `make_player(project, graph)` -> a Player;
    `report(diagnostics)` hears what a broken save found; `problems` holds it until the
    next good save (the window's HUD draws it)."""

    def __init__(self, path: str, *, load: Callable, make_player: Callable,
                 report: Callable[[list[Diagnostic]], None] = lambda d: None, check: Callable | None = None):
        self.path = str(path)
        self._load = load
        # check(project, graph): the whole-project checks of a load, raising KzError for one
        # that does not play; given, `load` leaves them out and a save runs them after its
        # first frame (settle), undoing the save when they fail
        self._check = check
        self._pending = None      # (t0, project, graph, undo) of a save applied, not yet checked
        self._make_player = make_player
        self.report = report
        self.player = None
        self.good = None          # the last good load (what the next save is diffed against)
        self.problems: list[Diagnostic] = []     # the last save's diagnostics while it is broken
        self.files: set[Path] = set()            # what the project plays from besides its .kzm files
        self._assets: dict[Path, str] = {}       # its assets' kinds (kzplayer.project.assets)
        self._running = None      # the project the Player plays: {path: item}

    def start(self, project=None, graph=None):
        """The first Player: of `project` and `graph` when the caller loaded them already."""
        if project is None:
            project, graph = self._load(self.path)
            if self._check is not None:
                self._check(project, graph)
        self.player = self._make_player(project, graph)
        broken = [d for d in self.player.sim.diagnostics if d.rule == "shader.compile" and d.severity == Severity.ERROR]
        if broken:          # what a later save may not do, the first may not either
            self.release()
            raise KzError(broken, exit_code=1)
        self._adopt(project, self.player.project)
        return self.player

    def _adopt(self, project, running) -> None:
        self.good = project
        self._running = {item.path: item for item in running.walk()}
        self._assets = {a.path.resolve(): a.kind for a in list_assets(project).files}
        self.files = set(self._assets) | self.player.sim.programs.paths()
        if self.player.renderer is not None:
            self.files |= self.player.renderer.programs.paths()

    def folders(self) -> list[str]:
        return watched_folders(self.good, self.path, self.files)

    def relevant(self, changed: str) -> bool:
        return relevant(self.good, self.path, changed, self.files)

    @property
    def checks_later(self) -> bool:
        """Whether a save's checks can wait for its frame: `apply`, draw, `settle`."""
        return self._check is not None

    def reload(self, changed=()) -> Outcome:
        """Bring the Player up to date after a save of the files `changed` (paths), checked."""
        out = self.apply(changed)
        return self.settle() or out

    def apply(self, changed=()) -> Outcome:
        """`reload` but for the save's checks (with a `check`): `settle()` runs them, to be
        called once the frame that shows the save is drawn (before the effect steps on)."""
        if self._pending is not None:
            self.settle()             # a save not checked yet: its checks first
        t0 = time.perf_counter()
        changed = [Path(f).resolve() for f in changed]
        kinds = self._kinds(changed)
        player = self.player
        if changed and not kinds["project"] and not self.problems:
            # only shaders, textures, meshes: the project is as it was (and as it runs)
            project, graph, diff, loaded = player.project, player.graph, Diff(), False
        else:
            loaded = True
            try:
                project, graph = self._load(self.path)
            except KzError as exc:
                return self._broken(list(exc.diagnostics), t0)
            except Exception as exc:            # never a traceback in the middle of a session
                return self._broken([Diagnostic(code_for("play.watch"), "play.watch", Severity.ERROR,
                                                f"{self.path}: the save could not be read ({exc})")], t0)
            diff = diff_projects(self.good, project)
        compiled = player.sim.programs.compiled
        if kinds["shader"] and player.renderer is not None:
            # the drawing's programs made of a saved file, compiled again (all or none)
            problems = player.renderer.programs.remake(kinds["shader"])
            if problems:
                return self._broken(problems, t0)
        sim_shaders = [f for f in kinds["shader"] if f in player.sim.programs.paths()
                       or player.renderer is None or f not in player.renderer.programs.paths()]
        out = Outcome("unchanged", edits=diff.edits)
        undo = None
        if diff.rebound and not sim_shaders:
            try:
                undo = self._rebind(project, diff, out)
            except KzError as exc:        # (a pool past the driver's limits)
                return self._broken(list(exc.diagnostics), t0)
            self._adopt(project, player.project)
        elif diff.structural is not None or sim_shaders:
            before = (self.good, player.project, player.graph)
            try:
                done = None if diff.structural or diff.edits else recompile(player, sim_shaders)
                out.kept, out.rerun = done or rebuild(player, project, graph)
            except KzError as exc:
                return self._broken(list(exc.diagnostics), t0)
            out.reason = diff.structural or f"{', '.join(f.name for f in sim_shaders)} changed"
            out.kind = "rebuilt" if out.rerun else "applied"
            self._adopt(project if loaded else self.good, player.project)
            undo = lambda: self._unbuild(*before)      # noqa: E731
        else:
            done = self._apply_edits(diff.edits)
            out.kind = "applied" if diff.edits else "unchanged"
            good = self.good
            if any(isinstance(e.value, str) for e in diff.edits):
                self._adopt(project, player.project)      # a file name: a texture, a mesh to watch
            if loaded:
                self.good = project
            undo = lambda: self._unapply(good, done)       # noqa: E731
        if loaded and self._check is not None:
            self._pending = (t0, project, graph, undo)
        out.assets = self._reload_assets(kinds)
        if out.kind == "unchanged" and (out.assets or kinds["shader"]):
            out.kind = "reloaded"
        out.compiled = player.sim.programs.compiled - compiled
        self.problems = []
        out.seconds = time.perf_counter() - t0
        return out

    def settle(self) -> Outcome | None:
        """Run the checks of the last save (`check`), left till its first frame was drawn:
        None when it plays (or nothing waits), else the save is undone, the last good state
        plays on as it was, and the "broken" Outcome says why (report and problems too)."""
        if self._pending is None:
            return None
        t0, project, graph, undo = self._pending
        self._pending = None
        try:
            self._check(project, graph)
        except KzError as exc:
            undo()
            return self._broken(list(exc.diagnostics), t0)
        return None

    def _rebind(self, project, diff: Diff, out: Outcome) -> Callable[[], None]:
        """Bindings whose expressions alone changed, and values: in place on the running graph,
        only what they reach evaluated again, only the systems whose values changed refreshed.
        Returns what undoes it (a save its checks refuse)."""
        sim, good, new_items = self.player.sim, self.good, {item.path: item for item in project.walk()}
        bindings = []
        for path in diff.rebound:
            item = self._running[path]
            bindings.append((item, list(item.bindings)))
            # copies: the new load's own bindings stay its (the save's checks read them)
            apply_bindings(sim, item, [dataclasses.replace(b, owner=None) for b in new_items[path].bindings])
        values = self._apply_edits(diff.edits)
        out.kind, out.reason = "applied", diff.structural
        out.kept = [r.system.item.path for r in sim.runners]

        def undo():
            self._unapply(good, values)
            for item, before in reversed(bindings):
                apply_bindings(self.player.sim, item, before)
        return undo

    def _apply_edits(self, edits) -> list:
        """Each edited value to the running Simulation in place; returns (item, name, value
        before) of each, what _unapply puts back."""
        sim = self.player.sim
        done = []
        for edit in edits:
            item = self._running[edit.path]
            done.append((item, edit.name, sim.scene.graph.value(item, edit.name)))
            apply_value(sim, item, edit.name, edit.value)
        return done

    def _unapply(self, good, done) -> None:
        """Undo values applied in place: the running graph's values from before, in reverse."""
        for item, name, value in reversed(done):
            apply_value(self.player.sim, item, name, value)
        self._adopt(good, self.player.project)

    def _unbuild(self, good, project, graph) -> None:
        """Undo a rebuild: the project that ran before, rebuilt on the same programs (the
        systems it re-runs are deterministic: the state they had)."""
        rebuild(self.player, project, graph)
        self._adopt(good, self.player.project)

    def _kinds(self, changed: list[Path]) -> dict[str, list[Path]]:
        """The changed files by what they are to the player: shader, texture, mesh, project
        (an asset by the kind the project names it with, else by its suffix)."""
        out = {"shader": [], "texture": [], "mesh": [], "project": []}
        programs = self.player.sim.programs.paths()
        for f in changed:
            suffix = f.suffix.lower()
            kind = self._assets.get(f) or ("shader" if suffix in SHADER_SUFFIXES or f in programs else
                                           "mesh" if suffix in MESH_SUFFIXES else
                                           "texture" if suffix in IMAGE_SUFFIXES else "project")
            out[kind if kind in out else "project"].append(f)
        return out

    def _reload_assets(self, kinds) -> list[str]:
        """Read again the textures and meshes a save changed, nothing else."""
        player, done = self.player, []
        if kinds["texture"] and player.renderer is not None:
            player.renderer.textures.forget(kinds["texture"])
            done += [str(f) for f in kinds["texture"]]
        if kinds["mesh"]:
            reload_meshes(player.sim)
            done += [str(f) for f in kinds["mesh"]]
        return done

    def _broken(self, diagnostics: list[Diagnostic], t0: float) -> Outcome:
        self.problems = diagnostics
        self.report(diagnostics)
        return Outcome("broken", diagnostics=diagnostics, seconds=time.perf_counter() - t0)

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
    between turns; each relevant save -> session.reload(files) -> on_change(outcome).
    `on_turn(player)` hears every turn (the watcher is running from the first one)."""
    import watchfiles   # lazy: only --watch needs it

    stop = stop or threading.Event()
    last = time.perf_counter()
    folders = session.folders()
    for changes in watchfiles.watch(*folders, stop_event=stop, debounce=debounce_ms, step=5,
                                    rust_timeout=frame_ms, yield_on_timeout=True, raise_interrupt=False):
        now = time.perf_counter()
        session.player.advance(min(now - last, MAX_WALL_STEP))
        last = now
        if on_turn is not None:
            on_turn(session.player)
        hits = sorted({f for _, f in changes if session.relevant(f)})
        if not hits:
            continue
        outcome = session.apply(hits) if session.checks_later else session.reload(hits)
        on_change(outcome)               # the frame that shows the save (its output written)
        checked = session.settle()       # then the whole-project checks: a broken save undone
        if checked is not None:
            on_change(outcome := checked)
        last = time.perf_counter()       # the reload's wall time is not effect time
        if outcome.kind != "broken":
            new = session.folders()
            if new != folders:           # a new include, asset or subfolder: watch it too
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
        folders = self.session.folders()
        for changes in self._watchfiles.watch(*folders, stop_event=self.stop, debounce=debounce_ms, step=5,
                                              rust_timeout=50, yield_on_timeout=True, raise_interrupt=False):
            self.ready.set()
            hits = [f for _, f in changes if self.session.relevant(f)]
            if hits:
                self._saves.put(hits)

    def pending(self) -> bool:
        return not self._saves.empty()

    def poll(self) -> Outcome | None:
        """The last save's checks once its frame was drawn (a broken one: its Outcome), else
        the queued saves applied (their checks left for the next poll)."""
        checked = self.session.settle()
        if checked is not None:
            return checked
        hits = []
        while not self._saves.empty():
            hits.extend(self._saves.get_nowait())
        if not hits:
            return None
        hits = sorted(set(hits))
        return self.session.apply(hits) if self.session.checks_later else self.session.reload(hits)

    def close(self) -> None:
        self.stop.set()
        self._thread.join(timeout=5)
