"""skiff.save / skiff.load: Paddle's pickle format, nested objects, atomic writes, errors."""
import io
import os
import pickle

import numpy as np
import pytest

import skiff
import skiff.nn as nn


def test_state_dict_round_trip(tmp_path):
    skiff.seed(1)
    model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
    path = str(tmp_path / "sub" / "model.pdparams")
    skiff.save(model.state_dict(), path)
    loaded = skiff.load(path)
    assert list(loaded) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    for k, v in model.state_dict().items():
        assert isinstance(loaded[k], skiff.Tensor)
        np.testing.assert_array_equal(loaded[k].numpy(), v.numpy())
    other = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
    missing, unexpected = other.set_state_dict(loaded)
    assert missing == [] and unexpected == []
    x = skiff.to_tensor(np.random.rand(5, 4).astype(np.float32))
    np.testing.assert_array_equal(model(x).numpy(), other(x).numpy())
    assert not [f for f in os.listdir(tmp_path / "sub") if f.endswith(".tmp")]


def test_nested_objects_tensors_and_numpy(tmp_path):
    t = skiff.to_tensor(np.arange(6, dtype=np.float64).reshape(2, 3))
    obj = {"a": [t, 3, "x"], "b": {"c": (t, np.ones(2))}, "step": 7}
    path = str(tmp_path / "obj.pkl")
    skiff.save(obj, path)
    back = skiff.load(path)
    assert back["step"] == 7 and back["a"][1:] == [3, "x"]
    np.testing.assert_array_equal(back["a"][0].numpy(), t.numpy())
    assert isinstance(back["b"]["c"][1], np.ndarray)
    as_numpy = skiff.load(path, return_numpy=True)
    assert isinstance(as_numpy["a"][0], np.ndarray)
    single = str(tmp_path / "t.pdtensor")
    skiff.save(t, single)
    np.testing.assert_array_equal(skiff.load(single).numpy(), t.numpy())
    buf = io.BytesIO()
    skiff.save({"t": t}, buf)
    buf.seek(0)
    np.testing.assert_array_equal(skiff.load(buf)["t"].numpy(), t.numpy())


def test_files_in_paddles_format_load(tmp_path):
    # What paddle.save writes for a state dict: name -> (param name, ndarray)
    path = str(tmp_path / "paddle.pdparams")
    with open(path, "wb") as f:
        pickle.dump({"fc.weight": ("linear_0.w_0", np.ones((2, 2), np.float32))}, f, protocol=4)
    loaded = skiff.load(path)
    assert isinstance(loaded["fc.weight"], skiff.Tensor)
    skiff.save({"w": skiff.to_tensor(np.zeros(2, np.float32))}, str(tmp_path / "ours.pdparams"))
    with open(str(tmp_path / "ours.pdparams"), "rb") as f:
        raw = pickle.load(f)
    assert isinstance(raw["w"], tuple) and isinstance(raw["w"][1], np.ndarray)


def test_atomic_write_keeps_the_old_file(tmp_path, monkeypatch):
    path = str(tmp_path / "ckpt.pdparams")
    skiff.save({"v": 1}, path)

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        skiff.save({"v": 2}, path)
    monkeypatch.undo()
    assert skiff.load(path) == {"v": 1}
    assert os.listdir(tmp_path) == ["ckpt.pdparams"]


def test_errors(tmp_path):
    with pytest.raises(ValueError, match="protocol"):
        skiff.save({}, str(tmp_path / "x"), protocol=5)
    with pytest.raises(ValueError, match="directory"):
        skiff.save({}, str(tmp_path))
    with pytest.raises(ValueError, match="does not exist"):
        skiff.load(str(tmp_path / "missing"))
    bad = tmp_path / "bad.pdparams"
    skiff.save({"w": np.zeros(100)}, str(bad))
    data = bad.read_bytes()
    bad.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="bad.pdparams.*truncated or corrupt"):
        skiff.load(str(bad))
    with pytest.raises(TypeError, match="path"):
        skiff.save({}, 3)
