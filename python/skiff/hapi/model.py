"""paddle.Model: training, evaluation and prediction loops around a Layer (Paddle's hapi).

Data: a Dataset (batched here by a BatchSampler) or any iterable of batches (a DataLoader);
each batch is flattened and split into the network's inputs (the first len(inputs) fields,
one per forward argument when `inputs` is not given) and the labels (the rest).

With `inputs` (and `labels`) given as InputSpecs, train_batch runs the whole step (forward,
loss, backward, optimizer update) as one program through paddle.jit.to_static (one capture per
input signature; None dims absorb a smaller last batch). Without them it runs eagerly.
Losses are logged as the current step's value, metrics as the average since the epoch began.
"""
import inspect
import os
import warnings

import numpy as np

from .callbacks import config_callbacks
from .. import _errors

__all__ = ["Model"]


def _to_list(x):
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _flatten(nest):
    out = []
    for x in (nest if isinstance(nest, (list, tuple)) else [nest]):
        if isinstance(x, (list, tuple)):
            out.extend(_flatten(x))
        elif isinstance(x, dict):
            out.extend(_flatten(list(x.values())))
        else:
            out.append(x)
    return out


def _to_tensor(x):
    from .. import Tensor, to_tensor
    return x if isinstance(x, Tensor) else to_tensor(np.asarray(x))


def _to_numpy(x):
    from .. import Tensor
    return x.numpy() if isinstance(x, Tensor) else np.asarray(x)


def _loss_value(l):
    return float(np.asarray(l).reshape(-1)[0])


