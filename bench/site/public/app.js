// Front-end of a small order-tracking page: the static asset of the bench's `asset` scenario.
// Its content does not matter to the measurement, only that it is a realistic file of ~10 KB
// (served whole, uncompressed: wrk sends no Accept-Encoding).
"use strict";

const STATUS_LABELS = {
  pending: "Waiting for payment",
  paid: "Paid, being packed",
  shipped: "On its way",
  delivered: "Delivered",
  returned: "Returned",
  cancelled: "Cancelled",
};

const CURRENCY = new Intl.NumberFormat("en-GB", { style: "currency", currency: "EUR" });
const DATE = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric" });

/** Escapes text for insertion into HTML. */
function escapeHtml(text) {
  return String(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** A debounced version of fn: it runs once, waitMs after the last call. */
function debounce(fn, waitMs) {
  let timer = null;
  return function debounced(...args) {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      fn.apply(this, args);
    }, waitMs);
  };
}

/** Fetches JSON with a timeout; rejects with a readable error. */
async function fetchJson(url, { timeoutMs = 8000, ...init } = {}) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await fetch(url, { ...init, signal: controller.signal, headers: { accept: "application/json", ...(init.headers || {}) } });
    if (!res.ok) {
      const body = await res.text().catch(() => "");
      throw new Error(`${url}: ${res.status} ${res.statusText}${body ? " — " + body.slice(0, 200) : ""}`);
    }
    return await res.json();
  } catch (err) {
    if (err.name === "AbortError") throw new Error(`${url}: no answer within ${timeoutMs} ms`);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

class OrderStore {
  constructor() {
    this.orders = [];
    this.listeners = new Set();
    this.filter = { text: "", status: "all", sort: "newest" };
  }

  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit() {
    for (const listener of this.listeners) listener(this.visible());
  }

  replace(orders) {
    this.orders = orders.map((o) => ({ ...o, placedAt: new Date(o.placedAt) }));
    this.emit();
  }

  update(id, patch) {
    const i = this.orders.findIndex((o) => o.id === id);
    if (i === -1) return false;
    this.orders[i] = { ...this.orders[i], ...patch };
    this.emit();
    return true;
  }

  setFilter(patch) {
    this.filter = { ...this.filter, ...patch };
    this.emit();
  }

  visible() {
    const text = this.filter.text.trim().toLowerCase();
    let list = this.orders.filter((o) => {
      if (this.filter.status !== "all" && o.status !== this.filter.status) return false;
      if (!text) return true;
      return o.id.toLowerCase().includes(text)
        || o.customer.toLowerCase().includes(text)
        || o.items.some((it) => it.name.toLowerCase().includes(text));
    });
    const by = {
      newest: (a, b) => b.placedAt - a.placedAt,
      oldest: (a, b) => a.placedAt - b.placedAt,
      total: (a, b) => orderTotal(b) - orderTotal(a),
      customer: (a, b) => a.customer.localeCompare(b.customer),
    }[this.filter.sort];
    if (by) list = list.slice().sort(by);
    return list;
  }

  summary() {
    const counts = {};
    let revenue = 0;
    for (const o of this.orders) {
      counts[o.status] = (counts[o.status] || 0) + 1;
      if (o.status !== "cancelled" && o.status !== "returned") revenue += orderTotal(o);
    }
    return { counts, revenue, total: this.orders.length };
  }
}

function orderTotal(order) {
  const items = order.items.reduce((sum, it) => sum + it.unitPrice * it.quantity, 0);
  return items + (order.shipping || 0) - (order.discount || 0);
}

function renderItems(items) {
  return items.map((it) => `
      <li class="item">
        <span class="item-name">${escapeHtml(it.name)}</span>
        <span class="item-qty">× ${it.quantity}</span>
        <span class="item-price">${CURRENCY.format(it.unitPrice * it.quantity)}</span>
      </li>`).join("");
}

function renderOrder(order) {
  const label = STATUS_LABELS[order.status] || order.status;
  const canCancel = order.status === "pending" || order.status === "paid";
  return `
    <article class="order order-${escapeHtml(order.status)}" data-id="${escapeHtml(order.id)}">
      <header>
        <h3>Order ${escapeHtml(order.id)}</h3>
        <time datetime="${order.placedAt.toISOString()}">${DATE.format(order.placedAt)}</time>
        <span class="badge">${escapeHtml(label)}</span>
      </header>
      <p class="customer">${escapeHtml(order.customer)} · ${escapeHtml(order.city || "")}</p>
      <ul class="items">${renderItems(order.items)}</ul>
      <footer>
        <strong>${CURRENCY.format(orderTotal(order))}</strong>
        ${order.tracking ? `<a href="/track/${encodeURIComponent(order.tracking)}" class="track">Track parcel</a>` : ""}
        ${canCancel ? `<button type="button" class="cancel" data-action="cancel">Cancel</button>` : ""}
      </footer>
    </article>`;
}

function renderSummary(summary) {
  const parts = Object.keys(STATUS_LABELS)
    .filter((s) => summary.counts[s])
    .map((s) => `<li><span>${escapeHtml(STATUS_LABELS[s])}</span><b>${summary.counts[s]}</b></li>`);
  return `
    <div class="summary">
      <p>${summary.total} orders, ${CURRENCY.format(summary.revenue)} in open and completed orders</p>
      <ul>${parts.join("")}</ul>
    </div>`;
}

class OrdersView {
  constructor(root, store, api) {
    this.root = root;
    this.store = store;
    this.api = api;
    this.list = root.querySelector("[data-role=list]");
    this.summary = root.querySelector("[data-role=summary]");
    this.notice = root.querySelector("[data-role=notice]");
  }

  mount() {
    this.store.subscribe((orders) => this.render(orders));
    const search = this.root.querySelector("input[name=search]");
    search.addEventListener("input", debounce((e) => this.store.setFilter({ text: e.target.value }), 150));
    this.root.querySelector("select[name=status]").addEventListener("change", (e) => this.store.setFilter({ status: e.target.value }));
    this.root.querySelector("select[name=sort]").addEventListener("change", (e) => this.store.setFilter({ sort: e.target.value }));
    this.list.addEventListener("click", (e) => this.onClick(e));
    window.addEventListener("online", () => this.refresh());
  }

  render(orders) {
    this.summary.innerHTML = renderSummary(this.store.summary());
    if (orders.length === 0) {
      this.list.innerHTML = `<p class="empty">No order matches these filters.</p>`;
      return;
    }
    this.list.innerHTML = orders.map(renderOrder).join("");
  }

  show(message, kind = "info") {
    this.notice.textContent = message;
    this.notice.className = `notice notice-${kind}`;
    this.notice.hidden = false;
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => { this.notice.hidden = true; }, 5000);
  }

  async onClick(e) {
    const button = e.target.closest("button[data-action=cancel]");
    if (!button) return;
    const id = button.closest("article").dataset.id;
    if (!window.confirm(`Cancel order ${id}?`)) return;
    button.disabled = true;
    try {
      await this.api.cancel(id);
      this.store.update(id, { status: "cancelled" });
      this.show(`Order ${id} cancelled.`);
    } catch (err) {
      button.disabled = false;
      this.show(err.message, "error");
    }
  }

  async refresh() {
    this.root.classList.add("loading");
    try {
      this.store.replace(await this.api.list());
    } catch (err) {
      this.show(`Could not load the orders: ${err.message}`, "error");
    } finally {
      this.root.classList.remove("loading");
    }
  }
}

const api = {
  list: () => fetchJson("/api/orders"),
  cancel: (id) => fetchJson(`/api/orders/${encodeURIComponent(id)}/cancel`, { method: "POST" }),
};

document.addEventListener("DOMContentLoaded", () => {
  const root = document.querySelector("#orders");
  if (!root) return;
  const view = new OrdersView(root, new OrderStore(), api);
  view.mount();
  view.refresh();
  // Refresh every minute while the page is visible.
  setInterval(() => { if (document.visibilityState === "visible") view.refresh(); }, 60000);
});
