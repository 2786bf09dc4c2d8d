"""Edits made outside the studio (another editor, a git checkout): watchfiles on the
project's folders, on a thread of its own; each change that bears on the project
(render.live.relevant) asks the render thread to compare the files with what the session
loaded or saved last, and to reload when they differ (the studio's own saves do not).
"""
from __future__ import annotations

import threading

from kzplayer.diagnostics import KzError
from kzplayer.render.live import relevant, watched_folders


class FileWatch:
    def __init__(self, engine, debounce_ms: int = 50):
        import watchfiles   # lazy: only the studio's server needs it here
        self.engine = engine
        self._watchfiles = watchfiles
        self.stop = threading.Event()
        self.ready = threading.Event()
        self.error: str | None = None
        session = engine.session
        self._folders = watched_folders(session.project, session.path)
        self._thread = threading.Thread(target=self._run, args=(debounce_ms,), daemon=True,
                                        name="kzplayer-studio-watch")
        self._thread.start()

    def _run(self, debounce_ms: int) -> None:
        session = self.engine.session
        for changes in self._watchfiles.watch(*self._folders, stop_event=self.stop, debounce=debounce_ms,
                                              step=10, rust_timeout=100, yield_on_timeout=True,
                                              raise_interrupt=False):
            self.ready.set()
            if any(relevant(session.project, session.path, f) for _, f in changes):
                self.engine.call(_check)

    def close(self) -> None:
        self.stop.set()
        self._thread.join(timeout=5)


def _check(engine) -> bool:
    """On the render thread: reload when the files changed; a file that does not load
    leaves the last good state, with the loader's message for the page."""
    try:
        changed = engine.session.external_change()
    except KzError as exc:
        engine.session.disk_problem = "; ".join(d.message for d in exc.diagnostics) or "the file does not load"
        engine.session.version += 1          # the pages fetch the state and show why
        return False
    if engine.session.disk_problem is not None:
        engine.session.disk_problem = None
        engine.session.version += 1
    if changed:
        engine.rebuild()
    return changed
