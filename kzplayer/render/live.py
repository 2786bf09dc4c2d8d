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

A save that edits one literal (a property's value, a short binding's expression) and
nothing else is read without reading the project again (render/live_text.py: the text
of that element alone typed as the loader types it, a bad one reported at the same place);
the full read of the file follows the frame that shows it, in `settle`, with the checks,
and must find the same edit (else the fast one is undone and the full read applied).

render/live_loop.py drives a session: `watch_loop` headless, `Watcher` for the window.
"""
from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from kzplayer.codes import code_for
from kzplayer.diagnostics import Diagnostic, KzError, Severity
from kzplayer.gpu.transplant import apply_bindings, apply_value, reload_meshes
from kzplayer.project.assets import list_assets
from kzplayer.render import live_text
from kzplayer.render.live_diff import (SHADER_SUFFIXES, Diff, Edit, _same, diff_projects, relevant,  # noqa: F401
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
        self._pending = None      # (t0, project, graph, undo, fast) of a save applied, not yet checked
        self._texts: dict = {}    # a project file -> its last text and literals (live_text.FileText)
        self.fast = False         # the last save was one literal (`_fast`): no new file, no new folder
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
        self._baseline()
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
        fast = self._fast(kinds, t0)
        if fast is not None:
            return fast
        player = self.player
        if changed and not kinds["project"] and not self.problems:
            # only shaders, textures, meshes: the project is as it was (and as it runs)
            return self._apply_loaded(player.project, player.graph, Diff(), kinds, t0, loaded=False)
        try:
            project, graph = self._load(self.path)
        except KzError as exc:
            return self._broken(list(exc.diagnostics), t0)
        except Exception as exc:            # never a traceback in the middle of a session
            return self._broken([Diagnostic(code_for("play.watch"), "play.watch", Severity.ERROR,
                                            f"{self.path}: the save could not be read ({exc})")], t0)
        return self._apply_loaded(project, graph, diff_projects(self.good, project), kinds, t0)

    def _apply_loaded(self, project, graph, diff: Diff, kinds, t0: float, loaded: bool = True) -> Outcome:
        """The update of a save read in full (`loaded`), or of only assets and shaders."""
        player = self.player
        self.fast = False
        if loaded:
            self._texts = {}                # the fast path's baselines: read again from this load
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
            new_items = {item.path: item for item in project.walk()}
            try:
                # copies: the new load's own bindings stay its (the save's checks read them)
                undo = self._rebind({path: [dataclasses.replace(b, owner=None) for b in new_items[path].bindings]
                                     for path in diff.rebound}, diff, out)
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
            self._pending = (t0, project, graph, undo, None)
        out.assets = self._reload_assets(kinds)
        if out.kind == "unchanged" and (out.assets or kinds["shader"]):
            out.kind = "reloaded"
        out.compiled = player.sim.programs.compiled - compiled
        self.problems = []
        out.seconds = time.perf_counter() - t0
        return out

    def _fast(self, kinds, t0: float) -> Outcome | None:
        """A save of one project file that edits one literal and nothing else, applied in
        place without reading the project (render/live_text.py); None: read it in full.
        Only where the checks come after the frame: `settle` reads the file in full then."""
        files = kinds["project"]
        if (self._check is None or self.problems or len(files) != 1 or self.good is None
                or kinds["shader"] or kinds["texture"] or kinds["mesh"]):
            return None
        file = files[0]
        before = self._texts.get(file) or live_text.index(self.good, file)
        found = live_text.read(file)
        edit = live_text.find(before, *found) if before is not None and found is not None else None
        if edit is None:
            return None
        lit, good = edit.literal, self.good
        item = good.find(lit.item)
        was = before.text[lit.start:lit.end]
        if item is None or lit.item not in self._running or was != live_text.text_of(item, lit):
            return None                   # (the baseline is not this load's: read in full)
        out = Outcome("applied")
        texts = dict(self._texts)
        if lit.name is not None:
            value, problems = live_text.type_literal(good.catalog, lit.name, edit)
            if problems:
                return self._broken(problems, t0)
            if isinstance(value, str):
                return None               # a file name: its asset is watched from a full read
            old = item.properties[lit.name].value
            out.edits = [] if _same(old, value) else [Edit(lit.item, lit.name, value)]
            done = self._apply_edits(out.edits)
            out.kind = "applied" if out.edits else "unchanged"
            undo = lambda: self._unapply(good, done)       # noqa: E731
        else:
            copies = [live_text.rebound(b, edit) if k == lit.binding else dataclasses.replace(b, owner=None)
                      for k, b in enumerate(item.bindings)]
            try:
                undo = self._rebind({lit.item: copies}, Diff(rebound=[lit.item]), out)
            except KzError as exc:
                return self._broken(list(exc.diagnostics), t0)
            out.reason = f"{lit.item}: its bindings changed"        # as diff_projects says it
        self._texts[file] = edit.after

        def unfast():
            undo()
            self._texts = texts
        self._pending = (t0, None, None, unfast, (file, out))
        self.problems, self.fast = [], True
        out.seconds = time.perf_counter() - t0
        return out

    def settle(self) -> Outcome | None:
        """Run the checks of the last save (`check`), left till its first frame was drawn:
        None when it plays (or nothing waits), else the save is undone, the last good state
        plays on as it was, and the "broken" Outcome says why (report and problems too).
        A fast save (`_fast`) is read in full first: the same edit, or it is undone and the
        full read applied (its Outcome returned, checked)."""
        if self._pending is None:
            return None
        t0, project, graph, undo, fast = self._pending
        self._pending = None
        if fast is not None:
            file, out = fast
            try:
                project, graph = self._load(self.path)
            except Exception as exc:        # a later save broke it: as apply reports it
                undo()
                return self._broken(list(getattr(exc, "diagnostics", None) or [Diagnostic(
                    code_for("play.watch"), "play.watch", Severity.ERROR,
                    f"{self.path}: the save could not be read ({exc})")]), t0)
            if not live_text.same_edit(diff_projects(self.good, project), out.edits, out.reason, project,
                                       self._running):
                undo()                      # (a later save already, or a doubt): the full read
                applied = self._apply_loaded(project, graph, diff_projects(self.good, project),
                                             self._kinds([file]), t0)
                return self.settle() or applied
            kept = self._texts.get(file)
            if out.reason is not None:
                self._adopt(project, self.player.project)
            self.good = project
            src = live_text.source_of(project, file)
            self._texts = {file: kept} if kept is not None and src is not None and src.text == kept.text else {}
        try:
            self._check(project, graph)
        except KzError as exc:
            undo()
            return self._broken(list(exc.diagnostics), t0)
        self._baseline()
        return None

    def _baseline(self) -> None:
        """The fast path's baseline of a one-file project, made now (after a frame), not by
        the next save."""
        main = Path(self.path).resolve()
        if self._check is not None and main.is_file() and main not in self._texts:
            found = live_text.index(self.good, main)
            if found is not None:
                self._texts[main] = found

    def _rebind(self, bindings: dict, diff: Diff, out: Outcome) -> Callable[[], None]:
        """Bindings whose expressions alone changed ({item path: the new bindings, copies}),
        and values: in place on the running graph, only what they reach evaluated again, only
        the systems whose values changed refreshed. Returns what undoes it (a save its checks
        refuse)."""
        sim, good = self.player.sim, self.good
        before = []
        for path, new in bindings.items():
            item = self._running[path]
            before.append((item, list(item.bindings)))
            self.player.reread(apply_bindings(sim, item, new))
        values = self._apply_edits(diff.edits)
        out.kind, out.reason = "applied", diff.structural
        out.kept = [r.system.item.path for r in sim.runners]

        def undo():
            self._unapply(good, values)
            for item, was in reversed(before):
                self.player.reread(apply_bindings(self.player.sim, item, was))
        return undo

    def _apply_edits(self, edits) -> list:
        """Each edited value to the running Simulation in place; returns (item, name, value
        before) of each, what _unapply puts back."""
        sim = self.player.sim
        done = []
        for edit in edits:
            item = self._running[edit.path]
            done.append((item, edit.name, sim.scene.graph.value(item, edit.name)))
            self.player.reread(apply_value(sim, item, edit.name, edit.value))
        return done

    def _unapply(self, good, done) -> None:
        """Undo values applied in place: the running graph's values from before, in reverse."""
        for item, name, value in reversed(done):
            self.player.reread(apply_value(self.player.sim, item, name, value))
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
