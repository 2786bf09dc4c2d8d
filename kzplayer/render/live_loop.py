"""The live preview's two drivers of a LiveSession (kzplayer.render.live): `watch_loop`, the
headless one (watchfiles in the loop's own thread), and `Watcher`, watchfiles on a thread of
its own for the window's loop (render/window.py), which applies the saves between frames:
all GL work stays on the loop's thread. Both watch through `watched_changes`: the session's
folders, watched again when a save changed them (a new include, asset or subfolder), and
both take a save in the same order: applied, its frame drawn, its whole-project checks
(`settle`), and only then the effect steps on.
"""
from __future__ import annotations

import os
import queue
import threading
import time
from pathlib import Path
from typing import Callable

from kzplayer.render.live import MAX_WALL_STEP, LiveSession, Outcome

STEP_MS = 2          # watchfiles' polling step: a save is yielded one quiet step after its last event


def watched_changes(session: LiveSession, stop: threading.Event, *, debounce_ms: int, timeout_ms: int,
                    folders_changed: Callable[[], bool]):
    """watchfiles' batches of changes to the session's folders (an empty one each
    `timeout_ms` without any), until `stop`; when `folders_changed()` says a save may have
    changed them (after a good save), the folders are read again and, when they differ,
    watched anew."""
    import watchfiles   # lazy: only --watch needs it

    folders = session.folders()
    while not stop.is_set():
        for changes in watchfiles.watch(*folders, stop_event=stop, debounce=debounce_ms, step=STEP_MS,
                                        rust_timeout=timeout_ms, yield_on_timeout=True, raise_interrupt=False):
            yield changes
            if folders_changed() and (new := session.folders()) != folders:
                folders = new        # a new include, asset or subfolder: watch it too
                break


def write_atomically(output: str, write: Callable[[str], None]) -> None:
    """`write(temporary path)` then rename it over `output`: an image viewer never sees a
    half-written file. The temporary name keeps the suffix (the writer goes by it)."""
    target = Path(output)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.stem}.live-{os.getpid()}{target.suffix}")
    write(str(tmp))
    os.replace(tmp, target)


def watch_loop(session: LiveSession, *, on_change: Callable[[Outcome], None],
               stop: threading.Event | None = None, frame_ms: int = 16, debounce_ms: int = 30,
               on_turn: Callable[[object], None] | None = None) -> None:
    """Play `session` headless until `stop` is set, the Player advanced by the wall time
    between turns; each relevant save -> session.apply(files) -> on_change(outcome) (the
    frame that shows it) -> session.settle() (its checks; on_change hears a refusal), and
    then the turn's step. `on_turn(player)` hears every turn (the watcher is running from
    the first one)."""
    stop = stop or threading.Event()
    last = time.perf_counter()
    good = [False]
    for changes in watched_changes(session, stop, debounce_ms=debounce_ms, timeout_ms=frame_ms,
                                   folders_changed=lambda: good[0]):
        good[0] = False
        now = time.perf_counter()
        elapsed, last = min(now - last, MAX_WALL_STEP), now
        hits = sorted({f for _, f in changes if session.relevant(f)})
        if hits:
            # the save first: the frame that shows it waits for no step of the effect
            outcome = session.apply(hits) if session.checks_later else session.reload(hits)
            on_change(outcome)               # the frame that shows the save (its output written)
            checked = session.settle()       # then the whole-project checks: a broken save undone
            if checked is not None:
                on_change(outcome := checked)
            good[0] = outcome.kind != "broken" and not session.fast     # (one literal: the same files)
            last = time.perf_counter()       # the reload's wall time is not effect time
        session.player.advance(elapsed)
        if on_turn is not None:
            on_turn(session.player)


class Watcher:
    """The watcher on a thread of its own, for a loop that is not the watcher's (the window):
    it queues the relevant saves; `poll()`, called from the loop's thread (the GL one),
    applies them when there were some and returns the Outcome (else None); `settle()`,
    called once the frame that shows it is drawn, runs its checks."""

    def __init__(self, session: LiveSession, debounce_ms: int = 30, timeout_ms: int = 50):
        self.session = session
        self.stop = threading.Event()
        self._saves: queue.Queue = queue.Queue()
        self._good = threading.Event()      # a good save applied: its folders may be new
        self.ready = threading.Event()      # set once the watcher runs
        self._thread = threading.Thread(target=self._run, args=(debounce_ms, timeout_ms), daemon=True)
        self._thread.start()

    def _folders_changed(self) -> bool:
        changed = self._good.is_set()
        self._good.clear()
        return changed

    def _run(self, debounce_ms: int, timeout_ms: int) -> None:
        for changes in watched_changes(self.session, self.stop, debounce_ms=debounce_ms, timeout_ms=timeout_ms,
                                       folders_changed=self._folders_changed):
            self.ready.set()
            hits = [f for _, f in changes if self.session.relevant(f)]
            if hits:
                self._saves.put(hits)

    def pending(self) -> bool:
        return not self._saves.empty()

    def poll(self) -> Outcome | None:
        """The queued saves applied (their checks wait for `settle`), or None."""
        hits = []
        while not self._saves.empty():
            hits.extend(self._saves.get_nowait())
        if not hits:
            return None
        hits = sorted(set(hits))
        outcome = self.session.apply(hits) if self.session.checks_later else self.session.reload(hits)
        self._heard(outcome)
        return outcome

    def settle(self) -> Outcome | None:
        """The last save's checks, once its frame was drawn: a refused one's Outcome, else None."""
        checked = self.session.settle()
        if checked is not None:
            self._heard(checked)
        return checked

    def _heard(self, outcome: Outcome) -> None:
        if outcome.kind == "broken":
            self._good.clear()
        elif not self.session.fast:         # (one literal: the same files, the same folders)
            self._good.set()

    def close(self) -> None:
        self.stop.set()
        self._thread.join(timeout=5)
