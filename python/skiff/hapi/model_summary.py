"""skiff.summary (Paddle's paddle.summary): a per-layer table of output shapes and parameter
counts; returns {'total_params': n, 'trainable_params': m}."""
import numbers

import numpy as np
from .. import _errors

__all__ = ["summary"]


def _numel(shape):
    return int(np.prod(shape)) if shape else 1


def _shape_of(x):
    if hasattr(x, "shape") and not isinstance(x, np.ndarray):
        return list(x.shape)
    if isinstance(x, (list, tuple)):
        return [_shape_of(v) for v in x]
    return []


def _make_inputs(input_size, dtypes):
    from .. import to_tensor
    if isinstance(input_size, tuple) and all(isinstance(s, (numbers.Integral, type(None)))
                                             for s in input_size):
        input_size = [input_size]
    elif isinstance(input_size, list) and all(isinstance(s, (numbers.Integral, type(None)))
                                              for s in input_size):
        input_size = [tuple(input_size)]
    if dtypes is None:
        dtypes = ["float32"] * len(input_size)
    elif isinstance(dtypes, str):
        dtypes = [dtypes] * len(input_size)
    out = []
    for size, dt in zip(input_size, dtypes):
        shape = [1 if (s is None or s == -1) else int(s) for s in size]
        out.append(to_tensor(np.zeros(shape, dtype=np.dtype(str(dt).split(".")[-1]))))
    return out


def summary(net, input_size=None, dtypes=None, input=None):
    """Prints the table and returns the parameter counts. With input_size (a shape tuple, or a
    list of them; -1/None dims become 1) or input (tensors), it runs one forward to record
    output shapes; without either it lists the parameters of each layer."""
    from .. import no_grad
    from ..nn.layer.layers import Layer
    if not isinstance(net, Layer):
        raise _errors.InvalidType(f"summary: argument 'net' expected a skiff.nn.Layer, got "
                                  f"{type(net).__name__}")
    rows = []
    hooks = []
    counters = {}

    def record(layer, inputs, outputs):
        cls = type(layer).__name__
        counters[cls] = counters.get(cls, 0) + 1
        n = sum(_numel(list(p.shape)) for p in layer.parameters(include_sublayers=False))
        rows.append((f"{cls}-{counters[cls]}", _shape_of(list(inputs)), _shape_of(outputs), n))

    run = input is not None or input_size is not None
    if run:
        for layer in net.sublayers(include_self=False):
            if not layer._sub_layers or layer.parameters(include_sublayers=False):
                hooks.append(layer.register_forward_post_hook(record))
        inputs = input if input is not None else _make_inputs(input_size, dtypes)
        if not isinstance(inputs, (list, tuple)):
            inputs = [inputs]
        was_training = net.training
        net.eval()
        try:
            with no_grad():
                net(*inputs)
        finally:
            for h in hooks:
                h.remove()
            if was_training:
                net.train()
    else:
        for name, layer in net.named_sublayers(include_self=True):
            own = layer.parameters(include_sublayers=False)
            if own:
                n = sum(_numel(list(p.shape)) for p in own)
                rows.append((f"{type(layer).__name__} ({name or 'self'})", "-", "-", n))

    params = net.parameters()
    total = sum(_numel(list(p.shape)) for p in params)
    trainable = sum(_numel(list(p.shape)) for p in params if not p.stop_gradient)
    width = [24, 26, 26, 14]
    sep = "-" * sum(width)
    print(sep)
    print(f"{'Layer (type)':^{width[0]}}{'Input Shape':^{width[1]}}{'Output Shape':^{width[2]}}"
          f"{'Param #':^{width[3]}}")
    print("=" * sum(width))
    for name, ishape, oshape, n in rows:
        ishape = str(ishape)
        oshape = str(oshape)
        print(f"{name:^{width[0]}}{ishape:^{width[1]}}{oshape:^{width[2]}}{n:^{width[3]},}")
    print("=" * sum(width))
    print(f"Total params: {total:,}")
    print(f"Trainable params: {trainable:,}")
    print(f"Non-trainable params: {total - trainable:,}")
    print(sep)
    param_mb = sum(_numel(list(p.shape)) * _itemsize(p) for p in params) / 2 ** 20
    print(f"Params size (MB): {param_mb:.2f}")
    print(sep)
    return {"total_params": total, "trainable_params": trainable}


def _itemsize(p):
    name = str(p.dtype).split(".")[-1]
    return {"float64": 8, "int64": 8, "float16": 2, "bfloat16": 2, "int16": 2, "int8": 1,
            "uint8": 1, "bool": 1}.get(name, 4)
