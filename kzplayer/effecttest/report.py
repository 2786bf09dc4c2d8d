"""What `kzplayer test` writes: text (one line per check, the failures as diagnostics with
the spec's line and a caret), JUnit XML (a <testsuite> per spec, a <testcase> per check:
the shape CI systems read) and GitHub workflow annotations."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from kzplayer.validate.text import format_diagnostic


def text(results, *, verbose: bool = False, color: bool = False) -> str:
    lines = []
    for r in results:
        if r.spec.problems:
            lines.append(f"BAD   {r.spec.path}: the spec cannot be run")
        else:
            passed = sum(o.passed for o in r.outcomes)
            state = "FAIL" if r.failed else "ok  "
            lines.append(f"{state}  {r.spec.path}: {passed}/{len(r.outcomes)} checks passed ({r.seconds:.1f} s)")
            for o in r.outcomes:
                if verbose or not o.passed:
                    lines.append(f"        {'ok  ' if o.passed else 'FAIL'} {o.check.kind}[{o.check.index}]: {o.message}")
        for d in r.diagnostics():
            lines.append(format_diagnostic(d, color=color))
    lines.append(summary(results))
    return "\n".join(lines)


def summary(results) -> str:
    checks = sum(len(r.outcomes) for r in results)
    failed = sum(not o.passed for r in results for o in r.outcomes)
    bad = sum(r.bad for r in results)
    seconds = sum(r.seconds for r in results)
    parts = [f"{len(results)} spec{'s' if len(results) != 1 else ''}", f"{checks} checks",
             f"{failed} failed"]
    if bad:
        parts.append(f"{bad} with bad input")
    return "kzplayer test: " + ", ".join(parts) + f" ({seconds:.1f} s)"


def junit(results, path) -> None:
    """JUnit XML: <testsuites><testsuite name=spec tests= failures= errors= time=><testcase
    classname= name= time=><failure message= type=>...</failure>; a bad spec is one testcase
    with an <error>."""
    root = ET.Element("testsuites", name="kzplayer test")
    totals = {"tests": 0, "failures": 0, "errors": 0}
    for r in results:
        suite = ET.SubElement(root, "testsuite", name=r.spec.name, file=str(r.spec.path))
        counts = {"tests": 0, "failures": 0, "errors": 0}
        if r.spec.problems:
            case = ET.SubElement(suite, "testcase", classname=r.spec.name, name="spec", time="0")
            err = ET.SubElement(case, "error", message=r.spec.problems[0].message, type="cli.test-spec")
            err.text = "\n".join(str(d) for d in r.spec.problems)
            counts.update(tests=1, errors=1)
        share = r.seconds / max(len(r.outcomes), 1)
        for o in r.outcomes:
            case = ET.SubElement(suite, "testcase", classname=r.spec.name, name=o.check.name,
                                 time=f"{share:.3f}", file=str(r.spec.path), line=str(o.check.span.line))
            counts["tests"] += 1
            if not o.passed:
                tag = "error" if o.bad else "failure"
                counts["errors" if o.bad else "failures"] += 1
                span = o.check.at_key(o.key) if o.key else o.check.span
                node = ET.SubElement(case, tag, message=o.message, type="cli.test-spec" if o.bad else "play.test-check")
                node.text = f"{span}: {o.message}" + (f"\nemitter: {o.emitter}" if o.emitter else "")
            else:
                ET.SubElement(case, "system-out").text = o.message
        for k, v in counts.items():
            suite.set(k, str(v))
            totals[k] += v
        suite.set("time", f"{r.seconds:.3f}")
    for k, v in totals.items():
        root.set(k, str(v))
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)


def github(results) -> str:
    """`::error file=,line=,col=,endColumn=,title=::message` per failure (%, CR, LF escaped)."""
    lines = []
    for r in results:
        for d in r.diagnostics():
            s = d.span
            where = f"file={_prop(s.file)},line={max(s.line, 1)},col={max(s.column, 1)},endColumn={s.end_column}" if s else ""
            title = _prop(f"kzplayer test {r.spec.name} [{d.rule}]")
            message = d.message + (f" ({d.hint})" if d.hint else "")
            lines.append(f"::error {where},title={title}::{_data(message)}")
    lines.append(summary(results))
    return "\n".join(lines)


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")
