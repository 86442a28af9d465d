// The fleet dashboard: polls /dashboard/data every 2 s and renders it. Everything shown comes
// from bucket records and node state, so it is written with textContent, never as HTML.
"use strict";

const POLL_MS = 2000;
const $ = (id) => document.getElementById(id);

function ago(ms) {
  if (ms === null || ms === undefined) return "–";
  const neg = ms < 0;
  let s = Math.abs(ms) / 1000;
  let out;
  if (s < 1) out = Math.round(Math.abs(ms)) + " ms";
  else if (s < 90) out = s.toFixed(1) + " s";
  else if (s < 5400) out = Math.round(s / 60) + " min";
  else out = (s / 3600).toFixed(1) + " h";
  return neg ? "−" + out : out;
}

// Wall-clock times are written in UTC, as the node logs them, whatever the browser's zone: an
// operator lines the page up with log lines and bucket timestamps.
function utc(ms) {
  if (ms === null || ms === undefined) return "–";
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ") + " UTC";
}

function cell(tr, text, cls) {
  const td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  tr.appendChild(td);
  return td;
}

function pill(td, text, cls) {
  td.textContent = "";
  const span = document.createElement("span");
  span.className = "pill " + cls;
  span.textContent = text;
  td.appendChild(span);
}

function renderDeployment(d, state) {
  if (!d) {
    $("deployment").textContent = "none";
  } else if (d.error) {
    $("deployment").textContent = d.error;
  } else {
    $("deployment").textContent = d.current;
    $("deployment-previous").textContent = d.previous || "–";
    $("deployment-since").textContent = utc(d.ms);
  }
  $("deployment-running").textContent = (state && state.deployment) || "nothing loaded";
  $("worker").textContent = (state && state.worker) || "–";
}

function renderWaker(w, now) {
  if (!w) {
    $("waker").textContent = "nobody";
    $("waker-detail").textContent = "no wake/waker.json in the bucket";
  } else if (w.error) {
    $("waker").textContent = "unreadable";
    $("waker-detail").textContent = w.error;
  } else {
    $("waker").textContent = w.node;
    $("waker-detail").textContent = (w.live ? "holds the lease, expires in " : "lease expired ") + ago(Math.abs(w.expires_ms - now))
      + (w.live ? "" : " ago");
  }
}

const COUNTERS = ["draining", "resident", "occupied", "activating", "restoring", "evicting", "shedding", "releasing"];

function renderCounters(state) {
  const dl = $("counters");
  dl.textContent = "";
  for (const k of COUNTERS) {
    const dt = document.createElement("dt");
    dt.textContent = k;
    const dd = document.createElement("dd");
    dd.id = "counter-" + k;
    dd.textContent = String(state[k]);
    dl.append(dt, dd);
  }
  if (state.engine) {
    const dt = document.createElement("dt");
    dt.textContent = "engine";
    const dd = document.createElement("dd");
    dd.id = "counter-engine";
    dd.textContent = state.engine.mode;
    dl.append(dt, dd);
  }
}

function renderNodes(nodes) {
  const body = document.querySelector("#nodes tbody");
  body.textContent = "";
  $("nodes-count").textContent = "(" + nodes.length + ")";
  for (const n of nodes) {
    const tr = document.createElement("tr");
    tr.dataset.node = n.node;
    if (n.self) tr.className = "self";
    cell(tr, n.node, "mono");
    pill(cell(tr, ""), n.tombstone ? "retired" : n.live ? "live" : "expired", n.live ? "live" : "expired");
    cell(tr, n.advertise, "mono");
    const l = n.load;
    cell(tr, l.max_resident < 0 ? String(l.resident) : l.resident + " / " + l.max_resident, "resident");
    const p = cell(tr, "");
    if (l.pressured) pill(p, "full", "pressured"); else p.textContent = "–";
    cell(tr, String(l.restoring));
    cell(tr, ago(n.lease_age_ms));
    cell(tr, n.live ? ago(n.expires_in_ms) : "expired");
    cell(tr, utc(n.started_ms), "mono");
    body.appendChild(tr);
  }
  if (nodes.length === 0) {
    const tr = document.createElement("tr");
    tr.className = "empty";
    const td = cell(tr, "no node leases read yet");
    td.colSpan = 9;
    body.appendChild(tr);
  }
}

function renderCells(cells) {
  const body = document.querySelector("#cells tbody");
  body.textContent = "";
  $("cells-count").textContent = "(" + cells.total + (cells.total > cells.shown.length ? ", " + cells.shown.length + " shown" : "") + ")";
  for (const c of cells.shown) {
    const tr = document.createElement("tr");
    tr.dataset.scope = c.scope;
    cell(tr, c.name === null || c.name === undefined ? "–" : c.name, "name");
    cell(tr, c.scope, "mono scope");
    cell(tr, String(c.epoch));
    cell(tr, ago(c.idle_ms));
    cell(tr, utc(c.last_used_ms), "mono");
    cell(tr, c.deployment || "–", "mono");
    body.appendChild(tr);
  }
  if (cells.total === 0) {
    const tr = document.createElement("tr");
    tr.className = "empty";
    const td = cell(tr, "no resident cell");
    td.colSpan = 6;
    body.appendChild(tr);
  }
}

function render(d) {
  $("self").textContent = d.self;
  $("updated").textContent = "updated " + utc(d.now_ms);
  renderDeployment(d.deployment, d.state);
  renderWaker(d.waker, d.now_ms);
  renderCounters(d.state);
  renderNodes(d.nodes);
  renderCells(d.cells);
  document.body.dataset.loaded = "1";
  document.body.dataset.refreshes = String(Number(document.body.dataset.refreshes || "0") + 1);
}

async function poll() {
  try {
    const r = await fetch("/dashboard/data", { cache: "no-store" });
    if (!r.ok) throw new Error("HTTP " + r.status + ": " + (await r.text()));
    render(await r.json());
    $("error").hidden = true;
  } catch (e) {
    $("error").textContent = "cannot refresh: " + e.message + " (showing the last data)";
    $("error").hidden = false;
  } finally {
    setTimeout(poll, POLL_MS);
  }
}

poll();
