"""Bringing the GPU's holders up to date with the scene (kzplayer.scene): a holder per
scene node (kzplayer.gpu.nodes), pools capped where the driver says, mesh blocks built,
a custom material that does not compile left out, particles carried into a new space.
`refresh(sim)` runs after the scene re-read its records (a build, a `set_value`)."""
from __future__ import annotations

import itertools

import numpy as np

from kzplayer.diagnostics import Diagnostic, KzError, Severity
from kzplayer.gpu import layout as L
from kzplayer.gpu.history import history_length
from kzplayer.gpu.limits import buffer_budget, draw_sorters, over_budget, system_bytes, system_limit
from kzplayer.gpu.storage import Layout
from kzplayer.gpu.nodes import Collider, Emitter, System

# Each refresh gives its simulation a number no simulation of this process had before: what
# was recorded of a state (the Player's checkpoints) is of its revision and no later one.
_REVISIONS = itertools.count(1)


def new_revision(sim) -> None:
    """Mark `sim`'s state as changed (a refresh, or a parameter-word edit: gpu.word_edit)."""
    sim.revision = next(_REVISIONS)


def holders(sim) -> None:
    """A System, Emitter and Collider holder per scene record, kept across refreshes (by
    the scene node), in the scene's order (emitters in dependency order, then channels)."""
    table = sim.holders
    for node in sim.scene.systems:
        system = table.get(id(node))
        if system is None:
            system = table[id(node)] = System(node)
            system.colliders = [Collider(c) for c in node.colliders]
        system.emitters = [_emitter(sim, em, system) for em in node.emitters]
        system.channels = [_emitter(sim, ch, system) for ch in node.channels]
    sim.emitters = [em for system in sim.systems for em in system.emitters]


def _emitter(sim, node, system) -> Emitter:
    holder = sim.holders.get(id(node))
    if holder is None:
        holder = sim.holders[id(node)] = Emitter(node, system, sim.holders)
    return holder


def refresh(sim, only=None) -> None:
    """Re-read everything the GPU side derives from the scene's records (`only`: of these
    ParticleSystem paths alone, the systems a change reaches: kzplayer.scene.Change)."""
    scene = sim.scene
    new_revision(sim)                   # (first: a refresh that raises half-way changed things too)
    holders(sim)
    for system in sim.systems:
        if only is not None and system.item.path not in only:
            continue
        for em in system.emitters:
            em.pool = _pool_size(sim, em.item, em.node.pool)
            em.history = history_length(scene.catalog, scene.value(em.item, "ParticleEmitter.ParticleMaterial"),
                                        lambda name, item=em.item: scene.value(item, name))
        for ch in system.channels:       # its slots mirror the parent's; a record per child
            ch.pool = max(ch.particle_source.pool, ch.channel_of.pool)
        for col in system.colliders:
            col.mesh_block = None
            if col.material is not None and col.material.name == "Collider_Mesh":
                col.mesh_block = sim.meshes.collider(col)
                if col.mesh_block is None:   # refused (a warning says why): the collider is left out
                    scene.leave_out(col.node, "material")
        for em in system.emitters:
            em.mesh_block = None
            if em.emission is not None and em.emission.name == "Emitter_Mesh":
                em.mesh_block = sim.meshes.emitter(em, system.simulation_to_world @ em.transform)
                if em.mesh_block is None:
                    scene.leave_out(em.node, "emission")
    pools = {id(runner): system_pools(sim, runner.system) for runner in sim.runners}
    _check_buffer_budget(sim, pools, only)  # before any buffer of the new sizes is made
    for runner in sim.runners:
        if only is not None and runner.system.item.path not in only:
            continue
        sizes = pools[id(runner)]
        while True:
            try:
                runner.refresh(sizes)
                break
            except KzError as exc:    # a custom material that does not compile
                if not (scene.leave_out_broken and _leave_out(scene, runner.system, exc)):
                    raise


