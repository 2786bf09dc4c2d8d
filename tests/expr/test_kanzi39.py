"""Every binding expression of the real Kanzi Studio 3.9 files parses.

The files are WCF DataContract XML: a property is a `Key` element (`BindingItem.RawCode`)
followed by its `Value`, whose `value` child holds the text."""
import re

import pytest
from lxml import etree

from kzplayer.expr import parse, to_text
from kzplayer.expr.ast import Program

KEYS = ("BindingItem.DisplayCodeForMerge", "BindingItem.RawCode")


def binding_codes(path):
    """[(key, text, source line)] of every BindingItem code in a file, in document order."""
    out = []
    for key in etree.parse(str(path)).iter("{*}Key"):
        if key.text in KEYS:
            value = key.getnext().find("{*}value")
            out.append((key.text, value.text, value.sourceline))
    return out


@pytest.fixture(scope="module")
def codes(kanzi39):
    files = [f for folder in (kanzi39, kanzi39 / "demos") for pattern in ("*.kzproj", "*.kzmat")
             for f in sorted(folder.glob(pattern))]
    assert files, f"no .kzproj or .kzmat files in {kanzi39}"
    assert any(f.parent.name == "demos" for f in files), f"no demos/ folder in {kanzi39}"
    return {str(f.relative_to(kanzi39)): binding_codes(f) for f in files}


def test_every_real_expression_parses(codes, kanzi39, capsys):
    parsed = 0
    for name, entries in codes.items():
        # count independently of the XML walk: the raw text names each key once per property
        text = (kanzi39 / name).read_text(encoding="utf-8")
        expected = sum(len(re.findall(rf"<\w+:Key>{re.escape(k)}</\w+:Key>", text)) for k in KEYS)
        assert len(entries) == expected
        for key, code, line in entries:
            program = parse(code, file=name, line=line)
            assert program.diagnostics == [], f"{name}:{line} {key} {code!r}"
            assert parse(to_text(program)) == program
            parsed += 1
    with capsys.disabled():
        print(f"\n[kanzi39] parsed {parsed} binding expressions from {len(codes)} files")
    assert parsed >= 2 * len(codes)


def _with_indices(program: Program, raw: Program) -> str:
    """DisplayCodeForMerge with each distinct reference replaced by the {N} that RawCode has at
    the same place. Kanzi Studio does not number in order of first use (`{1} - {0}` is
    common), but one reference keeps one index and two references never share one."""
    index: dict = {}
    for ref, at in zip(program.references, raw.references):
        if ref.kind != "datacontext":       # {DataContext.x} stays as it is: no source item
            assert index.setdefault(ref.key, at.index) == at.index
    assert len(set(index.values())) == len(index)
    text = to_text(program)
    for ref in program.references:
        if ref.key in index:
            text = text.replace(ref.canonical, f"{{{index[ref.key]}}}")
    return text


def test_raw_code_is_display_code_with_indices(codes):
    pairs = 0
    for name, entries in codes.items():
        by_kind = {k: [e for e in entries if e[0] == k] for k in KEYS}
        assert len(by_kind[KEYS[0]]) == len(by_kind[KEYS[1]])
        for (_, display, _), (_, raw, _) in zip(*by_kind.values()):
            shown, run = parse(display), parse(raw)
            assert all(r.kind in ("index", "datacontext") for r in run.references)
            assert parse(_with_indices(shown, run)) == run, (display, raw)
            pairs += 1
    assert pairs > 0


def test_real_range_views(codes):
    """The light bindings of the demos' material types: a view over a node list, read per light."""
    from kzplayer.expr import ast
    views = [n for entries in codes.values() for k, code, _ in entries if k == KEYS[1]
             for n in ast.walk(parse(code)) if isinstance(n, ast.View)]
    assert len(views) >= 20
    assert {v.property for v in views} >= {"PointLightColor", "DirectionalLightDirection", "SpotLightConeParameters"}
    assert all(isinstance(v.source, ast.Name) and v.source.name.endswith("LightsView") for v in views)


def test_real_reference_kinds(codes):
    refs = [r for entries in codes.values() for k, code, _ in entries if k == KEYS[0]
            for r in parse(code).references]
    kinds = {r.kind for r in refs}
    assert {"relative", "template", "alias", "datacontext"} <= kinds
    assert any(r.tracked for r in refs) and any(not r.tracked for r in refs)
    assert all(r.property and not r.property.startswith(("/", ".")) for r in refs)
