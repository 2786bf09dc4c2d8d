"""Where an effect's particles go, found by playing it once: the content a fit-to-content
camera frames when the project has no Camera.

A separate Simulation runs the first seconds of the effect (as long as the render, at most
PROBE_SECONDS) and its live particles are read back a few times; the 1st..99th percentile
box of their world positions is the content, so one stray particle does not zoom the view
out. Forces count (a fountain's arcs fall back into view), and the camera never moves
during the render. One short extra simulation and PROBE_SAMPLES readbacks, once per run.
"""
from __future__ import annotations

import numpy as np

from kzplayer.gpu import Simulation
from kzplayer.render.budget import FrameWatch

PROBE_SECONDS = 4.0
PROBE_SAMPLES = 16


def probe_positions(ctx, scene, graph=None, seed=None, seconds: float = PROBE_SECONDS,
                    frame_budget: float | None = None) -> np.ndarray | None:
    """Two corners (lo, hi) of the box the particles occupy, or None when none were alive.
    `scene`: the player's own (kzplayer.scene.Scene; or a project and its graph), played
    with what the player leaves out left out (a custom material that does not compile or
    whose shader is missing), so a project without a Camera plays as one with.
    `frame_budget` (--frame-budget): each of the probe's frames is held to it as a played
    frame is, so an effect too slow for the budget stops here, not after minutes of probing."""
    seconds = max(min(seconds, PROBE_SECONDS), 1e-3)
    sim = Simulation(ctx, scene, graph, seed=seed, leave_out_broken=True)
    found = []
    try:
        dt = seconds / PROBE_SAMPLES
        watch = FrameWatch(sim, frame_budget, "the camera probe's frame") if frame_budget is not None else None
        for n in range(PROBE_SAMPLES):
            if watch is not None:
                watch.start(n)
            sim.step_frame(dt)
            if watch is not None:
                watch.stop(n)
            for em in sim.emitters:
                live = sim.read_particles(em)["position"].astype(float)
                if len(live):
                    m = em.simulation_to_world
                    found.append(live @ m[:3, :3].T + m[:3, 3])
    finally:
        sim.release()
    if not found:
        return None
    pts = np.concatenate(found)
    return np.percentile(pts, [1.0, 99.0], axis=0)
