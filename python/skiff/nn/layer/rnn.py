"""Recurrent layers (Paddle's paddle.nn.SimpleRNNCell, LSTMCell, GRUCell, RNN, BiRNN, SimpleRNN,
LSTM, GRU), composed from matmul and elementwise ops; the time loop runs in Python, one cell call
per step, so autograd and to_static see ordinary ops.

Gate layouts are Paddle's, which are torch's: LSTM [i, f, g(cell), o], GRU [r, z, c] with the
reset gate applied to the hidden projection (c = tanh(x_c + r * (W_hc h + b_hc))) and
h = (h_prev - c) * z + c. Parameters have Paddle's shapes (weight_ih [gates * hidden, input])
and initializer (uniform in +-1/sqrt(hidden_size)). SimpleRNN/LSTM/GRU are Paddle's RNNBase: a
LayerList of RNN / BiRNN wrappers around cells whose parameters are also registered under the
flat names weight_ih_l{k}[_reverse], weight_hh_l{k}, bias_ih_l{k}, bias_hh_l{k} (weight_ho_l{k}
with proj_size), so state_dict keys are Paddle's (both `0.cell.weight_ih` and `weight_ih_l0`).

sequence_length: steps at or past a sequence's length leave its state unchanged (the reverse
direction runs over the flipped padded sequence, so it starts at the last valid step), and
SimpleRNN/LSTM/GRU return zeros at those steps, as Paddle's fused rnn kernel does."""
import math

from ... import Tensor, _errors
from .. import initializer as I
from ..functional._common_ops import ops as _ops
from .container import LayerList
from .layers import Layer

__all__ = ["RNNCellBase", "SimpleRNNCell", "LSTMCell", "GRUCell", "RNN", "BiRNN", "SimpleRNN",
           "LSTM", "GRU"]


def _map(fn, *trees):
    """fn over the leaves of nested tuples/lists (the structure of the first tree)."""
    if isinstance(trees[0], (tuple, list)):
        return type(trees[0])(_map(fn, *parts) for parts in zip(*trees))
    return fn(*trees)


def _leaves(tree):
    if isinstance(tree, (tuple, list)):
        return [leaf for part in tree for leaf in _leaves(part)]
    return [tree]


class RNNCellBase(Layer):
    """A cell maps (inputs [batch, input_size], states) to (outputs, new_states) for one step."""

    def get_initial_states(self, batch_ref, shape=None, dtype=None, init_value=0.0,
                           batch_dim_idx=0):
        """States of `shape` (default state_shape, nested like it) filled with init_value,
        with batch_ref.shape[batch_dim_idx] prepended."""
        batch = _leaves(batch_ref)[0].shape[batch_dim_idx]
        shape = self.state_shape if shape is None else shape
        dtype = _leaves(batch_ref)[0].dtype if dtype is None else dtype

        def make(s):
            return _ops.full([batch] + list(s), float(init_value), dtype)

        if isinstance(shape, (tuple, list)) and shape and isinstance(shape[0], (tuple, list)):
            return type(shape)(make(s) for s in shape)
        return make(shape)

    @property
    def state_shape(self):
        raise NotImplementedError(f"{type(self).__name__} does not define state_shape")

    @property
    def state_dtype(self):
        return None

    def _create_weights(self, gates, input_size, hidden_size, weight_ih_attr, weight_hh_attr,
                        bias_ih_attr, bias_hh_attr, hh_cols=None):
        std = 1.0 / math.sqrt(hidden_size)
        init = I.Uniform(-std, std)
        rows = gates * hidden_size
        self.weight_ih = self.create_parameter([rows, input_size], weight_ih_attr,
                                               default_initializer=init)
        self.weight_hh = self.create_parameter([rows, hh_cols or hidden_size], weight_hh_attr,
                                               default_initializer=init)
        self.bias_ih = self.create_parameter([rows], bias_ih_attr, is_bias=True,
                                             default_initializer=init)
        self.bias_hh = self.create_parameter([rows], bias_hh_attr, is_bias=True,
                                             default_initializer=init)

    def _check_step(self, inputs, states):
        if len(inputs.shape) != 2 or inputs.shape[-1] != self.input_size:
            raise _errors.InvalidArgument(
                f"{type(self).__name__}: inputs must be [batch_size, {self.input_size}], got "
                f"shape {list(inputs.shape)}")
        for s in _leaves(states):
            if len(s.shape) != 2 or s.shape[0] != inputs.shape[0]:
                raise _errors.InvalidArgument(
                    f"{type(self).__name__}: states must be [batch_size, size] with the batch "
                    f"size {inputs.shape[0]} of the inputs, got shape {list(s.shape)}")

    def _project(self, inputs, h):
        x = _ops.linear(inputs, _ops.transpose(self.weight_ih, [1, 0]), self.bias_ih)
        hh = _ops.linear(h, _ops.transpose(self.weight_hh, [1, 0]), self.bias_hh)
        return x, hh


