"""The loader's quick schema check (kzplayer/project/schema_fit.py, during the reader's walk)
is sound: whenever libxml2's RELAX NG validation of kzm.rng (schema.validate_tree) rejects a
file, the walk did not call it fitting. Checked over every .kzm of the tests and the samples,
and mutations of them: the fuzz harness's (tests/fuzz/mutate.py) and ones aimed at what the
schema checks (renamed tags, attributes added and removed, text where none belongs, elements
in the wrong place, names and words the schema's patterns refuse)."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kzplayer.project.kzm_reader import read_item_file
from kzplayer.project.schema import validate_tree
from tests.fuzz.mutate import TAGS, mutate_project

REPO = Path(__file__).resolve().parent.parent.parent
CORPUS = sorted(p for folder in ("tests", "sample_projects") for p in (REPO / folder).rglob("*.kzm")
                if p.stat().st_size <= 400_000)
TEXTS = [p.read_text(encoding="utf-8", errors="replace") for p in CORPUS]

# What the schema refuses, put where it can: (pattern of a place in the text, what goes there)
_WORDS = ("1A", "A..B", "A.", ".A", " Emission.Rate", "Emission.Rate ", "A B", "", "a/b", "/", "é.x",
          "Emitter", "float3", "oneway", "One_Way", "whole_property", "X1", " 1", "1 ", "x", "INF", "NaN",
          "inf", "1e", "1.", ".5", "+1", "1e5", "-0", "\ufffd", "\U00010000", "\u203f", "A.\u203f")
_ATTRIBUTES = ("name", "target", "slot", "type", "mode", "field", "format", "min", "max", "default", "junk",
               "xml:lang", "shader", "history", "enum")
_SNIPPETS = ('<Property name="A.B">1</Property>', '<Property name="A.B"/>', "<Property>1</Property>",
             '<Binding target="A.B">1</Binding>', "<Binding>1</Binding>", '<BindingSourceItem name="0"/>',
             '<BindingItem><Property name="BindingItem.Target">A.B</Property></BindingItem>',
             '<Alias name="a" target="b"/>', '<Alias name="a"/>', '<Child name="c"/>', "<Child/>",
             '<PropertyType name="A.B" type="float"/>', '<MaterialType name="M" slot="Affector"/>',
             '<Project name="p"/>', '<EmptyNode name="n"/>', "<EmptyNode/>", "text", "&#160;", " \t\r\n ",
             "<!-- c -->", "<?pi x?>", "<![CDATA[x]]>", "<![CDATA[ ]]>", '<x:Foo xmlns:x="urn:x"/>',
             '<Foo xmlns="urn:x"/>', '<Property xmlns="urn:x" name="A.B">1</Property>')
_START_TAG = re.compile(r"<([A-Za-z_][\w.\-]*)((?:\s+[^\s=>/]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*)\s*(/?)>")
_ATTRIBUTE = re.compile(r"""(\s)([^\s=>/]+)(\s*=\s*)(?:"([^"]*)"|'([^']*)')""")


def schema_mutation(text: str, rng: random.Random) -> str:
    """One change of the kind kzm.rng checks, at a random element of `text`."""
    tags = list(_START_TAG.finditer(text))
    if not tags:
        return text
    m = rng.choice(tags)
    kind = rng.randrange(6)
    if kind == 0:                                                   # a tag renamed
        new = rng.choice(TAGS + ("Binding", "Alias", "Child", "BindingItem"))
        end = re.search(rf"</{re.escape(m.group(1))}\s*>", text[m.end():])
        out = text[:m.start(1)] + new + text[m.end(1):]
        if end and not m.group(3):
            at = m.end() + end.start() + len(new) - len(m.group(1))
            out = out[:at] + f"</{new}>" + out[at + len(m.group(1)) + 3:]
        return out
    if kind == 1:                                                   # an attribute added
        word = rng.choice(_WORDS).replace('"', "")
        extra = f' {rng.choice(_ATTRIBUTES)}="{word}"'
        return text[:m.end(2)] + extra + text[m.end(2):]
    attributes = list(_ATTRIBUTE.finditer(text, m.start(2), m.end(2)))
    if kind in (2, 3) and attributes:
        a = rng.choice(attributes)
        if kind == 2:                                               # an attribute removed
            return text[:a.start()] + text[a.end():]
        value = rng.choice(_WORDS).replace('"', "&quot;")          # a value the schema may refuse
        return text[:a.start()] + f'{a.group(1)}{a.group(2)}{a.group(3)}"{value}"' + text[a.end():]
    snippet = rng.choice(_SNIPPETS)                                 # something put in (or after) it
    at = m.end() if rng.random() < 0.7 or m.group(3) else m.start()
    if m.group(3) and rng.random() < 0.5:                            # into an empty element
        return text[:m.start(3)] + ">" + snippet + f"</{m.group(1)}" + text[m.start(3) + 1:]
    return text[:at] + snippet + text[at:]


