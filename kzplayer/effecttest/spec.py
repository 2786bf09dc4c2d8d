"""A test spec (`NAME.kztest.toml`, docs/testing.md): the project, how to play it, and the
checks. Reading one never raises for bad input: problems are Diagnostics (`cli.test-spec`)
at the spec's file:line:column, and a spec with any is not run (exit 2)."""
from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from kzplayer.diagnostics import Diagnostic, Severity, Span
from kzplayer.effecttest.positions import positions

SUFFIX = ".kztest.toml"
RULE = "cli.test-spec"
DEFAULTS = {"seed": 1, "size": [128, 128], "fps": 30}
MAX_SECONDS = 600.0

_TIMED = {"at", "window", "variant"}
# check kind -> the keys it takes (besides its timing)
KINDS: dict[str, set[str]] = {
    "count": {"emitter", "alive", "emitted", "died", "stalled", "hits"} | _TIMED,
    "bounds": {"emitter", "box", "sphere", "above", "outside", "tolerance"} | _TIMED,
    "events": {"emitter", "kind", "count", "fires"} | _TIMED,
    "validate": {"errors", "warnings", "expect", "strict"},
    "picture": {"at", "golden", "min_ssim", "variant"},
    "determinism": {"at", "variant"},
    "value": {"item", "property", "equals", "tolerance", "variant"},
}
TOP = {"project", "seed", "size", "fps", "set", "variants", "name"} | set(KINDS)
FIGURES = ("alive", "emitted", "died", "stalled", "hits")
EVENT_KINDS = ("birth", "death", "hit")
DEFAULT_MIN_SSIM = 0.95


@dataclass
class Check:
    kind: str
    index: int                 # the n-th [[kind]] table of the spec
    data: dict
    span: Span
    spans: dict[str, Span]     # key -> where it is written

    @property
    def variant(self) -> str | None:
        return self.data.get("variant")

    @property
    def name(self) -> str:
        what = self.data.get("emitter") or self.data.get("item") or self.data.get("property") or ""
        return f"{self.kind}[{self.index}]" + (f" {what}" if what else "")

    def at_key(self, key: str) -> Span:
        return self.spans.get(key, self.span)


@dataclass
class Spec:
    path: Path
    project: Path | None = None
    name: str = ""
    seed: int = 1
    size: tuple[int, int] = (128, 128)
    fps: float = 30.0
    overrides: list[str] = field(default_factory=list)
    variants: dict[str, list[str]] = field(default_factory=dict)
    checks: list[Check] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)
    where: dict = field(default_factory=dict)

    def span(self, *key) -> Span:
        """The position of a key path (a table's header where the key is not written)."""
        for n in range(len(key), 0, -1):
            if key[:n] in self.where:
                line, col, end = self.where[key[:n]]
                return Span(str(self.path), line, col, line, end)
        return Span(str(self.path), 1, 1)

    def problem(self, message: str, *key, hint: str | None = None) -> None:
        self.problems.append(Diagnostic("KZ908", RULE, Severity.ERROR, message, self.span(*key), hint))


def read_spec(path) -> Spec:
    """The spec at `path`, with every problem found in it in `.problems`."""
    path = Path(path)
    spec = Spec(path=path, name=path.name[: -len(SUFFIX)] if path.name.endswith(SUFFIX) else path.stem)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        spec.problems.append(Diagnostic("KZ908", RULE, Severity.ERROR, f"cannot read the spec: {exc}",
                                        Span(str(path), 0, 0)))
        return spec
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        at = re.search(r"at line (\d+), column (\d+)", str(exc))     # 3.11 has no exc.lineno
        line, col = (int(at.group(1)), int(at.group(2))) if at else (1, 1)
        message = str(exc).split(" (at line")[0]
        spec.problems.append(Diagnostic("KZ908", RULE, Severity.ERROR, f"not TOML: {message}",
                                        Span(str(path), line, col)))
        return spec
    spec.where = positions(text)
    _top(spec, data)
    for kind in KINDS:
        tables = data.get(kind, [])
        if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
            spec.problem(f"`{kind}` is a list of tables: write each check as [[{kind}]]", kind)
            continue
        for index, table in enumerate(tables):
            _check(spec, kind, index, table)
    if not spec.checks and not spec.problems:
        spec.problem("the spec has no checks", hint=f"add a table such as [[count]] or [[validate]]: "
                     "docs/testing.md lists them")
    return spec


