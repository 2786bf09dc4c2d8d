// kzplayer studio: the page (state, the tree and its tools, the live view, the chart, the
// controls); the property panel is panel.js, the over-life editors editors.js. Every request
// carries the token; the server does the work.
"use strict";
const TOKEN = document.querySelector("meta[name='studio-token']").content;
const $ = (id) => document.getElementById(id);
const COLOURS = ["#4fc3f7", "#ffb74d", "#aed581", "#f06292", "#ba68c8", "#fff176", "#4db6ac", "#e57373"];
let state = null;          // the last /api/state
let selected = null;       // the selected item's path
let highlight = null;      // the property a diagnostic pointed at
let history = [];          // [{t, alive: {path: n}}] for the chart
let paused = false;
let refreshing = false;    // a state fetch another tab's edit asked for is on its way

let pending = 0;           // requests on their way: body[data-busy] (what tests wait for)

async function call(path, data) {
  document.body.dataset.busy = ++pending;
  try { return await request(path, data); } finally { document.body.dataset.busy = --pending; }
}

async function request(path, data) {
  const options = { headers: { "X-Studio-Token": TOKEN } };
  if (data !== undefined) {
    options.method = "POST";
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(data);
  }
  const response = await fetch(path, options);
  const body = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(body.error || `HTTP ${response.status}`);
  return body;
}

function say(text, bad = false) {
  const s = $("status");
  s.textContent = text;
  s.className = bad ? "bad" : "";
}

async function act(path, data, done) {
  try {
    const answer = await call(path, data);
    if (answer.tree) await show(answer);
    if (done) say(done);
    return answer;
  } catch (e) {
    say(e.message, true);
    return null;
  }
}

// -- state: tree, history, diagnostics ------------------------------------------------------

async function refresh() {
  try { await show(await call("api/state")); } catch (e) { say(e.message, true); }
}

async function show(s) {
  state = s;
  $("file").textContent = s.file;
  $("dirty").textContent = s.dirty ? "● edited" : "";
  $("undo").disabled = !s.history.undo;
  $("undo").title = s.history.undo ? `undo ${s.history.undo}` : "nothing to undo";
  $("redo").disabled = !s.history.redo;
  $("redo").title = s.history.redo ? `redo ${s.history.redo}` : "nothing to redo";
  if (s.player_error) say(`nothing plays: ${s.player_error}`, true);
  else if (s.disk_problem) say(`the file on disk does not load: ${s.disk_problem}`, true);
  showTree(s.tree);
  showDiagnostics(s.diagnostics);
  if (selected && !s.tree.some((i) => i.path === selected)) selected = null;
  if (selected) await select(selected, highlight);
}

const CONTAINERS = ["ParticleSystem", "EmptyNode", "Scene"];

function showTree(items) {
  const move = $("move-to");
  move.replaceChildren(...items.filter((i) => CONTAINERS.includes(i.type)).map((i) => {
    const o = document.createElement("option");
    o.value = i.path;
    o.textContent = `into ${i.name}`;
    return o;
  }));
  const ul = $("tree");
  ul.replaceChildren();
  for (const item of items) {
    const li = document.createElement("li");
    li.dataset.path = item.path;
    li.style.paddingLeft = `${4 + item.depth * 12}px`;
    li.className = (item.node ? "node" : "") + (item.path === selected ? " selected" : "");
    li.textContent = item.name;
    const type = document.createElement("span");
    type.className = "type";
    type.textContent = item.type;
    li.append(type);
    li.onclick = () => select(item.path);
    ul.append(li);
  }
}

function showDiagnostics(list) {
  const ul = $("diagnostics");
  ul.replaceChildren();
  if (!list.length) {
    const li = document.createElement("li");
    li.className = "hint";
    li.textContent = "validate finds nothing";
    ul.append(li);
  }
  for (const d of list) {
    const li = document.createElement("li");
    li.className = d.severity;
    const where = document.createElement("span");
    where.className = "where";
    where.textContent = `${d.code} ${d.file || ""}:${d.line || ""}:${d.column || ""}`;
    li.append(where, `${d.message}${d.hint ? " (" + d.hint + ")" : ""}`);
    if (d.item) li.onclick = () => select(d.item, d.property);
    ul.append(li);
  }
}

// -- the live view, its controls and the chart ----------------------------------------------

