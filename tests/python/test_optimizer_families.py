"""Adagrad, RMSProp, Adamax, Adadelta, Lamb, NAdam, RAdam, ASGD and LBFGS against torch.optim
where Paddle's update is torch's, else against numpy transcriptions of Paddle's kernels; Paddle's
accumulator names, state_dict round trips, to_static capture, bad arguments."""
import numpy as np
import pytest
import torch

import skiff as paddle
import skiff.nn as nn

SHAPES = ((4, 3), (3,))


def make_params(dtype="float32", seed=0):
    rng = np.random.default_rng(seed)
    values = [rng.standard_normal(s).astype(np.float64) for s in SHAPES]
    params = [paddle.create_parameter(list(v.shape), dtype,
                                      default_initializer=nn.initializer.Assign(
                                          v.astype("float32" if dtype == "bfloat16" else dtype)))
              for v in values]
    return params, values


def grads_for(step):
    rng = np.random.default_rng(100 + step)
    return [rng.standard_normal(s) for s in SHAPES]


def run_skiff(make_opt, steps, dtype="float32"):
    params, _ = make_params(dtype)
    opt = make_opt(params)
    for step in range(1, steps + 1):
        for p, g in zip(params, grads_for(step)):
            p.grad = paddle.to_tensor(g).astype(dtype)
        opt.step()
    return opt, params


def run_torch(make_opt, steps):
    _, values = make_params()
    params = [torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in values]
    opt = make_opt(params)
    for step in range(1, steps + 1):
        for p, g in zip(params, grads_for(step)):
            p.grad = torch.tensor(g, dtype=torch.float64)
        opt.step()
    return [p.detach().numpy() for p in params]


def run_numpy(update, steps):
    _, values = make_params()
    state = [dict() for _ in values]
    for step in range(1, steps + 1):
        for i, g in enumerate(grads_for(step)):
            values[i] = update(values[i], g, state[i], step)
    return values


TORCH_CASES = {
    "Adagrad": (lambda ps: paddle.optimizer.Adagrad(0.1, epsilon=1e-6, parameters=ps,
                                                    weight_decay=0.01,
                                                    initial_accumulator_value=0.1),
                lambda ps: torch.optim.Adagrad(ps, lr=0.1, eps=1e-6, weight_decay=0.01,
                                               initial_accumulator_value=0.1)),
    "Adadelta": (lambda ps: paddle.optimizer.Adadelta(0.5, epsilon=1e-6, rho=0.9, parameters=ps,
                                                      weight_decay=0.01),
                 lambda ps: torch.optim.Adadelta(ps, lr=0.5, rho=0.9, eps=1e-6,
                                                 weight_decay=0.01)),
    # beta2=0.99: rho_t crosses 5 at step 6, so both branches run.
    "RAdam": (lambda ps: paddle.optimizer.RAdam(0.01, beta1=0.9, beta2=0.99, parameters=ps,
                                                weight_decay=0.01),
              lambda ps: torch.optim.RAdam(ps, lr=0.01, betas=(0.9, 0.99), weight_decay=0.01)),
}


@pytest.mark.parametrize("name", sorted(TORCH_CASES))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_matches_torch(name, dtype):
    make_skiff, make_torch = TORCH_CASES[name]
    _, params = run_skiff(make_skiff, 10, dtype)
    want = run_torch(make_torch, 10)
    tol = dict(rtol=1e-5, atol=1e-6) if dtype == "float32" else dict(rtol=1e-10, atol=1e-12)
    for p, w in zip(params, want):
        np.testing.assert_allclose(p.numpy(), w, **tol)


def rmsprop_ref(lr, rho, eps, momentum, centered):
    def update(p, g, s, t):
        s["ms"] = rho * s.get("ms", 0) + (1 - rho) * g * g
        if centered:
            s["mg"] = rho * s.get("mg", 0) + (1 - rho) * g
            denom = np.sqrt(s["ms"] - s["mg"] ** 2 + eps)
        else:
            denom = np.sqrt(s["ms"] + eps)
        s["mom"] = momentum * s.get("mom", 0) + lr * g / denom
        return p - s["mom"]
    return update


