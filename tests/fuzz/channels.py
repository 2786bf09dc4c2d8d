"""The fuzz channels: one input through one part of kzplayer, as a user or a script would
drive it. A channel returns normally for every outcome kzplayer handles (a clean result, a
diagnostic, a documented error); anything else (an exception that escapes, an internal
error diagnostic, exit code 3, a traceback in the output, a diagnostic line of absurd
length) raises `Bug`.

    loader     a mutated project file -> load_project, every item's get/set, resolve,
               save as a single file and as a folder, load both again
    expr       a mutated expression -> parse, check, evaluate (hostile reference values),
               to_text and back
    validate   a mutated project file -> validate_paths, rendered as text, JSON and GitHub
    cli        a lightly mutated small project -> kzplayer play (1-3 frames, tiny images,
               hostile options), inspect, validate or convert, in-process
    assets     a mutated PNG, JPEG, glTF, GLB, OBJ or GLSL file, or a pipe or folder in its
               place -> the texture reader, the mesh loader, the shader preprocessor and the
               checks before the GL compiler (tests/fuzz/assets.py)
"""
from __future__ import annotations

import json
import random
from pathlib import Path

from kzplayer.diagnostics import KzError

MAX_LINE = 5_000            # a diagnostic line longer than this is an output-size bug


class Bug(Exception):
    """kzplayer escaped its own error handling on this input."""


def _check_diagnostics(diagnostics, where: str) -> None:
    from kzplayer.commands.report import format_diagnostic
    for d in diagnostics:
        if d.rule == "internal.error":
            raise Bug(f"{where}: internal error diagnostic: {d}")
        text = format_diagnostic(d)
        if any(len(line) > MAX_LINE for line in text.splitlines()):
            raise Bug(f"{where}: a diagnostic line of {max(map(len, text.splitlines())):,} characters")


def _write(path: Path, text: str) -> Path:
    path.write_bytes(text.encode("utf-8", errors="replace"))
    return path


# -- loader and API ---------------------------------------------------------------------------

_VALUES = (float("nan"), float("inf"), 10 ** 400, -1, 0, 2 ** 31, 1.5, "nan", "1e400", "(0, 1, 0)",
           "Gravity", "", "x" * 1000, True, None, (1, 2, 3), "../../etc/passwd")


def loader(text: str, rng: random.Random, work: Path) -> str:
    from kzplayer.bindings import resolve
    from kzplayer.project.loader import load_project
    project, diags = load_project(str(_write(work / "p.kzm", text)))
    _check_diagnostics(diags, "load")
    if project is None:
        return "refused"
    items = project.items()
    for item in rng.sample(items, min(len(items), 6)):
        for name in list(item.properties)[:8]:
            item.get(name)
            try:
                item.set(name, rng.choice(_VALUES))
            except (ValueError, TypeError):        # the documented errors of Item.set
                pass
    graph = resolve(project)
    _check_diagnostics(graph.diagnostics, "resolve")
    for item in rng.sample(items, min(len(items), 6)):
        for name in list(item.properties)[:8]:
            graph.value(item, name)
    if any(d.severity.value == "error" for d in diags):
        return "loaded with errors"
    for target in (work / "saved.kzm", work / "saved_folder"):
        try:
            project.save(str(target))
        except KzError as exc:                     # documented: a file that cannot be written
            _check_diagnostics(exc.diagnostics, "save")
            return "save refused"
        again, more = load_project(str(target))
        _check_diagnostics(more, "load again")
    return "ok"


# -- expressions -----------------------------------------------------------------------------

class _Env:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def lookup(self, ref):
        from kzplayer.values import Color4, Srt3D, Vector
        return self.rng.choice((1.5, 0, -3, 2 ** 40, float("nan"), float("inf"), "text", True,
                                Vector((1, 2, 3)), Color4(1, 0, 0, 1), Srt3D()))

    def current_value(self):
        return self.rng.choice((0, 2.5, "x"))