def _top(spec: Spec, data: dict) -> None:
    for key in data:
        if key not in TOP:
            spec.problem(f"unknown key `{key}`", key, hint=_suggest(key, TOP))
    project = data.get("project")
    if not isinstance(project, str) or not project:
        spec.problem("`project` (the effect's file or folder, relative to the spec) is missing", "project")
    else:
        spec.project = (spec.path.parent / project)
        if not spec.project.exists():
            spec.problem(f"the project {project!r} does not exist (looked at {spec.project})", "project")
    seed = data.get("seed", DEFAULTS["seed"])
    if not _is_int(seed) or not 0 <= seed < 2**32:
        spec.problem("`seed` is a whole number 0 to 4294967295", "seed")
    else:
        spec.seed = seed
    size = data.get("size", DEFAULTS["size"])
    if not (isinstance(size, list) and len(size) == 2 and all(_is_int(v) and 8 <= v <= 4096 for v in size)):
        spec.problem("`size` is [width, height] in pixels, 8 to 4096 each", "size")
    else:
        spec.size = (size[0], size[1])
    fps = data.get("fps", DEFAULTS["fps"])
    if not _is_number(fps) or not 1 <= fps <= 1000:
        spec.problem("`fps` is the output frame rate, 1 to 1000", "fps")
    else:
        spec.fps = float(fps)
    spec.overrides = _strings(spec, data.get("set", []), ("set",))
    variants = data.get("variants", {})
    if not isinstance(variants, dict):
        spec.problem("`variants` is a table: [variants.NAME] with set = [...]", "variants")
        variants = {}
    for name, table in variants.items():
        if not isinstance(table, dict) or set(table) - {"set"}:
            spec.problem(f"variant {name!r} takes one key, set = ['ITEM-PATH:Prop=VALUE', ...]", "variants", name)
            continue
        spec.variants[name] = _strings(spec, table.get("set", []), ("variants", name, "set"))


def _strings(spec: Spec, value, key: tuple) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        spec.problem("a list of --set texts: ['ITEM-PATH:Prop=VALUE', 'DataContext.x=VALUE']", *key)
        return []
    return list(value)


def _check(spec: Spec, kind: str, index: int, table: dict) -> None:
    key = (kind, index)
    spans = {k: spec.span(*key, k) for k in table}
    check = Check(kind, index, table, spec.span(*key), spans)
    before = len(spec.problems)
    for k in table:
        if k not in KINDS[kind]:
            spec.problem(f"[[{kind}]] takes no key `{k}`", *key, k, hint=_suggest(k, KINDS[kind]))
    if "variant" in table and table["variant"] not in spec.variants:
        spec.problem(f"no variant {table['variant']!r} (variants: {', '.join(spec.variants) or 'none'})",
                     *key, "variant")
    _timing(spec, kind, key, table)
    _KIND_CHECKS[kind](spec, key, table)
    if len(spec.problems) == before:
        spec.checks.append(check)


def _timing(spec: Spec, kind: str, key: tuple, table: dict) -> None:
    if "at" in KINDS[kind] and "at" in table:
        if not _is_number(table["at"]) or not 0 < table["at"] <= MAX_SECONDS:
            spec.problem(f"`at` is a time in seconds above 0 (at most {MAX_SECONDS:g})", *key, "at")
    if "window" in table:
        w = table["window"]
        if not (isinstance(w, list) and len(w) == 2 and all(_is_number(v) for v in w) and 0 <= w[0] < w[1] <= MAX_SECONDS):
            spec.problem("`window` is [from, to] in seconds, from < to", *key, "window")
        if "at" in table:
            spec.problem("give `at` or `window`, not both", *key, "window")
    needs = {"count", "bounds", "events", "picture", "determinism"}
    if kind in needs and "at" not in table and "window" not in table:
        spec.problem(f"[[{kind}]] needs a time: at = SECONDS" + (" or window = [FROM, TO]" if "window" in KINDS[kind] else ""),
                     *key)


def _range(spec: Spec, key: tuple, name: str, value) -> None:
    if _is_number(value):
        return
    if isinstance(value, dict) and name in FIGURES:        # relative: { of, figure, times }
        if not (isinstance(value.get("of"), str) and value.get("figure", name) in FIGURES
                and _is_number(value.get("times", 1)) and _is_number(value.get("within", 0))
                and set(value) <= {"of", "figure", "times", "within"}):
            spec.problem(f"`{name}` relative to another emitter is {{ of = 'EMITTER', figure = 'died', "
                         "times = N, within = TOLERANCE }}", *key, name)
        return
    if not (isinstance(value, list) and len(value) == 2 and all(_is_number(v) for v in value) and value[0] <= value[1]):
        spec.problem(f"`{name}` is a number or a range [min, max]"
                     + (" or { of = 'EMITTER', figure = 'died', times = N }" if name in FIGURES else ""), *key, name)


