"""Batch work: validate, test and render many projects over parameter sweeps, on a local
process pool or on Ray (docs/batch.md).

    from kzplayer import batch
    jobs = batch.plan(["render"], ["effect.kzm"],
                      batch.sweep(["Nozzle:Emission.Rate=10,20,40"], seeds=[1, 2]),
                      {"frames": 60, "size": "320x180", "format": "gif"})
    result = batch.run(jobs, out="review", backend="local", workers=4)   # or backend="ray"
    result.counts()        # {"ok": 6}; review/results.jsonl, review/index.html

The only modules that call into the rest of kzplayer are kzplayer.batch.jobs (the adapter)
and kzplayer.batch.effect_tests (the test kind's specs under a variant).
"""
from __future__ import annotations

from kzplayer.batch import plan as plan_module
from kzplayer.batch.plan import Axis, Job, PlanError, Sweep, plan
from kzplayer.batch.results import read_results
from kzplayer.batch.runner import BatchResult, run
from kzplayer.batch.jobs import tuple_property
from kzplayer.batch.plan import parse_axis


def sweep(sets=(), seeds=None) -> Sweep:
    """A Sweep from `--set` texts (each may list values: `=10,20`, `=10..40:10`)."""
    return Sweep([parse_axis(t, tuple_property) for t in sets], list(seeds) if seeds else None)


__all__ = ["Axis", "BatchResult", "Job", "PlanError", "Sweep", "plan", "read_results", "run", "sweep"]
