"""A running Simulation's particles carried into a new one built for a new load of the same
project (the live preview, kzplayer.render.live; docs/play.md "Live preview").

The new Simulation shares the old one's compiled programs (`Simulation(..., programs=)`),
which are cached by their text: only a program whose text changed is compiled, which after
a shader save is exactly the programs that include that file. Then, system by system
(matched by path, else by order):

* the same program texts (the same materials, levels, spaces, switches: what the step
  computes with is only parameter words): the new system takes over the old one's storage
  (particles, serials, ages, free stacks, trails, Event Buffers) and clock, and runs on with
  the new parameter words; pools of a new size keep their live particles, as a value edit
  does (SystemRunner._relayout);
* other programs (an emitter added, a material slot changed, a shader edited): the system
  starts afresh and `rerun` steps it alone from 0 to the running time, nothing drawn, in
  the frames a run from 0 would take: its state is the one a fresh run gives (each system
  is simulated on its own: a step reads only its own buffers and parameters).

A save of shader files alone needs no new Simulation: `recompile` generates and compiles
again the programs of the systems made of those files, in place, and starts those systems
afresh for `rerun`; every other system is left untouched.
"""
from __future__ import annotations

import math

from kzplayer.diagnostics import KzError
from kzplayer.gpu.refresh import refresh
from kzplayer.gpu.simulation import _STEP_EPSILON
from kzplayer.gpu.word_edit import rewrite_words

_PROGRAM_STATE = ("code", "_code_key", "_bakes", "_generator", "programs", "image_io")


def match(new_sim, old_sim) -> dict:
    """{new runner: old runner}: the same ParticleSystem path, then the rest in order."""
    old_by_path = {r.system.item.path: r for r in old_sim.runners}
    pairs, left = {}, []
    for runner in new_sim.runners:
        old = old_by_path.pop(runner.system.item.path, None)
        if old is None:
            left.append(runner)
        else:
            pairs[runner] = old
    unmatched = [r for r in old_sim.runners if r.system.item.path in old_by_path]
    pairs.update(zip(left, unmatched))
    return pairs


def same_programs(new, old) -> bool:
    """The two runners' systems compute alike: the same program texts on the same I/O."""
    if new.code is None or old.code is None or old.storage is None or new.image_io != old.image_io:
        return False
    if len(new.system.members) != len(old.system.members):
        return False
    return {k: s.text for k, s in new.code.sources.items()} == {k: s.text for k, s in old.code.sources.items()}


def carry(new_sim, old_sim) -> tuple[list, list]:
    """Move the old systems' state into the new Simulation where their programs are the
    same; returns (kept, fresh) runners of `new_sim` (fresh ones are still at t = 0)."""
    old_sim.take_stats(flush=True)           # figures of the old pools are the old run's
    kept, fresh = [], []
    pairs = match(new_sim, old_sim)
    for runner in new_sim.runners:
        old = pairs.get(runner)
        if old is not None and same_programs(runner, old):
            _take(runner, old)
            kept.append(runner)
        else:
            fresh.append(runner)
    new_sim.frames = old_sim.frames          # frame numbers of stats and host events go on
    new_sim.dropped_steps = dict(old_sim.dropped_steps)
    new_sim.timings = old_sim.timings
    return kept, fresh


def _take(new, old) -> None:
    layout = new.storage.layout
    new.storage.release()                    # the fresh storage made for it: not needed
    new.storage, old.storage = old.storage, None
    for em, was in zip(new.system.members, old.system.members):
        em.buffers = was.buffers             # views of the storage taken over
        was.buffers = None
        em.totals, em.event_totals = was.totals, was.event_totals
    system, was = new.system, old.system
    system.steps, system.runs, system.clock = was.steps, was.runs, was.clock
    if new.storage.layout.key != layout.key:
        new._relayout(layout)                # new pool sizes: the live particles kept
    # (its table and parameter blocks were written for a layout of this key already)


