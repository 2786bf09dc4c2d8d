"""Two sibling items of one name in a .kzproj (issue 21: validate passed it, its converted
.kzm failed item.duplicate-name). The importer reports item.duplicate-name at the second
item, as the .kzm reader does: validate of the .kzproj says so (exit 1), and convert, which
converts only what loads without errors, says the same and writes nothing (no .kzm that
fails later); the file is made here from the real Gauges.kzproj (two nodes of a screen)."""
from __future__ import annotations

from lxml import etree

from tests.hostile import kzplayer


def _duplicated(kanzi39, tmp_path):
    tree = etree.parse(str(kanzi39 / "Gauges.kzproj"))
    for children in tree.iter("{*}children"):
        if len(list(children.iterancestors("{*}children"))) < 3:
            continue                              # nodes of a screen, not libraries
        items = [c for c in children if etree.QName(c).localname == "ProjectItem"
                 and c.find("{*}SerializedName") is not None
                 and "BindingItem" not in str(c.get("{http://www.w3.org/2001/XMLSchema-instance}type"))]
        if len(items) >= 2:
            name = items[0].find("{*}SerializedName").text
            items[1].find("{*}SerializedName").text = name
            path = tmp_path / "Gauges.kzproj"
            tree.write(str(path), xml_declaration=True, encoding="utf-8")
            return path, name
    raise AssertionError("no item with two children")


def test_duplicate_siblings_of_a_kzproj_are_the_same_finding_as_in_its_kzm(kanzi39, tmp_path):
    path, name = _duplicated(kanzi39, tmp_path)
    ran = kzplayer("validate", path, cwd=tmp_path, timeout=180).expect(1)
    assert "[item.duplicate-name]" in ran.out and f"already has a child named '{name}'" in ran.out, ran.out[-3000:]
    converted = kzplayer("convert", path, tmp_path / "g.kzm", cwd=tmp_path, timeout=180).expect(1)
    assert "[item.duplicate-name]" in converted.out and f"'{name}'" in converted.out
    assert not (tmp_path / "g.kzm").exists() and list(tmp_path.iterdir()) == [path]


def test_the_real_projects_have_no_duplicate_siblings(kanzi39):
    ran = kzplayer("validate", kanzi39 / "Gauges.kzproj", timeout=180).expect(0, 1)
    assert "item.duplicate-name" not in ran.out
