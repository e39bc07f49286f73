#!/usr/bin/env python3
"""Generates the C++ side of every op from the op records in skiff/ops/yaml/*.yaml.

One record per op (Paddle's ops.yaml style) is the only place an op is described. From it this
script writes, into the build tree (<family> is the yaml file's name; per-family files keep a new
op from recompiling the code of every other family):
  op_ids.h            OpId constants
  kernels/<family>.h  argument structs (what kernels receive), kernel template declarations and
                      explicit-instantiation macros; kernels/all.h includes every family
  kernel_registration.cc  register_kernels(): every (op, backend, dtype) kernel
  op_schemas.cc       the run-time schema table (names, args, defaults, outputs, flags)
  dense/<family>.h, dense_<family>.cc
                      skiff::ops::dense::<op>(DenseTensor...) : infer-meta, promotion, kernel;
                      dense/all.h includes every family
  boxed_api.cc        call_boxed(name, inputs, attrs) for generic callers (tests, executor)
  api.h, api_<family>.cc, api_call_op.cc
                      skiff::<op>(Tensor...) : the C++ user API, and call_op(name, ...)
It rejects records with dangling names (unknown arg types, data_type or promote names that are
not arguments, infer-meta params that do not exist, unknown dtypes or backends).

Usage: gen_ops.py --yaml-dir skiff/ops/yaml --out-dir build/skiff/ops/generated
"""
import argparse
import os
import re
import sys

import yaml

DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
          "float64"]
DTYPE_ENUM = {"bool": "kBool", "int8": "kInt8", "uint8": "kUInt8", "int16": "kInt16",
              "int32": "kInt32", "int64": "kInt64", "float16": "kFloat16",
              "bfloat16": "kBFloat16", "float32": "kFloat32", "float64": "kFloat64"}
CPP_TYPE = {"bool": "bool", "int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t",
            "int32": "int32_t", "int64": "int64_t", "float16": "float16",
            "bfloat16": "bfloat16", "float32": "float", "float64": "double"}
DTYPE_GROUPS = {
    "float": ["float32", "float64", "bfloat16", "float16"],
    "int": ["int8", "uint8", "int16", "int32", "int64"],
    "signed": ["int8", "int16", "int32", "int64"],
    "index": ["int32", "int64"],
}
DTYPE_GROUPS["numeric"] = DTYPE_GROUPS["int"] + DTYPE_GROUPS["float"]
DTYPE_GROUPS["all"] = ["bool"] + DTYPE_GROUPS["numeric"]
BACKENDS = {"cpu": "kCPU", "reference": "kReference", "cuda": "kCUDA"}

# Arg type -> (ArgKind, API parameter type, struct member type, meta parameter type)
ARG_TYPES = {
    "Tensor": ("kTensor", None, None, "const TensorMeta&"),
    "Tensor[]": ("kTensorList", None, None, "std::span<const TensorMeta>"),
    "Tensor?": ("kOptionalTensor", None, None, "const TensorMeta*"),
    "bool": ("kBool", "bool", "bool", "bool"),
    "int": ("kInt", "int64_t", "int64_t", "int64_t"),
    "int64_t": ("kInt", "int64_t", "int64_t", "int64_t"),
    "float": ("kFloat", "float", "float", "float"),
    "double": ("kDouble", "double", "double", "double"),
    "str": ("kString", "const std::string&", "const std::string&", "const std::string&"),
    "int[]": ("kIntArray", "const std::vector<int64_t>&", "const std::vector<int64_t>&",
              "const std::vector<int64_t>&"),
    "int64_t[]": ("kIntArray", "const std::vector<int64_t>&", "const std::vector<int64_t>&",
                  "const std::vector<int64_t>&"),
    "float[]": ("kFloatArray", "const std::vector<double>&", "const std::vector<double>&",
                "const std::vector<double>&"),
    "Scalar": ("kScalar", "const Scalar&", "const Scalar&", "const Scalar&"),
    "DataType": ("kDType", "DType", "DType", "DType"),
    "Place": ("kPlace", "const Place&", "const Place&", "const Place&"),
}
VALUE_TYPE = {"kBool": "bool", "kInt": "int64_t", "kFloat": "double", "kDouble": "double",
              "kString": "std::string", "kIntArray": "std::vector<int64_t>",
              "kFloatArray": "std::vector<double>", "kScalar": "Scalar", "kDType": "DType",
              "kPlace": "Place"}


class RecordError(Exception):
    pass


def camel(name):
    return "".join(p.capitalize() for p in name.split("_"))


def split_top(text, sep=","):
    """Splits on `sep` outside brackets and quotes."""
    parts, depth, cur, quote = [], 0, "", False
    for ch in text:
        if ch == '"':
            quote = not quote
        elif not quote and ch in "([{":
            depth += 1
        elif not quote and ch in ")]}":
            depth -= 1
        if ch == sep and depth == 0 and not quote:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


class Arg:
    def __init__(self, type_, name, default):
        self.type = type_
        self.name = name
        self.default = default
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


def parse_default(arg, op):
    """Returns (C++ expression, C++ AttrValue expression) for a default literal."""
    d = str(arg.default).strip()
    k = arg.kind
    low = d.lower()
    try:
        if k == "kBool":
            if low not in ("true", "false"):
                raise ValueError
            return low, low
        if k == "kInt":
            v = int(d)
            return str(v), f"int64_t{{{v}}}"
        if k in ("kFloat", "kDouble"):
            v = float(d)
            lit = repr(v) + ("f" if k == "kFloat" else "")
            return lit, f"double{{{repr(v)}}}"
        if k == "kString":
            if not (d.startswith('"') and d.endswith('"')):
                raise ValueError
            return d, f"std::string({d})"
        if k in ("kIntArray", "kFloatArray"):
            inner = d.strip("[]{}").strip()
            vals = [x.strip() for x in inner.split(",")] if inner else []
            conv = int if k == "kIntArray" else float
            vals = [repr(conv(v)) for v in vals]
            ty = "std::vector<int64_t>" if k == "kIntArray" else "std::vector<double>"
            return f"{ty}{{{', '.join(vals)}}}", f"{ty}{{{', '.join(vals)}}}"
        if k == "kScalar":
            if low in ("true", "false"):
                return f"Scalar({low})", f"Scalar({low})"
            if re.fullmatch(r"-?\d+", d):
                return f"Scalar(int64_t{{{d}}})", f"Scalar(int64_t{{{d}}})"
            v = float(d)
            return f"Scalar({repr(v)})", f"Scalar({repr(v)})"
        if k == "kDType":
            name = low.replace("datatype::", "")
            if name in ("undefined", "none"):
                return "DType::kUndefined", "DType::kUndefined"
            if name not in DTYPE_ENUM:
                raise ValueError
            return f"DType::{DTYPE_ENUM[name]}", f"DType::{DTYPE_ENUM[name]}"
        if k == "kPlace":
            if low not in ("cpu", "undefined", "none"):
                raise ValueError
            return "Place::cpu()", "Place::cpu()"
    except ValueError:
        pass
    raise RecordError(f"op '{op}': bad default '{d}' for {arg.type} {arg.name}")


def expand_dtypes(spec, op):
    out = []
    for item in spec:
        names = DTYPE_GROUPS.get(item, [item])
        for n in names:
            if n not in DTYPES:
                raise RecordError(f"op '{op}': unknown dtype or group '{item}'")
            if n not in out:
                out.append(n)
    return out


def widen(dtypes):
    """Reference dtypes: the float64/int64/bool oracle for each category present."""
    ref = []
    if "bool" in dtypes:
        ref.append("bool")
    if any(d in DTYPE_GROUPS["int"] for d in dtypes):
        ref.append("int64")
    if any(d in DTYPE_GROUPS["float"] for d in dtypes):
        ref.append("float64")
    return ref


