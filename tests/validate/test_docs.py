"""docs/validate.md is generated from the rule docstrings and must be current."""
from pathlib import Path

from kzplayer.validate import all_rules
from kzplayer.validate.docs import render

PAGE = Path(__file__).resolve().parents[2] / "docs" / "validate.md"


def test_docs_page_is_current():
    assert PAGE.read_text(encoding="utf-8") == render(), \
        "docs/validate.md is stale: python -m kzplayer.validate.docs > docs/validate.md"


def test_docs_page_documents_every_rule():
    page = PAGE.read_text(encoding="utf-8")
    for m in all_rules():
        assert f"### {m.CODE} `{m.RULE}`" in page
