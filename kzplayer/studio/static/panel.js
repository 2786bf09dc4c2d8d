// kzplayer studio: the property panel of the selected item (its groups and typed rows, the
// binding editor checked as typed, the subemitter wiring). Globals from studio.js: state,
// selected, highlight, call, act, say, $.
"use strict";

// -- the property panel ---------------------------------------------------------------------

async function select(path, property = null) {
  selected = path;
  highlight = property;
  for (const li of $("tree").children) li.classList.toggle("selected", li.dataset.path === path);
  let p;
  try { p = await call(`api/item?path=${encodeURIComponent(path)}`); } catch (e) { say(e.message, true); return; }
  $("panel-title").textContent = `${p.name} (${p.type})`;
  const panel = $("panel");
  panel.replaceChildren();
  if (p.type === "ParticleEmitter") panel.append(wiring(p));
  for (const g of p.groups) panel.append(group(p, g));
  if (property) {
    const row = panel.querySelector(`.row[data-name="${CSS.escape(property)}"]`);
    if (row) { row.classList.add("highlight"); row.scrollIntoView({ block: "center" }); }
  }
}

function group(p, g) {
  const div = document.createElement("div");
  div.className = "group";
  div.dataset.material = g.material || "";
  const h = document.createElement("h3");
  h.textContent = g.title;
  if (g.missing && g.missing.length) {
    const add = document.createElement("button");
    add.className = "add-reads";
    add.textContent = `add the ${g.missing.length} properties this material reads`;
    add.onclick = () => act("api/add-reads", { path: p.path, material: g.material }, `added what ${g.material} reads`);
    h.append(add);
  }
  div.append(h);
  const send = (values, label) => act("api/set-many", { path: p.path, values, label }, `${label}: applied`);
  if (g.material) div.append(...overLifeEditors(p, g, send));
  for (const r of g.rows) div.append(row(p, r));
  return div;
}

function row(p, r) {
  const div = document.createElement("div");
  div.className = "row " + (r.set ? "set" : "unset");
  div.dataset.name = r.name;
  const mark = document.createElement("span");
  mark.className = "mark";
  mark.textContent = r.set ? "●" : "";
  mark.title = r.set ? "set in the file" : "not set: the default plays";
  const name = document.createElement("span");
  name.className = "name";
  name.textContent = r.name;
  name.title = r.doc;
  const fixed = r.output ? r.value || "(the engine's)" : r.type === "buffer" ? (r.binding !== null ? "(its binding's)" : "(none: a binding gives it)") : null;
  div.append(mark, name, fixed !== null ? document.createTextNode(fixed) : input(p, r));
  const meta = document.createElement("span");
  meta.className = "meta";
  const short = (x) => (x === null ? null : Number(Number(x).toPrecision(6)));
  const range = r.min !== null || r.max !== null ? ` ${short(r.min) ?? "-∞"} … ${short(r.max) ?? "∞"}` : "";
  meta.textContent = `${r.type || "?"}${r.unit ? " · " + r.unit : ""}${range} · default ${r.default || "none"}`;
  div.append(meta);
  if (/\.Texture$/.test(r.name) && r.value && r.value !== '""') div.append(thumbnail(r.value));
  if (r.binding !== null) div.append(binding(p, r, p.bindings[r.binding]));
  else if (!r.output) {
    const bind = document.createElement("button");
    bind.className = "bind";
    bind.textContent = "bind";
    bind.title = "write a binding for this property";
    bind.onclick = () => { bind.replaceWith(binding(p, r, { index: null, expression: "" })); };
    meta.append(" ", bind);
  }
  return div;
}

async function setValue(p, r, value, div) {
  const ok = await act("api/set", { path: p.path, name: r.name, value }, `${r.name} = ${value}`);
  if (!ok && div) {
    let e = div.querySelector(".error");
    if (!e) { e = document.createElement("span"); e.className = "error"; div.append(e); }
    e.textContent = $("status").textContent;
  }
}

// a texture of the project folder, as the server serves it (never a file outside the folder)
function thumbnail(value) {
  const img = document.createElement("img");
  img.className = "thumbnail";
  img.alt = value;
  img.src = `api/file?token=${encodeURIComponent(TOKEN)}&path=${encodeURIComponent(value.replace(/^"|"$/g, ""))}`;
  img.onerror = () => img.remove();
  return img;
}

function numberOf(text) { const x = parseFloat(text); return Number.isFinite(x) ? x : 0; }
// the numbers of a literal, after its type's name: `Color4(1, 0.5, 0, 1)` -> [1, 0.5, 0, 1]
function parts(text) { return (text.slice(text.indexOf("(") + 1).match(/-?[\d.]+(?:e[-+]?\d+)?/gi) || []).map(Number); }

