#!/bin/sh
# make anchors: the virtual environment build/venv with the anchors of the
# same-run bench and the XLA oracle (jax/jaxlib, onnxruntime, onnx, torch,
# numpy). Never system-wide; quick when already set up (a stamp holds the
# requirements it was made from).
#
# torch==2.13.0 from PyPI is the CUDA 13 build: its CUDA libraries come
# either from the CUDA 13 toolkit already on the machine (then only the four
# small ones the toolkit lacks are installed, ~0.5 GB) or, without a
# toolkit, from PyPI's nvidia-* packages (several GB). PyTorch never uses
# the GPU here: the bench runs it on the CPU.
set -e
BUILD=${BUILD:-build}
VENV="$BUILD/venv"
PY=/usr/bin/python3
REQS="jax==0.10.2 jaxlib==0.10.2 onnxruntime==1.32.0 onnx==1.23.2 numpy==2.4.6
sympy networkx jinja2 fsspec filelock typing_extensions"
TORCH="torch==2.13.0"
# what torch 2.13.0 needs beyond a CUDA 13.0 toolkit (its ldd, checked)
TORCH_EXTRA="nvidia-cufile==1.15.1.6 nvidia-cusparselt-cu13==0.8.1 nvidia-nvshmem-cu13==3.4.5
nvidia-nccl-cu13==2.29.7"
STAMP="$VENV/.anchors-stamp"
want=$(printf '%s\n%s\n%s\n' "$REQS" "$TORCH" "$TORCH_EXTRA")

if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ]; then
  echo "anchors: $VENV is up to date"
  exit 0
fi
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
"$VENV/bin/pip" install -q $REQS
if ldconfig -p | grep -q 'libcudart\.so\.13 '; then
  "$VENV/bin/pip" install -q --no-deps $TORCH $TORCH_EXTRA
else
  "$VENV/bin/pip" install -q $TORCH
fi
"$VENV/bin/python" -c "import jax, jaxlib, onnxruntime, onnx, torch; \
print('anchors: jax', jax.__version__, 'onnxruntime', onnxruntime.__version__, 'torch', torch.__version__)"
printf '%s\n' "$want" > "$STAMP"
