#!/usr/bin/env python3
"""Conformance scoreboard: `shloc check` over the upstream corpus.

Runs every case of $SHARED/conformance/interpret and .../testdata (skipped
with a notice when absent), writes one line per case to
$BUILD/conformance/results.txt (`PASS|FAIL <TAB> file:line <TAB> name: reason`)
and a summary per folder. With --ratchet, fails when a case listed in
tests/conformance/passing.txt no longer passes; --update rewrites that list
from this run (the list may only grow: --update refuses to drop cases).
testdata/dynamic also runs with `shloc check --symbolic` (each file compiled
once without specialization, run at sizes 1, 3, 8 and compared with the
specialized runs); those cases are listed as `symbolic:FILE:LINE`.
"""
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, os.environ.get("BUILD", "build"))
SHARED = os.path.abspath(os.path.join(ROOT, os.environ.get("SHARED", "../shared")))
SHLOC = os.path.join(BUILD, "shloc")
CORPUS = os.path.join(SHARED, "conformance")
PASSING = os.path.join(ROOT, "tests", "conformance", "passing.txt")
JOBS = int(os.environ.get("JOBS", os.cpu_count() or 2))


def case_files(folder):
    top = os.path.join(CORPUS, folder)
    out = []
    for d, _, files in os.walk(top):
        out += [os.path.relpath(os.path.join(d, f), CORPUS) for f in files if f.endswith(".mlir")]
    return sorted(out)


def check_batch(files, extra=()):
    """Runs one `shloc check` over a batch; returns its result lines."""
    fd, res = tempfile_path()
    os.close(fd)
    try:
        # CASE_TIMEOUT: seconds per case; sanitizer builds compile slower.
        case_timeout = os.environ.get("CASE_TIMEOUT")
        timeout = ["--timeout=" + case_timeout] if case_timeout else []
        subprocess.run([SHLOC, "check", "--verify-each", "--results=" + res] + list(extra) + timeout + files,
                       cwd=CORPUS,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=3600)
        with open(res) as f:
            return [l.rstrip("\n") for l in f if l.strip()]
    finally:
        os.unlink(res)


def tempfile_path():
    import tempfile
    return tempfile.mkstemp(prefix="shloc-conf-", suffix=".txt")


def run_folder(folder, extra=(), prefix=""):
    """Result lines of the folder's cases, their locations prefixed."""
    files = case_files(folder)
    batches = [files[i:i + 25] for i in range(0, len(files), 25)]
    lines = []
    with ThreadPoolExecutor(JOBS) as pool:
        for got in pool.map(lambda b: check_batch(b, extra), batches):
            lines += got
    seen = {l.split("\t")[1] for l in lines if l.count("\t") >= 1}
    # A file whose batch died without writing its cases counts as failing.
    for f in files:
        if not any(s.startswith(f + ":") for s in seen):
            lines.append(f"FAIL\t{f}:1\t(file): no result (tool crashed?)")
    return [l.replace("\t", "\t" + prefix, 1) for l in lines]


def main():
    ratchet = "--ratchet" in sys.argv
    update = "--update" in sys.argv
    if not os.path.isdir(CORPUS):
        print(f"NOTICE: {CORPUS} absent; conformance skipped")
        return 0
    out_dir = os.path.join(BUILD, "conformance")
    os.makedirs(out_dir, exist_ok=True)
    results = []
    runs = (("interpret", (), ""), ("testdata", (), ""),
            (os.path.join("testdata", "dynamic"), ("--symbolic",), "symbolic:"))
    for folder, extra, prefix in runs:
        if not os.path.isdir(os.path.join(CORPUS, folder)):
            print(f"NOTICE: {folder}/ absent; skipped")
            continue
        lines = run_folder(folder, extra, prefix)
        npass = sum(l.startswith("PASS") for l in lines)
        print(f"conformance {prefix}{folder}: {npass} passed, {len(lines) - npass} failed")
        results += lines
    with open(os.path.join(out_dir, "results.txt"), "w") as f:
        f.write("\n".join(results) + "\n")
    now = {l.split("\t")[1] for l in results if l.startswith("PASS")}
    listed = set()
    if os.path.exists(PASSING):
        listed = {l.strip() for l in open(PASSING) if l.strip()}
    lost = sorted(listed - now)
    if update:
        if lost:
            print("refusing to drop passing cases:\n  " + "\n  ".join(lost))
            return 1
        with open(PASSING, "w") as f:
            f.write("\n".join(sorted(now | listed)) + "\n")
        print(f"{PASSING}: {len(now | listed)} cases")
    if ratchet and lost:
        print("regressions (listed as passing, now failing):")
        for c in lost:
            why = [l for l in results if l.split("\t")[1] == c]
            print("  " + (why[0] if why else c))
        return 1
    if ratchet:
        print(f"ratchet: all {len(listed)} listed cases pass ({len(now - listed)} new passes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