function input(p, r) {
  const span = document.createElement("span");
  span.className = "input";
  const commit = (value) => setValue(p, r, value, span.parentElement);
  const value = r.value || r.default || "";
  if (r.type === "bool") {
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = value === "true";
    box.onchange = () => commit(box.checked ? "true" : "false");
    span.append(box);
  } else if (r.type === "enum" || r.type === "material") {
    const sel = document.createElement("select");
    const words = r.type === "enum" ? r.enum : r.choices || [];
    const listed = words.includes(value) ? words : [value, ...words];   // "" first: none chosen
    for (const w of listed) {
      const o = document.createElement("option");
      o.textContent = w;
      o.value = w;
      if (!w) o.textContent = "(none)";
      o.selected = w === value;
      sel.append(o);
    }
    sel.onchange = () => commit(sel.value);
    span.append(sel);
  } else if (r.type === "float" || r.type === "int") {
    const num = document.createElement("input");
    num.type = "number";
    num.className = "value";
    num.step = r.type === "int" ? "1" : "any";
    if (r.min !== null) num.min = r.min;
    if (r.max !== null) num.max = r.max;
    num.value = numberOf(value);
    num.onchange = () => commit(num.value);
    span.append(num);
    if (r.min !== null && r.max !== null) {
      const slider = document.createElement("input");
      slider.type = "range";
      slider.min = r.min; slider.max = r.max;
      slider.step = r.type === "int" ? 1 : (r.max - r.min) / 200;
      slider.value = numberOf(value);
      slider.oninput = () => { num.value = slider.value; };
      slider.onchange = () => commit(slider.value);
      span.append(slider);
    }
  } else if (r.type === "color4") {
    const [cr, cg, cb, ca] = [...parts(value), 1, 1, 1, 1];
    const pick = document.createElement("input");
    pick.type = "color";
    const hex = (x) => Math.round(Math.min(Math.max(x, 0), 1) * 255).toString(16).padStart(2, "0");
    pick.value = `#${hex(cr)}${hex(cg)}${hex(cb)}`;
    const alpha = document.createElement("input");
    alpha.type = "number"; alpha.min = 0; alpha.max = 1; alpha.step = 0.05; alpha.value = ca; alpha.title = "alpha";
    const send = () => {
      const c = [1, 3, 5].map((k) => (parseInt(pick.value.slice(k, k + 2), 16) / 255).toFixed(3));
      commit(`Color4(${c.join(", ")}, ${alpha.value})`);
    };
    pick.onchange = send;
    alpha.onchange = send;
    span.append(pick, alpha);
  } else if (/^vector[234]$/.test(r.type || "")) {
    const n = Number(r.type.slice(-1));
    const comps = [...parts(value), 0, 0, 0, 0].slice(0, n);
    span.className = "input vector";
    const boxes = comps.map((c) => {
      const b = document.createElement("input");
      b.type = "number"; b.step = "any"; b.value = c;
      b.onchange = () => commit(`(${boxes.map((x) => x.value || 0).join(", ")})`);
      span.append(b);
      return b;
    });
  } else {
    const t = document.createElement("input");
    t.type = "text";
    t.value = value;
    t.onchange = () => commit(t.value);
    span.append(t);
  }
  return span;
}

function wiring(p) {
  const div = document.createElement("div");
  div.className = "wire";
  const sel = document.createElement("select");
  sel.id = "wire-source";
  for (const e of (state ? state.emitters : []).filter((e) => e !== p.path)) {
    const o = document.createElement("option");
    o.value = e;
    o.textContent = e.split("/").pop();
    sel.append(o);
  }
  const go = document.createElement("button");
  go.id = "wire";
  go.textContent = "make it a subemitter of";
  go.title = "the events page's recipe: event-driven materials, the two buffer bindings, the source's event material";
  go.disabled = !sel.options.length;
  go.onclick = () => act("api/tree", { op: "wire", path: p.path, source: sel.value }, `wired to ${sel.value.split("/").pop()}`);
  div.append(go, " ", sel);
  return div;
}

// -- bindings: checked as typed -------------------------------------------------------------

function binding(p, r, b) {
  const div = document.createElement("div");
  div.className = "binding";
  const t = document.createElement("input");
  t.type = "text";
  t.value = b.expression;
  t.spellcheck = false;
  t.title = "the binding's expression: Enter applies it";
  const out = document.createElement("pre");
  const value = document.createElement("span");
  value.className = "value";
  let timer = null;
  const check = async () => {
    try {
      const which = b.index === null ? { target: r.name } : { index: b.index };
      const c = await call("api/binding/check", { path: p.path, expression: t.value, ...which });
      const e = c.problems.find((x) => x.severity === "error") || c.problems[0];
      if (e) {
        const caret = e.column ? `\n${" ".repeat(e.column - 1)}${"^".repeat(Math.max(1, (e.end_column || e.column + 1) - e.column))}` : "";
        out.textContent = `${e.column ? "column " + e.column + ": " : ""}${e.message}${e.hint ? " (" + e.hint + ")" : ""}\n${t.value}${caret}`;
      } else out.textContent = "";
      out.dataset.column = e && e.column ? e.column : "";
      value.textContent = c.value !== null ? `= ${c.value}` : "";
    } catch (err) { out.textContent = err.message; }
  };
  t.oninput = () => { clearTimeout(timer); timer = setTimeout(check, 120); };
  t.onkeydown = (ev) => {
    if (ev.key !== "Enter") return;
    if (b.index === null) act("api/binding/add", { path: p.path, target: r.name, expression: t.value }, "binding added");
    else act("api/binding/set", { path: p.path, index: b.index, expression: t.value }, "binding applied");
  };
  div.append(t, value);
  if (b.index !== null) {
    const unbind = document.createElement("button");
    unbind.className = "unbind";
    unbind.textContent = "unbind";
    unbind.onclick = () => act("api/binding/remove", { path: p.path, index: b.index }, "binding removed");
    div.append(" ", unbind);
  }
  div.append(out);
  if (b.index === null) setTimeout(() => t.focus(), 0);
  return div;
}
