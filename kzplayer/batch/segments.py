"""One long shot rendered in segments (docs/batch.md, "A long shot in segments"): a render
job with `segment_frames = K` becomes

    render/NAME/VARIANT/segments/checkpoints     the simulation run once, nothing drawn, a
                                                 checkpoint (kzplayer.gpu.checkpoint) every K frames
    render/NAME/VARIANT/segments/segment-0000    frames 0..K-1 drawn from checkpoint 0 (frames.kzf)
    render/NAME/VARIANT/segments/segment-0001    frames K..2K-1 from checkpoint K ... (in parallel)
    render/NAME/VARIANT                          the render itself: the segments' frames, in
                                                 order, through play's writer, encoded once

Why one encode: the frames a segment draws are the very arrays a single process draws (the
checkpoint restores the simulation bit for bit, and drawing reads nothing else but the
player's time and camera, which the checkpoint also holds), and the segments keep them
losslessly (zlib-compressed rows: PNG's content at a fraction of its cost), so the encoder
is handed the same frames in the same order with the same settings: the MP4 (and a GIF or
the last-frame PNG) is what `play` writes, byte for byte. Encoded segments joined
afterwards would not be: an H.264 stream cut every K frames restarts its group of pictures
and its rate control at each cut, so its frames (and bytes) differ from one encode's.

This is a part of the adapter (with jobs.py): it calls the player and the writers.
"""
from __future__ import annotations

import json
import struct
import zlib
from dataclasses import replace
from pathlib import Path

import numpy as np

from kzplayer.batch import jobs as adapter
from kzplayer.batch.plan import PlanError
from kzplayer.commands.play import MAX_SIZE, frame_count, parse_size
from kzplayer.render.budget import FRAME_BUDGET
from kzplayer.render.player import Player
from kzplayer.render.probe import PROBE_SECONDS
from kzplayer.render.writers import open_writer
from kzplayer.scene import Scene

CHECKPOINTS = "checkpoints"
SUFFIX = ".kzckpt"
SEGMENT = "segment.json"        # a segment's figures (its last frame's), for the render's record
FRAMES = "frames.kzf"           # a segment's frames, lossless (FrameWriter)
FRAME_MAGIC = b"KZFRAMES"


def frames_of(job) -> int:
    return frame_count(job.option("frames"), job.option("seconds"), float(job.option("fps", 30.0)))


