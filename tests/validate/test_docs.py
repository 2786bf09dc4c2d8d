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


def test_the_shader_rule_s_passing_example_compiles(tmp_path):
    # the page shows it as the fix: it must be a shader the player accepts
    import re

    from kzplayer.validate import validate_paths
    from kzplayer.validate.rules import shader_compile
    passing = shader_compile.__doc__.split("Passing", 1)[1].split(":\n", 1)[1]
    glsl = "\n".join(line[4:] for line in passing.splitlines())
    assert re.search(r"void affectParticle", glsl)
    (tmp_path / "shaders").mkdir()
    (tmp_path / "shaders" / "swirl.glsl").write_text(glsl, encoding="utf-8")
    case = Path(__file__).parent / "cases" / "shader.compile" / "ok.kzm"
    (tmp_path / "fx.kzm").write_text(case.read_text(encoding="utf-8"), encoding="utf-8")
    found = validate_paths([str(tmp_path / "fx.kzm")]).diagnostics
    assert [str(d) for d in found] == []


def test_the_package_names_the_command_that_writes_the_page():
    import kzplayer.validate
    import kzplayer.validate.docs as docs_module
    text = kzplayer.validate.__doc__
    assert "python -m kzplayer.validate.docs" in text
    assert "scripts/" not in text          # no such script: the page comes from the module
    assert docs_module.__name__ == "kzplayer.validate.docs"
