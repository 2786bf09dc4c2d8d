"""The one rule for files a project names: they lie inside the project.

A project is self-contained: a custom material's shader, the files its shaders `#include`,
a particle texture, a mesh, the item files of a folder project all lie inside the project's
folder (shader includes may also come from kzplayer's shader library). `inside()` resolves
a name the project wrote against a base folder and refuses, BEFORE anything is read:

* an absolute path (`/etc/passwd`, `C:\\x`, `\\\\server\\share`),
* a path that leaves the allowed folders with `..`,
* a path that leads out through a symbolic link (links are resolved first),
* a name no file system can hold (a lone surrogate, a part longer than 255 bytes).

The refusal (`Outside`) says which file and why, never what is in it. Nothing here knows
about GL or XML: the loader, the validator, the shader preprocessor, the renderer and the
asset list that convert copies (kzplayer.project.assets) call it.
"""
from __future__ import annotations

import os
import re
from pathlib import Path


class Outside(ValueError):
    """A name that leads outside the allowed folders; the message is for people."""


_DRIVE = re.compile(r"^[A-Za-z]:|^[\\/]{2}")
_NAME_MAX, _PATH_MAX = 255, 4096      # bytes: a name part, a whole path (Linux, macOS, NTFS)


def is_absolute(name: str) -> bool:
    """Absolute on any system: `/x`, `\\x`, `C:x`, `\\\\server\\x`."""
    return name.startswith(("/", "\\")) or bool(_DRIVE.match(name)) or os.path.isabs(name)


def inside(base: str | os.PathLike, name: str, roots, what: str | None = None) -> Path:
    """The real path of `name` (relative to `base`), which must lie in one of `roots`.
    Raises Outside. `what` names the file in the message, its name included ("the shader
    of material 'Swirl' (../x.glsl)"; default: the name)."""
    what = what or str(name)
    text = str(name)
    if "\x00" in text:
        raise Outside(f"refused: {what} has a NUL character in its name")
    try:
        raw = os.fsencode(text)
    except UnicodeError:
        raise Outside(f"refused: {what} has a character no file name can hold") from None
    if len(raw) > _PATH_MAX or any(len(part) > _NAME_MAX for part in re.split(rb"[\\/]", raw)):
        raise Outside(f"refused: {what} is longer than a file name can be")
    if is_absolute(text):
        raise Outside(f"refused: {what} is an absolute path; it must be a path relative to "
                      "the project file, inside the project folder")
    real = Path(os.path.realpath(os.path.join(os.fspath(base), text.replace("\\", "/"))))
    allowed = [Path(os.path.realpath(os.fspath(r))) for r in roots]
    if not any(real == r or r in real.parents for r in allowed):
        how = "through a link" if ".." not in Path(text.replace("\\", "/")).parts else "with '..'"
        raise Outside(f"refused: {what} leads outside the project folder ({how}); "
                      "it must lie inside the project folder")
    return real


def is_file(path: Path) -> bool:
    """Path.is_file, False (not an OSError) for what it cannot look at (no permission, ...)."""
    try:
        return path.is_file()
    except OSError:
        return False


def project_folder(project) -> Path:
    """The folder that a project's relative file names start from (the folder of its
    project file; a folder project's own folder)."""
    docs = getattr(project, "document", None)
    root = getattr(docs, "root_dir", None)
    if root:
        return Path(root)
    path = Path(getattr(project, "path", "") or ".")
    return path if path.is_dir() else path.parent


def read_regular(path: str | os.PathLike, max_bytes: int, what: str = "the file") -> bytes:
    """The bytes of a regular file of at most `max_bytes`. A pipe, a device, a socket or a
    folder is refused BEFORE it is opened (stat), and opened without blocking (O_NONBLOCK),
    so a pipe swapped in between cannot hang the read; its size is checked on the open file.
    OSError (FileNotFoundError when missing) or ValueError, with a message for people."""
    import stat as S
    st = os.stat(path)
    if not S.S_ISREG(st.st_mode):
        kind = "a folder" if S.S_ISDIR(st.st_mode) else "a pipe, device or socket"
        raise ValueError(f"{what} is {kind}, not a file")
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if not S.S_ISREG(st.st_mode):
            raise ValueError(f"{what} is not a regular file")
        if st.st_size > max_bytes:
            raise ValueError(f"{what} is {st.st_size / 2**20:,.1f} MiB, more than the "
                             f"{max_bytes / 2**20:,.0f} MiB it may be")
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise ValueError(f"{what} grew past the {max_bytes / 2**20:,.0f} MiB it may be")
        return data
    finally:
        os.close(fd)
