"""paddle.callbacks: hooks paddle.Model calls during fit/evaluate/predict (Paddle's order).

fit: on_train_begin; per epoch on_epoch_begin, per step on_train_batch_begin/_end,
on_epoch_end, then (every eval_freq epochs) on_eval_begin, on_eval_batch_begin/_end per step,
on_eval_end; finally on_train_end. config_callbacks puts ProgBarLogger first (when verbose) and
appends ModelCheckpoint and LRScheduler unless the user gave them, as Paddle does.

VisualDL: Paddle's callback writes VisualDL event files; no writer for those (nor TensorBoard's)
is packaged in Debian, so this one writes `scalars.csv` (tag,step,value) and `scalars.png` (one
panel per tag, through matplotlib) into log_dir: readable by any spreadsheet or plotting tool.
"""
import csv
import numbers
import os
import tempfile
import time
import warnings

import numpy as np

from .progressbar import ProgressBar
from .. import _errors

__all__ = ["Callback", "ProgBarLogger", "ModelCheckpoint", "VisualDL", "LRScheduler",
           "EarlyStopping", "ReduceLROnPlateau"]


def _local_rank():
    return int(os.environ.get("PADDLE_TRAINER_ID", "0"))


def _scalar(v):
    """The number a log entry holds (losses are one-element lists), or None."""
    if isinstance(v, (list, tuple)):
        v = v[0] if v else None
    if isinstance(v, np.ndarray) and v.size == 1:
        v = v.reshape(-1)[0]
    return v if isinstance(v, numbers.Number) else None


def config_callbacks(callbacks=None, model=None, batch_size=None, epochs=None, steps=None,
                     log_freq=2, verbose=2, save_freq=1, save_dir=None, metrics=None,
                     mode="train"):
    cbks = callbacks or []
    cbks = list(cbks) if isinstance(cbks, (list, tuple)) else [cbks]
    for c in cbks:
        if not isinstance(c, Callback):
            raise _errors.InvalidType(
                f"Model: argument 'callbacks' expected paddle.callbacks.Callback "
                f"instances, got {type(c).__name__}")
    if verbose and not any(isinstance(k, ProgBarLogger) for k in cbks):
        cbks = [ProgBarLogger(log_freq, verbose=verbose)] + cbks
    if not any(isinstance(k, ModelCheckpoint) for k in cbks):
        cbks = cbks + [ModelCheckpoint(save_freq, save_dir)]
    for k in cbks:
        if isinstance(k, EarlyStopping):
            k.save_dir = save_dir
    if not any(isinstance(k, LRScheduler) for k in cbks):
        cbks = cbks + [LRScheduler()]
    cbk_list = CallbackList(cbks)
    cbk_list.set_model(model)
    metrics = (metrics or []) if mode != "test" else []
    cbk_list.set_params({"batch_size": batch_size, "epochs": epochs, "steps": steps,
                         "verbose": verbose, "metrics": metrics})
    return cbk_list


class CallbackList:
    def __init__(self, callbacks=None):
        self.callbacks = list(callbacks or [])
        self.params = {}
        self.model = None

    def append(self, callback):
        self.callbacks.append(callback)

    def __iter__(self):
        return iter(self.callbacks)

    def set_params(self, params):
        for c in self.callbacks:
            c.set_params(params)

    def set_model(self, model):
        for c in self.callbacks:
            c.set_model(model)

    def _call(self, name, *args):
        for c in self.callbacks:
            getattr(c, name)(*args)

    @staticmethod
    def _check_mode(mode):
        if mode not in ("train", "eval", "predict"):
            raise _errors.InvalidArgument(
                f"callbacks: mode should be train, eval or predict, got {mode!r}")

    def on_begin(self, mode, logs=None):
        self._check_mode(mode)
        self._call(f"on_{mode}_begin", logs)

    def on_end(self, mode, logs=None):
        self._check_mode(mode)
        self._call(f"on_{mode}_end", logs)

    def on_epoch_begin(self, epoch=None, logs=None):
        self._call("on_epoch_begin", epoch, logs)

    def on_epoch_end(self, epoch=None, logs=None):
        self._call("on_epoch_end", epoch, logs)

    def on_batch_begin(self, mode, step=None, logs=None):
        self._check_mode(mode)
        self._call(f"on_{mode}_batch_begin", step, logs)

    def on_batch_end(self, mode, step=None, logs=None):
        self._check_mode(mode)
        self._call(f"on_{mode}_batch_end", step, logs)


