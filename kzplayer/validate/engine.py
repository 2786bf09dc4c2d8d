"""The validator's engine: load each project, run every rule once, collect the problems.

A rule is a module under `kzplayer/validate/rules/` with `CODE`, `RULE`, `SEVERITY`, a
docstring (the user documentation) and, unless another stage finds its problems,
`check(context)`, which yields `Problem`s. The engine
makes each problem a Diagnostic of its rule (the code comes from kzplayer/codes.py, the
severity is the rule's default unless the problem says otherwise), adds what the loader
found, drops repeats and sorts everything by position: one pass, each problem once.
"""
from __future__ import annotations

import importlib
import os
import pkgutil
from dataclasses import dataclass, replace
from functools import cache
from types import ModuleType
from typing import Iterable

from kzplayer.codes import code_for
from kzplayer.diagnostics import Diagnostic, Severity, Span
from kzplayer.validate.context import Context, internal_error, spot
# what a rule yields; rules import it from here
from kzplayer.validate.problem import Problem  # noqa: F401
from kzplayer.project.loader import load_project

# The loader's rule for a path that cannot be read (exit code 2).
UNREADABLE = "file.unreadable"


@cache
def all_rules() -> tuple[ModuleType, ...]:
    """Every rule module, ordered by code."""
    package = importlib.import_module("kzplayer.validate.rules")
    found = []
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        if all(hasattr(module, a) for a in ("CODE", "RULE", "SEVERITY")):
            found.append(module)
    found.sort(key=lambda m: m.CODE)
    return tuple(found)


def rule_by_slug(slug: str) -> ModuleType | None:
    return _by_slug().get(slug)


@cache
def _by_slug() -> dict[str, ModuleType]:
    return {m.RULE: m for m in all_rules()}


def _with_hint(d: Diagnostic) -> Diagnostic:
    """A problem another stage found, with its rule's hint where it came without one (a rule
    module may define `hint(diagnostic)`)."""
    hint = getattr(rule_by_slug(d.rule), "hint", None)
    if d.hint or hint is None:
        return d
    return replace(d, hint=hint(d))


@dataclass
class Result:
    """What validating some paths found: the files read, the problems, and whether a path
    could not be read at all."""
    files: list[str]
    diagnostics: list[Diagnostic]
    unreadable: bool = False

    def count(self, severity: Severity) -> int:
        return sum(1 for d in self.diagnostics if d.severity is severity)


def validate_paths(paths: Iterable[str]) -> Result:
    """Validate every project named; problems of all of them in one sorted list."""
    files: list[str] = []
    diagnostics: list[Diagnostic] = []
    unreadable = False
    named: dict[str, str] = {}      # a file named twice (`a.kzm ./a.kzm`) is checked once,
    for path in paths:              # shown as first named
        named.setdefault(os.path.realpath(path), path)
    for path in named.values():
        found_files, found, bad = _validate_one(path)
        files.extend(f for f in found_files if f not in files)
        diagnostics.extend(found)
        unreadable = unreadable or bad
    return Result(files, _dedupe_and_sort(diagnostics), unreadable)


def validate_project(project, loader_diagnostics: Iterable[Diagnostic] = (), graph=None,
                     skip: Iterable[str] = ()) -> list[Diagnostic]:
    """Run every rule on a loaded project (plus what loading it found); sorted, deduplicated.
    `graph`: the project's binding graph where the caller has resolved it already (`play`).
    `skip`: rules (slugs) the caller checks itself (`play --watch` compiles the shaders on its
    own context: shader.compile)."""
    context = Context(project, list(loader_diagnostics), graph)
    found: list[Diagnostic] = []
    superseded: dict[str, set] = {}      # rule slug -> spans where a rule said it better
    skip = set(skip)
    for module in all_rules():
        if not hasattr(module, "check") or module.RULE in skip:
            continue            # found by another stage: reported below, as found
        try:
            problems = list(module.check(context))
        except Exception as exc:    # a bug in one rule must not hide what the others find
            found.append(internal_error(f"checking {module.RULE}", exc, None))
            continue
        for problem in problems:
            d = _stamp(module, problem)
            found.append(d)
            for slug in getattr(module, "SUPERSEDES", ()):
                superseded.setdefault(slug, set()).update((d.span, *d.related))
    # The loader, the binding graph and the expression parser find problems while they work;
    # what no rule re-reported (or said better at the same spot) is added as it is.
    # A rule with OWNS_PIPELINE reports (or merges) everything found under its slug itself.
    seen = {spot(d) for d in found}
    owned = {m.RULE for m in all_rules() if getattr(m, "OWNS_PIPELINE", False)}
    found += [d for d in context.pipeline_diagnostics if spot(d) not in seen and d.rule not in owned]
    found = [_with_hint(d) for d in found if not _said_better(d, superseded)]
    return _dedupe_and_sort(_without_follow_ons(found))


