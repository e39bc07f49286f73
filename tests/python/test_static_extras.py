"""paddle.static extras: auc (stateful over runs, against a pairwise numpy reference),
name_scope (op_namescope of the ops appended inside), scope_guard, ExecutionStrategy."""
import inspect

import numpy as np
import pytest

import skiff as paddle
from skiff import static


@pytest.fixture
def static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


def _pairwise_auc(p, lab, buckets=4095):
    """ROC AUC by counting pairs, on probabilities bucketed as Paddle's kernel does."""
    b = np.minimum((p.astype(np.float64) * buckets).astype(np.int64), buckets)
    pos, neg = b[lab == 1], b[lab == 0]
    if not len(pos) or not len(neg):
        return 0.0
    return float(np.mean((pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])))


def _batch(rng, n):
    p = rng.random(n).astype(np.float32)
    lab = (rng.random(n) < p).astype(np.int64)
    return np.stack([1 - p, p], 1), lab[:, None], p, lab


def test_signatures():
    sig = inspect.signature(static.auc)
    assert list(sig.parameters) == ["input", "label", "curve", "num_thresholds", "topk",
                                    "slide_steps", "ins_tag_weight"]
    assert sig.parameters["num_thresholds"].default == 4095
    assert sig.parameters["curve"].default == "ROC"
    assert list(inspect.signature(static.name_scope).parameters) == ["prefix"]
    assert list(inspect.signature(static.scope_guard).parameters) == ["scope"]
    assert isinstance(static.ExecutionStrategy, type)


def test_auc_eager_equals_pairwise_reference():
    rng = np.random.default_rng(0)
    x, y, p, lab = _batch(rng, 200)
    auc, batch_auc, stats = static.auc(paddle.to_tensor(x), paddle.to_tensor(y))
    assert auc.dtype == paddle.float64 and auc.shape == []
    np.testing.assert_allclose(float(auc), _pairwise_auc(p, lab), rtol=1e-12)
    np.testing.assert_allclose(float(batch_auc), float(auc), rtol=1e-12)
    batch_pos, batch_neg, stat_pos, stat_neg = stats
    assert stat_pos.shape == [1, 4096] and stat_pos.dtype == paddle.int64
    assert int(stat_pos.sum()) == int(lab.sum()) and int(stat_neg.sum()) == int((1 - lab).sum())
    # few thresholds: ties inside a bucket count half
    auc8, _, _ = static.auc(paddle.to_tensor(x), paddle.to_tensor(y), num_thresholds=8)
    np.testing.assert_allclose(float(auc8), _pairwise_auc(p, lab, 8), rtol=1e-12)
    # one class only: 0, as Paddle's kernel
    auc0, _, _ = static.auc(paddle.to_tensor(x), paddle.zeros([200, 1], "int64"))
    assert float(auc0) == 0.0


def test_auc_accumulates_over_runs_and_slides(static_mode):
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        x = static.data("x", [None, 2], "float32")
        y = static.data("y", [None, 1], "int64")
        auc, batch_auc, _ = static.auc(x, y, slide_steps=2)
        auc_all, batch_all, _ = static.auc(x, y, num_thresholds=100, slide_steps=0)
    exe = static.Executor()
    exe.run(startup)
    rng = np.random.default_rng(1)
    ps, labs = [], []
    for _ in range(4):
        xb, yb, p, lab = _batch(rng, 30)
        ps.append(p)
        labs.append(lab)
        a, b, a100, b100 = exe.run(main, feed={"x": xb, "y": yb},
                                   fetch_list=[auc, batch_auc, auc_all, batch_all])
        np.testing.assert_allclose(a, _pairwise_auc(np.concatenate(ps), np.concatenate(labs)))
        np.testing.assert_allclose(b, _pairwise_auc(np.concatenate(ps[-2:]),
                                                    np.concatenate(labs[-2:])))
        ref100 = _pairwise_auc(np.concatenate(ps), np.concatenate(labs), 100)
        np.testing.assert_allclose([a100, b100], [ref100, ref100])
    exe.run(startup)  # the startup program zeroes the histograms again
    xb, yb, p, lab = _batch(rng, 30)
    a, = exe.run(main, feed={"x": xb, "y": yb}, fetch_list=[auc])
    np.testing.assert_allclose(a, _pairwise_auc(p, lab))