def parse_record(rec):
    if "op" not in rec:
        raise RecordError(f"record without 'op': {rec}")
    op = Op()
    op.name = rec["op"]
    if not re.fullmatch(r"[a-z][a-z0-9_]*", op.name):
        raise RecordError(f"op name '{op.name}' must be snake_case")
    args_text = rec.get("args", "()").strip()
    if not (args_text.startswith("(") and args_text.endswith(")")):
        raise RecordError(f"op '{op.name}': args must be parenthesized")
    op.args = []
    for part in split_top(args_text[1:-1]):
        m = re.fullmatch(r"([A-Za-z0-9_]+(?:\[\]|\?)?)\s+([a-z_][a-z0-9_]*)(?:\s*=\s*(.+))?", part)
        if not m:
            raise RecordError(f"op '{op.name}': cannot parse argument '{part}'")
        type_, name, default = m.groups()
        if type_ not in ARG_TYPES:
            raise RecordError(f"op '{op.name}': unknown argument type '{type_}' of '{name}'")
        arg = Arg(type_, name, default)
        if arg.is_tensor and default is not None:
            raise RecordError(f"op '{op.name}': tensor argument '{name}' cannot have a default")
        op.args.append(arg)
    names = [a.name for a in op.args]
    if len(set(names)) != len(names):
        raise RecordError(f"op '{op.name}': duplicate argument names")
    seen_default = False
    for a in op.args:
        if a.default is not None:
            seen_default = True
            a.default_cpp, a.default_attr = parse_default(a, op.name)
        elif seen_default and not a.is_tensor:
            raise RecordError(f"op '{op.name}': argument '{a.name}' without default after one with")
    op.outputs = []
    for part in split_top(rec.get("output", "Tensor(out)")):
        m = re.fullmatch(r"Tensor(\[\])?\(([a-z_][a-z0-9_]*)\)", part.strip())
        if not m:
            raise RecordError(f"op '{op.name}': cannot parse output '{part}'")
        op.outputs.append(Output(m.group(2), m.group(1) is not None))
    out_names = [o.name for o in op.outputs]
    if set(out_names) & set(names):
        raise RecordError(f"op '{op.name}': an output shares a name with an argument")
    known = set(rec.keys())
    allowed = {"op", "args", "output", "infer_meta", "kernel", "promote", "view", "inplace",
               "backward", "spmd_rule", "differentiable", "random", "doc", "undefined_grads"}
    if known - allowed:
        raise RecordError(f"op '{op.name}': unknown keys {sorted(known - allowed)}")

    im = rec.get("infer_meta")
    if not im or "func" not in im:
        raise RecordError(f"op '{op.name}': infer_meta.func is required")
    op.meta_func = im["func"]
    op.meta_params = im.get("param", names + out_names)
    for p in op.meta_params:
        if p not in names and p not in out_names:
            raise RecordError(f"op '{op.name}': infer_meta param '{p}' is not an argument")

    k = rec.get("kernel")
    if not k:
        raise RecordError(f"op '{op.name}': a kernel section is required")
    op.kernel_func = k.get("func", op.name)
    op.dtypes = expand_dtypes(k.get("dtypes", ["float"]), op.name)
    op.ref_dtypes = expand_dtypes(k["reference_dtypes"], op.name) if "reference_dtypes" in k \
        else widen(op.dtypes)
    op.backends = k.get("backends", ["cpu", "reference"])
    for b in op.backends:
        if b not in BACKENDS:
            raise RecordError(f"op '{op.name}': unknown backend '{b}'")
    op.data_type = k.get("data_type")
    if op.data_type is not None and op.data_type not in names + out_names:
        raise RecordError(f"op '{op.name}': kernel.data_type '{op.data_type}' is not an argument")
    op.fallback_dtype = k.get("fallback_dtype")
    if op.fallback_dtype is not None and op.fallback_dtype not in DTYPES:
        raise RecordError(f"op '{op.name}': unknown fallback_dtype '{op.fallback_dtype}'")

    op.promote = rec.get("promote", [])
    for p in op.promote:
        a = next((a for a in op.args if a.name == p), None)
        if a is None or a.kind != "kTensor":
            raise RecordError(f"op '{op.name}': promote names '{p}', not a Tensor argument")
    view = rec.get("view")
    op.view = dict(view) if view else {}
    for o, src in op.view.items():
        if o not in out_names or src not in names:
            raise RecordError(f"op '{op.name}': view {o} -> {src} names unknown values")
    op.differentiable = bool(rec.get("differentiable", True))
    op.random = bool(rec.get("random", False))
    op.backward = parse_backward(op, rec.get("backward"))
    # Outputs whose gradient reaches the rule undefined when none arrived (instead of zeros
    # the engine would make): the rule skips their terms (a big unused output saves passes).
    op.undefined_grads = list(rec.get("undefined_grads", []))
    for o in op.undefined_grads:
        if o not in out_names:
            raise RecordError(f"op '{op.name}': undefined_grads names '{o}', not an output")
    op.spmd_rule = rec.get("spmd_rule")
    op.inplace = parse_inplace(op, rec.get("inplace"))
    op.inplace_only = op.name.endswith("_")
    if op.inplace_only and not op.inplace:
        raise RecordError(f"op '{op.name}': a name ending in '_' marks an in-place-only op; "
                          "it needs an inplace field")
    if op.inplace and op.fallback_dtype:
        raise RecordError(f"op '{op.name}': inplace and fallback_dtype cannot be combined")
    op.signature = f"{op.name}{args_text} -> {rec.get('output', 'Tensor(out)')}"
    return op


IDENT = re.compile(r"\b[a-z_][a-z0-9_]*\b")


def parse_inplace(op, spec):
    """`inplace : (x -> out), (params -> params_out)` (Paddle's form, also read by the IR):
    each named output is written into the buffer of the named input. Returns {output: input}."""
    if spec is None:
        return {}
    text = str(spec).strip()
    pairs = re.findall(r"\(\s*([a-z_][a-z0-9_]*)\s*->\s*([a-z_][a-z0-9_]*)\s*\)", text)
    if not pairs or re.sub(r"\([^)]*\)|[\s,]", "", text):
        raise RecordError(f"op '{op.name}': inplace must read '(input -> output), ...', got '{text}'")
    args = {a.name: a for a in op.args}
    outs = {o.name: o for o in op.outputs}
    result = {}
    for src, dst in pairs:
        a, o = args.get(src), outs.get(dst)
        if a is None or a.kind not in ("kTensor", "kTensorList"):
            raise RecordError(f"op '{op.name}': inplace input '{src}' is not a Tensor or Tensor[] argument")
        if o is None:
            raise RecordError(f"op '{op.name}': inplace output '{dst}' is not an output")
        if (a.kind == "kTensorList") != o.is_list:
            raise RecordError(f"op '{op.name}': inplace pairs a list with a single tensor ({src} -> {dst})")
        if dst in result or src in result.values():
            raise RecordError(f"op '{op.name}': inplace names '{src}' or '{dst}' twice")
        if dst in op.view:
            raise RecordError(f"op '{op.name}': output '{dst}' cannot be both a view and in-place")
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
        raise RecordError(f"op '{op.name}': backward must map input names to expressions")
    tensor_args = {a.name: a for a in op.args if a.is_tensor}
    seen = set()
    for key, expr in spec.items():
        # "input, filter : f(...)" shares one call returning a tuple (one element per name).
        for name in [n.strip() for n in str(key).split(",")]:
            if name not in tensor_args:
                raise RecordError(f"op '{op.name}': backward names '{name}', not a tensor argument")
            if name in seen:
                raise RecordError(f"op '{op.name}': backward names '{name}' twice")
            if "," in str(key) and tensor_args[name].kind == "kTensorList":
                raise RecordError(f"op '{op.name}': a shared backward cannot name a list ('{name}')")
            seen.add(name)
        expr = spec[key]
        if not isinstance(expr, str) or not expr.strip():
            raise RecordError(f"op '{op.name}': backward of '{name}' must be an expression")
    if not op.differentiable:
        raise RecordError(f"op '{op.name}': a non-differentiable op cannot have a backward")
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


def load_ops(yaml_dir):
    ops = []
    for fname in sorted(os.listdir(yaml_dir)):
        if not fname.endswith(".yaml"):
            continue
        with open(os.path.join(yaml_dir, fname)) as f:
            records = yaml.safe_load(f) or []
        for rec in records:
            op = parse_record(rec)
            op.family = fname[:-len(".yaml")]
            ops.append(op)
    seen, funcs = set(), set()
    for op in ops:
        if op.name in seen:
            raise RecordError(f"op '{op.name}' is defined twice")
        if op.kernel_func in funcs:
            raise RecordError(f"op '{op.name}': kernel.func '{op.kernel_func}' is used by another op")
        seen.add(op.name)
        funcs.add(op.kernel_func)
    if "cast" not in seen:
        raise RecordError("the 'cast' op is required (promotion and dtype fallback use it)")
    ops.sort(key=lambda o: o.name)
    return ops


