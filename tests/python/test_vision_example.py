"""examples/vision/train.py end to end on a tiny budget: fit with callbacks writes the
checkpoints, the best model, the scalar log with its PNG and an inference model."""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "examples", "vision"))

from example_scripts import train_module  # noqa: E402


@pytest.mark.parametrize("extra", [[], ["--to-static"]], ids=["eager", "to_static"])
def test_vision_example_runs(tmp_path, capsys, extra):
    train = train_module("vision")
    res = train.main(["--out", str(tmp_path), "--train-size", "128", "--eval-size", "64",
                      "--epochs", "2", "--batch-size", "32", "--verbose", "2",
                      "--max-minutes", "2"] + extra)
    out = capsys.readouterr().out
    assert "Epoch 2/2" in out and "Eval samples: 64" in out
    assert 0.0 <= res["acc_top1"] <= 1.0
    for f in ("ckpt/0.pdparams", "ckpt/final.pdparams", "ckpt/best_model.pdparams",
              "log/scalars.csv", "log/scalars.png", "inference/model.pdmodel"):
        assert os.path.exists(tmp_path / f), f


def test_shapes_dataset_is_deterministic_and_balanced():
    import numpy as np
    from shapes import CLASSES, make
    a, la = make(300, 24, seed=5)
    b, lb = make(300, 24, seed=5)
    assert a.shape == (300, 24, 24, 3) and a.dtype == np.uint8
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(la, lb)
    assert set(la.tolist()) == set(range(len(CLASSES)))
