// kzplayer studio: the over-life editors of a rendering material's group (a gradient for the
// colour, curves for scale and opacity). Each change is one request: /api/set-many, one undo.
"use strict";

function numbers(text) {     // after the type's name: `Color4(1, 0, 0, 1)` -> [1, 0, 0, 1]
  const t = String(text || "");
  return (t.slice(t.indexOf("(") + 1).match(/-?[\d.]+(?:e[-+]?\d+)?/gi) || []).map(Number);
}

function rowsByName(g) { const m = {}; for (const r of g.rows) m[r.name] = r; return m; }

function valueOf(r) { return r ? r.value || r.default || "" : ""; }

// The colour ramp's two ends under the catalog's names: Kanzi's (ParticlesOverLife.ColorStart /
// ColorEnd, the rendering materials page), or kzplayer's earlier ones where a panel shows those.
function colourStops(rows) {
  for (const pair of [["ParticlesOverLife.ColorStart", "ParticlesOverLife.ColorEnd"],
                      ["ColorOverLife.StartColor", "ColorOverLife.EndColor"]]) {
    if (rows[pair[0]] && rows[pair[1]]) return pair;
  }
  return null;
}

function overLifeEditors(p, g, send) {
  const rows = rowsByName(g);
  const out = [];
  if (colourStops(rows)) out.push(gradient(p, rows, send));
  if (rows["ParticlesOverLife.ScaleStart"] && rows["ParticlesOverLife.ScaleEnd"]) {
    out.push(curve(p, rows, send, "scale", "ParticlesOverLife.Scale", (r) => numbers(valueOf(r))[0] ?? 1,
      (v) => `(${v}, ${v}, ${v})`, 0, 3));
  }
  if (rows["ParticlesOverLife.OpacityStart"] && rows["ParticlesOverLife.OpacityEnd"]) {
    out.push(curve(p, rows, send, "opacity", "ParticlesOverLife.Opacity", (r) => numbers(valueOf(r))[0] ?? 1,
      (v) => `${v}`, 0, 1));
  }
  return out;
}

function hexOf(c) {
  const h = (x) => Math.round(Math.min(Math.max(x, 0), 1) * 255).toString(16).padStart(2, "0");
  return `#${h(c[0])}${h(c[1])}${h(c[2])}`;
}

function color4(hex, alpha) {
  const c = [1, 3, 5].map((k) => (parseInt(hex.slice(k, k + 2), 16) / 255).toFixed(3));
  return `Color4(${c.join(", ")}, ${alpha})`;
}

function gradient(p, rows, send) {
  const div = document.createElement("div");
  div.className = "editor gradient-editor";
  const label = document.createElement("div");
  label.className = "label";
  label.textContent = "colour over life";
  const bar = document.createElement("div");
  bar.className = "gradient";
  const [first, last] = colourStops(rows);
  const stops = [[first, () => 0], [last, () => 1]];
  const mid = rows["ParticlesOverLife.ColorMid"] && rows["ParticlesOverLife.ColorMidPoint"];
  let midAt = mid ? numbers(valueOf(rows["ParticlesOverLife.ColorMidPoint"]))[0] ?? 0.5 : null;
  if (mid) stops.splice(1, 0, ["ParticlesOverLife.ColorMid", () => midAt]);
  const colours = {};
  for (const [name] of stops) colours[name] = [...numbers(valueOf(rows[name])), 1, 1, 1, 1].slice(0, 4);
  const paint = () => {
    const parts = stops.map(([n, at]) => `rgba(${colours[n].slice(0, 3).map((x) => Math.round(x * 255)).join(",")},${colours[n][3]}) ${at() * 100}%`);
    bar.style.background = `linear-gradient(to right, ${parts.join(", ")}), repeating-conic-gradient(#555 0 25%, #333 0 50%) 0 0 / 10px 10px`;
  };
  for (const [name, at] of stops) {
    const pick = document.createElement("input");
    pick.type = "color";
    pick.className = "stop";
    pick.dataset.name = name;
    pick.title = name;
    pick.value = hexOf(colours[name]);
    pick.style.left = `${at() * 100}%`;
    pick.onchange = () => send({ [name]: color4(pick.value, colours[name][3]) }, `${name} from the gradient`);
    bar.append(pick);
  }
  div.append(label, bar);
  if (mid) {
    const slider = document.createElement("input");
    slider.type = "range"; slider.min = 0; slider.max = 1; slider.step = 0.01; slider.value = midAt;
    slider.className = "mid";
    slider.title = "ParticlesOverLife.ColorMidPoint";
    slider.oninput = () => {
      midAt = Number(slider.value);
      bar.querySelector("[data-name='ParticlesOverLife.ColorMid']").style.left = `${midAt * 100}%`;
      paint();
    };
    slider.onchange = () => send({ "ParticlesOverLife.ColorMidPoint": slider.value }, "the colour's mid point");
    div.append(slider);
  }
  paint();
  return div;
}

