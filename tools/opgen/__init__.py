"""opgen: the op records' one reader (records.py), their vocabulary (vocab.py) and the IR op
dialect's emitter (ir_dialect.py). gen_ops.py, gen_py_ops.py and gen_op_bridge.py import it."""
from .records import (Arg, Op, Output, RecordError, backward_names, grad_names,  # noqa: F401
                      inplace_name, load, parse_record, widen)
from .util import camel, split_top, write_if_changed  # noqa: F401
from .vocab import (ARG_TYPES, BACKENDS, CPP_TYPE, DTYPE_ENUM, DTYPE_GROUPS,  # noqa: F401
                    DTYPES, TRAITS, VALUE_TYPE)
