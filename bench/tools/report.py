#!/usr/bin/env python3
"""Turns a bench run (raw.tsv + meta.env) into summary.md: tables, ratios vs workerd, targets.

  report.py RESULTS_DIR > RESULTS_DIR/summary.md

Ratios are per repetition (each cellgate run divided by the workerd run of the same repetition,
seconds apart), then the median: on a shared, noisy machine that is fairer than a ratio of medians.
"""
import collections
import math
import os
import statistics
import sys

PEER = "workerd"
# bench/site's scenarios cannot run on raw workerd: their peer is miniflare (workerd inside, with
# its asset and router Workers and its KV), and their targets are issue 21's.
SITE_SCENARIOS = ["asset", "kv-get", "kv-get-paced"]
SITE_PEER = "miniflare"


def peer_of(sc):
    return SITE_PEER if sc in SITE_SCENARIOS else PEER
DO_SCENARIOS = ["counter-hot", "counter-many", "kv-hot", "kv-many", "rpc-hot"]
GATE_ON = ["cg-file", "cg-s3"]


def variant_base(rt):
    """cg-file.zgc is cg-file with extra Java options (a tagged variant): same bucket, same gate."""
    return rt.split(".")[0]


def load_rows(path):
    rows = []
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if not parts or not parts[0]:
                continue
            d = {"kind": parts[0]}
            for p in parts[1:]:
                k, _, v = p.partition("=")
                d[k] = v
            rows.append(d)
    return rows


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


def med(vals):
    vals = [v for v in vals if not math.isnan(v)]
    return statistics.median(vals) if vals else math.nan


def lat_ms(r, pct):
    """A latency percentile of a row in ms: load.lua's BENCH line gives us, older rows gave ms."""
    return num(r[f"{pct}_us"]) / 1000 if f"{pct}_us" in r else num(r.get(f"{pct}_ms"))


def fmt(v, digits=0):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    return f"{v:,.{digits}f}"


def verdict(ok):
    return "**met**" if ok else "**MISSED**"


def load_tables(rows, out):
    # A run where wrk itself failed has no numbers; a run that completed nothing keeps rps 0
    # but has no latencies.
    load = [r for r in rows if r["kind"] == "load" and r.get("failed") not in ("wrk", "dead")]
    for r in load:
        if num(r.get("requests")) == 0:
            for k in ("p50_us", "p90_us", "p99_us", "max_us", "cpu_us", "store_cpu_us"):
                r[k] = "nan"
    if not load:
        return []
    by = collections.defaultdict(list)
    for r in load:
        by[(r["sc"], r["rt"])].append(r)
    scenarios = list(dict.fromkeys(r["sc"] for r in load))
    runtimes = list(dict.fromkeys(r["rt"] for r in load))
    targets = []
    out.append("## Load (wrk)\n")
    out.append("req/s: each run, then the median; ×peer: median over repetitions of (run ÷ the peer's run in "
               "the same repetition; the peer is workerd, or miniflare for the bench/site scenarios asset, kv-get, kv-get-paced); p50/p99/CPU: medians over runs. CPU = server process-group CPU time per "
               "request; store CPU = the loopback S3 server's (S3Proxy + Azurite) CPU per request; others % = CPU the "
               "runtimes not being measured used meanwhile, in % of one CPU (each run waits for them to go idle first).\n")
    for sc in scenarios:
        out.append(f"### {sc}\n")
        pn = peer_of(sc)
        out.append(f"| runtime | req/s (runs) | req/s | × {pn} (runs) | × {pn} | p50 ms (runs) | p50 ms | p99 ms | p99 ÷ {pn} | CPU µs/req | store CPU µs/req | errors | CPU stall % | load avg | others % |")
        out.append("|---|---|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        peer = {r["rep"]: r for r in by.get((sc, pn), [])}
        for rt in runtimes:
            rs = by.get((sc, rt), [])
            if not rs:
                continue
            rps = [num(r["rps"]) for r in rs]
            ratios = [num(r["rps"]) / num(peer[r["rep"]]["rps"]) for r in rs if r["rep"] in peer and num(peer[r["rep"]]["rps"]) > 0]
            p99r = [num(r.get("p99_us")) / num(peer[r["rep"]].get("p99_us")) for r in rs
                    if r["rep"] in peer and num(peer[r["rep"]].get("p99_us")) > 0]
            errors = sum(int(num(r.get("non2xx", 0)) + num(r.get("sockerr", 0))) for r in rs if "non2xx" in r)
            ratio, p99ratio = med(ratios), med(p99r)
            out.append("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
                rt, " / ".join(fmt(v) for v in rps), fmt(med(rps)),
                "" if rt == pn else " / ".join(fmt(v, 2) for v in ratios),
                "1" if rt == pn else fmt(ratio, 2),
                " / ".join(fmt(num(r.get("p50_us")) / 1000, 2) for r in rs),
                fmt(med([num(r.get("p50_us")) / 1000 for r in rs]), 2),
                fmt(med([num(r.get("p99_us")) / 1000 for r in rs]), 1),
                "1" if rt == pn else fmt(p99ratio, 2),
                fmt(med([num(r.get("cpu_us")) for r in rs])),
                fmt(med([num(r.get("store_cpu_us")) for r in rs])) if variant_base(rt) == "cg-s3" else "",
                errors, fmt(med([num(r.get("stall_pct")) for r in rs])),
                fmt(med([num(r.get("load1")) for r in rs]), 1),
                fmt(med([num(r.get("others_cpu_pct")) for r in rs])) if any("others_cpu_pct" in r for r in rs) else ""))
            if rt.startswith("cg-"):
                p50 = med([num(r.get("p50_us")) / 1000 for r in rs])
                if sc == "asset":
                    targets.append((f"asset on {rt}: ≥ 2× miniflare req/s", f"{fmt(ratio, 2)}×", ratio >= 2.0))
                elif sc in ("kv-get", "kv-get-paced"):
                    targets.append((f"{sc} on {rt}: KV get p50 ≤ 1 ms", f"{fmt(p50, 2)} ms", p50 <= 1.0))
                elif sc == "hello":
                    targets.append((f"/hello on {rt}: ≥ 1× workerd req/s", f"{fmt(ratio, 2)}×", ratio >= 1.0))
                elif sc in DO_SCENARIOS and variant_base(rt) in GATE_ON:
                    targets.append((f"{sc} on {rt} (gate on): ≥ 2× workerd req/s", f"{fmt(ratio, 2)}×", ratio >= 2.0))
                    targets.append((f"{sc} on {rt} (gate on): p99 ≤ workerd's", f"{fmt(p99ratio, 2)}× workerd's p99", p99ratio <= 1.0))
        out.append("")
    return targets