class Callback:
    """Base class: every hook does nothing. `self.model` is the paddle.Model, `self.params` has
    batch_size, epochs, steps, verbose and metrics (the names logged)."""

    def __init__(self):
        self.model = None
        self.params = {}

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self.model = model

    def on_train_begin(self, logs=None):
        pass

    def on_train_end(self, logs=None):
        pass

    def on_eval_begin(self, logs=None):
        pass

    def on_eval_end(self, logs=None):
        pass

    def on_predict_begin(self, logs=None):
        pass

    def on_predict_end(self, logs=None):
        pass

    def on_epoch_begin(self, epoch, logs=None):
        pass

    def on_epoch_end(self, epoch, logs=None):
        pass

    def on_train_batch_begin(self, step, logs=None):
        pass

    def on_train_batch_end(self, step, logs=None):
        pass

    def on_eval_batch_begin(self, step, logs=None):
        pass

    def on_eval_batch_end(self, step, logs=None):
        pass

    def on_predict_batch_begin(self, step, logs=None):
        pass

    def on_predict_batch_end(self, step, logs=None):
        pass


class ProgBarLogger(Callback):
    """Prints `Epoch i/n` and a progress bar per epoch (every log_freq steps), `Eval begin...`,
    `Eval samples: n`. verbose: 0 silent, 1 bar, 2 plain lines, 3 plus reader/batch cost."""

    def __init__(self, log_freq=1, verbose=2):
        super().__init__()
        self.epochs = None
        self.steps = None
        self.progbar = None
        self.verbose = verbose
        self.log_freq = log_freq

    def _is_print(self):
        return self.verbose and _local_rank() == 0

    @staticmethod
    def _new_timer():
        return {"data_time": 0, "batch_time": 0, "count": 0, "samples": 0,
                "batch_start_time": time.time()}

    def on_train_begin(self, logs=None):
        self.epochs = self.params["epochs"]
        self.train_metrics = self.params["metrics"]
        self._train_timer = self._new_timer()
        if self._is_print():
            print("The loss value printed in the log is the current step, and the metric is "
                  "the average value of previous steps.")

    def on_epoch_begin(self, epoch=None, logs=None):
        self.steps = self.params["steps"]
        self.epoch = epoch
        self.train_step = 0
        if self.epochs and self._is_print():
            print(f"Epoch {epoch + 1}/{self.epochs}")
        self.train_progbar = ProgressBar(num=self.steps, verbose=self.verbose)
        self._train_timer["batch_start_time"] = time.time()

    def _updates(self, logs, mode):
        values = []
        metrics = getattr(self, f"{mode}_metrics")
        progbar = getattr(self, f"{mode}_progbar")
        steps = getattr(self, f"{mode}_step")
        for k in metrics:
            if k in logs:
                values.append((k, logs[k]))
        timer = getattr(self, f"_{mode}_timer", None)
        if self.verbose == 3 and timer is not None and timer["count"] > 0:
            cnt = timer["count"]
            values.append(("avg_reader_cost", f"{timer['data_time'] / cnt:.5f} sec"))
            values.append(("avg_batch_cost", f"{timer['batch_time'] / cnt:.5f} sec"))
            values.append(("ips", f"{timer['samples'] / max(timer['batch_time'], 1e-12):.5f} "
                                  f"samples/sec"))
            timer.update(count=0, samples=0, data_time=0.0, batch_time=0.0)
        progbar.update(steps, values)

    def _batch_begin(self, timer):
        timer["batch_data_end_time"] = time.time()
        timer["data_time"] += timer["batch_data_end_time"] - timer["batch_start_time"]

    def _batch_end(self, timer, logs):
        timer["batch_time"] += time.time() - timer["batch_data_end_time"]
        timer["count"] += 1
        timer["samples"] += (logs or {}).get("batch_size", 1)

    def on_train_batch_begin(self, step, logs=None):
        self._batch_begin(self._train_timer)

    def on_train_batch_end(self, step, logs=None):
        logs = logs or {}
        self.train_step += 1
        self._batch_end(self._train_timer, logs)
        if self._is_print() and self.train_step % self.log_freq == 0:
            if self.steps is None or self.train_step < self.steps:
                self._updates(logs, "train")
        self._train_timer["batch_start_time"] = time.time()

    def on_epoch_end(self, epoch, logs=None):
        if self._is_print() and self.steps is not None:
            self._updates(logs or {}, "train")

    def on_eval_begin(self, logs=None):
        logs = logs or {}
        self.eval_steps = logs.get("steps", None)
        self.eval_metrics = logs.get("metrics", [])
        self.eval_step = 0
        self.evaled_samples = 0
        self._eval_timer = self._new_timer()
        self.eval_progbar = ProgressBar(num=self.eval_steps, verbose=self.verbose)
        if self._is_print():
            print("Eval begin...")

    def on_eval_batch_begin(self, step, logs=None):
        self._batch_begin(self._eval_timer)

    def on_eval_batch_end(self, step, logs=None):
        logs = logs or {}
        self.eval_step += 1
        self.evaled_samples += logs.get("batch_size", 1)
        self._batch_end(self._eval_timer, logs)
        if self._is_print() and self.eval_step % self.log_freq == 0:
            if self.eval_steps is None or self.eval_step < self.eval_steps:
                self._updates(logs, "eval")
        self._eval_timer["batch_start_time"] = time.time()

    def on_eval_end(self, logs=None):
        if self._is_print() and self.eval_steps is not None:
            self._updates(logs or {}, "eval")
            print(f"Eval samples: {self.evaled_samples}")

    def on_predict_begin(self, logs=None):
        logs = logs or {}
        self.test_steps = logs.get("steps", None)
        self.test_metrics = logs.get("metrics", [])
        self.test_step = 0
        self.tested_samples = 0
        self._test_timer = self._new_timer()
        self.test_progbar = ProgressBar(num=self.test_steps, verbose=self.verbose)
        if self._is_print():
            print("Predict begin...")

    def on_predict_batch_begin(self, step, logs=None):
        self._batch_begin(self._test_timer)

    def on_predict_batch_end(self, step, logs=None):
        logs = logs or {}
        self.test_step += 1
        self.tested_samples += logs.get("batch_size", 1)
        self._batch_end(self._test_timer, logs)
        if self.test_step % self.log_freq == 0 and self._is_print():
            if self.test_steps is None or self.test_step < self.test_steps:
                self._updates(logs, "test")
        self._test_timer["batch_start_time"] = time.time()

    def on_predict_end(self, logs=None):
        if self._is_print():
            if self.test_step % self.log_freq != 0 or self.verbose == 1:
                self._updates(logs or {}, "test")
            print(f"Predict samples: {self.tested_samples}")


