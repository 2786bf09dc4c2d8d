"""`kzplayer play FILE --watch [--headless --output FILE.png|.gif]`: the live preview's
command line (the watching and applying is kzplayer.render.live; docs/play.md "Live
preview"). In the window (render/window.py) each save applies between frames. Headless,
the output is written once at the start and rewritten atomically after each save that
changes something: a .png is the frame at that moment, a .gif the next --seconds (or
--frames) of the effect from that moment. One line per save
says what happened on stderr; a broken save prints its diagnostics and keeps the last good
state. Ctrl+C ends it (exit 0).
"""
from __future__ import annotations

import threading
import time

import click

from kzplayer.bindings import parse_override, resolve
from kzplayer.commands.loading import PLAYED, _load, print_diagnostics_stderr, print_warnings, validate_findings
from kzplayer.diagnostics import KzError, Severity
from kzplayer.gpu.context import create_context
from kzplayer.render.budget import FRAME_BUDGET
from kzplayer.render.live import LiveSession
from kzplayer.render.live_loop import watch_loop, write_atomically
from kzplayer.render.player import Player
from kzplayer.render.writers import open_writer


def check_watch(project, output, window, stats, dump, events) -> None:
    """--watch needs a project, and then either the window or --output FILE.png|.gif (exit 2
    otherwise); a window is not given --output (run() says so)."""
    if project is None:
        raise click.UsageError("--watch watches a project: give its file or folder")
    if stats or dump or events:
        raise click.UsageError("--watch writes --output only (not --stats, --dump or --events)")
    if output and not str(output).lower().endswith((".png", ".gif")):
        raise click.UsageError("--watch rewrites an image after each save: give --output FILE.png or FILE.gif")
    if window is False and not output:
        raise click.UsageError("--watch --headless rewrites an image after each save: give --output FILE.png or FILE.gif")


def window_watch(path, overrides):
    """The `watch` of render.window.play_in_window: (path, load, report, said)."""

    def said(outcome):
        click.echo(f"kzplayer: {time.strftime('%H:%M:%S')} {describe(outcome)}", err=True)
    return (path, lambda p: read_live(p, overrides), print_diagnostics_stderr, said, check_live)


def read_live(path: str, overrides=()):
    """(project, graph) of a save, read and resolved but not checked: the live session applies
    it, draws the frame that shows it, and only then runs `check_live` (which undoes a save
    that does not play). The loader's errors raise KzError here already."""
    proj = _load(path)
    graph = resolve(proj)
    for text in overrides:
        item, name, new_value = parse_override(text, proj)
        graph.set_value(item, name, new_value)
    return proj, graph


def check_live(proj, graph) -> None:
    """What load_live checks after reading: KzError for every error `validate` finds (a
    binding that cannot compute, an unknown material), the other findings on stderr."""
    findings = validate_findings(proj, graph, skip=("shader.compile", *PLAYED))
    errors = [d for d in findings if d.severity == Severity.ERROR]
    if errors:
        raise KzError(errors, exit_code=1)
    print_diagnostics_stderr(findings)


def load_live(path: str, overrides=()):
    """(project, graph) for the live session; KzError for a save that does not play: the
    loader's errors, a binding that cannot compute, and every error `validate` finds (an
    unknown material), so that a broken save keeps the last good state playing. The first
    load of a --watch run is this one too: what a later save may not do, the first may not."""
    proj = _load(path)
    graph = resolve(proj)
    # the shaders are compiled by the live session on the player's own context (a second
    # context made here would leave the player's unbound), reported at file:line as validate does
    findings = validate_findings(proj, graph, skip=("shader.compile", *PLAYED))
    errors = [d for d in findings if d.severity == Severity.ERROR]
    if errors:
        raise KzError(errors, exit_code=1)
    print_diagnostics_stderr(findings)
    for text in overrides:
        item, name, new_value = parse_override(text, proj)
        graph.set_value(item, name, new_value)
    return proj, graph


def describe(outcome) -> str:
    took = f"{outcome.seconds * 1000:.0f} ms"
    compiled = f"{outcome.compiled} program(s) compiled"
    if outcome.kind == "applied" and outcome.reason is None:
        names = sorted({f"{e.path.rsplit('/', 1)[-1]}.{e.name.rsplit('.', 1)[-1]}" for e in outcome.edits})
        return f"applied {len(outcome.edits)} value(s) live ({', '.join(names[:4])}) in {took}"
    if outcome.kind == "applied":
        return (f"applied in place ({outcome.reason}): {len(outcome.kept)} system(s) kept their particles, "
                f"{compiled}, in {took}")
    if outcome.kind == "rebuilt":
        kept = f"; {len(outcome.kept)} other system(s) kept their particles" if outcome.kept else ""
        return (f"rebuilt {', '.join(outcome.rerun[:4])}{' ...' if len(outcome.rerun) > 4 else ''} "
                f"({outcome.reason}; {compiled}) and re-ran {'it' if len(outcome.rerun) == 1 else 'them'} "
                f"to the same time{kept} in {took}")
    if outcome.kind == "reloaded":
        names = sorted({p.rsplit('/', 1)[-1] for p in outcome.assets}) or ["shaders"]
        return f"reloaded {', '.join(names[:4])} in {took}"
    if outcome.kind == "broken":
        return "the save does not play (above); the last good state plays on"
    return "nothing that plays changed"


def play_watch(path, overrides, size, *, n_frames, fps, seed, output, frame_budget=None, lod=True,
               stop: threading.Event | None = None, ctx=None, on_change=None) -> None:
    """Play `path` live until Ctrl+C (or `stop`, for tests, with their `ctx`); `on_change(outcome)`
    hears each save after its output was written."""

    own_ctx = ctx is None
    ctx = ctx or create_context(headless=True)

    def make_player(project, graph):
        player = Player(ctx, project, graph, size, seed=seed, warn=print_warnings,
                        frame_budget=FRAME_BUDGET if frame_budget is None else frame_budget, lod=lod)
        player.prepare()
        return player

    gif = str(output).lower().endswith(".gif")

    def write(player) -> None:
        def to(tmp):
            with open_writer(tmp, fps, size) as writer:
                if gif:
                    for _ in range(n_frames):
                        player.step(1.0 / fps)
                        player.draw()
                        writer.write(player.image())
                else:
                    player.draw()
                    writer.write(player.image())
        write_atomically(output, to)

    session = LiveSession(path, load=lambda p: read_live(p, overrides), make_player=make_player,
                          report=print_diagnostics_stderr, check=check_live)
    try:
        session.start()
        write(session.player)
        click.echo(f"kzplayer: watching {path} (Ctrl+C ends); wrote {output}", err=True)

        unchecked = [False]     # the output shows a save whose checks have not run yet

        def changed(outcome):
            shown = outcome.kind in ("applied", "rebuilt", "reloaded")
            if shown and gif:
                # a .gif plays the effect on: the save's checks first (a broken one undone)
                outcome = session.settle() or outcome
                shown = outcome.kind != "broken"
            wrote = shown or (outcome.kind == "broken" and unchecked[0])
            if wrote:
                write(session.player)        # (a broken save undone: the last good state again)
            unchecked[0] = shown and not gif
            click.echo(f"kzplayer: {time.strftime('%H:%M:%S')} {describe(outcome)}"
                       + (f"; wrote {output}" if wrote else ""), err=True)
            if on_change is not None:
                on_change(outcome)

        try:
            watch_loop(session, on_change=changed, stop=stop)
        except KeyboardInterrupt:
            pass
    finally:
        session.release()
        if own_ctx:
            ctx.release()