# ------------------------------------------------------------------------------------------------
# Emitters

HEADER = "// Generated by tools/gen_ops.py from skiff/ops/yaml/*.yaml. Do not edit.\n"


def api_params(op, tensor_t, list_t, opt_t, with_defaults):
    ps = []
    for a in op.args:
        if a.kind == "kTensor":
            t = f"const {tensor_t}&"
        elif a.kind == "kTensorList":
            t = f"const std::vector<{tensor_t}>&"
        elif a.kind == "kOptionalTensor":
            t = opt_t
        else:
            t = ARG_TYPES[a.type][1]
        p = f"{t} {a.name}"
        if with_defaults:
            if a.kind == "kOptionalTensor":
                p += " = {}" if "optional" in opt_t else " = nullptr"
            elif a.default is not None:
                p += f" = {a.default_cpp}"
        ps.append(p)
    return ps


def return_type(op, tensor_t):
    ts = [f"std::vector<{tensor_t}>" if o.is_list else tensor_t for o in op.outputs]
    return ts[0] if len(ts) == 1 else f"std::tuple<{', '.join(ts)}>"


def gen_op_ids(ops):
    lines = [HEADER, "#pragma once\n", "#include \"skiff/ops/op_schema.h\"\n",
             "namespace skiff::ops::op_id {\n"]
    for i, op in enumerate(ops):
        lines.append(f"inline constexpr OpId k{camel(op.name)} = {i};")
    lines.append(f"\ninline constexpr int kNumOps = {len(ops)};")
    lines.append("\n}  // namespace skiff::ops::op_id\n")
    return "\n".join(lines)


def families(ops):
    """Op families (one per yaml file) in a stable order."""
    return sorted({op.family for op in ops})


def of_family(ops, family):
    return [op for op in ops if op.family == family]


def args_struct(op):
    out = [f"/// {op.signature}", f"struct {camel(op.name)}Args {{"]
    for a in op.args:
        if a.kind == "kTensor":
            t = "const DenseTensor&"
        elif a.kind == "kTensorList":
            t = "const std::vector<DenseTensor>&"
        elif a.kind == "kOptionalTensor":
            t = "const DenseTensor*"
        else:
            t = ARG_TYPES[a.type][2]
        out.append(f"  {t} {a.name};")
    for o in op.outputs:
        t = "std::vector<DenseTensor>*" if o.is_list else "DenseTensor*"
        out.append(f"  {t} {o.name};")
    out.append("};\n")
    return out


def umbrella(ops, subdir, what):
    out = [HEADER, "#pragma once\n", f"/// {what} of every op family."]
    out += [f"#include \"skiff/ops/generated/{subdir}/{f}.h\"" for f in families(ops)]
    return "\n".join(out) + "\n"


def kernel_backends(op):
    return [(b, op.ref_dtypes if b == "reference" else op.dtypes) for b in op.backends]


def gen_family_kernels_h(ops, family):
    """Argument structs and kernel declarations of one family: what its kernel files include.

    One header per family keeps a new op from recompiling the kernels of every other family."""
    out = [HEADER, "#pragma once\n", "#include <string>", "#include <vector>\n",
           "#include \"skiff/core/dense_tensor.h\"", "#include \"skiff/core/scalar.h\"",
           "#include \"skiff/ops/kernel_registry.h\"\n", "namespace skiff::ops {\n"]
    for op in of_family(ops, family):
        out += args_struct(op)
        args = f"{camel(op.name)}Args"
        for b, dts in kernel_backends(op):
            fn = f"{op.kernel_func}_{b}"
            out.append(f"template <typename T>\nvoid {fn}(const KernelContext& ctx, const {args}& args);")
            insts = " \\\n  ".join(
                f"template void {fn}<{CPP_TYPE[d]}>(const KernelContext&, const {args}&);"
                for d in dts)
            out.append(f"#define SKIFF_INSTANTIATE_{fn}() \\\n  {insts}\n")
    out.append("}  // namespace skiff::ops\n")
    out.append("#ifndef SKIFF_INSTANTIATE_KERNEL")
    out.append("/// Instantiates a kernel template for every dtype its op record declares.")
    out.append("#define SKIFF_INSTANTIATE_KERNEL(func, backend) SKIFF_INSTANTIATE_##func##_##backend()")
    out.append("#endif\n")
    return "\n".join(out)


def gen_registration(ops):
    out = [HEADER, "#include \"skiff/ops/generated/kernels/all.h\"",
           "#include \"skiff/ops/generated/op_ids.h\"\n", "namespace skiff::ops {\n",
           "void register_builtin_kernels(KernelRegistry& r) {"]
    # Kernel functions shared by several ops are registered once per op; dedupe declarations.
    for op in ops:
        args = f"{camel(op.name)}Args"
        for b, dts in kernel_backends(op):
            for d in dts:
                fn = f"{op.kernel_func}_{b}<{CPP_TYPE[d]}>"
                out.append(f"  r.add(op_id::k{camel(op.name)}, Backend::{BACKENDS[b]}, DType::{DTYPE_ENUM[d]},")
                out.append(f"        [](const KernelContext& c, const void* a) {{ {fn}(c, *static_cast<const {args}*>(a)); }});")
    out.append("}\n\n}  // namespace skiff::ops\n")
    return "\n".join(out)


def attr_value_expr(a):
    return a.default_attr


def gen_schemas(ops):
    out = [HEADER, "#include \"skiff/ops/op_schema.h\"", "#include \"skiff/ops/inplace.h\"\n",
           "namespace skiff::ops {\n", "std::vector<OpSchema> make_op_schemas() {", "  std::vector<OpSchema> s;",
           f"  s.reserve({len(ops)});"]
    for i, op in enumerate(ops):
        args = []
        for a in op.args:
            d = f"AttrValue({attr_value_expr(a)})" if a.default is not None else "std::nullopt"
            args.append(f"{{\"{a.name}\", ArgKind::{a.kind}, {d}}}")
        outs = ", ".join(f"{{\"{o.name}\", {'true' if o.is_list else 'false'}}}" for o in op.outputs)
        sig = op.signature.replace('"', '\\"')
        grads = ", ".join(f'"{n}"' for n in grad_names(op))
        out.append(f"  s.push_back(OpSchema{{{i}, \"{op.name}\", {{{', '.join(args)}}}, {{{outs}}}, "
                   f"{'true' if op.differentiable else 'false'}, {'true' if op.view else 'false'}, "
                   f"{'true' if op.random else 'false'}, {{{grads}}}, \"{sig}\"}});")
    out.append("  return s;\n}\n")
    # In-place facts live beside the schema (skiff/ops/inplace.h), so that adding them does not
    # touch the header every kernel includes.
    out.append("const InplaceInfo* inplace_info(OpId id) {")
    out.append("  static const std::vector<InplaceInfo> kInfos = {")
    for op in ops:
        pairs = ", ".join(f'{{"{src}", "{dst}"}}' for dst, src in op.inplace.items())
        api = inplace_name(op) if op.inplace else ""
        out.append(f"      {{\"{api}\", {{{pairs}}}}},")
    out.append("  };")
    out.append("  return id < kInfos.size() && !kInfos[id].api.empty() ? &kInfos[id] : nullptr;")
    out.append("}\n\n}  // namespace skiff::ops\n")
    return "\n".join(out)


def gen_family_dense_h(ops, family):
    out = [HEADER, "#pragma once\n", "#include <string>", "#include <tuple>", "#include <vector>\n",
           "#include \"skiff/core/dense_tensor.h\"", "#include \"skiff/core/scalar.h\"\n",
           "/// The dense op API: infer-meta, promotion, kernel selection and the kernel call on",
           "/// DenseTensors. No autograd, capture or distribution: those wrap this layer.",
           "namespace skiff::ops::dense {\n"]
    for op in of_family(ops, family):
        ps = api_params(op, "DenseTensor", None, "const DenseTensor*", True)
        out.append(f"{return_type(op, 'DenseTensor')} {op.name}({', '.join(ps)});")
        if op.inplace and not op.inplace_only:
            out.append(f"{return_type(op, 'DenseTensor')} {inplace_name(op)}({', '.join(ps)});")
    out.append("\n}  // namespace skiff::ops::dense\n")
    return "\n".join(out)