def _count(spec, key, t):
    _emitter_named(spec, key, t)
    figures = [f for f in FIGURES if f in t]
    if not figures:
        spec.problem(f"[[count]] checks at least one of {', '.join(FIGURES)}", *key)
    for f in figures:
        _range(spec, key, f, t[f])


def _bounds(spec, key, t):
    shapes = [s for s in ("box", "sphere", "above", "outside") if s in t]
    if not shapes:
        spec.problem("[[bounds]] needs box, sphere, above or outside", *key)
    if "box" in t and not (isinstance(t["box"], dict) and _vec(t["box"].get("min")) and _vec(t["box"].get("max"))):
        spec.problem("`box` is { min = [x, y, z], max = [x, y, z] }", *key, "box")
    if "sphere" in t and not (isinstance(t["sphere"], dict) and _vec(t["sphere"].get("center"))
                              and _is_number(t["sphere"].get("radius"))):
        spec.problem("`sphere` is { center = [x, y, z], radius = R }", *key, "sphere")
    if "above" in t and not (isinstance(t["above"], dict) and _vec(t["above"].get("point"))
                             and _vec(t["above"].get("normal")) and any(t["above"]["normal"])):
        spec.problem("`above` is { point = [x, y, z], normal = [x, y, z] } (normal not zero)", *key, "above")
    if "outside" in t and not isinstance(t["outside"], str):
        spec.problem("`outside` names a ParticleCollider (its name or path)", *key, "outside")
    if "tolerance" in t and not (_is_number(t["tolerance"]) and t["tolerance"] >= 0):
        spec.problem("`tolerance` is metres, 0 or more", *key, "tolerance")


def _events(spec, key, t):
    _emitter_named(spec, key, t)
    if t.get("kind") not in EVENT_KINDS:
        spec.problem(f"`kind` is one of {', '.join(EVENT_KINDS)}", *key, "kind")
    if "count" not in t and "fires" not in t:
        spec.problem("[[events]] checks `count` (events) or `fires` (distinct instants)", *key)
    for name in ("count", "fires"):
        if name in t:
            _range(spec, key, name, t[name])


def _validate(spec, key, t):
    for name in ("errors", "warnings"):
        if name in t and not (_is_int(t[name]) and t[name] >= 0):
            spec.problem(f"`{name}` is a count, 0 or more", *key, name)
    if "strict" in t and not isinstance(t["strict"], bool):
        spec.problem("`strict` is true or false", *key, "strict")
    expect = t.get("expect", [])
    if not isinstance(expect, list) or not all(isinstance(e, dict) and isinstance(e.get("rule"), str)
                                               and set(e) <= {"rule", "line", "column", "file"} for e in expect):
        spec.problem("`expect` is a list of { rule = 'slug', line = N, column = N } (line, column optional)",
                     *key, "expect")


def _picture(spec, key, t):
    if "golden" in t and not (isinstance(t["golden"], str) and t["golden"].endswith(".png")):
        spec.problem("`golden` is a .png file, relative to the spec", *key, "golden")
    if "min_ssim" in t and not (_is_number(t["min_ssim"]) and -1 <= t["min_ssim"] <= 1):
        spec.problem("`min_ssim` is the lowest SSIM that passes, -1 to 1", *key, "min_ssim")


def _determinism(spec, key, t):
    pass


def _value(spec, key, t):
    if not isinstance(t.get("item"), str) or not isinstance(t.get("property"), str):
        spec.problem("[[value]] needs item = 'NAME or PATH' and property = 'Name.Space'", *key)
    if "equals" not in t:
        spec.problem("[[value]] needs `equals`: the expected value after bindings", *key)
    if "tolerance" in t and not (_is_number(t["tolerance"]) and t["tolerance"] >= 0):
        spec.problem("`tolerance` is a number, 0 or more", *key, "tolerance")


def _emitter_named(spec, key, t):
    if not isinstance(t.get("emitter"), str) or not t["emitter"]:
        spec.problem("`emitter` names a ParticleEmitter (its name, or a path ending in it)", *key, "emitter")


_KIND_CHECKS = {"count": _count, "bounds": _bounds, "events": _events, "validate": _validate,
                "picture": _picture, "determinism": _determinism, "value": _value}


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _vec(v) -> bool:
    return isinstance(v, list) and len(v) == 3 and all(_is_number(x) for x in v)


def _suggest(word: str, known) -> str | None:
    import difflib
    close = difflib.get_close_matches(word, sorted(known), n=1)
    return f"did you mean `{close[0]}`?" if close else f"known: {', '.join(sorted(known))}"