class ModelCheckpoint(Callback):
    """Saves `save_dir/<epoch>` every save_freq epochs and `save_dir/final` at the end
    (model.save: .pdparams and .pdopt)."""

    def __init__(self, save_freq=1, save_dir=None):
        super().__init__()
        self.save_freq = save_freq
        self.save_dir = save_dir
        self.epoch = 0

    def on_epoch_begin(self, epoch=None, logs=None):
        self.epoch = epoch

    def _is_save(self):
        return self.model is not None and self.save_dir and _local_rank() == 0

    def on_epoch_end(self, epoch, logs=None):
        if self._is_save() and self.epoch % self.save_freq == 0:
            path = f"{self.save_dir}/{epoch}"
            print(f"save checkpoint at {os.path.abspath(path)}")
            self.model.save(path)

    def on_train_end(self, logs=None):
        if self._is_save():
            path = f"{self.save_dir}/final"
            print(f"save checkpoint at {os.path.abspath(path)}")
            self.model.save(path)


class LRScheduler(Callback):
    """Steps the optimizer's LRScheduler after every batch (by_step) or epoch (by_epoch)."""

    def __init__(self, by_step=True, by_epoch=False):
        super().__init__()
        if by_step and by_epoch:
            raise _errors.InvalidArgument("by_step option is mutually exclusive with by_epoch")
        self.by_step = by_step
        self.by_epoch = by_epoch

    def _step(self):
        from ..optimizer.lr import LRScheduler as _Sched
        opt = getattr(self.model, "_optimizer", None)
        if opt is not None and isinstance(getattr(opt, "_learning_rate", None), _Sched):
            opt._learning_rate.step()

    def on_epoch_end(self, epoch, logs=None):
        if self.by_epoch:
            self._step()

    def on_train_batch_end(self, step, logs=None):
        if self.by_step:
            self._step()