def _forward_arg_names(network):
    try:
        sig = inspect.signature(network.forward)
    except (TypeError, ValueError):
        return ["input"]
    names = [p.name for p in sig.parameters.values()
             if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return names or ["input"]


class Model:
    """paddle.Model(network, inputs=None, labels=None): inputs/labels are InputSpecs (lists,
    tuples, or a dict keyed by forward argument names for inputs)."""

    def __init__(self, network, inputs=None, labels=None):
        from ..nn import Layer
        if not isinstance(network, Layer):
            raise _errors.InvalidType(f"Model: argument 'network' expected a paddle.nn.Layer, got "
                                      f"{type(network).__name__}")
        self.mode = "train"
        self.network = network
        self._loss = None
        self._loss_weights = None
        self._optimizer = None
        self._metrics = []
        self._input_info = None
        self._test_dataloader = None
        self.stop_training = False
        self._accumulate = 1
        self.num_iters = None
        self._user_inputs = inputs is not None
        self._inputs = self._verify_spec(inputs, is_input=True)
        self._labels = self._verify_spec(labels)
        self._static_steps = {}
        self._static_counts = {}
        self._amp_level = "O0"

    # ------------------------------------------------------------------ specs
    def _verify_spec(self, specs, is_input=False):
        from ..static import InputSpec
        if specs is None:
            if is_input:
                return [InputSpec(shape=[None], name=n)
                        for n in _forward_arg_names(self.network)]
            return []
        if isinstance(specs, dict):
            if not is_input:
                raise _errors.InvalidType(
                    "Model: argument 'labels' expected a list of InputSpec, got a "
                    "dict")
            names = _forward_arg_names(self.network)
            missing = [n for n in names if n not in specs]
            if missing:
                raise _errors.InvalidArgument(
                    f"Model: argument 'inputs' (a dict) lacks forward arguments "
                    f"{missing}")
            specs = [specs[n] for n in names]
        out = _to_list(specs)
        for i, spec in enumerate(out):
            if not isinstance(spec, InputSpec):
                what = "inputs" if is_input else "labels"
                raise _errors.InvalidType(
                    f"Model: argument '{what}' expected paddle.static.InputSpec "
                    f"elements, got {type(spec).__name__} at index {i}")
            if spec.name is None:
                raise _errors.InvalidArgument(
                    f"Requires Input[{i}].name != None, but receive `None` with "
                    f"{spec}.")
        return out

    def _static_enabled(self):
        return self._user_inputs

    # ------------------------------------------------------------------ prepare
    def prepare(self, optimizer=None, loss=None, metrics=None, amp_configs=None):
        """Sets the optimizer, the loss (a Layer or callable taking outputs + labels) and the
        metrics (paddle.metric.Metric instances)."""
        from ..metric import Metric
        from ..nn import Layer
        from ..optimizer import Optimizer
        if optimizer is not None and not isinstance(optimizer, Optimizer):
            raise _errors.InvalidType(f"Model.prepare: argument 'optimizer' expected a "
                                      f"paddle.optimizer.Optimizer, got {type(optimizer).__name__}")
        if loss is not None and not isinstance(loss, Layer) and not callable(loss):
            raise _errors.InvalidType(
                "'loss' must be sub classes of `paddle.nn.Layer` or any callable "
                "function.")
        self._optimizer = optimizer
        self._loss = loss
        metrics = _to_list(metrics)
        for m in metrics:
            if not isinstance(m, Metric):
                raise _errors.InvalidType(f"{m.__class__.__name__} is not sub class of Metric")
        self._metrics = metrics
        self._prepare_amp(amp_configs)
        self._static_steps = {}

    def _prepare_amp(self, amp_configs):
        level = "O0"
        if isinstance(amp_configs, str):
            level = amp_configs
        elif isinstance(amp_configs, dict):
            level = amp_configs.get("level", "O1")
        elif amp_configs is not None:
            raise _errors.InvalidType(
                f"Model.prepare: argument 'amp_configs' expected None, a str or a "
                f"dict, got {type(amp_configs).__name__}")
        if level not in ("O0", "O1", "O2"):
            raise _errors.InvalidArgument(
                f"Model.prepare: amp level should be 'O0', 'O1' or 'O2', got "
                f"{level!r}")
        if level != "O0":
            amp = self._amp_module()
            if amp is None:
                raise _errors.Unimplemented(
                    
                    f"Model.prepare: amp_configs level {level!r} needs paddle.amp, which this "
                    f"build does not have; use amp_configs=None (float32)")
        self._amp_level = level
        self._amp_configs = amp_configs if isinstance(amp_configs, dict) else {}

    @staticmethod
    def _amp_module():
        try:
            from .. import amp
        except ImportError:
            return None
        return amp if hasattr(amp, "auto_cast") else None

    def _autocast(self):
        import contextlib
        if self._amp_level == "O0":
            return contextlib.nullcontext()
        cfg = {k: v for k, v in self._amp_configs.items()
               if k in ("custom_white_list", "custom_black_list", "dtype")}
        return self._amp_module().auto_cast(level=self._amp_level, **cfg)

    # ------------------------------------------------------------------ single batches
    def _record_input_info(self, inputs):
        self._input_info = ([list(x.shape) for x in inputs],
                            [str(x.dtype).split(".")[-1] for x in inputs])

    def _compute_losses(self, outputs, labels):
        losses = _to_list(self._loss(*(_to_list(outputs) + labels)))
        total = losses[0]
        for l in losses[1:]:
            total = total + l
        return losses, total

    def _update_metrics(self, outputs, labels):
        metrics = []
        for metric in self._metrics:
            metric_outs = metric.compute(*(_to_list(outputs) + labels))
            metrics.append(metric.update(*[_to_numpy(m) for m in _to_list(metric_outs)]))
        return metrics

    def _static_step(self, update, n_in):
        key = (update, n_in)
        fn = self._static_steps.get(key)
        if fn is None:
            from ..jit import to_static
            net, opt = self.network, self._optimizer
            n_labels = len(self._labels)

            counts = self._static_counts

            def train_step(*args):
                outputs = net(*args[:n_in])
                losses, total = self._compute_losses(outputs, list(args[n_in:]))
                total.backward()
                if update:
                    opt.step()
                    opt.clear_grad()
                counts["losses"] = len(losses)  # set while capturing
                return tuple(losses) + tuple(_to_list(outputs))

            specs = list(self._inputs) + list(self._labels)
            if len(specs) != n_in + n_labels:
                specs = None
            fn = to_static(train_step, input_spec=specs)
            self._static_steps[key] = fn
        return fn

    def train_batch(self, inputs, labels=None, update=True):
        """One optimization step on a batch; returns [loss arrays] (and metric values)."""
        if self._optimizer is None or self._loss is None:
            raise _errors.PreconditionNotMet(
                "model not ready, please call `model.prepare()` first (with an "
                "optimizer and a loss)")
        self.network.train()
        self.mode = "train"
        inputs = [_to_tensor(x) for x in _to_list(inputs)]
        labels = [_to_tensor(l) for l in _to_list(labels)]
        self._record_input_info(inputs)
        if self._static_enabled():
            res = _to_list(self._static_step(bool(update), len(inputs))(*(inputs + labels)))
            n_losses = self._static_counts["losses"]
            losses, outputs = res[:n_losses], res[n_losses:]
            outputs = outputs[0] if len(outputs) == 1 else outputs
        else:
            with self._autocast():
                outputs = self.network(*inputs)
                losses, total = self._compute_losses(outputs, labels)
            total.backward()
            if update:
                self._optimizer.step()
                self._optimizer.clear_grad()
        metrics = self._update_metrics(outputs, labels)
        losses = [_to_numpy(l) for l in losses]
        return (losses, metrics) if metrics else losses

    def eval_batch(self, inputs, labels=None):
        """Forward, loss and metrics on a batch without gradients."""
        from .. import no_grad
        self.network.eval()
        self.mode = "eval"
        inputs = [_to_tensor(x) for x in _to_list(inputs)]
        labels = [_to_tensor(l) for l in _to_list(labels)]
        with no_grad(), self._autocast():
            outputs = self.network(*inputs)
            losses = self._compute_losses(outputs, labels)[0] if self._loss else []
            metrics = self._update_metrics(outputs, labels)
        losses = [_to_numpy(l) for l in losses]
        if self._loss and metrics:
            return losses, metrics
        if self._loss:
            return losses
        return metrics

    def predict_batch(self, inputs):
        """The network's outputs on a batch, as numpy arrays."""
        from .. import no_grad
        self.network.eval()
        self.mode = "test"
        inputs = [_to_tensor(x) for x in _to_list(inputs)]
        self._record_input_info(inputs)
        with no_grad(), self._autocast():
            outputs = self.network(*inputs)
        return [_to_numpy(o) for o in _to_list(outputs)]

    # ------------------------------------------------------------------ save / load
    def save(self, path, training=True):
        """training=True: `path.pdparams` (+ `path.pdopt`), Paddle's pickle format.
        training=False: an inference model through paddle.jit.save (`path.pdmodel` +
        `path.pdiparams`), for the InputSpecs given or the shapes last seen."""
        if not isinstance(path, str) or not path or os.path.basename(path) == "":
            raise _errors.InvalidArgument(
                f"Model.save: argument 'path' expected 'dirname/filename_prefix', "
                f"got {path!r}")
        from .. import save
        d = os.path.dirname(path)
        if d:
            os.makedirs(d, exist_ok=True)
        if int(os.environ.get("PADDLE_TRAINER_ID", "0")) != 0:
            return
        if not training:
            self._save_inference_model(path)
            return
        save(self.network.state_dict(), path + ".pdparams")
        if self._optimizer is not None:
            state = self._optimizer.state_dict()
            if state:
                save(state, path + ".pdopt")

    def _save_inference_model(self, path):
        from .. import jit
        from ..static import InputSpec
        specs = self._inputs
        if not self._user_inputs:
            if self._input_info is None:
                raise _errors.PreconditionNotMet(
                    "Model.save(training=False): 'inputs' was not given to "
                    "paddle.Model and no batch has run yet, so the input shapes "
                    "are unknown; pass inputs=[InputSpec(...)] or run "
                    "predict_batch/fit first")
            shapes, dtypes = self._input_info
            names = [s.name for s in self._inputs]
            specs = [InputSpec([None] + s[1:], dt, name=n)
                     for s, dt, n in zip(shapes, dtypes, names)]
        was_training = self.network.training
        self.network.eval()
        try:
            jit.save(self.network, path, input_spec=specs)
        finally:
            if was_training:
                self.network.train()

    def load(self, path, skip_mismatch=False, reset_optimizer=False):
        """Loads `path.pdparams` (and `path.pdopt` unless reset_optimizer) into the network and
        optimizer; a missing or mis-shaped parameter raises ValueError unless skip_mismatch."""
        from .. import load
        base, ext = os.path.splitext(path)
        if ext not in ("", ".pdparams", ".pdopt", ".pdmodel"):
            base = path  # a dot inside the prefix itself
        if not os.path.exists(base + ".pdparams"):
            raise _errors.InvalidArgument(f"Model.load: failed to load parameters, no file "
                                          f"{base + '.pdparams'!r}")
        state = load(base + ".pdparams")
        matched = {}
        for key, param in self.network.state_dict().items():
            try:
                if key not in state:
                    raise _errors.InvalidArgument(f"{key} is not found in the providing file.")
                shape = list(np.shape(state[key]))
                if shape != list(param.shape):
                    raise _errors.InvalidArgument(
                        f"{key} receives a shape {shape}, but the expected shape "
                        f"is {list(param.shape)}.")
            except ValueError as err:
                if skip_mismatch:
                    warnings.warn(f"Skip loading for {key}. {err}")
                    continue
                raise
            matched[key] = state[key]
        self.network.set_state_dict(matched)
        if not reset_optimizer and self._optimizer is not None \
                and os.path.exists(base + ".pdopt"):
            self._optimizer.set_state_dict(load(base + ".pdopt"))

    def parameters(self, *args, **kwargs):
        return self.network.parameters(*args, **kwargs)

    def summary(self, input_size=None, dtype=None):
        from .model_summary import summary
        if input_size is None:
            if not self._user_inputs:
                raise _errors.InvalidArgument(
                    "Model.summary: 'input_size' or the Model's 'inputs' must be "
                    "set")
            input_size = [tuple(-1 if d is None else d for d in s.shape) for s in self._inputs]
            dtype = dtype or [s.dtype for s in self._inputs]
        return summary(self.network, input_size, dtypes=dtype)

    # ------------------------------------------------------------------ loops
    def _make_loader(self, data, batch_size, shuffle=False, drop_last=False, num_workers=0):
        from ..io import BatchSampler, DataLoader, Dataset
        if isinstance(data, Dataset):
            sampler = BatchSampler(data, batch_size=batch_size, shuffle=shuffle,
                                   drop_last=drop_last)
            return DataLoader(data, batch_sampler=sampler, num_workers=num_workers,
                              return_list=True)
        if data is not None and not hasattr(data, "__iter__"):
            raise _errors.InvalidType(f"Model: data expected a paddle.io.Dataset or an iterable of "
                                      f"batches (a DataLoader), got {type(data).__name__}")
        return data

    @staticmethod
    def _len_data_loader(loader):
        try:
            return len(loader)
        except (TypeError, NotImplementedError):
            return None

    def _metrics_name(self):
        names = ["loss"] if self._loss else []
        for m in self._metrics:
            names.extend(_to_list(m.name()))
        return names

    def _reset_metrics(self):
        for m in self._metrics:
            m.reset()

    def fit(self, train_data=None, eval_data=None, batch_size=1, epochs=1, eval_freq=1,
            log_freq=10, save_dir=None, save_freq=1, verbose=2, drop_last=False, shuffle=True,
            num_workers=0, callbacks=None, accumulate_grad_batches=1, num_iters=None):
        """Trains for `epochs` (or `num_iters` steps), evaluating every eval_freq epochs;
        callbacks (ProgBarLogger, ModelCheckpoint to save_dir every save_freq epochs,
        LRScheduler by step) are added as in Paddle."""
        if train_data is None:
            raise _errors.InvalidArgument("Model.fit: train_data must be given!")
        if isinstance(batch_size, (tuple, list)) and all(isinstance(x, int) for x in batch_size):
            if len(batch_size) != 2:
                raise _errors.InvalidArgument(
                    f"Model.fit: argument 'batch_size' as a tuple expected "
                    f"(train_batch_size, eval_batch_size), got {batch_size}")
            train_bs, eval_bs = batch_size
        elif isinstance(batch_size, int) and not isinstance(batch_size, bool):
            train_bs, eval_bs = batch_size, batch_size
        else:
            raise _errors.InvalidType(f"'batch_size' must be integer or tuple of two integers, but "
                                      f"received: {batch_size}")
        if not isinstance(epochs, int) or epochs < 0:
            raise _errors.InvalidArgument(
                f"Model.fit: argument 'epochs' expected an int >= 0, got {epochs!r}")
        if accumulate_grad_batches < 1:
            raise _errors.InvalidArgument(
                f"Model.fit: argument 'accumulate_grad_batches' expected >= 1, got "
                f"{accumulate_grad_batches}")
        train_loader = self._make_loader(train_data, train_bs, shuffle, drop_last, num_workers)
        eval_loader = self._make_loader(eval_data, eval_bs, num_workers=num_workers)
        do_eval = eval_loader is not None
        self._test_dataloader = eval_loader
        self._accumulate = accumulate_grad_batches
        self.stop_training = False
        steps = self._len_data_loader(train_loader)
        self.num_iters = num_iters
        if num_iters is not None and isinstance(num_iters, int) and isinstance(steps, int):
            if num_iters <= 0:
                raise _errors.InvalidArgument("num_iters must be greater than 0!")
            epochs = (num_iters // steps) + 1 if steps else 1
            steps = min(num_iters, steps)
        cbks = config_callbacks(callbacks, model=self, batch_size=train_bs, epochs=epochs,
                                steps=steps, log_freq=log_freq, save_freq=save_freq,
                                save_dir=save_dir, verbose=verbose,
                                metrics=self._metrics_name())
        cbks.on_begin("train")
        logs = {}
        for epoch in range(epochs):
            cbks.on_epoch_begin(epoch)
            logs = self._run_one_epoch(train_loader, cbks, "train")
            cbks.on_epoch_end(epoch, logs)
            if do_eval and epoch % eval_freq == 0:
                eval_steps = self._len_data_loader(eval_loader)
                cbks.on_begin("eval", {"steps": eval_steps, "metrics": self._metrics_name()})
                eval_logs = self._run_one_epoch(eval_loader, cbks, "eval")
                cbks.on_end("eval", eval_logs)
            if self.stop_training:
                break
        cbks.on_end("train", logs)
        self._test_dataloader = None

    def evaluate(self, eval_data, batch_size=1, log_freq=10, verbose=2, num_workers=0,
                 callbacks=None, num_iters=None):
        """Runs the loss and metrics over eval_data; returns {name: value}."""
        loader = self._make_loader(eval_data, batch_size, num_workers=num_workers)
        if loader is None:
            raise _errors.InvalidArgument("Model.evaluate: eval_data must be given!")
        self._test_dataloader = loader
        cbks = config_callbacks(callbacks, model=self, log_freq=log_freq, verbose=verbose,
                                metrics=self._metrics_name())
        eval_steps = self._len_data_loader(loader)
        self.num_iters = num_iters
        if num_iters is not None and isinstance(num_iters, int) and isinstance(eval_steps, int):
            if num_iters <= 0:
                raise _errors.InvalidArgument("num_iters must be greater than 0!")
            eval_steps = min(num_iters, eval_steps)
            self.num_iters = eval_steps
        cbks.on_begin("eval", {"steps": eval_steps, "metrics": self._metrics_name()})
        logs = self._run_one_epoch(loader, cbks, "eval")
        cbks.on_end("eval", logs)
        self._test_dataloader = None
        return {k: logs[k] for k in self._metrics_name() if k in logs}

    def predict(self, test_data, batch_size=1, num_workers=0, stack_outputs=False, verbose=1,
                callbacks=None):
        """The network's outputs over test_data: a list (one entry per output) of lists of
        per-batch arrays, or of one stacked array each with stack_outputs=True."""
        loader = self._make_loader(test_data, batch_size, num_workers=num_workers)
        if loader is None:
            raise _errors.InvalidArgument("Model.predict: test_data must be given!")
        self._test_dataloader = loader
        cbks = config_callbacks(callbacks, model=self, verbose=verbose)
        logs = {"steps": self._len_data_loader(loader)}
        cbks.on_begin("predict", logs)
        logs, outputs = self._run_one_epoch(loader, cbks, "predict")
        outputs = [list(o) for o in zip(*outputs)]
        if stack_outputs:
            outputs = [np.vstack(o) for o in outputs]
        self._test_dataloader = None
        cbks.on_end("predict", logs)
        return outputs

    def _run_one_epoch(self, data_loader, callbacks, mode):
        logs = {}
        outputs = []
        n_steps = self._len_data_loader(data_loader)
        n_in = len(self._inputs)
        for step, data in enumerate(data_loader):
            data = _flatten(data)
            batch_size = int(data[0].shape[0]) if len(getattr(data[0], "shape", ())) else 1
            callbacks.on_batch_begin(mode, step, logs)
            if mode != "predict":
                ins, labels = data[:n_in], data[n_in:]
                if mode == "train":
                    update = (step + 1) % self._accumulate == 0 or (
                        n_steps is not None and step + 1 == n_steps)
                    outs = self.train_batch(ins, labels, update)
                else:
                    outs = self.eval_batch(ins, labels)
                if self._metrics and self._loss:
                    metrics = [[_loss_value(l) for l in outs[0]]]
                elif self._loss:
                    metrics = [[_loss_value(l) for l in outs]]
                else:
                    metrics = []
                for metric in self._metrics:
                    metrics.extend(_to_list(metric.accumulate()))
                for k, v in zip(self._metrics_name(), metrics):
                    logs[k] = v
            else:
                outs = self.predict_batch(data[:n_in])
                outputs.append(outs)
            logs["step"] = step
            logs["batch_size"] = batch_size
            callbacks.on_batch_end(mode, step, logs)
            if self.num_iters is not None:
                self.num_iters -= 1
                if self.num_iters <= 0:
                    self.stop_training = True
                    break
        self._reset_metrics()
        if mode == "predict":
            return logs, outputs
        return logs

