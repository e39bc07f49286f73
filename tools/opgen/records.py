"""The one reader and checker of the op records (skiff/ops/yaml/*.yaml).

Every generator (gen_ops.py: C++ API, kernels, schemas; gen_py_ops.py: Python bindings;
gen_op_bridge.py: the IR bridge; opgen/ir_dialect.py: the IR op dialect) reads the records
through `load()`, so a record means the same to all of them. A record that cannot be read is an
error naming its file, the op and the key, never skipped.

Keys (see docs/ARCHITECTURE.md, "Operators: one record per op"):
  op, args, output, infer_meta {func, param}, kernel {func, dtypes, reference_dtypes, backends,
  data_type, fallback_dtype}, promote, view, inplace, backward, undefined_grads, differentiable,
  random, doc, and the keys later layers consume: traits, variants, spmd_rule, amp, decomp.
"""
import ast
import os
import re

import yaml

from .util import split_top
from .vocab import (AMP_CLASSES, AMP_DTYPES, ARG_TYPES, BACKENDS, DTYPE_ENUM, DTYPE_GROUPS,
                    DTYPES, TRAITS, VARIANTS, spmd_rules)


class RecordError(Exception):
    pass


KEYS = {"op", "args", "output", "infer_meta", "kernel", "promote", "view", "inplace", "backward",
        "undefined_grads", "differentiable", "random", "doc", "traits", "variants", "spmd_rule",
        "amp", "decomp"}
REQUIRED = ("args", "output", "infer_meta", "kernel", "traits", "variants", "amp")
INFER_META_KEYS = {"func", "param"}
KERNEL_KEYS = {"func", "dtypes", "reference_dtypes", "backends", "data_type", "fallback_dtype"}


class Arg:
    def __init__(self, type_, name, default):
        self.type = type_
        self.name = name
        self.default = default      # the record's text, None when required
        self.value = None           # the default as a Python value (bool/int/float/str/list)
        self.kind = ARG_TYPES[type_][0]

    @property
    def is_tensor(self):
        return self.kind in ("kTensor", "kTensorList", "kOptionalTensor")


class Output:
    def __init__(self, name, is_list):
        self.name = name
        self.is_list = is_list


class Op:
    pass


def err(op, key, msg):
    return RecordError(f"op '{op}': key '{key}': {msg}")


def parse_default(arg, op):
    """Sets arg.value and returns (C++ expression, C++ AttrValue expression) of a default."""
    d = str(arg.default).strip()
    k = arg.kind
    low = d.lower()
    try:
        if k == "kBool":
            if low not in ("true", "false"):
                raise ValueError
            arg.value = low == "true"
            return low, low
        if k == "kInt":
            v = int(d)
            arg.value = v
            return str(v), f"int64_t{{{v}}}"
        if k in ("kFloat", "kDouble"):
            v = float(d)
            arg.value = v
            lit = repr(v) + ("f" if k == "kFloat" else "")
            return lit, f"double{{{repr(v)}}}"
        if k == "kString":
            if not (d.startswith('"') and d.endswith('"')):
                raise ValueError
            arg.value = d[1:-1]
            return d, f"std::string({d})"
        if k in ("kIntArray", "kFloatArray"):
            inner = d.strip("[]{}").strip()
            vals = [x.strip() for x in inner.split(",")] if inner else []
            conv = int if k == "kIntArray" else float
            arg.value = [conv(v) for v in vals]
            vals = [repr(v) for v in arg.value]
            ty = "std::vector<int64_t>" if k == "kIntArray" else "std::vector<double>"
            return f"{ty}{{{', '.join(vals)}}}", f"{ty}{{{', '.join(vals)}}}"
        if k == "kScalar":
            if low in ("true", "false"):
                arg.value = low == "true"
                return f"Scalar({low})", f"Scalar({low})"
            if re.fullmatch(r"-?\d+", d):
                arg.value = int(d)
                return f"Scalar(int64_t{{{d}}})", f"Scalar(int64_t{{{d}}})"
            v = float(d)
            arg.value = v
            return f"Scalar({repr(v)})", f"Scalar({repr(v)})"
        if k == "kDType":
            name = low.replace("datatype::", "")
            if name in ("undefined", "none"):
                arg.value = "undefined"
                return "DType::kUndefined", "DType::kUndefined"
            if name not in DTYPE_ENUM:
                raise ValueError
            arg.value = name
            return f"DType::{DTYPE_ENUM[name]}", f"DType::{DTYPE_ENUM[name]}"
        if k == "kPlace":
            if low not in ("cpu", "undefined", "none"):
                raise ValueError
            arg.value = "cpu"
            return "Place::cpu()", "Place::cpu()"
    except ValueError:
        pass
    raise err(op, "args", f"bad default '{d}' for {arg.type} {arg.name}")


