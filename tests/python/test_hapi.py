"""paddle.Model, paddle.callbacks, the progress bar and paddle.metric."""
import io
import os
import sys

import numpy as np
import pytest

import skiff as paddle
from skiff import nn
from skiff.hapi.progressbar import ProgressBar
from skiff.io import Dataset
from skiff.static import InputSpec


class _Blobs(Dataset):
    """Two Gaussian blobs in 8 dims: class = sign of the first coordinate."""

    def __init__(self, n, seed=0):
        rng = np.random.RandomState(seed)
        self.x = rng.randn(n, 8).astype("float32")
        self.x[:, 0] += np.where(self.x[:, 0] > 0, 1.0, -1.0)
        self.y = (self.x[:, :1] > 0).astype("int64")

    def __getitem__(self, i):
        return self.x[i], self.y[i]

    def __len__(self):
        return len(self.x)


def _net():
    paddle.seed(1)
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))


def _model(inputs=None, labels=None, metrics=True, lr=0.05):
    net = _net()
    m = paddle.Model(net, inputs, labels)
    m.prepare(paddle.optimizer.Adam(lr, parameters=net.parameters()), nn.CrossEntropyLoss(),
              paddle.metric.Accuracy() if metrics else None)
    return m


def test_fit_lowers_loss_and_evaluates():
    m = _model()
    before = m.evaluate(_Blobs(64, 1), batch_size=32, verbose=0)["loss"][0]
    m.fit(_Blobs(256), batch_size=32, epochs=3, verbose=0)
    res = m.evaluate(_Blobs(64, 1), batch_size=32, verbose=0)
    assert res["loss"][0] < before * 0.7
    assert res["acc"] > 0.9
    out = m.predict(_Blobs(64, 1), batch_size=32, stack_outputs=True, verbose=0)
    assert len(out) == 1 and out[0].shape == (64, 2)
    per_batch = m.predict(_Blobs(40, 1), batch_size=16, verbose=0)
    assert [o.shape[0] for o in per_batch[0]] == [16, 16, 8]


def test_fit_through_to_static_matches_eager():
    specs = [InputSpec([None, 8], "float32", "x")], [InputSpec([None, 1], "int64", "label")]
    eager, static = _model(), _model(*specs)
    data = _Blobs(100)  # 100 = 3 x 32 + 4: the last batch is smaller
    eager.fit(data, batch_size=32, epochs=2, verbose=0, shuffle=False)
    static.fit(data, batch_size=32, epochs=2, verbose=0, shuffle=False)
    assert static._static_steps, "the static path was not taken"
    for a, b in zip(eager.parameters(), static.parameters()):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=2e-4, atol=2e-5)


def test_train_eval_predict_batch():
    m = _model()
    ds = _Blobs(16)
    loss, metrics = m.train_batch([ds.x], [ds.y])
    assert np.asarray(loss[0]).size == 1 and 0.0 <= metrics[0] <= 1.0
    loss2, _ = m.eval_batch([ds.x], [ds.y])
    assert np.asarray(loss2[0]).size == 1
    (pred,) = m.predict_batch([ds.x])
    assert pred.shape == (16, 2)


def test_accumulate_grad_batches_steps_less_often():
    net = _net()
    opt = paddle.optimizer.SGD(0.1, parameters=net.parameters())
    m = paddle.Model(net)
    m.prepare(opt, nn.CrossEntropyLoss())
    calls = []
    orig = opt.step
    opt.step = lambda: (calls.append(1), orig())
    m.fit(_Blobs(64), batch_size=8, epochs=1, verbose=0, accumulate_grad_batches=4)
    assert len(calls) == 2


