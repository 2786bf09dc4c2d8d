"""The README's library example runs as written, from an empty folder (it copies the sample
before it saves), and its links and options exist."""
import re
from pathlib import Path

import kzplayer

REPO = Path(__file__).resolve().parent.parent


def test_readme_api_example_runs_verbatim_from_an_empty_folder_and_leaves_the_samples_alone(tmp_path, monkeypatch):
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## As a library.*?```python\n(.*?)```", text, re.S).group(1)
    samples = {p: p.read_bytes() for p in (REPO / "sample_projects").glob("*.kzm")}
    monkeypatch.chdir(tmp_path)
    names = {}
    exec(compile(block, "README.md", "exec"), names)         # exactly as written, nothing prepared
    from PIL import Image
    with Image.open(tmp_path / "take2.gif") as gif:           # kzplayer.render wrote the GIF, in-process
        assert gif.size == (320, 180) and gif.n_frames > 1
    assert names["image"].shape == (180, 320, 3) and names["image"].max() > 0     # Player.frame at 0.5 s
    assert names["thumb"].shape == (54, 96, 3)
    assert {p: p.read_bytes() for p in samples} == samples     # the built-in demo is untouched
    saved = kzplayer.load("my_effect.kzm")
    nozzle = saved.find("Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Nozzle")
    assert nozzle.get("Emission.Rate") == 800
    original = (REPO / "sample_projects" / "demo_fountain.kzm").read_text(encoding="utf-8").splitlines()
    changed = (tmp_path / "my_effect.kzm").read_text(encoding="utf-8").splitlines()
    assert len(original) == len(changed)
    assert sum(a != b for a, b in zip(original, changed)) == 1     # only the Rate line differs


def test_import_kzplayer_alone_reaches_what_the_readme_uses():
    import subprocess
    import sys
    code = ("import kzplayer; kzplayer.validate.validate_paths; kzplayer.bindings.resolve; "
            "print(kzplayer.sample('demo_fountain.kzm').name)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "demo_fountain.kzm", r.stderr


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
