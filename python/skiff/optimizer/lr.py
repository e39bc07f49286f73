"""Learning-rate schedulers (Paddle's paddle.optimizer.lr).

A scheduler holds `last_epoch` and `last_lr`; the constructor calls step() once (last_epoch
becomes 0). Call scheduler.step() after each epoch or iteration, as Paddle code does; the
optimizer reads scheduler() on every update."""
import math
import numbers
import warnings

__all__ = ["LRScheduler", "NoamDecay", "PiecewiseDecay", "NaturalExpDecay", "InverseTimeDecay",
           "PolynomialDecay", "LinearWarmup", "ExponentialDecay", "MultiStepDecay", "StepDecay",
           "LambdaDecay", "ReduceOnPlateau", "CosineAnnealingDecay", "MultiplicativeDecay",
           "OneCycleLR", "CyclicLR", "LinearLR", "CosineAnnealingWarmRestarts"]


def _check_number(cls, name, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Number):
        raise TypeError(f"{cls}: argument '{name}' expected a number, got {type(value).__name__}")
    return value


class LRScheduler:
    """Base class: subclasses implement get_lr() from self.base_lr and self.last_epoch."""

    def __init__(self, learning_rate=0.1, last_epoch=-1, verbose=False):
        _check_number(type(self).__name__, "learning_rate", learning_rate)
        self.base_lr = float(learning_rate)
        self.last_lr = float(learning_rate)
        self.last_epoch = last_epoch
        self.verbose = verbose
        self._var_name = None
        self.step()

    def __call__(self):
        return self.last_lr

    def step(self, epoch=None):
        if epoch is None:
            self.last_epoch += 1
            self.last_lr = self.get_lr()
        else:
            self.last_epoch = epoch
            if hasattr(self, "_get_closed_form_lr"):
                self.last_lr = self._get_closed_form_lr()
            else:
                self.last_lr = self.get_lr()
        if self.verbose:
            print(f"Epoch {self.last_epoch}: {type(self).__name__} set learning rate to "
                  f"{self.last_lr}.")

    def get_lr(self):
        raise NotImplementedError(f"{type(self).__name__} does not implement get_lr")

    def _state_keys(self):
        self.keys = ["last_epoch", "last_lr"]

    def state_dict(self):
        """The scheduler's state: last_epoch, last_lr and the subclass's own keys."""
        self._state_keys()
        out = {}
        for key in self.keys:
            if key not in self.__dict__:
                continue
            value = self.__dict__[key]
            if hasattr(value, "numpy") and hasattr(value, "shape"):
                value = value.numpy().item() if list(value.shape) in ([], [1]) else value.numpy()
            out[key] = value
        return out

    def set_state_dict(self, state_dict):
        self._state_keys()
        for key in self.keys:
            if key in state_dict:
                self.__dict__[key] = state_dict[key]
            else:
                raise RuntimeError(f"{type(self).__name__}.set_state_dict: key '{key}' is "
                                   "missing from the state dict")
        if len(state_dict) > len(self.keys):
            warnings.warn("There are some unused values in state_dict. Maybe the optimizer "
                          "have different 'LearningRateDecay' when invoking state_dict and "
                          "set_dict")

    set_dict = set_state_dict
    state_keys = _state_keys


class NoamDecay(LRScheduler):
    def __init__(self, d_model, warmup_steps, learning_rate=1.0, last_epoch=-1, verbose=False):
        if d_model <= 0:
            raise ValueError(f"NoamDecay: argument 'd_model' expected > 0, got {d_model}")
        self.d_model = d_model
        self.warmup_steps = warmup_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        a = 1 if self.last_epoch == 0 else self.last_epoch ** -0.5
        b = self.warmup_steps ** -1.5 * self.last_epoch
        return self.base_lr * (self.d_model ** -0.5) * min(a, b)


class PiecewiseDecay(LRScheduler):
    def __init__(self, boundaries, values, last_epoch=-1, verbose=False):
        if len(boundaries) == 0:
            raise ValueError("PiecewiseDecay: argument 'boundaries' expected at least 1 entry")
        if len(values) != len(boundaries) + 1:
            raise ValueError("PiecewiseDecay: argument 'values' expected len(boundaries) + 1 = "
                             f"{len(boundaries) + 1} entries, got {len(values)}")
        self.boundaries = list(boundaries)
        self.values = list(values)
        super().__init__(last_epoch=last_epoch, verbose=verbose)

    def get_lr(self):
        for i, b in enumerate(self.boundaries):
            if self.last_epoch < b:
                return self.values[i]
        return self.values[len(self.values) - 1]


