"""The batch's test kind: a project's effect tests (`kzplayer.effecttest`, docs/testing.md)
run with a batch variant's values on top of each spec's own.

Which specs: the `*.kztest.toml` files beside the project (and, for a folder project, in
it) whose `project` is that project. The batch variant's `--set` texts come after the spec's
own `set` (the batch's value wins there) and its seed replaces the spec's; a check with a
spec `variant =` adds that variant's texts last, as a scenario on top of the batch's
values (a spec's "dense" stays dense in every batch variant). A `[[picture]]`
check's golden was made with the spec's own values, so under a variant that changes any
(a `--set`, or a seed other than the spec's) it is reported as skipped, not judged.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from kzplayer.diagnostics import Diagnostic, KzError, Severity, Span
from kzplayer.effecttest.runner import Options, run_spec
from kzplayer.effecttest.spec import SUFFIX, read_spec


@dataclass
class Report:
    specs: list[str] = field(default_factory=list)
    cases: list[dict] = field(default_factory=list)
    artifacts: list[Path] = field(default_factory=list)

    def _count(self, status: str) -> int:
        return sum(c["status"] == status for c in self.cases)

    @property
    def passed(self) -> int:
        return self._count("passed")

    @property
    def failed(self) -> int:
        return self._count("failed")

    @property
    def skipped(self) -> int:
        return self._count("skipped")

    def first_failure(self) -> str:
        bad = next((c for c in self.cases if c["status"] == "failed"), None)
        return f"{bad['at']}: {bad['check'].split()[0]}: {bad['message']}" if bad else ""

    def as_json(self) -> dict:
        return {"specs": self.specs, "passed": self.passed, "failed": self.failed,
                "skipped": self.skipped, "cases": self.cases}


def effect_tests(project, sets=(), seed=None, artifacts: Path | None = None) -> Report:
    """Run every spec of `project` under the variant (`sets`, `seed`). KzError (bad input)
    when the project has no spec, a spec of it is bad, or a check cannot be judged (a --set
    the project refuses)."""
    specs = specs_of(project)
    if not specs:
        raise KzError(Diagnostic("KZ908", "cli.test-spec", Severity.ERROR,
                                 f"no effect test spec (*.kztest.toml) names the project {project}",
                                 Span(str(project), 1, 1),
                                 "write NAME.kztest.toml beside it: docs/testing.md"), exit_code=2)
    report = Report()
    options = Options(artifacts=Path(artifacts) if artifacts else Path("kztest-artifacts"))
    for spec in specs:
        if spec.problems:
            raise KzError(spec.problems, exit_code=2)
        changed = bool(sets) or (seed is not None and seed != spec.seed)
        varied = dataclasses.replace(
            spec, seed=spec.seed if seed is None else seed,
            overrides=[*spec.overrides, *sets],
            checks=[c for c in spec.checks if not (changed and c.kind == "picture")])
        result = run_spec(varied, options)
        unjudged = [d for d, o in zip(result.diagnostics(), _failed(result)) if o.bad]
        if unjudged:
            raise KzError(unjudged, exit_code=2)
        report.specs.append(str(spec.path))
        by_check = {id(o.check): o for o in result.outcomes}
        for check in sorted(spec.checks, key=lambda c: (c.span.line, c.span.column)):
            outcome = by_check.get(id(check))
            report.cases.append(_case(spec, check, outcome))
            if outcome is not None:
                report.artifacts.extend(outcome.artifacts)
    return report


def _failed(result):
    return [o for o in result.outcomes if not o.passed]


def _case(spec, check, outcome) -> dict:
    """One check's line of tests.json: where it is written, its emitter, what it found."""
    span = check.at_key(outcome.key) if outcome is not None and outcome.key else check.span
    case = {"spec": str(spec.path), "check": check.name, "kind": check.kind,
            "at": f"{span.file}:{span.line}:{span.column}", "emitter": None}
    if outcome is None:         # a picture left out under a variant
        return case | {"status": "skipped",
                       "message": "picture not judged: the batch variant changes the values its golden was made with"}
    return case | {"status": "passed" if outcome.passed else "failed", "emitter": outcome.emitter,
                   "message": outcome.message}


def specs_of(project) -> list:
    """The specs beside `project` (or in it, a folder) whose `project` is it, in name order."""
    path = Path(project)
    places = [path.parent] + ([path] if path.is_dir() else [])
    want = _identity(path)
    found = []
    for place in places:
        for candidate in sorted(place.glob(f"*{SUFFIX}")):
            spec = read_spec(candidate)
            if spec.project is not None and _identity(spec.project) == want:
                found.append(spec)
    return found


def _identity(path: Path) -> Path:
    """A project as one path: a folder project and its NAME.proj.kzm are the same project."""
    path = Path(path).resolve()
    return path.parent if path.name.endswith(".proj.kzm") else path
