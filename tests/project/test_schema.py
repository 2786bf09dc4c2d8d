"""The RELAX NG schema: broken files are rejected at the right line and column with a plain
message; every valid form of the format (both layouts, the samples) passes."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from lxml import etree

from kzplayer.project import catalog as catalog_module
from kzplayer.project.catalog import catalog
from kzplayer.project.schema import CODE, RULE, grammar, validate_tree
from kzplayer.resources import samples_dir, schema_dir

DATA = Path(__file__).parent / "data" / "schema"
CASES = tomllib.loads((DATA / "cases.toml").read_text(encoding="utf-8"))


def _check(path: Path, source=None):
    tree = etree.parse(str(path), etree.XMLParser(resolve_entities=False, no_network=True))
    return validate_tree(tree, str(path), source=source)


@pytest.mark.parametrize("name", sorted(CASES))
def test_broken_file_is_rejected_at_its_position(name):
    case = CASES[name]
    path = DATA / case.get("file", f"{name}.kzm")
    diags = _check(path)
    assert len(diags) == 1, [str(d) for d in diags]
    d = diags[0]
    assert (d.code, d.rule, d.severity.value) == (CODE, RULE, "error")
    assert (d.span.file, d.span.line, d.span.column) == (str(path), case["line"], case["column"])
    assert case["message"] in d.message
    if "hint" in case:
        assert d.hint == case["hint"]


def test_position_from_the_loaders_source_scan():
    from kzplayer.project.loader import read_source
    path = DATA / "binding_mode.kzm"
    src = read_source(str(path), [])
    (d,) = validate_tree(src.tree, str(path), source=src)
    assert (d.span.line, d.span.column, d.span.end_column) == (7, 63, 69)   # the word ONEWAY


def test_without_a_readable_file_the_line_still_comes_from_lxml():
    text = b'<Project>\n<Screens>\n<Screen name="S">\n<Property>1</Property>\n</Screen></Screens></Project>'
    (d,) = validate_tree(etree.fromstring(text).getroottree(), "<memory>")
    assert (d.span.file, d.span.line, d.span.column) == ("<memory>", 4, 1)


def test_an_item_file_of_the_folder_layout_is_valid():
    assert _check(DATA / "item_file_ok.kzm") == []


def test_every_sample_project_is_valid():
    samples = sorted(samples_dir().rglob("*.kzm"))
    assert samples, "no sample projects found"
    for path in samples:
        assert _check(path) == [], path


def test_the_format_contract_example_is_valid(shared_dir):
    text = (shared_dir / "design" / "kzm-format.md").read_text(encoding="utf-8")
    first = text[text.index("```xml") + 7:]
    example = first[:first.index("```")]
    assert validate_tree(etree.fromstring(example.encode()).getroottree(), "example.kzm") == []
    second = text[text.index("```xml", text.index("```xml") + 1) + 7:]
    binding_item = second[:second.index("```")]
    wrapped = f'<Project name="P"><Screens><Screen name="S">{binding_item}</Screen></Screens></Project>'
    assert validate_tree(etree.fromstring(wrapped.encode()).getroottree(), "b.kzm") == []


def test_schema_word_lists_agree_with_the_catalog():
    g = grammar()
    assert set(g["PropertyType"].attrs["type"].words) == set(catalog_module.TYPE_NAMES)
    assert set(g["MaterialType"].attrs["slot"].words) == set(catalog_module.SLOTS)
    assert set(g["Binding"].attrs["mode"].words) == set(catalog().property("BindingItem.BindingMode").enum)
    assert g["Property"].text_only and g["Child"].empty and g["Alias"].attrs["target"].required


def test_schema_file_is_where_resources_say():
    assert (schema_dir() / "kzm.rng").is_file()


def test_repeats_of_the_loaders_own_reports_are_dropped():
    from kzplayer.diagnostics import Diagnostic, Severity, Span
    from kzplayer.project.schema import without_repeats
    path = DATA / "item_name_with_slash.kzm"
    schema_diags = _check(path)
    loader_says = Diagnostic("KZ007", "item.name", Severity.ERROR, "contains '/'", Span(str(path), 5, 24))
    assert without_repeats(schema_diags, [loader_says]) == []
    elsewhere = Diagnostic("KZ007", "item.name", Severity.ERROR, "x", Span(str(path), 5, 7))
    assert without_repeats(schema_diags, [elsewhere]) == schema_diags


@pytest.mark.parametrize("name", ["Emission.Rate", "PrimaryColor", "_a.b_2.C", "Emission..Rate",
                                  "Emission Rate", "A.", ".A", "Emission-Rate", "2D.Rate", "Émission.Rate",
                                  " Emission.Rate "])
def test_property_names_are_judged_as_kzm_rng_says(tmp_path, name):
    # validate_tree checks property names in Python (libxml2's regex is slow): it must agree
    # with the published schema file, and report each bad name (not only the first of a parent)
    text = ('<Project name="P"><Screens><Screen name="S">'
            f'<Property name="{name}">1</Property><Binding target="{name}">1</Binding>'
            '</Screen></Screens></Project>')
    path = tmp_path / "names.kzm"
    path.write_text(text, encoding="utf-8")
    published = etree.RelaxNG(etree.parse(str(schema_dir() / "kzm.rng")))
    tree = etree.parse(str(path))
    found = validate_tree(tree, str(path))
    assert (found == []) == published.validate(tree), [str(d) for d in found]
    if found:
        assert len(found) == 2 and {d.span.column for d in found} == {
            text.index(f'name="{name}"') + 7, text.index(f'target="{name}"') + 9}
