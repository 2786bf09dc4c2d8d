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


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation but - and _ dropped, spaces -."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_relative_link_of_the_readme_and_docs_resolves():
    pages = [REPO / "README.md", REPO / "sample_projects" / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    broken = []
    for page in pages:
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
        for link in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", link):
                continue
            target, _, anchor = link.partition("#")
            path = (page.parent / target).resolve() if target else page
            if not path.exists():
                broken.append(f"{page.name}: {link}")
            elif anchor and path.suffix == ".md":
                headings = re.findall(r"^#+ (.*)$", path.read_text(encoding="utf-8"), re.M)
                if anchor not in {_anchor(h) for h in headings}:
                    broken.append(f"{page.name}: {link} (no such heading)")
    assert not broken


def test_every_option_the_readme_and_docs_show_exists():
    from kzplayer.cli import main
    pages = [REPO / "README.md", REPO / "sample_projects" / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    used = set()
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for line in re.findall(r"kzplayer (?:play|validate|inspect|convert)\b[^\n`]*", text):
            command = line.split()[1]
            used |= {(page.name, command, opt) for opt in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", line)}
    assert ("README.md", "play", "--output") in used            # the pattern finds what it should
    for page, command, opt in sorted(used):
        known = {o for p in main.commands[command].params for o in (*p.opts, *p.secondary_opts)}
        assert opt in known | {"--help"}, f"{page}: kzplayer {command} has no {opt}"