def adamax_ref(lr, b1, b2, eps):
    def update(p, g, s, t):
        s["m"] = b1 * s.get("m", 0) + (1 - b1) * g
        s["u"] = np.maximum(b2 * s.get("u", 0) + eps, np.abs(g))
        return p - lr / (1 - b1 ** t) * s["m"] / s["u"]
    return update


def lamb_ref(lr, wd, b1, b2, eps, adapt=True):
    def update(p, g, s, t):
        s["m"] = b1 * s.get("m", 0) + (1 - b1) * g
        s["v"] = b2 * s.get("v", 0) + (1 - b2) * g * g
        r = (s["m"] / (1 - b1 ** t)) / (np.sqrt(s["v"] / (1 - b2 ** t)) + eps) + wd * p
        pn, rn = np.linalg.norm(p), np.linalg.norm(r)
        trust = pn / rn if adapt and pn > 0 and rn > 0 else 1.0
        return p - lr * trust * r
    return update


def nadam_ref(lr, b1, b2, eps, psi, wd):
    """Paddle's nadam kernel. (Debian's torch 1.13 NAdam multiplies mu into mu_product_next
    twice, a bug later torch fixed, so torch is no reference here.)"""
    def update(p, g, s, t):
        g = g + wd * p
        mu = b1 * (1 - 0.5 * 0.96 ** (t * psi))
        mu_next = b1 * (1 - 0.5 * 0.96 ** ((t + 1) * psi))
        s["prod"] = s.get("prod", 1.0) * mu
        s["m"] = b1 * s.get("m", 0) + (1 - b1) * g
        s["v"] = b2 * s.get("v", 0) + (1 - b2) * g * g
        m_hat = mu_next * s["m"] / (1 - s["prod"] * mu_next) + (1 - mu) * g / (1 - s["prod"])
        return p - lr * m_hat / (np.sqrt(s["v"] / (1 - b2 ** t)) + eps)
    return update


def asgd_ref(lr, n):
    def update(p, g, s, t):
        ys = s.setdefault("y", [np.zeros_like(p) for _ in range(n)])
        i = (t - 1) % n
        s["d"] = s.get("d", 0) - ys[i] + g
        ys[i] = g
        return p - lr * s["d"] / min(t, n)
    return update


NUMPY_CASES = {
    "RMSProp": (lambda ps: paddle.optimizer.RMSProp(0.01, rho=0.9, epsilon=1e-6, parameters=ps),
                rmsprop_ref(0.01, 0.9, 1e-6, 0.0, False)),
    "RMSProp-centered-momentum": (
        lambda ps: paddle.optimizer.RMSProp(0.01, rho=0.9, epsilon=1e-4, momentum=0.5,
                                            centered=True, parameters=ps),
        rmsprop_ref(0.01, 0.9, 1e-4, 0.5, True)),
    "Adamax": (lambda ps: paddle.optimizer.Adamax(0.02, beta1=0.8, beta2=0.9, epsilon=1e-3,
                                                  parameters=ps),
               adamax_ref(0.02, 0.8, 0.9, 1e-3)),
    "Lamb": (lambda ps: paddle.optimizer.Lamb(0.01, lamb_weight_decay=0.1, beta1=0.8,
                                              beta2=0.9, epsilon=1e-6, parameters=ps),
             lamb_ref(0.01, 0.1, 0.8, 0.9, 1e-6)),
    "Lamb-no-decay": (lambda ps: paddle.optimizer.Lamb(0.01, lamb_weight_decay=0.0,
                                                       parameters=ps),
                      lamb_ref(0.01, 0.0, 0.9, 0.999, 1e-6, adapt=False)),
    "Lamb-no-decay-always-adapt": (
        lambda ps: paddle.optimizer.Lamb(0.01, lamb_weight_decay=0.0, parameters=ps,
                                         always_adapt=True),
        lamb_ref(0.01, 0.0, 0.9, 0.999, 1e-6, adapt=True)),
    "NAdam": (lambda ps: paddle.optimizer.NAdam(0.01, beta1=0.8, beta2=0.99, epsilon=1e-8,
                                                momentum_decay=0.004, parameters=ps,
                                                weight_decay=0.01),
              nadam_ref(0.01, 0.8, 0.99, 1e-8, 0.004, 0.01)),
    "ASGD": (lambda ps: paddle.optimizer.ASGD(0.1, batch_num=3, parameters=ps),
             asgd_ref(0.1, 3)),
}