def simple_tables(rows, out):
    newdo = [r for r in rows if r["kind"] == "newdo"]
    if newdo:
        out.append("## First request to a never-seen object, warm process\n")
        out.append("One after the other on one keep-alive connection, each to a new object (activation + first write).\n")
        out.append("| runtime | n | ok | p50 ms | p99 ms | max ms |")
        out.append("|---|---:|---:|---:|---:|---:|")
        for r in newdo:
            out.append(f"| {r['rt']} | {r.get('n')} | {r.get('ok')} | {r.get('p50_ms')} | {r.get('p99_ms')} | {r.get('max_ms')} |")
        out.append("")
    checks = [r for r in rows if r["kind"] in ("check", "exact")]
    if checks:
        out.append("## Correctness\n")
        out.append("check: each counter's increase equals the 2xx responses it gave (plus at most the requests in "
                   "flight when wrk stopped). exact: N increments with 50 connections over 1 or 100 fresh objects; "
                   "the returned values must be exactly v0+1..v0+N and the stored value v0+N.\n")
        out.append("| runtime | check | verdict | detail |")
        out.append("|---|---|---|---|")
        for r in checks:
            if r["kind"] == "check" and "detail" in r:
                out.append(f"| {r['rt']} | {r['what']} | {r['verdict']} | {r['detail']} |")
            elif r["kind"] == "check":
                out.append(f"| {r['rt']} | {r['what']} | {r['verdict']} | delta {r.get('delta')}, 2xx {r.get('acked')}, extra {r.get('extra')} (allowed {r.get('allowed')}) |")
            else:
                out.append(f"| {r['rt']} | exact | {r['verdict']} | {r.get('detail')} |")
        out.append("")


