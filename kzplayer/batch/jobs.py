"""THE ADAPTER: every call the batch makes into kzplayer's loading, validation, testing and
rendering is in this module (and, for the test kind, effect_tests.py beside it), through
public APIs only. When those APIs change (issue 24: the Player/Simulation constructors;
`kzplayer.effecttest`), these are the files to adapt.

Each runner takes a Job and its folder, writes its outputs there (atomically: a temporary
name, then a rename) and returns a dict: status ("ok" or "failed"), outputs (file names in
the folder), findings (counts of errors / warnings / notes), counts (what ran) and message.
Bad input raises KzError (the worker reports it as "error"). Runners run in a worker
process, which keeps one standalone EGL context for all its jobs (`_context`).
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from kzplayer.project.catalog import catalog
from kzplayer.project.loader import load
from kzplayer.bindings import parse_override, resolve
from kzplayer.validate import validate_project
from kzplayer.commands.play import MAX_SIZE, frame_count, parse_size
from kzplayer.scene import Scene
from kzplayer.render.offline import render_offline
from kzplayer.batch.effect_tests import effect_tests
from kzplayer.diagnostics import KzError
from kzplayer.effecttest.run import context

THUMB = 240                     # the contact sheet's thumbnail, pixels on its longer side
FORMATS = ("gif", "mp4", "png")

_ctx = None


def _context():
    """This worker's GL context: made on its first render job, kept for the next ones."""
    global _ctx
    if _ctx is None:            # the effect tests' own context: one per worker for every kind
        _ctx = context()
    return _ctx


def tuple_property(name: str) -> bool:
    """A stock property whose value is itself a comma list (vector, colour): the planner
    reads `1,0,0` on it as one value."""
    try:
        spec = catalog().property(name)
    except (KeyError, LookupError):
        return False
    return spec is not None and spec.type in ("vector2", "vector3", "color4")


def _prepare(job):
    """The project loaded, its bindings resolved and the job's --set values applied, and
    what `kzplayer validate` finds in it then (KzError for what stops loading)."""
    project = load(job.project)
    graph = resolve(project)
    for text in job.sets:
        item, name, value = parse_override(text, project)
        graph.set_value(item, name, value)
    findings = validate_project(project, project.diagnostics, graph)
    return project, graph, findings


def _finding(d) -> dict:
    span = d.span
    return {"code": d.code, "rule": d.rule, "severity": str(d.severity.value), "message": d.message,
            "at": f"{span.file}:{span.line}:{span.column}" if span else None, "hint": d.hint}


def _counts(findings) -> dict:
    sev = [str(d.severity.value) for d in findings]
    return {"errors": sev.count("error"), "warnings": sev.count("warning"), "notes": sev.count("note")}


def run_validate(job, folder: Path) -> dict:
    """`kzplayer validate` on the variant: findings.json; failed on an error (with strict,
    a warning too)."""
    _, _, findings = _prepare(job)
    counts = _counts(findings)
    write_json(folder / "findings.json", [_finding(d) for d in findings])
    bad = counts["errors"] or (job.option("strict") and counts["warnings"])
    return {"status": "failed" if bad else "ok", "outputs": ["findings.json"], "findings": counts,
            "counts": {}, "message": _first(findings)}


def run_render(job, folder: Path) -> dict:
    """`kzplayer play --headless --output` on the variant: render.<format> and a thumbnail."""
    project, graph, findings = _prepare(job)
    fmt = job.option("format", "gif")
    fps = float(job.option("fps", 30.0))
    n_frames = frame_count(job.option("frames"), job.option("seconds"), fps)
    size = parse_size(job.option("size")) if job.option("size") else Scene(project, graph, records=False).viewport_size(MAX_SIZE)
    final = folder / f"render.{fmt}"
    with atomic(final) as tmp:
        result = render_offline(project, graph, size, n_frames=n_frames, fps=fps, seed=job.seed,
                                output=str(tmp), ctx=_context(), lod=bool(job.option("lod", True)))
    thumb = write_thumbnail(final, folder)
    counts = {"frames": result.frames, "emitters": result.emitters, "alive": result.alive,
              "size": f"{size[0]}x{size[1]}"}
    return {"status": "ok", "outputs": [final.name, thumb.name], "findings": _counts(findings),
            "counts": counts, "message": _first(findings)}