function curve(p, rows, send, what, prefix, read, write, lo, hi) {
  const div = document.createElement("div");
  div.className = `editor curve-editor ${what}`;
  const label = document.createElement("div");
  label.className = "label";
  label.textContent = `${what} over life (drag a point)`;
  const names = [[`${prefix}Start`, null], [`${prefix}End`, null]];
  const hasMid = rows[`${prefix}Mid`] && rows[`${prefix}MidPoint`];
  if (hasMid) names.splice(1, 0, [`${prefix}Mid`, `${prefix}MidPoint`]);
  const points = names.map(([n, at], k) => ({
    name: n, atName: at, v: read(rows[n]),
    t: at ? numbers(valueOf(rows[at]))[0] ?? 0.5 : k === 0 ? 0 : 1,
  }));
  const top = what === "opacity" ? hi : Math.max(hi, ...points.map((q) => q.v * 1.25));
  const canvas = document.createElement("canvas");
  canvas.className = "curve";
  canvas.width = 300; canvas.height = 80;
  const X = (t) => 8 + t * (canvas.width - 16), Y = (v) => canvas.height - 6 - ((v - lo) / (top - lo)) * (canvas.height - 12);
  const draw = () => {
    const g = canvas.getContext("2d");
    g.clearRect(0, 0, canvas.width, canvas.height);
    g.strokeStyle = "#9bd"; g.beginPath();
    points.forEach((q, i) => (i ? g.lineTo(X(q.t), Y(q.v)) : g.moveTo(X(q.t), Y(q.v))));
    g.stroke();
    g.fillStyle = "#fff";
    for (const q of points) { g.beginPath(); g.arc(X(q.t), Y(q.v), 4, 0, 7); g.fill(); }
    g.fillStyle = "#777"; g.fillText(`top ${top.toFixed(2)}`, canvas.width - 56, 12);
  };
  let held = null;
  const at = (e) => { const b = canvas.getBoundingClientRect(); return [e.clientX - b.left, e.clientY - b.top]; };
  canvas.onmousedown = (e) => {
    const [x, y] = at(e);
    held = points.reduce((best, q) => (Math.hypot(X(q.t) - x, Y(q.v) - y) < Math.hypot(X(best.t) - x, Y(best.v) - y) ? q : best));
  };
  canvas.onmousemove = (e) => {
    if (!held) return;
    const [x, y] = at(e);
    held.v = Math.round(Math.min(Math.max(lo + ((canvas.height - 6 - y) / (canvas.height - 12)) * (top - lo), lo), top) * 1000) / 1000;
    if (held.atName) held.t = Math.round(Math.min(Math.max((x - 8) / (canvas.width - 16), 0.01), 0.99) * 100) / 100;
    draw();
  };
  const release = () => {
    if (!held) return;
    const q = held;
    held = null;
    const values = { [q.name]: write(q.v) };
    if (q.atName) values[q.atName] = `${q.t}`;
    send(values, `${what} over life`);
  };
  canvas.onmouseup = release;
  canvas.onmouseleave = release;
  div.append(label, canvas);
  draw();
  return div;
}
