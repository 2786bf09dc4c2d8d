"""Memory barriers between the GPU's producers and consumers. llvmpipe runs dispatches one
after another on coherent memory, so a missing barrier shows nothing here; a real GPU
overlaps dispatches and caches stores. These tests record the GL calls the simulation and
the renderer make (moderngl's methods wrapped) and check the rules of the GL spec
(section 7.13.2, glMemoryBarrier) on a whole frame with every kind of dispatch:

* a dispatch after a dispatch: SHADER_STORAGE_BARRIER_BIT in between (SSBO stores and
  SSBO atomics are read by the next pass); a simulation program also reads image stores and
  atomics and the schedule the last pass wrote as a uniform block, so before one
  SHADER_IMAGE_ACCESS_BARRIER_BIT and UNIFORM_BARRIER_BIT too;
* glDispatchComputeIndirect: COMMAND_BARRIER_BIT since the dispatch that wrote the
  arguments;
* a draw reading a pool as an SSBO: SHADER_STORAGE_BARRIER_BIT since the last dispatch;
  an indirect draw (its instance count is the live count a dispatch wrote) also
  COMMAND_BARRIER_BIT;
* a CPU read or write of a buffer (glGetBufferSubData, glBufferSubData), or a buffer copy
  (glCopyBufferSubData: the stats ring, a resize, the live list handed to the renderer):
  BUFFER_UPDATE_BARRIER_BIT since the last dispatch.
"""
from __future__ import annotations

import moderngl
import numpy as np
import pytest

from kzplayer.gpu.events import read_events
from kzplayer.render.camera import Camera
from kzplayer.render.frame import FrameBuilder
from kzplayer.render.renderer import Renderer

from .conftest import make_project
from .test_colliders import GRAVITY, at, with_colliders
from .test_subemitters import dying, subemitter


@pytest.fixture
def calls(monkeypatch):
    """The GL calls of interest, in order: (kind, bits of a barrier, or the program of a
    dispatch); kinds 'dispatch', 'indirect', 'draw', 'draw-indirect', 'read', 'write', 'copy'."""
    log = []

    def wrap(cls, name, kind):
        original = getattr(cls, name)

        def recorded(self, *args, **kwargs):
            log.append((kind, self if kind in ("dispatch", "indirect") else None))
            return original(self, *args, **kwargs)
        monkeypatch.setattr(cls, name, recorded)

    wrap(moderngl.ComputeShader, "run", "dispatch")
    wrap(moderngl.ComputeShader, "run_indirect", "indirect")
    wrap(moderngl.VertexArray, "render", "draw")
    wrap(moderngl.VertexArray, "render_indirect", "draw-indirect")
    wrap(moderngl.Buffer, "read", "read")
    wrap(moderngl.Buffer, "write", "write")
    wrap(moderngl.Context, "copy_buffer", "copy")
    barrier = moderngl.Context.memory_barrier

    def recorded_barrier(self, barriers=moderngl.ALL_BARRIER_BITS, by_region=False):
        log.append(("barrier", int(barriers)))
        return barrier(self, barriers, by_region)
    monkeypatch.setattr(moderngl.Context, "memory_barrier", recorded_barrier)
    return log


SIMULATION = (moderngl.SHADER_STORAGE_BARRIER_BIT | moderngl.SHADER_IMAGE_ACCESS_BARRIER_BIT
              | moderngl.UNIFORM_BARRIER_BIT)


def violations(log, simulation_programs=()) -> list[str]:
    """Each consumer that follows a dispatch without the barrier bit it needs; a dispatch of
    one of `simulation_programs` also needs the simulation's bits since the last dispatch of
    one (what the renderer's passes write, the simulation never reads)."""
    need = {"dispatch": moderngl.SHADER_STORAGE_BARRIER_BIT,
            "indirect": moderngl.SHADER_STORAGE_BARRIER_BIT | moderngl.COMMAND_BARRIER_BIT,
            "draw": moderngl.SHADER_STORAGE_BARRIER_BIT,
            "draw-indirect": moderngl.SHADER_STORAGE_BARRIER_BIT | moderngl.COMMAND_BARRIER_BIT,
            "read": moderngl.BUFFER_UPDATE_BARRIER_BIT,
            "write": moderngl.BUFFER_UPDATE_BARRIER_BIT,
            "copy": moderngl.BUFFER_UPDATE_BARRIER_BIT}
    simulation = {id(p) for p in simulation_programs}
    found, pending, pending_sim = [], False, False
    since = 0                  # bits issued since the last dispatch
    since_sim = 0              # bits issued since the last dispatch of a simulation program
    for n, (kind, bits) in enumerate(log):
        if kind == "barrier":
            since |= bits
            since_sim |= bits
            continue
        if pending and since & need[kind] != need[kind]:
            found.append(f"call {n}: {kind} after a dispatch with barrier bits {since:#x}")
        is_sim = kind in ("dispatch", "indirect") and id(bits) in simulation
        if is_sim and pending_sim and since_sim & SIMULATION != SIMULATION:
            found.append(f"call {n}: a simulation {kind} after a simulation dispatch with barrier "
                         f"bits {since_sim:#x}")
        if kind in ("dispatch", "indirect"):
            pending, since = True, 0
        if is_sim:
            pending_sim, since_sim = True, 0
    return found


