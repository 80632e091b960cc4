#!/usr/bin/env python3
"""Checks one run's results.json for e2e.sh: `tx` (every measured step has transactions and 0 errors) or `cpu`
(every component of every step has CPU from Prometheus). Prints what it read; exits 1 when the check fails."""
import json
import sys

path, what = sys.argv[1], sys.argv[2]
steps = json.load(open(path))["steps"]
ok = bool(steps)
for s in steps:
    if what == "tx":
        print(f"e2e:   {s['clients']} clients: {s['transactions']} transactions, {s['errors']} errors")
        ok &= s["transactions"] > 0 and s["errors"] == 0
    else:
        comps = s["cpu"]["components"]
        print("e2e:   " + ", ".join(f"{c['component']} {c['cpuMillis']:.0f} ms" for c in comps))
        ok &= bool(comps) and all(c["cpuMillis"] > 0 for c in comps)
sys.exit(0 if ok else 1)
