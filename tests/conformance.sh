#!/bin/sh
# The conformance scoreboard; see tests/conformance.py.
exec python3 "$(dirname "$0")/conformance.py" "$@"
