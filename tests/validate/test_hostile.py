"""Hostile input for validate (issue 8): bounded output, linear time, no crash."""
from __future__ import annotations

from kzplayer.commands.report import format_diagnostic
from kzplayer.resources import samples_dir
from kzplayer.validate import validate_paths

DEMO = samples_dir() / "demo_fountain.kzm"
BINDING = "{./Emission.Rate} * ({./Emission.Lifetime} + {./Emission.LifetimeVariance})"


def variant(tmp_path, edit, name="v.kzm"):
    path = tmp_path / name
    path.write_text(edit(DEMO.read_text(encoding="utf-8")), encoding="utf-8")
    return path


def test_a_huge_line_prints_a_short_window_around_the_spot(tmp_path):
    # a 9 MB attribute (under libxml2's limit) in a bad binding: the caret line was 9 MB too
    path = variant(tmp_path, lambda t: t.replace(BINDING, "x" * 9_000_000 + " +"))
    result = validate_paths([str(path)])
    text = "\n".join(format_diagnostic(d) for d in result.diagnostics)
    assert result.diagnostics and len(text) < 20_000
    assert all(len(line) < 1_200 for line in text.splitlines())


def test_an_expression_of_16000_entity_terms_is_checked_and_positioned(tmp_path):
    # position lookup was one scan of every entity per token: quadratic (46 s for this)
    terms = ", ".join(["&#49;"] * 16000)
    path = variant(tmp_path, lambda t: t.replace(BINDING, f"max({terms}) + nope"))
    (d,) = [d for d in validate_paths([str(path)]).diagnostics if d.rule == "expr.syntax"
            or d.rule == "expr.unknown-function" or d.rule == "expr.arguments"]
    line = next(n for n, l in enumerate(path.read_text().splitlines(), 1) if "max(" in l)
    assert d.span.line == line


def test_a_one_shot_schedule_with_a_denormal_period_is_checked(tmp_path):
    path = variant(tmp_path, lambda t: t.replace(
        '<Property name="Emission.Rate">400</Property>',
        '<Property name="Emission.Rate">400</Property><Property name="Emission.OffDuration">1e-320</Property>'
        '<Property name="Emission.ImpulseAtCycleStart">5</Property>'))
    result = validate_paths([str(path)])            # an OverflowError in the maximum-amount rule before
    assert "internal.error" not in [d.rule for d in result.diagnostics]


def test_nan_rate_is_no_longer_clean(tmp_path):
    path = variant(tmp_path, lambda t: t.replace(">400<", ">nan<").replace(BINDING, "1000"))
    found = [(d.rule, d.message) for d in validate_paths([str(path)]).diagnostics]
    assert ("property.range", "Emission.Rate must be a finite number, not nan") in found
