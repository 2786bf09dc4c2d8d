"""gpu.word_edit: a live value edit of parameter words alone, written as a range of the
parameter block, leaves the GPU exactly as today's full refresh of the system does."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kzplayer.gpu import transplant
from kzplayer.gpu.materials import property_of
from kzplayer.gpu.simulation import Simulation
from kzplayer.project.loader import load

SAMPLES = Path(__file__).resolve().parents[2] / "sample_projects"
PROJECTS = ("04_fire.kzm", "06_smoke_wind.kzm", "08_rock_debris.kzm", "09_firework_trails.kzm")


def _running(ctx, name):
    sim = Simulation(ctx, load(SAMPLES / name), seed=7)
    for _ in range(12):
        sim.step_frame(1 / 60)
    return sim


def _edits(sim, limit=6):
    """(item path, property, new value): a float parameter of each of the first node
    instances, scaled (never to zero: a zero may be compiled in)."""
    out, seen = [], set()
    known = lambda name: sim.catalog.property(name) is not None     # noqa: E731
    for runner in sim.runners:
        for inst in runner.code.instances:
            for u in inst.variant.uniforms:
                prop = property_of(u.name, inst.variant.material, known)
                if u.type != "float" or prop is None or (inst.owner.item.path, prop) in seen:
                    continue
                value = sim.values.value(inst.owner.item, prop)
                if isinstance(value, float) and value != 0.0:
                    seen.add((inst.owner.item.path, prop))
                    out.append((inst.owner.item.path, prop, value * 1.5 + 0.125))
                    break
    return out[:limit]


def _item(sim, path):
    return next(i for i in sim.project.walk() if i.path == path)


def _blocks(sim):
    return [(r.table.read(), r.params.read()) for r in sim.runners]


def _particles(sim):
    return {k: v.tobytes() for k, v in sim.dump().items()}


def _apply(sim, edits, monkeypatch, fast: bool) -> tuple[int, int]:
    """Apply `edits`; (fast path taken, full refreshes) as counted."""
    counts = {"fast": 0, "full": 0}
    real_update, real_rewrite = sim._update, transplant.rewrite_words

    def update(spaces, only=None):
        counts["full"] += 1
        real_update(spaces, only)

    def rewrite(s, change):
        ok = fast and real_rewrite(s, change)
        counts["fast"] += ok
        return ok
    monkeypatch.setattr(sim, "_update", update)
    monkeypatch.setattr(transplant, "rewrite_words", rewrite)
    for path, prop, value in edits:
        transplant.apply_value(sim, _item(sim, path), prop, value)
    monkeypatch.undo()
    return counts["fast"], counts["full"]


@pytest.mark.parametrize("name", PROJECTS)
def test_a_parameter_edit_rewrites_only_words_and_matches_the_full_refresh(ctx, monkeypatch, name):
    full, fast = _running(ctx, name), _running(ctx, name)
    try:
        edits = _edits(full)
        assert edits
        assert _apply(full, edits, monkeypatch, fast=False) == (0, len(edits))
        taken, refreshed = _apply(fast, edits, monkeypatch, fast=True)
        assert taken + refreshed == len(edits) and taken >= 1
        assert _blocks(fast) == _blocks(full)
        for _ in range(5):
            full.step_frame(1 / 60)
            fast.step_frame(1 / 60)
            assert _particles(fast) == _particles(full)
        assert fast.revision != 0
    finally:
        full.release()
        fast.release()


def test_a_pool_edit_still_takes_the_full_path(ctx, monkeypatch):
    full, fast = _running(ctx, "04_fire.kzm"), _running(ctx, "04_fire.kzm")
    try:
        em = fast.emitters[0].item
        pool = int(fast.values.value(em, "ParticleEmitter.MaximumAmount"))
        edits = [(em.path, "ParticleEmitter.MaximumAmount", pool // 2 + 1)]
        assert _apply(fast, edits, monkeypatch, fast=True) == (0, 1)
        _apply(full, edits, monkeypatch, fast=False)
        assert _blocks(fast) == _blocks(full)
    finally:
        full.release()
        fast.release()


def test_a_transform_edit_is_not_taken_for_words(ctx, monkeypatch):
    from kzplayer.values import Srt3D
    sim = _running(ctx, "04_fire.kzm")
    try:
        em = sim.emitters[0].item
        edits = [(em.path, "Node3D.RenderTransformation", Srt3D((1, 1, 1), (0, 0, 0), (0.5, 0, 0)))]
        assert _apply(sim, edits, monkeypatch, fast=True) == (0, 1)
    finally:
        sim.release()


def test_the_words_uploaded_are_the_ones_that_changed(ctx, monkeypatch):
    sim = _running(ctx, "04_fire.kzm")
    try:
        (path, prop, value), = _edits(sim, limit=1)
        runner = next(r for r in sim.runners if any(i.owner.item.path == path for i in r.code.instances))
        before = np.frombuffer(runner.params.read(), np.uint32).copy()
        writes = []
        real = runner.params.write
        monkeypatch.setattr(runner.params, "write", lambda data, offset=0: (writes.append((offset, len(data))),
                                                                              real(data, offset=offset)))
        assert _apply(sim, [(path, prop, value)], monkeypatch, fast=True) == (1, 0)
        after = np.frombuffer(runner.params.read(), np.uint32)
        changed = np.flatnonzero(before != after)
        assert len(changed) >= 1
        base = len(runner.table_bytes) if runner.words_in_ssbo else 0
        assert writes == [(base + 4 * int(changed[0]), 4 * (int(changed[-1]) + 1 - int(changed[0])))]
    finally:
        sim.release()


def _baked_zero(sim):
    """(item path, property): a float parameter now zero and compiled in as a constant."""
    known = lambda name: sim.catalog.property(name) is not None     # noqa: E731
    for runner in sim.runners:
        for inst in runner.code.instances:
            for u in inst.variant.uniforms:
                prop = property_of(u.name, inst.variant.material, known)
                if u.type == "float" and prop is not None and (inst.variant.prefix, u.name) in runner._bakes:
                    return inst.owner.item.path, prop
    return None


@pytest.mark.parametrize("name", PROJECTS)
def test_a_baked_zero_made_nonzero_takes_the_full_path(ctx, monkeypatch, name):
    full, fast = _running(ctx, name), _running(ctx, name)
    try:
        found = _baked_zero(fast)
        if found is None:
            pytest.skip(f"{name} compiles no float parameter in")
        edits = [(*found, 0.5)]
        assert _apply(fast, edits, monkeypatch, fast=True) == (0, 1)      # its programs compile again
        _apply(full, edits, monkeypatch, fast=False)
        assert _blocks(fast) == _blocks(full)
        for _ in range(3):
            full.step_frame(1 / 60)
            fast.step_frame(1 / 60)
        assert _particles(fast) == _particles(full)
    finally:
        full.release()
        fast.release()
