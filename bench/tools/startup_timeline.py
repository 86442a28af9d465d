#!/usr/bin/env python3
"""Per-phase medians of the starts startup-timeline.sh recorded (one JSON line per start).

  startup_timeline.py starts.jsonl [more.jsonl ...]   -> a markdown table: phase, median, min, max
"""
import json
import statistics
import sys


def main(paths):
    starts = []
    for p in paths:
        with open(p) as f:
            starts += [json.loads(line) for line in f if line.strip()]
    keys = []
    for s in starts:
        for k, v in (s.get("startup") or {}).items():
            if k.endswith("_ms") and isinstance(v, (int, float)) and k not in keys:
                keys.append(k)
    rows = [("hello_ms (spawn -> first /hello, outside)", [s["hello_ms"] for s in starts])]
    rows += [(k, [s["startup"][k] for s in starts if s.get("startup") and k in s["startup"]]) for k in keys]
    print(f"{len(starts)} starts")
    print("| phase | median ms | min | max |")
    print("|---|---:|---:|---:|")
    for name, vals in rows:
        if vals:
            print(f"| {name} | {statistics.median(vals):.0f} | {min(vals):.0f} | {max(vals):.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
