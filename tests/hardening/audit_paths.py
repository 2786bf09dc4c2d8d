"""Which of the paths an audited run touched (tests/hardening/audit_child.py) lie outside
what kzplayer may open: the project, its destination, kzplayer's own data and code, Python's
own libraries and the GL driver's files."""
from __future__ import annotations

import json
import os
import sys
import sysconfig
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

from kzplayer.resources import samples_dir, schema_dir, shader_dir

_PACKAGE = Path(__file__).resolve().parents[2] / "kzplayer"

# the GL driver (Mesa, libglvnd, EGL), the dynamic loader, the C library's locale data and
# the kernel's views of this process and machine that the driver and Python read
DRIVER = ("/usr/lib", "/lib", "/usr/lib64", "/lib64", "/usr/share/glvnd", "/usr/share/drirc.d",
          "/usr/share/egl", "/etc/drirc", "/etc/ld.so.cache", "/etc/ld.so.preload", "/dev/dri",
          "/usr/share/locale", "/usr/lib/locale", "/usr/share/zoneinfo", "/etc/localtime",
          "/proc/self", "/sys/devices/system/cpu", "/sys/fs/cgroup", "/proc/cpuinfo", "/proc/meminfo",
          "/proc/self/maps", "/dev/null", "/dev/urandom", "/usr/share/X11/xkb", "/etc/glvnd",
          "/usr/local/lib", "/usr/lib/x86_64-linux-gnu", "/sys/bus", "/sys/class", "/sys/dev",
          "/proc/sys/kernel", "/etc/nsswitch.conf", "/etc/mime.types", "/usr/share/fonts",
          "/usr/share/mime", "/etc/fonts", "/usr/share/fontconfig")
MESA_CACHE = (Path.home() / ".cache" / "mesa_shader_cache", Path.home() / ".cache" / "mesa_shader_cache_db")


def allowed_roots(*own: Path) -> list[Path]:
    python = {Path(p).resolve() for p in (sys.prefix, sys.base_prefix, sys.exec_prefix,
                                          sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"],
                                          sysconfig.get_paths()["platlib"]) if p}
    python |= {Path(p).resolve() for p in sys.path if p and Path(p).is_dir() and "site-packages" in p}
    data = {schema_dir().resolve(), shader_dir().resolve(), samples_dir().resolve(), _PACKAGE,
            *_own_metadata()}
    return [*(p.resolve() for p in own), *python, *data, *(Path(d) for d in DRIVER), *MESA_CACHE]


def _own_metadata() -> set[Path]:
    """kzplayer's own distribution metadata (its entry points: the pytest plugin, the
    command), wherever the install put it: a dist-info in site-packages, or the egg-info an
    editable install leaves beside the package (a fresh clone's `make test`)."""
    found = {(_PACKAGE.parent / "kzplayer.egg-info").resolve()}
    try:
        meta = getattr(distribution("kzplayer"), "_path", None)
    except PackageNotFoundError:
        meta = None
    if meta is not None:
        found.add(Path(meta).resolve())
    return found


# what glcontext runs to find libEGL / libGL (ctypes.util.find_library): the GL driver's lookup
DRIVER_LOOKUP = ("/sbin/ldconfig", "ldconfig")


def _under(real: Path, roots) -> bool:
    return any(real == r or real.is_relative_to(r) for r in roots)


def escapes(log: Path, *own: Path) -> list[str]:
    """Every touched path (resolved: a link counts where it points) outside the allowed
    roots, and every program run or socket used, with its event. Python's import system
    (listing and opening the folders of sys.path, the editable install's path hook) is
    Python's own."""
    roots = allowed_roots(*own)
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    import_path = {Path(r["cwd"], p).resolve() for r in records if r["event"] == "sys.path" for p in r["paths"]}
    found = []
    for record in records:
        event, names = record["event"], record["paths"]
        if event == "sys.path":
            continue
        if event in ("subprocess.Popen", "os.exec", "os.posix_spawn", "os.system"):
            if not (names and names[0] in DRIVER_LOOKUP):
                found.append(f"{event} {names}")
            continue
        if event.startswith("socket"):
            found.append(f"{event} {names}")
            continue
        for name in names:
            if event == "ctypes.dlopen" and "/" not in name:
                continue                           # a library found by the loader's own search
            if name.startswith("__editable__.") and name.endswith(".__path_hook__"):
                continue
            real = Path(os.path.realpath(Path(record["cwd"]) / name))
            if event == "os.listdir" and real in import_path | {Path(record["cwd"]).resolve()}:
                continue                           # the import system looks for modules there
            if not _under(real, roots):
                found.append(f"{event} {name} -> {real}")
    return sorted(set(found))
