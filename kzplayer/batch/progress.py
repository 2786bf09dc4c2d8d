"""Progress of a batch on the terminal: on a terminal a rich display (the overall bar with
the tally, and a line per worker with the job it runs), elsewhere one line per finished
job; both on stderr."""
from __future__ import annotations

import sys
import time


class TerminalProgress:
    def __init__(self, stream=None, live: bool | None = None):
        self.stream = stream or sys.stderr
        self.live = self.stream.isatty() if live is None else live
        self.workers: dict[str, tuple[str, float]] = {}      # worker -> (job id, since)
        self.results = None
        self._live = self._bar = self._task = None

    def begin(self, results, todo: int) -> None:
        self.results = results
        kept = len(results.records) - todo
        if not self.live:
            if kept:
                self._say(f"{kept} of {len(results.records)} jobs kept from a previous run (outputs complete)")
            return
        from rich.console import Console, Group
        from rich.live import Live
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
        self._bar = Progress(TextColumn("batch"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.description}"),
                             TimeElapsedColumn())
        self._task = self._bar.add_task(self._tally(), total=len(results.records), completed=results.finished())
        self._group = Group
        self._live = Live(self._render(), console=Console(file=self.stream), refresh_per_second=4, transient=False)
        self._live.start()

    def update(self, event: str, record) -> None:
        if event == "start" and record.worker:
            self.workers[record.worker] = (record.job.id, time.monotonic())
        elif event in ("done", "retry"):
            for w, (job_id, _) in list(self.workers.items()):
                if job_id == record.job.id:
                    self.workers[w] = ("(idle)", time.monotonic())
            if event == "done" and record.worker and record.worker not in self.workers:
                self.workers[record.worker] = ("(idle)", time.monotonic())   # Ray's: known once done
        if not self.live:
            if event == "done":
                took = f" ({record.seconds:.2f} s)" if record.seconds is not None else ""
                more = f": {record.message}" if record.message and record.status != "ok" else ""
                self._say(f"[{self.results.finished()}/{len(self.results.records)}] {record.status} "
                          f"{record.job.id}{took}{more}")
            elif event == "retry":
                self._say(f"retry {record.job.id}: {record.message}")
            return
        self._bar.update(self._task, completed=self.results.finished(), description=self._tally())
        self._live.update(self._render())

    def end(self) -> None:
        if self._live is not None:
            self._bar.update(self._task, completed=self.results.finished(), description=self._tally())
            self._live.update(self._render())
            self._live.stop()

    def _tally(self) -> str:
        counts = self.results.counts()
        return " ".join(f"{n} {s}" for s, n in sorted(counts.items()) if s not in ("pending",))

    def _render(self):
        from rich.table import Table
        table = Table.grid(padding=(0, 2))
        now = time.monotonic()
        for worker, (job_id, since) in sorted(self.workers.items()):
            table.add_row(worker, job_id, f"{now - since:5.1f} s" if job_id != "(idle)" else "")
        return self._group(self._bar, table)

    def _say(self, text: str) -> None:
        print(text, file=self.stream, flush=True)
