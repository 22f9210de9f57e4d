#!/bin/sh
# The conformance scoreboard; see tests/conformance.py.
exec "$(command -v /usr/bin/python3 || command -v python3)" "$(dirname "$0")/conformance.py" "$@"
