"""SimpleRNNCell/LSTMCell/GRUCell, RNN/BiRNN and SimpleRNN/LSTM/GRU against torch.nn with the
weights copied: outputs, final states and gradients; sequence_length masking against torch's
packed sequences; Paddle's parameter names; to_static; bad shapes."""
import numpy as np
import pytest
import torch

import skiff as paddle
import skiff.nn as nn

RTOL, ATOL = 1e-5, 1e-5


def t(x):
    return torch.tensor(x.numpy(), requires_grad=True)


def copy_weights(layer, tlayer, rename=lambda n: n):
    """Copies each torch parameter from the skiff parameter of the (renamed) same name."""
    params = dict(layer.named_parameters())
    with torch.no_grad():
        for name, tp in tlayer.named_parameters():
            tp.copy_(torch.tensor(params[rename(name)].numpy()))


def check_grads(layer, tlayer, pairs, rename=lambda n: n):
    params = dict(layer.named_parameters())
    for name, tp in tlayer.named_parameters():
        np.testing.assert_allclose(params[rename(name)].grad.numpy(), tp.grad.numpy(),
                                   rtol=1e-4, atol=1e-5, err_msg=name)
    for mine, theirs in pairs:
        np.testing.assert_allclose(mine.grad.numpy(), theirs.grad.numpy(), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("kind", ["rnn_tanh", "rnn_relu", "lstm", "gru"])
def test_cells_match_torch(kind):
    paddle.seed(1)
    x = paddle.randn([3, 4])
    x.stop_gradient = False
    h0 = paddle.randn([3, 5])
    h0.stop_gradient = False
    if kind == "lstm":
        cell, tcell = nn.LSTMCell(4, 5), torch.nn.LSTMCell(4, 5)
        c0 = paddle.randn([3, 5])
        states, tstates = (h0, c0), (t(h0), t(c0))
    elif kind == "gru":
        cell, tcell = nn.GRUCell(4, 5), torch.nn.GRUCell(4, 5)
        states, tstates = h0, t(h0)
    else:
        act = kind.split("_")[1]
        cell, tcell = nn.SimpleRNNCell(4, 5, activation=act), torch.nn.RNNCell(4, 5,
                                                                              nonlinearity=act)
        states, tstates = h0, t(h0)
    copy_weights(cell, tcell)
    tx = t(x)
    out, new = cell(x, states)
    tout = tcell(tx, tstates)
    if kind == "lstm":
        np.testing.assert_allclose(new[1].numpy(), tout[1].detach().numpy(), RTOL, ATOL)
        tout = tout[0]
    np.testing.assert_allclose(out.numpy(), tout.detach().numpy(), RTOL, ATOL)
    w = np.random.default_rng(0).standard_normal(out.shape).astype("float32")
    (out * paddle.to_tensor(w)).sum().backward()
    (tout * torch.tensor(w)).sum().backward()
    check_grads(cell, tcell, [(x, tx)])
    h_t = tstates[0] if kind == "lstm" else tstates
    np.testing.assert_allclose(h0.grad.numpy(), h_t.grad.numpy(), rtol=1e-4, atol=1e-5)


def test_cell_default_states_and_names():
    cell = nn.LSTMCell(4, 6)
    assert [n for n, _ in cell.named_parameters()] == ["weight_ih", "weight_hh", "bias_ih",
                                                       "bias_hh"]
    assert list(cell.weight_ih.shape) == [24, 4] and list(cell.weight_hh.shape) == [24, 6]
    bound = 1 / np.sqrt(6)
    assert np.abs(cell.weight_ih.numpy()).max() <= bound
    out, (h, c) = cell(paddle.randn([2, 4]))
    assert list(h.shape) == [2, 6] and list(c.shape) == [2, 6]
    assert cell.state_shape == ((6,), (6,))
    nobias = nn.GRUCell(3, 4, bias_ih_attr=False, bias_hh_attr=False)
    assert nobias.bias_ih is None and len(nobias.parameters()) == 2
    nobias(paddle.randn([2, 3]))


def torch_rnn(mode, *args, **kwargs):
    return {"SimpleRNN": torch.nn.RNN, "LSTM": torch.nn.LSTM, "GRU": torch.nn.GRU}[mode](
        *args, **kwargs)


def rename_torch(name):
    return name.replace("weight_hr", "weight_ho")


@pytest.mark.parametrize("mode", ["SimpleRNN", "LSTM", "GRU"])
@pytest.mark.parametrize("direction", ["forward", "bidirect"])
@pytest.mark.parametrize("time_major", [False, True])
def test_multilayer_matches_torch(mode, direction, time_major):
    paddle.seed(2)
    layer = getattr(nn, mode)(4, 5, num_layers=2, direction=direction, time_major=time_major)
    tlayer = torch_rnn(mode, 4, 5, num_layers=2, bidirectional=direction != "forward",
                       batch_first=not time_major)
    copy_weights(layer, tlayer)
    shape = [6, 3, 4] if time_major else [3, 6, 4]
    x = paddle.randn(shape)
    x.stop_gradient = False
    d = 2 if direction != "forward" else 1
    h0 = paddle.randn([2 * d, 3, 5])
    init = (h0, paddle.randn([2 * d, 3, 5])) if mode == "LSTM" else h0
    tinit = tuple(t(s) for s in init) if mode == "LSTM" else t(init)
    tx = t(x)
    out, final = layer(x, init)
    tout, tfinal = tlayer(tx, tinit)
    np.testing.assert_allclose(out.numpy(), tout.detach().numpy(), RTOL, ATOL)
    for mine, theirs in zip(final if mode == "LSTM" else [final],
                            tfinal if mode == "LSTM" else [tfinal]):
        np.testing.assert_allclose(mine.numpy(), theirs.detach().numpy(), RTOL, ATOL)
    w = np.random.default_rng(1).standard_normal(out.shape).astype("float32")
    (out * paddle.to_tensor(w)).sum().backward()
    (tout * torch.tensor(w)).sum().backward()
    check_grads(layer, tlayer, [(x, tx)])


@pytest.mark.parametrize("mode", ["SimpleRNN", "LSTM", "GRU"])
@pytest.mark.parametrize("direction", ["forward", "bidirectional"])
def test_sequence_length_matches_torch_packed(mode, direction):
    paddle.seed(3)
    layer = getattr(nn, mode)(4, 5, num_layers=2, direction=direction)
    tlayer = torch_rnn(mode, 4, 5, num_layers=2, bidirectional=direction != "forward",
                       batch_first=True)
    copy_weights(layer, tlayer)
    x = paddle.randn([3, 7, 4])
    x.stop_gradient = False
    lengths = [7, 3, 5]
    seq = paddle.to_tensor(lengths, dtype="int64")
    out, final = layer(x, sequence_length=seq)
    tx = t(x)
    packed = torch.nn.utils.rnn.pack_padded_sequence(tx, torch.tensor(lengths), batch_first=True,
                                                     enforce_sorted=False)
    tout, tfinal = tlayer(packed)
    tout = torch.nn.utils.rnn.pad_packed_sequence(tout, batch_first=True, total_length=7)[0]
    np.testing.assert_allclose(out.numpy(), tout.detach().numpy(), RTOL, ATOL)
    assert np.all(out.numpy()[1, 3:] == 0)
    for mine, theirs in zip(final if mode == "LSTM" else [final],
                            tfinal if mode == "LSTM" else [tfinal]):
        np.testing.assert_allclose(mine.numpy(), theirs.detach().numpy(), RTOL, ATOL)
    out.sum().backward()
    tout.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-4, atol=1e-5)