def cold_tables(rows, out, targets):
    cs = [r for r in rows if r["kind"] == "coldstart"]
    if cs:
        out.append("## Cold start (fresh process; deployment already in the bucket)\n")
        out.append("| runtime | start → first /hello ms (runs) | median | first new object ms | same object again ms | SIGTERM → exit ms |")
        out.append("|---|---|---:|---:|---:|---:|")
        for rt in dict.fromkeys(r["rt"] for r in cs):
            rs = [r for r in cs if r["rt"] == rt]
            st = [num(r["start_ms"]) for r in rs]
            out.append("| {} | {} | {} | {} | {} | {} |".format(
                rt, " / ".join(fmt(v) for v in st), fmt(med(st)),
                fmt(med([num(r["first_object_ms"]) for r in rs]), 1), fmt(med([num(r["same_again_ms"]) for r in rs]), 1),
                fmt(med([num(r["sigterm_exit_ms"]) for r in rs]))))
            if rt.startswith("cg-"):
                targets.append(("first /hello ≤ 1 s after process start", f"{fmt(med(st))} ms", med(st) <= 1000))
        out.append("")
    fleet = [r for r in rows if r["kind"] in ("fwd", "reactivate", "activate", "release", "takeover")]
    if not fleet:
        return
    out.append("## Fleet on loopback S3 (two nodes)\n")
    out.append("| measurement | n | ok | p50 ms | p99 ms | max ms | notes |")
    out.append("|---|---:|---:|---:|---:|---:|---|")
    fwd = [r for r in rows if r["kind"] == "fwd"]
    via = {"local": "cg-a (owner, local)", "forwarded": "cg-b (forwarded)"}
    p50 = {}  # tool -> path -> median p50 ms
    for r in fwd:
        if r.get("tool", "probe") == "probe":
            p50.setdefault("probe", {})[r["path"]] = num(r.get("p50_ms"))
            out.append(f"| read of an object owned by cg-a, via {via[r['path']]}: probe.py, one request after the other | "
                       f"{r.get('n')} | {r.get('ok')} | {r.get('p50_ms')} | {r.get('p99_ms')} | {r.get('max_ms')} | |")
    for r in rows:
        if r["kind"] == "reactivate":
            out.append(f"| re-activation after idle eviction, same node | {r.get('n')} | {r.get('ok')} | {r.get('p50_ms')} | "
                       f"{r.get('p99_ms')} | {r.get('max_ms')} | local copy reused: {r.get('reused_local')}, restored: {r.get('restored')} |")
        if r["kind"] == "activate":
            out.append(f"| activation from S3 on a node that never held the cell | {r.get('n')} | {r.get('ok')} | {r.get('p50_ms')} | "
                       f"{r.get('p99_ms')} | {r.get('max_ms')} | released by cg-a at its shutdown, read on cg-b |")
            targets.append(("activation from loopback S3 p50 ≤ 30 ms", f"{r.get('p50_ms')} ms", num(r.get("p50_ms")) <= 30))
    out.append("")
    rounds = [r for r in fwd if r.get("tool") == "wrk"]
    if rounds:
        out.append("Forwarding in the steady state: reads of one object owned by cg-a, `wrk -t1 -c1`, rounds alternating "
                   "between the paths after both were warmed and went idle:\n")
        out.append("| path | rounds | req/s per round | p50 ms per round | p50 ms (median) | p99 ms (median) |")
        out.append("|---|---:|---|---|---:|---:|")
        for path in ("local", "forwarded"):
            rs = [r for r in rounds if r["path"] == path]
            if not rs:
                continue
            ms = [lat_ms(r, "p50") for r in rs]
            p50.setdefault("wrk", {})[path] = med(ms)
            rps = [num(r["requests"]) / num(r["seconds"]) if "requests" in r else num(r.get("rps")) for r in rs]
            out.append(f"| via {via[path]} | {len(rs)} | {' / '.join(fmt(v) for v in rps)} | "
                       f"{' / '.join(fmt(v, 3) for v in ms)} | {fmt(med(ms), 3)} | {fmt(med([lat_ms(r, 'p99') for r in rs]), 2)} |")
        out.append("")
    overhead = {t: v["forwarded"] - v["local"] for t, v in p50.items() if len(v) == 2}
    if overhead:
        # The wrk rounds are the steady state (both nodes warmed and idle); probe.py rows alone are older runs.
        tool = "wrk" if "wrk" in overhead else next(iter(overhead))
        d = overhead[tool]
        others = ", ".join(f"{t} +{fmt(v, 2)} ms" for t, v in overhead.items() if t != tool)
        targets.append(("forwarding overhead p50 ≤ +0.5 ms", f"+{fmt(d, 2)} ms ({tool}{'; ' + others if others else ''})", d <= 0.5))
    for r in rows:
        if r["kind"] == "release":
            out.append(f"Release at shutdown: {r.get('resident')} resident cells, SIGTERM: {r.get('released')} released, "
                       f"{r.get('failed')} failed, drain {r.get('drain_ms')} ms (**{r.get('cells_per_s')} cells/s**), "
                       f"SIGTERM → exit {r.get('sigterm_exit_ms')} ms.\n")
    tk = [r for r in rows if r["kind"] == "takeover"]
    if tk:
        out.append("Takeover after SIGKILL of the owner (time from the kill to the first 2xx from the other node; "
                   f"lease TTL {tk[0].get('ttl_ms')} ms):\n")
        out.append("| rep | ms | answer | value before kill | failed tries |")
        out.append("|---:|---:|---:|---:|---:|")
        for r in tk:
            out.append(f"| {r.get('rep')} | {r.get('ms')} | {r.get('answer')} | {r.get('value_before')} | {r.get('failures', '')} |")
        worst = max(num(r.get("ms")) for r in tk)
        ttl = num(tk[0].get("ttl_ms"))
        targets.append((f"takeover after SIGKILL ≤ TTL + 1 s ({fmt(ttl + 1000)} ms)", f"worst {fmt(worst)} ms", worst <= ttl + 1000))
        out.append("")


