"""The one code path of a batch, whatever the backend: skip the jobs whose outputs are
complete, hand the rest to the backend, record what it reports (results.jsonl and the
contact sheet after every event), and on Ctrl-C mark the unfinished ones interrupted.

A job with `after` (the pieces of a segmented render: kzplayer.batch.segments) waits until
those jobs are ok and then joins the backend's feed, a deque the backend takes jobs from
as its workers come free (the runner appends to it between the events); one whose job
ended otherwise ends as an error naming it."""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from pathlib import Path

from kzplayer.batch.ray_backend import BackendError, RayBackend
from kzplayer.batch.results import Results
from kzplayer.batch.worker import completed
from kzplayer.batch.pool import LocalPool

__all__ = ["BackendError", "BatchResult", "make_backend", "run"]   # BackendError lives with Ray


@dataclass
class BatchResult:
    out: Path
    records: list                 # kzplayer.batch.results.Record, in plan order
    interrupted: bool = False

    def counts(self) -> dict[str, int]:
        tally: dict[str, int] = {}
        for r in self.records:
            tally[r.status] = tally.get(r.status, 0) + 1
        return tally

    @property
    def ok(self) -> bool:
        return not self.interrupted and all(r.status == "ok" for r in self.records)


def make_backend(backend="local", *, workers=None, retries=1, address="auto"):
    """"local" (the process pool), "ray" (at `address`: "auto" starts a local instance), or
    an object with execute(jobs, out) already."""
    if backend == "local":
        return LocalPool(workers, retries)
    if backend == "ray":
        return RayBackend(address, workers, retries)
    if hasattr(backend, "execute"):
        return backend
    raise ValueError(f"unknown backend {backend!r}: 'local' or 'ray'")


def run(jobs, out="batch-out", backend="local", *, workers=None, retries=1, address="auto",
        force=False, progress=None, title="kzplayer batch") -> BatchResult:
    """Run `jobs` (kzplayer.batch.plan.Job) with outputs under `out`; see kzplayer.batch."""
    out = Path(out).resolve()     # workers (Ray's too) may run in another folder
    jobs = list(jobs)
    results = Results(jobs, out, title)
    todo = []
    for j in jobs:
        done = None if force else completed(j, out)
        if done:
            results[j.id].finish(done, out, reused=True)
        else:
            todo.append(j)
    results.write(sheet=True)
    show = progress or _Quiet()
    interrupted = False
    try:
        show.begin(results, len(todo))
        if todo:
            engine = make_backend(backend, workers=workers, retries=retries, address=address)
            feed = deque(j for j in todo if not j.after)       # the backend takes jobs from its left
            waiting = [j for j in todo if j.after]
            for j in _release(waiting, results, feed, out):
                show.update("done", results[j.id])
            for event, job, detail in engine.execute(feed, out):
                record = results[job.id]
                if event == "start":
                    record.status, record.worker, record.attempts = "running", detail, record.attempts + 1
                elif event == "retry":
                    record.status, record.message = "pending", detail
                else:
                    record.attempts = max(record.attempts, 1)
                    record.finish(detail, out)
                show.update(event, record)
                if event == "done":
                    for j in _release(waiting, results, feed, out):
                        show.update("done", results[j.id])
                results.write()
            for j in waiting:           # what they wait for never ended (not expected)
                results[j.id].finish({"status": "error", "message": "not run: its prerequisites never ended"}, out)
    except KeyboardInterrupt:
        interrupted = True
        for r in results.records.values():
            if r.status in ("pending", "running"):
                r.status, r.message = "interrupted", "the batch was interrupted; a rerun runs this job"
    finally:
        results.write(sheet=True)
        show.end()
    return BatchResult(out, list(results.records.values()), interrupted)


def _release(waiting: list, results, feed: deque, out: Path) -> list:
    """Jobs waiting for others (the pieces of a segmented render): those whose jobs are all
    ok go to the feed; those with one that ended otherwise end as errors, naming it (and so
    on down). Returns the jobs ended here."""
    ended, moved = [], True
    while moved:
        moved = False
        for j in list(waiting):
            states = [results[a].status if a in results.records else "ok" for a in j.after]
            bad = next((a for a, st in zip(j.after, states) if st not in ("ok", "pending", "running")), None)
            if bad is not None:
                waiting.remove(j)
                results[j.id].finish({"status": "error", "message": f"not run: {bad} ended {results[bad].status}"},
                                     out)
                ended.append(j)
                moved = True
            elif all(st == "ok" for st in states):
                waiting.remove(j)
                feed.append(j)
                moved = True
    return ended


class _Quiet:
    def begin(self, results, todo): pass

    def update(self, event, record): pass

    def end(self): pass