def expression(text: str, rng: random.Random, work: Path) -> str:
    from kzplayer.expr import ExprError, check, evaluate, parse, to_text
    program = parse(text, file="f.kzm", line=rng.randint(1, 50), column=rng.randint(1, 80))
    _check_diagnostics(program.diagnostics, "parse")
    found = check(program, lambda ref: rng.choice(("float", "int", "vector3", "string", None)),
                  target_type=rng.choice(("float", "int", None)))
    _check_diagnostics(found, "check")
    if not program.ok:
        return "syntax"
    try:
        evaluate(program, _Env(rng))
    except ExprError as exc:
        _check_diagnostics([exc.diagnostic], "evaluate")
    printed = to_text(program)
    again = parse(printed)
    if again.ok and again != program:
        raise Bug(f"to_text does not parse back to the same program: {printed[:200]!r}")
    return "ok"


# -- validate --------------------------------------------------------------------------------

def validate(text: str, rng: random.Random, work: Path) -> str:
    from kzplayer.diagnostics import Severity
    from kzplayer.validate import validate_paths
    from kzplayer.validate.formats import render_github, render_json, render_text
    result = validate_paths([str(_write(work / "v.kzm", text))])
    _check_diagnostics(result.diagnostics, "validate")
    render_text(result)
    render_github(result)
    json.loads(render_json(result))
    return "errors" if result.count(Severity.ERROR) else "clean"


# -- the command line ------------------------------------------------------------------------

_OPTIONS = (["--seed", "7"], ["--seed", "4294967296"], ["--seed", "-1"], ["--fps", "nan"], ["--fps", "1e-9"],
            ["--fps", "30"], ["--seconds", "inf"], ["--size", "0x0"], ["--size", "99999x2"], ["--frame-budget", "nan"],
            ["--set", "DataContext.x=nan"], ["--set", "Screens/Nope:Emission.Rate=1"],
            ["--set", "DataContext.a.b=1e400"], [])


def cli(text: str, rng: random.Random, work: Path) -> str:
    from click.testing import CliRunner

    from kzplayer.cli import main
    project = str(_write(work / "c.kzm", text))
    kind = rng.random()
    if kind < 0.55:
        args = ["play", project, "--headless", "--frames", str(rng.randint(1, 3)), *rng.choice(_OPTIONS)]
        extra = rng.random()
        if extra < 0.3:
            args += ["--output", str(work / "o.png"), "--size", "32x18"]
        elif extra < 0.5:
            args += ["--stats", str(work / rng.choice(("s.csv", "s.json")))]
        elif extra < 0.6:
            args += ["--dump", str(work / "d.npz")]
    elif kind < 0.75:
        args = ["inspect", project, *rng.sample(["--json", "--defaults", "--paths"], rng.randint(0, 2))]
    elif kind < 0.9:
        args = ["validate", project, "--format", rng.choice(("text", "json", "github"))]
    else:
        args = ["convert", project, str(work / rng.choice(("out.kzm", "out_folder", "out.kzproj", "c.kzm")))]
        if rng.random() < 0.3:
            args.append("--force")
    result = CliRunner().invoke(main, args, catch_exceptions=True)
    output = result.output or ""
    if result.exit_code == 3 or "Traceback" in output or "internal error" in output:
        raise Bug(f"{' '.join(args[:1] + args[2:])}: exit {result.exit_code}: {output[-2000:]}")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise Bug(f"{args[0]}: {type(result.exception).__name__}: {result.exception}")
    if any(len(line) > MAX_LINE for line in output.splitlines()):
        raise Bug(f"{args[0]}: an output line of {max(map(len, output.splitlines())):,} characters")
    return f"{args[0]} exit {result.exit_code}"


def assets(text: str, rng: random.Random, work: Path) -> str:
    from tests.fuzz.assets import one
    name, data = text.split("\n", 1)
    outcome = one(work, name, data.encode("latin-1"), rng)
    if outcome.startswith("escape"):
        raise Bug(f"{name}: {outcome}")
    return outcome


CHANNELS = {"loader": loader, "expr": expression, "validate": validate, "cli": cli, "assets": assets}