def test_save_load_roundtrip(tmp_path):
    m = _model()
    m.fit(_Blobs(64), batch_size=32, epochs=1, verbose=0)
    path = str(tmp_path / "ck" / "m")
    m.save(path)
    assert os.path.exists(path + ".pdparams") and os.path.exists(path + ".pdopt")
    m2 = _model()
    m2.load(path)
    for a, b in zip(m.parameters(), m2.parameters()):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    bad = paddle.Model(nn.Sequential(nn.Linear(8, 3)))
    with pytest.raises(ValueError, match="shape"):
        bad.load(path)
    with pytest.raises(ValueError, match="no file"):
        m2.load(str(tmp_path / "missing"))


def test_save_inference_model(tmp_path):
    m = _model([InputSpec([None, 8], "float32", "x")])
    path = str(tmp_path / "infer" / "m")
    m.save(path, training=False)
    layer = paddle.jit.load(path)
    x = _Blobs(4).x
    np.testing.assert_allclose(layer(paddle.to_tensor(x)).numpy(),
                               m.predict_batch([x])[0], rtol=1e-5, atol=1e-6)
    with pytest.raises(RuntimeError, match="input shapes"):
        _model().save(str(tmp_path / "x"), training=False)


def test_prepare_and_fit_errors():
    net = _net()
    m = paddle.Model(net)
    with pytest.raises(RuntimeError, match="prepare"):
        m.train_batch([np.zeros((2, 8), "float32")], [np.zeros((2, 1), "int64")])
    with pytest.raises(TypeError, match="not sub class of Metric"):
        m.prepare(paddle.optimizer.SGD(0.1, parameters=net.parameters()), nn.MSELoss(),
                  metrics=[object()])
    with pytest.raises(TypeError, match="loss"):
        m.prepare(None, loss=3)
    with pytest.raises(TypeError, match="batch_size"):
        _model().fit(_Blobs(8), batch_size="4", verbose=0)
    with pytest.raises(TypeError, match="Callback"):
        _model().fit(_Blobs(8), batch_size=4, verbose=0, callbacks=[object()])
    with pytest.raises(TypeError, match="Layer"):
        paddle.Model(lambda x: x)


class _Recorder(paddle.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.events = []

    def __getattribute__(self, name):
        if name.startswith("on_"):
            events = object.__getattribute__(self, "events")
            return lambda *a: events.append(name)
        return object.__getattribute__(self, name)


def test_callbacks_fire_in_paddles_order():
    rec = _Recorder()
    m = _model()
    m.fit(_Blobs(8), _Blobs(4), batch_size=4, epochs=2, verbose=0, callbacks=[rec])
    epoch = ["on_epoch_begin"] + ["on_train_batch_begin", "on_train_batch_end"] * 2 + \
        ["on_epoch_end", "on_eval_begin", "on_eval_batch_begin", "on_eval_batch_end",
         "on_eval_end"]
    assert rec.events == ["on_train_begin"] + epoch * 2 + ["on_train_end"]
    rec.events.clear()
    m.predict(_Blobs(4), batch_size=2, verbose=0, callbacks=[rec])
    assert rec.events == ["on_predict_begin"] + ["on_predict_batch_begin",
                                                 "on_predict_batch_end"] * 2 + ["on_predict_end"]
    assert rec.params["metrics"] == []  # predict logs no metrics


def test_early_stopping_and_best_model(tmp_path):
    m = _model(lr=0.0)  # no progress: the monitored loss never improves after epoch 0
    es = paddle.callbacks.EarlyStopping(monitor="loss", mode="min", patience=1, verbose=0)
    epochs = []

    class Count(paddle.callbacks.Callback):
        def on_epoch_begin(self, epoch, logs=None):
            epochs.append(epoch)

    m.fit(_Blobs(16), _Blobs(8), batch_size=8, epochs=10, verbose=0, callbacks=[es, Count()],
          save_dir=str(tmp_path))
    assert epochs == [0, 1, 2]
    assert os.path.exists(tmp_path / "best_model.pdparams")
    assert os.path.exists(tmp_path / "0.pdparams") and os.path.exists(tmp_path / "final.pdparams")


def test_lr_scheduler_and_reduce_on_plateau():
    net = _net()
    sched = paddle.optimizer.lr.StepDecay(0.1, step_size=1, gamma=0.5)
    m = paddle.Model(net)
    m.prepare(paddle.optimizer.SGD(sched, parameters=net.parameters()), nn.CrossEntropyLoss())
    m.fit(_Blobs(16), batch_size=8, epochs=2, verbose=0,
          callbacks=[paddle.callbacks.LRScheduler(by_step=False, by_epoch=True)])
    assert sched.last_epoch == 2
    with pytest.raises(ValueError, match="mutually exclusive"):
        paddle.callbacks.LRScheduler(by_step=True, by_epoch=True)

    m = _model(lr=0.0)
    m._optimizer._learning_rate = 1e-9  # too small to improve the loss
    cb = paddle.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1, verbose=0)
    m.fit(_Blobs(16), _Blobs(8), batch_size=8, epochs=4, verbose=0, callbacks=[cb])
    assert m._optimizer.get_lr() < 1e-9
    with pytest.raises(ValueError, match="factor >= 1.0"):
        paddle.callbacks.ReduceLROnPlateau(factor=1.5)


