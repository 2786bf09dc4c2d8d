"""Running a spec: its checks grouped by variant, each group loaded once (the project with
the spec's and the variant's --set overrides) and played at most once, as long as its
latest check needs; a determinism check plays a second time to its frame."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from kzplayer.diagnostics import Diagnostic, KzError, Severity
from kzplayer.effecttest import checks as C
from kzplayer.effecttest import run
from kzplayer.effecttest.pictures import difference_strip, read_png, ssim, write_png
from kzplayer.effecttest.spec import DEFAULT_MIN_SSIM, Spec, read_spec

PLAYED = {"count", "bounds", "events", "picture", "determinism"}


@dataclass
class Options:
    update: bool = False                  # rewrite goldens instead of comparing
    artifacts: Path = Path("kztest-artifacts")     # difference strips of failed pictures


@dataclass
class SpecResult:
    spec: Spec
    outcomes: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def bad(self) -> bool:
        return bool(self.spec.problems) or any(o.bad for o in self.outcomes)

    @property
    def failed(self) -> bool:
        return any(not o.passed for o in self.outcomes)

    def diagnostics(self) -> list[Diagnostic]:
        """The spec's problems and each failed check, at the spec's file:line:column."""
        out = list(self.spec.problems)
        for o in self.outcomes:
            if not o.passed:
                span = o.check.at_key(o.key) if o.key else o.check.span
                rule = "cli.test-spec" if o.bad else "play.test-check"
                hint = f"emitter {o.emitter}" if o.emitter else None
                if o.artifacts:
                    hint = (hint + "; " if hint else "") + "see " + ", ".join(map(str, o.artifacts))
                out.append(Diagnostic("KZ909", rule, Severity.ERROR, f"{o.check.kind}[{o.check.index}]: {o.message}", span, hint))
        return out


def run_path(path, options: Options | None = None) -> SpecResult:
    return run_spec(read_spec(path), options or Options())


def run_spec(spec: Spec, options: Options) -> SpecResult:
    result = SpecResult(spec)
    if spec.problems:
        return result
    start = time.perf_counter()
    findings = None
    groups: dict = {}
    for check in spec.checks:
        groups.setdefault(check.variant, []).append(check)
    for variant, group in groups.items():
        if any(c.kind == "validate" for c in group) and findings is None:
            findings = run.validate(spec.project)
        result.outcomes.extend(_run_group(spec, variant, group, findings, options))
    order = {id(c): i for i, c in enumerate(spec.checks)}
    result.outcomes.sort(key=lambda o: order[id(o.check)])
    result.seconds = time.perf_counter() - start
    return result


def _run_group(spec: Spec, variant, group, findings, options) -> list:
    out = [C.check_validate(c, findings) for c in group if c.kind == "validate"]
    rest = [c for c in group if c.kind != "validate"]
    if not rest:
        return out
    overrides = [*spec.overrides, *spec.variants.get(variant, [])]
    try:
        loaded = run.load(spec.project, overrides)
    except KzError as exc:
        why = "; ".join(str(d) for d in exc.diagnostics[:3]) or "cannot be loaded"
        what = f"the project with variant {variant!r}" if variant else "the project"
        return out + [C.Outcome(c, False, f"{what} cannot be played: {why}", bad=exc.exit_code == 2 or
                                any(d.rule == "cli.override" for d in exc.diagnostics)) for c in rest]
    played = [c for c in rest if c.kind in PLAYED]
    rec = None
    if played:
        try:
            rec = _play(spec, loaded, played)
        except KzError as exc:      # the simulation refused the project (an event-source cycle, ...)
            why = "; ".join(str(d) for d in exc.diagnostics[:3]) or "the simulation stopped"
            out += [C.Outcome(c, False, f"the project does not play: {why}") for c in played]
            rest = [c for c in rest if c.kind not in PLAYED]
    second = None
    for c in rest:
        try:
            if c.kind == "value":
                out.append(C.check_value(c, loaded))
            elif c.kind == "count":
                out.append(C.check_count(c, rec))
            elif c.kind == "events":
                out.append(C.check_events(c, rec))
            elif c.kind == "bounds":
                out.append(C.check_bounds(c, rec, loaded, run.world_matrix))
            elif c.kind == "picture":
                out.append(_picture(spec, c, rec, options))
            elif c.kind == "determinism":
                n = C.frame_at(c.data["at"], spec.fps)
                if second is None:
                    det = [C.frame_at(d.data["at"], spec.fps) for d in rest if d.kind == "determinism"]
                    second = run.play(run.load(spec.project, overrides), seed=spec.seed, size=spec.size,
                                      fps=spec.fps, frames=max(det), particles_at=set(det))
                out.append(C.check_determinism(c, rec.particles[n], second.particles[n]))
        except C.Bad as exc:
            out.append(C.Outcome(c, False, str(exc), bad=True, key=exc.key))
    return out


def _play(spec: Spec, loaded, played):
    fps = spec.fps
    frames = max(C.last_frame(c, fps) for c in played)
    return run.play(loaded, seed=spec.seed, size=spec.size, fps=fps, frames=frames,
                    particles_at={n for c in played if c.kind in ("bounds", "determinism")
                                  for n in C.frames_of(c, fps)},
                    images_at={C.frame_at(c.data["at"], fps) for c in played if c.kind == "picture"},
                    events=any(c.kind == "events" for c in played))


def golden_path(spec: Spec, check) -> Path:
    """`golden =` relative to the spec, else golden/NAME.png beside it (NAME.1.png, ... for
    the second and later pictures of one spec)."""
    if check.data.get("golden"):
        return spec.path.parent / check.data["golden"]
    return spec.path.parent / "golden" / (f"{spec.name}.png" if check.index == 0 else f"{spec.name}.{check.index}.png")


def _picture(spec: Spec, check, rec, options: Options) -> C.Outcome:
    image = rec.images[C.frame_at(check.data["at"], spec.fps)]
    golden = golden_path(spec, check)
    if options.update:
        write_png(golden, image)
        return C.Outcome(check, True, f"picture: wrote the golden {golden}")
    if not golden.is_file():
        return C.Outcome(check, False, f"picture: no golden {golden}: `kzplayer test --update` writes it",
                         key="golden" if "golden" in check.data else None)
    expected = read_png(golden)
    score = ssim(image, expected)
    least = float(check.data.get("min_ssim", DEFAULT_MIN_SSIM))
    if score >= least:
        return C.Outcome(check, True, f"picture: SSIM {score:.4f} (at least {least:g}) against {golden.name}")
    strip = Path(options.artifacts) / f"{spec.name}.{check.index}.diff.png"
    write_png(strip, difference_strip(image, expected))
    write_png(strip.with_name(f"{spec.name}.{check.index}.actual.png"), image)
    size = "" if image.shape == expected.shape else f" (sizes differ: {image.shape[1]}x{image.shape[0]} vs {expected.shape[1]}x{expected.shape[0]})"
    return C.Outcome(check, False, f"picture: SSIM {score:.4f} against {golden.name}, at least {least:g} "
                     f"passes{size}", key="min_ssim" if "min_ssim" in check.data else None, artifacts=(strip,))
