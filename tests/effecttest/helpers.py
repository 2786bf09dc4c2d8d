"""Specs for the tests, written into tmp_path (a spec committed under tests/ would be
collected by the plugin)."""
from __future__ import annotations

from pathlib import Path

from kzplayer.resources import samples_dir

FOUNTAIN = samples_dir() / "demo_fountain.kzm"
NOZZLE = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Nozzle"


def write_spec(folder: Path, body: str, name: str = "fx", project: Path = FOUNTAIN, head: str = "") -> Path:
    path = folder / f"{name}.kztest.toml"
    path.write_text(f'project = "{project}"\nseed = 1\nfps = 30\nsize = [96, 96]\n{head}\n{body}')
    return path


def line_of(path: Path, text: str, nth: int = 0) -> int:
    """The 1-based line holding `text` (the nth time): the truth the positions are checked against."""
    hits = [i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line]
    return hits[nth]