# Loading errors that lose part of the tree, and the rules that then see items as missing.
_LOSSES = {"xml.malformed", "xml.entities", "file.missing", "file.unreadable"}
_FOLLOW_ONS = {"path.unresolved", "path.stale", "binding.source-mismatch"}


def _without_follow_ons(found: list[Diagnostic]) -> list[Diagnostic]:
    """When a file of a folder project did not load, its items are missing: paths that lead
    to them would be reported as broken. Those are left out, and a note says so, until the
    file loads again (as a compiler stops at syntax errors)."""
    losses = [d for d in found if d.rule in _LOSSES and d.severity is Severity.ERROR]
    if not losses:
        return found
    kept = [d for d in found if d.rule not in _FOLLOW_ONS]
    if len(kept) < len(found):
        kept.append(Diagnostic(code_for("path.unresolved"), "path.unresolved", Severity.NOTE,
                               f"{len(found) - len(kept)} path problem(s) not shown: part of the project "
                               "did not load, so paths into it cannot be checked", losses[0].span,
                               "fix the file above and validate again"))
    return kept


def _said_better(d: Diagnostic, superseded: dict[str, set]) -> bool:
    spans = superseded.get(d.rule, ())
    return d.span in spans or any(r in spans for r in d.related)


def _validate_one(path: str) -> tuple[list[str], list[Diagnostic], bool]:
    if not os.path.exists(path) or (os.path.isfile(path) and not os.access(path, os.R_OK)):
        why = "no such file or folder" if not os.path.exists(path) else "permission denied"
        return [], [Diagnostic(code_for(UNREADABLE), UNREADABLE, Severity.ERROR,
                               f"cannot read {path}: {why}", Span(path, 0, 0))], True
    try:
        project, loaded = load_project(path)
    except OSError as exc:   # the loader should not raise; an I/O error still is not a traceback
        return [], [Diagnostic(code_for(UNREADABLE), UNREADABLE, Severity.ERROR,
                               f"cannot read {path}: {exc.strerror or exc}", Span(path, 0, 0))], True
    loaded = list(loaded)
    if project is None:
        unreadable = any(d.rule == UNREADABLE for d in loaded)
        # a problem of the path as a whole still names it (line 0: no line in particular)
        loaded = [replace(d, span=Span(path, 0, 0)) if d.span is None else d for d in loaded]
        loaded = [_with_hint(_hint_single_files(path, d)) for d in loaded]
        return [] if unreadable else [path], _dedupe_and_sort(loaded), unreadable
    files = list(project.files) or [path]
    return files, validate_project(project, loaded), False


def _hint_single_files(path: str, d: Diagnostic) -> Diagnostic:
    """A folder of single-file projects (sample_projects/) is no project folder: say how to
    check the files in it."""
    if d.rule != UNREADABLE or d.hint or not os.path.isdir(path):
        return d
    if not any(name.endswith(".kzm") for name in os.listdir(path)):
        return d
    return replace(d, hint=f"to check each .kzm file in it, name them: kzplayer validate {os.path.join(path, '*.kzm')}")


def _stamp(module: ModuleType, p: Problem) -> Diagnostic:
    return Diagnostic(module.CODE, module.RULE, p.severity or module.SEVERITY, p.message,
                      p.span, p.hint, tuple(p.related))


def _dedupe_and_sort(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    unique: dict[tuple, Diagnostic] = {}
    for d in diagnostics:
        unique.setdefault((d.rule, d.span, d.message), d)
    return sorted(unique.values(), key=_position)


def _position(d: Diagnostic) -> tuple:
    """By file, line and column; at one spot errors before warnings before notes."""
    s = d.span
    where = (s.file, s.line, s.column) if s else ("", 0, 0)
    return (*where, d.severity.rank, d.rule, d.message)


def from_pipeline(context, rule: str) -> list[Problem]:
    """What loading, parsing the expressions and resolving the bindings found under `rule`
    (XML errors are found while loading, cycles while ordering the bindings, ...)."""
    return [Problem(d.span, d.message, d.hint, d.severity, d.related)
            for d in context.pipeline_diagnostics if d.rule == rule]
