"""Running kzplayer on hostile input the way an attacker would: in a child process under a
memory limit and a timeout, so a hang, a memory blow-up or a crash of the process (a signal)
fails the test instead of taking the test run down. `kzplayer(args)` returns the exit code,
the output and the child's own peak memory (its rusage, from wait4)."""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MEMORY_LIMIT = 8 << 30        # address space: llvmpipe maps a lot it never touches


@dataclass
class Ran:
    code: int                 # the exit code; -N for a signal; None after the timeout
    out: str                  # stdout and stderr together
    peak_mib: float           # the child's peak resident memory
    seconds: float

    def expect(self, *codes: int) -> "Ran":
        assert self.code in codes, f"exit {self.code}, expected {codes}:\n{self.out[-3000:]}"
        assert "Traceback" not in self.out and "internal.error" not in self.out, self.out[-3000:]
        return self


def _limits(memory: int, file_size: int | None):
    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if file_size is not None:          # a full disk: a write past it fails (EFBIG)
            import signal
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))
    return apply


def kzplayer(*args, cwd=None, timeout: float = 180, memory: int = MEMORY_LIMIT, env=None,
             file_size: int | None = None) -> Ran:
    """`python -m kzplayer.cli ARGS` of this checkout in a child process."""
    environ = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    environ.pop("DISPLAY", None)
    environ.pop("WAYLAND_DISPLAY", None)
    return run([sys.executable, "-m", "kzplayer.cli", *map(str, args)], cwd=cwd, timeout=timeout,
               memory=memory, env=environ, file_size=file_size)


def run(argv, cwd=None, timeout: float = 180, memory: int = MEMORY_LIMIT, env=None,
        file_size: int | None = None) -> Ran:
    with tempfile.TemporaryFile() as out:
        start = time.monotonic()
        child = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                 env=env, preexec_fn=_limits(memory, file_size))
        code = usage = None
        while time.monotonic() - start < timeout:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                code = os.waitstatus_to_exitcode(status)
                break
            time.sleep(0.05)
        else:
            child.kill()
            _, _, usage = os.wait4(child.pid, 0)
        child.returncode = code if code is not None else -9
        seconds = time.monotonic() - start
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    return Ran(code, text, usage.ru_maxrss / 1024, seconds)
