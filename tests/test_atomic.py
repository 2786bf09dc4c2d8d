"""kzplayer.atomic, the one writer of every output: whole or not at all, never through a link,
no temporary file left after a failure, stale ones of a killed run cleaned."""
from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kzplayer.atomic import MARK, AtomicFile, Refused, clean_stale, write_all, write_bytes

ROOT = Path(__file__).resolve().parents[1]


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if MARK in p.name)


def test_a_file_is_written_whole_with_the_usual_permissions(tmp_path):
    write_bytes(tmp_path / "a" / "out.bin", b"x" * 10)
    out = tmp_path / "a" / "out.bin"
    assert out.read_bytes() == b"x" * 10
    mask = os.umask(0)
    os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~mask
    assert leftovers(tmp_path) == []


def test_an_exception_inside_leaves_the_old_file_and_no_temporary_one(tmp_path):
    out = tmp_path / "out.txt"
    out.write_text("old")
    with pytest.raises(RuntimeError):
        with AtomicFile(out, text=True) as f:
            f.file.write("new, half")
            raise RuntimeError("stopped")
    assert out.read_text() == "old"
    assert leftovers(tmp_path) == []


def test_a_link_where_the_file_goes_is_refused_and_its_target_untouched(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    (tmp_path / "dest").mkdir()
    os.symlink(victim, tmp_path / "dest" / "out.txt")
    with pytest.raises(Refused) as err:
        write_bytes(tmp_path / "dest" / "out.txt", b"evil")
    assert err.value.errno == errno.ELOOP
    assert victim.read_text() == "keep"
    assert leftovers(tmp_path) == []


def test_a_linked_folder_below_the_root_is_refused(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "dest").mkdir()
    os.symlink(elsewhere, tmp_path / "dest" / "assets")
    with pytest.raises(Refused):
        write_all({str(tmp_path / "dest" / "p.kzm"): b"p", str(tmp_path / "dest" / "assets" / "t.png"): b"t"},
                  root=tmp_path / "dest")
    assert list(elsewhere.iterdir()) == [] and not (tmp_path / "dest" / "p.kzm").exists()


@pytest.mark.parametrize("make", ["folder", "fifo"])
def test_a_folder_or_a_pipe_where_the_file_goes_is_refused(tmp_path, make):
    target = tmp_path / "out.csv"
    target.mkdir() if make == "folder" else os.mkfifo(target)
    with pytest.raises(Refused):
        write_bytes(target, b"x")
    assert leftovers(tmp_path) == []


def test_a_full_disk_changes_no_file_and_leaves_no_temporary_one(tmp_path):
    """A real write failure: the file size limit (RLIMIT_FSIZE, EFBIG) in a child process,
    as a full disk fails a write; the second of two files fails, neither replaces its old one."""
    (tmp_path / "a.txt").write_text("old a")
    (tmp_path / "b.txt").write_text("old b")
    script = textwrap.dedent(f"""
        import resource, signal, sys
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (100_000, 100_000))
        from kzplayer.atomic import write_all
        try:
            write_all({{{str(tmp_path / 'a.txt')!r}: b"a" * 1000, {str(tmp_path / 'b.txt')!r}: b"b" * 200_000}})
        except OSError as exc:
            sys.exit(10 + (exc.errno == {errno.EFBIG}))
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 11
    assert (tmp_path / "a.txt").read_text() == "old a" and (tmp_path / "b.txt").read_text() == "old b"
    assert leftovers(tmp_path) == []


def test_the_temporary_file_of_a_killed_run_is_cleaned_by_the_next(tmp_path):
    out = tmp_path / "events.jsonl"
    script = textwrap.dedent(f"""
        import os, sys
        from kzplayer.atomic import AtomicFile
        f = AtomicFile({str(out)!r})
        f.file.write(b"x" * 1000)
        f.file.flush()
        print(f.temp, flush=True)
        os.kill(os.getpid(), 9)
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == -signal.SIGKILL
    temp = Path(done.stdout.strip())
    assert temp.exists() and temp.name.startswith(".events.jsonl" + MARK) and temp.name.endswith(".jsonl")
    mine = AtomicFile(out)                    # this process's own temporary file is kept
    assert not temp.exists() and Path(mine.temp).exists()
    assert clean_stale(out) == 0
    mine.commit()
    assert out.exists() and leftovers(tmp_path) == []


@pytest.mark.parametrize("layout", ["data, hole, data, hole", "hole only", "dense"])
def test_a_copied_file_keeps_its_bytes_and_its_holes(tmp_path, layout):
    """write_all's copies (convert's assets) read the source's data extents only: the copy
    has every byte of the source, and a sparse source of 1 GiB stays sparse (st_blocks), so
    convert does not write a gigabyte of zeros."""
    source, size = tmp_path / "big.bin", 1 << 30
    with open(source, "wb") as f:
        if layout == "dense":
            size = 3 << 20
            f.write(os.urandom(size))
        else:
            if layout != "hole only":
                f.write(b"head" * 1000)
                f.seek(size // 2)
                f.write(b"middle")
            f.truncate(size)
    sparse_here = layout != "dense" and os.stat(source).st_blocks * 512 < (64 << 20)
    target = tmp_path / "out" / "big.bin"
    target.parent.mkdir()
    write_all({}, root=tmp_path / "out", sources={str(target): str(source)})
    assert os.path.getsize(target) == size
    with open(source, "rb") as a, open(target, "rb") as b:
        for at in (0, 3990, size // 2 - 10, size - 4096):
            a.seek(at), b.seek(at)
            assert a.read(4096) == b.read(4096), at
    if layout == "dense":
        assert target.read_bytes() == source.read_bytes()
    if sparse_here:                        # a file system that keeps holes keeps them in the copy
        assert os.stat(target).st_blocks * 512 < (64 << 20)
