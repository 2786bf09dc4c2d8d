"""`kzplayer convert SRC DST`: between the single-file and the folder layout (cli.md).
DST ending in .kzm is one file (an existing one only with --force); anything else a project
folder (new or empty). Copies the files the project names (its assets) beside it, and says
how many of each kind. Never onto the project's own files; says what it does not carry over
(XML comments, Kanzi Studio editor properties, assets outside the project or missing)."""
from __future__ import annotations

import sys

import click

from kzplayer.commands.report import print_diagnostics
from kzplayer.project.convert import convert, dropped_comments, left_out, target_layout


def run(src: str, dst: str, force: bool = False) -> None:
    project, files, assets = convert(src, dst, force=force)
    if project.diagnostics:
        print_diagnostics(project.diagnostics, stream=sys.stderr)
    comments = dropped_comments(project)
    if comments:
        click.echo(f"note: the {comments} XML comment{'s' if comments > 1 else ''} of {src} "
                   f"{'are' if comments > 1 else 'is'} not carried over: a converted project is "
                   "written fresh (saving in place keeps comments)", err=True)
    dropped = left_out(project)
    if dropped:
        shown = ", ".join(dropped[:6]) + (", ..." if len(dropped) > 6 else "")
        click.echo(f"note: left out {len(dropped)} Kanzi Studio editor properties that a .kzm does "
                   f"not hold ({shown})", err=True)
    for missing in assets.left_out:
        click.echo(f"note: not copied: {missing.message}", err=True)
    copied = assets.summary()
    also = f", and copied {copied} beside it" if copied else ""
    if assets.present:
        n = len(assets.present)
        also += f" ({n} asset file{'s' if n > 1 else ''} already there, unchanged)"
    if target_layout(dst) == "file":
        click.echo(f"{project.name}: wrote one file to {dst}{also}")
    else:       # the project file is NAME.proj.kzm whatever DST called it
        written = len(files) - len(assets.copied)
        click.echo(f"{project.name}: wrote a project folder of {written} files: {files[0]}{also}")
