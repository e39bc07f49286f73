"""paddle.static.name_scope: a hierarchical name for the ops appended inside the block.

Each op of a static program carries the attribute `op_namescope` ("/" outside every scope;
"/encoder/", "/encoder/attn/" inside). A prefix used again under the same parent gets a suffix
("/encoder_1/"), as in Paddle, so every scope stays distinct in a program's dump. The program
keeps, per scope entered, the range of its op indices; an op's namescope is that of the
innermost range holding it. Eagerly (dygraph) the block does nothing, as in Paddle."""
import contextlib

__all__ = ["name_scope"]


class _NameScope:
    def __init__(self, name="", parent=None):
        self.name = name
        self.parent = parent
        self.children = {}  # prefix -> scopes made with it

    def child(self, prefix):
        made = self.children.setdefault(prefix, [])
        scope = _NameScope(prefix if not made else f"{prefix}_{len(made)}", self)
        made.append(scope)
        return scope

    def path(self):
        parts, s = [], self
        while s is not None and s.parent is not None:
            parts.append(s.name)
            s = s.parent
        return "/" + "".join(p + "/" for p in reversed(parts))


_current = [_NameScope()]


@contextlib.contextmanager
def name_scope(prefix=None):
    """Ops appended to the main program inside the block get op_namescope
    '<outer scopes>/<prefix>/'."""
    from .. import framework
    from .program import default_main_program
    if framework.in_dynamic_mode():
        yield
        return
    if not prefix:
        raise ValueError("(InvalidArgument) name_scope: argument 'prefix' expected a non-empty "
                         "name (namescope prefix can not be empty)")
    if not isinstance(prefix, str):
        raise TypeError(f"(InvalidType) name_scope: argument 'prefix' expected a str, got "
                        f"{type(prefix).__name__}")
    scope = _current[0].child(prefix)
    program = default_main_program()
    start = program._num_raw_ops()
    _current[0] = scope
    try:
        yield
    finally:
        _current[0] = scope.parent
        # inner scopes closed first, so ranges are stored innermost first
        program._namescopes.append((start, program._num_raw_ops(), scope.path()))