def test_visualdl_writes_csv_and_png(tmp_path):
    m = _model()
    cb = paddle.callbacks.VisualDL(log_dir=str(tmp_path / "vdl"))
    m.fit(_Blobs(16), _Blobs(8), batch_size=8, epochs=2, verbose=0, callbacks=[cb])
    lines = (tmp_path / "vdl" / "scalars.csv").read_text().splitlines()
    assert lines[0] == "tag,step,value"
    tags = {l.split(",")[0] for l in lines[1:]}
    assert tags == {"train/loss", "train/acc", "eval/loss", "eval/acc"}
    assert sum(l.startswith("train/loss,") for l in lines) == 4  # 2 steps x 2 epochs
    png = (tmp_path / "vdl" / "scalars.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_progbar_output_verbose_1_and_2(capsys):
    m = _model()
    m.fit(_Blobs(32), batch_size=8, epochs=1, verbose=2, log_freq=2)
    out = capsys.readouterr().out
    assert "Epoch 1/1" in out
    lines = [l for l in out.splitlines() if l.startswith("step")]
    assert lines[0].startswith("step 2/4 - loss: ") and " - acc: " in lines[0]
    assert lines[-1].startswith("step 4/4 - loss: ") and lines[-1].endswith("/step")
    m.fit(_Blobs(32), batch_size=8, epochs=1, verbose=0)
    assert capsys.readouterr().out == ""


def test_progressbar_format_tty_and_plain():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    buf = Tty()
    bar = ProgressBar(num=10, width=10, verbose=1, file=buf)
    bar.update(5, [("loss", [0.5]), ("acc", 0.25)])
    bar.update(10, [("loss", [0.0001])])
    text = buf.getvalue()
    assert text.startswith("\rstep  5/10 [====>.....] - loss: 0.5000 - acc: 0.2500 - ETA: ")
    assert "\rstep 10/10 [==========] - loss: 1.0000e-04 - " in text and text.endswith("\n")
    plain = io.StringIO()
    bar = ProgressBar(num=10, width=10, verbose=1, file=plain)
    bar.update(5, [("loss", 0.5)])
    bar.update(10, [("loss", 0.5)])
    assert "\r" not in plain.getvalue() and plain.getvalue().count("\nstep") == 2
    two = io.StringIO()
    ProgressBar(num=10, verbose=2, file=two).update(3, [("loss", 1.5)])
    assert two.getvalue().startswith("step  3/10 - loss: 1.5000 - ")


# ---------------------------------------------------------------------------- metrics
def test_accuracy_metric_against_numpy():
    rng = np.random.RandomState(0)
    pred = rng.rand(50, 6).astype("float32")
    label = rng.randint(0, 6, size=(50, 1)).astype("int64")
    m = paddle.metric.Accuracy(topk=(1, 3))
    assert m.name() == ["acc_top1", "acc_top3"]
    correct = m.compute(paddle.to_tensor(pred), paddle.to_tensor(label))
    accs = m.update(correct)
    order = np.argsort(-pred, axis=1)
    top1 = np.mean(order[:, 0] == label[:, 0])
    top3 = np.mean([label[i, 0] in order[i, :3] for i in range(50)])
    np.testing.assert_allclose(accs, [top1, top3])
    m.update(m.compute(paddle.to_tensor(pred[:10]), paddle.to_tensor(label[:10])))
    t1 = (np.sum(order[:, 0] == label[:, 0]) + np.sum(order[:10, 0] == label[:10, 0])) / 60
    np.testing.assert_allclose(m.accumulate()[0], t1)
    m.reset()
    assert m.accumulate() == [0.0, 0.0]
    onehot = np.eye(6, dtype="float32")[label[:, 0]]
    m1 = paddle.metric.Accuracy()
    m1.update(m1.compute(paddle.to_tensor(pred), paddle.to_tensor(onehot)))
    np.testing.assert_allclose(m1.accumulate(), top1)
    with pytest.raises(ValueError, match="topk"):
        paddle.metric.Accuracy(topk=(0,))


def test_accuracy_function():
    rng = np.random.RandomState(1)
    pred = rng.rand(20, 5).astype("float32")
    label = rng.randint(0, 5, size=(20, 1)).astype("int64")
    order = np.argsort(-pred, axis=1)
    acc = paddle.metric.accuracy(paddle.to_tensor(pred), paddle.to_tensor(label), k=2)
    expect = np.mean([label[i, 0] in order[i, :2] for i in range(20)])
    np.testing.assert_allclose(acc.numpy(), [expect], rtol=1e-6)
    with pytest.raises(ValueError, match="'k'"):
        paddle.metric.accuracy(paddle.to_tensor(pred), paddle.to_tensor(label), k=9)


def test_precision_recall_against_numpy():
    rng = np.random.RandomState(2)
    preds = rng.rand(40, 1).astype("float32")
    labels = rng.randint(0, 2, size=(40, 1)).astype("int64")
    p, r = paddle.metric.Precision(), paddle.metric.Recall()
    p.update(preds, labels)
    r.update(paddle.to_tensor(preds), paddle.to_tensor(labels))
    hard = (preds[:, 0] >= 0.5).astype(int)
    tp = np.sum((hard == 1) & (labels[:, 0] == 1))
    np.testing.assert_allclose(p.accumulate(), tp / np.sum(hard == 1))
    np.testing.assert_allclose(r.accumulate(), tp / np.sum(labels[:, 0] == 1))
    assert p.name() == "precision" and r.name() == "recall"
    with pytest.raises(ValueError, match="numpy ndarray or Tensor"):
        p.update([0.5], labels)


def test_auc_against_rank_statistic():
    rng = np.random.RandomState(3)
    score = rng.rand(200)
    labels = (rng.rand(200) < score).astype("int64")
    preds = np.stack([1 - score, score], axis=1)
    auc = paddle.metric.Auc()
    auc.update(preds[:100], labels[:100])
    auc.update(paddle.to_tensor(preds[100:]), paddle.to_tensor(labels[100:]))
    pos, neg = score[labels == 1], score[labels == 0]
    expect = np.mean(pos[:, None] > neg[None, :]) + 0.5 * np.mean(pos[:, None] == neg[None, :])
    np.testing.assert_allclose(auc.accumulate(), expect, atol=2e-3)
    auc.reset()
    assert auc.accumulate() == 0.0


def test_metric_base_is_abstract():
    with pytest.raises(TypeError):
        paddle.metric.Metric()

    class Mine(paddle.metric.Metric):
        def reset(self): pass
        def update(self, *a): pass
        def accumulate(self): return 1.0
        def name(self): return "mine"

    assert Mine().compute(1, 2) == (1, 2)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