def parts(job) -> list:
    """The jobs a job becomes: a render with `segment_frames` K shorter than the shot is its
    checkpoints, one segment per K frames (each after the checkpoints) and itself (after
    every segment); any other job is itself."""
    k = job.option("segment_frames")
    if k is None or job.kind != "render" or job.part:
        return [job]
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise PlanError(f"segment_frames {k!r}: a whole number of frames, 1 or more")
    n = frames_of(job)
    if int(k) >= n:
        return [job]
    first = replace(job, part=CHECKPOINTS)
    segments = [replace(job, part=segment_part(s), after=(first.id,)) for s in range(-(-n // int(k)))]
    return [first, *segments, replace(job, after=tuple(s.id for s in segments))]


def segment_part(s: int) -> str:
    return f"segment-{s:04d}"


def checkpoint_name(frame: int) -> str:
    return f"checkpoint-{frame:06d}{SUFFIX}"


def is_piece(job) -> bool:
    """A job of a segmented render: its checkpoints, a segment, or the render after them."""
    return bool(job.part) or (job.kind == "render" and bool(job.after))


def run_part(job, folder: Path) -> dict:
    """A render job's piece: its checkpoints, a segment, or (the job itself) the assembly."""
    if job.part == CHECKPOINTS:
        return run_checkpoints(job, folder)
    if job.part:
        return run_segment(job, folder)
    return run_assemble(job, folder)


class _Shot:
    """What every piece of one shot agrees on: the project with the variant's values, the
    size, the frame rate and count, and a Player made as render_offline makes it."""

    def __init__(self, job, checkpoint: Path | None = None):
        self.project, self.graph, self.findings = adapter._prepare(job)
        self.fps = float(job.option("fps", 30.0))
        self.n = frames_of(job)
        self.k = int(job.option("segment_frames"))
        self.size = parse_size(job.option("size")) if job.option("size") else \
            Scene(self.project, self.graph, records=False).viewport_size(MAX_SIZE)
        self.player = Player(adapter._context(), self.project, self.graph, self.size, seed=job.seed,
                             probe_seconds=min(self.n / self.fps, PROBE_SECONDS), frame_budget=FRAME_BUDGET,
                             lod=bool(job.option("lod", True)))
        try:
            if checkpoint is not None:       # before the camera: the checkpoint holds the probe's box
                self.player.restore(checkpoint.read_bytes())
            self.camera, _ = self.player.camera(self.size[0] / self.size[1])
        except BaseException:                # the worker lives on: free its GL objects
            self.player.release()
            raise

    def release(self) -> None:
        self.player.release()


def run_checkpoints(job, folder: Path) -> dict:
    """The simulation of the whole shot once, nothing drawn: a checkpoint at the start of
    every segment (frames 0, K, 2K ...), the last one where the last segment starts."""
    shot = _Shot(job)
    try:
        names, dt = [], 1.0 / shot.fps
        for frame in range(0, shot.n, shot.k):
            while shot.player.frame < frame:
                shot.player.advance(dt)
            name = checkpoint_name(frame)
            with adapter.atomic(folder / name) as tmp:
                tmp.write_bytes(shot.player.checkpoint())
            names.append(name)
    finally:
        shot.release()
    return {"status": "ok", "outputs": names, "findings": adapter._counts(shot.findings),
            "counts": {"checkpoints": len(names), "frames": shot.n}, "message": ""}


def run_segment(job, folder: Path) -> dict:
    """Frames s x K .. (s + 1) x K - 1 drawn from checkpoint s x K into frames.kzf (lossless),
    and segment.json (its last frame's figures)."""
    start = int(job.part.rsplit("-", 1)[1]) * int(job.option("segment_frames"))
    shot = _Shot(job, folder.parent / CHECKPOINTS / checkpoint_name(start))
    try:
        dt, stop = 1.0 / shot.fps, min(start + shot.k, shot.n)
        shot.player.prepare(shot.camera)
        with adapter.atomic(folder / FRAMES) as tmp, open(tmp, "wb") as out:
            frames = FrameWriter(out, shot.size, start)
            for _ in range(start, stop):
                shot.player.advance(dt)
                shot.player.draw(camera=shot.camera)
                frames.write(shot.player.image())
        sim = shot.player.sim
        counts = {"frames": stop - start, "first": start, "emitters": len(sim.emitters),
                  "alive": sum(int(x.alive) for x in sim.stats.values()),
                  "size": f"{shot.size[0]}x{shot.size[1]}"}
    finally:
        shot.release()
    findings = adapter._counts(shot.findings)
    adapter.write_json(folder / SEGMENT, {"counts": counts, "findings": findings})
    return {"status": "ok", "outputs": [FRAMES, SEGMENT], "findings": findings, "counts": counts, "message": ""}


class FrameWriter:
    """frames.kzf: MAGIC, (version, width, height, first frame) as four uint32, then each
    frame as a uint32 length and its rows (top first, RGB, 8 bits) zlib-compressed. Lossless
    like PNG, and a fraction of its cost (no row filters; particle frames are mostly dark)."""

    def __init__(self, out, size: tuple[int, int], first: int):
        self.out, self.size = out, (int(size[0]), int(size[1]))
        out.write(FRAME_MAGIC + struct.pack("<4I", 1, *self.size, first))

    def write(self, image: np.ndarray) -> None:
        data = zlib.compress(np.ascontiguousarray(image, np.uint8).tobytes(), 1)
        self.out.write(struct.pack("<I", len(data)) + data)


def read_frames(path: Path):
    """(first frame, [(H, W, 3) uint8 frames]) of a segment's frames.kzf, read lazily."""
    f = open(path, "rb")
    head = f.read(len(FRAME_MAGIC) + 16)
    if head[:len(FRAME_MAGIC)] != FRAME_MAGIC:
        f.close()
        raise ValueError(f"{path}: not a segment's frames (it does not start with {FRAME_MAGIC!r})")
    _, width, height, first = struct.unpack("<4I", head[len(FRAME_MAGIC):])

    def frames():
        with f:
            while (size := f.read(4)):
                data = zlib.decompress(f.read(struct.unpack("<I", size)[0]))
                yield np.frombuffer(data, np.uint8).reshape(height, width, 3)
    return first, frames()


def run_assemble(job, folder: Path) -> dict:
    """render.<format> from every segment's frames, in order, through play's own writer
    (one encode), and its thumbnail."""
    fmt = job.option("format", "gif")
    fps = float(job.option("fps", 30.0))
    n, k = frames_of(job), int(job.option("segment_frames"))
    pieces = [folder / "segments" / segment_part(s) for s in range(-(-n // k))]
    final = folder / f"render.{fmt}"
    written = 0
    with adapter.atomic(final) as tmp:
        writer = None
        try:
            for piece in pieces:
                first, frames = read_frames(piece / FRAMES)
                if first != written:
                    raise ValueError(f"{piece}: its frames start at {first}, not {written}")
                for image in frames:
                    if writer is None:
                        writer = open_writer(str(tmp), fps, (image.shape[1], image.shape[0]))
                    if fmt != "png" or written == n - 1:      # png: the last frame
                        writer.write(image)
                    written += 1
            if written != n:
                raise ValueError(f"the segments hold {written} frames, not {n}")
            writer.close()
        except BaseException:
            if writer is not None:
                writer.abandon()
            raise
    thumb = adapter.write_thumbnail(final, folder)
    done = json.loads((pieces[-1] / SEGMENT).read_text(encoding="utf-8"))      # the last segment's figures
    counts = {"frames": n, "segments": len(pieces), **{key: done["counts"][key] for key in ("emitters", "alive", "size")}}
    return {"status": "ok", "outputs": [final.name, thumb.name], "findings": done["findings"],
            "counts": counts, "message": ""}