def expand_dtypes(spec, op, key):
    if not isinstance(spec, list):
        raise err(op, key, f"expected a list of dtypes or groups, got {spec!r}")
    out = []
    for item in spec:
        for n in DTYPE_GROUPS.get(item, [item]):
            if n not in DTYPES:
                raise err(op, key, f"unknown dtype or group '{item}'")
            if n not in out:
                out.append(n)
    return out


def widen(dtypes):
    """Reference dtypes: the float64/int64/bool/complex128 oracle for each category present."""
    ref = []
    if "bool" in dtypes:
        ref.append("bool")
    if any(d in DTYPE_GROUPS["int"] for d in dtypes):
        ref.append("int64")
    if any(d in DTYPE_GROUPS["float"] for d in dtypes):
        ref.append("float64")
    if any(d in DTYPE_GROUPS["complex"] for d in dtypes):
        ref.append("complex128")
    return ref


def name_list(op, key, value):
    if isinstance(value, str):
        value = [v.strip() for v in value.strip("[]").split(",") if v.strip()]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise err(op, key, f"expected a list of names, got {value!r}")
    if len(set(value)) != len(value):
        raise err(op, key, f"names a value twice: {value}")
    return value


def check_sub_keys(op, key, section, allowed):
    if not isinstance(section, dict):
        raise err(op, key, f"expected a mapping, got {section!r}")
    unknown = sorted(set(section) - allowed)
    if unknown:
        raise err(op, key, f"unknown keys {unknown} (known: {sorted(allowed)})")


def parse_args(op, rec):
    args_text = str(rec["args"]).strip()
    if not (args_text.startswith("(") and args_text.endswith(")")):
        raise err(op.name, "args", "must be parenthesized")
    op.args = []
    for part in split_top(args_text[1:-1]):
        m = re.fullmatch(r"([A-Za-z0-9_]+(?:\[\]|\?)?)\s+([a-z_][a-z0-9_]*)(?:\s*=\s*(.+))?", part)
        if not m:
            raise err(op.name, "args", f"cannot parse argument '{part}'")
        type_, name, default = m.groups()
        if type_ not in ARG_TYPES:
            raise err(op.name, "args", f"unknown argument type '{type_}' of '{name}'")
        arg = Arg(type_, name, default)
        if arg.is_tensor and default is not None:
            raise err(op.name, "args", f"tensor argument '{name}' cannot have a default")
        op.args.append(arg)
    names = [a.name for a in op.args]
    if len(set(names)) != len(names):
        raise err(op.name, "args", "duplicate argument names")
    seen_default = False
    for a in op.args:
        if a.default is not None:
            seen_default = True
            a.default_cpp, a.default_attr = parse_default(a, op.name)
        elif seen_default and not a.is_tensor:
            raise err(op.name, "args", f"argument '{a.name}' without default after one with")
    op.outputs = []
    for part in split_top(str(rec["output"])):
        m = re.fullmatch(r"Tensor(\[\])?\(([a-z_][a-z0-9_]*)\)", part.strip())
        if not m:
            raise err(op.name, "output", f"cannot parse output '{part}'")
        op.outputs.append(Output(m.group(2), m.group(1) is not None))
    out_names = [o.name for o in op.outputs]
    if len(set(out_names)) != len(out_names):
        raise err(op.name, "output", "duplicate output names")
    if set(out_names) & set(names):
        raise err(op.name, "output", "an output shares a name with an argument")
    op.signature = f"{op.name}{args_text} -> {rec['output']}"