class EarlyStopping(Callback):
    """Stops fit when the evaluated `monitor` stops improving for more than `patience` evals;
    with save_best_model (and fit's save_dir) the best weights go to save_dir/best_model."""

    def __init__(self, monitor="loss", mode="auto", patience=0, verbose=1, min_delta=0,
                 baseline=None, save_best_model=True):
        super().__init__()
        self.monitor = monitor
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.min_delta = abs(min_delta)
        self.wait_epoch = 0
        self.best_weights = None
        self.stopped_epoch = 0
        self.save_best_model = save_best_model
        self.save_dir = None
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"EarlyStopping mode {mode} is unknown, fallback to auto mode.")
            mode = "auto"
        if mode == "min":
            self.monitor_op = np.less
        elif mode == "max":
            self.monitor_op = np.greater
        else:
            self.monitor_op = np.greater if "acc" in self.monitor else np.less
        if self.monitor_op is np.less:
            self.min_delta *= -1

    def on_train_begin(self, logs=None):
        self.wait_epoch = 0
        if self.baseline is not None:
            self.best_value = self.baseline
        else:
            self.best_value = np.inf if self.monitor_op is np.less else -np.inf
            self.best_weights = None

    def on_eval_end(self, logs=None):
        if logs is None or self.monitor not in logs:
            warnings.warn("Monitor of EarlyStopping should be loss or metric name.")
            return
        current = _scalar(logs[self.monitor])
        if current is None:
            return
        if self.monitor_op(current - self.min_delta, self.best_value):
            self.best_value = current
            self.wait_epoch = 0
            if self.save_best_model and self.save_dir is not None:
                self.model.save(os.path.join(self.save_dir, "best_model"))
        else:
            self.wait_epoch += 1
        if self.wait_epoch > self.patience:
            self.model.stop_training = True
            if self.verbose > 0:
                print(f"Epoch {self.stopped_epoch + 1}: Early stopping.")
                if self.save_best_model and self.save_dir is not None:
                    best = os.path.abspath(os.path.join(self.save_dir, "best_model"))
                    print(f"Best checkpoint has been saved at {best}")
        self.stopped_epoch += 1


class ReduceLROnPlateau(Callback):
    """Multiplies a float learning rate by `factor` when the evaluated `monitor` has not
    improved for `patience` evals (then waits `cooldown` evals)."""

    def __init__(self, monitor="loss", factor=0.1, patience=10, verbose=1, mode="auto",
                 min_delta=1e-4, cooldown=0, min_lr=0):
        super().__init__()
        self.monitor = monitor
        if factor >= 1.0:
            raise _errors.InvalidArgument("ReduceLROnPlateau does not support a factor >= 1.0.")
        self.factor = factor
        self.min_lr = min_lr
        self.min_delta = min_delta
        self.patience = patience
        self.verbose = verbose
        self.cooldown = cooldown
        self.cooldown_counter = 0
        self.wait = 0
        self.best = 0
        self.mode = mode
        self.monitor_op = None
        self.epoch = 0
        self._reset()

    def _reset(self):
        if self.mode not in ("auto", "min", "max"):
            warnings.warn(f"Learning rate reduction mode {self.mode} is unknown, fallback to "
                          f"auto mode.")
            self.mode = "auto"
        if self.mode == "min" or (self.mode == "auto" and "acc" not in self.monitor):
            self.monitor_op = lambda a, b: np.less(a, b - self.min_delta)
            self.best = np.inf
        else:
            self.monitor_op = lambda a, b: np.greater(a, b + self.min_delta)
            self.best = -np.inf
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, logs=None):
        self._reset()

    def in_cooldown(self):
        return self.cooldown_counter > 0

    def on_eval_end(self, logs=None):
        if logs is None or self.monitor not in logs:
            warnings.warn("Monitor of ReduceLROnPlateau should be loss or metric name.")
            return
        opt = getattr(self.model, "_optimizer", None)
        lr = getattr(opt, "_learning_rate", None)
        if not isinstance(lr, (float, int)) or isinstance(lr, bool):
            warnings.warn(f"Expected learning_rate be float, bug got {type(lr)}.")
            return
        current = _scalar(logs[self.monitor])
        if current is None:
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                old_lr = opt.get_lr()
                if old_lr > np.float32(self.min_lr):
                    new_lr = max(old_lr * self.factor, self.min_lr)
                    opt._learning_rate = float(new_lr)
                    if self.verbose > 0 and _local_rank() == 0:
                        print(f"Epoch {self.epoch + 1}: ReduceLROnPlateau reducing learning "
                              f"rate to {new_lr}.")
                    self.cooldown_counter = self.cooldown
                    self.wait = 0
        self.epoch += 1