def _frame_project():
    """Emission (count + indirect emit), self-affect, an affector, a collider recording hits,
    events, and a subemitter fed by them: every dispatch site of a step."""
    project = make_project(
        emitters={"Source": dying(n=30, lifetime=0.1, **{"ParticleEmitter.SelfAffectMaterial": "Drag"}),
                  "Sub": subemitter("Source", per_event=2, capacity=200)},
        affectors=GRAVITY)
    return with_colliders(project, {"Floor": {"ParticleCollider.ColliderMaterial": "Collider_Plane",
                                              **at(0, -0.05, 0)}})


def test_every_consumer_of_a_dispatch_is_behind_the_barrier_it_needs(ctx, simulate, calls):
    project = _frame_project()
    sim = simulate(project)
    renderer = Renderer(ctx, (32, 24))
    builder = FrameBuilder(project, sim.graph)
    try:
        world = np.eye(4)
        world[2, 3] = 5.0
        for _ in range(4):
            sim.step_frame(2 / 60)
            frame = builder.build(sim)
            for em in frame.emitters:      # sorted and light-casting: every pass of the renderer
                em.sorting, em.cast_light = "Depth", True
            renderer.draw(frame, Camera(world))
            renderer.read()
            read_events(sim.emitters[0])
        sim.dump()
        source = sim.emitters[0]
        sim.set_value(source.item, "ParticleEmitter.MaximumAmount", 20)   # resize: read back, rewrite
        sim.step()
    finally:
        renderer.release()
    kinds = {kind for kind, _ in calls}
    assert {"dispatch", "indirect", "draw", "draw-indirect", "read", "write", "copy", "barrier"} <= kinds
    assert sim.stats[sim.emitters[1].path].alive > 0          # the subemitter really ran
    assert violations(calls, [p for p, _ in sim.programs._programs.values()]) == []


def test_the_checker_catches_a_missing_barrier(calls, ctx):
    """The rule checker itself: a read straight after a dispatch, and an indirect dispatch
    behind only a storage barrier, are both reported."""
    program = ctx.compute_shader("#version 430\nlayout(local_size_x=1) in;\n"
                                 "layout(std430, binding=0) buffer B { uint x[]; };\n"
                                 "void main() { x[0] = 1u; x[1] = 1u; x[2] = 1u; }")
    buf = ctx.buffer(reserve=12)
    buf.bind_to_storage_buffer(0)
    try:
        program.run(1)
        buf.read()
        ctx.memory_barrier(moderngl.SHADER_STORAGE_BARRIER_BIT)
        program.run_indirect(buf)
        ctx.memory_barrier(moderngl.BUFFER_UPDATE_BARRIER_BIT)
        buf.read()
    finally:
        buf.release()
        program.release()
    assert len(violations(calls)) == 2
    assert "read after a dispatch" in violations(calls)[0] and "indirect" in violations(calls)[1]


def test_the_checker_wants_the_simulations_bits_between_its_own_dispatches(calls, ctx):
    """A simulation program after a simulation program needs image and uniform bits too,
    even with another program's dispatch and full barrier in between only if that barrier
    came after the simulation's; after a renderer's dispatch alone it needs storage only."""
    source = ("#version 430\nlayout(local_size_x=1) in;\n"
              "layout(std430, binding=0) buffer B { uint x[]; };\nvoid main() { x[0] = 1u; }")
    sim, other = ctx.compute_shader(source), ctx.compute_shader(source)
    buf = ctx.buffer(reserve=4)
    buf.bind_to_storage_buffer(0)
    try:
        sim.run(1)
        ctx.memory_barrier(SIMULATION)
        other.run(1)
        ctx.memory_barrier(moderngl.SHADER_STORAGE_BARRIER_BIT)
        sim.run(1)                          # fine: the simulation's bits came after its dispatch
        ctx.memory_barrier(moderngl.SHADER_STORAGE_BARRIER_BIT)
        other.run(1)
        ctx.memory_barrier(moderngl.SHADER_STORAGE_BARRIER_BIT)
        sim.run(1)                          # missing: image and uniform since the last sim.run
    finally:
        buf.release()
        sim.release()
        other.release()
    found = violations(calls, [sim])
    assert len(found) == 1 and "call 8" in found[0] and "simulation dispatch" in found[0]


@pytest.mark.parametrize("bit", ["SHADER_STORAGE_BARRIER_BIT", "SHADER_IMAGE_ACCESS_BARRIER_BIT",
                                 "UNIFORM_BARRIER_BIT", "COMMAND_BARRIER_BIT", "BUFFER_UPDATE_BARRIER_BIT"])
def test_each_bit_of_the_pipelines_barriers_is_needed(ctx, simulate, calls, monkeypatch, bit):
    """The frame test above is not vacuous: without any one bit of the barriers the
    simulation issues (after each dispatch, and at the end of a step), it fails."""
    import kzplayer.gpu.runner as F
    drop = getattr(moderngl, bit)
    monkeypatch.setattr(F, "BARRIER", F.BARRIER & ~drop)
    monkeypatch.setattr(F, "END_BARRIER", F.END_BARRIER & ~drop)
    monkeypatch.setattr("kzplayer.gpu.storage.SystemStorage.sync_for_cpu", lambda self: None)
    with pytest.raises(AssertionError):
        test_every_consumer_of_a_dispatch_is_behind_the_barrier_it_needs(ctx, simulate, calls)
