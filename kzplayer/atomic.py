"""The one atomic writer: every file kzplayer writes (a save, convert, `play --output`,
`--stats`, `--events`, `--dump`) is written through here.

A file is written to a temporary file beside its destination and put in place with
`os.replace` only when it is whole and flushed, so a failure (a full disk, a file size limit,
an exception, Ctrl-C) leaves the old file, or none, and no temporary file: `abandon()` removes
it. The temporary name says what it is, `.NAME.kzplayer-tmp-PID-TOKEN.SUFFIX` (the suffix of
the destination, so that a writer that picks its format by the name still does); a run that
was killed (SIGKILL: nothing can clean up) leaves one behind, and the next write of the same
destination removes every such file whose process is gone.

The destination is never written through a symbolic link: a link where the file goes is
refused (`Refused`, an OSError), and with `root` no folder between `root` and the file may
be a link either (convert's destination: a linked `assets/` folder would put the copies
outside it). The project's own files are saved through their links (`follow=True`: a linked
project file is saved where it lies), as an editor does.
"""
from __future__ import annotations

import errno
import os
import re
import secrets
from kzplayer.diagnostics import Diagnostic, KzError, Severity

MARK = ".kzplayer-tmp-"


class Refused(OSError):
    """A destination kzplayer will not write (a link, a folder, a special file)."""


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def new_file_mode() -> int:
    """The permissions of a new file (0o666 less the umask)."""
    return 0o666 & ~_umask()


def check_target(path: str | os.PathLike, root: str | os.PathLike | None = None, follow: bool = False) -> str:
    """The path to replace for `path`: refuses (Refused) a symbolic link there (unless
    `follow`: then its real path), a folder or special file there, and with `root` a link
    in any folder between `root` and the file."""
    path = os.path.abspath(os.fspath(path))
    if follow:
        path = os.path.realpath(path)
    elif os.path.islink(path):
        raise Refused(errno.ELOOP, "it is a symbolic link; kzplayer does not write through links", path)
    if root is not None:
        top = os.path.abspath(os.fspath(root))
        rel = os.path.relpath(os.path.dirname(path), top)
        if rel == ".." or rel.startswith(".." + os.sep):
            raise Refused(errno.EXDEV, "it lies outside the destination", path)
        here = top
        for part in ([] if rel == "." else rel.split(os.sep)):
            here = os.path.join(here, part)
            if os.path.islink(here):
                raise Refused(errno.ELOOP, f"{here} is a symbolic link; kzplayer does not write through links", path)
    try:
        st = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return path
    except NotADirectoryError:
        raise Refused(errno.ENOTDIR, "a part of the path is a file, not a folder", path) from None
    import stat as S
    if S.S_ISDIR(st.st_mode):
        raise Refused(errno.EISDIR, "it is a folder, not a file", path)
    if not S.S_ISREG(st.st_mode):
        raise Refused(errno.EINVAL, "it is a special file (a pipe, a device, a socket), not a file", path)
    return path


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def clean_stale(path: str | os.PathLike) -> int:
    """Remove the temporary files a killed run left for `path`; how many."""
    folder, name = os.path.split(os.path.abspath(os.fspath(path)))
    pattern = re.compile(re.escape(f".{name}{MARK}") + r"(\d+)-[0-9a-f]+(\.[^./]*)?$")
    removed = 0
    try:
        entries = os.listdir(folder)
    except OSError:
        return 0
    for entry in entries:
        m = pattern.match(entry)
        if m and int(m.group(1)) != os.getpid() and not _alive(int(m.group(1))):
            try:
                os.unlink(os.path.join(folder, entry))
                removed += 1
            except OSError:
                pass
    return removed