class NaturalExpDecay(LRScheduler):
    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        if gamma <= 0:
            raise ValueError(f"NaturalExpDecay: argument 'gamma' expected > 0, got {gamma}")
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * math.exp(-1 * self.gamma * self.last_epoch)


class InverseTimeDecay(LRScheduler):
    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr / (1 + self.gamma * self.last_epoch)


class PolynomialDecay(LRScheduler):
    def __init__(self, learning_rate, decay_steps, end_lr=0.0001, power=1.0, cycle=False,
                 last_epoch=-1, verbose=False):
        if not isinstance(decay_steps, int) or decay_steps <= 0:
            raise ValueError("PolynomialDecay: argument 'decay_steps' expected a positive "
                             f"integer, got {decay_steps!r}")
        self.decay_steps = decay_steps
        self.end_lr = end_lr
        if power <= 0:
            raise ValueError(f"PolynomialDecay: argument 'power' expected > 0, got {power}")
        self.power = power
        self.cycle = cycle
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        epoch = self.last_epoch
        steps = self.decay_steps
        if self.cycle:
            div = math.ceil(float(self.last_epoch) / float(self.decay_steps))
            if self.last_epoch == 0:
                div = 1
            steps = self.decay_steps * div
        else:
            epoch = min(self.last_epoch, self.decay_steps)
        return (self.base_lr - self.end_lr) * ((1 - float(epoch) / float(steps)) ** self.power) \
            + self.end_lr


class LinearWarmup(LRScheduler):
    """Linear warm-up from start_lr to end_lr over warmup_steps, then `learning_rate` (a number
    or another scheduler, stepped with last_epoch - warmup_steps)."""

    def __init__(self, learning_rate, warmup_steps, start_lr, end_lr, last_epoch=-1,
                 verbose=False):
        if not isinstance(learning_rate, (float, int, LRScheduler)) or \
                isinstance(learning_rate, bool):
            raise TypeError("LinearWarmup: argument 'learning_rate' expected a float, int or "
                            f"LRScheduler, got {type(learning_rate).__name__}")
        self.learning_rate = learning_rate
        if not isinstance(warmup_steps, int) or warmup_steps <= 0:
            raise ValueError("LinearWarmup: argument 'warmup_steps' expected a positive integer, "
                             f"got {warmup_steps!r}")
        self.warmup_steps = warmup_steps
        self.start_lr = start_lr
        self.end_lr = end_lr
        if end_lr <= start_lr:
            raise ValueError(f"LinearWarmup: argument 'end_lr' {end_lr} must be greater than "
                             f"'start_lr' {start_lr}")
        super().__init__(start_lr, last_epoch, verbose)

    def state_dict(self):
        state = super().state_dict()
        if isinstance(self.learning_rate, LRScheduler):
            state["LinearWarmup_LR"] = self.learning_rate.state_dict()
        return state

    def set_state_dict(self, state_dict):
        super().set_state_dict({k: v for k, v in state_dict.items() if k != "LinearWarmup_LR"})
        if isinstance(self.learning_rate, LRScheduler) and "LinearWarmup_LR" in state_dict:
            self.learning_rate.set_state_dict(state_dict["LinearWarmup_LR"])

    set_dict = set_state_dict

    def get_lr(self):
        if self.last_epoch < self.warmup_steps:
            return (self.end_lr - self.start_lr) * float(self.last_epoch) / \
                float(self.warmup_steps) + self.start_lr
        if isinstance(self.learning_rate, LRScheduler):
            self.learning_rate.step(self.last_epoch - self.warmup_steps)
            return self.learning_rate()
        return self.learning_rate


class ExponentialDecay(LRScheduler):
    def __init__(self, learning_rate, gamma, last_epoch=-1, verbose=False):
        if not 0.0 < gamma < 1.0:
            raise ValueError("ExponentialDecay: argument 'gamma' expected a value in (0, 1), "
                             f"got {gamma}")
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * (self.gamma ** self.last_epoch)


