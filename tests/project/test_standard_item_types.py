"""The standard Kanzi Studio item types (issue 20: ButtonLayer, ProjectReferenceItem,
ResourceExportTagLibrary, Theme, ThemeGroup, CubeMapTexture, ApplicationConfigurationItem,
GenericResourceFile and the others of catalog.toml's kanzi_item_types, with every type
../shared/kanzi39 holds) are known: kept, converted, never warned about."""
from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

import kzplayer
from kzplayer.cli import main
from kzplayer.project.catalog import catalog
from kzplayer.validate import validate_paths

NAMED = ["ButtonLayer", "ProjectReferenceItem", "ResourceExportTagLibrary", "Theme", "ThemeGroup",
         "CubeMapTexture", "ApplicationConfigurationItem", "GenericResourceFile"]


def test_the_named_types_and_every_type_of_the_real_projects_are_known(kanzi39):
    cat = catalog()
    known = cat.kanzi_item_types | cat.item_types
    assert set(NAMED) <= known
    # every serialised item type of the real projects (a ProjectItem's i:type, prefix dropped)
    found = set()
    for path in [*kanzi39.glob("*.kzproj"), *kanzi39.glob("demos/*.kzproj")]:
        text = path.read_text(encoding="utf-8", errors="replace")
        found |= {m.split(":")[-1] for m in re.findall(r'<ProjectItem\b[^>]*?i:type="([\w:]+)"', text)}
    assert found and found <= known, sorted(found - known)


def test_a_project_holding_them_validates_silently_and_converts_keeping_them(tmp_path):
    inner = "".join(f'<{t} name="{t} item"/>' for t in NAMED)
    path = tmp_path / "p.kzm"
    path.write_text(f"""<?xml version="1.0" encoding="utf-8"?>
<Project name="P" format="1">
  <Screens><Screen name="Screen"><ThemeGroup name="Themes"><Theme name="Day"/></ThemeGroup><ButtonLayer name="Button"/></Screen></Screens>
  <ResourceFilesItem name="Resources">{inner}</ResourceFilesItem>
</Project>
""", encoding="utf-8")
    result = validate_paths([str(path)])
    assert [str(d) for d in result.diagnostics] == []
    folder = tmp_path / "folder"
    back = tmp_path / "back.kzm"
    runner = CliRunner()
    for src, dst in ((path, folder), (folder, back)):
        out = runner.invoke(main, ["convert", str(src), str(dst)])
        assert out.exit_code == 0, out.output
    types = [i.type for i in kzplayer.load(str(back)).walk()]
    assert all(t in types for t in NAMED) and types.count("Theme") == 2 and types.count("ThemeGroup") == 2
    assert [str(d) for d in validate_paths([str(back)]).diagnostics] == []
