"""The programs of tests/run that the deployment tests (cross, baremetal)
compile for other targets: every one but the `// RUN-CMD: check` programs,
whose check ops only `shloc check` accepts, and the `// HOST-ONLY: why`
programs (an option some targets lack)."""
import os
import re


def deployable(root):
    """Paths of the tests/run programs that compile to a plain object."""
    d = os.path.join(root, "tests", "run")
    paths = [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith(".mlir")]
    return [p for p in paths
            if not re.search(r"^// (RUN-CMD: check|HOST-ONLY: .*)$", open(p).read(), re.M)]