def meta_arg(op, name):
    for a in op.args:
        if a.name == name:
            if a.kind == "kTensor":
                return f"{name}_p->meta()"
            if a.kind == "kTensorList":
                return f"std::span<const TensorMeta>({name}_metas)"
            if a.kind == "kOptionalTensor":
                return f"({name} ? &{name}_meta : nullptr)"
            return name
    o = next(o for o in op.outputs if o.name == name)
    return f"&{name}_meta"


def gen_family_dense_cc(ops, family):
    # Every family's declarations: promotion and fallbacks call other ops (cast, ...).
    out = [HEADER, "#include \"skiff/ops/generated/dense/all.h\"\n",
           "#include \"skiff/ops/dispatch.h\"",
           f"#include \"skiff/ops/generated/kernels/{family}.h\"",
           "#include \"skiff/ops/generated/op_ids.h\"", "#include \"skiff/ops/inplace.h\"",
           "#include \"skiff/ops/meta/meta.h\"\n",
           "namespace skiff::ops::dense {\n"]
    for op in of_family(ops, family):
        if not op.inplace_only:
            out.append(gen_dense_fn(op))
        if op.inplace:
            out.append(gen_dense_fn(op, inplace=True))
    out.append("}  // namespace skiff::ops::dense\n")
    return "\n".join(out)


def other_inputs(op, src):
    """(tensors, lists) C++ expressions of the tensor inputs other than `src`, for overlap checks."""
    ts = [f"&{a.name}" for a in op.args if a.kind == "kTensor" and a.name != src]
    ts += [a.name for a in op.args if a.kind == "kOptionalTensor"]
    ls = [f"&{a.name}" for a in op.args if a.kind == "kTensorList"]
    return ", ".join(ts), ", ".join(ls)


def gen_dense_fn(op, inplace=False):
    """The dense op. With `inplace`, the variant that writes the aliased outputs into their
    inputs' buffers (directly when the input is contiguous and no other input overlaps it,
    otherwise through a temporary copied back) and bumps their storage versions."""
    L = []
    name = inplace_name(op) if inplace else op.name
    aliased = op.inplace if inplace else {}
    ps = api_params(op, "DenseTensor", None, "const DenseTensor*", False)
    L.append(f"{return_type(op, 'DenseTensor')} {name}({', '.join(ps)}) {{")
    L.append(f"  static constexpr const char* kOp = \"{name}\";")
    tensors = [a for a in op.args if a.kind == "kTensor"]
    lists = [a for a in op.args if a.kind == "kTensorList"]
    opts = [a for a in op.args if a.kind == "kOptionalTensor"]
    # Place: all tensor inputs agree; otherwise an explicit place attr or the default place.
    place_arg = next((a for a in op.args if a.kind == "kPlace"), None)
    ptrs = [f"&{a.name}" for a in tensors] + [f"{a.name}" for a in opts]
    if tensors or opts or lists:
        lists_expr = ", ".join(f"&{a.name}" for a in lists)
        L.append(f"  const Place place = common_place(kOp, {{{', '.join(ptrs)}}}, {{{lists_expr}}});")
    elif place_arg:
        L.append(f"  const Place place = {place_arg.name};")
    else:
        L.append("  const Place place = default_place();")
    for a in tensors:
        L.append(f"  const DenseTensor* {a.name}_p = &{a.name};")
    # Promotion of the named inputs to one dtype; in place, to the written input's dtype.
    if op.promote:
        expr = f"promote_all(kOp, {{{', '.join('&' + p for p in op.promote)}}})"
        target = next((p for p in op.promote if p in aliased.values()), None)
        if target:
            expr = f"inplace_dtype(kOp, \"{target}\", {target}.dtype(), {expr})"
        L.append(f"  const DType promoted = {expr};")
        for p in op.promote:
            L.append(f"  DenseTensor {p}_cast;")
            L.append(f"  if ({p}.dtype() != promoted) {{ {p}_cast = cast({p}, promoted); {p}_p = &{p}_cast; }}")
    for a in lists:
        L.append(f"  std::vector<TensorMeta> {a.name}_metas;")
        L.append(f"  {a.name}_metas.reserve({a.name}.size());")
        L.append(f"  for (const auto& t : {a.name}) {a.name}_metas.push_back(t.meta());")
    for a in opts:
        L.append(f"  TensorMeta {a.name}_meta;")
        L.append(f"  if ({a.name}) {a.name}_meta = {a.name}->meta();")
    for o in op.outputs:
        t = "std::vector<TensorMeta>" if o.is_list else "TensorMeta"
        L.append(f"  {t} {o.name}_meta;")
    margs = ", ".join(["kOp"] + [meta_arg(op, p) for p in op.meta_params])
    L.append(f"  meta::{op.meta_func}({margs});")
    for dst, src in aliased.items():
        L.append(f"  check_inplace_meta(kOp, \"{src}\", {src}, {dst}_meta);")
    # Kernel dtype.
    if op.data_type:
        a = next((a for a in op.args if a.name == op.data_type), None)
        if a is None:
            kd = f"{op.data_type}_meta.dtype"
        elif a.kind == "kTensor":
            kd = f"{a.name}_p->dtype()"
        elif a.kind == "kTensorList":
            kd = f"({a.name}.empty() ? DType::kFloat32 : {a.name}[0].dtype())"
        elif a.kind == "kDType":
            kd = f"({a.name} == DType::kUndefined ? {op.outputs[0].name}_meta.dtype : {a.name})"
        else:
            raise RecordError(f"op '{op.name}': data_type must name a tensor or DataType")
    elif op.promote:
        kd = "promoted"
    elif tensors:
        kd = f"{tensors[0].name}_p->dtype()"
    elif lists:
        kd = f"({lists[0].name}.empty() ? DType::kFloat32 : {lists[0].name}[0].dtype())"
    else:
        o = op.outputs[0]
        kd = f"{o.name}_meta[0].dtype" if o.is_list else f"{o.name}_meta.dtype"
    L.append(f"  const DType kernel_dtype = {kd};")
    fb = f"DType::{DTYPE_ENUM[op.fallback_dtype]}" if op.fallback_dtype else "DType::kUndefined"
    L.append(f"  const KernelChoice choice = select_kernel(op_id::k{camel(op.name)}, place, kernel_dtype, {fb});")
    if op.fallback_dtype:
        # Declared dtype fallback: run in the wider dtype, cast results back.
        L.append(f"  if (choice.dtype != kernel_dtype) {{")
        call_args = []
        for a in op.args:
            if a.kind == "kTensor":
                call_args.append(f"({a.name}_p->dtype() == kernel_dtype ? cast(*{a.name}_p, choice.dtype) : *{a.name}_p)")
            elif a.kind == "kOptionalTensor":
                L.append(f"    DenseTensor {a.name}_fb; if ({a.name}) {a.name}_fb = {a.name}->dtype() == kernel_dtype ? cast(*{a.name}, choice.dtype) : *{a.name};")
                call_args.append(f"({a.name} ? &{a.name}_fb : nullptr)")
            else:
                call_args.append(a.name)
        if len(op.outputs) != 1 or op.outputs[0].is_list:
            raise RecordError(f"op '{op.name}': fallback_dtype needs a single tensor output")
        o = op.outputs[0]
        L.append(f"    DenseTensor r = {op.name}({', '.join(call_args)});")
        L.append(f"    return r.dtype() == choice.dtype && {o.name}_meta.dtype == kernel_dtype ? cast(r, kernel_dtype) : r;")
        L.append("  }")
    # Outputs: allocated here unless the op is a view, the shape is known only after the kernel,
    # or the output is written into an input.
    for o in op.outputs:
        src = aliased.get(o.name)
        if src:
            others = other_inputs(op, src)
            L.append(f"  InplaceTarget {o.name}_target(kOp, \"{src}\", {src}, {o.name}_meta, place, "
                     f"{{{others[0]}}}, {{{others[1]}}});")
            if o.is_list:
                L.append(f"  std::vector<DenseTensor>& {o.name} = {o.name}_target.outputs();")
            else:
                L.append(f"  DenseTensor& {o.name} = {o.name}_target.output();")
        elif o.is_list:
            L.append(f"  std::vector<DenseTensor> {o.name};")
            if o.name not in op.view:
                L.append(f"  {o.name}.reserve({o.name}_meta.size());")
                L.append(f"  for (const auto& m : {o.name}_meta) {o.name}.push_back(allocate_output(kOp, m, place));")
        else:
            L.append(f"  DenseTensor {o.name};")
            if o.name not in op.view:
                L.append(f"  if (!{o.name}_meta.dims.has_dynamic()) {o.name} = allocate_output(kOp, {o.name}_meta, place);")
    fields = []
    for a in op.args:
        if a.kind == "kTensor":
            fields.append(f"*{a.name}_p")
        else:
            fields.append(a.name)
    fields += [f"&{o.name}" for o in op.outputs]
    L.append(f"  const {camel(op.name)}Args args{{{', '.join(fields)}}};")
    L.append("  choice.fn(KernelContext{place, choice.backend, kOp}, &args);")
    for dst in aliased:
        L.append(f"  {dst}_target.finish();")
    rets = [aliased.get(o.name, o.name) for o in op.outputs]
    if len(rets) == 1:
        L.append(f"  return {rets[0]};")
    else:
        L.append(f"  return {{{', '.join(rets)}}};")
    L.append("}\n")
    return "\n".join(L)


