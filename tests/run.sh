#!/bin/sh
# The test suite: unit tests, file-based tests, the differential test and
# the conformance and verifier ratchets. Closes with `N passed, N failed`.
exec "$(command -v /usr/bin/python3 || command -v python3)" "$(dirname "$0")/run.py" "$@"
