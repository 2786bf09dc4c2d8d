"""`source_lines` (kzplayer/project/source.py), what a diagnostic's source line is read from:
a project file's lines as the loader decodes them, and none of a file too large to read for
one line (a refused 1 GiB shader) or of one that is not a regular file (a read would block)."""
from __future__ import annotations

import os

from kzplayer.project.source import SHOWN_FILE_BYTES, source_lines


def test_the_lines_decode_as_the_loader_reads_them(tmp_path):
    f = tmp_path / "a.kzm"
    f.write_bytes(b'<?xml version="1.0" encoding="ISO-8859-1"?>\n<Project name="K\xf6ln"/>\n')
    assert source_lines(str(f)) == ['<?xml version="1.0" encoding="ISO-8859-1"?>', '<Project name="Köln"/>']


def test_a_file_past_the_limit_shows_no_line(tmp_path):
    f = tmp_path / "huge.glsl"
    with open(f, "wb") as out:          # sparse: a read of it would take seconds
        out.write(b"void main() {}\n")
        out.truncate(SHOWN_FILE_BYTES + 1)
    assert source_lines(str(f)) == []
    with open(f, "r+b") as out:
        out.truncate(SHOWN_FILE_BYTES)  # at the limit: read (a new size, so not the cached answer)
    assert source_lines(str(f))[0] == "void main() {}"


def test_a_fifo_shows_no_line(tmp_path):
    fifo = tmp_path / "pipe.kzm"
    os.mkfifo(fifo)
    assert source_lines(str(fifo)) == []     # before the check this open() never returned
    assert source_lines(str(tmp_path / "missing.kzm")) == []