@pytest.mark.parametrize("name", sorted(NUMPY_CASES))
def test_matches_paddle_formula(name):
    make_skiff, ref = NUMPY_CASES[name]
    _, params = run_skiff(make_skiff, 7)
    for p, w in zip(params, run_numpy(ref, 7)):
        np.testing.assert_allclose(p.numpy(), w, rtol=2e-5, atol=2e-6)


def test_rmsprop_differs_from_torch_as_paddle_does():
    """Paddle keeps epsilon inside the square root; torch adds it outside."""
    _, params = run_skiff(lambda ps: paddle.optimizer.RMSProp(0.01, rho=0.9, epsilon=1e-2,
                                                              parameters=ps), 3)
    want = run_torch(lambda ps: torch.optim.RMSprop(ps, lr=0.01, alpha=0.9, eps=1e-2), 3)
    assert not np.allclose(params[0].numpy(), want[0], rtol=1e-4)


def test_lamb_excludes_parameters_from_decay():
    opt, params = run_skiff(lambda ps: paddle.optimizer.Lamb(
        0.01, lamb_weight_decay=0.1, parameters=ps,
        exclude_from_weight_decay_fn=lambda p: len(p.shape) == 1), 4)
    decayed = run_numpy(lamb_ref(0.01, 0.1, 0.9, 0.999, 1e-6), 4)
    plain = run_numpy(lamb_ref(0.01, 0.0, 0.9, 0.999, 1e-6, adapt=False), 4)
    np.testing.assert_allclose(params[0].numpy(), decayed[0], rtol=2e-5, atol=2e-6)
    np.testing.assert_allclose(params[1].numpy(), plain[1], rtol=2e-5, atol=2e-6)


ACC_NAMES = {
    "Adagrad": ["moment"],
    "RMSProp": ["momentum", "mean_square", "mean_grad"],
    "Adamax": ["moment", "inf_norm", "beta1_pow_acc"],
    "Adadelta": ["_avg_squared_grad", "_avg_squared_update"],
    "Lamb": ["moment1", "moment2", "beta1_pow_acc", "beta2_pow_acc"],
    "NAdam": ["momentum_decay_pow", "beta2_pow", "mu_product", "moment1", "moment2"],
    "RAdam": ["beta1_pow", "beta2_pow", "rho", "moment1", "moment2"],
    "ASGD": ["d", "y", "m"],
}

