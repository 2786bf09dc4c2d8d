"""The batch manifest (TOML): jobs over projects and sweeps, for what the command line
does not say simply (docs/batch.md has the full form).

    out = "review"                    # the output folder (the command line's --out wins)
    [defaults]                        # for every job: frames seconds fps size format lod
    frames = 60                       #   strict segment_frames seeds timeout memory retries
    size = "320x180"
    [[job]]
    name = "fountain"
    kinds = ["validate", "render"]    # or kind = "render"
    projects = ["effects/fountain.kzm"]            # relative to the manifest
    set = ["DataContext.theme=1"]                  # fixed values (or lists, as --set takes)
    [job.sweep]                                    # the product of these
    "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Nozzle:Emission.Rate" = [10, 20, 40]
    "Nozzle:Emission.InitialVelocityDirection" = [[0, 1, 0], [1, 1, 0]]
"""
from __future__ import annotations

import tomllib
from pathlib import Path

from kzplayer.batch.plan import PlanError, Sweep, parse_axis, plan
from kzplayer.batch.jobs import tuple_property
from kzplayer.batch.segments import parts

OPTIONS = ("frames", "seconds", "fps", "size", "format", "lod", "strict", "segment_frames")
LIMITS = ("seeds", "timeout", "memory")
JOB_KEYS = {"name", "kind", "kinds", "projects", "set", "sweep", *OPTIONS, *LIMITS}
TOP_KEYS = {"out", "workers", "retries", "defaults", "job"}


def load_manifest(path: str) -> tuple[list, dict]:
    """(jobs, settings: out / workers / retries) from a manifest; PlanError says what is wrong."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PlanError(f"{path}: cannot read the manifest: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise PlanError(f"{path}: not a TOML manifest: {exc}") from None
    _known(data, TOP_KEYS, f"{path}")
    defaults = data.get("defaults", {})
    _known(defaults, set(OPTIONS) | set(LIMITS), f"{path}: [defaults]")
    entries = data.get("job", [])
    if not isinstance(entries, list) or not entries:
        raise PlanError(f"{path}: no [[job]] tables: a manifest lists its jobs as [[job]]")
    jobs, names = [], set()
    for n, entry in enumerate(entries, 1):
        where = f"{path}: [[job]] {entry.get('name') or n}"
        _known(entry, JOB_KEYS, where)
        merged = {**defaults, **entry}
        kinds = merged.get("kinds") or [merged.get("kind", "render")]
        projects = merged.get("projects")
        if not projects or not isinstance(projects, list):
            raise PlanError(f"{where}: `projects` must list the project files")
        paths = [str((p.parent / proj)) for proj in projects]
        for proj in paths:
            if not Path(proj).exists():
                raise PlanError(f"{where}: no project at {proj}")
        axes = [parse_axis(text, tuple_property) for text in _strings(merged.get("set", []), where, "set")]
        for lhs, values in (merged.get("sweep") or {}).items():
            axes.append(_sweep_axis(lhs, values, where))
        options = {k: merged[k] for k in OPTIONS if k in merged}
        jobs.extend(plan(kinds, paths, Sweep(axes, merged.get("seeds")), options, timeout=merged.get("timeout"),
                         memory=parse_memory(merged.get("memory")), names=names, prefix=entry.get("name"),
                         parts=parts))
    settings = {k: data[k] for k in ("out", "workers", "retries") if k in data}
    if "out" in settings:
        settings["out"] = str(p.parent / settings["out"])
    return jobs, settings


def _sweep_axis(lhs: str, values, where: str):
    if isinstance(values, str):
        return parse_axis(f"{lhs}={values}")
    if not isinstance(values, list) or not values:
        raise PlanError(f"{where}: sweep {lhs!r} must be a list of values or a range string '10..40:10'")
    axis = parse_axis(f"{lhs}=0")
    axis.values = [literal(v) for v in values]
    return axis


def literal(value) -> str:
    """A TOML value as `--set` writes it: true/false, numbers, (x,y,z) for a list."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "(" + ",".join(literal(v) for v in value) + ")"
    return str(value)


def parse_memory(value) -> int | None:
    """`2G`, `512M`, `800K` or a number of bytes -> bytes."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = str(value).strip().upper().removesuffix("B").removesuffix("I")
    scale = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}.get(text[-1:], 1)
    try:
        number = float(text[:-1] if scale > 1 else text)
    except ValueError:
        raise PlanError(f"memory {value!r}: write a size such as 2G, 512M or a number of bytes") from None
    if not number > 0:
        raise PlanError(f"memory {value!r}: a size above 0")
    return int(number * scale)


def _known(table, keys, where: str) -> None:
    if not isinstance(table, dict):
        raise PlanError(f"{where}: expected a table")
    unknown = sorted(set(table) - set(keys))
    if unknown:
        raise PlanError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(keys))})")


def _strings(value, where: str, key: str) -> list[str]:
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise PlanError(f"{where}: `{key}` must be a string or a list of strings")
    return value