class VisualDL(Callback):
    """Scalar logging (Paddle's VisualDL callback, same tags: `train/loss`, `eval/acc`, ...):
    train scalars by global step, eval scalars by epoch, written to `log_dir/scalars.csv` as they
    come and plotted to `log_dir/scalars.png` at the end of training (or of an evaluate)."""

    def __init__(self, log_dir):
        super().__init__()
        self.log_dir = log_dir
        self.epochs = None
        self.steps = None
        self.epoch = 0
        self._rows = []
        self._csv = None

    def _is_write(self):
        return _local_rank() == 0

    def on_train_begin(self, logs=None):
        self.epochs = self.params["epochs"]
        self.train_metrics = self.params["metrics"]
        self._is_fit = True
        self.train_step = 0

    def on_epoch_begin(self, epoch=None, logs=None):
        self.steps = self.params["steps"]
        self.epoch = epoch

    def _open(self):
        if self._csv is None:
            os.makedirs(self.log_dir, exist_ok=True)
            path = os.path.join(self.log_dir, "scalars.csv")
            self._csv_file = open(path, "w", newline="")
            self._csv = csv.writer(self._csv_file)
            self._csv.writerow(["tag", "step", "value"])
            self._rows = []

    def add_scalar(self, tag, step, value):
        self._open()
        self._csv.writerow([tag, int(step), float(value)])
        self._csv_file.flush()
        self._rows.append((tag, int(step), float(value)))

    def _updates(self, logs, mode):
        if not self._is_write():
            return
        metrics = getattr(self, f"{mode}_metrics")
        step = self.train_step if mode == "train" else self.epoch
        for k in metrics:
            if k in logs:
                v = _scalar(logs[k])
                if v is not None:
                    self.add_scalar(f"{mode}/{k}", step, v)

    def on_train_batch_end(self, step, logs=None):
        self.train_step += 1
        self._updates(logs or {}, "train")

    def on_eval_begin(self, logs=None):
        logs = logs or {}
        self.eval_steps = logs.get("steps", None)
        self.eval_metrics = logs.get("metrics", [])
        self.eval_step = 0
        self.evaled_samples = 0

    def _close(self):
        if self._csv is None:
            return
        self._csv_file.close()
        self._csv = None
        plot_scalars(self._rows, os.path.join(self.log_dir, "scalars.png"))

    def on_train_end(self, logs=None):
        self._close()

    def on_eval_end(self, logs=None):
        if self._is_write():
            self._updates(logs or {}, "eval")
            if not getattr(self, "_is_fit", False):
                self._close()


def plot_scalars(rows, path):
    """One panel per tag (train tags by step, eval tags by epoch), written atomically as a
    PNG."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    series = {}
    for tag, step, value in rows:
        series.setdefault(tag, ([], []))
        series[tag][0].append(step)
        series[tag][1].append(value)
    tags = sorted(series, key=lambda t: (t.split("/", 1)[-1], t))
    if not tags:
        return
    fig, axes = plt.subplots(1, len(tags), figsize=(4 * len(tags), 3.2), squeeze=False)
    for ax, tag in zip(axes[0], tags):
        xs, ys = series[tag]
        train = tag.startswith("train/")
        ax.plot(xs, ys, marker=None if train else "o")
        ax.set_title(tag)
        ax.set_xlabel("step" if train else "epoch")
        ax.grid(alpha=0.3)
    fig.tight_layout()
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=d, suffix=".png")
    os.close(fd)
    try:
        fig.savefig(tmp, format="png")
        os.replace(tmp, path)
    finally:
        plt.close(fig)
        if os.path.exists(tmp):
            os.unlink(tmp)
