"""The one place where `kzplayer test` calls kzplayer's stages: load and resolve a project
with --set overrides, run the validator, and play headless recording what checks read
(per-frame figures, host events, particles at chosen frames, pictures at chosen frames).

Only public APIs are used (kzplayer.load, bindings.resolve / parse_override, the validator's
validate_paths, render.player.Player with its Simulation), so a change of their
constructors is adapted here alone. The frame loop is the offline render's
(render.offline.render_offline): the same camera (chosen once, before the first step, with
the same probe), the same fixed steps, so a picture here is the frame `kzplayer play
--seconds T --output x.png` writes.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from kzplayer.project.loader import load as load_file
from kzplayer.bindings import parse_override, resolve
from kzplayer.validate import validate_paths
from kzplayer.render.player import Player
from kzplayer.render.probe import PROBE_SECONDS
from kzplayer.transforms import world_matrix as matrix
from kzplayer.gpu import create_context

_CONTEXT = None


def context():
    """One headless GL context for the process (specs share it; a context costs ~1 s)."""
    global _CONTEXT
    if _CONTEXT is None:
        _CONTEXT = create_context(headless=True)
    return _CONTEXT


def release_context() -> None:
    global _CONTEXT
    if _CONTEXT is not None:
        _CONTEXT.release()
        _CONTEXT = None


@dataclass
class Loaded:
    project: object
    graph: object

    def emitters(self) -> list:
        return [i for i in self.project.walk() if i.type == "ParticleEmitter"]

    def value(self, item, name):
        """A property after bindings and overrides (KeyError/LookupError for none)."""
        return self.graph.value(item, name)


def load(path, overrides=()) -> Loaded:
    """The project and its binding graph with every override applied; KzError (its
    diagnostics, exit code) for a project that cannot be loaded or an override that is wrong."""
    project = load_file(str(path))
    graph = resolve(project)
    for text in overrides:
        item, name, value = parse_override(text, project)
        graph.set_value(item, name, value)
    return Loaded(project, graph)


def validate(path) -> list:
    """What `kzplayer validate PATH` finds (notes included), sorted."""
    return list(validate_paths([str(path)]).diagnostics)


@dataclass
class Recording:
    """What one headless run saw. Frames are numbered 1..frames (frame n ends at n / fps)."""
    fps: float
    frames: int
    emitters: list[str]
    stats: dict[int, dict] = field(default_factory=dict)          # n -> {path: EmitterStats}
    events: list = field(default_factory=list)                    # HostEventBatch, frame order
    particles: dict[int, dict[str, np.ndarray]] = field(default_factory=dict)   # n -> dump
    images: dict[int, np.ndarray] = field(default_factory=dict)   # n -> (H, W, 3) uint8
    warnings: list = field(default_factory=list)

    def event_arrays(self):
        """(frame n, emitter, kind, time) arrays of every event recorded."""
        if not self.events:
            return (np.zeros(0, int), np.zeros(0, object), np.zeros(0, object), np.zeros(0))
        frame = np.concatenate([np.full(len(b), b.frame + 1) for b in self.events])
        return (frame, np.concatenate([b.emitter for b in self.events]),
                np.concatenate([b.kind for b in self.events]), np.concatenate([b.time for b in self.events]))


def play(loaded: Loaded, *, seed: int, size, fps: float, frames: int, particles_at=(), images_at=(),
         events: bool = False) -> Recording:
    """Play `frames` output frames headless; read the particles (world space, as --dump) after
    each frame in `particles_at` and draw the picture after each frame in `images_at`."""
    rec = Recording(fps=fps, frames=frames, emitters=[])
    player = Player(context(), loaded.project, loaded.graph, tuple(size), seed=seed,
                    warn=rec.warnings.extend, probe_seconds=min(frames / fps, PROBE_SECONDS))
    try:
        rec.emitters = [em.path for em in player.sim.emitters]
        player.on_stats = lambda number, figures: rec.stats.__setitem__(number + 1, figures)
        if events:
            player.listen(None, rec.events.append, batch=True)
        camera = player.camera(size[0] / size[1])[0] if images_at else None
        dt = 1.0 / fps
        for n in range(1, frames + 1):
            player.step(dt)
            if n in particles_at:
                rec.particles[n] = player.sim.dump()
            if n in images_at:
                player.draw(camera=camera)
                rec.images[n] = player.image()
        player.flush_stats()
    finally:
        player.release()
    return rec


def world_matrix(loaded: Loaded, item) -> np.ndarray:
    """A node's world matrix after bindings (a collider's frame, for bounds checks)."""
    def value(node, name):
        try:
            return loaded.value(node, name)
        except (KeyError, LookupError, ValueError, TypeError):
            return None
    return matrix(item, value)
