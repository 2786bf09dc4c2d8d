"""Where rendered frames go: a PNG of the last frame, a PNG sequence, a GIF or an MP4.

Every writer takes frames as (H, W, 3) uint8 arrays, top row first, in `write(frame)`, and
finishes the file in `close()` (also as a context manager). `open_writer(path, fps, size)`
picks one from the path; `check_output(path, size)` says what is wrong with a path before
any simulation runs, so a bad command line fails fast with exit code 2.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from kzplayer.atomic import AtomicFile, guard

KINDS = {".png": "png", ".gif": "gif", ".mp4": "mp4"}


def output_kind(path: str | Path) -> str | None:
    """"png", "gif", "mp4", "folder" (an existing folder, or a path without extension or
    ending in a slash), or None for an extension kzplayer cannot write."""
    text = str(path)
    p = Path(text)
    if p.name.lower() in KINDS:          # `.png`: a name that is only an extension
        return None
    if text.endswith(("/", "\\")) or p.is_dir() or p.suffix == "":
        return "folder"
    return KINDS.get(p.suffix.lower())


def check_output(path: str | Path, size: tuple[int, int]) -> str | None:
    """A problem with writing `path` at `size`, as a message; None when it can be written."""
    kind = output_kind(path)
    if kind is None and Path(str(path)).name.lower() in KINDS:
        return (f"{Path(str(path)).name!r} is only an extension: name the file, e.g. "
                f"frame{Path(str(path)).name.lower()}")
    if kind is None:
        return (f"cannot write {Path(path).suffix!r} files: use .png (last frame), .gif, .mp4 "
                "or a folder (PNG sequence)")
    if kind == "mp4" and (size[0] % 2 or size[1] % 2):
        return f"MP4 (H.264, yuv420p) needs an even width and height, not {size[0]}x{size[1]}"
    if kind == "folder" and Path(path).exists() and not Path(path).is_dir():
        return f"{path} is a file, not a folder for a PNG sequence (or give it .png, .gif or .mp4)"
    parent = Path(path) if kind == "folder" else Path(path).parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        return f"cannot create {path}: {parent} is not a folder"
    return None


class _Writer:
    frames_written = 0

    def write(self, frame: np.ndarray) -> None:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def abandon(self) -> None:
        """A run that stopped: nothing is put in place, no temporary file stays."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class PngWriter(_Writer):
    """Keeps the latest frame; writes it as one PNG on close."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._last: np.ndarray | None = None

    def write(self, frame):
        self._last = frame
        self.frames_written += 1

    def close(self):
        if self._last is not None:
            with guard(self.path, "--output"), AtomicFile(self.path) as out:
                Image.fromarray(self._last, "RGB").save(out.file, format="PNG")
            self._last = None

    def abandon(self):
        self._last = None


class PngSequenceWriter(_Writer):
    """frame_00000.png, frame_00001.png, ... in a folder (created when missing)."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)

    def write(self, frame):
        path = self.folder / f"frame_{self.frames_written:05d}.png"
        with guard(path, "--output"), AtomicFile(path, make_folders=False) as out:
            Image.fromarray(frame, "RGB").save(out.file, format="PNG")
        self.frames_written += 1


class GifWriter(_Writer):
    """An endlessly looping GIF that plays in real time.

    GIF delays count in 1/100 s and browsers treat delays under 20 ms as 100 ms, so each
    frame is shown at its time rounded to 10 ms, and a frame that would follow the last
    kept one by less than MIN_DELAY_CS is dropped: 60 fps becomes alternating 20/30 ms
    delays with a frame in three dropped, and the loop still lasts exactly the effect's
    duration. Frames are quantised as they arrive (one byte a pixel, an adaptive 256-colour
    palette each), so a long render does not hold full RGB frames in memory."""

    MIN_DELAY_CS = 2

    def __init__(self, path: str | Path, fps: float):
        self.path = Path(path)
        self.fps = fps
        self._frames = []
        self._times_cs: list[int] = []     # display time of each kept frame, 1/100 s

    def write(self, frame):
        t_cs = round(self.frames_written * 100.0 / self.fps)
        self.frames_written += 1
        if self._times_cs and t_cs - self._times_cs[-1] < self.MIN_DELAY_CS:
            return
        self._times_cs.append(t_cs)
        self._frames.append(Image.fromarray(frame, "RGB").quantize(
            colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE))

    def close(self):
        if not self._frames:
            return
        end_cs = round(self.frames_written * 100.0 / self.fps)
        stops = [*self._times_cs[1:], max(end_cs, self._times_cs[-1] + self.MIN_DELAY_CS)]
        durations = [10 * (stop - start) for start, stop in zip(self._times_cs, stops)]
        first, rest = self._frames[0], self._frames[1:]
        # disposal=1 with optimize=False keeps every frame whole; Pillow would otherwise
        # merge identical consecutive frames (a still start) and change the frame count.
        with guard(self.path, "--output"), AtomicFile(self.path) as out:
            first.save(out.file, format="GIF", save_all=True, append_images=rest, duration=durations,
                       loop=0, optimize=False, disposal=1)
        self._frames = []

    def abandon(self):
        self._frames = []


class Mp4Writer(_Writer):
    """H.264 (libx264, yuv420p: plays everywhere) through the ffmpeg that imageio-ffmpeg
    ships; frames stream to the encoder, nothing is held in memory."""

    def __init__(self, path: str | Path, fps: float, size: tuple[int, int], quality: int = 18):
        import imageio_ffmpeg    # lazy: only an MP4 needs the encoder (it finds its ffmpeg on import)
        self.path = Path(path)
        with guard(self.path, "--output"):
            self._out = AtomicFile(self.path)      # ffmpeg writes the temporary file by its name
        self._out.file.close()
        self._gen = imageio_ffmpeg.write_frames(
            self._out.temp, size, fps=fps, codec="libx264", pix_fmt_in="rgb24",
            pix_fmt_out="yuv420p", macro_block_size=2, quality=None,
            output_params=["-crf", str(quality), "-preset", "medium", "-movflags", "+faststart"],
            ffmpeg_log_level="error")
        self._gen.send(None)

    def write(self, frame):
        with guard(self.path, "--output"):
            try:
                self._gen.send(np.ascontiguousarray(frame))
            except OSError:
                raise
            except Exception as exc:       # imageio-ffmpeg: the encoder stopped (a full disk)
                raise OSError(str(exc).splitlines()[0] if str(exc) else "the encoder stopped") from None
        self.frames_written += 1

    def close(self):
        if self._gen is not None:
            with guard(self.path, "--output"):
                try:
                    self._gen.close()
                except Exception as exc:
                    raise OSError(str(exc).splitlines()[0] if str(exc) else "the encoder stopped") from None
                self._gen = None
                self._out.commit()

    def abandon(self):
        if self._gen is not None:
            try:
                self._gen.close()
            finally:
                self._gen = None
                self._out.abandon()


def open_writer(path: str | Path, fps: float, size: tuple[int, int]) -> _Writer:
    """The writer for `path` (see output_kind); call check_output first for a clean error."""
    kind = output_kind(path)
    if kind == "png":
        return PngWriter(path)
    if kind == "folder":
        return PngSequenceWriter(path)
    if kind == "gif":
        return GifWriter(path, fps)
    if kind == "mp4":
        return Mp4Writer(path, fps, size)
    raise ValueError(check_output(path, size))


def needs_every_frame(path: str | Path) -> bool:
    """False for a single PNG: only the last frame has to be rendered and read back."""
    return output_kind(path) != "png"
