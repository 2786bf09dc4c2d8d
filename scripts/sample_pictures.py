"""Render the picture of each sample for sample_projects/README.md.

    python scripts/sample_pictures.py                 # sample_projects/pictures/<sample>.jpg
    python scripts/sample_pictures.py 10_rain 11_snow  # only these

Each sample is played headless at 640x360 to the moment its golden image shows
(tests/test_samples.py, SAMPLES) and saved at 320x180, so the README shows what
`kzplayer play` draws, on any machine (llvmpipe included).
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from tests.test_samples import SAMPLES  # noqa: E402


def main() -> None:
    out = REPO / "sample_projects" / "pictures"
    out.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        wanted = set(sys.argv[1:]) or set(SAMPLES)
        for name, frames in SAMPLES.items():
            if name not in wanted:
                continue
            png = Path(tmp) / f"{name}.png"
            subprocess.run([sys.executable, str(REPO / "cli.py"), "play", str(REPO / "sample_projects" / f"{name}.kzm"),
                            "--frames", str(frames), "--size", "640x360", "--output", str(png)],
                           check=True, stdout=subprocess.DEVNULL)
            with Image.open(png) as img:
                img.resize((320, 180), Image.Resampling.LANCZOS).save(out / f"{name}.jpg", quality=88)
            print(f"{name}.jpg: {(out / f'{name}.jpg').stat().st_size / 1024:.1f} KB")


if __name__ == "__main__":
    main()