def test_auc_bad_input():
    x, y = paddle.rand([4, 2]), paddle.zeros([4, 1], "int64")
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) auc: argument 'curve'"):
        static.auc(x, y, curve="PR")
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) auc: argument 'num_thresholds'"):
        static.auc(x, y, num_thresholds=0)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) auc: argument 'slide_steps'"):
        static.auc(x, y, slide_steps=-1)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) auc: argument 'input' expected "
                                         r"\[batch, 2\]"):
        static.auc(paddle.rand([4, 3]), y)
    with pytest.raises(TypeError, match=r"\(InvalidType\) auc: argument 'label' expected an int"):
        static.auc(x, paddle.zeros([4, 1]))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) auc: argument 'label' expected "
                                         r"shape \[batch, 1\]"):
        static.auc(x, paddle.zeros([5, 1], "int64"))


def test_name_scope_sets_op_namescope(static_mode):
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        x = static.data("x", [None, 2], "float32")
        with static.name_scope("encoder"):
            h = x * 2.0
            with static.name_scope("attn"):
                h = h + 1.0
        with static.name_scope("encoder"):  # the same prefix again: a new scope
            h = h - 1.0
        h = paddle.tanh(h)
    got = [(op.type, op.attr("op_namescope")) for op in main.global_block().ops]
    assert got == [("data", "/"), ("multiply", "/encoder/"), ("add", "/encoder/attn/"),
                   ("subtract", "/encoder_1/"), ("tanh", "/")]
    op = main.global_block().ops[1]
    assert op.has_attr("op_namescope") and not op.has_attr("nope")
    with pytest.raises(RuntimeError, match=r"\(NotFound\) Operator.attr: op 'multiply' has no "
                                           r"attribute 'nope'"):
        op.attr("nope")
    exe = static.Executor()
    out, = exe.run(main, feed={"x": np.ones([1, 2], np.float32)}, fetch_list=[h])
    np.testing.assert_allclose(out, np.tanh(np.full([1, 2], 2.0)), rtol=1e-6)


def test_name_scope_eager_and_bad_prefix(static_mode):
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) name_scope: argument 'prefix'"):
        with static.name_scope(""):
            pass
    with pytest.raises(TypeError, match=r"\(InvalidType\) name_scope: argument 'prefix'"):
        with static.name_scope(3):
            pass
    paddle.disable_static()
    with static.name_scope("anything"):  # dygraph: no effect, as in Paddle
        assert float(paddle.ones([1]) * 2) == 2.0
    with static.name_scope():
        pass
    paddle.enable_static()


def test_scope_guard_switches_global_scope():
    outer = static.global_scope()
    new = static.Scope()
    with static.scope_guard(new):
        assert static.global_scope() is new
        inner = static.Scope()
        with static.scope_guard(inner):
            assert static.global_scope() is inner
        assert static.global_scope() is new
    assert static.global_scope() is outer
    with pytest.raises(TypeError, match=r"\(InvalidType\) scope_guard: argument 'scope'"):
        with static.scope_guard("scope"):
            pass
    assert static.global_scope() is outer


def test_execution_strategy_options():
    s = static.ExecutionStrategy()
    assert (s.num_threads, s.num_iteration_per_drop_scope, s.num_iteration_per_run,
            s.use_thread_barrier) == (0, 100, 1, False)
    s.num_threads = 4
    s.num_iteration_per_drop_scope = 10
    s.use_thread_barrier = True
    assert (s.num_threads, s.num_iteration_per_drop_scope, s.use_thread_barrier) == (4, 10, True)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) ExecutionStrategy.num_threads"):
        s.num_threads = -1
    with pytest.raises(TypeError, match=r"\(InvalidType\) ExecutionStrategy.use_thread_barrier"):
        s.use_thread_barrier = 1
    with pytest.raises(AttributeError, match="ExecutionStrategy has no option 'threads'"):
        s.threads = 2