def _check_sizes(owner, input_size, hidden_size):
    for name, v in (("input_size", input_size), ("hidden_size", hidden_size)):
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise _errors.InvalidArgument(f"{owner}: {name} of {owner} must be greater than 0, "
                                          f"but now equals to {v}")


class SimpleRNNCell(RNNCellBase):
    """h = activation(W_ih x + b_ih + W_hh h_prev + b_hh), activation 'tanh' or 'relu'."""

    def __init__(self, input_size, hidden_size, activation="tanh", weight_ih_attr=None,
                 weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, name=None):
        super().__init__()
        _check_sizes("SimpleRNNCell", input_size, hidden_size)
        if activation not in ("tanh", "relu"):
            raise _errors.InvalidArgument("SimpleRNNCell: activation for SimpleRNNCell should "
                                          f"be tanh or relu, but get {activation}")
        self._create_weights(1, input_size, hidden_size, weight_ih_attr, weight_hh_attr,
                             bias_ih_attr, bias_hh_attr)
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.activation = activation
        self._activation_fn = _ops.tanh if activation == "tanh" else _ops.relu

    def forward(self, inputs, states=None):
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        self._check_step(inputs, states)
        x, hh = self._project(inputs, states)
        h = self._activation_fn(x + hh)
        return h, h

    @property
    def state_shape(self):
        return (self.hidden_size,)

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        return s if self.activation == "tanh" else s + f", activation={self.activation}"


class LSTMCell(RNNCellBase):
    """i, f, g, o = split(W_ih x + b_ih + W_hh h_prev + b_hh); c = sigmoid(f) c_prev +
    sigmoid(i) tanh(g); h = sigmoid(o) tanh(c) (then h W_ho^T with proj_size > 0).
    states are (h, c)."""

    def __init__(self, input_size, hidden_size, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, proj_size=0, name=None):
        super().__init__()
        _check_sizes("LSTMCell", input_size, hidden_size)
        if isinstance(proj_size, bool) or not isinstance(proj_size, int) or proj_size < 0 or \
                proj_size >= hidden_size and proj_size != 0:
            raise _errors.InvalidArgument("LSTMCell: proj_size must be >= 0 and smaller than "
                                          f"hidden_size {hidden_size}, got {proj_size}")
        self._create_weights(4, input_size, hidden_size, weight_ih_attr, weight_hh_attr,
                             bias_ih_attr, bias_hh_attr, hh_cols=proj_size or hidden_size)
        if proj_size > 0:
            std = 1.0 / math.sqrt(hidden_size)
            self.weight_ho = self.create_parameter([proj_size, hidden_size], weight_hh_attr,
                                                   default_initializer=I.Uniform(-std, std))
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.proj_size = proj_size

    def forward(self, inputs, states=None):
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        self._check_step(inputs, states)
        h_prev, c_prev = states
        x, hh = self._project(inputs, h_prev)
        i, f, g, o = _ops.split(x + hh, [self.hidden_size] * 4, -1)
        c = _ops.sigmoid(f) * c_prev + _ops.sigmoid(i) * _ops.tanh(g)
        h = _ops.sigmoid(o) * _ops.tanh(c)
        if self.proj_size > 0:
            h = _ops.matmul(h, self.weight_ho, False, True)
        return h, (h, c)

    @property
    def state_shape(self):
        return ((self.proj_size or self.hidden_size,), (self.hidden_size,))

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        return s + (f", proj_size={self.proj_size}" if self.proj_size else "")