def run_test(job, folder: Path) -> dict:
    """The project's effect tests (`kzplayer test`) on the variant: tests.json with every
    check's case; failed when one fails. Pictures under a variant that changes values are
    skipped (their goldens belong to the spec's own values: docs/batch.md)."""
    report = effect_tests(job.project, job.sets, job.seed, folder / "artifacts")
    write_json(folder / "tests.json", report.as_json())
    outputs = ["tests.json", *(str(Path(a).relative_to(folder)) for a in report.artifacts)]
    counts = {"passed": report.passed, "failed": report.failed, "skipped": report.skipped,
              "specs": len(report.specs)}
    return {"status": "failed" if report.failed else "ok", "outputs": outputs, "findings": {},
            "counts": counts, "message": report.first_failure()}


def run_call(job, folder: Path) -> dict:
    """A Python function job (`module:function`, called with the job and its folder): the
    API's way to batch any work; the tests use it for crashing and hanging jobs."""
    import importlib
    module, _, name = (job.target or "").partition(":")
    return getattr(importlib.import_module(module), name)(job, folder)


RUNNERS = {"validate": run_validate, "render": run_render, "test": run_test, "call": run_call}


def error_text(exc) -> str:
    """A KzError's diagnostics as `file:line:col: message` lines, anything else as one line."""
    if isinstance(exc, KzError):
        return "; ".join(f"{d.span}: {d.message}" if d.span else d.message for d in exc.diagnostics)
    return f"{type(exc).__name__}: {exc}"


def is_bad_input(exc) -> bool:
    return isinstance(exc, KzError)


def _first(findings) -> str:
    worst = [d for d in findings if str(d.severity.value) == "error"]
    return f"{worst[0].span}: {worst[0].message}" if worst and worst[0].span else ""


# --- files: written under a temporary name, renamed when complete ---

class atomic:
    """`with atomic(path) as tmp:` write tmp (same suffix, same folder); renamed on success."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.tmp = self.path.with_name(f".{self.path.stem}.partial-{os.getpid()}{self.path.suffix}")

    def __enter__(self) -> Path:
        return self.tmp

    def __exit__(self, kind, *_):
        if kind is None:
            os.replace(self.tmp, self.path)
        else:
            self.tmp.unlink(missing_ok=True)


def write_json(path: Path, value) -> None:
    with atomic(path) as tmp:
        tmp.write_text(json.dumps(value, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def write_thumbnail(render: Path, folder: Path) -> Path:
    """thumb.gif (every frame, scaled) for a GIF, thumb.png (the last frame) otherwise."""
    from PIL import Image, ImageSequence
    if render.suffix == ".gif":
        with Image.open(render) as im:
            scale = min(1.0, THUMB / max(im.size))
            size = (max(1, round(im.width * scale)), max(1, round(im.height * scale)))
            frames = [f.convert("RGB").resize(size, Image.BILINEAR) for f in ImageSequence.Iterator(im)]
            duration = im.info.get("duration", 33)
        out = folder / "thumb.gif"
        with atomic(out) as tmp:
            frames[0].save(tmp, save_all=True, append_images=frames[1:], duration=duration, loop=0)
        return out
    if render.suffix == ".mp4":
        import imageio.v3 as iio
        last = None
        for last in iio.imiter(render, plugin="pyav") if _has_pyav() else _mp4_frames(render):
            pass
        image = Image.fromarray(last)
    else:
        image = Image.open(render).convert("RGB")
    image.thumbnail((THUMB, THUMB), Image.BILINEAR)
    out = folder / "thumb.png"
    with atomic(out) as tmp:
        image.save(tmp)
    return out


def _has_pyav() -> bool:
    import importlib.util
    return importlib.util.find_spec("av") is not None


def _mp4_frames(path: Path):
    import imageio.v2 as iio2
    with iio2.get_reader(str(path), format="FFMPEG") as reader:
        yield from reader
