"""The `kzplayer` command line (contract: shared/design/cli.md).

Options are declared here, once; each command's work lives in kzplayer/commands/<name>.py.
Exit codes: 0 success, 1 the project has errors, 2 bad command line or unreadable file.
"""
from __future__ import annotations

import os
import sys

import click

from kzplayer.diagnostics import KzError


class _Group(click.Group):
    """Turns KzError into its message and exit code; never shows a traceback to users."""

    def main(self, *args, prog_name=None, **kwargs):
        # A name or value with a character the terminal cannot show (a lone surrogate from a
        # \ud800 escape) is printed escaped, never a UnicodeEncodeError.
        for stream in (sys.stdout, sys.stderr):
            if hasattr(stream, "reconfigure"):
                try:
                    stream.reconfigure(errors="backslashreplace")
                except (ValueError, OSError):
                    pass
        # `python cli.py` and `python -m kzplayer.cli` are the kzplayer command: say so in usage lines
        return super().main(*args, prog_name=prog_name or "kzplayer", **kwargs)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KzError as exc:
            # lazy, as each command below: `kzplayer --help` and `--version` load no stage
            from kzplayer.commands.report import print_diagnostics
            print_diagnostics(exc.diagnostics, stream=sys.stderr)
            ctx.exit(exc.exit_code)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            ctx.exit(130)
        except Exception as exc:  # a bug in kzplayer, not in the user's project
            if os.environ.get("KZPLAYER_DEBUG"):
                raise
            click.echo(f"kzplayer: internal error: {type(exc).__name__}: {exc}\n"
                       "(set KZPLAYER_DEBUG=1 for the traceback and please report it)", err=True)
            ctx.exit(3)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kzplayer", prog_name="kzplayer")
def main() -> None:
    """Read, validate and play Kanzi-style particle projects.

    \b
    kzplayer play                                  the built-in demo
    kzplayer play effect.kzm --output effect.mp4   render 5 s to a video
    kzplayer validate effect.kzm                   every problem, with file:line:column
    kzplayer inspect effect.kzm                    values after bindings

    PROJECT is a .kzm file, a NAME.proj.kzm file, a project folder or a Kanzi Studio
    .kzproj. The commands are described in docs/cli.md.
    """


@main.command(short_help="Play a project in a window, or render it to video or images.")
@click.argument("project", required=False)
@click.option("--frames", type=click.IntRange(min=1), help="Number of output frames to simulate.")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), help="Seconds to simulate (default 5).")
@click.option("--fps", type=float, default=60.0, show_default=True, help="Output frame rate, 1 to 1000.")
@click.option("--size", help="Image size WxH (default: the Viewport2D's size, else 640x360).")
@click.option("--seed", type=int, help="Override every Emission.Seed (0 to 4294967295).")
@click.option("--output", "-o", help=".mp4 / .gif / .png (last frame) / a folder (PNG sequence).")
@click.option("--window/--headless", default=None, help="Default: a window where a display exists.")
@click.option("--stats", help="Per-frame figures to a .csv or .json file.")
@click.option("--dump", help="Particle state of every emitter at the last frame, .npz.")
@click.option("--events", help="Births, deaths and hits of every emitter to a .jsonl file (one JSON object a line).")
@click.option("--events-cap", type=click.IntRange(min=1), help="Events --events keeps per ParticleSystem and frame (default 10000; the rest are counted as dropped).")
@click.option("--set", "overrides", multiple=True, metavar="'ITEM-PATH:Prop=VALUE'", help="Override a property (repeatable).")
@click.option("--watch", is_flag=True,
              help="Live preview: play on, headless, and apply each save of the project's files (needs --output .png or .gif).")
@click.option("--lod/--no-lod", default=True, show_default=True,
              help="Level of detail: emission rates (Emission.LodNear/LodFar) and fan-light and ribbon sides by distance.")
@click.option("--frame-budget", type=float, metavar="SECONDS",
              help="Stop when one output frame takes longer (default 10 s): an endless shader loop.")
@click.option("--start", type=float, metavar="SECONDS",
              help="Begin at this effect time: the first output frame is the one at T (re-run from 0, not drawn).")
@click.option("--speed", type=float, metavar="FACTOR",
              help="Slow motion, 0.1 to 1 (default 1): effect seconds per second of output.")
@click.option("--gpu-timers", is_flag=True,
              help="Time each ParticleSystem's simulation and drawing with GL timer queries: --stats gains sim_gpu_ms, draw_gpu_ms.")
