"""paddle.static.nn.cond / while_loop / switch_case (Paddle 2.x signatures).

Eagerly the predicate is read and the chosen function runs (autograd records it as usual).
While a function is captured (paddle.jit.to_static) they build cf.if / cf.while ops whose
regions hold the branches and the loop body, differentiable with the eager VJP rules
(skiff/runtime/jit/control_flow.h).
"""
from ... import _C


def _tensor(x, op, arg):
    if isinstance(x, _C.Tensor):
        return x
    if isinstance(x, (bool, int)) and not _C.jit.is_capturing():
        return _C.to_tensor(x)  # eagerly a Python bool or int is as good as a scalar Tensor
    raise TypeError(f"{op}: argument '{arg}' expected a Tensor, got {type(x).__name__}")


def cond(pred, true_fn=None, false_fn=None, name=None, return_names=None):
    """Returns true_fn() if the bool scalar `pred` is true, else false_fn(). A function may return
    a Tensor, a list or tuple of Tensors, or None (a missing function returns None). Captured,
    both functions must return as many tensors of the same dtypes."""
    for fn, arg in ((true_fn, "true_fn"), (false_fn, "false_fn")):
        if fn is not None and not callable(fn):
            raise TypeError(f"cond: argument '{arg}' expected a callable or None, got "
                            f"{type(fn).__name__}")
    return _C.jit.cond(_tensor(pred, "cond", "pred"), true_fn, false_fn)


def while_loop(cond, body, loop_vars, is_test=False, name=None):
    """Repeats loop_vars = body(*loop_vars) while cond(*loop_vars) (a bool scalar Tensor) is true
    and returns the final loop_vars as a list. body must keep their number and dtypes."""
    if not isinstance(loop_vars, (list, tuple)) or not loop_vars:
        raise ValueError(f"while_loop: argument 'loop_vars' expected a non-empty list or tuple of "
                         f"Tensors, got {loop_vars!r}")
    vars_ = [_tensor(v, "while_loop", f"loop_vars[{i}]") for i, v in enumerate(loop_vars)]

    def body_list(*args):
        r = body(*args)
        return [r] if isinstance(r, _C.Tensor) else r

    return _C.jit.while_loop(cond, body_list, vars_)


def switch_case(branch_index, branch_fns, default=None, name=None):
    """Runs the function of `branch_fns` whose index equals the integer scalar Tensor
    `branch_index`, else `default` (when None: the function with the largest index).
    branch_fns: a dict {index: fn}, a list of (index, fn) pairs, or a list of functions
    (indices 0, 1, ...)."""
    if isinstance(branch_fns, dict):
        pairs = list(branch_fns.items())
    elif isinstance(branch_fns, (list, tuple)):
        pairs = []
        for i, item in enumerate(branch_fns):
            if isinstance(item, (list, tuple)):
                if len(item) != 2:
                    raise TypeError(f"switch_case: argument 'branch_fns' expected (index, fn) "
                                    f"pairs, got an item of length {len(item)}")
                pairs.append(tuple(item))
            else:
                pairs.append((i, item))
    else:
        raise TypeError(f"switch_case: argument 'branch_fns' expected a dict or a list, got "
                        f"{type(branch_fns).__name__}")
    for k, fn in pairs:
        if not isinstance(k, int) or isinstance(k, bool):
            raise TypeError(f"switch_case: argument 'branch_fns' expected int indices, got "
                            f"{type(k).__name__}")
        if not callable(fn):
            raise TypeError(f"switch_case: argument 'branch_fns' expected a callable for index "
                            f"{k}, got {type(fn).__name__}")
    if default is not None and not callable(default):
        raise TypeError(f"switch_case: argument 'default' expected a callable or None, got "
                        f"{type(default).__name__}")
    index = _tensor(branch_index, "switch_case", "branch_index")
    return _C.jit.switch_case(index, pairs, default)
