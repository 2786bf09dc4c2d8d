"""Make the samples' textures and meshes (sample_projects/assets/), procedurally.

    python scripts/make_assets.py          # rewrites every file; the output is committed

Everything is drawn from a fixed seed, so a run repeats the committed files bit for bit (on
the same numpy, Pillow and trimesh). Files are kept small (tens of KB): soft textures at a
modest resolution (the renderer mipmaps and filters them), low-poly, flat-shaded meshes.

    textures/smoke_sheet.png   4 x 4 flipbook of a smoke puff billowing out and thinning
                               (white, the shape in alpha: lit and tinted by the material)
    textures/fire_sheet.png    4 x 4 flipbook of a flame tongue licking upwards (greyscale:
                               the heat; the colour comes from ParticlesOverLife_ThreeStop)
    textures/ground.png        seamless dirt-and-concrete ground, to repeat on a floor
    textures/sky.png           a late-afternoon sky, pale at the horizon, for a backdrop
    meshes/rock.glb            a low-poly rock (a displaced, squashed icosphere), faceted
    meshes/floor.glb           a 100 m square floor facing +Y, its texture repeated 30 times
    meshes/backdrop.glb        a 160 x 60 m upright quad facing +Z, its bottom edge at y = 0
    meshes/chimney.glb         a chimney stack: a cylinder 3 m high, its top at y = 0
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

OUT = Path(__file__).resolve().parent.parent / "sample_projects" / "assets"
SEED = 20240611


def periodic_noise(rng, size: int, beta: float = 2.0, lowest: int = 1) -> np.ndarray:
    """Seamless fractal noise in [0, 1]: random phases under a 1/f^beta spectrum."""
    fy = np.fft.fftfreq(size)[:, None] * size
    fx = np.fft.rfftfreq(size)[None, :] * size
    f = np.hypot(fx, fy)
    amp = np.where(f >= lowest, 1.0 / np.maximum(f, 1e-9) ** (beta / 2 + 0.5), 0.0)
    spectrum = amp * np.exp(2j * np.pi * rng.random(amp.shape))
    n = np.fft.irfft2(spectrum, s=(size, size))
    n -= n.min()
    return n / max(n.max(), 1e-12)


def smoothstep(e0, e1, x):
    t = np.clip((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3 - 2 * t)


def smoke_sheet(rng, frame: int = 64, grid: int = 4) -> Image.Image:
    n = grid * grid
    sheet = np.zeros((grid * frame, grid * frame, 2), np.float32)
    lobes = periodic_noise(rng, frame * 2, beta=2.8, lowest=2)      # the billows
    wisps = periodic_noise(rng, frame * 2, beta=2.0, lowest=3)      # finer edge detail
    y, x = (np.mgrid[0:frame, 0:frame] + 0.5) / frame * 2 - 1
    for k in range(n):
        t = k / (n - 1)
        # the puff's noise drifts as it ages (a moving window of it): it billows and churns
        ox, oy = int(10 + 22 * t), int(6 + 30 * t)
        billow = lobes[oy:oy + frame, ox:ox + frame]
        detail = wisps[oy:oy + frame, ox:ox + frame]
        radius = 0.62 + 0.3 * t
        r = np.hypot(x, y) / radius
        edge = r + (billow - 0.5) * (0.7 + 0.3 * t) + (detail - 0.5) * (0.15 + 0.2 * t)
        alpha = smoothstep(1.0, 0.2, edge) * (1.0 - 0.5 * t)
        alpha *= 0.8 + 0.6 * (billow - 0.5)                          # thick and thin patches
        lum = 0.9 + 0.1 * billow
        row, col = divmod(k, grid)
        cell = sheet[row * frame:(row + 1) * frame, col * frame:(col + 1) * frame]
        cell[..., 0], cell[..., 1] = lum, np.clip(alpha, 0.0, 1.0)
    return Image.fromarray(np.round(sheet * 255).astype(np.uint8), "LA")


def fire_sheet(rng, frame: int = 64, grid: int = 4) -> Image.Image:
    n = grid * grid
    size = frame * 2
    sheet = np.zeros((grid * frame, grid * frame), np.float32)
    warp = periodic_noise(rng, size, beta=2.6, lowest=2)
    flicker = periodic_noise(rng, size, beta=2.2, lowest=2)
    y, x = (np.mgrid[0:frame, 0:frame] + 0.5) / frame * 2 - 1
    u = (1 - y) / 2                                           # 0 at the bottom row, 1 at the top
    for k in range(n):
        t = k / n
        # noise scrolling upwards through the flame, one whole period over the sheet: it loops
        shift = int(round(t * size))
        w = np.roll(warp, -shift, axis=0)[:frame, :frame]
        f = np.roll(flicker, -shift, axis=0)[:frame, :frame]
        xs = x + (w - 0.5) * 0.9 * u                          # sways more towards the tip
        width = 0.48 * (1 - u) ** 0.55 * smoothstep(0.0, 0.22, u) ** 0.35 + 1e-3
        body = np.clip(1 - (xs / width) ** 2, 0, 1)
        tip = smoothstep(0.95, 0.35, u + (f - 0.5) * 0.55)   # tongues break off at the top
        heat = body ** 1.3 * tip * (1.0 - 0.35 * u)
        row, col = divmod(k, grid)
        sheet[row * frame:(row + 1) * frame, col * frame:(col + 1) * frame] = heat
    return Image.fromarray(np.round(np.clip(sheet, 0, 1) * 255).astype(np.uint8), "L")


def ground(rng, size: int = 128) -> Image.Image:
    broad = periodic_noise(rng, size, beta=2.4, lowest=1)
    grain = periodic_noise(rng, size, beta=1.2, lowest=6)
    stains = periodic_noise(rng, size, beta=2.2, lowest=2)
    base = np.array([0.46, 0.43, 0.39])
    shade = 0.88 + 0.14 * broad[..., None] + 0.16 * (grain[..., None] - 0.5)
    damp = smoothstep(0.6, 0.9, stains)[..., None]
    rgb = base * shade * (1.0 - 0.15 * damp)
    return Image.fromarray(np.round(np.clip(rgb, 0, 1) * 255).astype(np.uint8), "RGB")


def sky(height: int = 64) -> Image.Image:
    v = np.linspace(0.0, 1.0, height)[:, None]            # 0 at the top row, 1 at the horizon
    top, horizon = np.array([0.22, 0.36, 0.6]), np.array([0.86, 0.76, 0.64])
    rgb = top + (horizon - top) * v ** 2.2
    return Image.fromarray(np.round(np.repeat(rgb[:, None, :], 4, axis=1) * 255).astype(np.uint8), "RGB")


def backdrop(width: float = 160.0, height: float = 60.0):
    import trimesh
    h = width / 2
    quad = trimesh.Trimesh(vertices=[(-h, 0, 0), (h, 0, 0), (h, height, 0), (-h, height, 0)],
                           faces=[(0, 1, 2), (0, 2, 3)], process=False)
    quad.visual = trimesh.visual.TextureVisuals(uv=[(0, 0), (1, 0), (1, 1), (0, 1)])
    return quad


def rock(rng):
    import trimesh
    mesh = trimesh.creation.icosphere(subdivisions=2, radius=1.0)
    v = mesh.vertices
    # a few random waves over the sphere: lumps and flats, then squashed
    bump = np.zeros(len(v))
    for _ in range(6):
        d = rng.normal(size=3)
        d /= np.linalg.norm(d)
        bump += rng.uniform(0.05, 0.16) * np.sin(rng.uniform(2, 5) * (v @ d) + rng.uniform(0, 6.3))
    v = v * (1.0 + bump)[:, None] * np.array([1.0, 0.68, 0.85])
    v = np.round(v, 4)
    rock = trimesh.Trimesh(vertices=v, faces=mesh.faces, process=False)
    rock.unmerge_vertices()            # flat shading: each face its own vertices and normal
    return rock


def floor(size: float = 100.0, repeat: float = 30.0):
    import trimesh
    h = size / 2
    plane = trimesh.Trimesh(vertices=[(-h, 0, h), (h, 0, h), (h, 0, -h), (-h, 0, -h)],
                            faces=[(0, 1, 2), (0, 2, 3)], process=False)
    plane.visual = trimesh.visual.TextureVisuals(uv=[(0, 0), (repeat, 0), (repeat, repeat), (0, repeat)])
    return plane


def chimney():
    import trimesh
    stack = trimesh.creation.cylinder(radius=0.45, height=3.0, sections=20)
    stack.apply_translation((0, 0, -1.5))
    stack.apply_transform(trimesh.transformations.rotation_matrix(-np.pi / 2, (1, 0, 0)))
    stack.vertices = np.round(stack.vertices, 4)
    return stack


def main() -> None:
    rng = np.random.default_rng(SEED)
    (OUT / "textures").mkdir(parents=True, exist_ok=True)
    (OUT / "meshes").mkdir(parents=True, exist_ok=True)
    for name, image in (("smoke_sheet", smoke_sheet(rng)), ("fire_sheet", fire_sheet(rng)), ("ground", ground(rng)),
                        ("sky", sky())):
        image.save(OUT / "textures" / f"{name}.png", optimize=True)
    for name, mesh in (("rock", rock(rng)), ("floor", floor()), ("chimney", chimney()), ("backdrop", backdrop())):
        (OUT / "meshes" / f"{name}.glb").write_bytes(mesh.export(file_type="glb"))
    for path in sorted(OUT.rglob("*.*")):
        print(f"{path.relative_to(OUT.parent)}: {path.stat().st_size / 1024:.1f} KB")


if __name__ == "__main__":
    main()
