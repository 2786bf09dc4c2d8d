"""A running Simulation put back to its first frame in place (the Player's restart, R, and
the start of a seek's re-run from 0; docs/play.md "Timeline").

    restart(sim)        # the state Simulation(ctx, sim.scene, ...) starts from, bit for bit

A new Simulation of the same scene would generate and compile nothing (the programs are
cached by text, the text by spec: kzplayer.gpu.code_cache) but it still reads every value,
lays out every program, builds the parameter blocks and mesh tables and makes every buffer.
None of that depends on time, so a restart keeps it all (programs, parameter blocks,
emitter table, mesh data, storage layout, holders, listeners) and resets only what running
changed: every storage buffer as a new one holds it (empty pools, free stacks full, fresh
sweeps, no events, no trails, the emitter states with their randomness counters, cycles and
schedule carry at 0), each system's clock and step counts, each emitter's emission LOD and
running totals, the frame counter, the dropped steps, the host events' drop counts, the
stats ring and the last figures. `tests/render/test_restart.py` compares the checkpoint
bytes (kzplayer.gpu.checkpoint: everything the next frame reads) with a fresh Simulation's.
"""
from __future__ import annotations

from kzplayer.gpu.nodes import EmitterStats


def restart(sim) -> None:
    """`sim` at its first frame, as a new Simulation of its scene and listeners starts."""
    sim._ring.release()                     # frames not taken yet are of the run left behind
    for runner in sim.runners:
        system = runner.system
        system.steps, system.runs, system.clock = 0, 0, 0.0
        if runner.storage is not None:
            runner.storage.reset()
        for k, em in enumerate(system.members):
            em.totals, em.event_totals = None, (0, 0)
            if em.lod != 1.0:
                em.lod = 1.0
                runner.write_lod(k)
    sim.frames = 0
    sim.dropped_steps = {}
    sim.host_events.dropped = 0
    sim.host_events.frame_dropped = {}
    sim._folded = None
    # a new Simulation reads its emitters' (not its channels') states once built
    sim._last_stats = {}
    for em in sim.emitters:
        em.totals = em.buffers.read_state()
        sim._last_stats[em.path] = EmitterStats(em.path)


__all__ = ["restart"]
