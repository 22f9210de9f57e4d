#!/bin/sh
# The header compiles as strict C99 and as C++, and a C program linked with
# the object (and nothing else: no runtime, no libm) gets the right answers.
# CC and CFLAGS (the sanitizer flags of `make SAN=1 test`) build the C side.
set -e
CC=${CC:-cc}
SHLOC=$1
OUT=$2/tests/header
here=$(dirname "$0")
mkdir -p "$OUT"
"$SHLOC" "$here/multi.mlir" -o "$OUT/multi.o"
test -f "$OUT/multi.h"
$CC -std=c99 -Wall -Wextra -pedantic -Werror $CFLAGS -I"$OUT" -c "$here/main.c" -o "$OUT/main.o"
printf '#include "multi.h"\nint main() { return hdr_stats_tensors[0].rank == 1 && HDR_ADD3_NUM_ARGS == 2 ? 0 : 1; }\n' > "$OUT/cxx.cc"
g++ -std=c++11 -Wall -Wextra -pedantic -Werror -I"$OUT" "$OUT/cxx.cc" "$OUT/multi.o" -o "$OUT/cxx"
$CC $CFLAGS "$OUT/main.o" "$OUT/multi.o" -o "$OUT/main"
"$OUT/main"
# No private function leaks into the header.
! grep -q "hdr_unused" "$OUT/multi.h"
