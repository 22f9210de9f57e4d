#!/usr/bin/env python3
"""Prints each benchmark beside its same-run anchor, as a ratio."""
import os
import re
import sys

build = sys.argv[1]


def read(name):
    path = os.path.join(build, name)
    return open(path).read() if os.path.exists(path) else ""


anchors = dict((m[0], float(m[1])) for m in re.findall(r"^(\S+) ([\d.]+)", read("bench_anchors.txt"), re.M))


def metric(text, unit):
    """The best-run rate (anchors are best-of too)."""
    m = re.search(r"([\d.]+) " + re.escape(unit) + " best", text)
    return float(m.group(1)) if m else None


chain = metric(read("bench_elementwise_chain.txt"), "GB/s")
if chain and "triad_16M_f32" in anchors:
    triad = anchors["triad_16M_f32"]
    print(f"elementwise chain 16M f32: {chain:.2f} GB/s = {chain / triad:.2f}x the triad ({triad:.2f} GB/s)")
dot = metric(read("bench_dot_1024.txt"), "GFLOP/s")
if dot:
    for k in ("sgemm_1024_onednn", "sgemm_1024_openblas", "fma_peak_1core"):
        if k in anchors:
            print(f"dot_general 1024^3 f32: {dot:.1f} GFLOP/s = {dot / anchors[k]:.2f}x {k} ({anchors[k]:.1f})")
