"""Each kind of check, judged on what a run recorded (effecttest/run.py). A check returns
an Outcome: passed or not, the message (what was measured, what was expected), the
emitter it is about. `Bad` is raised for a check that cannot be judged because the spec
names something the project lacks (an emitter, an item): bad input, exit 2."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from kzplayer.diagnostics import Severity
from kzplayer.effecttest import solids
from kzplayer.effecttest.spec import FIGURES
from kzplayer.meshes import MeshError, mesh_for


class Bad(Exception):
    """The spec names something that is not there (its message says what is)."""

    def __init__(self, message: str, key: str | None = None):
        super().__init__(message)
        self.key = key


@dataclass
class Outcome:
    check: object              # spec.Check
    passed: bool
    message: str
    emitter: str | None = None
    bad: bool = False          # could not be judged: bad input
    key: str | None = None     # the key of the check the message is about (its position)
    artifacts: tuple = ()      # files written (a picture's difference strip)


# -- time -----------------------------------------------------------------------------------

def frame_at(seconds: float, fps: float) -> int:
    """The output frame ending nearest to `seconds` (frames 1.., frame n ends at n / fps)."""
    return max(1, round(seconds * fps))


def window_frames(window, fps: float) -> range:
    """Frames ending within (from, to]."""
    return range(round(window[0] * fps) + 1, max(round(window[1] * fps), round(window[0] * fps) + 1) + 1)


def frames_of(check, fps: float, run_frames: int | None = None) -> range:
    if "at" in check.data:
        n = frame_at(check.data["at"], fps)
        return range(n, n + 1)
    if "window" in check.data:
        return window_frames(check.data["window"], fps)
    return range(1, (run_frames or 1) + 1)


def last_frame(check, fps: float) -> int:
    r = frames_of(check, fps, 1)
    return r[-1]


def when(check, fps: float) -> str:
    if "at" in check.data:
        return f"at {check.data['at']:g} s (frame {frame_at(check.data['at'], fps)})"
    if "window" in check.data:
        a, b = check.data["window"]
        return f"over {a:g}..{b:g} s"
    return "over the run"


# -- names ----------------------------------------------------------------------------------

def find_emitter(name: str, paths: list[str]) -> str:
    """The emitter path that is `name` or ends in `/name`; Bad for none or several."""
    hits = [p for p in paths if p == name.strip("/") or p.endswith("/" + name.strip("/"))]
    if len(hits) == 1:
        return hits[0]
    names = ", ".join(p.rsplit("/", 1)[-1] for p in paths) or "none"
    if not hits:
        raise Bad(f"no ParticleEmitter {name!r} in the project (emitters: {names})", "emitter")
    raise Bad(f"{name!r} names {len(hits)} emitters ({', '.join(hits)}): write more of its path", "emitter")


def find_item(name: str, items, type_: str | None = None):
    name = name.strip("/")
    hits = [i for i in items if (type_ is None or i.type == type_) and (i.path == name or i.path.endswith("/" + name))]
    if len(hits) == 1:
        return hits[0]
    what = type_ or "item"
    if not hits:
        raise Bad(f"no {what} {name!r} in the project")
    raise Bad(f"{name!r} names {len(hits)} items ({', '.join(i.path for i in hits)}): write more of its path")


def short(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def in_range(value, expected) -> bool:
    if isinstance(expected, list):
        return expected[0] - 1e-9 <= value <= expected[1] + 1e-9
    return abs(value - expected) <= 1e-9


def shown(expected) -> str:
    return f"{expected[0]:g}..{expected[1]:g}" if isinstance(expected, list) else f"{expected:g}"


# -- the kinds ------------------------------------------------------------------------------

def check_count(check, rec) -> Outcome:
    path = find_emitter(check.data["emitter"], rec.emitters)
    frames = frames_of(check, rec.fps)
    rows = [rec.stats.get(n, {}).get(path) for n in frames]
    if any(r is None for r in rows):
        return Outcome(check, False, f"{short(path)}: no figures for frames {frames[0]}..{frames[-1]}", path)
    for figure in FIGURES:
        if figure not in check.data:
            continue
        expected = check.data[figure]
        if isinstance(expected, dict):      # relative to another emitter's figure, same frames
            other = find_emitter(expected["of"], rec.emitters)
            of = expected.get("figure", figure)
            base = sum(int(getattr(rec.stats[n][other], of)) for n in frames) if of != "alive" else \
                rec.stats[frames[-1]][other].alive
            times, within = expected.get("times", 1), expected.get("within", 0)
            expected = [base * times - within, base * times + within]
            if figure != "alive" and not in_range(sum(int(getattr(r, figure)) for r in rows), expected):
                return Outcome(check, False, f"{short(path)}: {figure} {when(check, rec.fps)} is "
                               f"{sum(int(getattr(r, figure)) for r in rows)}, expected {times:g} x {short(other)}'s "
                               f"{of} ({base}) = {shown(expected)}", path, key=figure)
        if figure == "alive":       # a state: every frame of the window
            for n, r in zip(frames, rows):
                if not in_range(r.alive, expected):
                    return Outcome(check, False, f"{short(path)}: alive at frame {n} ({n / rec.fps:.3f} s) is "
                                   f"{r.alive}, expected {shown(expected)}", path, key=figure)
            continue
        total = sum(int(getattr(r, figure)) for r in rows)       # a flow: summed over the window
        if not in_range(total, expected):
            return Outcome(check, False, f"{short(path)}: {figure} {when(check, rec.fps)} is {total}, "
                           f"expected {shown(expected)}", path, key=figure)
    measured = ", ".join(f"{f} {sum(int(getattr(r, f)) for r in rows) if f != 'alive' else rows[-1].alive}"
                         for f in FIGURES if f in check.data)
    return Outcome(check, True, f"{short(path)}: {measured} {when(check, rec.fps)}", path)


def check_events(check, rec) -> Outcome:
    path = find_emitter(check.data["emitter"], rec.emitters)
    frame, emitter, kind, time = rec.event_arrays()
    frames = frames_of(check, rec.fps, rec.frames)
    mask = (emitter == path) & (kind == check.data["kind"]) & (frame >= frames[0]) & (frame <= frames[-1])
    count = int(mask.sum())
    fires = _instants(time[mask])
    word = check.data["kind"] + "s"
    for name, measured in (("count", count), ("fires", fires)):
        if name in check.data and not in_range(measured, check.data[name]):
            what = f"{count} {word}" if name == "count" else f"{word} at {fires} distinct instant(s)"
            return Outcome(check, False, f"{short(path)}: {what} {when(check, rec.fps)}, expected "
                           f"{shown(check.data[name])}", path, key=name)
    return Outcome(check, True, f"{short(path)}: {count} {word} at {fires} instant(s) {when(check, rec.fps)}", path)


def _instants(times: np.ndarray, gap: float = 1e-6) -> int:
    """Distinct event times: events within `gap` seconds of the one before are one firing."""
    if len(times) == 0:
        return 0
    t = np.sort(times)
    return int(1 + (np.diff(t) > gap).sum())


def check_bounds(check, rec, loaded, world_matrix) -> Outcome:
    name = check.data.get("emitter")
    paths = [find_emitter(name, rec.emitters)] if name else rec.emitters
    tol = float(check.data.get("tolerance", 1e-3))
    solid = _collider_test(check.data["outside"], loaded, world_matrix, tol) if "outside" in check.data else None
    total = 0
    for n in frames_of(check, rec.fps):
        for path in paths:
            p = rec.particles[n].get(f"{path}/position")
            if p is None or len(p) == 0:
                continue
            total += len(p)
            p = p.astype(np.float64)
            for what, bad in _violations(check.data, p, tol, solid):
                if bad.any():
                    i = int(np.argmax(bad))
                    at = ", ".join(f"{v:.3f}" for v in p[i])
                    return Outcome(check, False, f"{short(path)}: {int(bad.sum())} of {len(p)} particles {what} "
                                   f"at frame {n} ({n / rec.fps:.3f} s), e.g. one at ({at})", path,
                                   key=_BOUND_KEYS[what])
    return Outcome(check, True, f"{', '.join(short(p) for p in paths)}: {total} particle positions in bounds "
                   f"{when(check, rec.fps)}", paths[0] if len(paths) == 1 else None)


_BOUND_KEYS = {"outside the box": "box", "outside the sphere": "sphere", "below the plane": "above",
               "inside the collider": "outside", "outside the KeepInside collider": "outside"}


def _violations(data, p, tol, solid):
    if "box" in data:
        lo, hi = np.array(data["box"]["min"]), np.array(data["box"]["max"])
        yield "outside the box", ((p < lo - tol) | (p > hi + tol)).any(axis=1)
    if "sphere" in data:
        c = np.array(data["sphere"]["center"])
        yield "outside the sphere", np.linalg.norm(p - c, axis=1) > data["sphere"]["radius"] + tol
    if "above" in data:
        n = np.array(data["above"]["normal"], float)
        n /= np.linalg.norm(n)
        yield "below the plane", (p - np.array(data["above"]["point"])) @ n < -tol
    if solid is not None:
        what, in_solid = solid
        yield what, in_solid(p)


def _collider_test(name, loaded, world_matrix, tol):
    """(what a violation is called, in_solid(points)) for a ParticleCollider's solid side
    (effecttest/solids.py), in world space. With Collider.KeepInside the solid side is all
    that is outside the shape, as the shaders have it: a particle is wrong there when it is
    outside the shape by more than `tol`."""
    item = find_item(name, loaded.project.walk(), "ParticleCollider")
    ref = loaded.value(item, "ParticleCollider.ColliderMaterial")
    material = str(getattr(ref, "name", ref)).rsplit("/", 1)[-1]
    to_local = np.linalg.inv(world_matrix(loaded, item))
    keep_inside = bool(loaded.value(item, "Collider.KeepInside"))
    shape = _solid(material, item, loaded, -tol if keep_inside else tol)

    def in_solid(p):
        q = p @ to_local[:3, :3].T + to_local[:3, 3]
        return ~shape(q) if keep_inside else shape(q)
    return ("outside the KeepInside collider" if keep_inside else "inside the collider"), in_solid


def _solid(material, item, loaded, tol):
    def num(name):
        return float(loaded.value(item, name))
    if material == "Collider_Plane":
        return solids.plane(tol)
    if material == "Collider_Sphere":
        return solids.sphere(num("Collider.Radius"), tol)
    if material == "Collider_Box":
        return solids.box(tuple(loaded.value(item, "Collider.BoxExtents")), tol)
    if material in ("Collider_Cylinder", "Collider_Capsule", "Collider_Cone"):
        make = {"Collider_Cylinder": solids.cylinder, "Collider_Capsule": solids.capsule,
                "Collider_Cone": solids.cone}[material]
        return make(num("Collider.Radius"), num("Collider.Height"), tol)
    if material == "Collider_Mesh":
        try:
            data = mesh_for(loaded.project, loaded.value(item, "Collider.Mesh"), owner=item)
        except MeshError as exc:
            raise Bad(f"`outside`: the mesh of {item.path} cannot be read: {exc}", "outside") from None
        return solids.mesh(data.positions, data.indices, tol)
    if material in solids.SURFACES:
        raise Bad(f"`outside` needs a solid; {item.path} is a {material}, a two-sided surface with no "
                  "inside (an `above` plane checks one side of it)", "outside")
    raise Bad(f"`outside` takes a stock collider (Collider_Plane, _Sphere, _Box, _Cylinder, _Capsule, "
              f"_Cone, _Mesh); {item.path} is {material}", "outside")


def check_validate(check, findings) -> Outcome:
    shown_ = [d for d in findings if d.severity != Severity.NOTE]
    errors = [d for d in shown_ if d.severity == Severity.ERROR]
    warnings = [d for d in shown_ if d.severity == Severity.WARNING]
    if "expect" in check.data:
        left = list(shown_)
        for e in check.data["expect"]:
            match = next((d for d in left if d.rule == e["rule"] and d.span is not None
                          and e.get("line", d.span.line) == d.span.line and e.get("column", d.span.column) == d.span.column
                          and (e.get("file") is None or d.span.file.endswith(e["file"]))), None)
            if match is None:
                where = ":".join(str(e[k]) for k in ("line", "column") if k in e)
                found = "; ".join(f"{d.rule} at {d.span.line}:{d.span.column}" if d.span else d.rule for d in shown_)
                return Outcome(check, False, f"validate: expected {e['rule']}" + (f" at {where}" if where else "")
                               + f", found: {found or 'nothing'}", key="expect")
            left.remove(match)
        if left:
            return Outcome(check, False, "validate: not expected: " + "; ".join(str(d) for d in left), key="expect")
        return Outcome(check, True, f"validate: exactly the {len(check.data['expect'])} expected finding(s)")
    want_errors = check.data.get("errors", 0)
    if len(errors) != want_errors:
        return Outcome(check, False, f"validate: {len(errors)} error(s), expected {want_errors}"
                       + "".join(f"\n    {d}" for d in errors[:5]), key="errors" if "errors" in check.data else None)
    want_warnings = 0 if check.data.get("strict") else check.data.get("warnings")
    if want_warnings is not None and len(warnings) != want_warnings:
        return Outcome(check, False, f"validate: {len(warnings)} warning(s), expected {want_warnings}"
                       + "".join(f"\n    {d}" for d in warnings[:5]), key="warnings" if "warnings" in check.data else "strict")
    return Outcome(check, True, f"validate: {len(errors)} error(s), {len(warnings)} warning(s)")


def check_determinism(check, first: dict, second: dict) -> Outcome:
    if sorted(first) != sorted(second):
        return Outcome(check, False, "determinism: the two runs dumped different emitters")
    for key in sorted(first):
        a, b = first[key], second[key]
        if a.shape != b.shape or a.tobytes() != b.tobytes():
            path, field = key.rsplit("/", 1)
            detail = (f"{len(a)} vs {len(b)} particles" if a.shape != b.shape else
                      f"{int((a != b).reshape(len(a), -1).any(axis=1).sum())} particles differ")
            return Outcome(check, False, f"{short(path)}: two runs with one seed differ in {field} ({detail})", path)
    count = sum(len(v) for k, v in first.items() if k.endswith("/position"))
    return Outcome(check, True, f"determinism: {count} particles bit-identical in two runs")


def check_value(check, loaded) -> Outcome:
    item = find_item(check.data["item"], loaded.project.walk())
    name = check.data["property"]
    try:
        actual = loaded.value(item, name)
    except (KeyError, LookupError, ValueError, TypeError) as exc:
        raise Bad(f"{item.path} has no property {name!r} ({exc})", "property") from None
    expected = check.data["equals"]
    tol = float(check.data.get("tolerance", 1e-6))
    if _equal(actual, expected, tol):
        return Outcome(check, True, f"{item.name}: {name} = {_text(actual)}")
    return Outcome(check, False, f"{item.name}: {name} is {_text(actual)}, expected {_text(expected)}",
                   key="equals")


def _equal(actual, expected, tol: float) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return actual is expected or actual == expected
    if isinstance(expected, (int, float)):
        return isinstance(actual, (int, float)) and math.isclose(float(actual), float(expected), rel_tol=tol, abs_tol=tol)
    if isinstance(expected, list):
        try:
            values = [float(v) for v in tuple(actual)]
        except (TypeError, ValueError):
            return False
        return len(values) == len(expected) and all(math.isclose(a, float(e), rel_tol=tol, abs_tol=tol)
                                                     for a, e in zip(values, expected))
    return str(getattr(actual, "word", getattr(actual, "name", actual))) == str(expected) or str(actual) == str(expected)


def _text(v) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, (list, tuple)):
        return "(" + ", ".join(_text(x) for x in v) + ")"
    return str(v)
