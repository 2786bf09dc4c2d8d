"""What a batch runs: jobs, their variants (a sweep of `--set` values) and their names.

A sweep is the product of its axes. One axis is one `--set` whose value lists several:

    PATH:Emission.Rate=10,20,40          a list (split at top-level commas)
    PATH:Emission.Rate=10..40:10         a range, START..STOP[:STEP], STOP included
    PATH:Emission.InitialVelocityDirection=(0,1,0),(1,1,0)   vectors in parentheses

A bare `1,0,0` on a stock vector or colour property is that one vector (as `play --set`
reads it), not three values. Nothing here loads a project or touches GL; the one question
about kzplayer (a property's type) goes through the adapter, kzplayer.batch.jobs.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path

KINDS = ("validate", "render", "test", "call")
MAX_VARIANTS = 100_000          # a typo in a range must not plan a billion jobs
_NAME_LIMIT = 80


class PlanError(ValueError):
    """A sweep, manifest or job that cannot be planned (the CLI exits 2 with the message)."""


@dataclass(frozen=True)
class Job:
    """One unit of work: a kind run on one project with one variant of its values."""
    kind: str                                   # validate | render | test | call
    project: str                                # path of the project ("" for call)
    name: str                                   # job folder name
    variant: str = "default"                    # variant folder name
    sets: tuple[str, ...] = ()                  # `--set` texts, applied in order
    values: tuple[tuple[str, str], ...] = ()    # (axis label, value) that name the variant
    seed: int | None = None
    options: tuple[tuple[str, object], ...] = ()  # frames, seconds, fps, size, format, lod, strict
    timeout: float | None = None                # seconds a job may run
    memory: int | None = None                   # bytes of address space a job may add
    target: str | None = None                   # call: "module:function"
    digest: str = ""                            # the project files' content (resume key)
    part: str = ""                              # a piece of a segmented render (batch.segments)
    after: tuple[str, ...] = ()                 # ids of the jobs that must be ok first

    @property
    def id(self) -> str:
        whole = f"{self.kind}/{self.name}/{self.variant}"
        return f"{whole}/{self.part}" if self.part else whole

    def option(self, name: str, default=None):
        return dict(self.options).get(name, default)

    def folder(self, out: Path) -> Path:
        whole = Path(out) / self.kind / self.name / self.variant
        return whole / "segments" / self.part if self.part else whole

    def key(self) -> str:
        """What decides the outputs: equal keys, equal bytes (timeout and memory do not)."""
        spec = {"kind": self.kind, "project": self.project, "sets": self.sets, "seed": self.seed,
                "options": [[k, v] for k, v in self.options], "target": self.target, "digest": self.digest}
        if self.part:
            spec["part"] = self.part
        return hashlib.sha256(json.dumps(spec, sort_keys=True, default=str).encode()).hexdigest()[:20]


@dataclass
class Axis:
    """One `--set` with its values: `lhs=value` for each value."""
    lhs: str
    values: list[str]
    label: str = ""

    def texts(self) -> list[str]:
        return [f"{self.lhs}={v}" for v in self.values]


_LHS = re.compile(r"^(?P<lhs>[^=]*?[A-Za-z_]\w*(?:\.\w+)+)\s*=(?P<rhs>.*)$", re.S)
_RANGE = re.compile(r"^\s*(?P<a>[-+]?[\d.]+(?:e[-+]?\d+)?)\s*\.\.\s*(?P<b>[-+]?[\d.]+(?:e[-+]?\d+)?)"
                    r"\s*(?::\s*(?P<step>[-+]?[\d.]+(?:e[-+]?\d+)?))?\s*$", re.I)


def parse_axis(text: str, tuple_property=None) -> Axis:
    """One sweep `--set` -> its Axis. `tuple_property(name)`: True for a property whose value
    is a comma list itself (a vector, a colour); then a list without parentheses is one value."""
    m = _LHS.match(text.strip())
    if not m:
        raise PlanError(f"--set {text!r}: expected ITEM-PATH:Type.Property=VALUES or DataContext.name=VALUES")
    lhs, rhs = m["lhs"].strip(), m["rhs"].strip()
    prop = lhs.rsplit(":", 1)[-1]
    if (r := _RANGE.match(rhs)):
        values = _range(r["a"], r["b"], r["step"], text)
    elif tuple_property is not None and "(" not in rhs and tuple_property(prop):
        values = [rhs]
    else:
        values = split_top_level(rhs)
    if not values or any(v == "" for v in values):
        raise PlanError(f"--set {text!r}: an empty value in the list")
    return Axis(lhs, values, prop)


def _range(a: str, b: str, step: str | None, text: str) -> list[str]:
    integral = all(re.fullmatch(r"[-+]?\d+", s) for s in (a, b, step or "1"))
    start, stop, inc = (int(a), int(b), int(step or 1)) if integral else (float(a), float(b), float(step or 1))
    if inc == 0 or (stop - start) * inc < 0:
        raise PlanError(f"--set {text!r}: the step {inc} never reaches {stop} from {start}")
    count = int((stop - start) / inc + 1e-9) + 1
    if count > MAX_VARIANTS:
        raise PlanError(f"--set {text!r}: {count:,} values; at most {MAX_VARIANTS:,}")
    return [str(start + i * inc) if integral else _short(start + i * inc) for i in range(count)]


def _short(x: float) -> str:
    return f"{round(x, 9):.9g}"


def split_top_level(text: str) -> list[str]:
    """`a,(1,2,3),"x,y"` -> ['a', '(1,2,3)', '"x,y"']: commas inside brackets or quotes stay."""
    parts, depth, quote, cur = [], 0, None, []
    for ch in text:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    parts.append("".join(cur).strip())
    return parts


def label_axes(axes: list[Axis]) -> None:
    """An axis is named by its property; two axes on one property by their item's name too."""
    props = [a.label for a in axes]
    for a in axes:
        if props.count(a.label) > 1 and ":" in a.lhs:
            item = a.lhs.rsplit(":", 1)[0].rstrip("/").rsplit("/", 1)[-1]
            a.label = f"{item}.{a.label}"