def recompile(sim, files) -> list | None:
    """A save of shader `files`, in place: the systems whose programs are made of one of them
    get their programs generated and compiled again (only the changed texts compile), then
    start afresh (to be re-run); the others are left as they are. Returns those runners;
    None when a fixed pass is made of one of the files (a new Simulation is needed then).
    A program that does not compile raises KzError with every system as it was."""
    files = set(files)
    passes = [p for kinds in sim._passes.values() for p in kinds.values()]
    if any(files & sim.programs.paths_of(p) for p in passes):
        return None
    runners = [r for r in sim.runners if any(files & s.paths for s in r.code.sources.values())]
    saved = [{name: getattr(r, name) for name in _PROGRAM_STATE} for r in runners]
    leave_out, sim.scene.leave_out_broken = sim.scene.leave_out_broken, False
    try:
        for runner in runners:
            runner._code_key = None             # its files changed: generated again
        refresh(sim, only={r.system.item.path for r in runners})
    except KzError:
        for runner, state in zip(runners, saved):
            for name, value in state.items():
                setattr(runner, name, value)
        raise
    finally:
        sim.scene.leave_out_broken = leave_out
    for runner in runners:                      # a fresh start: new storage, clock at 0
        runner.storage.release()
        runner.storage = None
        for em in runner.system.members:
            em.buffers, em.totals, em.event_totals = None, None, (0, 0)
        runner.system.steps, runner.system.runs, runner.system.clock = 0, 0, 0.0
    refresh(sim, only={r.system.item.path for r in runners})
    for runner in runners:
        for em in runner.system.members:
            em.totals = em.buffers.read_state()
    return runners


def rerun(sim, runners, t: float, dt: float, before_frame=None) -> None:
    """Step only `runners` (fresh systems of `sim`) from 0 to `t` seconds in frames of `dt`
    (a last shorter one for the rest), as Player.seek steps a whole Simulation, nothing
    drawn; `before_frame()` runs before each frame (the emission LOD of that frame)."""
    if not runners or t <= 0:
        return
    whole = max(int(math.floor(t / dt + 1e-9)), 0)
    frames = [dt] * whole
    rest = t - whole * dt
    if rest > 1e-9 * max(dt, 1.0):
        frames.append(rest)
    for d in frames:
        if before_frame is not None:
            before_frame()
        for runner in runners:
            system = runner.system
            if not system.visible:
                continue
            system.clock += d * system.framerate       # as Simulation.step_frame counts
            due = math.floor(system.clock + _STEP_EPSILON) - system.steps
            run = min(max(due, 0), sim.max_steps)
            for _ in range(run):
                runner.step()
                system.steps += 1
            if due > run:
                system.steps += due - run
    for runner in runners:
        for em in runner.system.members:
            em.totals = em.buffers.read_state()


def apply_value(sim, item, name: str, value):
    """Simulation.set_value for a running effect: the GPU side of only the systems the
    change reaches (the scene's Change.systems) is brought up to date. The figures of the
    frames in flight are taken first only when the change rebuilds a system's buffers (they
    belong to the old pools, as Simulation.set_value says): a change of parameter words
    only waits for no frame of the GPU (~10 ms at 200 emitters on llvmpipe), and the
    Player still gets those frames' figures. A change of some nodes' parameter words alone
    rewrites only those words (gpu.word_edit: ~3.5 ms instead of ~8 at 200 emitters)."""
    spaces = sim._spaces()
    change = sim.scene.set_value(item, name, value)
    _bring_up_to_date(sim, spaces, change)
    return change


def apply_bindings(sim, item, bindings):
    """apply_value for an item's edited bindings: only the bindings they reach evaluated
    again, the GPU side of only the systems whose values changed brought up to date (the
    frames in flight taken first where buffers are rebuilt, as apply_value says)."""
    spaces = sim._spaces()
    change = sim.scene.rebind(item, bindings)
    _bring_up_to_date(sim, spaces, change)
    return change


def _bring_up_to_date(sim, spaces: dict, change) -> None:
    if _lays_out(sim, change):
        sim.take_stats(flush=True)
    elif rewrite_words(sim, change):
        return                                  # only parameter words changed: those were written
    sim._update(spaces, only=set(change.systems))


def _lays_out(sim, change) -> bool:
    """Whether a change may lay a system's buffers out anew: a pool, a space, a level, or a
    material (a trail's position history) changed."""
    return change.rebuild or any((spec := sim.catalog.property(name)) is not None and spec.slot
                                 for _, name in change.values)


def reload_meshes(sim) -> None:
    """Read the mesh emitters' and colliders' files again (a save of a mesh): new tables
    where a mesh changed, no program compiled, the particles kept."""
    sim.take_stats(flush=True)
    sim._refresh()


def forget_unused(sim) -> None:
    """Free the compiled programs and the generated text that no system of `sim` (the one
    now running) uses: what the systems rebuilt by a save ran before."""
    used = [p for r in sim.runners for p in r.programs.values()]
    used += [p for passes in sim._passes.values() for p in passes.values()]
    sim.programs.keep_only(used)
    sim.programs.code.keep_only(r._generator.spec for r in sim.runners if r._generator is not None)