class MultiStepDecay(LRScheduler):
    def __init__(self, learning_rate, milestones, gamma=0.1, last_epoch=-1, verbose=False):
        if not isinstance(milestones, (tuple, list)):
            raise TypeError("MultiStepDecay: argument 'milestones' expected a list or tuple, got "
                            f"{type(milestones).__name__}")
        if not all(milestones[i] < milestones[i + 1] for i in range(len(milestones) - 1)):
            raise ValueError("MultiStepDecay: argument 'milestones' expected an increasing list, "
                             f"got {list(milestones)}")
        if gamma >= 1.0:
            raise ValueError(f"MultiStepDecay: argument 'gamma' expected < 1.0, got {gamma}")
        self.milestones = list(milestones)
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        for i, m in enumerate(self.milestones):
            if self.last_epoch < m:
                return self.base_lr * (self.gamma ** i)
        return self.base_lr * (self.gamma ** len(self.milestones))


class StepDecay(LRScheduler):
    def __init__(self, learning_rate, step_size, gamma=0.1, last_epoch=-1, verbose=False):
        if not isinstance(step_size, int) or step_size <= 0:
            raise ValueError("StepDecay: argument 'step_size' expected a positive integer, got "
                             f"{step_size!r}")
        if gamma >= 1.0:
            raise ValueError(f"StepDecay: argument 'gamma' expected < 1.0, got {gamma}")
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * (self.gamma ** (self.last_epoch // self.step_size))


class LambdaDecay(LRScheduler):
    def __init__(self, learning_rate, lr_lambda, last_epoch=-1, verbose=False):
        if not callable(lr_lambda):
            raise TypeError("LambdaDecay: argument 'lr_lambda' expected a callable, got "
                            f"{type(lr_lambda).__name__}")
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.base_lr * self.lr_lambda(self.last_epoch)


class MultiplicativeDecay(LRScheduler):
    def __init__(self, learning_rate, lr_lambda, last_epoch=-1, verbose=False):
        if not callable(lr_lambda):
            raise TypeError("MultiplicativeDecay: argument 'lr_lambda' expected a callable, got "
                            f"{type(lr_lambda).__name__}")
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        cur = self.base_lr
        for epoch in range(1, self.last_epoch + 1):
            cur = cur * self.lr_lambda(epoch)
        return cur


class CosineAnnealingDecay(LRScheduler):
    def __init__(self, learning_rate, T_max, eta_min=0, last_epoch=-1, verbose=False):
        if not isinstance(T_max, int) or T_max <= 0:
            raise ValueError("CosineAnnealingDecay: argument 'T_max' expected a positive "
                             f"integer, got {T_max!r}")
        _check_number("CosineAnnealingDecay", "eta_min", eta_min)
        self.T_max = T_max
        self.eta_min = float(eta_min)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        if self.last_epoch == 0:
            return self.base_lr
        if (self.last_epoch - 1 - self.T_max) % (2 * self.T_max) == 0:
            return self.last_lr + (self.base_lr - self.eta_min) * \
                (1 - math.cos(math.pi / self.T_max)) / 2
        return (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / \
            (1 + math.cos(math.pi * (self.last_epoch - 1) / self.T_max)) * \
            (self.last_lr - self.eta_min) + self.eta_min

    def _get_closed_form_lr(self):
        return self.eta_min + (self.base_lr - self.eta_min) * \
            (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2


class CosineAnnealingWarmRestarts(LRScheduler):
    def __init__(self, learning_rate, T_0, T_mult=1, eta_min=0, last_epoch=-1, verbose=False):
        if not isinstance(T_0, int) or T_0 <= 0:
            raise ValueError("CosineAnnealingWarmRestarts: argument 'T_0' expected a positive "
                             f"integer, got {T_0!r}")
        if not isinstance(T_mult, int) or T_mult < 1:
            raise ValueError("CosineAnnealingWarmRestarts: argument 'T_mult' expected an integer "
                             f">= 1, got {T_mult!r}")
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        return self.eta_min + (self.base_lr - self.eta_min) * \
            (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2

    def step(self, epoch=None):
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur - self.T_i
                self.T_i = self.T_i * self.T_mult
        else:
            if epoch >= self.T_0:
                if self.T_mult == 1:
                    self.T_cur = epoch % self.T_0
                else:
                    n = int(math.log((epoch / self.T_0 * (self.T_mult - 1) + 1), self.T_mult))
                    self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
                    self.T_i = self.T_0 * self.T_mult ** n
            else:
                self.T_i = self.T_0
                self.T_cur = epoch
        self.last_epoch = math.floor(epoch)
        self.last_lr = self.get_lr()

    def _state_keys(self):
        self.keys = ["last_epoch", "last_lr", "T_cur", "T_i"]


class LinearLR(LRScheduler):
    def __init__(self, learning_rate, total_steps, start_factor=1.0 / 3, end_factor=1.0,
                 last_epoch=-1, verbose=False):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("LinearLR: argument 'start_factor' expected a value in (0, 1], got "
                             f"{start_factor}")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("LinearLR: argument 'end_factor' expected a value in [0, 1], got "
                             f"{end_factor}")
        if total_steps <= 0:
            raise ValueError(f"LinearLR: argument 'total_steps' expected > 0, got {total_steps}")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_steps = total_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self):
        if self.last_epoch == 0:
            return self.base_lr * self.start_factor
        if self.last_epoch > self.total_steps:
            return self.last_lr
        base = self.total_steps * self.start_factor + (self.last_epoch - 1) * \
            (self.end_factor - self.start_factor)
        return self.last_lr * (1.0 + (self.end_factor - self.start_factor) / base)


class OneCycleLR(LRScheduler):
    def __init__(self, max_learning_rate, total_steps, divide_factor=25.0, end_learning_rate=0.0001,
                 phase_pct=0.3, anneal_strategy="cos", three_phase=False, last_epoch=-1,
                 verbose=False):
        if total_steps <= 0:
            raise ValueError(f"OneCycleLR: argument 'total_steps' expected > 0, got {total_steps}")
        if not 0 <= phase_pct <= 1:
            raise ValueError("OneCycleLR: argument 'phase_pct' expected in [0, 1], got "
                             f"{phase_pct}")
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError("OneCycleLR: argument 'anneal_strategy' expected 'cos' or 'linear', "
                             f"got {anneal_strategy!r}")
        self.total_steps = total_steps
        initial_lr = max_learning_rate / float(divide_factor)
        min_lr = float(end_learning_rate)
        if three_phase:
            self._step_config = [0, phase_pct * total_steps - 1, 2 * phase_pct * total_steps - 2,
                                 total_steps - 1]
            self._lr_config = [initial_lr, max_learning_rate, initial_lr, min_lr]
        else:
            self._step_config = [0, phase_pct * total_steps - 1, total_steps - 1]
            self._lr_config = [initial_lr, max_learning_rate, min_lr]
        self._steps_size = [self._step_config[i + 1] - self._step_config[i]
                            for i in range(len(self._step_config) - 1)]
        self._steps_size.append(self._steps_size[-1])
        self.anneal_func = self._cos_annealing if anneal_strategy == "cos" else \
            self._linear_annealing
        super().__init__(initial_lr, last_epoch, verbose)

    @staticmethod
    def _cos_annealing(start_lr, end_lr, pct):
        return end_lr + (start_lr - end_lr) / 2.0 * (math.cos(math.pi * pct) + 1)

    @staticmethod
    def _linear_annealing(start_lr, end_lr, pct):
        return (end_lr - start_lr) * pct + start_lr

    def get_lr(self):
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"OneCycleLR: tried to step {step} times, total_steps is "
                             f"{self.total_steps}")
        for i, (end_step, step_size) in enumerate(zip(self._step_config[1:], self._steps_size)):
            if step <= end_step or i == len(self._step_config) - 2:
                pct = (step - self._step_config[i]) / step_size
                return self.anneal_func(self._lr_config[i], self._lr_config[i + 1], pct)
        return self._lr_config[-1]


class CyclicLR(LRScheduler):
    def __init__(self, base_learning_rate, max_learning_rate, step_size_up, step_size_down=None,
                 mode="triangular", exp_gamma=1.0, scale_fn=None, scale_mode="cycle",
                 last_epoch=-1, verbose=False):
        if step_size_up <= 0:
            raise ValueError(f"CyclicLR: argument 'step_size_up' expected > 0, got {step_size_up}")
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError("CyclicLR: argument 'mode' expected 'triangular', 'triangular2' or "
                             f"'exp_range', got {mode!r}")
        step_size_down = step_size_up if step_size_down is None else step_size_down
        self.cycle_size = step_size_up + step_size_down
        self.step_up_pct = step_size_up / self.cycle_size
        self.max_lr = max_learning_rate
        self.amplitude = self.max_lr - base_learning_rate
        self.mode = mode
        self.gamma = exp_gamma
        if scale_fn is None:
            if mode == "triangular":
                self.scale_fn, self.scale_mode = (lambda x: 1.0), "cycle"
            elif mode == "triangular2":
                self.scale_fn, self.scale_mode = (lambda x: 1 / (2.0 ** (x - 1))), "cycle"
            else:
                self.scale_fn, self.scale_mode = (lambda x: self.gamma ** x), "iterations"
        else:
            self.scale_fn, self.scale_mode = scale_fn, scale_mode
        super().__init__(base_learning_rate, last_epoch, verbose)

    def get_lr(self):
        iterations = self.last_epoch
        cycle = 1 + iterations // self.cycle_size
        pct = 1.0 + iterations / self.cycle_size - cycle
        if pct <= self.step_up_pct:
            scale_factor = pct / self.step_up_pct
        else:
            scale_factor = (1 - pct) / (1 - self.step_up_pct)
        base_height = self.amplitude * scale_factor
        arg = cycle if self.scale_mode == "cycle" else iterations
        return self.base_lr + base_height * self.scale_fn(arg)


class ReduceOnPlateau(LRScheduler):
    """Lowers the lr by `factor` when `metrics` (passed to step) stops improving."""

    def __init__(self, learning_rate, mode="min", factor=0.1, patience=10, threshold=1e-4,
                 threshold_mode="rel", cooldown=0, min_lr=0, epsilon=1e-8, verbose=False):
        if mode not in ("min", "max"):
            raise ValueError(f"ReduceOnPlateau: argument 'mode' expected 'min' or 'max', got "
                             f"{mode!r}")
        if factor >= 1.0:
            raise ValueError(f"ReduceOnPlateau: argument 'factor' expected < 1.0, got {factor}")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError("ReduceOnPlateau: argument 'threshold_mode' expected 'rel' or "
                             f"'abs', got {threshold_mode!r}")
        self.mode = mode
        self.factor = factor
        self.patience = patience
        self.threshold = threshold
        self.threshold_mode = threshold_mode
        self.cooldown = cooldown
        self.min_lr = min_lr
        self.epsilon = epsilon
        self.cooldown_counter = 0
        self.best = None
        self.num_bad_epochs = 0
        self.last_epoch = 0
        self.last_lr = float(learning_rate)
        self.base_lr = float(learning_rate)
        self.verbose = verbose
        self._var_name = None

    def _state_keys(self):
        self.keys = ["cooldown_counter", "best", "num_bad_epochs", "last_epoch", "last_lr"]

    def step(self, metrics, epoch=None):
        if epoch is None:
            self.last_epoch = self.last_epoch + 1
        else:
            self.last_epoch = epoch
        if hasattr(metrics, "numpy"):
            metrics = metrics.numpy()
        metrics = float(metrics)
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
        else:
            if self.best is None or self._is_better(metrics, self.best):
                self.best = metrics
                self.num_bad_epochs = 0
            else:
                self.num_bad_epochs += 1
            if self.num_bad_epochs > self.patience:
                self.cooldown_counter = self.cooldown
                self.num_bad_epochs = 0
                new_lr = max(self.last_lr * self.factor, self.min_lr)
                if self.last_lr - new_lr > self.epsilon:
                    self.last_lr = new_lr

    def _is_better(self, current, best):
        if self.mode == "min" and self.threshold_mode == "rel":
            return current < best - best * self.threshold
        if self.mode == "min":
            return current < best - self.threshold
        if self.threshold_mode == "rel":
            return current > best + best * self.threshold
        return current > best + self.threshold
