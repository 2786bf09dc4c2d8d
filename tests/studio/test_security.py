"""The server refuses what it must, with a clear JSON error, and keeps serving: no token,
a wrong token, another Host, a websocket from another Origin, paths out of the project
folder (../, absolute, encoded, through a link), bodies over the bound, bad JSON, bad
arguments; nothing it answers holds a traceback."""
from __future__ import annotations

import asyncio
import os
from urllib.parse import quote

import httpx
import pytest
import websockets

from kzplayer.studio.security import MAX_BODY, Refused, inside
from tests.studio.conftest import NOZZLE


def base(studio) -> str:
    return f"http://127.0.0.1:{studio.port}"


def get(studio, path, token=True, **kw):
    sep = "&" if "?" in path else "?"
    url = base(studio) + path + (f"{sep}token={studio.token}" if token else "")
    return httpx.get(url, timeout=10, **kw)


def post(studio, path, **kw):
    return httpx.post(base(studio) + path, headers={"X-Studio-Token": studio.token, **kw.pop("headers", {})},
                      timeout=10, **kw)


def refused(r, status=403):
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/json")
    assert "Traceback" not in r.text and r.json()["error"]


def test_without_the_token_every_request_is_refused(studio):
    for path in ("/", "/api/state", "/static/studio.js", "/api/file?path=demo_fountain.kzm"):
        refused(get(studio, path, token=False))
    refused(httpx.post(base(studio) + "/api/undo", timeout=10))
    refused(get(studio, "/api/state?token=not-the-token", token=False))
    refused(httpx.get(base(studio) + "/api/state", headers={"X-Studio-Token": studio.token + "x"}, timeout=10))
    # with it: served
    assert get(studio, "/api/state").json()["file"] == "demo_fountain.kzm"
    assert "kzplayer studio" in get(studio, "/").text
    assert get(studio, "/static/studio.js").status_code == 200


def test_another_host_header_is_refused(studio):
    """A page on another name that resolves here (DNS rebinding) is not this studio's."""
    refused(get(studio, "/api/state", headers={"Host": f"evil.example:{studio.port}"}))


def test_paths_outside_the_project_folder_are_refused(studio, project, tmp_path):
    outside = tmp_path / "secret.txt"
    outside.write_text("secret")
    os.symlink(outside, project.parent / "link.txt")
    for path in ("../secret.txt", "../../etc/passwd", str(outside), "/etc/passwd", "a/../../secret.txt",
                 "..\\secret.txt", "link.txt", ""):
        r = get(studio, f"/api/file?path={quote(path)}")
        refused(r, 400)
        assert "secret" not in r.text.replace("secret.txt", "")
    refused(get(studio, "/api/file?path=%2e%2e%2fsecret.txt"), 400)
    refused(get(studio, "/static/..%2f..%2fsession.py"), 404)
    refused(get(studio, "/api/file?path=nothing.png"), 404)
    assert get(studio, "/api/file?path=demo_fountain.kzm").text.startswith("<?xml")


def test_inside_refuses_each_way_out(tmp_path):
    (tmp_path / "a").mkdir()
    assert inside(str(tmp_path), "a/b.png") == (tmp_path / "a" / "b.png").resolve()
    for bad in ("../x", "/etc/passwd", "a/../../x", "C:\\x", "\\\\server\\x", "a\0b", ""):
        with pytest.raises(Refused):
            inside(str(tmp_path), bad)


def test_bad_requests_get_clear_errors_and_the_server_goes_on(studio):
    refused(post(studio, "/api/set", content=b"not json"), 400)
    refused(post(studio, "/api/set", json=[1, 2]), 400)
    refused(post(studio, "/api/set", json={"path": NOZZLE, "name": "Emission.Rate"}), 400)
    refused(post(studio, "/api/set", json={"path": "No/Such", "name": "Emission.Rate", "value": "1"}), 400)
    r = post(studio, "/api/set", json={"path": NOZZLE, "name": "Emission.Rate", "value": "-5"})
    refused(r, 400)
    assert "at least 0" in r.json()["error"]
    refused(post(studio, "/api/set", json={"path": NOZZLE, "name": "Emission.Rat", "value": "5"}), 400)
    refused(post(studio, "/api/control", json={"action": "seek", "value": float("1e9")}), 400)
    refused(post(studio, "/api/control", json={"action": "explode"}), 400)
    refused(post(studio, "/api/binding/check", json={"path": NOZZLE, "index": 7, "expression": "1"}), 400)
    refused(post(studio, "/api/undo"), 400)             # nothing to undo
    refused(post(studio, "/api/set", content=b"x" * (MAX_BODY + 1)), 413)
    refused(get(studio, "/api/nothing"), 404)
    refused(httpx.delete(base(studio) + f"/api/state?token={studio.token}", timeout=10), 405)
    # nothing of that changed the project, and it still answers
    state = get(studio, "/api/state").json()
    assert state["history"] == {"undo": None, "redo": None} and not state["dirty"]


