"""A live value edit that changes only parameter words (kzplayer.gpu.transplant.apply_value):
the words of the nodes it reaches rewritten in their systems' parameter blocks, only the
range that differs uploaded, instead of refreshing every system it reaches (gpu.refresh:
pools, histories, meshes, budgets, programs, every node's words and the table).

It is taken only when it gives the GPU state the full refresh gives, bit for bit; every
changed (item, property) must be a uniform of a node instance of a reached system (a
transform, a visibility, a system switch is read elsewhere), and after the words are
worked out: the same zero bakes (else the programs compile again), the same emitter table,
the same histories and buffer bytes, no mesh data. Anything else returns False and the
caller takes the full path.
"""
from __future__ import annotations

import numpy as np

from kzplayer.gpu.history import history_length
from kzplayer.gpu.limits import draw_sorters, system_bytes
from kzplayer.gpu.materials import property_of
from kzplayer.gpu.params import instance_words, table_words
from kzplayer.gpu.refresh import new_revision, system_pools
from kzplayer.gpu.runner import runs
from kzplayer.gpu.storage import Layout


def rewrite_words(sim, change) -> bool:
    """Rewrite the parameter words `change` (a scene Change of values only: no pool, space,
    level or material) sets, in every system it reaches; False (nothing written) when the
    full refresh is needed."""
    reached = set(change.systems)
    runners = [r for r in sim.runners if r.system.item.path in reached]
    if not runners or len(runners) != len(reached):
        return False
    with sim.scene.values.steady():
        plans = [_plan(sim, runner, change.values) for runner in runners]
    if any(plan is None for plan in plans):
        return False
    new_revision(sim)                   # a new state, as a refresh makes (checkpoints are of a revision)
    for runner, words in zip(runners, plans):
        _upload(runner, words)
    return True


def _plan(sim, runner, values) -> np.ndarray | None:
    """The system's parameter words after the edit, or None when more than words change."""
    system, code, old = runner.system, runner.code, runner.param_words
    if code is None or old is None or runner.storage is None or runner.table_bytes is None:
        return None
    if [id(h.node) for h in system.members] != [id(n) for n in (*system.node.emitters, *system.node.channels)]:
        return None                     # new scene records: holders to make
    if any(n.mesh_block is not None for n in (*system.colliders, *system.members)):
        return None                     # mesh data follows transforms, not words
    known = lambda name: sim.catalog.property(name) is not None     # noqa: E731 (as SystemRunner reads it)
    if any(item is None for item, _ in values):
        return None                     # a DataContext value: read anywhere
    items = {id(item) for item, _ in values}
    edited = [inst for inst in code.instances if id(inst.owner.item) in items]
    uniforms = {(id(inst.owner.item), property_of(u.name, inst.variant.material, known))
                for inst in edited for u in inst.variant.uniforms}
    if not all((id(item), name) in uniforms for item, name in values):
        return None
    words = old.copy()
    for inst in edited:
        out = instance_words(inst, sim.values.value, known)
        words[inst.param_base:inst.param_base + len(out)] = out
    if runner.zero_bakes(words) != runner._bakes:
        return None                     # a baked zero changed: the programs compile again
    if table_words(system.members, runner.storage.layout, code, runs).tobytes() != runner.table_bytes:
        return None
    scene = sim.scene
    for em in system.emitters:
        if id(em.item) in items and em.history != history_length(
                scene.catalog, scene.value(em.item, "ParticleEmitter.ParticleMaterial"),
                lambda name, item=em.item: scene.value(item, name)):
            return None
    members = system.members
    host = sim.events_cap if any(em.host_kinds for em in members) else 0
    layout = Layout(system_pools(sim, system), 0, host_events=host, histories=[em.history for em in members])
    sorters = [draw_sorters(sim.values.value, em.item, em.channel_of is not None) for em in members]
    if system_bytes(layout, sorters) != runner.buffer_bytes:
        return None
    return words


def _upload(runner, words: np.ndarray) -> None:
    """Write the words that differ from the block's, as one range."""
    changed = np.flatnonzero(words != runner.param_words)
    runner.param_words = words
    if not len(changed):
        return
    first, last = int(changed[0]), int(changed[-1]) + 1
    base = len(runner.table_bytes) if runner.words_in_ssbo else 0     # one storage block: the table first
    runner.params.write(words[first:last].tobytes(), offset=base + first * 4)
