"""docs/validate.md, generated from the rule modules' docstrings (the single source).

    python -m kzplayer.validate.docs > docs/validate.md

tests/validate/test_docs.py fails when the page is not current.
"""
from __future__ import annotations

import inspect
import re

from kzplayer.validate.engine import all_rules

_GROUPS = [("KZ0", "Structure, XML and schema"), ("KZ1", "Paths and bindings"),
           ("KZ2", "Expressions"), ("KZ3", "Properties"), ("KZ4", "Materials"),
           ("KZ5", "Emitters, events and subemitters"), ("KZ6", "Shaders"),
           ("KZ7", "The scene: meshes, textures, lights"), ("KZ9", "The machine: GPU budgets")]

_INTRO = """\
# `kzplayer validate`: the rules

Generated from the rule modules in `kzplayer/validate/rules/` by
`python -m kzplayer.validate.docs`; edit the docstrings, not this page.

```
kzplayer validate PROJECT...  [--format text|json|github] [--strict]
```

Every file of every project named is checked in one pass; all problems are reported, each
once, sorted by file, line and column. Exit code 0: clean; 1: errors (with `--strict`,
warnings too); 2: a path that cannot be read, or a wrong command line.

For example:

```
$ kzplayer validate effect.kzm
effect.kzm:13:29: error: unknown property 'Emission.Lifetim' on ParticleEmitter 'Nozzle' [property.unknown]
                <Property name="Emission.Lifetim">2</Property>
                                ^^^^^^^^^^^^^^^^
    hint: did you mean 'Emission.Lifetime'?
effect.kzm:14:65: warning: Emission.InitialVelocityOuterAngle = 4 is outside [0, π]; the player clamps it to π [property.range]
                <Property name="Emission.InitialVelocityOuterAngle">4</Property>
                                                                    ^
    hint: use a value in [0, π]
1 file checked: 1 error, 1 warning, 0 notes.
```

* `text` (default): `file:line:col: severity: message [rule]`, the source line with a caret
  under the spot, a `see also:` line with the other places of the same problem (the other
  bindings of a loop, the SourceExpression a stale path disagrees with), a `hint:` line where
  there is a fix, coloured on a terminal (not with `NO_COLOR` set), and a summary.
* `json`: `{"files": [...], "diagnostics": [{"code", "rule", "severity", "message", "file",
  "line", "column", "end_line", "end_column", "hint", "related"}], "summary": {"errors",
  "warnings", "notes"}}` (lines and columns count from 1, `end_column` is exclusive, all
  four are `null` for a problem of a file as a whole;
  `related` lists the other places as `{"file", "line", "column", "end_line", "end_column"}`).
* `github`: one workflow command per problem,
  `::error file=F,line=L,col=C,endColumn=E,title=RULE::MESSAGE` (`::warning`, `::notice`),
  so a CI job annotates the pull request.

## Decisions

* The loader, the expression checker and the binding graph report what they meet while
  working (XML errors, type errors, unresolved paths, cycles); the validator reports those
  under the rules below and adds the checks that need the whole project. Where two stages
  see the same mistake, it is reported once, by the rule with the better message: a stale
  absolute path is `path.stale` (naming the item meant), not also `path.unresolved`; an
  evaluation error of a binding whose text is already rejected is not repeated.
* When a file of a folder project does not load, the items in it are missing; paths that
  lead to them are not reported one by one (one note says how many), until the file loads.
* A consumer-buffer binding counts for the subemitter that holds it, so a wrong PushTarget
  is one `binding.push-target` error, not also "unbound" and "not event-driven".
* Paths are shown as given on the command line; a file named twice (`a.kzm ./a.kzm`) is
  checked once. At one position, errors come before warnings before notes.
* The caret goes under the value at fault: a property's value, or its name when the name
  is the mistake (`property.unknown`), a path inside an expression, a BindingSourceItem's
  `Source`. Where the mistake is something missing, it goes under the element that lacks it.
* A Kanzi Studio project's material bindings, which Kanzi evaluates per node drawn, are one
  note per file, not one per uniform: a working Kanzi project validates quietly.
* A bug in kzplayer met while validating is reported as `internal.error` (KZ000) with the
  rule or stage it happened in, and the other rules still run.
* Codes are stable and grouped by range: KZ0xx structure, KZ1xx paths and bindings, KZ2xx
  expressions, KZ3xx properties, KZ4xx materials, KZ5xx emitters, events and subemitters,
  KZ6xx shaders, KZ7xx the scene's meshes, textures and lights, KZ9xx the machine (a rule
  that `play` checks too keeps play's code: `play.buffer-budget`). Every stage takes its
  codes from one table (`kzplayer/codes.py`), so
  `validate`, `play` and `inspect` show the same code for the same problem.

## Rules

| code | rule | severity | what |
|---|---|---|---|
"""


def render() -> str:
    modules = all_rules()
    out = [_INTRO.rstrip("\n")]
    for m in modules:
        out.append(f"| {m.CODE} | [`{m.RULE}`](#{_anchor(m)}) | {m.SEVERITY.value} | {_summary(m)} |")
    for prefix, title in _GROUPS:
        group = [m for m in modules if m.CODE.startswith(prefix)]
        if not group:
            continue
        out += ["", f"## {title}"]
        for m in group:
            doc = inspect.cleandoc(m.__doc__ or "")
            body = doc.split("\n", 1)[1].strip("\n") if "\n" in doc else ""
            body = re.sub(r"^To fix:", "**To fix:**", body, flags=re.M)
            out += ["", f"### {m.CODE} `{m.RULE}` ({m.SEVERITY.value})", "", _summary(m), "", body]
    return "\n".join(out).rstrip() + "\n"


def _summary(module) -> str:
    return inspect.cleandoc(module.__doc__ or "").split("\n", 1)[0].strip()


def _anchor(module) -> str:
    text = f"{module.CODE} {module.RULE} {module.SEVERITY.value}".lower()
    return "".join(c for c in text.replace(" ", "-") if c.isalnum() or c == "-")


if __name__ == "__main__":      # pragma: no cover - doc generator
    print(render(), end="")