def unboxed_args(op, tensor, tensor_list, optional, attr_fn, attrs):
    """C++ expressions that take each argument of `op` out of boxed inputs. The tensor patterns
    receive the index among tensor arguments; attributes come from `attr_fn<T>(s, attrs, i)`."""
    call, ti = [], 0
    for i, a in enumerate(op.args):
        if a.is_tensor:
            pattern = {"kTensor": tensor, "kTensorList": tensor_list, "kOptionalTensor": optional}
            call.append(pattern[a.kind].format(ti))
            ti += 1
            continue
        conv = f"{attr_fn}<{VALUE_TYPE[a.kind]}>(s, {attrs}, {i})"
        call.append(f"static_cast<float>({conv})" if a.kind == "kFloat" else conv)
    return call


def boxed_return(op, res, lists_type):
    """Lines returning the result `res` of a typed call as lists of tensors per output."""
    if len(op.outputs) == 1:
        o = op.outputs[0]
        return [f"  return {lists_type}{{{res if o.is_list else '{' + res + '}'}}};"]
    items = [f"std::get<{j}>(r)" if o.is_list else f"{{std::get<{j}>(r)}}"
             for j, o in enumerate(op.outputs)]
    return [f"  auto r = {res};", f"  return {lists_type}{{{', '.join(items)}}};"]


def gen_boxed(ops):
    out = [HEADER, "#include \"skiff/ops/boxed.h\"", "#include \"skiff/ops/generated/dense/all.h\"",
           "#include \"skiff/ops/generated/op_ids.h\"\n", "namespace skiff::ops {\n",
           "namespace {\n"]
    for op in ops:
        out.append(f"BoxedOutputs boxed_{op.name}(const OpSchema& s, const BoxedInputs& in) {{")
        n_tensor_args = sum(1 for a in op.args if a.is_tensor)
        out.append(f"  boxed_check_arity(s, in, {n_tensor_args});")
        call = unboxed_args(op, "boxed_tensor(s, in, {})", "boxed_tensor_list(s, in, {})",
                            "boxed_optional_tensor(s, in, {})", "boxed_attr", "in.attrs")
        out += boxed_return(op, f"dense::{op.name}({', '.join(call)})", "BoxedOutputs")
        out.append("}\n")
    out.append("}  // namespace\n")
    out.append("BoxedFn boxed_fn(OpId id) {")
    out.append("  static constexpr BoxedFn kTable[] = {")
    for op in ops:
        out.append(f"      &boxed_{op.name},")
    out.append("  };")
    out.append("  return kTable[id];\n}\n")
    out.append("}  // namespace skiff::ops\n")
    return "\n".join(out)


def gen_api_h(ops):
    out = [HEADER, "#pragma once\n", "#include <optional>", "#include <string>", "#include <tuple>",
           "#include <vector>\n", "#include \"skiff/core/scalar.h\"", "#include \"skiff/core/tensor.h\"\n",
           "/// The C++ op API on Tensors (Paddle names, arguments and defaults).",
           "namespace skiff {\n"]
    for op in ops:
        ps = api_params(op, "Tensor", None, "const std::optional<Tensor>&", True)
        out.append(f"{return_type(op, 'Tensor')} {op.name}({', '.join(ps)});")
        if op.inplace and not op.inplace_only:
            out.append(f"/// In place: writes {', '.join(op.inplace.values())} and returns it.")
            out.append(f"{return_type(op, 'Tensor')} {inplace_name(op)}({', '.join(ps)});")
    out.append("\n}  // namespace skiff\n")
    return "\n".join(out)


def gen_grad_node(op):
    """A GradNode subclass per differentiable op with a backward rule."""
    cls = f"{camel(op.name)}GradNode"
    saved_args, saved_outs = backward_names(op)
    L = [f"class {cls} final : public autograd::GradNode {{", " public:",
         f"  std::string name() const override {{ return \"{op.name}_grad\"; }}",
         "  std::vector<Tensor> apply(std::vector<Tensor>& grads) override {"]
    if any(a.is_tensor for a in saved_args) or saved_outs:
        L += ["    const auto self = shared_from_this();",
              f"    static constexpr const char* kNode = \"{op.name}_grad\";"]
    if op.undefined_grads:
        # The engine leaves missing gradients undefined for this node: zeros for the outputs
        # whose rule terms need them.
        for k, o in enumerate(op.outputs):
            if o.name not in op.undefined_grads:
                L.append(f"    for (size_t i = out_offsets_[{k}]; i < out_offsets_[{k + 1}]; ++i) "
                         "if (!grads[i].defined()) grads[i] = autograd::zero_grad(this, i);")
    # Incoming gradients per output.
    for k, o in enumerate(op.outputs):
        if o.is_list:
            L.append(f"    const std::vector<Tensor> grad_{o.name}(grads.begin() + out_offsets_[{k}], "
                     f"grads.begin() + out_offsets_[{k + 1}]);")
        else:
            L.append(f"    const Tensor& grad_{o.name} = grads[out_offsets_[{k}]];")
        L.append(f"    (void)grad_{o.name};")
    for a in saved_args:
        if a.kind == "kTensorList":
            L.append(f"    std::vector<Tensor> {a.name};")
            L.append(f"    for (const auto& s : {a.name}_) {a.name}.push_back(s.unpack(self, kNode));")
        elif a.kind == "kOptionalTensor":
            L.append(f"    const Tensor {a.name}_t = {a.name}_.unpack(self, kNode);")
            L.append(f"    const std::optional<Tensor> {a.name} = {a.name}_t.defined() ? "
                     f"std::optional<Tensor>({a.name}_t) : std::nullopt;")
        elif a.kind == "kTensor":
            L.append(f"    const Tensor {a.name} = {a.name}_.unpack(self, kNode);")
        else:
            L.append(f"    const auto& {a.name} = {a.name}_;")
            L.append(f"    (void){a.name};")
    for o in saved_outs:
        if o.is_list:
            L.append(f"    std::vector<Tensor> {o.name};")
            L.append(f"    for (const auto& s : {o.name}_) {o.name}.push_back(s.unpack(self, kNode));")
        else:
            L.append(f"    const Tensor {o.name} = {o.name}_.unpack(self, kNode);")
    L.append("    std::vector<Tensor> result(next_edges().size());")
    tensor_index = {a.name: k for k, a in enumerate(a for a in op.args if a.is_tensor)}
    for key, expr in op.backward.items():
        names = key.split(", ")
        if len(names) < 2:
            continue
        ks = [tensor_index[n] for n in names]
        L.append(f"    if ({' || '.join(f'needs_input_grad(in_offsets_[{k}])' for k in ks)}) {{")
        L.append(f"      auto shared = {expr};")
        for j, k in enumerate(ks):
            L.append(f"      if (needs_input_grad(in_offsets_[{k}])) "
                     f"result[in_offsets_[{k}]] = std::get<{j}>(shared);")
        L.append("    }")
    for k, a in enumerate([a for a in op.args if a.is_tensor]):
        if a.name not in op.backward:
            continue
        expr = op.backward[a.name]
        if a.kind == "kTensorList":
            L.append(f"    if (any_needed(in_offsets_[{k}], in_offsets_[{k + 1}])) {{")
            L.append(f"      std::vector<Tensor> g = {expr};")
            L.append(f"      for (size_t j = 0; j < g.size(); ++j) result[in_offsets_[{k}] + j] = g[j];")
            L.append("    }")
        else:
            L.append(f"    if (needs_input_grad(in_offsets_[{k}])) result[in_offsets_[{k}]] = {expr};")
    L.append("    return result;")
    L.append("  }")
    if op.undefined_grads:
        L.append("  bool handles_undefined_grads() const override { return true; }")
    L.append("  void release_saved() override {")
    for a in saved_args:
        if a.kind == "kTensorList":
            L.append(f"    for (auto& s : {a.name}_) s.reset();")
        elif a.is_tensor:
            L.append(f"    {a.name}_.reset();")
    for o in saved_outs:
        if o.is_list:
            L.append(f"    for (auto& s : {o.name}_) s.reset();")
        else:
            L.append(f"    {o.name}_.reset();")
    L.append("  }")
    L.append("  bool any_needed(size_t b, size_t e) const {")
    L.append("    for (size_t i = b; i < e; ++i) if (needs_input_grad(i)) return true;")
    L.append("    return false;")
    L.append("  }")
    for a in saved_args:
        if a.kind == "kTensorList":
            L.append(f"  std::vector<autograd::SavedTensor> {a.name}_;")
        elif a.is_tensor:
            L.append(f"  autograd::SavedTensor {a.name}_;")
        else:
            L.append(f"  {VALUE_TYPE[a.kind] if a.kind != 'kFloat' else 'float'} {a.name}_;")
    for o in saved_outs:
        if o.is_list:
            L.append(f"  std::vector<autograd::SavedTensor> {o.name}_;")
        else:
            L.append(f"  autograd::SavedTensor {o.name}_;")
    L.append("  std::vector<size_t> in_offsets_;   // node input index range per tensor argument")
    L.append("  std::vector<size_t> out_offsets_;  // node output index range per output")
    L.append("};\n")
    return "\n".join(L)


