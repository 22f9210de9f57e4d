"""ResNet-50 for the bench: the Flax export of ../shared/models at batch N,
and a PyTorch ResNet-50 of the same architecture for the anchors.

Batch N from the batch-1 export. The export's batch dimension is the
leading 1 of the types of the values computed from the image (NHWC
activations, the pooled features, the outputs) and of the constants
broadcast to their shapes; batch-norm parameters (1x1x1xC) and kernels
(HWIO) also start with 1 but are not batched. A textual `1x` -> `Nx`
would confuse the two, so this follows the data flow: values that must have
equal shapes (operands and results of elementwise ops, the data operand and
result of convolution, reduce_window, reshape, transpose, the arguments of
a call and the callee's parameters, returned values and the function's
results) are unified, and the class of @main's first argument gets the new
batch size. A batched value read by broadcast_in_dim as the broadcast
operand is refused (its leading 1 could not stay 1). The result is checked
where it matters: shloc's verifier infers every result type again, and
`make oracle` compares each image of a batch-N run with the batch-1 run of
that image (inference-mode batch norm makes images independent).
"""
import re

import numpy as np

# op lines: `%r = op ...` or `%r:2 = ...`; names are scoped per function
DEF = re.compile(r"^\s*(%[\w#:]+)\s*=\s*\"?([\w.]+)\"?")
NAME = re.compile(r"%[\w]+(?:#\d+)?")
TYPE = re.compile(r"tensor<([^>]*)>")
SAME_SHAPE = {"add", "subtract", "multiply", "divide", "maximum", "minimum", "rsqrt", "sqrt",
              "negate", "exponential", "log", "tanh", "select", "compare", "convert", "abs",
              "logistic", "power", "clamp"}
FOLLOW_FIRST = {"convolution", "reduce_window", "reshape", "transpose", "reduce"}


class Union:
    def __init__(self):
        self.parent = {}

    def find(self, a):
        self.parent.setdefault(a, a)
        while self.parent[a] != a:
            self.parent[a] = self.parent[self.parent[a]]
            a = self.parent[a]
        return a

    def join(self, a, b):
        self.parent[self.find(a)] = self.find(b)


def split_ops(lines):
    """(function name, first line index, last line index) per op; an op
    with regions ends at the line that closes them: `}) ... : types`."""
    func, ops, i = None, [], 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"\s*func\.func (?:public |private )?@(\w+)", line)
        if m:
            func = m.group(1)
            ops.append((func, i, i))
        elif DEF.match(line) or re.match(r"\s*(return|stablehlo\.return)\b", line):
            j = i
            if line.rstrip().endswith("({"):
                depth = 1
                while depth:
                    j += 1
                    depth += lines[j].count("({") - lines[j].count("})")
            ops.append((func, i, j))
            i = j
        i += 1
    return ops


def operand_names(line):
    body = line.split("=", 1)[1] if DEF.match(line) else line
    body = body.split(" : ")[0]
    return NAME.findall(body)


def unify_shapes(lines, ops):
    """Union of the values that must have equal shapes (see the module doc),
    and each function's parameter names."""
    u = Union()
    sigs = {}
    for func, a, b in ops:
        m = re.match(r"\s*func\.func (?:public |private )?@(\w+)\((.*?)\)\s*->", lines[a])
        if m:
            sigs[func] = re.findall(r"(%\w+):", m.group(2))
    for func, a, b in ops:
        line = lines[a]
        key = lambda n: (func, n.split("#")[0].split(":")[0])
        if line.lstrip().startswith("func.func"):
            continue
        if re.match(r"\s*return\b", line):
            for i, n in enumerate(operand_names(line)):
                u.join(key(n), (func, f"result{i}"))
            continue
        d = DEF.match(line)
        if not d:
            continue
        res, op = key(d.group(1)), d.group(2).split(".")[-1]
        names = operand_names(line)
        if op in SAME_SHAPE:
            for n in names:
                u.join(key(n), res)
        elif op in FOLLOW_FIRST and names:
            u.join(key(names[0]), res)
        elif op == "call":
            callee = re.search(r"@(\w+)", line).group(1)
            for n, p in zip(names, sigs.get(callee) or []):
                u.join(key(n), (callee, p))
            u.join(res, (callee, "result0"))
    return u, sigs