@click.option("--hud", is_flag=True,
              help="Show the debug view (alive, emitted, GPU times...); headless: burnt into the output.")
@click.option("--msaa", type=click.Choice(["0", "2", "4", "8"]), default="0", show_default=True,
              help="Multisampling: samples a pixel (smooth edges of meshes, lines and ribbons); 0 = off.")
@click.option("--buffer-budget", type=float, metavar="GIB",
              help="GPU memory the particle buffers may take together (default 2 GiB).")
def play(buffer_budget=None, **opts) -> None:
    """Play PROJECT (a .kzm file, a .proj.kzm file, a project folder or a .kzproj); no
    PROJECT plays the built-in demo. A window where a display exists; --output, --stats and
    --dump render headless."""
    # lazy: only the command that runs is imported (play alone needs GL)
    from kzplayer.commands.limits import buffer_budget_scope
    from kzplayer.commands.play import run
    with buffer_budget_scope(buffer_budget):
        run(**opts)


@main.command()
@click.argument("projects", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github"]), default="text", show_default=True)
@click.option("--strict", is_flag=True, help="Warnings fail too.")
def validate(projects, fmt, strict) -> None:
    """Check files, paths, bindings and materials. Exit code 0 clean, 1 errors (with
    --strict also warnings), 2 a file that cannot be read."""
    # lazy: only the command that runs is imported
    from kzplayer.commands.validate import run
    sys.exit(run(projects, fmt=fmt, strict=strict))


@main.command(short_help="The item tree with its property values after bindings.")
@click.argument("project")
@click.option("--json", "as_json", is_flag=True, help="The same as JSON.")
@click.option("--defaults", is_flag=True,
              help="Also the unset properties in effect (of the item's type and of the materials "
                   "in its slots), with their catalog default, marked (default).")
@click.option("--paths", is_flag=True,
              help="One line per item with its full ProjectItemPath (what --set takes), not a tree.")
def inspect(project, as_json, defaults, paths) -> None:
    """The item tree with the value, after bindings, of every property set in the files or
    written by a binding (marked "bound"); with --defaults also those left unset; with
    --paths each item by its full path, ready for `play --set 'PATH:Prop=VALUE'`."""
    # lazy: only the command that runs is imported
    from kzplayer.commands.inspect import run
    run(project, as_json=as_json, defaults=defaults, paths=paths)


@main.command(short_help="Validate, test or render many projects and sweeps.")
@click.argument("what", metavar="KIND|MANIFEST.toml")
@click.argument("projects", nargs=-1)
@click.option("--set", "sets", multiple=True, metavar="'ITEM-PATH:Prop=VALUES'",
              help="A value or a sweep: 10,20,40 or 10..40:10 (repeatable: the product).")
@click.option("--seed", help="Seeds, one variant each: 1,2,3 or 1..8.")
@click.option("--frames", type=click.IntRange(min=1), help="Frames a render job simulates.")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), help="Seconds a render job simulates (default 5).")
@click.option("--fps", type=float, default=30.0, show_default=True, help="Render frame rate.")
@click.option("--size", help="Image size WxH (default: the Viewport2D's size, else 640x360).")
@click.option("--format", "fmt", type=click.Choice(["gif", "mp4", "png"]), default="gif", show_default=True,
              help="What a render job writes (png: the last frame).")
