#!/usr/bin/env python3
"""PyTorch to StableHLO on the CPU, end to end: an nn.Module exported with
torch.export and imported as StableHLO by torch-mlir's FX importer
(torch_mlir.fx.export_and_import, output_type="stablehlo"), compiled by
shloc, linked into C (../jax/app.c), run, and compared with PyTorch.

  build/venv/bin/python examples/pytorch/export.py SHLOC WORKDIR

Needs torch and torch-mlir (the torch-mlir wheel on PyPI; torch_xla's
exporter needs torch_xla, whose releases pin older torch versions). The
weights become dense_resource constants with a dialect_resources block.
Prints "pytorch: N values match (max error E)".
"""
import os
import re
import sys

import torch
from torch_mlir import fx

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "jax"))
from roundtrip import compare, compile_and_run  # noqa: E402


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = torch.nn.Linear(64, 128)
        self.l2 = torch.nn.Linear(128, 10)

    def forward(self, x):
        return torch.softmax(self.l2(torch.nn.functional.gelu(self.l1(x))), dim=-1)


def export(model, x):
    text = str(fx.export_and_import(model, x, output_type="stablehlo", func_name="main"))
    # torch-mlir leaves small tensor constants as `arith.constant`, which
    # shloc does not read (it reads stablehlo, chlo, func and check ops): the
    # same constant in stablehlo spelling.
    return re.sub(r"\barith\.constant\b", "stablehlo.constant", text)


def main():
    shloc, work = sys.argv[1], sys.argv[2]
    torch.manual_seed(0)
    model = MLP().eval()
    x = torch.randn(8, 64)
    with torch.no_grad():
        want = model(x).numpy()
    got = compile_and_run(shloc, export(model, x), work, x.numpy(), want.shape)
    return compare("pytorch", got, want)


if __name__ == "__main__":
    sys.exit(main())