def rebatch(text, batch):
    """The batch-1 export rewritten for `batch` images (see the module doc)."""
    lines = text.split("\n")
    ops = split_ops(lines)
    u, sigs = unify_shapes(lines, ops)
    batched = u.find(("main", sigs["main"][0]))

    def is_batched(func, n):
        return u.find((func, n.split("#")[0].split(":")[0])) == batched

    def new(spec):
        return f"tensor<{batch}x{spec[2:]}>"

    for func, a, b in ops:
        line = lines[a]
        m = re.match(r"(\s*func\.func (?:public |private )?@\w+\()(.*?)(\)\s*->)(.*)$", line)
        if m:
            lines[a] = m.group(1) + retype_params(m.group(2), func, is_batched, new) + m.group(3) + \
                retype_results(m.group(4), [u.find((func, f"result{i}")) == batched
                                            for i in range(len(TYPE.findall(m.group(4))))], new)
            continue
        d = DEF.match(line)
        if not d and not re.match(r"\s*return\b", line):
            continue
        flags = [is_batched(func, n) for n in operand_names(line)]
        res = [is_batched(func, d.group(1))] if d else []
        if d and d.group(2).endswith("broadcast_in_dim") and flags and flags[0]:
            raise ValueError(f"line {a + 1}: broadcast of a batched value")
        lines[b] = retype(lines[b], flags, res, new)
    return "\n".join(lines)


def retype_params(params, func, is_batched, new):
    def one(p):
        name, spec = p.group(1), p.group(2)
        return f"{name}: {new(spec) if is_batched(func, name) else 'tensor<' + spec + '>'}"
    return re.sub(r"(%\w+): tensor<([^>]*)>", one, params)


def retype_results(tail, flags, new):
    it = iter(flags)
    return TYPE.sub(lambda t: new(t.group(1)) if next(it) else t.group(0), tail)


def retype(line, operand_flags, result_flags, new):
    """Rewrites the trailing `: types` of an op line: `(A, B) -> R`, or one
    type shared by operands and result, or `return`'s list."""
    head, sep, tail = line.rpartition(" : ")
    if not sep:
        return line
    m = re.match(r"\((.*)\)\s*->\s*(.*)$", tail)
    if m:
        ins = TYPE.findall(m.group(1))
        outs = TYPE.findall(m.group(2))
        ins = [new(t) if f and t.startswith("1x") else f"tensor<{t}>"
               for t, f in zip(ins, operand_flags + [False] * len(ins))]
        outs = [new(t) if f and t.startswith("1x") else f"tensor<{t}>"
                for t, f in zip(outs, result_flags + [False] * len(outs))]
        return f"{head} : ({', '.join(ins)}) -> {', '.join(outs)}"
    flags = result_flags + operand_flags if result_flags else operand_flags
    types = TYPE.findall(tail)
    if len(types) == 1:
        t = types[0]
        return f"{head} : {new(t) if any(flags) and t.startswith('1x') else 'tensor<' + t + '>'}"
    return f"{head} : " + ", ".join(new(t) if f and t.startswith("1x") else f"tensor<{t}>"
                                    for t, f in zip(types, flags))


# ---------------------------------------------------------------------------
# PyTorch ResNet-50 (torchvision-free): the architecture of the Flax export
# (HF ResNet: 7x7/2 stem, 3x3/2 max pool, bottlenecks [3, 4, 6, 3] with the
# stride on the 3x3 conv and a 1x1 projection shortcut on each stage's first
# block, inference batch norm, global average pool), outputs the last
# feature map and the pooled features like the export. Weights are random
# with the export's shapes (not mapped from the export's constants).


def torch_resnet50(seed=3):
    import torch
    from torch import nn
    torch.manual_seed(seed)

    def conv_bn(cin, cout, k, stride):
        return nn.Sequential(nn.Conv2d(cin, cout, k, stride, k // 2, bias=False), nn.BatchNorm2d(cout))

    class Bottleneck(nn.Module):
        def __init__(self, cin, mid, stride):
            super().__init__()
            cout = mid * 4
            self.body = nn.Sequential(conv_bn(cin, mid, 1, 1), nn.ReLU(), conv_bn(mid, mid, 3, stride),
                                      nn.ReLU(), conv_bn(mid, cout, 1, 1))
            self.short = conv_bn(cin, cout, 1, stride) if stride != 1 or cin != cout else nn.Identity()

        def forward(self, x):
            return torch.relu(self.body(x) + self.short(x))

    class ResNet50(nn.Module):
        def __init__(self):
            super().__init__()
            blocks, cin = [], 64
            for i, (mid, n) in enumerate(((64, 3), (128, 4), (256, 6), (512, 3))):
                for j in range(n):
                    blocks.append(Bottleneck(cin, mid, 2 if j == 0 and i > 0 else 1))
                    cin = mid * 4
            self.stem = nn.Sequential(conv_bn(3, 64, 7, 2), nn.ReLU(), nn.MaxPool2d(3, 2, 1))
            self.blocks = nn.Sequential(*blocks)

        def forward(self, x):
            y = self.blocks(self.stem(x))
            return y, y.mean((2, 3), keepdim=True)

    m = ResNet50()
    for mod in m.modules():  # non-trivial statistics, as in a trained model
        if isinstance(mod, nn.BatchNorm2d):
            mod.running_mean.uniform_(-0.1, 0.1)
            mod.running_var.uniform_(0.5, 1.5)
    return m.eval()


def resnet_input(batch, seed=5):
    return np.random.default_rng(seed).random((batch, 3, 224, 224)).astype(np.float32)
