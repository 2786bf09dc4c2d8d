"""Events on the Python side: reading an Event Buffer back. (The event source a
subemitter's `Emission.SourceEventBuffer` names and the dependency order of a system's
emitters are the scene's: kzplayer.scene.events.)

The GPU work is in the shaders: the collider stage (Particles/collider_stage.glsl) and the
events stage of the fused step (Particles/stage_step.glsl), the ordering passes
(Particles/pass_events_*.glsl) and the event-driven count and emission materials
(Particles/source_events.glsl).
"""
from __future__ import annotations

import numpy as np


def read_events(em) -> tuple[np.ndarray, np.ndarray]:
    """(header, records) of an emitter's Event Buffer: the events of its last step."""
    header, records = em.buffers.storage.read_events(em.buffers.index)
    return header, records[:min(int(header["count"]), int(header["capacity"]))].copy()