# ---------------------------------------------------------------------------------- Print
def test_print_signature():
    sig = inspect.signature(static.Print)
    assert list(sig.parameters) == ["input", "first_n", "message", "summarize",
                                    "print_tensor_name", "print_tensor_type",
                                    "print_tensor_shape", "print_tensor_layout",
                                    "print_tensor_lod", "print_phase"]
    assert sig.parameters["summarize"].default == 20 and sig.parameters["first_n"].default == -1
    assert sig.parameters["print_phase"].default == "both"


def test_print_prints_each_run_in_paddles_format(static_mode, capsys):
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        x = static.data("x", [None, 3], "float32")
        y = static.Print(x * 2.0, message="The content of input layer:")
        z = y + 1.0
        static.Print(paddle.cast(z, "int64"), first_n=1, summarize=2, print_tensor_lod=False,
                     print_tensor_layout=False)
    exe = static.Executor()
    exe.run(startup)
    capsys.readouterr()
    out, = exe.run(main, feed={"x": np.array([[1, 2, 3], [4, 5, 6]], np.float32)},
                   fetch_list=[z])
    np.testing.assert_allclose(out, [[3, 5, 7], [9, 11, 13]])
    text = capsys.readouterr().out
    name = y.name
    assert text.startswith(f"Variable: {name}\n  - message: The content of input layer:\n"
                           f"  - lod: {{}}\n  - place: Place(cpu)\n  - shape: [2, 3]\n"
                           f"  - layout: NCHW\n  - dtype: float\n  - data: [2 4 6 8 10 12]\n")
    assert text.endswith("  - place: Place(cpu)\n  - shape: [2, 3]\n  - dtype: int64_t\n"
                         "  - data: [3 5]\n")
    exe.run(main, feed={"x": np.zeros([1, 3], np.float32)}, fetch_list=[z])
    text = capsys.readouterr().out
    assert text.count("Variable:") == 1 and "  - data: [0 0 0]" in text  # first_n=1 is spent


def test_print_backward_phase_prints_the_gradient(static_mode, capsys):
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        x = static.data("x", [None, 2], "float32")
        lin = paddle.nn.Linear(2, 2)
        h = static.Print(lin(x), print_phase="backward", summarize=-1)
        loss = paddle.mean(h * h)
        static.append_backward(loss)
    exe = static.Executor()
    exe.run(startup)
    capsys.readouterr()
    xs = np.array([[1.0, 2.0], [3.0, -1.0]], np.float32)
    hv, = exe.run(main, feed={"x": xs}, fetch_list=[h])
    text = capsys.readouterr().out
    assert f"Variable: {h.name}@GRAD" in text and f"Variable: {h.name}\n" not in text
    data = text.split("  - data: [")[1].split("]")[0]
    np.testing.assert_allclose(np.array(data.split(), np.float32), (2 * hv / hv.size).ravel(),
                               rtol=1e-5)


def test_print_eager_and_bad_input(capsys):
    t = paddle.to_tensor([1.5, 2.0])
    out = static.Print(t, message="eager")
    np.testing.assert_allclose(out.numpy(), [1.5, 2.0])
    assert "  - message: eager\n" in capsys.readouterr().out and "  - data: [1.5 2]" in \
        static.print_op.format_tensor(t.numpy(), "t", dict(
            first_n=-1, message=None, summarize=20, print_tensor_name=True,
            print_tensor_type=True, print_tensor_shape=True, print_tensor_layout=True,
            print_tensor_lod=True, dtype="float32"))
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) Print: argument 'print_phase'"):
        static.Print(t, print_phase="sideways")
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) Print: argument 'summarize'"):
        static.Print(t, summarize=-5)
    with pytest.raises(TypeError, match=r"\(InvalidType\) Print: argument 'input' expected a "
                                        r"Tensor, got ndarray"):
        static.Print(np.zeros(2))
    with pytest.raises(TypeError, match=r"\(InvalidType\) Print: argument 'input' expected a "
                                        r"bool, int32"):
        static.Print(paddle.to_tensor([1], dtype="uint8"))
