"""The packages, found rather than listed (the rest of the packaging is pyproject.toml).

kzplayer's own: every package under kzplayer/. The data folders live at the top of the
repository (where people look for them) and install inside the package: kzm_schema/ as
kzplayer._schema, shaders/ as kzplayer._shaders, sample_projects/ as kzplayer._samples. Each
of their subfolders (shaders/Particles, sample_projects/assets/meshes, ...) is named a
package too, so setuptools installs its files as package data without a warning, and a new
subfolder ships without editing anything.
"""
from pathlib import Path

from setuptools import find_packages, setup

HERE = Path(__file__).resolve().parent
DATA_FOLDERS = {"kzplayer._schema": "kzm_schema", "kzplayer._shaders": "shaders",
                "kzplayer._samples": "sample_projects"}
DATA_FILES = ["*.rng", "*.toml", "*.json", "*.glsl", "*.kzm", "*.md", "*.png", "*.jpg", "*.glb"]


def data_packages() -> dict[str, str]:
    """Package name -> folder, for each data folder and every folder below it."""
    found = {}
    for package, folder in DATA_FOLDERS.items():
        root = HERE / folder
        subfolders = sorted(p for p in root.rglob("*") if p.is_dir() and p.name != "__pycache__")
        for sub in [root, *subfolders]:
            parts = sub.relative_to(root).parts
            found[".".join((package, *parts))] = "/".join((folder, *parts))
    return found


data = data_packages()
# The studio's page (kzplayer serve) is served from the package (no CDN, works offline): its
# folder is named a package too, as the data folders are.
STUDIO_PAGE = {"kzplayer.studio.static": ["*.html", "*.js", "*.css"]}
setup(packages=find_packages(include=["kzplayer", "kzplayer.*"]) + list(data) + list(STUDIO_PAGE),
      package_dir={"kzplayer": "kzplayer", **data},
      package_data={**{package: DATA_FILES for package in data}, **STUDIO_PAGE})