def parse_kernel(op, rec, names, out_names):
    im = rec["infer_meta"]
    check_sub_keys(op.name, "infer_meta", im, INFER_META_KEYS)
    if "func" not in im:
        raise err(op.name, "infer_meta", "func is required")
    op.meta_func = im["func"]
    op.meta_params = name_list(op.name, "infer_meta.param", im.get("param", names + out_names))
    for p in op.meta_params:
        if p not in names and p not in out_names:
            raise err(op.name, "infer_meta.param", f"'{p}' is not an argument or output")

    k = rec["kernel"]
    check_sub_keys(op.name, "kernel", k, KERNEL_KEYS)
    op.kernel_func = k.get("func", op.name)
    op.dtypes = expand_dtypes(k.get("dtypes", ["float"]), op.name, "kernel.dtypes")
    op.ref_dtypes = (expand_dtypes(k["reference_dtypes"], op.name, "kernel.reference_dtypes")
                     if "reference_dtypes" in k else widen(op.dtypes))
    op.backends = name_list(op.name, "kernel.backends", k.get("backends", ["cpu", "reference"]))
    for b in op.backends:
        if b not in BACKENDS:
            raise err(op.name, "kernel.backends", f"unknown backend '{b}'")
    op.data_type = k.get("data_type")
    if op.data_type is not None and op.data_type not in names + out_names:
        raise err(op.name, "kernel.data_type", f"'{op.data_type}' is not an argument or output")
    op.fallback_dtype = k.get("fallback_dtype")
    if op.fallback_dtype is not None and op.fallback_dtype not in DTYPES:
        raise err(op.name, "kernel.fallback_dtype", f"unknown dtype '{op.fallback_dtype}'")


IR_ONLY_KEYS = {"op", "args", "output", "traits", "doc"}


def parse_ir_only(rec):
    """A record of an op the IR declares without a kernel (skiff/ir/dialects/ir_ops.yaml: the
    program input op.data and the fused targets of the DRR rules): name, args, outputs, traits."""
    if not isinstance(rec, dict) or "op" not in rec:
        raise RecordError(f"record without 'op': {rec!r}")
    op = Op()
    op.name = str(rec["op"])
    unknown = sorted(set(rec) - IR_ONLY_KEYS)
    if unknown:
        raise err(op.name, unknown[0], f"unknown key for an IR-only op (known: "
                  f"{sorted(IR_ONLY_KEYS)})")
    for key in ("args", "output", "traits"):
        if key not in rec:
            raise err(op.name, key, "is required")
    parse_args(op, rec)
    op.random, op.inplace, op.inplace_only = False, {}, False
    op.traits = parse_traits(op, rec["traits"])
    op.doc = str(rec.get("doc", "")).strip()
    op.meta_func, op.kernel_func = "", ""
    return op


def load_ir_only(path, ops):
    """The IR-only records of `path`; a name that has an op record is an error (one place per
    op)."""
    names = {op.name for op in ops}
    with open(path) as f:
        records = yaml.safe_load(f) or []
    out = []
    for rec in records:
        try:
            op = parse_ir_only(rec)
        except RecordError as e:
            raise RecordError(f"{path}: {e}") from None
        if op.name in names:
            raise RecordError(f"{path}: op '{op.name}': has an op record in skiff/ops/yaml; "
                              "declare it there only")
        names.add(op.name)
        out.append(op)
    return out


