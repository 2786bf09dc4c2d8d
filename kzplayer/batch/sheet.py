"""The contact sheet: one self-contained HTML page (styles inline, thumbnails embedded as
data: URIs, no script, nothing fetched from anywhere) with a card per job: its thumbnail
or GIF, its values, pass/fail and counts; links to the full outputs beside it in the tree.
It refreshes itself every few seconds while the batch runs."""
from __future__ import annotations

import base64
import html
import time
from pathlib import Path

from kzplayer.batch.jobs import atomic

_MIME = {".png": "image/png", ".gif": "image/gif"}
_MAX_EMBED = 4 * 2**20        # a thumbnail larger than this is linked, not embedded
_COLOR = {"ok": "#2e7d32", "failed": "#c62828", "error": "#c62828", "crashed": "#6a1b9a",
          "timeout": "#ef6c00", "out-of-memory": "#ef6c00", "interrupted": "#616161",
          "running": "#1565c0", "pending": "#9e9e9e"}

_STYLE = """
body{font:14px system-ui,sans-serif;margin:16px;background:#fafafa;color:#212121}
h1{font-size:20px;margin:0 0 4px} .summary{margin:0 0 14px;color:#555}
h2{font-size:16px;margin:18px 0 8px}
.grid{display:flex;flex-wrap:wrap;gap:10px}
.card{background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px;width:250px}
.thumb{width:240px;height:140px;display:flex;align-items:center;justify-content:center;background:#111;border-radius:4px;overflow:hidden}
.thumb img{max-width:240px;max-height:140px} .thumb span{color:#aaa;font-size:12px}
.thumb.none{height:28px;background:#eee} .thumb.none span{color:#555}
.status{display:inline-block;color:#fff;border-radius:3px;padding:1px 6px;font-weight:600;font-size:12px}
.v{font-family:ui-monospace,monospace;font-size:12px;word-break:break-all}
.meta{color:#555;font-size:12px} .msg{color:#b71c1c;font-size:12px;word-break:break-word}
a{color:#1565c0}
"""


def write_sheet(results, path: Path) -> None:
    """Write the page for `results` (a kzplayer.batch.results.Results) to `path`."""
    groups: dict[str, list] = {}
    for r in results.records.values():
        if not r.job.part:          # a segmented render's pieces: its card is the render's
            groups.setdefault(f"{r.job.kind} / {r.job.name}", []).append(r)
    counts = results.counts()
    running = counts.get("running", 0) + counts.get("pending", 0)
    summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'>",
             "<meta http-equiv='refresh' content='5'>" if running else "",
             f"<title>{html.escape(results.title)}</title><style>{_STYLE}</style></head><body>",
             f"<h1>{html.escape(results.title)}</h1>",
             f"<p class='summary'>{len(results.records)} jobs: {html.escape(summary)}"
             f" &middot; updated {time.strftime('%Y-%m-%d %H:%M:%S')}</p>"]
    for title, records in groups.items():
        parts.append(f"<h2>{html.escape(title)}</h2><div class='grid'>")
        parts.extend(_card(r, results.out) for r in records)
        parts.append("</div>")
    parts.append("</body></html>\n")
    with atomic(path) as tmp:
        tmp.write_text("".join(parts), encoding="utf-8")


def _card(r, out: Path) -> str:
    j = r.job
    thumb = next((o for o in r.outputs if Path(o).name.startswith("thumb.")), None)
    picture = _embed(out, thumb) if thumb else None
    if picture:
        box = f"<div class='thumb'><img src='{picture}' alt='{html.escape(j.variant)}'></div>"
    elif j.kind == "render":            # a render that did not finish: a box saying so
        box = f"<div class='thumb'><span>{html.escape(r.status)}</span></div>"
    else:                               # validate, test: no picture, a slim bar
        box = f"<div class='thumb none'><span>{html.escape(j.kind)}</span></div>"
    values = "".join(f"<div class='v'>{html.escape(k)} = {html.escape(str(v))}</div>" for k, v in j.values) \
        or "<div class='v'>(default values)</div>"
    if j.seed is not None and not any(k == "seed" for k, _ in j.values):
        values += f"<div class='v'>seed = {j.seed}</div>"
    colour = _COLOR.get(r.status, "#616161")
    meta = []
    f = r.findings or {}
    if f:
        meta.append(f"{f.get('errors', 0)} errors, {f.get('warnings', 0)} warnings")
    c = r.counts or {}
    if "alive" in c:
        meta.append(f"{c.get('frames')} frames, {c.get('emitters')} emitters, {c.get('alive')} alive")
    if "passed" in c:
        meta.append(f"{c['passed']} passed, {c['failed']} failed"
                    + (f", {c['skipped']} skipped" if c.get("skipped") else ""))
    if r.seconds is not None:
        meta.append(f"{r.seconds:.2f} s" + (" (kept)" if r.reused else ""))
    links = " ".join(f"<a href='{html.escape(o)}'>{html.escape(Path(o).name)}</a>" for o in r.outputs
                     if not Path(o).name.startswith("thumb."))
    message = f"<div class='msg'>{html.escape(r.message[:400])}</div>" if r.message else ""
    return (f"<div class='card' title='{html.escape(j.id)}'>{box}"
            f"<div><span class='status' style='background:{colour}'>{html.escape(r.status)}</span></div>{values}"
            f"<div class='meta'>{html.escape(' · '.join(meta))}</div>{message}<div class='meta'>{links}</div></div>")


def _embed(out: Path, name: str) -> str | None:
    path = out / name
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if len(data) > _MAX_EMBED:
        return html.escape(name)
    return f"data:{_MIME.get(path.suffix, 'application/octet-stream')};base64,{base64.b64encode(data).decode()}"
