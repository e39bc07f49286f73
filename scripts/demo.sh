#!/usr/bin/env bash
# The main job: builds Skiff (with its Python binding), then trains a small Llama on text that
# ships with Debian (Python's standard-library docstrings and license texts) for about eight
# minutes on 2 cores, printing step, loss, tokens/s and ETA, checkpointing to runs/llama/ckpt,
# and finally samples text. Extra arguments go to examples/llama/train.py, e.g.
#   bash scripts/demo.sh --resume          # continue from the last checkpoint
#   bash scripts/demo.sh --max-minutes 2   # a shorter run
# The C++ demo of tensors and operators is build/bin/skiff_demo.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/build.sh"
export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"
exec /usr/bin/python3 "$root/examples/llama/train.py" --out "$root/runs/llama" "$@"