def _ws(studio, origin, token=True):
    async def go():
        url = f"ws://127.0.0.1:{studio.port}/ws" + (f"?token={studio.token}" if token else "")
        headers = {"Origin": origin} if origin else {}
        async with websockets.connect(url, origin=None, additional_headers=headers, open_timeout=10) as ws:
            first = await asyncio.wait_for(ws.recv(), 10)
            return type(first)
    return asyncio.run(go())


def test_the_websocket_checks_token_and_origin(studio):
    assert _ws(studio, f"http://127.0.0.1:{studio.port}") is bytes        # the page's own: a frame
    for origin, token in ((f"http://127.0.0.1:{studio.port}", False), ("http://evil.example", True), (None, True)):
        with pytest.raises(websockets.exceptions.InvalidStatus) as info:
            _ws(studio, origin, token)
        assert info.value.response.status_code == 403


def test_the_websocket_ignores_bad_mouse_messages_and_closes_on_binary(studio):
    async def go():
        url = f"ws://127.0.0.1:{studio.port}/ws?token={studio.token}"
        async with websockets.connect(url, origin=None, open_timeout=10,
                                      additional_headers={"Origin": f"http://127.0.0.1:{studio.port}"}) as ws:
            for text in ("not json", "[1]", '{"orbit": [NaN, 1]}', '{"orbit": [1e400, 1]}', '{"zoom": 0}',
                         '{"zoom": "x"}', '{"orbit": [true, false]}'):
                await ws.send(text)
            await ws.send('{"orbit": [10, 5]}')          # a real one
            await asyncio.sleep(0.3)
            await ws.send(b"\x00binary")
            with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
                while True:
                    await asyncio.wait_for(ws.recv(), 10)
            return closed.value.rcvd.code if closed.value.rcvd else None
    assert asyncio.run(go()) == 1003
    orbit = studio.engine.orbit
    assert (orbit.yaw, orbit.pitch, orbit.zoom) == ((-10 * 0.4) % 360, 5 * 0.4, 1.0)     # only the real one
    assert httpx.get(f"http://127.0.0.1:{studio.port}/api/state?token={studio.token}", timeout=10).status_code == 200


def test_a_player_that_fails_is_said_and_the_next_rebuild_plays_again(studio):
    def boom(dt):
        raise RuntimeError("the driver fell over")
    studio.engine.call(lambda e: setattr(e.player, "advance", boom)).result(timeout=30)
    state = None
    for _ in range(100):
        state = get(studio, "/api/state").json()
        if state["player_error"]:
            break
    assert state["player_error"] == "internal error: RuntimeError: the driver fell over"
    r = post(studio, "/api/control", json={"action": "pause"})
    refused(r, 400)
    assert "nothing plays" in r.json()["error"]
    # a binding edit rebuilds the Player: it plays again
    r = post(studio, "/api/binding/set", json={"path": NOZZLE, "index": 0, "expression": "{./Emission.Rate} * 2"})
    assert r.status_code == 200 and r.json()["player_error"] is None
    assert post(studio, "/api/control", json={"action": "pause"}).json()["paused"] is True


def test_the_page_has_a_strict_policy(studio):
    r = get(studio, "/")
    policy = r.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy and "unsafe" not in policy
    assert r.headers["x-frame-options"] == "DENY" and r.headers["referrer-policy"] == "no-referrer"
    assert studio.token in r.text and "<script>" not in r.text          # no inline script