@click.option("--lod/--no-lod", default=True, show_default=True, help="Level of detail, as play.")
@click.option("--strict", is_flag=True, help="A validate job fails on warnings too.")
@click.option("--out", "-o", help="The output folder (default batch-out).")
@click.option("--workers", type=click.IntRange(min=1), help="Worker processes (default: the cores).")
@click.option("--ray", is_flag=False, flag_value="auto", metavar="auto|ADDRESS",
              help="Run on Ray: auto starts a local instance, ADDRESS joins a cluster.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), help="Seconds one job may run.")
@click.option("--memory", metavar="SIZE", help="Memory one job may add, e.g. 2G (RLIMIT_AS).")
@click.option("--retries", type=click.IntRange(min=0), help="Reruns of a job whose worker dies (default 1).")
@click.option("--force", is_flag=True, help="Run every job again, also those whose outputs are complete.")
@click.option("--segment-frames", type=click.IntRange(min=1), metavar="K",
              help="Render a long shot in segments of K frames, in parallel, from checkpoints.")
def batch(what, projects, sets, seed, frames, seconds, fps, size, fmt, lod, strict, out, workers, ray,
          timeout, memory, retries, force, segment_frames) -> None:
    """Run KIND (validate, render, test, or several: validate,render) on every PROJECT and
    every variant of the --set sweep, or the jobs of MANIFEST.toml. Outputs under --out:
    KIND/NAME/VARIANT/, results.jsonl, index.html (the contact sheet). A rerun keeps the
    jobs whose outputs are complete. Exit 0 all ok, 1 a job not ok, 2 bad input, 130 interrupted."""
    # lazy: only the command that runs is imported
    from kzplayer.commands.batch import run
    sys.exit(run(what, projects, sets=sets, seed=seed, frames=frames, seconds=seconds, fps=fps, size=size,
                 fmt=fmt, lod=lod, strict=strict, out=out, workers=workers, ray=ray, timeout=timeout,
                 memory=memory, retries=retries, force=force, segment_frames=segment_frames))


@main.command(short_help="Single-file project <-> one file per item (a folder).")
@click.argument("src")
@click.argument("dst")
@click.option("--force", is_flag=True, help="Replace DST when it is an existing .kzm file.")
def convert(src, dst, force) -> None:
    """Convert between the single-file (DST ending in .kzm) and the folder layout (a new or
    empty folder). An existing DST file is replaced only with --force; the project's own
    files never. XML comments are not carried over (it says so)."""
    # lazy: only the command that runs is imported
    from kzplayer.commands.convert import run
    run(src, dst, force=force)


@main.command(short_help="Run effect test specs (*.kztest.toml): counts, bounds, events, pictures.")
@click.argument("paths", nargs=-1)
@click.option("--format", "fmt", type=click.Choice(["text", "github"]), default="text", show_default=True)
@click.option("--junit", metavar="FILE", help="Also write the results as JUnit XML.")
@click.option("--update", is_flag=True, help="Rewrite the golden pictures instead of comparing them.")
@click.option("--artifacts", default="kztest-artifacts", show_default=True, metavar="DIR",
              help="Where a failed picture's golden | actual | difference strip is written.")
@click.option("--verbose", "-v", is_flag=True, help="Show every check, not only the failed ones.")
def test(paths, fmt, junit, update, artifacts, verbose) -> None:
    """Run every *.kztest.toml spec under PATHS (default: the current folder), headless and
    deterministic (docs/testing.md). Exit code 0 all passed, 1 a check failed, 2 a bad spec
    or a name its project lacks."""
    # lazy: only the command that runs is imported
    from kzplayer.commands.test import run
    sys.exit(run(paths, fmt=fmt, junit=junit, update=update, artifacts=artifacts, verbose=verbose))


@main.command(short_help="What changed between two projects: items, properties, bindings, materials.")
@click.argument("old")
@click.argument("new")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github", "markdown"]), default="text",
              show_default=True)
@click.option("--render", type=float, metavar="SECONDS", help="Also write both versions' frames at this time side by side.")
@click.option("--render-output", default="diff.png", show_default=True, metavar="FILE.png")
@click.option("--size", default="320x180", show_default=True, help="Each picture's size for --render.")
@click.option("--seed", type=click.IntRange(0, 2**32 - 1), default=1, show_default=True, help="The seed of both renders.")
def diff(old, new, fmt, render, render_output, size, seed) -> None:
    """A semantic diff of OLD and NEW (files, folders, or REV:PATH of a git revision, e.g.
    HEAD~1:effect.kzm): items added, removed, renamed or moved, properties and bindings
    changed, each with file:line in both. A reformatted file gives no changes."""
    # lazy: only the command that runs is imported
    from kzplayer.commands.diff import run
    sys.exit(run(old, new, fmt=fmt, render=render, render_output=render_output, size=size, seed=seed))


@main.command(short_help="The browser studio: edit a project live in a web page.")
@click.argument("project", required=False)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (another than 127.0.0.1 lets other machines in, with the token).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="0: any free port.")
@click.option("--fps", type=click.FloatRange(1, 60), default=30.0, show_default=True, help="Frames a second streamed.")
@click.option("--seed", type=click.IntRange(0, 2**32 - 1), help="Override every Emission.Seed.")
def serve(project, host, port, fps, seed) -> None:
    """Serve the studio of PROJECT (no PROJECT: the built-in demo) at a local URL with a
    token: the live view, the item tree, the property panel, bindings, diagnostics,
    undo/redo and save (docs/studio.md). Ctrl+C stops it."""
    # lazy: only the command that runs is imported (the studio needs the web stack and GL)
    from kzplayer.studio.server import serve as run
    run(project, host=host, port=port, fps=fps, seed=seed, echo=click.echo)


if __name__ == "__main__":
    main()
