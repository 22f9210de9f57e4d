"""The programs of tests/run that the deployment tests (cross, baremetal)
compile for other targets: every one but the `// RUN-CMD: check` programs,
whose check ops only `shloc check` accepts, the `// HOST-ONLY: why`
programs (an option some targets lack), the grid programs (`spmd_*`:
their objects need the runtime and a grid of processes), and the dynamic
ones (`?` in an argument type of @main), whose symbolic entries take
sizes the generic driver does not pass (`shloc run` binds them on the
host); and reading an object's sections."""
import os
import re
import subprocess

DYNAMIC_ENTRY = re.compile(r"@main\([^\n]*\?[^\n]*\)\s*->")


def deployable(root):
    """Paths of the tests/run programs that compile to a plain object."""
    d = os.path.join(root, "tests", "run")
    paths = [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith(".mlir")]
    texts = {p: open(p).read() for p in paths}
    return [p for p in paths
            if not re.search(r"^// (RUN-CMD: check|HOST-ONLY: .*)$", texts[p], re.M)
            and not os.path.basename(p).startswith("spmd_")
            and not DYNAMIC_ENTRY.search(texts[p])]


def also_runs(text):
    """The args of a program's `// RUN-ALSO: args` lines: each one more run
    (or compile) of the program with those args added."""
    return re.findall(r"^// RUN-ALSO: (.*)$", text, re.M)


def sections(readelf, obj):
    """{name: size} of the object's sections (llvm-readelf -S)."""
    r = subprocess.run([readelf, "-S", "-W", obj], capture_output=True, text=True, timeout=60)
    out = {}
    for line in r.stdout.splitlines():
        f = line.replace("[ ", "[").split()
        if len(f) > 6 and f[0].startswith("[") and f[0] != "[Nr]":
            out[f[1]] = int(f[5], 16)
    return out


class Tally:
    """The PASS/FAIL lines of a test script, counted: close() prints the
    closing `N passed, N failed` line and returns the exit status."""

    def __init__(self, prefix=""):
        self.prefix = prefix
        self.passed = self.failed = 0

    def report(self, name, why):
        """PASS name when why is None, else FAIL name: why."""
        if why:
            self.failed += 1
            print(f"FAIL {self.prefix}{name}: {why}", flush=True)
        else:
            self.passed += 1
            print(f"PASS {self.prefix}{name}", flush=True)

    def close(self):
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0


def run(cmd, timeout=300):
    """A command's completed process, output captured as text."""
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