FACTORIES = {
    "Adagrad": lambda ps: paddle.optimizer.Adagrad(0.1, parameters=ps),
    "RMSProp": lambda ps: paddle.optimizer.RMSProp(0.01, momentum=0.3, centered=True,
                                                   parameters=ps),
    "Adamax": lambda ps: paddle.optimizer.Adamax(0.01, parameters=ps),
    "Adadelta": lambda ps: paddle.optimizer.Adadelta(0.5, parameters=ps),
    "Lamb": lambda ps: paddle.optimizer.Lamb(0.01, parameters=ps),
    "NAdam": lambda ps: paddle.optimizer.NAdam(0.01, parameters=ps),
    "RAdam": lambda ps: paddle.optimizer.RAdam(0.01, parameters=ps),
    "ASGD": lambda ps: paddle.optimizer.ASGD(0.1, batch_num=2, parameters=ps),
}


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_state_dict_names_and_round_trip(name, tmp_path):
    opt, params = run_skiff(FACTORIES[name], 3)
    state = opt.state_dict()
    want = {f"{p.name}_{acc}_0" for p in params for acc in ACC_NAMES[name]}
    assert set(state) == want
    if name == "ASGD":
        assert list(state[f"{params[0].name}_y_0"].shape) == [2, 4, 3]
        assert state[f"{params[0].name}_m_0"].dtype == paddle.int64
    paddle.save(state, str(tmp_path / "opt.pdopt"))
    # A fresh optimizer over parameters with the same names and values continues identically.
    twins = [paddle.create_parameter(p.shape, "float32",
                                     default_initializer=nn.initializer.Assign(p.numpy()))
             for p in params]
    for twin, p in zip(twins, params):
        twin.name = p.name
    other = FACTORIES[name](twins)
    other.set_state_dict(paddle.load(str(tmp_path / "opt.pdopt")))
    for step in (4, 5):
        for ps in (params, twins):
            for p, g in zip(ps, grads_for(step)):
                p.grad = paddle.to_tensor(g.astype("float32"))
        opt.step()
        other.step()
    for p, twin in zip(params, twins):
        np.testing.assert_array_equal(p.numpy(), twin.numpy())


@pytest.mark.parametrize("name", ["Adagrad", "RMSProp", "NAdam", "RAdam", "Lamb"])
def test_bfloat16_parameters_keep_float32_state(name):
    _, want = run_skiff(FACTORIES[name], 4)
    opt, params = run_skiff(FACTORIES[name], 4, dtype="bfloat16")
    assert all(str(v.dtype) == "paddle.float32" for v in opt.state_dict().values())
    for p, w in zip(params, want):
        assert str(p.dtype) == "paddle.bfloat16"
        np.testing.assert_allclose(p.astype("float32").numpy(), w.numpy(), rtol=2e-2, atol=2e-2)


def test_lr_scheduler_and_param_groups():
    params, _ = make_params()
    sched = paddle.optimizer.lr.StepDecay(0.1, step_size=1, gamma=0.5)
    opt = paddle.optimizer.Adagrad(sched, parameters=[
        {"params": [params[0]]}, {"params": [params[1]], "learning_rate": 0.1,
                                  "epsilon": 1e-3}])
    moments = [0.0, 0.0]
    values = [p.numpy().astype(np.float64) for p in params]
    for step in range(1, 4):
        lr = sched()
        for i, (p, g) in enumerate(zip(params, grads_for(step))):
            p.grad = paddle.to_tensor(g.astype("float32"))
            moments[i] = moments[i] + g * g
            scale, eps = (1.0, 1e-6) if i == 0 else (0.1, 1e-3)
            values[i] = values[i] - lr * scale * g / (np.sqrt(moments[i]) + eps)
        opt.step()
        sched.step()
    for p, v in zip(params, values):
        np.testing.assert_allclose(p.numpy(), v, rtol=2e-5, atol=2e-6)
    assert "LR_Scheduler" in opt.state_dict()


