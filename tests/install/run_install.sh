#!/bin/sh
# `make install` into a temporary prefix, then tests/install/app.c (which
# compares dense.mlir's results with plain C) built against the installed
# files the two ways users do: pkg-config, and CMake's find_package(shloc)
# with shloc_add_model. Prints "SKIP: why" when pkg-config or cmake is
# missing. usage: run_install.sh ROOT BUILD SHARED
set -e
ROOT=$1
BUILD=$2
SHARED=$3
here=$ROOT/tests/install
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for tool in pkg-config cmake; do
  command -v $tool >/dev/null || { echo "SKIP: $tool not installed (make deps)"; exit 0; }
done
make -s -C "$ROOT" install PREFIX="$tmp/prefix" BUILD="$BUILD" >/dev/null
test -x "$tmp/prefix/bin/shloc" -a -f "$tmp/prefix/lib/libshlort.a" -a -f "$tmp/prefix/include/shlort.h"
# --version names the package version and, built beside the corpus, its commit.
"$tmp/prefix/bin/shloc" --version > "$tmp/version"
grep -q "^shloc $(pkg-config --modversion "$tmp/prefix/lib/pkgconfig/shlort.pc") (LLVM 19" "$tmp/version"
grep -q "^StableHLO specification: " "$tmp/version"
commit=$SHARED/conformance/UPSTREAM_COMMIT
if [ -f "$commit" ]; then
  grep -q "^conformance corpus: openxla/stablehlo $(cat "$commit")$" "$tmp/version"
fi

# pkg-config: the compiler is the package's `shloc` variable. app.c is
# copied so that its #include "dense.h" finds the header written beside it.
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
mkdir "$tmp/pc"
cp "$here/app.c" "$tmp/pc/"
"$(pkg-config --variable=shloc shlort)" "$here/dense.mlir" --threads=2 -o "$tmp/pc/dense.o"
cc -std=c99 -Wall -Wextra -O2 $(pkg-config --cflags shlort) "$tmp/pc/app.c" "$tmp/pc/dense.o" \
  $(pkg-config --libs shlort) -o "$tmp/pc/app"
"$tmp/pc/app" | grep "^dense: 65536 values match plain C$"

# CMake: configure, build (shloc runs as a build step), run.
cmake -S "$here" -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/cmake" >/dev/null
"$tmp/cmake/dense_app" | grep "^dense: 65536 values match plain C$"
"$tmp/cmake/dense_serial" | grep "^dense: 65536 values match plain C$"
# With --threads=2 the object needs the runtime and shloc_add_model linked
# it; without, the program is the object and app.c alone.
nm "$tmp/cmake/dense_app" | grep -q " T shlort_parallel_for$"
! nm "$tmp/cmake/dense_serial" | grep -q shlort_

make -s -C "$ROOT" uninstall PREFIX="$tmp/prefix"
test ! -e "$tmp/prefix/bin/shloc" -a ! -e "$tmp/prefix/lib/cmake/shloc"
