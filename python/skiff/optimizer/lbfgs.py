"""LBFGS (Paddle's paddle.optimizer.LBFGS): limited-memory BFGS over all parameters as one flat
vector, driven by a closure that recomputes the loss and its gradients.

step(closure) runs up to max_iter iterations: the direction is the two-loop recursion over the
last history_size (s, y) pairs applied to -grad (H0 = s.y / y.y), the step is learning_rate
(min(1, 1 / |grad|_1) * learning_rate on the very first iteration) or, with
line_search_fn='strong_wolfe', found by a bracketing + cubic-interpolation zoom search for the
strong Wolfe conditions (Nocedal & Wright, Algorithm 3.5/3.6). It stops on a small gradient
(tolerance_grad, max-norm), a small change of loss or step (tolerance_change), or max_eval
closure calls. Scalars (losses, directional derivatives, step sizes) are Python floats; vectors
are Tensors. Eager only, as in Paddle."""
import numbers

from .. import _errors, enable_grad, no_grad
from ..nn.functional._common_ops import ops as _ops
from ._elementwise import write
from .optimizer import Optimizer

__all__ = ["LBFGS"]


def _cubic_minimum(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimizer of the cubic through (x1, f1, f1'=g1), (x2, f2, g2), clamped to bounds
    (default: the interval between the points); the midpoint if the cubic has none."""
    lo, hi = bounds if bounds is not None else (min(x1, x2), max(x1, x2))
    d1 = g1 + g2 - 3.0 * (f1 - f2) / (x1 - x2)
    disc = d1 * d1 - g1 * g2
    if disc < 0:
        return (lo + hi) / 2.0
    d2 = disc ** 0.5
    if x1 <= x2:
        x = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2.0 * d2))
    else:
        x = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2.0 * d2))
    return min(max(x, lo), hi)


def _dot(a, b):
    return float(_ops.sum(a * b))


def _strong_wolfe(evaluate, t, d, loss, grad, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9,
                  max_ls=25):
    """Step t along d satisfying the strong Wolfe conditions. evaluate(t) -> (loss, flat grad)
    at x + t d. Returns (loss, grad, t, evaluations)."""
    d_max = float(_ops.max(_ops.abs(d)))
    f_new, g_new = evaluate(t)
    evals = 1
    gtd_new = _dot(g_new, d)
    # Bracketing phase: grow t until an interval is known to contain an acceptable step.
    t_prev, f_prev, g_prev, gtd_prev = 0.0, loss, grad, gtd
    done = False
    ls_iter = 0
    bracket = None
    while ls_iter < max_ls:
        if f_new > loss + c1 * t * gtd or (ls_iter > 1 and f_new >= f_prev):
            bracket = [(t_prev, f_prev, g_prev, gtd_prev), (t, f_new, g_new, gtd_new)]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, done = [(t, f_new, g_new, gtd_new)], True
            break
        if gtd_new >= 0:
            bracket = [(t_prev, f_prev, g_prev, gtd_prev), (t, f_new, g_new, gtd_new)]
            break
        t_next = _cubic_minimum(t_prev, f_prev, gtd_prev, t, f_new, gtd_new,
                                bounds=(t + 0.01 * (t - t_prev), t * 10))
        t_prev, f_prev, g_prev, gtd_prev = t, f_new, g_new, gtd_new
        t = t_next
        f_new, g_new = evaluate(t)
        evals += 1
        gtd_new = _dot(g_new, d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket = [(0.0, loss, grad, gtd), (t, f_new, g_new, gtd_new)]
    # Zoom phase: shrink the bracket by cubic interpolation until the conditions hold.
    insufficient = False
    low, high = (0, 1) if bracket[0][1] <= bracket[-1][1] else (1, 0)
    while not done and ls_iter < max_ls:
        (a, fa, _, ga), (b, fb, _, gb) = bracket
        if abs(b - a) * d_max < tolerance_change:
            break
        t = _cubic_minimum(a, fa, ga, b, fb, gb)
        left, right = min(a, b), max(a, b)
        eps = 0.1 * (right - left)
        if min(right - t, t - left) < eps:
            # Too close to an end: after one such step (or at the end itself) move inwards.
            if insufficient or t >= right or t <= left:
                t = right - eps if abs(t - right) < abs(t - left) else left + eps
                insufficient = False
            else:
                insufficient = True
        else:
            insufficient = False
        f_new, g_new = evaluate(t)
        evals += 1
        gtd_new = _dot(g_new, d)
        ls_iter += 1
        point = (t, f_new, g_new, gtd_new)
        if f_new > loss + c1 * t * gtd or f_new >= bracket[low][1]:
            bracket[high] = point
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high][0] - bracket[low][0]) >= 0:
                bracket[high] = bracket[low]
            bracket[low] = point
        low, high = (0, 1) if bracket[0][1] <= bracket[1][1] else (1, 0)
    t, f_new, g_new, _ = bracket[low]
    return f_new, g_new, t, evals


class LBFGS(Optimizer):
    """state_dict() is Paddle's {'state': {...}}: func_evals, n_iter and the last direction d,
    step alpha, histories old_yk/old_sk/ro, H_diag, prev_flat_grad, prev_loss."""

    def __init__(self, learning_rate=1.0, max_iter=20, max_eval=None, tolerance_grad=1e-7,
                 tolerance_change=1e-9, history_size=100, line_search_fn=None, parameters=None,
                 weight_decay=None, grad_clip=None, name=None):
        for arg, value in (("learning_rate", learning_rate), ("tolerance_grad", tolerance_grad),
                           ("tolerance_change", tolerance_change)):
            if isinstance(value, bool) or not isinstance(value, numbers.Number):
                raise _errors.InvalidType(f"LBFGS: argument '{arg}' expected a float, got "
                                          f"{type(value).__name__}")
            if value < 0:
                raise _errors.InvalidArgument(f"LBFGS: argument '{arg}' expected >= 0, got "
                                              f"{value}")
        for arg, value in (("max_iter", max_iter), ("history_size", history_size),
                           ("max_eval", max_eval)):
            if value is None and arg == "max_eval":
                continue
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
                raise _errors.InvalidArgument(f"LBFGS: argument '{arg}' expected a positive "
                                              f"int, got {value!r}")
        if line_search_fn not in (None, "strong_wolfe"):
            raise _errors.InvalidArgument("LBFGS: argument 'line_search_fn' expected None or "
                                          f"'strong_wolfe', got {line_search_fn!r}")
        self.learning_rate = float(learning_rate)
        self.max_iter = int(max_iter)
        self.max_eval = int(max_eval) if max_eval is not None else self.max_iter * 5 // 4
        self.tolerance_grad = float(tolerance_grad)
        self.tolerance_change = float(tolerance_change)
        self.history_size = int(history_size)
        self.line_search_fn = line_search_fn
        self.state = {}
        super().__init__(1.0, parameters, weight_decay, grad_clip, name)
        self._params = self._parameter_list

    # ------------------------------------------------------------------ state
    def state_dict(self):
        return {"state": dict(self.state)}

    def set_state_dict(self, state_dict):
        state = state_dict.get("state", state_dict) if isinstance(state_dict, dict) else None
        if not isinstance(state, dict):
            raise _errors.InvalidArgument("LBFGS.set_state_dict: expected the dict state_dict() "
                                          f"returns, got {type(state_dict).__name__}")
        self.state = dict(state)

    set_dict = set_state_dict
    load_state_dict = set_state_dict

    # ------------------------------------------------------------------ flat views
    def _flat_grad(self):
        """Gradients of all parameters (clipped and regularized as in step()) as one vector."""
        pairs = [(p, p.grad if p.grad is not None else _ops.zeros_like(p)) for p in self._params]
        group = self._param_groups[0]
        clip = group.get("grad_clip")
        if clip is not None:
            pairs = [(p, g if g is not None else _ops.zeros_like(p)) for p, g in clip(pairs)]
        flat = []
        for p, g, coeff in self._regularize(group, pairs):
            if coeff:
                g = g + p * coeff
            flat.append(_ops.reshape(g, [-1]))
        return _ops.concat(flat, 0)

    def _add_step(self, t, d):
        """param += t * d (the matching slice of d) for every parameter, in place."""
        offset = 0
        for p in self._params:
            n = int(p.numel())
            piece = _ops.reshape(d[offset:offset + n], list(p.shape))
            write(p, p + piece * t)
            offset += n

    def _evaluate(self, closure, x0, t, d):
        """(loss, flat grad) at x0 + t d; the parameters are put back to x0 afterwards."""
        self._add_step(t, d)
        with enable_grad():
            loss = float(closure())
        grad = self._flat_grad()
        for p, saved in zip(self._params, x0):
            write(p, saved)
        return loss, grad

    # ------------------------------------------------------------------ the update
    def step(self, closure=None):
        """Runs the L-BFGS iterations; closure() must clear the gradients, compute the loss,
        call backward and return the loss. Returns the loss of the first closure call."""
        if closure is None or not callable(closure):
            raise _errors.InvalidArgument("LBFGS.step: argument 'closure' expected a callable "
                                          "that re-evaluates the model and returns the loss, "
                                          f"got {type(closure).__name__}")
        with no_grad():
            return self._run(closure)

    def _run(self, closure):
        state = self.state
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        with enable_grad():
            first_loss = closure()
        loss = float(first_loss)
        evals = 1
        state["func_evals"] += 1
        grad = self._flat_grad()
        if float(_ops.max(_ops.abs(grad))) <= self.tolerance_grad:
            return first_loss
        d, t = state.get("d"), state.get("alpha")
        old_yk, old_sk, ro = state.get("old_yk"), state.get("old_sk"), state.get("ro")
        h_diag, prev_grad = state.get("H_diag"), state.get("prev_flat_grad")
        prev_loss = state.get("prev_loss")
        n_iter = 0
        while n_iter < self.max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d = -grad
                old_yk, old_sk, ro, h_diag = [], [], [], 1.0
            else:
                d, h_diag = self._direction(grad, prev_grad, d, t, old_yk, old_sk, ro, h_diag)
            prev_grad = _ops.assign(grad)
            prev_loss = loss
            if state["n_iter"] == 1:
                t = min(1.0, 1.0 / float(_ops.sum(_ops.abs(grad)))) * \
                    self.learning_rate
            else:
                t = self.learning_rate
            gtd = _dot(grad, d)
            if gtd > -self.tolerance_change:
                break
            ls_evals = 0
            if self.line_search_fn is not None:
                x0 = [_ops.assign(p) for p in self._params]
                loss, grad, t, ls_evals = _strong_wolfe(
                    lambda step: self._evaluate(closure, x0, step, d), t, d, loss, grad, gtd)
                self._add_step(t, d)
                converged = float(_ops.max(_ops.abs(grad))) <= self.tolerance_grad
            else:
                self._add_step(t, d)
                converged = False
                if n_iter != self.max_iter:
                    with enable_grad():
                        loss = float(closure())
                    grad = self._flat_grad()
                    converged = float(_ops.max(_ops.abs(grad))) <= \
                        self.tolerance_grad
                    ls_evals = 1
            evals += ls_evals
            state["func_evals"] += ls_evals
            if converged or n_iter == self.max_iter or evals >= self.max_eval:
                break
            if float(_ops.max(_ops.abs(d))) * abs(t) <= self.tolerance_change:
                break
            if abs(loss - prev_loss) < self.tolerance_change:
                break
        state.update(d=d, alpha=t, old_yk=old_yk, old_sk=old_sk, ro=ro, H_diag=h_diag,
                     prev_flat_grad=prev_grad, prev_loss=prev_loss)
        return first_loss

    def _direction(self, grad, prev_grad, d, t, old_yk, old_sk, ro, h_diag):
        """Updates the (s, y) history with the last step and returns -H grad (two-loop
        recursion) and the new H0 scale."""
        y = grad - prev_grad
        s = d * t
        ys = _dot(y, s)
        if ys > 1e-10:  # keep the pair only when the curvature condition holds
            if len(old_yk) == self.history_size:
                old_yk.pop(0)
                old_sk.pop(0)
                ro.pop(0)
            old_yk.append(y)
            old_sk.append(s)
            ro.append(1.0 / ys)
            h_diag = ys / _dot(y, y)
        q = -grad
        alphas = [0.0] * len(old_yk)
        for i in range(len(old_yk) - 1, -1, -1):
            alphas[i] = _dot(old_sk[i], q) * ro[i]
            q = q - old_yk[i] * alphas[i]
        r = q * h_diag
        for i in range(len(old_yk)):
            beta = _dot(old_yk[i], r) * ro[i]
            r = r + old_sk[i] * (alphas[i] - beta)
        return r, h_diag

    def minimize(self, loss, startup_program=None, parameters=None, no_grad_set=None):
        raise _errors.Unimplemented("LBFGS optimizer does not use this way to minimize loss. "
                                    "Please refer 'Examples' of LBFGS() for usage.")

    def _apply(self, group, entries):
        raise _errors.Unimplemented("LBFGS: call step(closure)")
