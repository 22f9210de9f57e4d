#!/usr/bin/env python3
"""Lint: no call in codegen/*.c or passes/*.c has two arguments that both
emit (LLVM instructions, or ops and symbolic sizes of shloc's IR), and no
initializer list has two such elements.

C leaves the order in which a call's arguments (and an initializer list's
elements) are evaluated unspecified: gcc on x86-64 evaluates call arguments
right to left, clang left to right. Two emitting arguments would reach the
LLVM builder, or shloc's own (ir_build: ops in program order; dx_*: size
expressions numbered as interned), in the order of the compiler that built
shloc, and the objects of a clang-built shloc would differ from those of a
gcc-built one. Such arguments are hoisted into named locals
(docs/architecture.md, "Codegen").

An emitting call is one to a function taking an LLVMBuilderRef, a
pointer to a Builder (ir/ir.h: shloc's IR builder), a pointer to a
SymInfo that is not const (its expression table), or a pointer to a
context (below), less the ones listed as making only constants, or one
through a function pointer passing such an argument. Needs clang-query-19
(Debian clang-tools-19).
Usage: tools/eval_order.py [FILE.c...] (default: codegen/*.c, passes/*.c).
Prints each site as file:line:col and exits 1 if there is one."""
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLANG_QUERY = os.environ.get("CLANG_QUERY", "clang-query-19")
LLVM_CONFIG = os.environ.get("LLVM_CONFIG", "llvm-config-19")

# shloc's IR builder and a function's expression table, written to through
# a pointer (a const SymInfo is only read: dx_str, dx_eval).
IR_STATE = ('pointsTo(qualType(unless(isConstQualified()), hasCanonicalType(recordType('
            'hasDeclaration(recordDecl(hasAnyName("Builder", "SymInfo")))))))')
# A context: a struct holding the builder (LLVMBuilderRef), a CG pointer, a
# Builder or a pointer to one, a SymInfo pointer, or holding such a struct
# (winograd.c's Wino holds a Gemm), found by its fields so that a new
# context is covered by itself. Not seen: a struct holding a pointer to a
# context, a context passed by value, a context nested three deep (none in
# codegen/ or passes/).
HOLDS = ('hasType(anyOf(asString("LLVMBuilderRef"), pointsTo(typedefNameDecl(hasName("CG"))), '
         f'{IR_STATE}, asString("Builder")))')
# Helpers that take a context but only build constants (no instruction,
# no global): their order does not matter.
CONSTANT_MAKERS = ["cg_i64", "cg_i32", "cg_i1", "cg_f32", "cg_f64", "i32", "i32c", "i64c", "u32c", "K", "KI", "KB"]
# The most arguments and initializer elements checked.
MAX_ARGS, MAX_INITS = 14, 16


def query():
    direct = f"recordDecl(anyOf(hasName(\"CG\"), has(fieldDecl({HOLDS}))))"
    ctx = f"recordDecl(anyOf({direct}, has(fieldDecl(hasType(qualType(hasCanonicalType(recordType(hasDeclaration({direct})))))))))"
    to_ctx = f"pointsTo(qualType(hasCanonicalType(recordType(hasDeclaration({ctx})))))"
    builder = 'asString("LLVMBuilderRef")'
    emitting = (
        "callExpr(anyOf(callee(functionDecl("
        f"anyOf(hasAnyParameter(hasType({builder})), hasAnyParameter(hasType({to_ctx})), "
        f"hasAnyParameter(hasType({IR_STATE}))), "
        f'unless(matchesName("^::({"|".join(CONSTANT_MAKERS)})$")))), '
        # a call through a function pointer (CxUnary, CgOpImpl) that passes a context
        f"allOf(unless(callee(functionDecl())), hasAnyArgument(hasType(anyOf({builder}, {to_ctx}, {IR_STATE}))))))")
    emits = "anyOf(E, hasDescendant(E))"
    calls = [f"callExpr(hasArgument({i}, {emits}), hasArgument({j}, {emits}))"
             for i in range(MAX_ARGS) for j in range(i + 1, MAX_ARGS)]
    inits = [f"initListExpr(hasInit({i}, {emits}), hasInit({j}, {emits}))"
             for i in range(MAX_INITS) for j in range(i + 1, MAX_INITS)]
    return "\n".join([
        "set output diag", "set bind-root false", "let E " + emitting,
        "match expr(anyOf(" + ", ".join(calls + inits) + ')).bind("site")', ""])


def sites(path, script, cflags):
    r = subprocess.run([CLANG_QUERY, "-f", script, path, "--", "-std=c11", "-D_GNU_SOURCE"] + cflags,
                       capture_output=True, text=True)
    found = re.findall(r"^(\S+:\d+:\d+): note: \"site\" binds here\n(.*)", r.stdout, re.M)
    if r.returncode or "error:" in r.stdout + r.stderr:
        sys.exit(f"{path}: clang-query failed\n{(r.stdout + r.stderr)[-2000:]}")
    return [f"{loc}: two emitting arguments\n{src}" for loc, src in found]


def main(argv):
    files = argv or sorted(glob.glob(os.path.join(ROOT, "codegen", "*.c")) +
                          glob.glob(os.path.join(ROOT, "passes", "*.c")))
    cflags = subprocess.run([LLVM_CONFIG, "--cflags"], capture_output=True, text=True,
                            check=True).stdout.split()
    script = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"eval_order.{os.getpid()}.q")
    with open(script, "w") as f:
        f.write(query())
    try:
        found = [s for path in files for s in sites(path, script, cflags)]
    finally:
        os.unlink(script)
    print("\n".join(found))
    print(f"{len(found)} sites in {len(files)} files")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
