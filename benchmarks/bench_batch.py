"""Batches: 1 vs 2 local workers on 40 small render jobs, what a job costs on Ray against
the local pool, and one long shot rendered in segments on 2 workers against one process.

    python benchmarks/bench_batch.py [--jobs 40] [--repeat 3] [--no-ray] [--no-jobs]
                                     [--shot-seconds 20] [--segment-frames 150] [--no-shot]

The render jobs: the fountain sample at 40 rates (10..400 a second), 30 frames at 320x180
to GIF with a thumbnail, as `kzplayer batch render` runs them (every job run again: force).
Each batch is timed whole, from the first worker's start (spawn, imports, EGL context) to
the last result; the cases alternate (1 worker, 2 workers, 1, 2 ...) so the load of other
work on the machine falls on both alike. Then the overhead per job: 40 jobs that do nothing
(the `call` kind: write one small file) on the local pool and on a local Ray instance of
the same number of CPUs (started once, before timing), and the 40 render jobs on both.
The long shot: the fire sample (21 emitters and mesh models: the render costs ~0.1 s a frame
on llvmpipe, its simulation a few ms), 20 s at 30 fps (600 frames) at 320x180 to MP4, as one
render job on one worker (what `kzplayer play --output` does, in a worker) and as a segmented
render on 2 workers (the checkpoints job, the segments of --segment-frames in parallel, the
MP4 encoded once from their frames), interleaved; the MP4s are checked equal first.
Prints min / median / max, the ratios and the machine's load average for docs/benchmarks.md.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import _timing  # noqa: E402

from kzplayer import batch  # noqa: E402
from kzplayer.batch.plan import Job  # noqa: E402

NOZZLE = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Nozzle"


def render_jobs(n: int):
    rates = ",".join(str(10 * (i + 1)) for i in range(n))
    return batch.plan(["render"], [REPO / "sample_projects" / "demo_fountain.kzm"],
                      batch.sweep([f"{NOZZLE}:Emission.Rate={rates}"]),
                      {"frames": 30, "size": "320x180", "format": "gif"})


def empty_jobs(n: int):
    return [Job(kind="call", project="", name="empty", variant=f"j{i}", target="bench_batch:nothing")
            for i in range(n)]


def nothing(job, folder):
    (folder / "out.txt").write_text(job.variant)
    return {"status": "ok", "outputs": ["out.txt"]}


def runner(jobs, out, **kw):
    def go():
        r = batch.run(jobs, out=out, force=True, **kw)
        assert r.counts() == {"ok": len(jobs)}, [(x.job.id, x.status, x.message) for x in r.records if x.status != "ok"]
    return go


def shot_jobs(args, segment_frames: int | None):
    options = {"seconds": args.shot_seconds, "size": args.shot_size, "format": "mp4"}
    if segment_frames:
        options["segment_frames"] = segment_frames
    return batch.plan(["render"], [REPO / "sample_projects" / f"{args.shot}.kzm"], None, options)


def children_cpu() -> float:
    """CPU seconds of the reaped child processes so far (the workers and their encoders)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_counted(fn, into: list):
    def go():
        before = children_cpu()
        fn()
        into.append(children_cpu() - before)
    return go


def bench_shot(out: Path, args) -> None:
    single, segmented = shot_jobs(args, None), shot_jobs(args, args.segment_frames)
    cpu = {"one process": [], "segments, 2 workers": []}
    cases = {"one process": cpu_counted(runner(single, out / "single", workers=1), cpu["one process"]),
             "segments, 2 workers": cpu_counted(runner(segmented, out / "segmented", workers=2),
                                                cpu["segments, 2 workers"])}
    print(f"load average before the shot: {os.getloadavg()}")
    got = _timing.interleaved(cases, args.repeat)
    mp4 = f"render/{args.shot}/default/render.mp4"
    assert (out / "single" / mp4).read_bytes() == (out / "segmented" / mp4).read_bytes()
    one, two = got["one process"][0], got["segments, 2 workers"][0]
    pieces = len(segmented) - 2
    print(f"a {args.shot_seconds:g} s shot ({args.shot}, 30 fps, {args.shot_size} MP4), {pieces} segments of "
          f"{args.segment_frames} frames, interleaved x{args.repeat} (the MP4s are the same bytes):")
    print(line("one process", one) + f"  CPU (the workers') median {statistics.median(cpu['one process'][1:]):.1f} s")
    print(line("segments, 2 workers", two, one)
          + f"  CPU median {statistics.median(cpu['segments, 2 workers'][1:]):.1f} s")
    print(f"speed-up by median: x{statistics.median(one) / statistics.median(two):.2f}")
    print(f"load average after the shot: {os.getloadavg()}")
    records = batch.read_results(out / "segmented")
    for r in records:
        print(f"  {r['job']:60s} {r['seconds']:6.2f} s")


def line(name, walls, base=None):
    ratio = f"  x{min(base) / min(walls):.2f} (by min)" if base else ""
    return (f"{name:28s} min {min(walls):7.2f} s  median {statistics.median(walls):7.2f} s  "
            f"max {max(walls):7.2f} s{ratio}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-ray", action="store_true")
    ap.add_argument("--no-jobs", action="store_true", help="leave out the 40 jobs (and Ray)")
    ap.add_argument("--shot-seconds", type=float, default=20.0)
    ap.add_argument("--segment-frames", type=int, default=150)
    ap.add_argument("--shot-size", default="320x180")
    ap.add_argument("--shot", default="04_fire", help="the sample of the long shot")
    ap.add_argument("--no-shot", action="store_true")
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()}, cores: {os.cpu_count()}")
    with tempfile.TemporaryDirectory() as tmp:
        if not args.no_shot:
            bench_shot(Path(tmp), args)
        if not args.no_jobs:
            bench_jobs(Path(tmp), args)
    print(f"load average after: {os.getloadavg()}")


def bench_jobs(out: Path, args) -> None:
    jobs = render_jobs(args.jobs)
    got = _timing.interleaved({"1 worker": runner(jobs, out / "a", workers=1),
                               "2 workers": runner(jobs, out / "b", workers=2)}, args.repeat)
    one, two = got["1 worker"][0], got["2 workers"][0]
    print(f"{args.jobs} render jobs (fountain, 30 frames 320x180 GIF), interleaved x{args.repeat}:")
    print(line("1 worker", one))
    print(line("2 workers", two, one))
    print(f"speed-up by median: x{statistics.median(one) / statistics.median(two):.2f}")
    if args.no_ray:
        return
    import ray
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "benchmarks")])}})
    try:
        empty = empty_jobs(args.jobs)
        got = _timing.interleaved({"local": runner(empty, out / "c", workers=2),
                                   "ray": runner(empty, out / "d", backend="ray"),
                                   "local render": runner(jobs, out / "e", workers=2),
                                   "ray render": runner(jobs, out / "f", backend="ray")}, args.repeat)
        n = args.jobs
        print(f"{n} empty jobs on 2 CPUs, interleaved x{args.repeat} (Ray started once, before):")
        for name in ("local", "ray", "local render", "ray render"):
            walls = got[name][0]
            print(line(name, walls) + f"  = {1000 * min(walls) / n:.1f} ms a job (by min)")
        per = (min(got["ray"][0]) - min(got["local"][0])) / n
        per_r = (min(got["ray render"][0]) - min(got["local render"][0])) / n
        print(f"Ray's overhead a job: {1000 * per:+.1f} ms (empty jobs), {1000 * per_r:+.1f} ms (render jobs)")
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
