"""Golden pictures: a frame compared with a stored PNG by SSIM (scikit-image's
structural_similarity, over the three sRGB channels, 7x7 windows), the failing comparison
written as a strip `golden | actual | difference` so a reviewer sees what changed.

SSIM compares local structure (means, contrasts, correlation), not single pixels: the few
pixels a driver rasterises differently or a float rounding moves by one or two levels barely
lower it, while a changed effect (a different colour, size, rate, a shifted spray) changes
the structure of whole regions. docs/testing.md gives the measured margins.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

DIFF_GAIN = 4          # the difference image's gain: a 16-level change shows as 64


def ssim(actual: np.ndarray, golden: np.ndarray) -> float:
    """SSIM of two (H, W, 3) uint8 images, 1.0 for identical ones; -1 where the sizes differ."""
    from skimage.metrics import structural_similarity
    if actual.shape != golden.shape:
        return -1.0
    return float(structural_similarity(actual, golden, channel_axis=2, data_range=255))


def read_png(path) -> np.ndarray:
    import imageio.v3 as iio
    image = iio.imread(Path(path))
    if image.ndim == 2:
        image = np.repeat(image[:, :, None], 3, axis=2)
    return np.ascontiguousarray(image[:, :, :3])


def write_png(path, image: np.ndarray) -> None:
    import imageio.v3 as iio
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp.png")
    iio.imwrite(tmp, image)
    tmp.replace(path)


def difference_strip(actual: np.ndarray, golden: np.ndarray) -> np.ndarray:
    """golden | actual | |actual - golden| x DIFF_GAIN, side by side (sizes made equal)."""
    h = max(actual.shape[0], golden.shape[0])
    w = max(actual.shape[1], golden.shape[1])

    def pad(image):
        out = np.zeros((h, w, 3), np.uint8)
        out[: image.shape[0], : image.shape[1]] = image
        return out
    a, g = pad(actual), pad(golden)
    diff = np.clip(np.abs(a.astype(int) - g.astype(int)) * DIFF_GAIN, 0, 255).astype(np.uint8)
    gap = np.full((h, 2, 3), 128, np.uint8)
    return np.concatenate([g, gap, a, gap, diff], axis=1)