def parse_record(rec):
    """One record (a dict from the yaml) -> Op, checked on its own. Cross-record checks (unique
    names, decomp and kernel names) are in `load`."""
    if not isinstance(rec, dict) or "op" not in rec:
        raise RecordError(f"record without 'op': {rec!r}")
    op = Op()
    op.name = str(rec["op"])
    if not re.fullmatch(r"[a-z][a-z0-9_]*", op.name):
        raise err(op.name, "op", "the name must be snake_case")
    unknown = sorted(set(rec) - KEYS)
    if unknown:
        raise err(op.name, unknown[0], f"unknown key (known: {sorted(KEYS)})")
    for key in REQUIRED:
        if key not in rec:
            raise err(op.name, key, "is required")
    parse_args(op, rec)
    names = [a.name for a in op.args]
    out_names = [o.name for o in op.outputs]
    parse_kernel(op, rec, names, out_names)

    op.promote = name_list(op.name, "promote", rec.get("promote", []))
    for p in op.promote:
        a = next((a for a in op.args if a.name == p), None)
        if a is None or a.kind != "kTensor":
            raise err(op.name, "promote", f"'{p}' is not a Tensor argument")
    view = rec.get("view")
    if view is not None and not isinstance(view, dict):
        raise err(op.name, "view", f"expected {{output : input}}, got {view!r}")
    op.view = dict(view) if view else {}
    for o, src in op.view.items():
        if o not in out_names or src not in names:
            raise err(op.name, "view", f"{o} -> {src} names unknown values")
    for key in ("differentiable", "random"):
        if key in rec and not isinstance(rec[key], bool):
            raise err(op.name, key, f"expected true or false, got {rec[key]!r}")
    op.differentiable = rec.get("differentiable", True)
    op.random = rec.get("random", False)
    op.backward = parse_backward(op, rec.get("backward"))
    # Outputs whose gradient reaches the rule undefined when none arrived (instead of zeros
    # the engine would make): the rule skips their terms (a big unused output saves passes).
    op.undefined_grads = name_list(op.name, "undefined_grads", rec.get("undefined_grads", []))
    for o in op.undefined_grads:
        if o not in out_names:
            raise err(op.name, "undefined_grads", f"'{o}' is not an output")
    op.inplace = parse_inplace(op, rec.get("inplace"))
    op.inplace_only = op.name.endswith("_")
    if op.inplace_only and not op.inplace:
        raise err(op.name, "inplace", "a name ending in '_' marks an in-place-only op; it needs "
                  "an inplace field")
    if op.inplace and op.fallback_dtype:
        raise err(op.name, "inplace", "inplace and kernel.fallback_dtype cannot be combined")
    op.doc = str(rec.get("doc", "")).strip()
    op.traits = parse_traits(op, rec["traits"])
    op.variants = parse_variants(op, rec["variants"])
    op.amp = parse_amp(op, rec["amp"])
    op.spmd_rule = rec.get("spmd_rule")
    if op.spmd_rule is not None and not isinstance(op.spmd_rule, str):
        raise err(op.name, "spmd_rule", f"expected a rule name, got {op.spmd_rule!r}")
    op.decomp = parse_decomp(op, rec.get("decomp"))
    return op


IDENT = re.compile(r"\b[a-z_][a-z0-9_]*\b")


def parse_inplace(op, spec):
    """`inplace : (x -> out), (params -> params_out)` (Paddle's form): each named output is
    written into the buffer of the named input. Returns {output: input}."""
    if spec is None:
        return {}
    text = str(spec).strip()
    pairs = re.findall(r"\(\s*([a-z_][a-z0-9_]*)\s*->\s*([a-z_][a-z0-9_]*)\s*\)", text)
    if not pairs or re.sub(r"\([^)]*\)|[\s,]", "", text):
        raise err(op.name, "inplace", f"must read '(input -> output), ...', got '{text}'")
    args = {a.name: a for a in op.args}
    outs = {o.name: o for o in op.outputs}
    result = {}
    for src, dst in pairs:
        a, o = args.get(src), outs.get(dst)
        if a is None or a.kind not in ("kTensor", "kTensorList"):
            raise err(op.name, "inplace", f"input '{src}' is not a Tensor or Tensor[] argument")
        if o is None:
            raise err(op.name, "inplace", f"output '{dst}' is not an output")
        if (a.kind == "kTensorList") != o.is_list:
            raise err(op.name, "inplace", f"pairs a list with a single tensor ({src} -> {dst})")
        if dst in result or src in result.values():
            raise err(op.name, "inplace", f"names '{src}' or '{dst}' twice")
        if dst in op.view:
            raise err(op.name, "inplace", f"output '{dst}' cannot be both a view and in-place")
        result[dst] = src
    return result


def inplace_name(op):
    """The in-place API's name: Paddle's trailing underscore (the op's own for in-place-only ops)."""
    return op.name if op.inplace_only else op.name + "_"


def parse_backward(op, spec):
    """`backward: {x: <C++ expression>, ...}`: the VJP of each differentiable tensor input,
    written against the public op API. Names in scope: the op's arguments, its outputs, and
    grad_<output> (the incoming gradient of each output)."""
    if spec is None:
        return None
    if not isinstance(spec, dict):
        raise err(op.name, "backward", "must map input names to expressions")
    tensor_args = {a.name: a for a in op.args if a.is_tensor}
    seen = set()
    for key, expr in spec.items():
        # "input, filter : f(...)" shares one call returning a tuple (one element per name).
        for name in [n.strip() for n in str(key).split(",")]:
            if name not in tensor_args:
                raise err(op.name, "backward", f"names '{name}', not a tensor argument")
            if name in seen:
                raise err(op.name, "backward", f"names '{name}' twice")
            if "," in str(key) and tensor_args[name].kind == "kTensorList":
                raise err(op.name, "backward", f"a shared rule cannot name a list ('{name}')")
            seen.add(name)
        if not isinstance(expr, str) or not expr.strip():
            raise err(op.name, "backward", f"the rule of '{key}' must be an expression")
    if not op.differentiable:
        raise err(op.name, "backward", "a non-differentiable op cannot have a backward")
    return {", ".join(n.strip() for n in str(k).split(",")): str(v).strip()
            for k, v in spec.items()}