class GRUCell(RNNCellBase):
    """r, z = sigmoid(x_r + h_r), sigmoid(x_z + h_z); c = tanh(x_c + r * h_c);
    h = (h_prev - c) * z + c, with x_* = W_ih x + b_ih and h_* = W_hh h_prev + b_hh."""

    def __init__(self, input_size, hidden_size, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, name=None):
        super().__init__()
        _check_sizes("GRUCell", input_size, hidden_size)
        self._create_weights(3, input_size, hidden_size, weight_ih_attr, weight_hh_attr,
                             bias_ih_attr, bias_hh_attr)
        self.input_size = input_size
        self.hidden_size = hidden_size

    def forward(self, inputs, states=None):
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        self._check_step(inputs, states)
        x, hh = self._project(inputs, states)
        x_r, x_z, x_c = _ops.split(x, [self.hidden_size] * 3, -1)
        h_r, h_z, h_c = _ops.split(hh, [self.hidden_size] * 3, -1)
        r = _ops.sigmoid(x_r + h_r)
        z = _ops.sigmoid(x_z + h_z)
        c = _ops.tanh(x_c + r * h_c)
        h = (states - c) * z + c
        return h, h

    @property
    def state_shape(self):
        return (self.hidden_size,)

    def extra_repr(self):
        return f"{self.input_size}, {self.hidden_size}"


def _step_mask(sequence_length, steps, dtype):
    """[steps, batch, 1] with 1 where step t < sequence_length[b]."""
    t = _ops.arange(0, steps, 1, sequence_length.dtype)
    valid = _ops.less_than(_ops.unsqueeze(t, [1]), _ops.unsqueeze(sequence_length, [0]))
    return _ops.unsqueeze(_ops.cast(valid, dtype), [2])


def rnn(cell, inputs, initial_states=None, sequence_length=None, time_major=False,
        is_reverse=False, **kwargs):
    """Runs `cell` over the time axis of inputs ([batch, time, ...], or [time, batch, ...] when
    time_major). Returns (outputs stacked on the time axis, final states)."""
    if not isinstance(inputs, Tensor) or len(inputs.shape) < 2:
        raise _errors.InvalidArgument("rnn: inputs must be a Tensor of at least 2 dims [batch, "
                                      "time, ...], got "
                                      f"{list(inputs.shape) if isinstance(inputs, Tensor) else inputs}")
    x = inputs if time_major else _ops.transpose(
        inputs, [1, 0] + list(range(2, len(inputs.shape))))
    steps = x.shape[0]
    if initial_states is None:
        initial_states = cell.get_initial_states(x, cell.state_shape, batch_dim_idx=1)
    mask = None
    if sequence_length is not None:
        if list(sequence_length.shape) != [x.shape[1]]:
            raise _errors.InvalidArgument(f"rnn: sequence_length must be [batch_size] = "
                                          f"[{x.shape[1]}], got {list(sequence_length.shape)}")
        mask = _step_mask(sequence_length, steps, x.dtype)
    if is_reverse:
        x = _ops.flip(x, [0])
        mask = _ops.flip(mask, [0]) if mask is not None else None
    states = initial_states
    outputs = []
    for t, x_t in enumerate(_ops.unbind(x, 0)):
        out, new_states = cell(x_t, states, **kwargs)
        if mask is not None:
            m = mask[t]
            new_states = _map(lambda old, new: old + (new - old) * m, states, new_states)
        states = new_states
        outputs.append(out)
    out = _map(lambda *steps_: _ops.stack(list(steps_), 0), *outputs)
    if is_reverse:
        out = _map(lambda o: _ops.flip(o, [0]), out)
    if not time_major:
        out = _map(lambda o: _ops.transpose(o, [1, 0] + list(range(2, len(o.shape)))), out)
    return out, states


def birnn(cell_fw, cell_bw, inputs, initial_states=None, sequence_length=None,
          time_major=False, **kwargs):
    """Forward and reverse rnn; outputs concatenated on the last axis, states (fw, bw)."""
    states_fw, states_bw = (None, None) if initial_states is None else initial_states
    out_fw, final_fw = rnn(cell_fw, inputs, states_fw, sequence_length, time_major, False,
                           **kwargs)
    out_bw, final_bw = rnn(cell_bw, inputs, states_bw, sequence_length, time_major, True,
                           **kwargs)
    out = _map(lambda a, b: _ops.concat([a, b], -1), out_fw, out_bw)
    return out, (final_fw, final_bw)


class RNN(Layer):
    """Wraps a cell into a layer over sequences: forward(inputs, initial_states=None,
    sequence_length=None, **kwargs) -> (outputs, final_states)."""

    def __init__(self, cell, is_reverse=False, time_major=False):
        super().__init__()
        if not callable(cell):
            raise _errors.InvalidType(f"RNN: cell expected an RNNCellBase, got "
                                      f"{type(cell).__name__}")
        self.cell = cell
        if not hasattr(self.cell, "call"):
            self.cell.call = self.cell.forward
        self.is_reverse = is_reverse
        self.time_major = time_major

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        return rnn(self.cell, inputs, initial_states, sequence_length, self.time_major,
                   self.is_reverse, **kwargs)


