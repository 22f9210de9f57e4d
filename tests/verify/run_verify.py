#!/usr/bin/env python3
"""Runs the upstream verifier tests through `shloc --emit=mlir`.

usage: run_verify.py SHLOC FILE.mlir [FILE.mlir ...] [--ops OPS] [--ratchet LIST]
                     [--write LIST] [--roundtrip] [--shloc-args ARGS] [-j N] [-v]

Each FILE is split into cases at `// -----` lines (a file without them, like
ops_stablehlo_roundtrip.mlir, is split at its top-level `func.func`s). Every
case is written to a temporary file in which the other cases' lines are
blanked, so line numbers stay those of FILE, and compiled with
`SHLOC --emit=mlir -o /dev/null CASE` (--shloc-args replaces `--emit=mlir`).

A case carrying `// expected-error@+N {{...}}` (also `@-N`, `@above`,
`@below`, `expected-error-re`, or no offset) agrees when shloc exits with
status 1 and reports an error (`file:LINE:col: error:`) on one of the lines
the annotations name; the message text is not compared. A case without
annotations agrees when shloc exits with status 0.

Only cases whose ops (`stablehlo.xxx` names) are all in the covered list are
considered: --ops takes a comma-separated list, or `@FILE` (one per line);
the default is the ops marked OPF_IMPL in ir/ir.h plus stablehlo.dot and
stablehlo.custom_call (func.* ops are always covered).

--roundtrip also checks the printer on every accepted valid case: the
printed program must compile again and print the same text.

--write LIST writes the ids (`file:line` of each agreeing case's first line)
to LIST. --ratchet LIST fails only when a case listed in LIST disagrees, so
the committed list can only grow. Prints every disagreeing case with the
reason and ends with `N passed, N failed`; exits 1 if any case failed.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
IR_H = os.path.join(HERE, '..', '..', 'ir', 'ir.h')

# Op names: generic `"stablehlo.add"(` or pretty `stablehlo.add %x`; not
# attribute names (`stablehlo.frontend_attributes = `), strings or symbols.
OP_RE = re.compile(r'"(stablehlo\.[a-z_-]+)"\s*\(|(?<![#!\w."@])(stablehlo\.[a-z_]+)\b(?![".])(?!\s*=)')
# Ops of other dialects, generic (`"arith.constant"(`) or pretty
# (`= tensor.cast`): cases using them are not covered.
FOREIGN_RE = re.compile(r'(?:"([a-z_]+)\.[a-z_.]+"\s*\(|=\s*([a-z_]+)\.[a-z_]+\b)')
OWN_DIALECTS = {'stablehlo', 'func', 'check'}
SYMBOL_RE = re.compile(r'@([\w.$-]+)')
EXPECT_RE = re.compile(
    r'//\s*expected-error(?:-re)?\s*(@(?:[+-]\d+|above|below))?\s*\{\{')
DIAG_RE = re.compile(r'^(.*?):(\d+):(\d+): error: (.*)$')


def default_ops():
    """Ops with OPF_IMPL in ir.h, plus dot and custom_call."""
    ops = {'stablehlo.dot', 'stablehlo.custom_call'}
    with open(IR_H) as f:
        for m in re.finditer(r'X\(OP_\w+,\s*"(stablehlo\.\w+)",([^)]*)\)', f.read()):
            if 'OPF_IMPL' in m.group(2):
                ops.add(m.group(1))
    return ops


def parse_ops(arg):
    if arg is None:
        return default_ops()
    if arg.startswith('@'):
        with open(arg[1:]) as f:
            return {l.strip() for l in f if l.strip() and not l.startswith('#')}
    return {o.strip() for o in arg.split(',') if o.strip()}


class Case:
    def __init__(self, path, first, last, lines):
        self.path = path
        self.first, self.last = first, last  # 1-based, inclusive
        self.lines = lines  # all lines of the file
        self.id = '%s:%d' % (os.path.basename(path), first)
        self.keep = set()  # lines of other cases this one needs (callees)
        self.expected = self._expected_lines()

    def body(self):
        return self.lines[self.first - 1:self.last]

    def _expected_lines(self):
        want = set()
        for i in range(self.first, self.last + 1):
            m = EXPECT_RE.search(self.lines[i - 1])
            if not m:
                continue
            off = m.group(1)
            if off is None:
                want.add(i)
            elif off == '@above':
                want.add(i - 1)
            elif off == '@below':
                want.add(i + 1)
            else:
                want.add(i + int(off[1:]))
        return want

    def ops(self):
        text = '\n'.join(l for l in self.body() if not l.lstrip().startswith('//'))
        ops = {a or b for a, b in OP_RE.findall(text)}
        for m in FOREIGN_RE.finditer(text):
            d = m.group(1) or m.group(2)
            if d not in OWN_DIALECTS:
                ops.add(m.group(0).strip('=( "'))
        return ops

    def text(self):
        """The file with every line outside this case (and `keep`) blanked."""
        out = []
        for i, l in enumerate(self.lines, 1):
            out.append(l if self.first <= i <= self.last or i in self.keep else '')
        return '\n'.join(out) + '\n'


def split_cases(path):
    with open(path) as f:
        lines = f.read().split('\n')
    seps = [i for i, l in enumerate(lines, 1) if l.startswith('// -----')]
    if seps:
        bounds, start = [], 1
        for s in seps:
            bounds.append((start, s - 1))
            start = s + 1
        bounds.append((start, len(lines)))
        return [Case(path, a, b, lines) for a, b in bounds]
    # No separators: one case per top-level function; what precedes the
    # first function (attribute aliases) is kept in every case.
    starts = [i for i, l in enumerate(lines, 1) if l.startswith('func.func')]
    if not starts:
        return [Case(path, 1, len(lines), lines)]
    preamble = set(range(1, starts[0]))
    ends = [s - 1 for s in starts[1:]] + [len(lines)]
    cases = [Case(path, a, b, lines) for a, b in zip(starts, ends)]
    # A case keeps the functions it names (callees, composite decompositions),
    # transitively, wherever they are.
    by_name = {}
    for c in cases:
        m = re.match(r'func\.func\s+(?:public\s+|private\s+)?@([\w.$-]+)', lines[c.first - 1])
        if m:
            by_name[m.group(1)] = c
    for c in cases:
        keep, todo, seen = set(preamble), [c], {c.id}
        while todo:
            for callee in SYMBOL_RE.findall('\n'.join(todo.pop().body())):
                d = by_name.get(callee)
                if d and d.id not in seen:
                    seen.add(d.id)
                    todo.append(d)
                    keep.update(range(d.first, d.last + 1))
        c.keep = keep
    return cases


SHLOC_ARGS = ['--emit=mlir', '--stop-after=verify']


def emit(shloc, src, out, timeout):
    """Runs `shloc ARGS -o out src`; returns (status, stderr)."""
    try:
        p = subprocess.run([shloc] + SHLOC_ARGS + ['-o', out, src],
                           capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        return None, 'timed out after %ds' % timeout


def check_roundtrip(shloc, src, timeout):
    """The printed program re-parses, verifies and prints the same text."""
    outs = [src + '.1.mlir', src + '.2.mlir']
    try:
        for i, out in enumerate(outs):
            rc, err = emit(shloc, outs[i - 1] if i else src, out, timeout)
            if rc != 0:
                return 'printed program %s: status %s\n%s' % (
                    'rejected' if i else 'not written', rc, err[-2000:])
        with open(outs[0]) as a, open(outs[1]) as b:
            if a.read() != b.read():
                return 'printing the re-parsed program gives different text'
        return None
    finally:
        for out in outs:
            if os.path.exists(out):
                os.unlink(out)


def run_case(shloc, case, timeout, roundtrip=False):
    """Returns (agrees, reason)."""
    with tempfile.NamedTemporaryFile('w', suffix='.mlir', delete=False) as f:
        f.write(case.text())
        tmp = f.name
    try:
        rc, err = emit(shloc, tmp, '/dev/null', timeout)
        if rc is None:
            return False, err
        if rc == 0 and roundtrip and not case.expected:
            why = check_roundtrip(shloc, tmp, timeout)
            if why:
                return False, why
    finally:
        os.unlink(tmp)
    errors = []
    for l in err.splitlines():
        m = DIAG_RE.match(l)
        if m and m.group(1) == tmp:
            errors.append((int(m.group(2)), m.group(4)))
    first = ('; first error: line %d: %s' % errors[0]) if errors else ''
    if rc < 0 or rc > 1:
        return False, 'crashed or failed with status %d%s\n%s' % (rc, first, err[-2000:])
    if case.expected:
        want = sorted(case.expected)
        if rc == 0:
            return False, 'accepted, expected an error on line %s' % want
        if any(line in case.expected for line, _ in errors):
            return True, ''
        return False, 'expected an error on line %s%s' % (want, first or '; no error reported')
    if rc != 0:
        return False, 'rejected a valid case%s' % first
    return True, ''


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('shloc')
    ap.add_argument('files', nargs='+')
    ap.add_argument('--ops', help='covered ops: a,b,c or @file')
    ap.add_argument('--ratchet', help='ids that must agree')
    ap.add_argument('--write', help='write the agreeing ids here')
    ap.add_argument('-j', type=int, default=os.cpu_count() or 1)
    ap.add_argument('--timeout', type=int, default=20)
    ap.add_argument('-v', action='store_true', help='also list skipped cases')
    ap.add_argument('--shloc-args', default='--emit=mlir --stop-after=verify',
                    help='options before `-o OUT CASE` (default: --emit=mlir --stop-after=verify)')
    ap.add_argument('--roundtrip', action='store_true',
                    help='also check that accepted cases print, re-parse and print the same')
    args = ap.parse_args()
    SHLOC_ARGS[:] = args.shloc_args.split()

    covered = parse_ops(args.ops)
    todo, skipped = [], 0
    for path in args.files:
        for c in split_cases(path):
            extra = c.ops() - covered
            if extra:
                skipped += 1
                if args.v:
                    print('skip %s: %s' % (c.id, ', '.join(sorted(extra))))
                continue
            todo.append(c)

    with concurrent.futures.ThreadPoolExecutor(max(1, args.j)) as ex:
        results = list(ex.map(lambda c: run_case(args.shloc, c, args.timeout, args.roundtrip), todo))

    ratchet = None
    if args.ratchet:
        with open(args.ratchet) as f:
            ratchet = {l.strip() for l in f if l.strip() and not l.startswith('#')}
    agreeing, passed, failed, gated = [], 0, 0, 0
    for c, (ok, reason) in zip(todo, results):
        if ok:
            passed += 1
            agreeing.append(c.id)
            continue
        failed += 1
        gate = ratchet is None or c.id in ratchet
        gated += gate
        print('%s %s: %s' % ('FAIL' if gate else 'fail (not in ratchet)', c.id, reason))
    if ratchet is not None:
        ids = {c.id for c in todo}
        names = {os.path.basename(f) for f in args.files}
        for r in sorted(i for i in ratchet - ids if i.rsplit(':', 1)[0] in names):
            print('FAIL %s: in the ratchet list but not run (not covered or not found)' % r)
            gated += 1
        new = [i for i in agreeing if i not in ratchet]
        if new:
            print('%d agreeing cases are not in %s yet (use --write)' % (len(new), args.ratchet))
    if args.write:
        with open(args.write, 'w') as f:
            f.write(''.join(i + '\n' for i in agreeing))
    print('%d passed, %d failed (%d skipped: ops not covered)' % (passed, failed, skipped))
    sys.exit(1 if gated else 0)


if __name__ == '__main__':
    main()
