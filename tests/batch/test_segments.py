"""A long shot in segments (kzplayer.batch.segments): planned as checkpoints, segments and
the render; the segments' frames, as PNGs, are byte for byte the frames `kzplayer play`
writes into a folder, and the assembled MP4 decodes, frame by frame, to the frames of
play's MP4 (and is its bytes); on the local pool and on Ray; resumed; a failed piece
stops the rest."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from kzplayer import batch
from kzplayer.batch.manifest import load_manifest
from kzplayer.batch.plan import PlanError
from kzplayer.batch.segments import read_frames
from kzplayer.render.writers import PngSequenceWriter

from .common import REPO, tree

SPARKS = REPO / "sample_projects" / "07_death_sparks.kzm"      # events, subemitters, colliders
SOURCE = "Screens/Screen/RootNode/Viewport 2D/Scene/Particle System/Death Sparks/Source"
ENV = {**os.environ, "KZPLAYER_NO_PROGRESS": "1"}
FRAMES, K = 40, 12                    # 4 segments, the last one of 4 frames
OPTIONS = {"frames": FRAMES, "size": "96x54", "format": "mp4", "segment_frames": K}
SHOT = "render/07_death_sparks/default"


def shot(**options):
    return batch.plan(["render"], [SPARKS], None, {**OPTIONS, **options})


def play(output: Path) -> None:
    subprocess.run([sys.executable, "-m", "kzplayer.cli", "play", str(SPARKS), "--headless", "--frames", str(FRAMES),
                    "--fps", "30", "--size", "96x54", "--output", str(output)],
                   cwd=REPO, check=True, capture_output=True, env=ENV)


def decoded(path: Path) -> list[np.ndarray]:
    import imageio.v2 as iio
    with iio.get_reader(str(path), format="FFMPEG") as reader:
        return [np.asarray(frame) for frame in reader]


def test_a_render_with_segment_frames_is_its_checkpoints_its_segments_and_itself():
    jobs = shot()
    assert [j.id for j in jobs] == [f"{SHOT}/checkpoints", *(f"{SHOT}/segment-{s:04d}" for s in range(4)), SHOT]
    assert all(j.after == (f"{SHOT}/checkpoints",) for j in jobs[1:5])
    assert jobs[-1].after == tuple(j.id for j in jobs[1:5]) and jobs[0].after == ()
    out = Path("/out")
    assert jobs[1].folder(out) == out / SHOT / "segments" / "segment-0000"
    assert jobs[-1].folder(out) == out / SHOT
    assert len({j.key() for j in jobs}) == 6                  # each piece is resumed on its own
    assert [j.id for j in shot(segment_frames=FRAMES)] == [SHOT]       # one segment: a plain render
    with pytest.raises(PlanError, match="segment_frames 0"):
        shot(segment_frames=0)


def test_the_segments_frames_and_mp4_are_what_play_writes_and_a_rerun_keeps_them(tmp_path):
    result = batch.run(shot(), out=tmp_path / "out", workers=2)
    assert result.counts() == {"ok": 6}, [(r.job.id, r.message) for r in result.records]
    out = tmp_path / "out"
    play(tmp_path / "frames")
    play(tmp_path / "play.mp4")
    # the segments' frames, written as play writes a PNG sequence, are play's PNGs byte for byte
    pngs = PngSequenceWriter(tmp_path / "mine")
    for s in range(4):
        first, images = read_frames(out / SHOT / f"segments/segment-{s:04d}/frames.kzf")
        assert first == pngs.frames_written == s * K
        for image in images:
            pngs.write(image)
    reference = sorted((tmp_path / "frames").glob("frame_*.png"))
    assert [p.name for p in reference] == [f"frame_{f:05d}.png" for f in range(FRAMES)]
    for theirs in reference:
        assert (tmp_path / "mine" / theirs.name).read_bytes() == theirs.read_bytes(), theirs.name
    mp4, theirs = decoded(out / SHOT / "render.mp4"), decoded(tmp_path / "play.mp4")
    assert len(mp4) == len(theirs) == FRAMES
    for f, (a, b) in enumerate(zip(mp4, theirs)):
        assert np.array_equal(a, b), f"frame {f}"
    assert (out / SHOT / "render.mp4").read_bytes() == (tmp_path / "play.mp4").read_bytes()
    assert len(set(map(bytes, (f.tobytes() for f in mp4)))) > FRAMES // 2      # a moving shot
    record = next(r for r in result.records if r.job.id == SHOT)
    assert record.counts["frames"] == FRAMES and record.counts["segments"] == 4 and record.counts["alive"] > 0
    assert (out / "index.html").read_text().count("class='card'") == 1       # the pieces have no card
    # a rerun keeps everything; a lost frame reruns its segment only, to the same bytes
    before = tree(out)
    (out / SHOT / "segments/segment-0002/frames.kzf").unlink()
    again = batch.run(shot(), out=out, workers=2)
    assert [r.job.id for r in again.records if not r.reused] == [f"{SHOT}/segment-0002"]
    assert tree(out) == before


def test_a_shot_whose_checkpoints_cannot_be_made_ends_every_piece_naming_it(tmp_path):
    jobs = batch.plan(["render"], [SPARKS], batch.sweep([f"{SOURCE}:Emission.Rate=-5"]), OPTIONS)
    result = batch.run(jobs, out=tmp_path, workers=1)
    by = {r.job.id.removeprefix(f"{SHOT}"): r for r in result.records}
    assert by["/checkpoints"].status == "error" and "Emission.Rate" in by["/checkpoints"].message
    assert by["/segment-0000"].message == f"not run: {SHOT}/checkpoints ended error"
    assert by[""].status == "error" and by[""].message == f"not run: {SHOT}/segment-0000 ended error"
    lines = [json.loads(x) for x in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert [ln["status"] for ln in lines] == ["error"] * 6


def test_a_manifest_and_the_command_line_take_segment_frames(tmp_path):
    manifest = tmp_path / "shot.toml"
    manifest.write_text(f'[[job]]\nkind = "render"\nprojects = ["{SPARKS}"]\nframes = 30\nsegment_frames = 10\n')
    jobs, _ = load_manifest(str(manifest))
    assert [j.part for j in jobs] == ["checkpoints", "segment-0000", "segment-0001", "segment-0002", ""]
    r = subprocess.run([sys.executable, "-m", "kzplayer.cli", "batch", "render", str(SPARKS), "--frames", "20",
                        "--segment-frames", "8", "--size", "96x54", "--format", "gif", "--workers", "2",
                        "--out", str(tmp_path / "out")], cwd=REPO, capture_output=True, text=True, env=ENV, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "5 jobs: 5 ok" in r.stdout
    assert (tmp_path / "out" / SHOT / "render.gif").is_file() and (tmp_path / "out" / SHOT / "thumb.gif").is_file()
    bad = subprocess.run([sys.executable, "-m", "kzplayer.cli", "batch", "render", str(SPARKS), "--segment-frames", "0"],
                         cwd=REPO, capture_output=True, text=True, env=ENV, timeout=120)
    assert bad.returncode == 2 and "--segment-frames" in bad.stderr


@pytest.mark.ray
def test_segments_on_ray_write_the_local_pools_bytes(ray_instance, tmp_path):
    jobs = shot(frames=24)
    local = batch.run(jobs, out=tmp_path / "local", workers=2)
    on_ray = batch.run(jobs, out=tmp_path / "ray", backend="ray")
    assert local.counts() == on_ray.counts() == {"ok": 4}
    assert tree(tmp_path / "ray") == tree(tmp_path / "local")


def test_a_segments_frames_read_back_exactly_and_a_foreign_file_is_refused(tmp_path):
    from kzplayer.batch.segments import FrameWriter
    rng = np.random.default_rng(1)
    images = [rng.integers(0, 256, (18, 32, 3), dtype=np.uint8) for _ in range(3)]
    with open(tmp_path / "frames.kzf", "wb") as out:
        writer = FrameWriter(out, (32, 18), 150)
        for image in images:
            writer.write(image)
    first, frames = read_frames(tmp_path / "frames.kzf")
    got = list(frames)
    assert first == 150 and len(got) == 3 and all(np.array_equal(a, b) for a, b in zip(got, images))
    (tmp_path / "other.kzf").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(40))
    with pytest.raises(ValueError, match="not a segment's frames"):
        read_frames(tmp_path / "other.kzf")
