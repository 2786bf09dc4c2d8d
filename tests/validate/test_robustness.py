"""Bad input gives diagnostics, never a traceback: the rule cases with random lines dropped,
duplicated or cut short still validate, every problem with a position inside the file."""
from __future__ import annotations

import re
from pathlib import Path
from xml.sax.saxutils import escape

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kzplayer.validate import validate_paths

CASES = sorted((Path(__file__).parent / "cases").rglob("*.kzm"))

edits = st.lists(st.tuples(st.sampled_from(["drop", "twice", "cut"]),
                           st.integers(0, 200), st.integers(0, 80)), min_size=1, max_size=4)


def mutate(lines: list[str], plan) -> str:
    lines = list(lines)
    for what, n, k in plan:
        n %= len(lines)
        if what == "drop":
            del lines[n]
        elif what == "twice":
            lines.insert(n, lines[n])
        else:
            lines[n] = lines[n][:k]
        if not lines:
            break
    return "\n".join(lines) + "\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=st.sampled_from(CASES), plan=edits)
def test_mutated_cases_never_raise(tmp_path, case, plan):
    path = tmp_path / case.name
    text = mutate(case.read_text(encoding="utf-8").splitlines(), plan)
    path.write_text(text, encoding="utf-8")
    result = validate_paths([str(path)])
    lines = text.splitlines()
    for d in result.diagnostics:
        assert d.rule != "internal.error", d
        assert d.span is not None and d.span.file == str(path)
        assert 0 <= d.span.line <= len(lines) + 1, d
        assert d.message


VALUES = ["", " ", "abc", "-1", "1e400", "nan", "(1, 2)", "(1,2,3,4,5)", "{../X/Y}", "{./Emission.Rate}",
          "Emission.Rate", "{", "}", "{0}", "{1}.x", "# note", "a = 1\na", "clamp(", "Screens", "/",
          "Screens/Screen/Nowhere", "Gravity", "Emitter_FromEvents", "EmissionCount_PerSecond", "true"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=st.sampled_from(CASES), picks=st.lists(st.tuples(st.integers(0, 500), st.sampled_from(VALUES)),
                                                   min_size=1, max_size=6))
def test_odd_values_never_raise(tmp_path, case, picks):
    """Element texts (property values, expressions, paths) replaced by odd ones."""
    text = case.read_text(encoding="utf-8")
    texts = [m for m in re.finditer(r">([^<>]*)</", text)]
    for n, value in picks:
        if texts:
            m = texts[n % len(texts)]
            text = text[:m.start(1)] + escape(value) + text[m.end(1):]
            texts = [m for m in re.finditer(r">([^<>]*)</", text)]
    path = tmp_path / case.name
    path.write_text(text, encoding="utf-8")
    result = validate_paths([str(path)])
    for d in result.diagnostics:
        assert d.rule != "internal.error", d
        assert d.span is not None and d.span.file == str(path)


def test_without_an_opengl_context_custom_shaders_get_a_note(monkeypatch):
    from kzplayer.gpu import context as gl
    monkeypatch.setattr(gl, "create_context", lambda **_: (_ for _ in ()).throw(gl._no_context("no EGL display")))
    case = Path(__file__).parent / "cases" / "shader.compile" / "ok.kzm"
    [d] = validate_paths([str(case)]).diagnostics
    line = next(n for n, s in enumerate(case.read_text().splitlines(), 1) if "<MaterialType" in s)
    assert (d.rule, d.severity.value, d.span.line) == ("shader.compile", "note", line)
    assert "custom shaders were not compiled: no OpenGL 4.3 context could be created (no EGL display)" == d.message


def test_every_binding_text_is_parsed_once(monkeypatch):
    # the rules share the binding graph's programs: the SourceExpression of a full BindingItem
    # included (the graph compares it with RawCode)
    import kzplayer.expr
    parsed = []
    real = kzplayer.expr.parse

    def counting(text, span=None, **kw):
        parsed.append((text, span and (span.line, span.column)))
        return real(text, span=span, **kw)
    monkeypatch.setattr(kzplayer.expr, "parse", counting)
    case = Path(__file__).parent / "cases" / "recipe_ok.kzm"
    assert validate_paths([str(case)]).diagnostics == []
    # one short binding, two BindingItems of SourceExpression + RawCode
    assert len(parsed) == len(set(parsed)) == 5, parsed
