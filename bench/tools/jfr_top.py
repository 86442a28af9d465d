#!/usr/bin/env python3
"""Summarize a JFR recording's CPU samples: where the node spends its time.

  jfr_top.py JFR_BINARY RECORDING.jfr [TOP]

Reads `jfr print --stack-depth 64 --events jdk.ExecutionSample,jdk.NativeMethodSample` and prints:
  - Java samples per thread group (thread names with digits folded: vert.x-eventloop-thread-#),
  - the hottest methods by self time (top frame),
  - the hottest methods by inclusive time (anywhere on the stack, counted once per sample),
    restricted to our code (dev.cellgate.*) and to everything,
  - native-method samples (threads blocked or working in native code) by top frame,
  - garbage collection pauses (count, total, longest).
"""
import collections
import re
import subprocess
import sys

FRAME = re.compile(r"^\s+(\S+?)\((.*?)\)\s+line:")


def parse(text):
    """Yields (event_type, thread, [frames top first])."""
    ev, thread, frames, in_stack = None, "", [], False
    for line in text.splitlines():
        s = line.strip()
        if s.endswith("{") and s.startswith("jdk."):
            ev, thread, frames, in_stack = s.split()[0], "", [], False
        elif s.startswith("sampledThread =") or s.startswith("eventThread ="):
            m = re.search(r'"(.*?)"', s)
            thread = m.group(1) if m else s
        elif s.startswith("stackTrace = ["):
            in_stack = True
        elif in_stack and s == "]":
            in_stack = False
        elif in_stack:
            m = FRAME.match(line)
            if m:
                frames.append(m.group(1))
            elif s and s != "...":
                frames.append(s.split("(")[0])
        elif s == "}" and ev is not None:
            yield ev, thread, frames
            ev = None


def fold(thread):
    return re.sub(r"\d+", "#", thread)


def table(title, counter, total, top):
    print(f"\n{title}")
    for name, n in counter.most_common(top):
        print(f"  {100.0 * n / max(total, 1):5.1f}%  {n:6d}  {name}")


def gc_pauses(jfr, rec):
    out = subprocess.run([jfr, "print", "--events", "jdk.GarbageCollection", rec],
                         capture_output=True, text=True).stdout
    pauses = [float(m.group(1)) * (1000.0 if m.group(2) == "s" else 1.0)
              for m in re.finditer(r"sumOfPauses = ([\d.]+) (ms|s)\b", out)]
    if pauses:
        print(f"\nGC: {len(pauses)} collections, pauses total {sum(pauses):.0f} ms, longest {max(pauses):.1f} ms")


def main(a):
    if len(a) < 2:
        print(__doc__, file=sys.stderr)
        return 64
    jfr, rec = a[0], a[1]
    top = int(a[2]) if len(a) > 2 else 25
    text = subprocess.run([jfr, "print", "--stack-depth", "64", "--events",
                           "jdk.ExecutionSample,jdk.NativeMethodSample", rec],
                          capture_output=True, text=True, check=True).stdout
    threads, self_t, incl_ours, incl_all, native = (collections.Counter() for _ in range(5))
    n_java = n_native = 0
    for ev, thread, frames in parse(text):
        if not frames:
            continue
        if ev == "jdk.NativeMethodSample":
            n_native += 1
            native[frames[0]] += 1
            continue
        n_java += 1
        threads[fold(thread)] += 1
        self_t[frames[0]] += 1
        seen = set(frames)
        for f in seen:
            incl_all[f] += 1
            if f.startswith("dev.cellgate."):
                incl_ours[f] += 1
    print(f"recording: {rec}")
    print(f"Java CPU samples: {n_java}, native-method samples: {n_native}")
    table("Java samples by thread", threads, n_java, 12)
    table("Hottest methods, self (top frame)", self_t, n_java, top)
    table("Hottest cellgate methods, inclusive", incl_ours, n_java, top)
    table("Hottest methods, inclusive (any code)", incl_all, n_java, top)
    table("Native-method samples, top frame", native, n_native, 12)
    gc_pauses(jfr, rec)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
