"""The batch's state as files: results.jsonl (one JSON object a line, one line per job, in
plan order) and the contact sheet (kzplayer.batch.sheet), both rewritten whole under a
temporary name and renamed, so a reader never sees half a file.

A line: job (its id, KIND/NAME/VARIANT), kind, name, variant, project, values, seed,
status (pending, running, ok, failed, error, crashed, timeout, out-of-memory,
interrupted), reused (true where a previous run's complete outputs were kept), attempts,
worker, started (Unix time), seconds, outputs (paths relative to the batch folder),
findings (errors / warnings / notes), counts, message.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from kzplayer.batch.jobs import atomic
from kzplayer.batch.sheet import write_sheet

RESULTS = "results.jsonl"
SHEET = "index.html"
FINAL = ("ok", "failed", "error", "crashed", "timeout", "out-of-memory", "interrupted")
SHEET_EVERY = 1.0            # seconds between rewrites of the sheet while jobs finish


@dataclass
class Record:
    job: object
    status: str = "pending"
    reused: bool = False
    attempts: int = 0
    worker: str | None = None
    started: float | None = None
    seconds: float | None = None
    outputs: list[str] = field(default_factory=list)
    findings: dict = field(default_factory=dict)
    counts: dict = field(default_factory=dict)
    message: str = ""

    def finish(self, result: dict, out: Path, reused: bool = False) -> None:
        folder = self.job.folder(out).relative_to(out)
        self.status = result.get("status", "error")
        self.reused = reused
        self.worker = result.get("worker", self.worker)
        self.started = result.get("started", self.started)
        self.seconds = result.get("seconds")
        self.outputs = [str(folder / name) for name in result.get("outputs", [])]
        self.findings = result.get("findings", {})
        self.counts = result.get("counts", {})
        self.message = result.get("message", "")

    def line(self) -> dict:
        j = self.job
        return {"job": j.id, "kind": j.kind, "name": j.name, "variant": j.variant, "project": j.project,
                "values": dict(j.values), "sets": list(j.sets), "seed": j.seed, "status": self.status,
                "reused": self.reused, "attempts": self.attempts, "worker": self.worker,
                "started": self.started, "seconds": self.seconds, "outputs": self.outputs,
                "findings": self.findings, "counts": self.counts, "message": self.message}


class Results:
    """The records of one batch, and the files that show them."""

    def __init__(self, jobs, out: Path, title: str = "kzplayer batch"):
        self.out = Path(out)
        self.title = title
        self.records = {j.id: Record(j) for j in jobs}
        self.began = time.time()
        self._sheet_at = 0.0

    def __getitem__(self, job_id: str) -> Record:
        return self.records[job_id]

    def counts(self) -> dict[str, int]:
        tally: dict[str, int] = {}
        for r in self.records.values():
            tally[r.status] = tally.get(r.status, 0) + 1
        return tally

    def finished(self) -> int:
        return sum(r.status in FINAL for r in self.records.values())

    def write(self, sheet: bool | None = None) -> None:
        """results.jsonl now; the sheet now when `sheet`, else at most every SHEET_EVERY s."""
        self.out.mkdir(parents=True, exist_ok=True)
        with atomic(self.out / RESULTS) as tmp:
            tmp.write_text("".join(json.dumps(r.line(), sort_keys=True) + "\n" for r in self.records.values()),
                           encoding="utf-8")
        now = time.monotonic()
        if sheet or (sheet is None and now - self._sheet_at >= SHEET_EVERY):
            write_sheet(self, self.out / SHEET)
            self._sheet_at = now


def read_results(out) -> list[dict]:
    """The lines of a batch folder's results.jsonl."""
    path = Path(out) / RESULTS
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
