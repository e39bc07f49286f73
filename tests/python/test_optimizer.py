"""skiff.optimizer against reference update formulas written in numpy; lr schedulers; state."""
import math

import numpy as np
import pytest

import skiff
import skiff.nn as nn
from skiff.optimizer import lr


def make_params(seed=0, shapes=((3, 2), (2,))):
    rng = np.random.default_rng(seed)
    values = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    params = [skiff.create_parameter(list(v.shape), "float32",
                                     default_initializer=nn.initializer.Assign(v))
              for v in values]
    return params, [v.astype(np.float64) for v in values]


def grads_for(step, shapes):
    rng = np.random.default_rng(100 + step)
    return [rng.standard_normal(s).astype(np.float32) for s in shapes]


def run(opt_fn, ref_update, steps=3, shapes=((3, 2), (2,))):
    params, ref = make_params(shapes=shapes)
    opt = opt_fn(params)
    state = [dict() for _ in params]
    for step in range(1, steps + 1):
        gs = grads_for(step, shapes)
        for p, g in zip(params, gs):
            p.grad = skiff.to_tensor(g)
        opt.step()
        for i, g in enumerate(gs):
            ref[i] = ref_update(ref[i], g.astype(np.float64), state[i], step)
    for p, r in zip(params, ref):
        np.testing.assert_allclose(p.numpy(), r, rtol=2e-5, atol=2e-6)
    return opt, params


def test_sgd_with_l2_weight_decay():
    run(lambda ps: skiff.optimizer.SGD(learning_rate=0.1, parameters=ps, weight_decay=0.01),
        lambda p, g, s, t: p - 0.1 * (g + 0.01 * p))


@pytest.mark.parametrize("nesterov", [False, True])
def test_momentum(nesterov):
    def ref(p, g, s, t):
        v = 0.9 * s.get("v", 0) + g
        s["v"] = v
        return p - 0.05 * (g + 0.9 * v if nesterov else v)

    opt, params = run(lambda ps: skiff.optimizer.Momentum(0.05, momentum=0.9, parameters=ps,
                                                         use_nesterov=nesterov), ref)
    assert f"{params[0].name}_velocity_0" in opt.state_dict()


def adam_ref(lr_, b1, b2, eps, wd=0.0, decoupled=False, amsgrad=False):
    def update(p, g, s, t):
        if decoupled:
            p = p * (1 - lr_ * wd)
        else:
            g = g + wd * p
        m = b1 * s.get("m", 0) + (1 - b1) * g
        v = b2 * s.get("v", 0) + (1 - b2) * g * g
        s["m"], s["v"] = m, v
        if amsgrad:
            s["vmax"] = np.maximum(s.get("vmax", 0), v)
            v = s["vmax"]
        mhat = m / (1 - b1 ** t)
        vhat = v / (1 - b2 ** t)
        return p - lr_ * mhat / (np.sqrt(vhat) + eps)
    return update


@pytest.mark.parametrize("amsgrad", [False, True])
def test_adam(amsgrad):
    opt, params = run(lambda ps: skiff.optimizer.Adam(0.01, beta1=0.8, beta2=0.9, epsilon=1e-6,
                                                     parameters=ps, weight_decay=0.1,
                                                     amsgrad=amsgrad),
                      adam_ref(0.01, 0.8, 0.9, 1e-6, 0.1, False, amsgrad))
    state = opt.state_dict()
    name = params[0].name
    for acc in ("moment1", "moment2", "beta1_pow_acc", "beta2_pow_acc"):
        assert f"{name}_{acc}_0" in state
    np.testing.assert_allclose(state[f"{name}_beta1_pow_acc_0"].numpy(), [0.8 ** 3], rtol=1e-6)


