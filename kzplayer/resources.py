"""Where the data folders are: kzm_schema/, shaders/ and sample_projects/.

In a source checkout they sit at the top of the repository; an installed kzplayer carries
them inside the package as kzplayer._schema, kzplayer._shaders and kzplayer._samples
(see pyproject.toml). Every module asks here instead of building paths of its own.
"""
from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

_REPO_ROOT = Path(__file__).resolve().parent.parent


def _locate(package: str, folder: str) -> Path:
    checkout = _REPO_ROOT / folder
    if checkout.is_dir():
        return checkout
    return Path(str(resources.files(package)))


@cache
def schema_dir() -> Path:
    """kzm_schema/: the RELAX NG schema and the property catalog."""
    return _locate("kzplayer._schema", "kzm_schema")


@cache
def shader_dir() -> Path:
    """shaders/: one .glsl file per stock material, plus shared includes."""
    return _locate("kzplayer._shaders", "shaders")


@cache
def samples_dir() -> Path:
    """sample_projects/: example effects, one of them the built-in demo."""
    return _locate("kzplayer._samples", "sample_projects")
