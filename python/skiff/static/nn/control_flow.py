"""paddle.static.nn.cond / while_loop / switch_case (Paddle 2.x signatures).

Eagerly the predicate is read and the chosen function runs (autograd records it as usual).
While a function is captured (paddle.jit.to_static, paddle.static programs) they build cf.if /
cf.while ops whose regions hold the branches and the loop body, differentiable with the eager
VJP rules (skiff/runtime/jit/control_flow.h). Results and loop vars may be nested lists, tuples
and dicts of Tensors (Paddle's nest structures): they cross the binding flat (jit/flatten.py),
and captured branches must agree on the structure.
"""
from ... import _C
from ...jit.flatten import flatten, structure_key, unflatten


def _tensor(x, op, arg):
    if isinstance(x, _C.Tensor):
        return x
    if isinstance(x, (bool, int)) and not _C.jit.is_capturing():
        return _C.to_tensor(x)  # eagerly a Python bool or int is as good as a scalar Tensor
    raise TypeError(f"{op}: argument '{arg}' expected a Tensor, got {type(x).__name__}")


def _check_callable(fn, op, arg, optional=True):
    if (fn is None and optional) or callable(fn):
        return
    raise TypeError(f"{op}: argument '{arg}' expected a callable{' or None' if optional else ''}, "
                    f"got {type(fn).__name__}")


class _Results:
    """The structure of what the branches return: the first branch that runs sets it, the others
    (captured, every branch runs) must match it."""

    def __init__(self, op):
        self.op = op
        self.first = None  # (arg, structure)

    def branch(self, fn, arg):
        if fn is None:
            fn = _none

        def run():
            tensors = []
            structure = flatten(fn(), tensors)
            if self.first is None:
                self.first = (arg, structure)
            elif structure_key(structure) != structure_key(self.first[1]):
                raise ValueError(f"{self.op}: argument '{arg}' expected a result of the structure "
                                 f"{self.first[0]} returned ({self.first[1]!r}), got {structure!r}")
            return tensors

        return run

    def build(self, tensors):
        return unflatten(self.first[1], tensors)


def _none():
    return None


def cond(pred, true_fn=None, false_fn=None, name=None, return_names=None):
    """Returns true_fn() if the bool scalar `pred` is true, else false_fn(). A function may return
    a Tensor, nested lists/tuples/dicts of Tensors, or None (a missing function returns None).
    Captured, both functions must return the same structure with tensors of the same dtypes."""
    _check_callable(true_fn, "cond", "true_fn")
    _check_callable(false_fn, "cond", "false_fn")
    results = _Results("cond")
    out = _C.jit.cond(_tensor(pred, "cond", "pred"), results.branch(true_fn, "true_fn"),
                      results.branch(false_fn, "false_fn"))
    return results.build(out)


def while_loop(cond, body, loop_vars, is_test=False, name=None):
    """Repeats loop_vars = body(*loop_vars) while cond(*loop_vars) (a bool scalar Tensor) is true
    and returns the final loop_vars as a list. body must keep their structure, number and
    dtypes (a single loop var may be returned bare)."""
    _check_callable(cond, "while_loop", "cond", optional=False)
    _check_callable(body, "while_loop", "body", optional=False)
    if not isinstance(loop_vars, (list, tuple)) or not loop_vars:
        raise ValueError(f"while_loop: argument 'loop_vars' expected a non-empty list or tuple, "
                         f"got {loop_vars!r}")
    flat = []
    structure = flatten(list(loop_vars), flat)
    if not flat:
        raise TypeError("while_loop: argument 'loop_vars' expected Tensors, got none")
    key = structure_key(structure)

    def cond_flat(*ts):
        return cond(*unflatten(structure, list(ts)))

    def body_flat(*ts):
        r = body(*unflatten(structure, list(ts)))
        if len(loop_vars) == 1 and not isinstance(r, (list, tuple)):
            r = [r]
        tensors = []
        got = flatten(list(r) if isinstance(r, tuple) else r, tensors)
        if structure_key(got) != key:
            raise ValueError(f"while_loop: argument 'body' expected to return loop vars of the "
                             f"structure of loop_vars ({structure!r}), got {got!r}")
        return tensors

    return unflatten(structure, _C.jit.while_loop(cond_flat, body_flat, flat))


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
        _check_callable(fn, "switch_case", f"branch_fns[{k}]", optional=False)
    _check_callable(default, "switch_case", "default")
    results = _Results("switch_case")
    flat_pairs = [(k, results.branch(fn, f"branch_fns[{k}]")) for k, fn in pairs]
    flat_default = results.branch(default, "default") if default is not None else None
    index = _tensor(branch_index, "switch_case", "branch_index")
    return results.build(_C.jit.switch_case(index, flat_pairs, flat_default))


def case(pred_fn_pairs, default=None, name=None):
    """Runs the function of the first (pred, fn) pair whose bool scalar pred is true, else
    `default` (when None: the function of the last pair), as nested conds."""
    if not isinstance(pred_fn_pairs, (list, tuple)) or not pred_fn_pairs:
        raise TypeError(f"case: argument 'pred_fn_pairs' expected a non-empty list of (pred, fn) "
                        f"pairs, got {pred_fn_pairs!r}")
    pairs = []
    for i, item in enumerate(pred_fn_pairs):
        if not isinstance(item, (list, tuple)) or len(item) != 2:
            raise TypeError(f"case: argument 'pred_fn_pairs[{i}]' expected a (pred, fn) pair, got "
                            f"{item!r}")
        _check_callable(item[1], "case", f"pred_fn_pairs[{i}]", optional=False)
        pairs.append((_tensor(item[0], "case", f"pred_fn_pairs[{i}]"), item[1]))
    _check_callable(default, "case", "default")
    if default is None:
        pairs, default = pairs[:-1], pairs[-1][1]

    def chain(i):
        if i == len(pairs):
            return default()
        pred, fn = pairs[i]
        return cond(pred, fn, lambda: chain(i + 1))

    return chain(0)
