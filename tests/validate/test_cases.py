"""Rule cases as data (sqlfluff style): every `tests/validate/cases/<rule>/*.kzm` states in a
header comment the diagnostics it must produce, `expect: RULE LINE:COLUMN` one per line, or
`expect: none`. Validating the file must give exactly those, nothing more. A problem in
another file (a custom shader) is `expect: RULE PATH:LINE`, PATH relative to the case: the
driver decides columns and how many messages, so at least one must be on that line and every
diagnostic must be of that rule, in that file.

`cases/recipe_ok.kzm` is the events page's end-to-end recipe done right; the five gotchas of
that page are broken copies of it (`gotcha1_*` ... `gotcha5_*`)."""
from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest

from kzplayer.validate import all_rules, validate_paths

CASES = Path(__file__).parent / "cases"
RECIPE = CASES / "recipe_ok.kzm"
_EXPECT = re.compile(r"expect: ([a-z][a-z.-]*) (\d+):(\d+)")
_EXPECT_ELSEWHERE = re.compile(r"expect: ([a-z][a-z.-]*) ([\w./-]+\.\w+):(\d+)")
# The rules whose passing case is the recipe itself (their failing cases are its broken copies).
RECIPE_RULES = {"binding.target-undeclared", "binding.push-target", "subemitter.not-event-driven",
                "subemitter.no-particle-material", "path.stale", "subemitter.unbound",
                "binding.type-mismatch", "binding.source-mismatch"}


def case_files() -> list[Path]:
    return sorted(CASES.rglob("*.kzm"))


def expected(path: Path) -> list[tuple[str, int, int]]:
    text = path.read_text(encoding="utf-8")
    found = [(rule, int(line), int(col)) for rule, line, col in _EXPECT.findall(text)]
    assert found or "expect: none" in text or _EXPECT_ELSEWHERE.search(text), \
        f"{path} states no expectation"
    return sorted(found)


def expected_elsewhere(path: Path) -> list[tuple[str, Path, int]]:
    return [(rule, path.parent / file, int(line))
            for rule, file, line in _EXPECT_ELSEWHERE.findall(path.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("path", case_files(), ids=lambda p: str(p.relative_to(CASES)))
def test_case(path):
    result = validate_paths([str(path)])
    report = "\n".join(str(d) for d in result.diagnostics)
    elsewhere = expected_elsewhere(path)
    if elsewhere:
        for rule, file, line in elsewhere:
            assert any((d.rule, Path(d.span.file), d.span.line) == (rule, file, line)
                       for d in result.diagnostics), report
        assert {(d.rule, Path(d.span.file)) for d in result.diagnostics} == \
            {(rule, file) for rule, file, _ in elsewhere}, report
        return
    got = sorted((d.rule, d.span.line, d.span.column) for d in result.diagnostics)
    assert got == expected(path), report
    assert all(d.span.file == str(path) for d in result.diagnostics)


@pytest.mark.parametrize("path", [p for p in case_files() if p.parent != CASES],
                         ids=lambda p: str(p.relative_to(CASES)))
def test_case_sits_in_its_rules_folder(path):
    rule = path.parent.name
    if path.stem.startswith("ok"):          # nothing of its rule (another rule's note may be expected)
        assert rule not in {r for r, _, _ in expected(path)}, f"{path} passes, yet expects {rule}"
    else:
        rules = {r for r, _, _ in expected(path)} | {r for r, _, _ in expected_elsewhere(path)}
        assert rule in rules, f"{path} never expects {rule}"


# Rules whose input is not one .kzm file: tested where that input is made.
ELSEWHERE = {"file.unreadable": "test_command.py", "file.missing": "test_folder_layout.py",
             "mesh.collider-budget": "test_mesh_rules.py"}


def test_every_rule_has_a_failing_and_a_passing_case():
    for module in all_rules():
        if module.RULE in ELSEWHERE:
            continue
        folder = CASES / module.RULE
        cases = sorted(folder.glob("*.kzm"))
        # failing: it expects its folder's rule; passing: it does not (another rule's note, say
        # material.kzplayer-only on a case that uses a NeL material, may still be expected)
        failing = [p for p in cases if module.RULE in {e[0] for e in expected(p) + expected_elsewhere(p)}]
        passing = [p for p in cases if p not in failing] or ([RECIPE] if module.RULE in RECIPE_RULES else [])
        assert failing, f"{module.RULE}: no failing case in {folder}"
        assert passing, f"{module.RULE}: no passing case in {folder}"


def test_the_five_gotchas_are_broken_copies_of_the_recipe():
    def body(path):         # the project without the header comment
        return path.read_text(encoding="utf-8").split("-->\n", 1)[1].splitlines()

    gotchas = sorted(CASES.glob("*/gotcha*.kzm"), key=lambda p: p.name)
    # one copy per gotcha at least (gotcha 3 has two halves: the emission and the count material)
    assert sorted(set(p.name[:7] for p in gotchas)) == [f"gotcha{n}" for n in range(1, 6)]
    for path in gotchas:
        diff = [d for d in difflib.ndiff(body(RECIPE), body(path)) if d[:1] in "+-"]
        assert 0 < len(diff) <= 6, f"{path.name} is not a small change of the recipe: {diff}"