def verdicts(text: str, folder: Path) -> tuple[bool, list] | None:
    """(the walk's fits_schema, the RELAX NG check's diagnostics) for one file, or None when
    it is not XML (then neither runs)."""
    path = folder / "x.kzm"
    path.write_bytes(text.encode("utf-8", errors="replace"))
    read = read_item_file(str(path), str(folder))
    if read is None:
        return None
    _, src = read
    return src.fits_schema, validate_tree(src.tree, str(path), source=src)


def assert_sound(text: str, folder: Path) -> bool | None:
    got = verdicts(text, folder)
    if got is None:
        return None
    fits, rejected = got
    assert not (fits and rejected), f"called fitting, but the schema says {rejected[0].message}:\n{text[:3000]}"
    return fits


def test_every_file_of_the_corpus_fits_where_the_schema_accepts_it(tmp_path):
    """The quick check is no check that always says "may not fit": the corpus's valid files
    (all but those that hold what the schema ignores, comments inside a value) fit."""
    assert len(CORPUS) > 100
    valid = flagged = 0
    for path, text in zip(CORPUS, TEXTS):
        got = verdicts(text, tmp_path)
        if got is None:
            continue
        fits, rejected = got
        assert not (fits and rejected), path
        if not rejected:
            valid += 1
            flagged += not fits
    assert valid > 100 and flagged == 0


@pytest.mark.parametrize("k", range(len(CORPUS)))
def test_aimed_mutations_of_each_file_are_never_called_fitting_when_the_schema_refuses(tmp_path, k):
    rng = random.Random(k)
    for _ in range(12):
        text = TEXTS[k]
        for _ in range(rng.randint(1, 2)):
            text = schema_mutation(text, rng)
        assert_sound(text, tmp_path)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(st.integers(0, len(TEXTS) - 1), st.integers(0, 2 ** 32 - 1), st.booleans())
def test_fuzzed_documents_are_never_called_fitting_when_the_schema_refuses(tmp_path, k, seed, aimed):
    rng = random.Random(seed)
    text = schema_mutation(TEXTS[k], rng) if aimed else mutate_project(TEXTS[k], rng, TEXTS)
    assert_sound(text, tmp_path)


@pytest.mark.parametrize("snippet", _SNIPPETS)
@pytest.mark.parametrize("where", ["<Project name=\"p\">{}<Screens/></Project>",
                                   "<Project><Screens>{}</Screens></Project>",
                                   "<Project><Screens><Screen name=\"S\"><Property name=\"A.B\">{}</Property>"
                                   "</Screen></Screens></Project>",
                                   "<Project><Materials><MaterialType name=\"M\" slot=\"Affector\">{}"
                                   "</MaterialType></Materials></Project>",
                                   "<Project><Screens><Screen name=\"S\"><BindingItem>{}</BindingItem>"
                                   "</Screen></Screens></Project>",
                                   "<Project><Screens><Screen name=\"S\"><Alias name=\"a\" target=\"b\">{}</Alias>"
                                   "</Screen></Screens></Project>",
                                   "<Project><PropertyTypes><PropertyType name=\"A.B\" type=\"int\">{}</PropertyType>"
                                   "</PropertyTypes></Project>"])
def test_each_snippet_in_each_place(tmp_path, snippet, where):
    assert_sound(where.format(snippet), tmp_path)


@pytest.mark.parametrize("word", _WORDS)
@pytest.mark.parametrize("element", ['<Property name="{}">1</Property>', '<Binding target="{}">1</Binding>',
                                     '<Binding target="A.B" field="{}">1</Binding>',
                                     '<Binding target="A.B" mode="{}">1</Binding>', '<EmptyNode name="{}"/>',
                                     '<Alias name="{}" target="x"/>', '<Child name="{}"/>',
                                     '<MaterialType name="M" slot="{}"/>', '<PropertyType name="{}" type="int"/>',
                                     '<PropertyType name="A.B" type="{}"/>',
                                     '<PropertyType name="A.B" type="int" min="{}"/>'])
def test_each_word_in_each_attribute(tmp_path, word, element):
    text = f'<Project name="p"><Screens><Screen name="S">{element.format(word)}</Screen></Screens></Project>'
    assert_sound(text, tmp_path)