def test_grad_clip_and_layer_training():
    paddle.seed(3)
    net = nn.Linear(5, 2)
    opt = paddle.optimizer.RAdam(0.05, parameters=net.parameters(),
                                 grad_clip=nn.ClipGradByGlobalNorm(0.1))
    x = paddle.randn([16, 5])
    y = paddle.randn([16, 2])
    losses = []
    for _ in range(30):
        loss = ((net(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    assert losses[-1] < losses[0]


@pytest.mark.parametrize("name", ["RMSProp", "RAdam", "Lamb", "NAdam"])
def test_whole_step_under_to_static_matches_eager(name):
    def train(static):
        paddle.seed(5)
        net = nn.Linear(4, 3)
        opt = FACTORIES[name](net.parameters())

        def step(x, y):
            loss = ((net(x) - y) ** 2).mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
            return loss

        fn = paddle.jit.to_static(step) if static else step
        rng = np.random.default_rng(1)
        losses = []
        for _ in range(8):
            x = paddle.to_tensor(rng.standard_normal((6, 4)).astype("float32"))
            y = paddle.to_tensor(rng.standard_normal((6, 3)).astype("float32"))
            losses.append(float(fn(x, y)))
        return losses, net

    eager, net_e = train(False)
    static, net_s = train(True)
    np.testing.assert_allclose(static, eager, rtol=1e-5)
    np.testing.assert_allclose(net_s.weight.numpy(), net_e.weight.numpy(), rtol=1e-5,
                               atol=1e-6)


# ---------------------------------------------------------------------- LBFGS
def rosenbrock(x):
    return (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2


@pytest.mark.parametrize("line_search", [None, "strong_wolfe"])
def test_lbfgs_matches_torch_on_rosenbrock(line_search):
    start = np.array([-1.5, 2.0])
    x = paddle.create_parameter([2], "float64", default_initializer=nn.initializer.Assign(start))
    opt = paddle.optimizer.LBFGS(learning_rate=1 if line_search else 0.01, max_iter=30,
                                 history_size=10, line_search_fn=line_search, parameters=[x])
    tx = torch.tensor(start, requires_grad=True)
    topt = torch.optim.LBFGS([tx], lr=1 if line_search else 0.01, max_iter=30, history_size=10,
                             line_search_fn=line_search)

    def closure():
        opt.clear_grad()
        loss = rosenbrock(x)
        loss.backward()
        return loss

    def tclosure():
        topt.zero_grad()
        loss = rosenbrock(tx)
        loss.backward()
        return loss

    for _ in range(3):
        first = opt.step(closure)
        tfirst = topt.step(tclosure)
        np.testing.assert_allclose(float(first), float(tfirst), rtol=1e-9, atol=1e-15)
        np.testing.assert_allclose(x.numpy(), tx.detach().numpy(), rtol=1e-8, atol=1e-10)
    state = opt.state_dict()["state"]
    assert state["func_evals"] == topt.state[topt._params[0]]["func_evals"]
    assert state["n_iter"] == topt.state[topt._params[0]]["n_iter"]
    if line_search:
        np.testing.assert_allclose(x.numpy(), [1.0, 1.0], atol=1e-4)


def test_lbfgs_solves_least_squares_over_a_layer():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((20, 4))
    b = rng.standard_normal((20, 1))
    net = nn.Linear(4, 1)
    opt = paddle.optimizer.LBFGS(max_iter=50, line_search_fn="strong_wolfe",
                                 parameters=net.parameters())
    xa, xb = paddle.to_tensor(a.astype("float32")), paddle.to_tensor(b.astype("float32"))

    def closure():
        opt.clear_grad()
        loss = ((net(xa) - xb) ** 2).mean()
        loss.backward()
        return loss

    opt.step(closure)
    design = np.concatenate([a, np.ones((20, 1))], axis=1)
    want = np.linalg.lstsq(design, b, rcond=None)[0]
    np.testing.assert_allclose(net.weight.numpy()[:, 0], want[:4, 0], atol=1e-3)
    np.testing.assert_allclose(net.bias.numpy(), want[4], atol=1e-3)
    # state_dict round trip: a restored optimizer continues with the same history.
    state = opt.state_dict()
    other = paddle.optimizer.LBFGS(max_iter=50, line_search_fn="strong_wolfe",
                                   parameters=net.parameters())
    other.set_state_dict(state)
    assert other.state_dict()["state"]["n_iter"] == state["state"]["n_iter"]
    with pytest.raises(NotImplementedError, match=r"\(Unimplemented\)"):
        opt.minimize(closure())


# ---------------------------------------------------------------------- bad arguments
@pytest.mark.parametrize("make, match", [
    (lambda ps: paddle.optimizer.Adagrad(-0.1, parameters=ps), "learning_rate >= 0"),
    (lambda ps: paddle.optimizer.Adagrad(0.1, epsilon=-1.0, parameters=ps), "epsilon"),
    (lambda ps: paddle.optimizer.RMSProp(0.1, rho=-0.5, parameters=ps), "rho"),
    (lambda ps: paddle.optimizer.RMSProp(0.1, momentum=-0.5, parameters=ps), "momentum"),
    (lambda ps: paddle.optimizer.RMSProp(0.1, epsilon=None, parameters=ps), "epsilon is not"),
    (lambda ps: paddle.optimizer.Adamax(0.1, beta1=1.0, parameters=ps), r"beta1 in \[0.0,1.0\)"),
    (lambda ps: paddle.optimizer.Adadelta(0.1, rho=1.5, parameters=ps), "rho"),
    (lambda ps: paddle.optimizer.Lamb(0.1, beta2=-0.1, parameters=ps), "beta2"),
    (lambda ps: paddle.optimizer.NAdam(0.1, momentum_decay=-1.0, parameters=ps),
     "momentum_decay"),
    (lambda ps: paddle.optimizer.RAdam(-1.0, parameters=ps), "learning_rate >= 0"),
    (lambda ps: paddle.optimizer.ASGD(0.1, batch_num=0, parameters=ps), "greater than 0"),
    (lambda ps: paddle.optimizer.LBFGS(max_iter=0, parameters=ps), "max_iter"),
    (lambda ps: paddle.optimizer.LBFGS(line_search_fn="armijo", parameters=ps),
     "strong_wolfe"),
])
def test_bad_values_raise_invalid_argument(make, match):
    params, _ = make_params()
    with pytest.raises(ValueError, match=r"\(InvalidArgument\).*" + match):
        make(params)


@pytest.mark.parametrize("make", [
    lambda ps: paddle.optimizer.Adamax(0.1, beta1="0.9", parameters=ps),
    lambda ps: paddle.optimizer.NAdam([0.1], parameters=ps),
    lambda ps: paddle.optimizer.ASGD(0.1, batch_num=2.5, parameters=ps),
    lambda ps: paddle.optimizer.Lamb(0.1, exclude_from_weight_decay_fn=3, parameters=ps),
    lambda ps: paddle.optimizer.LBFGS(tolerance_grad="x", parameters=ps),
])
def test_bad_types_raise_invalid_type(make):
    params, _ = make_params()
    with pytest.raises(TypeError, match=r"\(InvalidType\)"):
        make(params)


def test_lbfgs_step_needs_a_closure_and_parameters_are_required():
    params, _ = make_params()
    opt = paddle.optimizer.LBFGS(parameters=params)
    with pytest.raises(ValueError, match=r"\(InvalidArgument\) LBFGS.step: argument 'closure'"):
        opt.step()
    with pytest.raises(AttributeError, match="should not be None"):
        paddle.optimizer.RMSProp(0.1)


def test_signatures_follow_paddle():
    import inspect
    sig = inspect.signature(paddle.optimizer.RMSProp)
    assert list(sig.parameters) == ["learning_rate", "rho", "epsilon", "momentum", "centered",
                                    "parameters", "weight_decay", "grad_clip", "name"]
    assert sig.parameters["rho"].default == 0.95
    assert list(inspect.signature(paddle.optimizer.Lamb).parameters) == [
        "learning_rate", "lamb_weight_decay", "beta1", "beta2", "epsilon", "parameters",
        "grad_clip", "exclude_from_weight_decay_fn", "multi_precision", "always_adapt", "name"]
    assert inspect.signature(paddle.optimizer.NAdam).parameters["learning_rate"].default == 0.002
    assert list(inspect.signature(paddle.optimizer.LBFGS).parameters)[:7] == [
        "learning_rate", "max_iter", "max_eval", "tolerance_grad", "tolerance_change",
        "history_size", "line_search_fn"]
