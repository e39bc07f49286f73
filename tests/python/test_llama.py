"""The main job's pieces: tokenizer, the Llama model, and a tiny end-to-end run of
examples/llama/train.py with a checkpoint, resume and sampling."""
import os
import sys

import numpy as np
import pytest

import skiff

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "examples", "llama"))

from model import Llama, LlamaConfig, apply_rope, num_params  # noqa: E402
from tokenizer import ByteBPE  # noqa: E402

from example_scripts import train_module  # noqa: E402

TEXT = ("The quick brown fox jumps over the lazy dog. " * 20 +
        "Return the value of the attribute, or the default if it is missing. " * 20)


def test_tokenizer_round_trip_and_merges(tmp_path):
    tok = ByteBPE.train(TEXT, 300)
    assert tok.vocab_size == 300
    ids = tok.encode(TEXT)
    assert len(ids) < len(TEXT.encode()) / 2
    assert tok.decode(ids) == TEXT
    assert tok.decode(tok.encode("ünïcode ✓")) == "ünïcode ✓"
    tok.save(str(tmp_path / "tok.json"))
    assert ByteBPE.load(str(tmp_path / "tok.json")).encode(TEXT) == ids
    with pytest.raises(ValueError, match="vocab_size"):
        ByteBPE.train(TEXT, 100)


def test_rope_is_a_rotation():
    x = skiff.to_tensor(np.random.default_rng(0).standard_normal((1, 3, 2, 8)).astype(np.float32))
    ang = np.random.default_rng(1).uniform(0, 6, (3, 1, 4)).astype(np.float32)
    ang = np.concatenate([ang, ang], -1)
    sin = np.sin(ang)
    sin[..., :4] *= -1
    y = apply_rope(x, skiff.to_tensor(np.cos(ang)), skiff.to_tensor(sin)).numpy()
    np.testing.assert_allclose(np.linalg.norm(y, axis=-1), np.linalg.norm(x.numpy(), axis=-1),
                               rtol=1e-5)
    xv = x.numpy()
    x1, x2 = xv[..., :4], xv[..., 4:]
    ref = xv * np.cos(ang) + np.concatenate([-x2, x1], -1) * np.sin(ang)
    np.testing.assert_allclose(y, ref, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("tie", [False, True])
def test_model_trains_on_a_repeated_text(tie):
    skiff.seed(0)
    tok = ByteBPE.train(TEXT, 320)
    ids = np.array(tok.encode(TEXT), np.int64)
    cfg = LlamaConfig(vocab_size=tok.vocab_size, dim=32, n_layers=2, n_heads=2, hidden_dim=64,
                      max_seq_len=32, tie_embeddings=tie)
    model = Llama(cfg)
    n_embed = 320 * 32
    assert num_params(model) == (2 * n_embed if not tie else n_embed) + 32 + \
        2 * (4 * 32 * 32 + 3 * 32 * 64 + 2 * 32)
    logits = model(skiff.to_tensor(ids[None, :16]))
    assert logits.shape == [1, 16, 320]
    opt = skiff.optimizer.AdamW(3e-3, parameters=model.parameters(), weight_decay=0.0)
    rng = np.random.default_rng(0)
    losses = []
    for _ in range(30):
        starts = rng.integers(0, len(ids) - 33, 4)
        batch = np.stack([ids[s:s + 33] for s in starts])
        loss = model.loss(skiff.to_tensor(batch[:, :-1]), skiff.to_tensor(batch[:, 1:]))
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    assert losses[0] > 5.0 and np.mean(losses[-5:]) < losses[0] - 1.5
    out = model.generate(skiff.to_tensor(ids[None, :4]), 5, temperature=0.0)
    assert out.shape == (5,) and (out < 320).all()


def test_train_script_checkpoints_resumes_and_samples(tmp_path, capsys):
    train = train_module("llama")
    out = str(tmp_path / "run")
    common = ["--out", out, "--corpus-bytes", "30000", "--vocab", "300", "--dim", "32",
              "--layers", "1", "--heads", "2", "--hidden", "64", "--seq-len", "32",
              "--batch-size", "4", "--ckpt-every", "3", "--eval-every", "3", "--warmup", "2",
              "--sample-tokens", "8"]
    train.main(common + ["--steps", "3"])
    text = capsys.readouterr().out
    assert "step     3/3" in text and "--- sample" in text
    for f in ("model.pdparams", "opt.pdopt", "meta.pkl"):
        assert os.path.exists(os.path.join(out, "ckpt", f))
    train.main(common + ["--steps", "5", "--resume"])
    text = capsys.readouterr().out
    assert "resumed from step 3" in text and "step     5/5" in text
    assert skiff.load(os.path.join(out, "ckpt", "meta.pkl"))["step"] == 5
    train.main(common + ["--sample-only", "--prompt", "The"])
    assert "--- sample" in capsys.readouterr().out


def test_train_script_to_static_matches_eager(tmp_path, capsys):
    """--to-static captures the whole step (forward, backward, global-norm clip, AdamW with the
    lr set every step) into one program: the same validation loss as eager training."""
    train = train_module("llama")
    common = ["--corpus-bytes", "30000", "--vocab", "300", "--dim", "32", "--layers", "1",
              "--heads", "2", "--hidden", "64", "--seq-len", "32", "--batch-size", "4",
              "--ckpt-every", "100", "--eval-every", "100", "--warmup", "2", "--steps", "6",
              "--sample-tokens", "4"]
    val = []
    for extra in ([], ["--to-static"]):
        train.main(common + ["--out", str(tmp_path / f"run{len(extra)}")] + extra)
        text = capsys.readouterr().out
        val.append(text.split("validation loss ")[-1].split()[0])
    assert val[0] == val[1]
