"""A project loaded for playing, and what the checks say about it before it plays.

`play` and `play --watch` (commands/watch.py) both load through here: the built-in demo when no
project is named, a custom material's shader outside the project left out instead of stopping
the run, the --set overrides applied, and `validate`'s findings shown once on stderr (the
simulation's own warnings afterwards, without repeating them).
"""
from __future__ import annotations

import sys

import click

from kzplayer.bindings import parse_override, resolve
from kzplayer.bindings.binding import UNDELIVERED
from kzplayer.commands.report import print_diagnostics
from kzplayer.diagnostics import KzError, Severity
from kzplayer.project.loader import load, load_project
from kzplayer.resources import samples_dir
from kzplayer.validate import validate_project
from kzplayer.validate.context import spot
from kzplayer.validate.engine import rule_by_slug

DEMO = "demo_fountain.kzm"
MAX_SHOWN = 10          # validate findings shown before playing; `validate` lists them all
# validate's rules that play checks itself, on its driver and with its options (--buffer-budget,
# --events-cap): one report, play's, not also validate's beforehand
PLAYED = ("play.buffer-budget", "mesh.particle-budget")


def load_for_play(project: str | None, overrides=()):
    """The project (the built-in demo when None) and its resolved binding graph, with every
    --set override applied. Loader and binding errors raise KzError (the CLI shows them):
    a binding that cannot compute its value stops the run, reported as `validate` reports
    it (one report for one mistake). A binding that Kanzi would not deliver (no PushTarget,
    an undeclared consumer: kzplayer.bindings.binding.undelivered) does not stop it: the
    graph leaves it out, as Kanzi does, and the run shows the effect so."""
    path = project if project is not None else str(samples_dir() / DEMO)
    proj = _load(path)
    graph = resolve(proj)
    findings = validate_findings(proj, graph, skip=PLAYED)
    stopping = [d for d in graph.diagnostics if d.severity == Severity.ERROR and d.rule not in UNDELIVERED]
    if stopping:
        errors = [d for d in findings if d.severity == Severity.ERROR] or stopping
        print_diagnostics_stderr([d for d in findings if d.severity != Severity.ERROR])
        raise KzError(errors, exit_code=1)
    print_findings(proj, findings, path)
    for text in overrides:
        item, name, new_value = parse_override(text, proj)
        graph.set_value(item, name, new_value)
    return proj, graph


def _load(path: str):
    """kzplayer.load, except that a custom material's shader file outside the project folder
    (the loader's path.outside-project at a MaterialType's shader=, vertex= or fragment=;
    never opened) does not stop play: the simulation leaves that material's slot out, the
    renderer draws its emitters with ParticlesDefault, and the error is shown with what
    validate finds ("playing anyway"). Every other load error raises as kzplayer.load does."""
    proj, diagnostics = load_project(path)
    if proj is None or any(d.severity == Severity.ERROR and not _refused_shader(proj, d) for d in diagnostics):
        return load(path)           # raises the project's errors, exit 1 (2: a file that cannot be read)
    return proj


def _refused_shader(proj, d) -> bool:
    if d.rule != "path.outside-project" or d.span is None:
        return False
    inner = d.span
    for item in proj.walk():
        outer = item.span if item.type == "MaterialType" else None
        if (outer is not None and inner.file == outer.file and (inner.line, inner.column) >= (outer.line, outer.column)
                and (inner.end_line, inner.end_column) <= (outer.end_line, outer.end_column)):
            return True
    return False


def validate_findings(proj, graph, skip=()) -> list:
    """What `kzplayer validate` finds in the loaded project (notes left out), but the rules
    in `skip`."""
    return [d for d in validate_project(proj, proj.diagnostics, graph, skip) if d.severity != Severity.NOTE]


def print_diagnostics_stderr(diagnostics) -> None:
    if diagnostics:
        print_diagnostics(diagnostics, stream=sys.stderr)


_SHOWN: list = []        # the findings print_findings showed (print_warnings shows the rest)


def print_findings(proj, found, path: str, limit: int = MAX_SHOWN) -> None:
    """What `kzplayer validate` finds in the project, on stderr, before it plays: a misspelt
    property plays as its default, and the artist should hear why. The player goes on with
    what it can read (a broken material leaves its slot out); errors still fail `validate`.
    At most `limit` are shown."""
    _SHOWN[:] = found
    if not found:
        return
    print_diagnostics_stderr(found[:limit])
    errors = any(d.severity == Severity.ERROR for d in found)
    if errors or len(found) > limit:
        what = "playing anyway (what an error names is left out or plays as its default); " if errors else ""
        more = f"{len(found) - limit} more not shown; " if len(found) > limit else ""
        click.echo(f"kzplayer: {what}{more}`kzplayer validate {path}` lists every problem", err=True)


def print_warnings(diagnostics) -> None:
    """Problems the simulation finds on top of what `validate` reported (print_findings):
    what validate said already (the same spot, or a rule it checks and reported) is not
    shown twice; what only the run sees (a pool the driver caps, a --set material in the
    wrong slot) is."""
    shown = {spot(d) for d in _SHOWN}
    reported = {d.rule for d in _SHOWN if hasattr(rule_by_slug(d.rule), "check")}
    rest = [d for d in diagnostics if d.severity != Severity.NOTE and spot(d) not in shown
            and d.rule not in reported]
    print_diagnostics_stderr(rest)
