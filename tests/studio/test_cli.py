"""`kzplayer serve` as a user runs it: the URL with its token printed, 127.0.0.1 by default,
the studio answering, Ctrl+C ending it with exit 0; a project that does not load exits
as `play` does, with its message and no traceback."""
from __future__ import annotations

import re
import signal
import subprocess
import sys

import httpx

from tests.conftest import REPO


def serve(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "kzplayer.cli", "serve", "--port", "0", *args], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_serve_prints_a_tokened_url_on_127_0_0_1_and_stops_on_ctrl_c(project):
    proc = serve(str(project))
    try:
        url = None
        for line in proc.stdout:
            if (m := re.search(r"(http://\S+)", line)):
                url = m.group(1)
                break
        assert url is not None, proc.stderr.read()
        m = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/\?token=([\w-]{24,})", url)
        assert m, url
        state = httpx.get(f"http://127.0.0.1:{m.group(1)}/api/state?token={m.group(2)}", timeout=30)
        assert state.status_code == 200 and state.json()["file"] == project.name
        assert httpx.get(f"http://127.0.0.1:{m.group(1)}/api/state", timeout=30).status_code == 403
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_project_that_does_not_load_exits_with_its_message(tmp_path):
    bad = tmp_path / "bad.kzm"
    bad.write_text('<Project name="B">\n  <Screens>\n    <Property>1</Property>\n  </Screens>\n</Project>\n')
    proc = serve(str(bad))
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 1 and f"{bad}:3:5" in err and "Traceback" not in err
    proc = serve(str(tmp_path / "missing.kzm"))
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 2 and "does not exist" in err and "Traceback" not in err