def test_lstm_proj_size_matches_torch():
    paddle.seed(4)
    layer = nn.LSTM(4, 6, num_layers=2, direction="bidirect", proj_size=3)
    assert "weight_ho_l1_reverse" in layer.state_dict()
    tlayer = torch.nn.LSTM(4, 6, num_layers=2, bidirectional=True, proj_size=3,
                           batch_first=True)
    copy_weights(layer, tlayer, rename_torch)
    x = paddle.randn([2, 5, 4])
    out, (h, c) = layer(x)
    tout, (th, tc) = tlayer(t(x))
    assert list(out.shape) == [2, 5, 6] and list(h.shape) == [4, 2, 3]
    for mine, theirs in ((out, tout), (h, th), (c, tc)):
        np.testing.assert_allclose(mine.numpy(), theirs.detach().numpy(), RTOL, ATOL)


def test_paddle_state_dict_names_and_round_trip():
    layer = nn.GRU(3, 4, num_layers=2, direction="bidirect")
    keys = list(layer.state_dict())
    flat = [f"{w}_l{k}{s}" for k in range(2) for s in ("", "_reverse")
            for w in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")]
    assert keys[:16] == flat
    assert "0.cell_fw.weight_ih" in keys and "1.cell_bw.bias_hh" in keys
    assert len(layer.parameters()) == 16  # the flat names share the cells' parameters
    assert list(layer.weight_ih_l1.shape) == [12, 8]
    other = nn.GRU(3, 4, num_layers=2, direction="bidirect")
    missing, unexpected = other.set_state_dict(layer.state_dict())
    assert not missing and not unexpected
    x = paddle.randn([2, 5, 3])
    np.testing.assert_array_equal(other(x)[0].numpy(), layer(x)[0].numpy())


def test_rnn_and_birnn_wrappers():
    paddle.seed(5)
    cell = nn.GRUCell(4, 5)
    x = paddle.randn([2, 6, 4])
    out, h = nn.RNN(cell)(x)
    # by hand, step by step
    state = paddle.zeros([2, 5])
    for i in range(6):
        y, state = cell(x[:, i], state)
    np.testing.assert_allclose(out.numpy()[:, -1], y.numpy(), RTOL, ATOL)
    np.testing.assert_allclose(h.numpy(), state.numpy(), RTOL, ATOL)
    rev, h_rev = nn.RNN(cell, is_reverse=True)(x)
    state = paddle.zeros([2, 5])
    for i in reversed(range(6)):
        y, state = cell(x[:, i], state)
    np.testing.assert_allclose(rev.numpy()[:, 0], y.numpy(), RTOL, ATOL)
    bi = nn.BiRNN(nn.LSTMCell(4, 3), nn.LSTMCell(4, 3))
    out, (fw, bw) = bi(x)
    assert list(out.shape) == [2, 6, 6] and list(fw[0].shape) == [2, 3]
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) BiRNN: input size"):
        nn.BiRNN(nn.GRUCell(4, 3), nn.GRUCell(5, 3))


