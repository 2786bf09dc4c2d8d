"""docs/api.md's example runs as written, from a folder holding a copy of the samples, and
its save changes exactly the two values it sets (comments and layout of the rest kept)."""
import re
import shutil
from pathlib import Path

import kzplayer

REPO = Path(__file__).resolve().parents[2]


def test_api_doc_example_runs_as_written(tmp_path, monkeypatch, capsys):
    code = re.search(r"```python\n(.*?)```", (REPO / "docs" / "api.md").read_text(encoding="utf-8"),
                     re.S).group(1)
    shutil.copytree(REPO / "sample_projects", tmp_path / "sample_projects")
    monkeypatch.chdir(tmp_path)
    sample = tmp_path / "sample_projects" / "demo_fountain.kzm"
    before = sample.read_text(encoding="utf-8").splitlines()
    exec(compile(code, "docs/api.md", "exec"), {})
    after = sample.read_text(encoding="utf-8").splitlines()
    changed = [(a, b) for a, b in zip(before, after) if a != b]
    assert len(before) == len(after) and len(changed) == 2
    assert all(b.startswith(a.split(">")[0]) for a, b in changed)        # same tags, new values
    assert "800" in changed[0][1] and "(0, 1, 0.2)" in changed[1][1]
    assert "Nozzle" in capsys.readouterr().out
    folder = kzplayer.load(tmp_path / "fountain_folder")
    assert folder.layout == "folder" and folder.find(
        "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Nozzle").get("Emission.Rate") == 800
