"""`kzplayer batch`: the command line into jobs (kzplayer.batch.plan, or a TOML manifest:
kzplayer.batch.manifest), run on the local pool or Ray (kzplayer.batch.run); docs/batch.md.
Exit codes: 0 every job ok, 1 a job failed or could not run, 2 a bad command line or
manifest, 130 interrupted (a rerun goes on where it stopped)."""
from __future__ import annotations

import click
from kzplayer import batch
from kzplayer.batch.manifest import load_manifest, parse_memory
from kzplayer.batch.progress import TerminalProgress
from kzplayer.batch.runner import BackendError
from kzplayer.commands import limits
from kzplayer.commands.play import frame_count, parse_size

DEFAULT_OUT = "batch-out"


def run(what, projects, *, sets=(), seed=None, frames=None, seconds=None, fps=30.0, size=None, fmt="gif",
        lod=True, strict=False, out=None, workers=None, ray=None, timeout=None, memory=None, retries=None,
        force=False, segment_frames=None) -> int:
    settings: dict = {}
    try:
        if what.endswith(".toml"):
            if projects or sets or seed:
                raise batch.PlanError("a manifest says its projects and values itself: give the .toml alone "
                                      "(with --out, --workers, --ray, --force)")
            jobs, settings = load_manifest(what)
        else:
            kinds = [k.strip() for k in what.split(",") if k.strip()]
            if not projects:
                raise batch.PlanError(f"batch {what}: name the projects (kzplayer batch {what} a.kzm b.kzm ...)")
            _check_options(frames, seconds, fps, size, fmt)
            options = {k: v for k, v in (("frames", frames), ("seconds", seconds), ("fps", fps), ("size", size),
                                        ("format", fmt), ("lod", lod), ("strict", strict),
                                        ("segment_frames", segment_frames)) if v is not None}
            sweep = batch.sweep(sets, batch.plan_module.parse_seeds(seed) if seed else None)
            jobs = batch.plan(kinds, projects, sweep, options, timeout=timeout, memory=parse_memory(memory))
    except batch.PlanError as exc:
        raise click.UsageError(str(exc)) from None
    backend, address = ("ray", ray) if ray else ("local", None)
    try:
        result = batch.run(jobs, out=out or settings.get("out") or DEFAULT_OUT, backend=backend,
                           workers=workers or settings.get("workers"), address=address or "auto",
                           retries=settings.get("retries", 1) if retries is None else retries, force=force,
                           progress=TerminalProgress(), title=f"kzplayer batch {what}")
    except BackendError as exc:
        raise click.UsageError(str(exc)) from None
    counts = result.counts()
    tally = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
    click.echo(f"{len(result.records)} jobs: {tally}; results {result.out / 'results.jsonl'}; "
               f"contact sheet {result.out / 'index.html'}")
    if result.interrupted:
        click.echo("interrupted: run the same command again to go on (complete jobs are kept)", err=True)
        return 130
    return 0 if result.ok else 1


def _check_options(frames, seconds, fps, size, fmt) -> None:
    """What `play` would refuse, refused before any job runs (exit 2)."""
    limits.check_fps(fps)
    frame_count(frames, seconds, fps)
    if size:
        w, h = parse_size(size)
        if fmt == "mp4" and (w % 2 or h % 2):
            raise click.BadParameter(f"MP4 needs an even width and height, not {w}x{h}", param_hint="--size")
