"""The long fuzz run (`make fuzz`): inputs through every channel until a time or count
budget is spent, resumable, every finding saved to replay.

    python -m tests.fuzz.run                     # FUZZ_SECONDS (default 600) of fuzzing
    FUZZ_SECONDS=3600 FUZZ_COUNT=200000 make fuzz
    python -m tests.fuzz.run --replay cli:123    # one input again, with its traceback

Environment: FUZZ_SECONDS (wall-clock budget of this run), FUZZ_COUNT (stop after this
many inputs in all, 0 = no limit), FUZZ_STATE (the state folder, default .fuzz/: counts,
findings and where each channel goes on), FUZZ_CHANNELS (e.g. "expr,loader"), FUZZ_SEED.
Input N of a channel is made from the seed "SEED:CHANNEL:N" alone, so a run that stops
goes on where it stopped and any input can be made again. Each input has a wall-clock
limit (a hang) and the process a memory limit (an input that eats memory is a finding,
not a dead machine). Prints and saves (state.json) per channel: inputs, outcomes, uncaught
exceptions, hangs, the slowest input.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path

from tests.fuzz import assets
from tests.fuzz import channels as C
from tests.fuzz import corpus
from tests.fuzz.mutate import mutate_expression, mutate_project

WEIGHTS = {"expr": 12, "loader": 4, "validate": 3, "cli": 1, "assets": 12}      # inputs per round
# CPU seconds an input may take (all threads: llvmpipe's too); past it, a hang. CPU time,
# not wall-clock time, so that a loaded machine does not make slow inputs look hung; a
# wall-clock limit of WALL times as much still catches an input that blocks.
LIMITS = {"expr": 10.0, "loader": 20.0, "validate": 30.0, "cli": 60.0, "assets": 10.0}
WALL = 10
MEMORY = 6 << 30                                                   # bytes of address space


class Hang(Exception):
    pass


def make_input(channel: str, n: int, seed: str) -> str:
    """Input N of a channel: a corpus entry, mutated; deterministic."""
    rng = random.Random(f"{seed}:{channel}:{n}")
    if channel == "assets":                  # a file's name and its bytes, as text (latin-1)
        name, data, _ = assets.make(n, f"{seed}:assets")
        return name + "\n" + data.decode("latin-1")
    if channel == "expr":
        pool = corpus.expressions()
        return mutate_expression(rng.choice(pool), rng, pool)
    files = corpus.small_projects() if channel == "cli" else corpus.project_files()
    texts = [t for _, t in files]
    base = rng.choice(texts)
    if channel == "cli" and rng.random() < 0.3:
        return base                                   # the valid project itself, with hostile options
    return mutate_project(base, rng, texts)


def run_one(channel: str, n: int, seed: str, work: Path) -> tuple[str, float, str | None]:
    """(outcome, seconds, the finding's report or None)."""
    text = make_input(channel, n, seed)
    rng = random.Random(f"{seed}:{channel}:{n}:run")
    for p in work.iterdir():
        shutil.rmtree(p) if p.is_dir() else p.unlink()
    start = time.perf_counter()
    signal.setitimer(signal.ITIMER_PROF, LIMITS[channel])
    signal.setitimer(signal.ITIMER_REAL, LIMITS[channel] * WALL)
    try:
        outcome, report = C.CHANNELS[channel](text, rng, work), None
    except Hang as exc:
        outcome, report = "hang", f"no result after {exc}"
    except C.Bug as exc:
        outcome, report = "bug", str(exc)
    except BaseException as exc:          # noqa: BLE001 - anything that escapes is the finding
        if isinstance(exc, KeyboardInterrupt):
            raise
        outcome, report = "bug", "".join(traceback.format_exception(exc))
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
    took = time.perf_counter() - start
    if report is not None:
        report = f"channel: {channel}\ninput: {channel}:{n} (seed {seed})\n{report}\n--- input ---\n{text}"
    return outcome, took, report


def _alarm(signum, frame):
    raise Hang("its CPU-time limit" if signum == signal.SIGPROF else "its wall-clock limit")


def _share_one_gl_context():
    """Every play in one process shares one standalone EGL context (a context per run costs
    more than the run); releasing it is left to the end of the process."""
    from kzplayer.gpu import context as gl
    make = gl.create_context
    shared = {}

    class _Shared:
        def __init__(self, ctx):
            self._ctx = ctx

        def __getattr__(self, name):
            return getattr(self._ctx, name)

        def release(self):
            pass

    def create_context(headless=True, **kw):
        if "ctx" not in shared:
            shared["ctx"] = make(headless=True)
        return _Shared(shared["ctx"])

    gl.create_context = create_context       # looked up at each call (play, the shader check)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("FUZZ_SECONDS", 600)))
    parser.add_argument("--count", type=int, default=int(os.environ.get("FUZZ_COUNT", 0)))
    parser.add_argument("--state", default=os.environ.get("FUZZ_STATE", ".fuzz"))
    parser.add_argument("--channels", default=os.environ.get("FUZZ_CHANNELS", ",".join(WEIGHTS)))
    parser.add_argument("--seed", default=os.environ.get("FUZZ_SEED", "kzplayer"))
    parser.add_argument("--replay", help="CHANNEL:N: run one input again and print what happens")
    args = parser.parse_args(argv)

    os.environ.setdefault("KZPLAYER_NO_PROGRESS", "1")
    os.environ.pop("KZPLAYER_DEBUG", None)
    signal.signal(signal.SIGALRM, _alarm)
    signal.signal(signal.SIGPROF, _alarm)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY or soft > MEMORY:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, hard))
    _share_one_gl_context()
    work = Path(tempfile.mkdtemp(prefix="kzplayer-fuzz-"))
    try:
        if args.replay:
            channel, n = args.replay.split(":")
            outcome, took, report = run_one(channel, int(n), args.seed, work)
            print(f"{args.replay}: {outcome} in {took:.2f} s")
            if report:
                print(report)
            return 1 if report else 0
        return _campaign(args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _campaign(args, work: Path) -> int:
    state_dir = Path(args.state)
    (state_dir / "findings").mkdir(parents=True, exist_ok=True)
    state_file = state_dir / "state.json"
    state = json.loads(state_file.read_text()) if state_file.exists() else {}
    if state.get("seed", args.seed) != args.seed:
        state = {}
    state["seed"] = args.seed
    chosen = [c for c in args.channels.split(",") if c in WEIGHTS]
    stats = state.setdefault("channels", {})
    for c in chosen:
        stats.setdefault(c, {"next": 0, "inputs": 0, "outcomes": {}, "bugs": 0, "hangs": 0,
                             "slowest": [0.0, None], "seconds": 0.0})
    deadline = time.monotonic() + args.seconds
    done = 0
    last_save = time.monotonic()
    try:
        while time.monotonic() < deadline and (not args.count or done < args.count):
            for channel in chosen:
                for _ in range(WEIGHTS[channel]):
                    if args.count and done >= args.count:
                        break
                    s = stats[channel]
                    n = s["next"]
                    outcome, took, report = run_one(channel, n, args.seed, work)
                    s["next"] = n + 1
                    s["inputs"] += 1
                    s["seconds"] += took
                    s["outcomes"][outcome] = s["outcomes"].get(outcome, 0) + 1
                    if outcome == "bug":
                        s["bugs"] += 1
                    if outcome == "hang":
                        s["hangs"] += 1
                    if took > s["slowest"][0]:
                        s["slowest"] = [round(took, 3), f"{channel}:{n}"]
                    if report:
                        (state_dir / "findings" / f"{channel}-{n}.txt").write_text(report, encoding="utf-8",
                                                                                   errors="replace")
                    done += 1
            if time.monotonic() - last_save > 30:
                _save(state_file, state)
                last_save = time.monotonic()
    except KeyboardInterrupt:
        pass
    finally:
        state["elapsed"] = state.get("elapsed", 0.0) + args.seconds - max(0.0, deadline - time.monotonic())
        _save(state_file, state)
    print(report_text(state))
    return 1 if any(stats[c]["bugs"] or stats[c]["hangs"] for c in chosen) else 0


def _save(path: Path, state: dict) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(state, indent=1))
    os.replace(tmp, path)


def report_text(state: dict) -> str:
    lines = [f"fuzz (seed {state['seed']!r}, {state.get('elapsed', 0) / 60:.1f} min in all):",
             f"{'channel':<10}{'inputs':>10}{'uncaught':>10}{'hangs':>7}  slowest input"]
    total = 0
    for c, s in state["channels"].items():
        total += s["inputs"]
        slow = f"{s['slowest'][1]} ({s['slowest'][0]:.2f} s)" if s["slowest"][1] else "-"
        lines.append(f"{c:<10}{s['inputs']:>10,}{s['bugs']:>10}{s['hangs']:>7}  {slow}")
    lines.append(f"{'all':<10}{total:>10,}")
    for c, s in state["channels"].items():
        shown = ", ".join(f"{k} {v:,}" for k, v in sorted(s["outcomes"].items(), key=lambda kv: -kv[1]))
        lines.append(f"  {c}: {shown}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