def test_dropout_between_layers_only_in_training():
    paddle.seed(6)
    layer = nn.LSTM(4, 5, num_layers=3, dropout=0.5)
    x = paddle.randn([2, 4, 4])
    layer.eval()
    a = layer(x)[0].numpy()
    no_drop = nn.LSTM(4, 5, num_layers=3)
    no_drop.set_state_dict(layer.state_dict())
    np.testing.assert_allclose(a, no_drop(x)[0].numpy(), RTOL, ATOL)
    layer.train()
    assert not np.allclose(layer(x)[0].numpy(), a)


def test_lstm_under_to_static_matches_eager():
    paddle.seed(7)
    net = nn.LSTM(4, 5, num_layers=2, direction="bidirect")
    x = paddle.randn([2, 6, 4])
    seq = paddle.to_tensor([6, 4], dtype="int64")
    want, (wh, wc) = net(x, sequence_length=seq)
    static = paddle.jit.to_static(net)
    got, (gh, gc) = static(x, sequence_length=seq)
    for mine, theirs in ((got, want), (gh, wh), (gc, wc)):
        np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-6, atol=1e-6)


def test_bad_shapes_and_arguments():
    layer = nn.LSTM(4, 5, num_layers=2)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) LSTM: inputs must be "
                                         r"\[batch_size, time_steps, 4\], got \[2, 3, 5\]"):
        layer(paddle.randn([2, 3, 5]))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) LSTM: initial_states must be "
                                         r"\[num_layers \* num_directions"):
        layer(paddle.randn([2, 3, 4]), (paddle.zeros([1, 2, 5]), paddle.zeros([1, 2, 5])))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) GRU: direction should be "
                                         r"forward or bidirect"):
        nn.GRU(4, 5, direction="backward")
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) SimpleRNNCell: activation"):
        nn.SimpleRNNCell(4, 5, activation="sigmoid")
    with pytest.raises(ValueError, match=r"hidden_size of GRUCell must be greater than 0"):
        nn.GRUCell(4, 0)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) GRUCell: inputs must be "
                                         r"\[batch_size, 4\]"):
        nn.GRUCell(4, 5)(paddle.randn([2, 3]))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) rnn: sequence_length"):
        nn.GRU(4, 5)(paddle.randn([2, 3, 4]), sequence_length=paddle.to_tensor([1, 2, 3]))


@pytest.mark.parametrize("mode", ["LSTM", "GRU"])
def test_bfloat16_and_float16_follow_float32(mode):
    paddle.seed(8)
    layer = getattr(nn, mode)(4, 8, num_layers=2, direction="bidirect")
    x = paddle.randn([2, 5, 4])
    want = layer(x)[0].numpy()
    for dtype in ("bfloat16", "float16"):
        low = getattr(nn, mode)(4, 8, num_layers=2, direction="bidirect")
        low.set_state_dict(layer.state_dict())
        low.to(dtype=dtype)
        out = low(x.astype(dtype))[0]
        assert str(out.dtype) == f"paddle.{dtype}"
        # 16-bit rounding of every gate over 5 steps and 2 layers (bf16 has 8 mantissa bits)
        tol = 1e-2 if dtype == "bfloat16" else 1e-3
        np.testing.assert_allclose(out.astype("float32").numpy(), want, atol=tol)