def density_table(rows, out, targets):
    ds = [r for r in rows if r["kind"] == "density"]
    if not ds:
        return
    out.append("## Density: resident counter cells (1 KB of state each)\n")
    out.append("| cells created | resident | heap after full GC MB | RSS MB | creations/s |")
    out.append("|---:|---:|---:|---:|---:|")
    for r in ds:
        out.append(f"| {r['cells']} | {r.get('resident')} | {r.get('heap_mb')} | {r.get('rss_mb')} | {r.get('per_s')} |")
    # The empty node (cells=0) is left out of the fit when there are steps enough: the first
    # step also pays one-off costs (classes loaded, code compiled), which are not per cell.
    steps = [r for r in ds if num(r["cells"]) > 0]
    fit_rows = steps if len(steps) >= 2 else ds
    pts = [(num(r["cells"]), num(r["heap_mb"])) for r in fit_rows if not math.isnan(num(r.get("heap_mb")))]
    rss = [(num(r["cells"]), num(r["rss_mb"])) for r in fit_rows if not math.isnan(num(r.get("rss_mb")))]
    max_mb = num(ds[0].get("max_heap_mb"))
    end = next((r for r in rows if r["kind"] == "density_end"), {})
    out.append("")
    if len(pts) >= 2:
        slope, icpt = fit(pts)
        rslope, _ = fit(rss)
        fits = (max_mb - icpt) / slope if slope > 0 else math.inf
        top = max(int(num(r.get("resident"))) for r in ds)
        out.append(f"Heap per resident cell (least squares over the steps): **{fmt(slope * 1024, 1)} KB**; "
                   f"RSS per cell {fmt(rslope * 1024, 1)} KB; baseline heap {fmt(icpt)} MB. "
                   f"At that slope a {fmt(max_mb)} MB heap holds about **{fmt(fits)} cells**. "
                   f"Stopped: {end.get('reason', '?')} at {end.get('cells', '?')} cells; read-back {end.get('readback', '?')}.\n")
        targets.append(("≥ 5,000 resident cells in a 4 GB heap",
                        f"{top} held; ~{fmt(fits)} fit (projected)", top >= 5000 or fits >= 5000))


def fit(pts):
    n = len(pts)
    mx = sum(p[0] for p in pts) / n
    my = sum(p[1] for p in pts) / n
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    if sxx == 0:
        return math.nan, my
    slope = sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx
    return slope, my - slope * mx


def main(a):
    d = a[0]
    meta = {}
    if os.path.exists(os.path.join(d, "meta.env")):
        with open(os.path.join(d, "meta.env")) as f:
            for line in f:
                k, _, v = line.rstrip("\n").partition("=")
                meta[k] = v
    rows = load_rows(os.path.join(d, "raw.tsv"))
    out = [f"# Bench run {os.path.basename(os.path.abspath(d))}\n"]
    for k in ("date", "machine", "commit", "cellgate_src", "versions", "wrk", "cg_java_opts", "load_at_start", "load_at_end"):
        if k in meta:
            out.append(f"- {k}: {meta[k]}")
    out.append("")
    targets = load_tables(rows, out)
    simple_tables(rows, out)
    cold_tables(rows, out, targets)
    density_table(rows, out, targets)
    notes = [r for r in rows if r["kind"] == "note"] + [r for r in rows if r["kind"] == "load" and r.get("failed") == "dead"]
    if notes:
        out.append("## Incidents\n")
        for r in notes:
            if r["kind"] == "note":
                out.append(f"- {r.get('rt')}: {r.get('what')}: {r.get('detail')}")
            else:
                out.append(f"- {r.get('rt')}: not running at {r.get('sc')} rep {r.get('rep')} (run skipped)")
        out.append("")
    if targets:
        out.append("## Targets\n")
        out.append("| target | measured | verdict |")
        out.append("|---|---|---|")
        for name, measured, ok in targets:
            out.append(f"| {name} | {measured} | {verdict(ok)} |")
        out.append("")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
