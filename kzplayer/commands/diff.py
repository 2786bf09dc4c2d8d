"""`kzplayer diff OLD NEW`: the semantic diff of two projects (kzplayer.projdiff), as text,
JSON, GitHub annotations or Markdown; `--render T` writes the two versions' frames at T
seconds side by side (before | after) through the effect tests' player adapter. Exit 0
(whether or not there are changes: a diff is a report), 2 for what cannot be read."""
from __future__ import annotations

import click
from kzplayer.projdiff import diff_projects, open_side
from kzplayer.projdiff import output
from kzplayer.commands.play import parse_size
from kzplayer.effecttest import run as adapter
from kzplayer.effecttest.checks import frame_at
from kzplayer.effecttest.pictures import write_png


def run(old: str, new: str, fmt: str = "text", render: float | None = None, render_output: str = "diff.png",
        size: str = "320x180", seed: int = 1, fps: float = 30.0) -> int:
    a = open_side(old)
    try:
        b = open_side(new)
    except BaseException:
        a.close()
        raise
    try:
        changes = diff_projects(a, b)
        picture = None
        if render is not None:
            picture = _render(a, b, render, render_output, size, seed, fps)
        if fmt == "json":
            click.echo(output.as_json(changes, a, b))
        elif fmt == "github":
            click.echo(output.github(changes, a, b))
        elif fmt == "markdown":
            click.echo(output.markdown(changes, a, b, picture))
        else:
            click.echo(output.text(changes, a, b))
            if picture:
                click.echo(f"wrote {picture} (before | after at {render:g} s)")
    finally:
        a.close()
        b.close()
    return 0


def _render(a, b, seconds: float, path: str, size: str, seed: int, fps: float) -> str:
    import numpy as np
    if not (0 < seconds <= 600):
        raise click.BadParameter("a time in seconds, above 0 and at most 600", param_hint="--render")
    w, h = parse_size(size)
    n = frame_at(seconds, fps)
    images = []
    try:
        for side in (a, b):
            loaded = adapter.Loaded(side.project, side.graph)
            images.append(adapter.play(loaded, seed=seed, size=(w, h), fps=fps, frames=n, images_at={n}).images[n])
    finally:
        adapter.release_context()
    gap = np.full((h, 4, 3), 128, np.uint8)
    write_png(path, np.concatenate([images[0], gap, images[1]], axis=1))
    return path
