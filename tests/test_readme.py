"""The README's library example runs as written (against a copy of the sample, since it saves)."""
import re
import shutil
from pathlib import Path

import kzplayer

REPO = Path(__file__).resolve().parent.parent


def test_readme_api_example_runs(tmp_path, monkeypatch):
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## As a library.*?```python\n(.*?)```", text, re.S).group(1)
    (tmp_path / "sample_projects").mkdir()
    shutil.copy(REPO / "sample_projects" / "demo_fountain.kzm", tmp_path / "sample_projects")
    monkeypatch.chdir(tmp_path)
    exec(compile(block, "README.md", "exec"), {})
    saved = kzplayer.load("sample_projects/demo_fountain.kzm")
    nozzle = saved.find("Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Nozzle")
    assert nozzle.get("Emission.Rate") == 800
    original = (REPO / "sample_projects" / "demo_fountain.kzm").read_text(encoding="utf-8").splitlines()
    changed = (tmp_path / "sample_projects" / "demo_fountain.kzm").read_text(encoding="utf-8").splitlines()
    assert len(original) == len(changed)
    assert sum(a != b for a, b in zip(original, changed)) == 1     # only the Rate line differs