def variant_name(values: list[tuple[str, str]]) -> str:
    """A folder name from the swept values: `Emission.Rate=10__seed=2`; a long one is cut
    and ends in a hash of the whole, so two variants never share a folder."""
    if not values:
        return "default"
    text = "__".join(f"{k}={v}" for k, v in values)
    safe = re.sub(r"[^A-Za-z0-9._=+-]", "_", text)
    if len(safe) > _NAME_LIMIT or safe != text:
        safe = f"{safe[:_NAME_LIMIT - 9]}-{hashlib.sha1(text.encode()).hexdigest()[:8]}"
    return safe


@dataclass
class Sweep:
    """Axes (their product) and fixed sets; seeds are an axis of their own."""
    axes: list[Axis] = field(default_factory=list)
    seeds: list[int] | None = None

    def variants(self) -> list[tuple[list[str], list[tuple[str, str]], int | None]]:
        """[(set texts, (label, value) naming the variant, seed)] in a stable order."""
        label_axes(self.axes)
        named = [a for a in self.axes if len(a.values) > 1]
        seeds = self.seeds or [None]
        total = len(seeds)
        for a in self.axes:
            total *= len(a.values)
        if total > MAX_VARIANTS:
            raise PlanError(f"the sweep has {total:,} variants; at most {MAX_VARIANTS:,}")
        out = []
        for seed in seeds:
            for combo in product(*(a.values for a in self.axes)):
                sets = [f"{a.lhs}={v}" for a, v in zip(self.axes, combo)]
                values = [(a.label, v) for a, v in zip(self.axes, combo) if a in named]
                if self.seeds and len(self.seeds) > 1:
                    values.append(("seed", str(seed)))
                out.append((sets, values, seed))
        return out


def project_digest(path: str) -> str:
    """A hash of a project's own files (one file, or every file of a project folder)."""
    p = Path(path)
    h = hashlib.sha256()
    files = sorted(f for f in p.rglob("*") if f.is_file()) if p.is_dir() else [p]
    for f in files:
        h.update(str(f.relative_to(p) if p.is_dir() else f.name).encode())
        try:
            h.update(f.read_bytes())
        except OSError:
            h.update(b"(unreadable)")
    return h.hexdigest()[:16]


def job_name(project: str, taken: set[str], prefix: str | None = None, several: bool = False) -> str:
    """The project's file stem (`demo_fountain`), made unique within the batch; a manifest
    job's name (`prefix`) alone for its one project, `prefix-stem` for several."""
    stem = Path(project.rstrip("/")).name
    for suffix in (".proj.kzm", ".kzm", ".kzproj"):
        if stem.endswith(suffix):
            stem = stem[: -len(suffix)]
            break
    base = re.sub(r"[^A-Za-z0-9._=+-]", "_", (f"{prefix}-{stem}" if several else prefix) if prefix else stem)
    base = base or "project"
    name, n = base, 2
    while name in taken:
        name, n = f"{base}-{n}", n + 1
    taken.add(name)
    return name


def plan(kinds, projects, sweep: Sweep | None = None, options: dict | None = None, *, timeout=None,
         memory=None, names: set[str] | None = None, prefix: str | None = None, parts=None) -> list[Job]:
    """Every kind x project x variant as Jobs (kind-major, then project, then variant).
    `parts(job)`: the jobs one job becomes (kzplayer.batch.segments.parts: a render with
    `segment_frames` becomes its checkpoints, its segments and itself)."""
    sweep = sweep or Sweep()
    taken = names if names is not None else set()
    opts = tuple(sorted((options or {}).items()))
    projects = [str(p) for p in projects]
    per_project = [(str(Path(p).resolve()), job_name(p, taken, prefix, len(projects) > 1), project_digest(p))
                   for p in projects]
    jobs = []
    for kind in kinds:
        if kind not in KINDS or kind == "call":
            raise PlanError(f"unknown job kind {kind!r}: validate, render or test")
        for project, name, digest in per_project:
            for sets, values, seed in sweep.variants():
                jobs.append(Job(kind=kind, project=str(project), name=name, variant=variant_name(values),
                                sets=tuple(sets), values=tuple(values), seed=seed, options=opts,
                                timeout=timeout, memory=memory, digest=digest))
    if parts is not None:
        jobs = [piece for job in jobs for piece in parts(job)]
    _check_unique(jobs)
    return jobs


def _check_unique(jobs: list[Job]) -> None:
    seen: dict[str, Job] = {}
    for j in jobs:
        if j.id in seen:
            raise PlanError(f"two jobs would write {j.id}: give the jobs different names")
        seen[j.id] = j


def parse_seeds(text: str) -> list[int]:
    """`--seed 1,2,3` or `--seed 1..8`: every Emission.Seed overridden, one variant per seed."""
    values = parse_axis(f"Emission.Seed={text}").values
    try:
        seeds = [int(v) for v in values]
    except ValueError:
        raise PlanError(f"--seed {text!r}: seeds are whole numbers 0..4294967295 (a list or a range)") from None
    if any(not 0 <= s <= 0xFFFFFFFF for s in seeds):
        raise PlanError(f"--seed {text!r}: seeds are whole numbers 0..4294967295")
    return seeds