def record_conditions(op):
    """The C++ condition under which a call records a grad node (some input that has a rule, or
    any input when the op has no rule yet, requires grad in grad mode)."""
    tensor_args = [a for a in op.args if a.is_tensor]
    diff = [a for a in tensor_args if a.name in grad_names(op)]
    check = diff if op.backward else tensor_args
    conds = []
    plain = [a for a in check if a.kind == "kTensor"]
    if plain:
        conds.append(f"autograd::should_record({{{', '.join('&' + a.name for a in plain)}}})")
    for a in check:
        if a.kind == "kOptionalTensor":
            conds.append(f"({a.name} && autograd::should_record({{&*{a.name}}}))")
        elif a.kind == "kTensorList":
            conds.append(f"autograd::should_record({a.name})")
    return " || ".join(conds) if conds else "false"


def gen_record(op, saved_name, out_handle):
    """Lines that build the grad node of `op` and link it (indent 4). `saved_name(arg)` is the
    C++ name of the tensor saved for an argument; `out_handle(output)` the handle of an output."""
    L = []
    tensor_args = [a for a in op.args if a.is_tensor]
    cls = f"{camel(op.name)}GradNode"
    saved_args, saved_outs = backward_names(op)
    L.append(f"    auto node = std::make_shared<{cls}>();")
    for a in saved_args:
        n = saved_name(a)
        if a.kind == "kTensorList":
            L.append(f"    for (const auto& t : {n}) node->{a.name}_.emplace_back(t);")
        elif a.kind == "kOptionalTensor":
            L.append(f"    node->{a.name}_ = autograd::SavedTensor({n} ? *{n} : Tensor());")
        elif a.kind == "kTensor":
            L.append(f"    node->{a.name}_ = autograd::SavedTensor({n});")
        else:
            L.append(f"    node->{a.name}_ = {a.name};")
    # Sized up front: recording is on the per-op dispatch path, growth reallocations are not.
    n_in = " + ".join([str(sum(1 for a in tensor_args if a.kind != "kTensorList"))] +
                      [f"{a.name}.size()" for a in tensor_args if a.kind == "kTensorList"])
    n_out = " + ".join([str(sum(1 for o in op.outputs if not o.is_list))] +
                       [f"{out_handle(o)}.size()" for o in op.outputs if o.is_list])
    L.append("    std::vector<const Tensor*> inputs;")
    L.append(f"    inputs.reserve({n_in});")
    L.append(f"    node->in_offsets_.reserve({len(tensor_args) + 1});")
    L.append("    node->in_offsets_.push_back(0);")
    for a in tensor_args:
        has = a.name in grad_names(op)
        if a.kind == "kTensorList":
            L.append(f"    for (const auto& t : {a.name}) inputs.push_back({'&t' if has else 'nullptr'});")
        elif a.kind == "kOptionalTensor":
            L.append(f"    inputs.push_back({a.name} && {str(has).lower()} ? &*{a.name} : nullptr);")
        else:
            L.append(f"    inputs.push_back({'&' + a.name if has else 'nullptr'});")
        L.append("    node->in_offsets_.push_back(inputs.size());")
    L.append("    std::vector<Tensor*> outputs;")
    L.append(f"    outputs.reserve({n_out});")
    L.append(f"    node->out_offsets_.reserve({len(op.outputs) + 1});")
    L.append("    node->out_offsets_.push_back(0);")
    for o in op.outputs:
        h = out_handle(o)
        if o.is_list:
            L.append(f"    for (auto& t : {h}) outputs.push_back(&t);")
        else:
            L.append(f"    outputs.push_back(&{h});")
        L.append("    node->out_offsets_.push_back(outputs.size());")
    L.append("    autograd::set_history(node, inputs, outputs);")
    for k, o in enumerate(op.outputs):
        h = out_handle(o)
        if o.is_list and o in saved_outs:
            L.append(f"    for (size_t j = 0; j < {h}.size(); ++j) "
                     f"node->{o.name}_.emplace_back({h}[j], static_cast<int>(node->out_offsets_[{k}] + j));")
        elif o in saved_outs:
            L.append(f"    node->{o.name}_ = autograd::SavedTensor({h}, static_cast<int>(node->out_offsets_[{k}]));")
    return L


META_USE = re.compile(r"\s*\.\s*(shape|dtype|dims|rank|numel)\s*\(\s*\)")


def uses_only_meta(op, name):
    """True if every backward expression reads argument `name` only for its metadata
    (x.shape(), x.dtype(), ... or the shape argument of unbroadcast(g, x)). An in-place
    variant then needs no copy of the overwritten value."""
    for expr in op.backward.values():
        for m in re.finditer(rf"\b{name}\b", expr):
            if META_USE.match(expr, m.end()):
                continue
            # The last argument of an enclosing unbroadcast(...) call?
            if not re.match(r"\s*\)", expr[m.end():]) or not re.search(r",\s*$", expr[:m.start()]):
                return False
            depth, i = 0, m.start() - 1
            while i >= 0 and not (expr[i] == "(" and depth == 0):
                depth += {")": 1, "(": -1}.get(expr[i], 0)
                i -= 1
            if i < 0 or not expr[:i].rstrip().endswith("unbroadcast"):
                return False
    return True


def op_struct(op, inplace):
    """The C++ name of the struct of typed steps `dispatch::call` composes for an API function."""
    return f"{camel(op.name)}{'Inplace' if inplace and not op.inplace_only else ''}Op"


def unpack_args(op):
    """Locals named like the API's parameters, bound to the argument struct `a` (indent 4)."""
    return [f"    [[maybe_unused]] auto& {a.name} = a.{a.name};" for a in op.args]


def bind_outputs(op):
    """Locals named like the outputs, bound to `result` (indent 4)."""
    if len(op.outputs) == 1:
        o = op.outputs[0]
        return [f"    [[maybe_unused]] {'std::vector<Tensor>' if o.is_list else 'Tensor'}& {o.name} = result;"]
    return [f"    [[maybe_unused]] auto& {o.name} = std::get<{j}>(result);" for j, o in enumerate(op.outputs)]


def kernel_body(op, inplace):
    """`return ...;` of the typed kernel step: the dense op on the arguments (indent 4)."""
    name = inplace_name(op) if inplace else op.name
    aliased = op.inplace if inplace else {}
    res = f"ops::dense::{name}({', '.join(dense_call_args(op))})"
    if len(op.outputs) == 1:
        o = op.outputs[0]
        if o.name in aliased:
            return [f"    {res};", f"    return {aliased[o.name]};"]
        return [f"    return {'wrap(' + res + ')' if o.is_list else 'Tensor(' + res + ')'};"]
    L = [f"    auto r = {res};"]
    parts = []
    for j, o in enumerate(op.outputs):
        if o.name in aliased:
            parts.append(aliased[o.name])
        elif o.is_list:
            parts.append(f"wrap(std::move(std::get<{j}>(r)))")
        else:
            parts.append(f"Tensor(std::move(std::get<{j}>(r)))")
    L.append(f"    return {{{', '.join(parts)}}};")
    return L


