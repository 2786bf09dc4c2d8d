"""Batch work: validate, test and render many projects over parameter sweeps, on a local
process pool or on Ray (docs/batch.md).

    from kzplayer import batch
    jobs = batch.plan(["render"], ["effect.kzm"],
                      batch.sweep(["Nozzle:Emission.Rate=10,20,40"], seeds=[1, 2]),
                      {"frames": 60, "size": "320x180", "format": "gif"})
    result = batch.run(jobs, out="review", backend="local", workers=4)   # or backend="ray"
    result.counts()        # {"ok": 6}; review/results.jsonl, review/index.html
    # one long shot: checkpoints every 150 frames, the segments rendered in parallel, one MP4
    batch.run(batch.plan(["render"], ["shot.kzm"], options={"seconds": 20, "format": "mp4",
                                                            "segment_frames": 150}), out="shot")

The only modules that call into the rest of kzplayer are kzplayer.batch.jobs (the adapter),
kzplayer.batch.effect_tests (the test kind's specs under a variant) and
kzplayer.batch.segments (a long shot's checkpoints, segments and assembly).
"""
from __future__ import annotations

from kzplayer.batch import plan as plan_module
from kzplayer.batch import segments
from kzplayer.batch.plan import Axis, Job, PlanError, Sweep
from kzplayer.batch.results import read_results
from kzplayer.batch.runner import BatchResult, run
from kzplayer.batch.jobs import tuple_property
from kzplayer.batch.plan import parse_axis


def plan(kinds, projects, sweep=None, options=None, **kwargs) -> list[Job]:
    """Every kind x project x variant as Jobs (kzplayer.batch.plan.plan); a render with the
    option `segment_frames` K is planned as a shot in segments (kzplayer.batch.segments)."""
    return plan_module.plan(kinds, projects, sweep, options, parts=segments.parts, **kwargs)


def sweep(sets=(), seeds=None) -> Sweep:
    """A Sweep from `--set` texts (each may list values: `=10,20`, `=10..40:10`)."""
    return Sweep([parse_axis(t, tuple_property) for t in sets], list(seeds) if seeds else None)


__all__ = ["Axis", "BatchResult", "Job", "PlanError", "Sweep", "plan", "read_results", "run", "sweep"]
