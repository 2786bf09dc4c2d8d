"""Run one kzplayer command in this process under an audit hook (sys.addaudithook) and
write every path it opened, listed, copied, moved, removed or made, and every program it
ran, as JSON lines to the file given first:

    python -m tests.hardening.audit_child LOG.jsonl validate proj/fx.kzm

Run in a child process by tests/hardening/test_audit.py, so that the hook is installed
before kzplayer imports anything and sees everything (the audit events of the standard
library: `open`, `os.listdir`, `os.scandir`, `shutil.*`, `os.rename`, `subprocess.Popen`...).
The paths are logged as given with the working folder of the moment; the test resolves them
(a link that points out counts where it points)."""
from __future__ import annotations

import os
import sys

# event -> which arguments are paths
PATH_EVENTS = {
    "open": (0,), "os.listdir": (0,), "os.scandir": (0,), "os.rename": (0, 1), "os.remove": (0,),
    "os.rmdir": (0,), "os.mkdir": (0,), "os.symlink": (0, 1), "os.link": (0, 1), "os.chmod": (0,),
    "os.chown": (0,), "os.truncate": (0,), "os.utime": (0,), "os.chdir": (0,), "os.mkfifo": (0,),
    "os.mknod": (0,), "shutil.copyfile": (0, 1), "shutil.copymode": (0, 1), "shutil.copystat": (0, 1),
    "shutil.copytree": (0, 1), "shutil.rmtree": (0,), "shutil.move": (0, 1), "shutil.chown": (0,),
    "glob.glob": (0,), "os.exec": (0,), "os.posix_spawn": (0,), "os.spawn": (1,), "subprocess.Popen": (0,),
    "os.system": (0,), "os.startfile": (0,), "ctypes.dlopen": (0,), "socket.connect": (),
    "socket.bind": (), "urllib.Request": (0,), "os.fwalk": (0,), "os.walk": (0,),
}


def main() -> None:
    log_path, *args = sys.argv[1:]
    records: list[tuple] = []
    state = {"on": True}

    def hook(event, hook_args):
        if not state["on"] or event not in PATH_EVENTS:
            return
        state["on"] = False            # os.getcwd below raises no event, but be safe
        try:
            paths = []
            for i in PATH_EVENTS[event] or range(len(hook_args)):
                if i < len(hook_args):
                    value = hook_args[i]
                    if isinstance(value, (list, tuple)) and event in ("os.exec", "subprocess.Popen"):
                        value = value[0] if value else ""
                    if isinstance(value, bytes):
                        value = os.fsdecode(value)
                    if isinstance(value, os.PathLike):
                        value = os.fspath(value)
                    if isinstance(value, str) or event.startswith("socket"):
                        paths.append(str(value))
            records.append((event, os.getcwd(), paths))
        finally:
            state["on"] = True

    sys.addaudithook(hook)
    code = 0
    try:
        from kzplayer.cli import main as cli
        returned = cli.main(args, standalone_mode=False)
        code = returned if isinstance(returned, int) else 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException as exc:       # noqa: BLE001 - reported, the test fails on it
        import click
        if isinstance(exc, click.exceptions.Exit):
            code = exc.exit_code
        elif isinstance(exc, click.ClickException):
            exc.show()
            code = exc.exit_code
        else:
            import traceback
            traceback.print_exc()
            code = 3
    state["on"] = False
    import json
    with open(log_path, "w", encoding="utf-8") as f:
        f.write(json.dumps({"event": "sys.path", "cwd": os.getcwd(), "paths": sys.path}) + "\n")
        for event, cwd, paths in records:
            f.write(json.dumps({"event": event, "cwd": cwd, "paths": paths}) + "\n")
    sys.stdout.flush()
    os._exit(code)


if __name__ == "__main__":
    main()