def autograd_body(op):
    """The autograd step of the out-of-place API: run the rest of the stack, then record a grad
    node if grad mode is on and an input requires grad (indent 4)."""
    tensor_args = [a for a in op.args if a.is_tensor]
    if not (op.differentiable and tensor_args):
        return ["    return run();"]
    L = unpack_args(op) + ["    Result result = run();"] + bind_outputs(op)
    L.append(f"    if ({record_conditions(op)}) {{")
    if not op.backward:
        L.append(f"      autograd::throw_no_vjp_rule(\"{op.name}\");")
    else:
        L += ["  " + line for line in gen_record(op, lambda a: a.name, lambda o: o.name)]
        for o, src in op.view.items():
            # Views are tracked so that in-place writes through them can be refused.
            L.append(f"      autograd::mark_view({o}, {src});")
    L.append("    }")
    L.append("    return result;")
    return L


def autograd_body_inplace(op):
    """The autograd step of the in-place API (Paddle semantics): saves a copy of an overwritten
    input its rule needs; makes the op's grad node the written tensors' new history, or cuts it
    when nothing records (indent 4)."""
    aliased = op.inplace  # output -> input
    L = unpack_args(op)
    tensor_args = [a for a in op.args if a.is_tensor]
    differentiable = op.differentiable and tensor_args
    kop = f"\"{inplace_name(op)}\""
    if differentiable:
        L.append(f"    const bool record = {record_conditions(op)};")
    if differentiable and not op.backward:
        L.append(f"    if (record) autograd::throw_no_vjp_rule({kop});")
    saved_args = backward_names(op)[0] if op.backward else []
    saved_names = {a.name for a in saved_args}
    old = {}
    for src in aliased.values():
        a = next(a for a in op.args if a.name == src)
        # Other saved inputs that may be the very tensor being written (multiply_(x, x)).
        peers = [b for b in saved_args if b.kind == "kTensor" and b.name != src]
        if a.kind == "kTensorList":
            if src in saved_names:
                L.append(f"    std::vector<Tensor> {src}_old;")
                L.append(f"    if (record) for (const auto& t : {src}) {src}_old.push_back(assign(t));")
                old[src] = f"{src}_old"
            continue
        if src not in saved_names and not peers:
            continue
        reads_value = src in saved_names and not uses_only_meta(op, src)
        cond = "record" if reads_value else \
            "record && (" + " || ".join(f"{b.name}.impl() == {src}.impl()" for b in peers) + ")"
        if not reads_value and not peers:
            cond = "false"
        # The rule reads the value before the write: keep a (differentiable) copy of it.
        L.append(f"    const Tensor {src}_old = {cond} ? assign({src}) : Tensor();")
        if src in saved_names:
            # Only its shape or dtype is read: a data-free stand-in (no version check) will do.
            old[src] = f"{src}_old" if reads_value else f"autograd::meta_only({src})"
        for b in peers:
            old[b.name] = (f"({b.name}.impl() == {src}.impl() && {src}_old.defined() ? "
                           f"{src}_old : {b.name})")
    L.append("    Result result = run();")
    L += bind_outputs(op)
    if differentiable and op.backward:
        L.append("    if (record) {")
        L += ["  " + line for line in gen_record(op, lambda a: old.get(a.name, a.name), lambda o: o.name)]
        L.append("      return result;")
        L.append("    }")
    # Not recorded: written tensors that required grad no longer depend on their history.
    for src in aliased.values():
        L.append(f"    autograd::cut_history({src});")
    L.append("    return result;")
    return L


def box_lines(op):
    """box_inputs, box_attrs, box_outputs, unbox_outputs and input_handle (indent 2)."""
    lists = []
    for a in op.args:
        if a.kind == "kTensor":
            lists.append(f"{{a.{a.name}}}")
        elif a.kind == "kTensorList":
            lists.append(f"a.{a.name}")
        elif a.kind == "kOptionalTensor":
            lists.append(f"a.{a.name} ? std::vector<Tensor>{{*a.{a.name}}} : std::vector<Tensor>{{}}")
    attrs = ", ".join(f"{{\"{a.name}\", ops::AttrValue(a.{a.name})}}" for a in op.args
                      if not a.is_tensor)
    L = ["  static void box_inputs([[maybe_unused]] const Args& a, dispatch::TensorLists& out) {",
         f"    out = dispatch::TensorLists{{{', '.join(lists)}}};", "  }",
         "  static void box_attrs([[maybe_unused]] const Args& a, dispatch::Attrs& out) {",
         f"    out = dispatch::Attrs{{{attrs}}};", "  }"]
    if len(op.outputs) == 1:
        o = op.outputs[0]
        boxed = "{r}" if o.is_list else "{{r}}"
        unboxed = "std::move(c[0])" if o.is_list else "std::move(c[0][0])"
    else:
        boxed = "{" + ", ".join(f"std::get<{j}>(r)" if o.is_list else f"{{std::get<{j}>(r)}}"
                                for j, o in enumerate(op.outputs)) + "}"
        unboxed = "{" + ", ".join(f"std::move(c[{j}])" if o.is_list else f"std::move(c[{j}][0])"
                                  for j, o in enumerate(op.outputs)) + "}"
    flags = ", ".join("true" if o.is_list else "false" for o in op.outputs)
    L += ["  static void box_outputs(const Result& r, dispatch::TensorLists& out) {",
          f"    out = dispatch::TensorLists{boxed};", "  }",
          "  static Result unbox_outputs(const dispatch::OpCall& call, dispatch::TensorLists&& c) {",
          f"    dispatch::detail::check_outputs(call, c, {{{flags}}});",
          f"    return {unboxed};", "  }",
          "  static const Tensor& input_handle([[maybe_unused]] const Args& a, size_t k, "
          "[[maybe_unused]] size_t i) {",
          "    switch (k) {"]
    for k, a in enumerate(x for x in op.args if x.is_tensor):
        h = {"kTensor": f"a.{a.name}", "kTensorList": f"a.{a.name}.at(i)",
             "kOptionalTensor": f"a.{a.name}.value()"}[a.kind]
        L.append(f"      case {k}: return {h};")
    L += ["      default: break;", "    }",
          "    SKIFF_THROW(kOutOfRange, kName, \"input\", \"a tensor argument\", k);", "  }"]
    return L


def gen_op_struct(op, inplace):
    """The typed steps of one API function, composed by dispatch::call (skiff/ops/dispatch)."""
    ps = api_params(op, "Tensor", None, "const std::optional<Tensor>&", False)
    name = inplace_name(op) if inplace else op.name
    L = [f"struct {op_struct(op, inplace)} {{",
         f"  static constexpr const char* kName = \"{name}\";",
         f"  static constexpr ops::OpId kId = ops::op_id::k{camel(op.name)};",
         f"  static constexpr bool kInplace = {'true' if inplace else 'false'};",
         f"  using Result = {return_type(op, 'Tensor')};",
         "  struct Args {"] + [f"    {p};" for p in ps] + ["  };",
         "  static Result kernel(const Args& a) {"] + unpack_args(op) + kernel_body(op, inplace) + \
        ["  }", "  template <class Run>",
         "  static Result autograd([[maybe_unused]] const Args& a, Run&& run) {"]
    L += autograd_body_inplace(op) if inplace else autograd_body(op)
    L.append("  }")
    L += box_lines(op)
    L.append("};\n")
    return "\n".join(L)


def gen_api_fn(op, inplace=False):
    """The public Tensor API function: one call into the mode stack. In-place variants first
    refuse leaves that require grad and views of tensors that require grad (in grad mode)."""
    ps = api_params(op, "Tensor", None, "const std::optional<Tensor>&", False)
    name = inplace_name(op) if inplace else op.name
    L = [f"{return_type(op, 'Tensor')} {name}({', '.join(ps)}) {{"]
    if inplace:
        for src in op.inplace.values():
            L.append(f"  autograd::check_inplace(\"{name}\", \"{src}\", {src});")
    L.append(f"  return dispatch::call<{op_struct(op, inplace)}>({{{', '.join(a.name for a in op.args)}}});")
    L.append("}\n")
    return "\n".join(L)