def test_adamw_decoupled_decay_and_exclusions():
    opt, params = run(lambda ps: skiff.optimizer.AdamW(0.01, parameters=ps, weight_decay=0.5),
                      adam_ref(0.01, 0.9, 0.999, 1e-8, 0.5, True))
    # apply_decay_param_fun: only the first parameter decays; lr_ratio halves the second's lr
    params, ref = make_params()
    keep = params[0].name
    opt = skiff.optimizer.AdamW(0.01, parameters=params, weight_decay=0.5,
                                apply_decay_param_fun=lambda n: n == keep,
                                lr_ratio=lambda p: 1.0 if p.name == keep else 0.5)
    g = grads_for(1, ((3, 2), (2,)))
    for p, gv in zip(params, g):
        p.grad = skiff.to_tensor(gv)
    opt.step()
    r0 = adam_ref(0.01, 0.9, 0.999, 1e-8, 0.5, True)(ref[0], g[0].astype(np.float64), {}, 1)
    r1 = adam_ref(0.005, 0.9, 0.999, 1e-8, 0.0, True)(ref[1], g[1].astype(np.float64), {}, 1)
    np.testing.assert_allclose(params[0].numpy(), r0, rtol=1e-5)
    np.testing.assert_allclose(params[1].numpy(), r1, rtol=1e-5)


def test_param_groups_and_per_parameter_lr():
    params, ref = make_params()
    opt = skiff.optimizer.SGD(learning_rate=0.1, parameters=[
        {"params": [params[0]]},
        {"params": [params[1]], "learning_rate": 0.5, "weight_decay": 0.2}])
    g = grads_for(1, ((3, 2), (2,)))
    for p, gv in zip(params, g):
        p.grad = skiff.to_tensor(gv)
    opt.step()
    np.testing.assert_allclose(params[0].numpy(), ref[0] - 0.1 * g[0], rtol=1e-6)
    np.testing.assert_allclose(params[1].numpy(), ref[1] - 0.05 * (g[1] + 0.2 * ref[1]),
                               rtol=1e-6)


def test_training_loop_clear_grad_and_skipped_parameters():
    skiff.seed(0)
    model = nn.Linear(4, 1)
    frozen = nn.Linear(4, 1)
    frozen.weight.stop_gradient = True
    opt = skiff.optimizer.Adam(0.05, parameters=model.parameters() + frozen.parameters())
    x = skiff.to_tensor(np.random.default_rng(0).standard_normal((32, 4)).astype(np.float32))
    y = skiff.to_tensor((x.numpy() @ np.float32([[1], [-2], [3], [0.5]])) + 1)
    before = frozen.weight.numpy().copy()
    losses = []
    for _ in range(60):
        loss = nn.functional.mse_loss(model(x) + frozen(x) * 0, y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    assert losses[-1] < 0.1 * losses[0]
    np.testing.assert_array_equal(frozen.weight.numpy(), before)
    assert model.weight.grad is None or float(abs(model.weight.grad).sum()) == 0.0


def test_state_dict_round_trip_continues_identically(tmp_path):
    def setup():
        # a rebuilt model must get the same parameter names (accumulators are keyed by them)
        with nn.unique_name.guard():
            params, _ = make_params()
        sched = lr.StepDecay(0.1, step_size=2, gamma=0.5)
        return params, sched, skiff.optimizer.Adam(sched, parameters=params)

    def do_step(params, opt, sched, step):
        for p, g in zip(params, grads_for(step, ((3, 2), (2,)))):
            p.grad = skiff.to_tensor(g)
        opt.step()
        sched.step()

    pa, sa, oa = setup()
    for s in range(1, 3):
        do_step(pa, oa, sa, s)
    path = str(tmp_path / "opt.pdopt")
    skiff.save(oa.state_dict(), path)
    saved_params = [p.numpy().copy() for p in pa]
    for s in range(3, 5):
        do_step(pa, oa, sa, s)

    pb, sb, ob = setup()
    for p, v in zip(pb, saved_params):
        p.set_value(v)
    state = skiff.load(path)
    assert state["LR_Scheduler"]["last_epoch"] == 2
    ob.set_state_dict(state)  # before the accumulators exist: restored when created
    assert ob.get_lr() == pytest.approx(0.05)
    for s in range(3, 5):
        do_step(pb, ob, sb, s)
    for a, b in zip(pa, pb):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)


