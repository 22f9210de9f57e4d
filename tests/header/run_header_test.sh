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
# A program without runtime ops keeps its header byte for byte (no process
# context, no grid macros): the header of multi.mlir is the one before SPMD.
cmp "$OUT/multi.h" "$here/multi.h.expected"
# A grid program: the entry takes a shlort_proc, the header declares
# __grid and the grid size; it runs over threads with libshlort.a and
# refuses a grid of another size.
"$SHLOC" "$here/grid.mlir" -o "$OUT/grid.o"
grep -q "struct shlort_proc \*proc);" "$OUT/grid.h"
printf '#include "grid.h"\nint main() { return GRD_STEP_NUM_REPLICAS == 4 ? 0 : 1; }\n' > "$OUT/gridxx.cc"
g++ -std=c++11 -Wall -Wextra -pedantic -Werror -I"$OUT" -c "$OUT/gridxx.cc" -o "$OUT/gridxx.o"
printf '#include "grid.h"\nint grid_c99(void) { return GRD_STEP_NUM_PARTITIONS; }\n' > "$OUT/grid99.c"
$CC -std=c99 -Wall -Wextra -pedantic -Werror $CFLAGS -I"$OUT" -c "$OUT/grid99.c" -o "$OUT/grid99.o"
$CC -std=c11 -Wall -Wextra -pedantic -Werror $CFLAGS -I"$OUT" -I"$here/../../runtime" \
  -c "$here/grid_main.c" -o "$OUT/grid_main.o"
$CC $CFLAGS "$OUT/grid_main.o" "$OUT/grid.o" "$2/libshlort.a" -pthread -lm -o "$OUT/grid_main"
"$OUT/grid_main" | grep -q "compiled for a 4x1 grid, runs on a 2x1 grid"