function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws?token=${TOKEN}`);
  ws.binaryType = "blob";
  const view = $("view").getContext("2d");
  ws.onmessage = async (m) => {
    if (typeof m.data !== "string") {
      const bitmap = await createImageBitmap(m.data);
      view.drawImage(bitmap, 0, 0, 640, 360);
      bitmap.close();
      $("view").dataset.frames = Number($("view").dataset.frames || 0) + 1;
      return;
    }
    const info = JSON.parse(m.data);
    frame(info);
    if (state && info.version !== state.version && !refreshing) {
      refreshing = true;
      refresh().finally(() => { refreshing = false; });
    }
  };
  ws.onclose = () => { say("the connection to kzplayer serve is closed", true); setTimeout(connect, 2000); };
  let drag = null;
  const canvas = $("view");
  canvas.onmousedown = (e) => { drag = [e.clientX, e.clientY]; canvas.style.cursor = "grabbing"; };
  window.addEventListener("mouseup", () => { drag = null; canvas.style.cursor = "grab"; });
  window.addEventListener("mousemove", (e) => {
    if (!drag || ws.readyState !== 1) return;
    ws.send(JSON.stringify({ orbit: [e.clientX - drag[0], e.clientY - drag[1]] }));
    drag = [e.clientX, e.clientY];
  });
  canvas.onwheel = (e) => { e.preventDefault(); if (ws.readyState === 1) ws.send(JSON.stringify({ zoom: e.deltaY > 0 ? 1.1 : 1 / 1.1 })); };
  canvas.ondblclick = () => ws.readyState === 1 && ws.send(JSON.stringify({ reset: true }));
}

function frame(info) {
  paused = info.paused;
  $("pause").textContent = paused ? "play" : "pause";
  $("clock").textContent = `${info.time.toFixed(2)} s`;
  const last = history[history.length - 1];
  if (last && info.time < last.t) history = [];       // a restart, a seek back
  history.push({ t: info.time, alive: info.alive });
  if (history.length > 600) history.shift();
  const tbody = $("alive").tBodies[0];
  const paths = state ? state.emitters : Object.keys(info.alive);
  tbody.replaceChildren(...paths.map((path, k) => {
    const tr = document.createElement("tr");
    tr.dataset.emitter = path;
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = COLOURS[k % COLOURS.length];
    const cells = [0, 1, 2].map(() => document.createElement("td"));
    cells[0].append(swatch);
    cells[1].textContent = path.split("/").pop();
    cells[2].className = "count";
    cells[2].textContent = info.alive[path] ?? 0;
    tr.append(...cells);
    return tr;
  }));
  chart(paths);
}

function chart(paths) {
  const c = $("chart"), g = c.getContext("2d");
  g.clearRect(0, 0, c.width, c.height);
  if (history.length < 2) return;
  const top = Math.max(1, ...history.flatMap((h) => paths.map((p) => h.alive[p] || 0)));
  const t0 = history[0].t, t1 = Math.max(history[history.length - 1].t, t0 + 1e-6);
  g.fillStyle = "#777";
  g.fillText(`${top} alive`, 4, 12);
  paths.forEach((p, k) => {
    g.strokeStyle = COLOURS[k % COLOURS.length];
    g.beginPath();
    history.forEach((h, i) => {
      const x = ((h.t - t0) / (t1 - t0)) * (c.width - 2) + 1;
      const y = c.height - 2 - ((h.alive[p] || 0) / top) * (c.height - 18);
      if (i) g.lineTo(x, y); else g.moveTo(x, y);
    });
    g.stroke();
  });
}

function siblings(path) {
  const parent = path.slice(0, path.lastIndexOf("/"));
  const depth = path.split("/").length;
  return [parent, state.tree.filter((i) => i.path.split("/").length === depth && i.path.startsWith(parent + "/")).map((i) => i.path)];
}

async function treeTools() {
  try {
    const c = await call("api/catalog");
    const add = $("add-what");
    const types = document.createElement("optgroup");
    types.label = "item types";
    for (const t of c.types) { const o = document.createElement("option"); o.value = `type:${t}`; o.textContent = t; types.append(o); }
    add.append(types);
    for (const slot of [...new Set(c.materials.map((m) => m.slot))]) {
      const group = document.createElement("optgroup");
      group.label = `${slot} materials`;
      for (const m of c.materials.filter((m) => m.slot === slot)) {
        const o = document.createElement("option"); o.value = `material:${m.name}`; o.textContent = m.name; group.append(o);
      }
      add.append(group);
    }
  } catch (e) { say(e.message, true); }
  const need = () => { if (!selected) say("select an item first", true); return selected; };
  $("add").onclick = () => {
    if (!need()) return;
    const [kind, name] = $("add-what").value.split(":");
    act("api/tree", { op: "add", parent: selected, [kind]: name }, `added ${name}`);
  };
  $("remove").onclick = () => need() && act("api/tree", { op: "remove", path: selected }, "removed");
  $("duplicate").onclick = () => need() && act("api/tree", { op: "duplicate", path: selected }, "duplicated");
  $("rename").onclick = async () => {
    if (!need()) return;
    const name = $("rename-to").value;
    const to = selected.slice(0, selected.lastIndexOf("/") + 1) + name;
    if (await act("api/tree", { op: "rename", path: selected, name }, `renamed to ${name}`)) await select(to);
  };
  const shift = (by) => {
    if (!need()) return;
    const [parent, paths] = siblings(selected);
    act("api/tree", { op: "move", path: selected, parent, index: Math.max(0, paths.indexOf(selected) + by) }, "moved");
  };
  $("up").onclick = () => shift(-1);
  $("down").onclick = () => shift(1);
  $("move").onclick = async () => {
    if (!need()) return;
    const to = `${$("move-to").value}/${selected.split("/").pop()}`;
    if (await act("api/tree", { op: "move", path: selected, parent: $("move-to").value, index: 100000 }, "moved")) await select(to);
  };
}

function controls() {
  $("pause").onclick = () => act("api/control", { action: paused ? "play" : "pause" });
  $("step").onclick = () => act("api/control", { action: "step" });
  $("restart").onclick = () => { history = []; act("api/control", { action: "restart" }); };
  $("seek").onchange = () => { history = []; act("api/control", { action: "seek", value: Number($("seek").value) }); };
  $("speed").onchange = () => act("api/control", { action: "speed", value: Number($("speed").value) });
  $("undo").onclick = () => act("api/undo", {}, "undone");
  $("redo").onclick = () => act("api/redo", {}, "redone");
  $("save").onclick = async () => {
    const a = await act("api/save", {});
    if (a) say(`saved ${a.written.join(", ") || "(nothing to write)"}`);
  };
  window.addEventListener("keydown", (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.target.tagName === "INPUT") return;
    if (e.key === "z" && !e.shiftKey) { e.preventDefault(); $("undo").click(); }
    else if (e.key === "Z" || e.key === "y") { e.preventDefault(); $("redo").click(); }
    else if (e.key === "s") { e.preventDefault(); $("save").click(); }
  });
}

controls();
treeTools();
refresh().then(connect);