def grad_names(op):
    """Tensor arguments that have a VJP rule (alone or in a shared rule)."""
    return [n.strip() for k in (op.backward or {}) for n in k.split(",")]


def backward_names(op):
    """Arguments and outputs the backward expressions refer to (these are saved)."""
    used = set()
    for expr in op.backward.values():
        used |= set(IDENT.findall(expr))
    args = [a for a in op.args if a.name in used]
    outs = [o for o in op.outputs if o.name in used]
    return args, outs


def tensor_inputs(op):
    return [a for a in op.args if a.is_tensor]


def parse_traits(op, spec):
    traits = name_list(op.name, "traits", spec)
    for t in traits:
        if t not in TRAITS:
            raise err(op.name, "traits", f"unknown trait '{t}' (known: {sorted(TRAITS)})")
    if op.random and "pure" in traits:
        raise err(op.name, "traits", "a random op draws from the generator: it is not pure")
    ins = tensor_inputs(op)
    if "commutative" in traits and (len(ins) != 2 or ins[0].kind != ins[1].kind):
        raise err(op.name, "traits", "commutative needs exactly two tensor inputs of one kind")
    if "elementwise" in traits and not ins:
        raise err(op.name, "traits", "elementwise needs a tensor input")
    if "idempotent" in traits and (len(ins) != 1 or len(op.outputs) != 1):
        raise err(op.name, "traits", "idempotent needs one tensor input and one output")
    return traits


def parse_variants(op, spec):
    variants = name_list(op.name, "variants", spec)
    for v in variants:
        if v not in VARIANTS:
            raise err(op.name, "variants", f"unknown variant '{v}' (known: {list(VARIANTS)})")
    if "inplace" in variants and (not op.inplace or op.inplace_only):
        raise err(op.name, "variants", "the inplace variant needs the record's `inplace` pairs "
                  "(and an op whose name does not end in '_')")
    return variants


def parse_amp(op, spec):
    """`amp : white|black|promote`, or per dtype `{float16 : black, bfloat16 : promote}` where
    Paddle's float16 and bfloat16 lists differ. Returns {dtype: class}."""
    if isinstance(spec, str):
        spec = {d: spec for d in AMP_DTYPES}
    if not isinstance(spec, dict) or set(spec) != set(AMP_DTYPES):
        raise err(op.name, "amp", f"expected one of {list(AMP_CLASSES)} or a map with keys "
                  f"{list(AMP_DTYPES)}, got {spec!r}")
    for d, c in spec.items():
        if c not in AMP_CLASSES:
            raise err(op.name, "amp", f"unknown class '{c}' for {d} (known: {list(AMP_CLASSES)})")
    return dict(spec)


def parse_decomp(op, spec):
    """`decomp : {out : multiply(x, sigmoid(x))}`: each output as a composition of primitive ops
    (ops without a decomp of their own) over the op's arguments and number literals. Syntax is
    checked here; op names and arities in `check_decomp` once every record is read."""
    if spec is None:
        return None
    if not isinstance(spec, dict) or set(spec) != {o.name for o in op.outputs}:
        raise err(op.name, "decomp", "must map every output to an expression")
    trees = {}
    for out, expr in spec.items():
        try:
            trees[out] = ast.parse(str(expr), mode="eval").body
        except SyntaxError as e:
            raise err(op.name, "decomp", f"cannot parse '{expr}': {e.msg}") from None
    return {"text": {o: str(e) for o, e in spec.items()}, "trees": trees}