def test_optimizer_errors_and_lr_api():
    params, _ = make_params()
    with pytest.raises(AttributeError, match="should not be None"):
        skiff.optimizer.SGD(0.1)
    with pytest.raises(TypeError, match="learning rate should be float or LRScheduler"):
        skiff.optimizer.SGD("0.1", parameters=params)
    with pytest.raises(TypeError, match="iterable of paddle Tensors"):
        skiff.optimizer.SGD(0.1, parameters=params[0])
    with pytest.raises(ValueError, match="beta1"):
        skiff.optimizer.Adam(0.1, beta1=1.0, parameters=params)
    opt = skiff.optimizer.SGD(0.1, parameters=params)
    opt.set_lr(0.3)
    assert opt.get_lr() == pytest.approx(0.3)
    opt = skiff.optimizer.SGD(lr.ExponentialDecay(0.1, 0.5), parameters=params)
    with pytest.raises(RuntimeError, match="can't be LRScheduler"):
        opt.set_lr(0.2)


def test_lr_schedulers_closed_forms():
    def values(s, n):
        out = []
        for _ in range(n):
            out.append(s())
            s.step()
        return out

    np.testing.assert_allclose(values(lr.StepDecay(1.0, 2, 0.5), 5), [1, 1, .5, .5, .25])
    np.testing.assert_allclose(values(lr.MultiStepDecay(1.0, [1, 3], 0.1), 4),
                               [1, .1, .1, .01])
    np.testing.assert_allclose(values(lr.ExponentialDecay(2.0, 0.5), 3), [2, 1, .5])
    np.testing.assert_allclose(values(lr.LambdaDecay(1.0, lambda e: 1 / (e + 1)), 3),
                               [1, .5, 1 / 3])
    np.testing.assert_allclose(values(lr.PiecewiseDecay([2, 4], [1.0, .5, .1]), 6),
                               [1, 1, .5, .5, .1, .1])
    np.testing.assert_allclose(values(lr.PolynomialDecay(1.0, 4, end_lr=0.0, power=2), 6),
                               [1, .5625, .25, .0625, 0, 0])
    cos = values(lr.CosineAnnealingDecay(1.0, T_max=4, eta_min=0.1), 5)
    np.testing.assert_allclose(cos, [0.1 + 0.45 * (1 + math.cos(math.pi * e / 4))
                                     for e in range(5)], rtol=1e-12)
    warm = values(lr.LinearWarmup(lr.CosineAnnealingDecay(1.0, 4), 2, 0.0, 1.0), 4)
    np.testing.assert_allclose(warm, [0, .5, 1.0, 0.5 * (1 + math.cos(math.pi / 4))])
    noam = lr.NoamDecay(d_model=16, warmup_steps=4)
    assert noam() == pytest.approx(0.0)
    noam.step()
    assert noam() == pytest.approx(16 ** -0.5 * 4 ** -1.5)
    with pytest.raises(ValueError, match="T_max"):
        lr.CosineAnnealingDecay(1.0, 0)
    with pytest.raises(ValueError, match="end_lr"):
        lr.LinearWarmup(1.0, 2, 1.0, 0.5)


def test_lr_scheduler_state_dict():
    a = lr.LinearWarmup(lr.StepDecay(1.0, 2), 3, 0.0, 1.0)
    for _ in range(6):
        a.step()
    b = lr.LinearWarmup(lr.StepDecay(1.0, 2), 3, 0.0, 1.0)
    b.set_state_dict(a.state_dict())
    assert b.last_epoch == 6 and b() == a()
    a.step()
    b.step()
    assert b() == a()
