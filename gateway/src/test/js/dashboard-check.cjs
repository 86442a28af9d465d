// Drives the fleet dashboard in headless Chromium (Debian's /usr/bin/chromium) through
// playwright-core, and prints what the page SHOWS as one JSON line; DashboardIT asserts on it.
//
//   node dashboard-check.cjs '<json options>'
//     url          the dashboard page (internal listener)
//     screenshot   where to save a PNG of the page
//     minNodes     wait until the nodes table has this many rows
//     expectScope  wait until this cell is listed
//     pokeUrl      then request this URL (a Worker request that activates one more cell) and
//                  wait, WITHOUT reloading, until the page lists a cell it did not list before
//     timeoutMs    for each wait
//
// playwright-core comes from .ci/npm-tools.sh (CELLGATE_NPM_TOOLS, default <repo>/.ci/npm-tools).
"use strict";
const path = require("path");

const opts = JSON.parse(process.argv[2]);
const tools = process.env.CELLGATE_NPM_TOOLS || path.join(__dirname, "..", "..", "..", "..", ".ci", "npm-tools");
const { chromium } = require(path.join(tools, "node_modules", "playwright-core"));

function snapshot() {
  const text = (sel) => { const e = document.querySelector(sel); return e ? e.textContent.trim() : null; };
  const rows = (sel) => [...document.querySelectorAll(sel)];
  const counters = {};
  for (const dd of rows("#counters dd")) counters[dd.id.replace(/^counter-/, "")] = dd.textContent;
  const banner = document.getElementById("error");
  return {
    self: text("#self"),
    worker: text("#worker"),
    updated: text("#updated"),
    deploymentSince: text("#deployment-since"),
    deployment: text("#deployment"),
    running: text("#deployment-running"),
    waker: text("#waker"),
    wakerDetail: text("#waker-detail"),
    nodes: rows("#nodes tbody tr[data-node]").map((tr) => ({
      node: tr.dataset.node, self: tr.classList.contains("self"), columns: [...tr.children].map((td) => td.textContent.trim()),
    })),
    cells: rows("#cells tbody tr[data-scope]").map((tr) => ({
      scope: tr.dataset.scope, columns: [...tr.children].map((td) => td.textContent.trim()),
    })),
    counters,
    refreshes: Number(document.body.dataset.refreshes || "0"),
    error: banner && !banner.hidden ? banner.textContent : null,
  };
}

async function main() {
  const origin = new URL(opts.url).origin;
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  const out = { consoleErrors: [], foreignRequests: [], requests: 0 };
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 }, timezoneId: process.env.TZ || undefined });
    page.on("request", (r) => {
      out.requests++;
      if (!r.url().startsWith(origin + "/")) out.foreignRequests.push(r.url());
    });
    page.on("console", (m) => { if (m.type() === "error") out.consoleErrors.push(m.text()); });
    page.on("pageerror", (e) => out.consoleErrors.push("pageerror: " + e.message));
    const resp = await page.goto(opts.url, { waitUntil: "load", timeout: opts.timeoutMs });
    out.status = resp.status();
    out.csp = resp.headers()["content-security-policy"] || null;
    await page.waitForFunction(({ minNodes, scope }) =>
      document.body.dataset.loaded === "1"
        && document.querySelectorAll("#nodes tbody tr[data-node]").length >= minNodes
        && (!scope || document.querySelector(`#cells tr[data-scope="${scope}"]`) !== null),
      { minNodes: opts.minNodes, scope: opts.expectScope }, { timeout: opts.timeoutMs, polling: 200 });
    out.first = await page.evaluate(snapshot);
    if (opts.pokeUrl) {
      const before = out.first.cells.map((c) => c.scope);
      const poked = await fetch(opts.pokeUrl, { headers: { "x-request-id": "dashboard-poke" } });
      out.pokeStatus = poked.status;
      await page.waitForFunction((known) =>
        [...document.querySelectorAll("#cells tbody tr[data-scope]")].some((tr) => !known.includes(tr.dataset.scope)),
        before, { timeout: opts.timeoutMs, polling: 200 });
      out.after = await page.evaluate(snapshot);
    }
    await page.screenshot({ path: opts.screenshot, fullPage: true });
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(out) + "\n");
}

main().catch((e) => {
  process.stderr.write("dashboard-check failed: " + (e && e.stack || e) + "\n");
  process.exit(1);
});