class BiRNN(Layer):
    """A forward and a backward cell over the same inputs; outputs concatenated on the last
    axis, final states (states_fw, states_bw)."""

    def __init__(self, cell_fw, cell_bw, time_major=False):
        super().__init__()
        self.cell_fw = cell_fw
        self.cell_bw = cell_bw
        if cell_fw.input_size != cell_bw.input_size:
            raise _errors.InvalidArgument("BiRNN: input size of forward cell({}) does not equal "
                                          "that of backward cell({})".format(
                                              cell_fw.input_size, cell_bw.input_size))
        for cell in (self.cell_fw, self.cell_bw):
            if not hasattr(cell, "call"):
                cell.call = cell.forward
        self.time_major = time_major

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        if isinstance(initial_states, (list, tuple)) and len(initial_states) != 2:
            raise _errors.InvalidArgument("BiRNN: length of initial_states should be 2 when it "
                                          f"is a list/tuple, got {len(initial_states)}")
        return birnn(self.cell_fw, self.cell_bw, inputs, initial_states, sequence_length,
                     self.time_major, **kwargs)


_DIRECTIONS = {"forward": 1, "bidirect": 2, "bidirectional": 2}


class RNNBase(LayerList):
    """num_layers stacked RNN (or BiRNN) layers of one cell type, dropout between layers.
    States are [num_layers * num_directions, batch, hidden] (a (h, c) pair for LSTM), ordered
    layer-major, forward before reverse."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, direction="forward",
                 time_major=False, dropout=0.0, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, proj_size=0, activation="tanh"):
        super().__init__()
        name = {"RNN_TANH": "SimpleRNN", "RNN_RELU": "SimpleRNN"}.get(mode, mode)
        if direction not in _DIRECTIONS:
            raise _errors.InvalidArgument(f"{name}: direction should be forward or bidirect "
                                          f"(or bidirectional), received direction = "
                                          f"{direction}")
        if isinstance(num_layers, bool) or not isinstance(num_layers, int) or num_layers < 1:
            raise _errors.InvalidArgument(f"{name}: num_layers must be a positive int, got "
                                          f"{num_layers}")
        if not isinstance(dropout, (int, float)) or not 0 <= dropout <= 1:
            raise _errors.InvalidArgument(f"{name}: dropout must be in [0, 1], got {dropout}")
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.num_directions = _DIRECTIONS[direction]
        self.time_major = time_major
        self.dropout = dropout
        self.proj_size = proj_size
        self.state_components = 2 if mode == "LSTM" else 1
        out_size = (proj_size or hidden_size) * self.num_directions

        def cell(in_size):
            attrs = dict(weight_ih_attr=weight_ih_attr, weight_hh_attr=weight_hh_attr,
                         bias_ih_attr=bias_ih_attr, bias_hh_attr=bias_hh_attr)
            if mode == "LSTM":
                return LSTMCell(in_size, hidden_size, proj_size=proj_size, **attrs)
            if mode == "GRU":
                return GRUCell(in_size, hidden_size, **attrs)
            return SimpleRNNCell(in_size, hidden_size, activation, **attrs)

        for layer in range(num_layers):
            in_size = input_size if layer == 0 else out_size
            if self.num_directions == 1:
                self.append(RNN(cell(in_size), False, time_major))
            else:
                self.append(BiRNN(cell(in_size), cell(in_size), time_major))
        self._register_flat_names()

    def _cells(self, layer):
        rnn_layer = self[layer]
        return [rnn_layer.cell] if self.num_directions == 1 else \
            [rnn_layer.cell_fw, rnn_layer.cell_bw]

    def _register_flat_names(self):
        for layer in range(self.num_layers):
            for d, cell in enumerate(self._cells(layer)):
                suffix = "_reverse" if d == 1 else ""
                for attr in ("weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_ho"):
                    p = getattr(cell, attr, None)
                    if p is not None:
                        setattr(self, f"{attr}_l{layer}{suffix}", p)

    def _split_states(self, states, batch, dtype):
        """Per layer: the state (or (fw, bw) pair) each RNN/BiRNN layer takes."""
        n = self.num_layers * self.num_directions
        if states is None:
            h = _ops.full([n, batch, self.proj_size or self.hidden_size], 0.0, dtype)
            states = h if self.state_components == 1 else \
                (h, _ops.full([n, batch, self.hidden_size], 0.0, dtype))
        parts = [states] if self.state_components == 1 else list(states)
        if len(parts) != self.state_components:
            raise _errors.InvalidArgument(f"{self._name()}: initial_states expected "
                                          f"{self.state_components} tensors, got {len(parts)}")
        for p in parts:
            if not isinstance(p, Tensor) or len(p.shape) != 3 or p.shape[0] != n or \
                    p.shape[1] != batch:
                got = list(p.shape) if isinstance(p, Tensor) else type(p).__name__
                raise _errors.InvalidArgument(
                    f"{self._name()}: initial_states must be [num_layers * num_directions, "
                    f"batch_size, hidden_size] = [{n}, {batch}, ...], got {got}")
        unbound = [_ops.unbind(p, 0) for p in parts]
        per_step = [unbound[0][i] if self.state_components == 1 else
                    tuple(u[i] for u in unbound) for i in range(n)]
        if self.num_directions == 1:
            return per_step
        return [(per_step[2 * i], per_step[2 * i + 1]) for i in range(self.num_layers)]

    def _name(self):
        return {"RNN_TANH": "SimpleRNN", "RNN_RELU": "SimpleRNN"}.get(self.mode, self.mode)

    def forward(self, inputs, initial_states=None, sequence_length=None):
        if not isinstance(inputs, Tensor) or len(inputs.shape) != 3 or \
                inputs.shape[-1] != self.input_size:
            got = list(inputs.shape) if isinstance(inputs, Tensor) else type(inputs).__name__
            order = "time_steps, batch_size" if self.time_major else "batch_size, time_steps"
            raise _errors.InvalidArgument(f"{self._name()}: inputs must be [{order}, "
                                          f"{self.input_size}], got {got}")
        batch = inputs.shape[1 if self.time_major else 0]
        states = self._split_states(initial_states, batch, inputs.dtype)
        finals = []
        x = inputs
        for i, rnn_layer in enumerate(self):
            if i > 0 and self.dropout:
                from ..functional import dropout
                x = dropout(x, self.dropout, training=self.training, mode="upscale_in_train")
            x, final = rnn_layer(x, states[i], sequence_length)
            finals.append(final)
        if sequence_length is not None:  # zeros past each sequence's end, as the fused kernel
            mask = _step_mask(sequence_length, x.shape[0 if self.time_major else 1], x.dtype)
            x = x * (mask if self.time_major else _ops.transpose(mask, [1, 0, 2]))
        return x, self._concat_states(finals)

    def _concat_states(self, finals):
        flat = finals if self.num_directions == 1 else [s for pair in finals for s in pair]
        if self.state_components == 1:
            return _ops.stack(flat, 0)
        return tuple(_ops.stack([s[k] for s in flat], 0) for k in range(self.state_components))

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.num_directions == 2:
            s += ", direction=bidirect"
        if self.time_major:
            s += ", time_major=True"
        if self.dropout:
            s += f", dropout={self.dropout}"
        return s


class SimpleRNN(RNNBase):
    """Multi-layer Elman RNN (tanh or relu); forward(inputs, initial_states=None,
    sequence_length=None) -> (outputs, final_states [num_layers * num_directions, batch,
    hidden])."""

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward",
                 time_major=False, dropout=0.0, activation="tanh", weight_ih_attr=None,
                 weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, name=None):
        mode = {"tanh": "RNN_TANH", "relu": "RNN_RELU"}.get(activation)
        if mode is None:
            raise _errors.InvalidArgument(f"SimpleRNN: Unknown activation '{activation}'")
        self.activation = activation
        super().__init__(mode, input_size, hidden_size, num_layers, direction, time_major,
                         dropout, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr,
                         activation=activation)


class LSTM(RNNBase):
    """Multi-layer LSTM; states (h, c), each [num_layers * num_directions, batch, hidden]
    (h: proj_size with proj_size > 0)."""

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward",
                 time_major=False, dropout=0.0, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, proj_size=0, name=None):
        super().__init__("LSTM", input_size, hidden_size, num_layers, direction, time_major,
                         dropout, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr,
                         proj_size)


class GRU(RNNBase):
    """Multi-layer GRU; states [num_layers * num_directions, batch, hidden]."""

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward",
                 time_major=False, dropout=0.0, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, name=None):
        super().__init__("GRU", input_size, hidden_size, num_layers, direction, time_major,
                         dropout, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