class AtomicFile:
    """One file written atomically: `AtomicFile(path)`, write to `.file` (binary; `text=True`
    for text) or let a library write `.temp` (a path), then `commit()`; `abandon()` (also on
    an exception inside `with`) removes the temporary file. `mode`: the finished file's
    permissions (default: an existing file's own, else those of a new file)."""

    def __init__(self, path, *, text: bool = False, root=None, follow: bool = False,
                 mode: int | None = None, make_folders: bool = True):
        self.path = check_target(path, root, follow)
        folder, name = os.path.split(self.path)
        if make_folders:
            os.makedirs(folder, exist_ok=True)
        clean_stale(self.path)
        suffix = os.path.splitext(name)[1]
        self.temp = os.path.join(folder, f".{name}{MARK}{os.getpid()}-{secrets.token_hex(4)}{suffix}")
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(self.temp, flags, 0o600)
        self.file = open(fd, "w", encoding="utf-8", newline="") if text else open(fd, "wb")
        if mode is None:
            try:
                import stat as S
                mode = S.S_IMODE(os.stat(self.path).st_mode)
            except OSError:
                mode = new_file_mode()
        self.mode = mode
        self.done = False

    def finish(self) -> None:
        """Flush and close the temporary file (the first half of commit)."""
        if not self.file.closed:
            self.file.flush()
            os.fsync(self.file.fileno())
            self.file.close()
        os.chmod(self.temp, self.mode)

    def put_in_place(self) -> None:
        os.replace(self.temp, self.path)
        self.done = True

    def commit(self) -> None:
        try:
            self.finish()
            self.put_in_place()
        except BaseException:
            self.abandon()
            raise

    def abandon(self) -> None:
        if self.done:
            return
        try:
            self.file.close()
        except OSError:
            pass
        try:
            os.unlink(self.temp)
        except OSError:
            pass
        self.done = True

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb) -> None:
        if kind is None:
            self.commit()
        else:
            self.abandon()


def write_bytes(path, data: bytes, **how) -> None:
    """One file, whole or not at all."""
    with AtomicFile(path, **how) as f:
        f.file.write(data)


def write_all(data: dict, *, root=None, follow: bool = False, sources: dict | None = None) -> list[str]:
    """Several files, all or nothing: each is written to its temporary file first (`data`:
    path -> bytes; `sources`: path -> a file to copy, read in chunks); only when every one is
    whole do they replace their destinations. Raises OSError (every temporary file removed,
    no destination changed). The paths written."""
    staged: list[AtomicFile] = []
    try:
        for path, blob in data.items():
            f = AtomicFile(path, root=root, follow=follow)
            staged.append(f)
            f.file.write(blob)
            f.finish()
        for path, source in (sources or {}).items():
            f = AtomicFile(path, root=root, follow=follow, mode=None)
            staged.append(f)
            with open(source, "rb") as inp:
                copy_keeping_holes(inp, f.file)
            import stat as S
            f.mode = S.S_IMODE(os.stat(source).st_mode)
            f.finish()
        for f in staged:
            f.put_in_place()
        return [f.path for f in staged]
    finally:
        for f in staged:
            f.abandon()


def copy_keeping_holes(inp, out, chunk: int = 1 << 20) -> None:
    """Copy an open file into another, its holes left holes (SEEK_DATA / SEEK_HOLE, as
    `cp --sparse=auto`): a sparse asset of gigabytes is copied as the few bytes it holds, not
    written out as gigabytes of zeros. Where the system cannot tell holes, every byte."""
    import shutil
    fd = inp.fileno()
    size = os.fstat(fd).st_size
    try:
        pos = os.lseek(fd, 0, os.SEEK_DATA)
    except OSError as exc:
        if exc.errno != errno.ENXIO:          # ENXIO: nothing but a hole
            inp.seek(0)
            shutil.copyfileobj(inp, out, chunk)
            return
        pos = size
    except AttributeError:                    # no SEEK_DATA on this system
        shutil.copyfileobj(inp, out, chunk)
        return
    while pos < size:
        end = min(os.lseek(fd, pos, os.SEEK_HOLE), size)
        inp.seek(pos)
        out.seek(pos)
        while pos < end:
            block = inp.read(min(chunk, end - pos))
            if not block:
                break
            out.write(block)
            pos += len(block)
        try:
            pos = os.lseek(fd, end, os.SEEK_DATA)
        except OSError:                       # ENXIO: only a hole is left
            break
    out.truncate(size)


def unwritable(exc: OSError, path, what: str = "") -> "KzError":
    """The KzError (file.unwritable, exit code 2) for an output that could not be written: a
    full disk, a file size limit, a folder gone. Its temporary file is removed by abandon()."""
    why = exc.strerror or str(exc) or exc.__class__.__name__
    return KzError(Diagnostic("KZ012", "file.unwritable", Severity.ERROR,
                              f"cannot write {what + ' ' if what else ''}{path}: {why}; it was not written",
                              hint="free some space or choose another destination"), exit_code=2)


class guard:
    """`with guard(path):` an OSError inside (a full disk, a file size limit) becomes
    unwritable()'s KzError, exit code 2, not a traceback."""

    def __init__(self, path, what: str = ""):
        self.path, self.what = path, what

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if kind is not None and issubclass(kind, OSError):
            raise unwritable(exc, self.path, self.what) from None
        return False


__all__ = ["guard", "unwritable", "AtomicFile", "Refused", "check_target", "clean_stale", "write_all", "write_bytes",
           "new_file_mode", "MARK"]