def dense_call_args(op):
    """The Tensor API's arguments as the dense API takes them."""
    call = []
    for a in op.args:
        if a.kind == "kTensor":
            call.append(f"{a.name}.dense()")
        elif a.kind == "kTensorList":
            call.append(f"unwrap({a.name})")
        elif a.kind == "kOptionalTensor":
            call.append(f"({a.name} ? &{a.name}->dense() : nullptr)")
        else:
            call.append(a.name)
    return call


def gen_call_op(ops):
    """Tensor-level boxed dispatch: call_op(name, inputs, attrs)."""
    L = ["namespace {\n",
         "const Tensor& one(const ops::OpSchema& s, const TensorLists& in, size_t i) {",
         "  SKIFF_ENFORCE(in[i].size() == 1, kInvalidArgument, s.name, str(\"input \", i),",
         "                \"exactly one tensor\", str(in[i].size(), \" tensors\"));",
         "  return in[i][0];", "}",
         "std::optional<Tensor> maybe(const ops::OpSchema& s, const TensorLists& in, size_t i) {",
         "  SKIFF_ENFORCE(in[i].size() <= 1, kInvalidArgument, s.name, str(\"input \", i),",
         "                \"at most one tensor\", str(in[i].size(), \" tensors\"));",
         "  return in[i].empty() ? std::nullopt : std::optional<Tensor>(in[i][0]);", "}",
         "using Attrs = std::map<std::string, ops::AttrValue>;",
         "using CallFn = TensorLists (*)(const ops::OpSchema&, const TensorLists&, const Attrs&);\n"]
    for op in ops:
        L.append(f"TensorLists call_{op.name}(const ops::OpSchema& s, const TensorLists& in, const Attrs& attrs) {{")
        L.append("  (void)s; (void)in; (void)attrs;")
        n = sum(1 for a in op.args if a.is_tensor)
        L.append(f"  SKIFF_ENFORCE(in.size() == {n}, kInvalidArgument, s.name, \"inputs\",")
        L.append(f"                str({n}, \" tensor arguments (\", s.signature, \")\"), in.size());")
        call = unboxed_args(op, "one(s, in, {})", "in[{}]", "maybe(s, in, {})",
                            "ops::boxed_attr", "attrs")
        L += boxed_return(op, f"{op.name}({', '.join(call)})", "TensorLists")
        L.append("}\n")
    duals = [op for op in ops if op.inplace and not op.inplace_only]
    for op in duals:
        n = inplace_name(op)
        L.append(f"TensorLists call_{n}(const ops::OpSchema& s, const TensorLists& in, const Attrs& attrs) {{")
        L.append("  (void)s; (void)in; (void)attrs;")
        k = sum(1 for a in op.args if a.is_tensor)
        L.append(f"  SKIFF_ENFORCE(in.size() == {k}, kInvalidArgument, \"{n}\", \"inputs\",")
        L.append(f"                str({k}, \" tensor arguments (\", s.signature, \")\"), in.size());")
        call = unboxed_args(op, "one(s, in, {})", "in[{}]", "maybe(s, in, {})",
                            "ops::boxed_attr", "attrs")
        L += boxed_return(op, f"{n}({', '.join(call)})", "TensorLists")
        L.append("}\n")
    L.append("constexpr CallFn kCallTable[] = {")
    for op in ops:
        L.append(f"    &call_{op.name},")
    L.append("};\n")
    L.append("// In-place variants of ops that also exist out of place, by OpId of the op.")
    L.append("constexpr CallFn kInplaceCallTable[] = {")
    for op in ops:
        L.append(f"    {'&call_' + inplace_name(op) if op in duals else 'nullptr'},")
    L.append("};\n")
    L.append("}  // namespace\n")
    L.append("TensorLists call_op(std::string_view name, const TensorLists& inputs, const Attrs& attrs) {")
    L.append("  if (ops::find_op_schema(name) == nullptr && name.ends_with('_')) {")
    L.append("    const ops::OpSchema* base = ops::find_op_schema(name.substr(0, name.size() - 1));")
    L.append("    if (base != nullptr && kInplaceCallTable[base->id] != nullptr) {")
    L.append("      ops::check_attr_names(*base, attrs);")
    L.append("      return kInplaceCallTable[base->id](*base, inputs, attrs);")
    L.append("    }")
    L.append("  }")
    L.append("  const ops::OpSchema& s = ops::op_schema(name);")
    L.append("  ops::check_attr_names(s, attrs);")
    L.append("  return kCallTable[s.id](s, inputs, attrs);")
    L.append("}\n")
    return "\n".join(L)


def gen_call_op_cc(ops):
    out = [HEADER, "#include \"skiff/ops/generated/api.h\"\n", "#include \"skiff/ops/boxed.h\"",
           "#include \"skiff/runtime/eager/call_op.h\"\n", "namespace skiff {\n"]
    out.append(gen_call_op(ops))
    out.append("}  // namespace skiff\n")
    return "\n".join(out)


def gen_family_api_cc(all_ops, family):
    ops = of_family(all_ops, family)
    out = [HEADER, "#include \"skiff/ops/generated/api.h\"\n",
           "#include \"skiff/ops/boxed.h\"",
           "#include \"skiff/runtime/eager/call_op.h\"",
           "#include \"skiff/ops/generated/dense/all.h\"",
           "#include \"skiff/ops/grad/vjp_helpers.h\"",
           "#include \"skiff/runtime/eager/grad_node.h\"",
           "#include \"skiff/runtime/eager/inplace.h\"",
           "#include \"skiff/runtime/eager/saved_tensor.h\"",
           "#include \"skiff/ops/dispatch/call.h\"",
           "#include \"skiff/ops/generated/op_ids.h\"\n",
           "namespace skiff {\n", "namespace {",
           "[[maybe_unused]] std::vector<DenseTensor> unwrap(const std::vector<Tensor>& ts) {",
           "  std::vector<DenseTensor> r;", "  r.reserve(ts.size());",
           "  for (const auto& t : ts) r.push_back(t.dense());", "  return r;", "}",
           "[[maybe_unused]] std::vector<Tensor> wrap(std::vector<DenseTensor> ds) {",
           "  std::vector<Tensor> r;", "  r.reserve(ds.size());",
           "  for (auto& d : ds) r.emplace_back(std::move(d));", "  return r;", "}\n"]
    for op in ops:
        if op.differentiable and op.backward:
            out.append(gen_grad_node(op))
    for op in ops:
        if not op.inplace_only:
            out.append(gen_op_struct(op, False))
        if op.inplace:
            out.append(gen_op_struct(op, True))
    out.append("}  // namespace\n")
    for op in ops:
        if not op.inplace_only:
            out.append(gen_api_fn(op))
        if op.inplace:
            out.append(gen_api_fn(op, True))
    out.append("}  // namespace skiff\n")
    return "\n".join(out)


def write_if_changed(path, text):
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return
    with open(path, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--yaml-dir", required=True)
    ap.add_argument("--out-dir", required=True)
    args = ap.parse_args()
    try:
        ops = load_ops(args.yaml_dir)
        files = {
            "op_ids.h": gen_op_ids(ops),
            "kernels/all.h": umbrella(ops, "kernels", "Argument structs and kernel declarations"),
            "kernel_registration.cc": gen_registration(ops),
            "op_schemas.cc": gen_schemas(ops),
            "dense/all.h": umbrella(ops, "dense", "The dense op API"),
            "boxed_api.cc": gen_boxed(ops),
            "api.h": gen_api_h(ops),
            "api_call_op.cc": gen_call_op_cc(ops),
        }
        for f in families(ops):
            files[f"kernels/{f}.h"] = gen_family_kernels_h(ops, f)
            files[f"dense/{f}.h"] = gen_family_dense_h(ops, f)
            files[f"dense_{f}.cc"] = gen_family_dense_cc(ops, f)
            files[f"api_{f}.cc"] = gen_family_api_cc(ops, f)
    except RecordError as e:
        print(f"gen_ops.py: error: {e}", file=sys.stderr)
        sys.exit(1)
    for sub in ("kernels", "dense"):
        os.makedirs(os.path.join(args.out_dir, sub), exist_ok=True)
    for name, text in files.items():
        write_if_changed(os.path.join(args.out_dir, name), text)


if __name__ == "__main__":
    main()