def check_decomp(op, by_name):
    """Names in a decomp are ops with a record and no decomp (primitives), the op's arguments or
    true/false; calls have the callee's arity and keyword names."""
    scope = {a.name for a in op.args}

    def walk(node):
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in by_name:
                raise err(op.name, "decomp", f"calls '{ast.unparse(node.func)}', not an op")
            callee = by_name[node.func.id]
            if callee.decomp is not None or callee is op:
                raise err(op.name, "decomp", f"'{callee.name}' is not a primitive (it has a "
                          "decomp): compose primitives only")
            params = [a.name for a in callee.args]
            required = [a.name for a in callee.args
                        if a.default is None and a.kind != "kOptionalTensor"]
            kw = [k.arg for k in node.keywords]
            for k in kw:
                if k not in params:
                    raise err(op.name, "decomp", f"'{callee.name}' has no argument '{k}'")
            given = params[:len(node.args)] + kw
            if len(node.args) > len(params) or any(r not in given for r in required):
                raise err(op.name, "decomp", f"'{callee.name}' takes ({', '.join(params)}), "
                          f"got {ast.unparse(node)}")
            for a in list(node.args) + [k.value for k in node.keywords]:
                walk(a)
        elif isinstance(node, ast.Name):
            if node.id not in scope and node.id not in ("true", "false"):
                raise err(op.name, "decomp", f"names '{node.id}', not an argument")
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            walk(node.operand)
        elif isinstance(node, ast.List):
            for e in node.elts:
                walk(e)
        elif not (isinstance(node, ast.Constant) and isinstance(node.value, (int, float, bool))):
            raise err(op.name, "decomp", f"'{ast.unparse(node)}' is not an op call, an argument "
                      "or a number")

    for tree in op.decomp["trees"].values():
        walk(tree)


def check_comments(path, text):
    """An op's comment goes above its `- op :` line. A comment line inside a record (followed by
    more of the record's keys) reads as the next op's comment: refused (it happened 19 times)."""
    lines = text.split("\n")
    in_record = False
    for i, line in enumerate(lines):
        if line.startswith("- op"):
            in_record = True
        elif line.startswith("#") and in_record:
            nxt = next((x for x in lines[i + 1:] if x.strip() and not x.startswith("#")), "")
            if nxt.startswith(" "):
                raise RecordError(f"{path}:{i + 1}: a comment inside a record, before "
                                  f"'{nxt.strip()}': put an op's comment above its '- op :' line")


def load(yaml_dir, spmd_rules_path=None):
    """Reads and checks every record of yaml_dir/*.yaml; returns the ops sorted by name, each
    with .family (its file's name) and .path."""
    ops = []
    for fname in sorted(os.listdir(yaml_dir)):
        if not fname.endswith(".yaml"):
            continue
        path = os.path.join(yaml_dir, fname)
        with open(path) as f:
            text = f.read()
        check_comments(path, text)
        try:
            records = yaml.safe_load(text) or []
        except yaml.YAMLError as e:
            raise RecordError(f"{path}: not valid YAML: {e}") from None
        if not isinstance(records, list):
            raise RecordError(f"{path}: expected a list of records")
        for rec in records:
            try:
                op = parse_record(rec)
            except RecordError as e:
                raise RecordError(f"{path}: {e}") from None
            op.family = fname[:-len(".yaml")]
            op.path = path
            ops.append(op)
    rules = spmd_rules(spmd_rules_path) if spmd_rules_path else spmd_rules()
    by_name, funcs = {}, {}
    for op in ops:
        if op.name in by_name:
            raise RecordError(f"{op.path}: op '{op.name}' is defined twice (also in "
                              f"{by_name[op.name].path})")
        if op.kernel_func in funcs:
            raise RecordError(f"{op.path}: op '{op.name}': key 'kernel.func': "
                              f"'{op.kernel_func}' is used by op '{funcs[op.kernel_func]}'")
        by_name[op.name] = op
        funcs[op.kernel_func] = op.name
    for op in ops:
        try:
            if op.spmd_rule is not None and op.spmd_rule not in rules:
                raise err(op.name, "spmd_rule", f"'{op.spmd_rule}' is not a declared rule "
                          "(skiff/ops/spmd_rules.yaml)")
            if op.decomp is not None:
                check_decomp(op, by_name)
        except RecordError as e:
            raise RecordError(f"{op.path}: {e}") from None
    if "cast" not in by_name:
        raise RecordError("the 'cast' op is required (promotion and dtype fallback use it)")
    ops.sort(key=lambda o: o.name)
    return ops
