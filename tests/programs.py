"""The programs of tests/run that the deployment tests (cross, baremetal)
compile for other targets: every one but the `// RUN-CMD: check` programs,
whose check ops only `shloc check` accepts; and reading an object's
sections."""
import os
import re
import subprocess


def deployable(root):
    """Paths of the tests/run programs that compile to a plain object."""
    d = os.path.join(root, "tests", "run")
    paths = [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith(".mlir")]
    return [p for p in paths
            if not re.search(r"^// RUN-CMD: check$", open(p).read(), re.M)]


def sections(readelf, obj):
    """{name: size} of the object's sections (llvm-readelf -S)."""
    r = subprocess.run([readelf, "-S", "-W", obj], capture_output=True, text=True, timeout=60)
    out = {}
    for line in r.stdout.splitlines():
        f = line.replace("[ ", "[").split()
        if len(f) > 6 and f[0].startswith("[") and f[0] != "[Nr]":
            out[f[1]] = int(f[5], 16)
    return out