def _check_buffer_budget(sim, pools: dict, only=None) -> None:
    """A KzError (play.buffer-budget, exit 1) with the breakdown when the systems' buffers
    and their draws' sorters together need more than the buffer budget (gpu.limits). The
    systems outside `only` (a change does not reach them) count what they counted last."""
    value = sim.scene.value
    systems = {}
    for runner in sim.runners:
        members = runner.system.members
        if runner.buffer_bytes is None or only is None or runner.system.item.path in only:
            host = sim.events_cap if any(em.host_kinds for em in members) else 0
            layout = Layout(pools[id(runner)], 0, host_events=host, histories=[em.history for em in members])
            sorters = [draw_sorters(value, em.item, em.channel_of is not None) for em in members]
            runner.buffer_bytes = system_bytes(layout, sorters)
        systems[runner.system.item.path] = runner.buffer_bytes
    problem = over_budget(systems, buffer_budget())
    if problem is not None:
        raise KzError(problem, exit_code=1)


def _pool_size(sim, item, asked: int) -> int:
    """MaximumAmount, at most what the driver allows (`max_pool`; a warning says so)."""
    if asked <= sim.max_pool:
        return asked
    sim.scene.warn(Diagnostic(
        "KZ804", "emitter.pool-limit", Severity.WARNING,
        f"{item.path}: ParticleEmitter.MaximumAmount = {asked:,} is more than this OpenGL driver "
        f"allows one emitter (one compute dispatch and one storage buffer must hold the pool); "
        f"the pool holds {sim.max_pool:,} particles",
        sim.scene.values.span(item, "ParticleEmitter.MaximumAmount")))
    return sim.max_pool


def system_pools(sim, system) -> list[int]:
    """The emitters' pools in dependency order, the later ones cut where the system's
    buffers would pass what one texel buffer (or storage block) and one dispatch hold."""
    limit = system_limit(sim.ctx, sim.image_io)
    sizes, total = [], 0
    for em in system.members:
        size = min(em.pool, max(limit - total, 0))
        if size < em.pool:
            sim.scene.warn(Diagnostic(
                "KZ804", "emitter.pool-limit", Severity.WARNING,
                f"{em.path}: the emitters of this ParticleSystem together need more than this OpenGL "
                f"driver allows one system ({limit:,} particles: its buffers and one dispatch hold them "
                f"all); this pool holds {size:,}",
                sim.scene.values.span(em.item, "ParticleEmitter.MaximumAmount")))
        sizes.append(size)
        total += -(-size // L.WORKGROUP_SIZE) * L.WORKGROUP_SIZE
    return sizes


def _leave_out(scene, system, exc: KzError) -> bool:
    """With leave_out_broken: the custom material a compile error points into leaves its
    slot out (its diagnostics kept), so the system's kernel can be built without it.
    False when no custom material of the system is to blame."""
    files = {str(d.span.file) for d in exc.diagnostics if d.span is not None}
    slots = [(em.node, name) for em in system.emitters for name in ("count", "emission", "self_affect", "events")]
    slots += [(node, "material") for node in (*system.affectors, *(c.node for c in system.colliders))]
    custom = [(owner, name) for owner, name in slots
              if getattr(getattr(owner, name), "root", None) is not None]
    blamed = [(o, n) for o, n in custom if {str(getattr(o, n).shader), getattr(o, n).display} & files]
    if not blamed and len(custom) == 1:
        blamed = custom            # an error in a file the one custom material includes
    if not blamed:
        return False
    for d in exc.diagnostics:
        scene.warn(d)
    for owner, name in blamed:
        scene.leave_out(owner, name)
    return True


def carry_into_space(em, m: np.ndarray) -> None:
    """A new ParticleEmitter.Space (or ParticleSystem.LocalSpace) keeps the particles
    where they are in the world: records and position history go through `m`, the old
    particles' space -> the new one (a property change, not a frame: a readback is fine)."""
    if em.buffers is None or not em.capacity:
        return
    storage, k = em.buffers.storage, em.buffers.index
    records = storage.read_records(k)
    live = (records["flags"] & L.FLAG_ALIVE) != 0
    if not live.any():
        return
    r, t = m[:3, :3], m[:3, 3]
    for name in ("position", "previous_position"):
        records[name][live] = records[name][live] @ r.T + t
    for name in ("velocity", "acceleration"):
        records[name][live] = records[name][live] @ r.T
    storage.write_records(k, records)
    if em.buffers.history_length:
        rings = storage.read_history(k)
        rings["position"][live] = rings["position"][live] @ r.T + t
        storage.write_history(k, rings)
