"""A running Player brought up to date by a live save in place (render/live.py, docs/play.md
"Live preview"): the same Player, camera, renderer and clock, its Simulation rebuilt or
recompiled system by system (kzplayer.gpu.transplant).

    kept, rerun = rebuild(player, project, graph)    # a new load of the project
    kept, rerun = recompile(player, files) or ...    # a save of shader files alone

Both set the Player's own state the way Player.restart does (its listeners, its level of
detail), and re-run the systems that start afresh to `player.time` in 1/60 s frames with
the emission LOD of each frame, as Player.seek would.
"""
from __future__ import annotations

from kzplayer.gpu import Simulation
from kzplayer.gpu.host_events import DEFAULT_CAP
from kzplayer.gpu.transplant import carry, forget_unused, recompile as recompile_systems, rerun
from kzplayer.render.frame import FrameBuilder
from kzplayer.render.lod import LevelOfDetail
from kzplayer.scene import Scene

STEP = 1.0 / 60.0


def rebuild(player, project, graph, step: float = STEP) -> tuple[list[str], list[str]]:
    """Bring `player` to a new load of its project at the same time: a system whose programs
    are the same text keeps its particles and clock and runs on with the new parameter
    words; the others start afresh and are re-run alone to `player.time`; only the program
    texts that changed are compiled. Returns the (kept, re-run) ParticleSystem paths. A
    project that does not build (a shader that does not compile) raises KzError, and the
    running state is left as it was."""
    player.flush_stats()
    old = player.sim
    scene = Scene(project, graph, seed=player.seed, leave_out_broken=False)
    sim = Simulation(player.ctx, scene, events_cap=player.events_cap or DEFAULT_CAP, programs=old.programs)
    sim.gpu_timers = getattr(old, "gpu_timers", None)          # where the Player times the GPU
    try:
        for emitter, callback, kwargs in player._listening:
            if emitter is None or any(em.path == str(emitter).strip("/") for em in sim.emitters):
                sim.listen(emitter, callback, **kwargs)
        kept, fresh = carry(sim, old)
    except BaseException:
        sim.release()
        raise
    scene.leave_out_broken = True        # from now on as the Player's own: set_value leaves out
    # the new simulation runs on the old one's programs: whoever owned them still does
    sim._own_programs, old._own_programs = old._own_programs, False
    old.release()
    player.sim, player.project, player.graph, player.scene = sim, project, graph, scene
    player.map_systems(sim)
    player.frames = FrameBuilder(scene)
    player.lod = LevelOfDetail(project.catalog, enabled=player.lod.enabled)
    player._lod_needed = None
    player._lod_frames.clear()
    _rerun(player, fresh, step)
    player._say(sim.diagnostics)
    return [r.system.item.path for r in kept], [r.system.item.path for r in fresh]


def recompile(player, files, step: float = STEP) -> tuple[list[str], list[str]] | None:
    """A save of shader `files` in place: the systems whose programs are made of them are
    compiled again and re-run alone to `player.time`, the others go on untouched. Returns
    (kept, re-run) paths; None when a fixed pass is made of one of the files (`rebuild`
    then). KzError, with nothing changed, when one does not compile."""
    player.flush_stats()
    runners = recompile_systems(player.sim, files)
    if runners is None:
        return None
    _rerun(player, runners, step)
    return ([r.system.item.path for r in player.sim.runners if r not in runners],
            [r.system.item.path for r in runners])


def _rerun(player, runners, step: float) -> None:
    sim = player.sim
    rerun(sim, runners, player.time, step, lambda: sim.set_emission_lod(player._plan_lod()[0]))
    forget_unused(sim)
