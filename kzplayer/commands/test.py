"""`kzplayer test [PATHS]`: find `*.kztest.toml` specs under the paths (a spec file itself,
or a folder searched recursively; none: the current folder), run each (kzplayer.effecttest)
and report. Exit 0 every check passed, 1 a check failed, 2 a spec is bad or names what its
project lacks (or nothing was found)."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from kzplayer.effecttest.spec import SUFFIX
from kzplayer.commands.report import wants_color
from kzplayer.effecttest import Options, run_path
from kzplayer.effecttest import report
from kzplayer.effecttest import run as adapter


def find_specs(paths) -> list[Path]:
    found: list[Path] = []
    for text in paths or ["."]:
        path = Path(text)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob(f"*{SUFFIX}") if p.is_file()))
        elif path.is_file():
            found.append(path)
        else:
            raise click.BadParameter(f"{text!r}: no such file or folder", param_hint="PATHS")
    seen, unique = set(), []
    for p in found:
        if p.resolve() not in seen:
            seen.add(p.resolve())
            unique.append(p)
    return unique


def run(paths=(), fmt: str = "text", junit: str | None = None, update: bool = False,
        artifacts: str = "kztest-artifacts", verbose: bool = False) -> int:
    specs = find_specs(paths)
    if not specs:
        click.echo(f"kzplayer test: no {SUFFIX} spec under {', '.join(paths) or '.'}", err=True)
        return 2
    options = Options(update=update, artifacts=Path(artifacts))
    results = []
    try:
        for spec in specs:
            results.append(run_path(spec, options))
            if fmt == "text" and len(specs) > 1:
                click.echo(report.text(results[-1:], verbose=verbose, color=wants_color(sys.stdout)).rsplit("\n", 1)[0])
    finally:
        adapter.release_context()
    if junit:
        try:
            report.junit(results, junit)
        except OSError as exc:
            raise click.BadParameter(f"{junit!r} cannot be written: {exc.strerror or exc}", param_hint="--junit")
    if fmt == "github":
        click.echo(report.github(results))
    elif len(specs) > 1:
        click.echo(report.summary(results))
    else:
        click.echo(report.text(results, verbose=verbose, color=wants_color(sys.stdout)))
    if any(r.bad for r in results):
        return 2
    return 1 if any(r.failed for r in results) else 0
