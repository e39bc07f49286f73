"""paddle.flops: the FLOPs of a Layer, counted per leaf layer by Paddle's rules.

The layer runs once in eval mode, without gradients and with to_static off, on a random input
of `input_size`; a forward post hook on every leaf layer (one without sublayers) counts its
parameters, records its input/output shapes and adds its FLOPs with the rule for its class:

- ConvND / ConvNDTranspose: out.numel() * (in_channels / groups * prod(kernel) + has_bias)
- Linear: in_features * out.numel();  BatchNorm (eval): 2 * x.numel()
- LeakyReLU: x.numel();  AvgPoolND: out.numel();  AdaptiveAvgPoolND: out.numel() * (k + 1)
  with k the product of in_size // out_size;  ReLU, ReLU6, Dropout: 0
- custom_ops {LayerClass: fn(layer, inputs, output)}: fn adds to `layer.total_ops`.
Other leaf layers count 0 (a message says so). Multiply-adds count once, as in Paddle.
"""
import warnings

import numpy as np

__all__ = ["flops"]


def _count_conv(m, x, y):
    kernel = int(np.prod(m.weight.shape[2:]))
    bias = 1 if m.bias is not None else 0
    m.total_ops += abs(int(int(y.numel()) * (x[0].shape[1] / m._groups * kernel + bias)))


def _count_leaky_relu(m, x, y):
    m.total_ops += int(x[0].numel())


def _count_bn(m, x, y):
    m.total_ops += 2 * int(x[0].numel())


def _count_linear(m, x, y):
    m.total_ops += abs(int(m.weight.shape[0] * int(y.numel())))


def _count_avgpool(m, x, y):
    m.total_ops += int(y.numel())


def _count_adaptive_avgpool(m, x, y):
    kernel = np.array(x[0].shape[2:]) // np.array(y.shape[2:])
    m.total_ops += abs(int((int(np.prod(kernel)) + 1) * int(y.numel())))


def _count_zero(m, x, y):
    m.total_ops += 0


def _rules():
    from .. import nn
    rules = {c: _count_conv for c in (nn.Conv1D, nn.Conv2D, nn.Conv3D, nn.Conv1DTranspose,
                                      nn.Conv2DTranspose, nn.Conv3DTranspose)}
    rules.update({nn.BatchNorm2D: _count_bn, nn.BatchNorm: _count_bn,
                  nn.ReLU: _count_zero, nn.ReLU6: _count_zero, nn.Dropout: _count_zero,
                  nn.LeakyReLU: _count_leaky_relu, nn.Linear: _count_linear})
    rules.update({c: _count_avgpool for c in (nn.AvgPool1D, nn.AvgPool2D, nn.AvgPool3D)})
    rules.update({c: _count_adaptive_avgpool
                  for c in (nn.AdaptiveAvgPool1D, nn.AdaptiveAvgPool2D, nn.AdaptiveAvgPool3D)})
    return rules


class _Table:
    """Paddle's flops table: columns as wide as their widest cell plus 2, cells centred."""

    def __init__(self, header):
        self.header = header
        self.rows = []

    def add_row(self, row):
        self.rows.append([str(c) for c in row])

    def text(self):
        widths = [max(len(r[i]) for r in [self.header] + self.rows) + 2
                  for i in range(len(self.header))]
        rule = "+" + "+".join("-" * w for w in widths) + "+"
        line = lambda r: "|" + "|".join(c.center(w) for c, w in zip(r, widths)) + "|"  # noqa: E731
        return "\n".join([rule, line(self.header), rule] + [line(r) for r in self.rows] + [rule])


def _leaves(model):
    return [(n, m) for n, m in model.named_sublayers(include_self=True)
            if not list(m.children())]


def _dynamic_flops(model, inputs, custom_ops, print_detail):
    from .. import jit, no_grad
    rules = _rules()
    handles, seen, counted = [], set(), set()

    def after(m, x, y):
        m.total_params = sum(int(p.numel()) for p in m.parameters())
        m.input_shape = list(x[0].shape) if x else []
        m.output_shape = list((y[0] if isinstance(y, (list, tuple)) else y).shape)
        counted.add(id(m))

    for _, m in _leaves(model):
        kind = type(m)
        m.total_ops = 0
        fn = custom_ops.get(kind) or rules.get(kind)
        if kind not in seen:
            if kind in custom_ops:
                print(f"Customize Function has been applied to {kind}")
            elif kind in rules:
                print(f"{kind}'s flops has been counted")
            else:
                print(f"Cannot find suitable count function for {kind}. Treat it as zero FLOPs.")
            seen.add(kind)
        if fn is not None:
            handles.append(m.register_forward_post_hook(fn))
        handles.append(m.register_forward_post_hook(after))

    from ..jit import static_function
    training, to_static = model.training, static_function._enabled
    model.eval()
    jit.enable_to_static(False)
    try:
        with no_grad():
            model(inputs)
    finally:
        jit.enable_to_static(to_static)
        if training:
            model.train()
        for h in handles:
            h.remove()

    table = _Table(["Layer Name", "Input Shape", "Output Shape", "Params", "Flops"])
    total_ops = total_params = 0
    done = set()
    for _, m in _leaves(model):
        if id(m) in done or id(m) not in counted:
            continue
        done.add(id(m))
        total_ops += int(m.total_ops)
        total_params += int(m.total_params)
        table.add_row([m.full_name(), m.input_shape, m.output_shape, int(m.total_params),
                       int(m.total_ops)])
    for _, m in _leaves(model):
        for attr in ("total_ops", "total_params", "input_shape", "output_shape"):
            m.__dict__.pop(attr, None)
    if print_detail:
        print(table.text())
    print(f"Total Flops: {total_ops}     Total Params: {total_params}")
    return total_ops


def flops(net, input_size, custom_ops=None, print_detail=False):
    """The FLOPs of `net` (an nn.Layer) on an input of shape `input_size` (batch size 1);
    prints the totals, and the per-layer table with print_detail."""
    from .. import nn, randn
    from ..static import Program
    if isinstance(net, Program):
        raise NotImplementedError("(Unimplemented) flops: argument 'net' is a static Program; "
                                  "Skiff counts the FLOPs of an nn.Layer")
    if not isinstance(net, nn.Layer):
        warnings.warn("Your model must be an instance of paddle.nn.Layer or "
                      "paddle.static.Program.")
        return -1
    if not isinstance(input_size, (list, tuple)) or not all(
            isinstance(s, (int, np.integer)) and not isinstance(s, bool) and s > 0
            for s in input_size):
        raise ValueError(f"(InvalidArgument) flops: argument 'input_size' expected a list of "
                         f"positive ints, got {input_size!r}")
    if custom_ops is not None and not isinstance(custom_ops, dict):
        raise TypeError(f"(InvalidType) flops: argument 'custom_ops' expected a dict of "
                        f"Layer class -> function, got {type(custom_ops).__name__}")
    return _dynamic_flops(net, randn(list(input_size)), custom_ops or {}, print_detail)
