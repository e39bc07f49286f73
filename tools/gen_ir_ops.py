#!/usr/bin/env python3
"""Generates the IR `op` dialect from operator records (skiff/ops/ops.yaml, Paddle style).

Every record becomes a typed op class in namespace skiff::ir::op with accessors for its inputs,
attributes and outputs, `build` (result types from the InferMetaInterface that a higher layer
attaches), `build_typed` (explicit result types), a schema-driven `verify`, and a line in
`register_generated_ops`. Several input files may be given: a record whose name was already seen
is skipped, so the IR's own records (tests, fused ops) only fill what ops.yaml lacks.

Usage: gen_ir_ops.py --out-dir DIR ops.yaml [more.yaml ...]
Writes DIR/op_dialect.gen.h and DIR/op_dialect.gen.cc (only when their content changes).
"""
import argparse
import os
import re
import sys

import yaml

# The record grammar helpers are gen_ops.py's: one reader of the op records' text form.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from opgen import split_top, write_if_changed  # noqa: E402

# record type -> (ArgKind, C++ parameter type, attribute builder, accessor helper)
ATTR_KINDS = {
    "int": ("kInt", "int64_t", "b.int_attr({})", "attr_int"),
    "int64_t": ("kInt64", "int64_t", "b.int_attr({})", "attr_int"),
    "float": ("kFloat", "double", "b.float_attr({})", "attr_double"),
    "double": ("kDouble", "double", "b.float_attr({})", "attr_double"),
    "Scalar": ("kScalar", "double", "b.float_attr({})", "attr_double"),
    "bool": ("kBool", "bool", "b.bool_attr({})", "attr_bool"),
    "str": ("kStr", "std::string_view", "b.str_attr({})", "attr_str"),
    "Place": ("kPlace", "std::string_view", "b.str_attr({})", "attr_str"),
    "int[]": ("kIntArray", "const std::vector<int64_t>&", "b.ints_attr({})", "attr_ints"),
    "int64_t[]": ("kInt64Array", "const std::vector<int64_t>&", "b.ints_attr({})", "attr_ints"),
    "IntArray": ("kInt64Array", "const std::vector<int64_t>&", "b.ints_attr({})", "attr_ints"),
    "float[]": ("kFloatArray", "const std::vector<double>&", "b.floats_attr({})", "attr_doubles"),
    "DataType": ("kDataType", "DataType", "b.dtype_attr({})", "attr_dtype"),
}
ACCESSOR_RET = {
    "attr_int": "int64_t", "attr_double": "double", "attr_bool": "bool",
    "attr_str": "const std::string&", "attr_ints": "std::vector<int64_t>",
    "attr_doubles": "std::vector<double>", "attr_dtype": "DataType",
}
TENSOR_KINDS = {"Tensor": "kTensor", "Tensor[]": "kTensorList", "Tensor?": "kOptionalTensor"}
RESERVED = {"operation", "loc", "build", "build_typed", "verify", "schema", "populate", "kName",
            "new", "delete", "default", "and", "or", "not", "xor", "register", "class", "b",
            "out_types", "int", "float", "double", "bool", "char", "auto", "switch", "case"}
TRAITS = {
    "pure": "PureTrait", "commutative": "CommutativeTrait", "elementwise": "ElementwiseTrait",
    "same_shape": "SameOperandsAndResultShapeTrait", "constant_like": "ConstantLikeTrait",
}
DTYPES = {"UNDEFINED": "kUndefined", "BOOL": "kBool", "INT8": "kInt8", "INT16": "kInt16",
          "INT32": "kInt32", "INT64": "kInt64", "UINT8": "kUInt8", "FLOAT16": "kFloat16",
          "BFLOAT16": "kBFloat16", "FLOAT32": "kFloat32", "FLOAT64": "kFloat64",
          "COMPLEX64": "kComplex64", "COMPLEX128": "kComplex128"}
DTYPE_SHORT = {"kUndefined": "undefined", "kBool": "bool", "kInt8": "i8", "kInt16": "i16",
               "kInt32": "i32", "kInt64": "i64", "kUInt8": "u8", "kFloat16": "f16",
               "kBFloat16": "bf16", "kFloat32": "f32", "kFloat64": "f64", "kComplex64": "c64",
               "kComplex128": "c128"}


def camel(name):
    return "".join(p[:1].upper() + p[1:] for p in name.split("_") if p) + "Op"


def ident(name):
    return name + "_" if name in RESERVED else name


def convert_default(kind, text):
    """Returns (C++ default, IR attribute text) or (None, "") when not understood."""
    t = text.strip()
    try:
        if kind in ("kInt", "kInt64"):
            v = int(t)
            return str(v), str(v)
        if kind in ("kFloat", "kDouble", "kScalar"):
            v = float(t.rstrip("fF")) if t not in ("true", "false") else float(t == "true")
            return repr(v), repr(v) if ("." in repr(v) or "e" in repr(v)) else repr(v) + ".0"
        if kind == "kBool":
            if t in ("true", "false"):
                return t, t
        if kind in ("kStr", "kPlace"):
            if t.startswith('"'):
                return t, t
            return '""', '""'
        if kind in ("kIntArray", "kInt64Array", "kFloatArray"):
            inner = t.strip("{}[] ")
            vals = [v.strip() for v in inner.split(",") if v.strip()]
            if kind == "kFloatArray":
                vals = [repr(float(v.rstrip("fF"))) for v in vals]
            else:
                vals = [str(int(v)) for v in vals]
            return "{" + ", ".join(vals) + "}", "[" + ", ".join(vals) + "]"
        if kind == "kDataType":
            m = re.search(r"(?:DataType::)?([A-Za-z0-9]+)$", t)
            if m and m.group(1).upper() in DTYPES:
                k = DTYPES[m.group(1).upper()]
                return "DataType::" + k, DTYPE_SHORT[k]
    except ValueError:
        pass
    return None, ""


def parse_record(rec):
    name = rec["op"].strip()
    args_text = str(rec.get("args", "()")).strip()
    if args_text.startswith("("):
        args_text = args_text[1:-1]
    inputs, attrs = [], []
    for a in split_top(args_text):
        decl, _, default = a.partition("=")
        decl = decl.strip()
        m = re.match(r"^(.*\S)\s+(\w+)$", decl)
        if not m:
            raise ValueError(f"cannot parse argument '{a}'")
        typ, aname = m.group(1).strip(), m.group(2)
        typ = re.sub(r"^Scalar\(\w+\)$", "Scalar", typ)
        if typ in TENSOR_KINDS:
            inputs.append((aname, TENSOR_KINDS[typ]))
        elif typ in ATTR_KINDS:
            attrs.append((aname, typ, default.strip() if default else None))
        else:
            raise ValueError(f"unknown argument type '{typ}'")
    outputs = []
    for o in split_top(str(rec.get("output", "Tensor(out)"))):
        m = re.match(r"^(Tensor(?:\[\])?)\s*\((\w+)\)", o.strip())
        if not m:
            raise ValueError(f"cannot parse output '{o}'")
        outputs.append((m.group(2), TENSOR_KINDS[m.group(1)]))
    inplace = re.findall(r"(\w+)\s*->\s*(\w+)", str(rec.get("inplace", "")))
    # Pure by default; random ops draw from a generator (a side effect: never CSE'd or folded).
    traits = rec.get("ir_traits", [] if rec.get("random") else ["pure"])
    if isinstance(traits, str):
        traits = [t.strip() for t in traits.strip("[]").split(",") if t.strip()]
    infer = rec.get("infer_meta", {})
    infer_fn = infer.get("func", "") if isinstance(infer, dict) else ""
    kernel = rec.get("kernel", {})
    kernel_fn = kernel.get("func", "") if isinstance(kernel, dict) else ""
    return dict(name=name, inputs=inputs, attrs=attrs, outputs=outputs, inplace=inplace,
                traits=traits, infer=str(infer_fn), kernel=str(kernel_fn),
                summary=str(rec.get("summary", "")).strip())


IR_ONLY_KEYS = ("ir_traits", "inplace")


def load(paths):
    """Reads records in order. The first record of a name defines the op; a later one (from the
    IR's own file) may only add the IR-only keys the first lacks (ir_traits, inplace)."""
    raw, order = {}, []
    for p in paths:
        with open(p) as f:
            data = yaml.safe_load(f) or []
        for rec in data:
            if not isinstance(rec, dict) or "op" not in rec:
                continue
            name = rec["op"]
            if name in raw:
                for k in IR_ONLY_KEYS:
                    if k in rec and k in raw[name][0] and k == "inplace":
                        # One place per fact: the op record's inplace feeds the IR.
                        sys.exit(f"gen_ir_ops.py: op '{name}': inplace is declared in "
                                 f"{raw[name][1]} and again in {p}")
                    if k in rec and k not in raw[name][0]:
                        raw[name][0][k] = rec[k]
                continue
            raw[name] = (dict(rec), p)
            order.append(name)
    records = []
    for name in order:
        rec, p = raw[name]
        try:
            records.append(parse_record(rec))
        except ValueError as e:
            print(f"gen_ir_ops.py: skipping op '{name}' of {p}: {e}", file=sys.stderr)
    records.sort(key=lambda r: r["name"])
    return records


def params(r):
    """C++ parameters of build: inputs then attributes, defaults only in a trailing run."""
    ps = [("Value", ident(n), None) for n, _ in r["inputs"]]
    attr_ps = []
    for n, typ, default in r["attrs"]:
        kind, cty, _, _ = ATTR_KINDS[typ]
        cdef = convert_default(kind, default)[0] if default else None
        attr_ps.append((cty, ident(n), cdef))
    # Only a trailing run of defaults is legal in C++.
    seen_required = False
    for i in range(len(attr_ps) - 1, -1, -1):
        if attr_ps[i][2] is None:
            seen_required = True
        elif seen_required:
            attr_ps[i] = (attr_ps[i][0], attr_ps[i][1], None)
    return ps + attr_ps


def gen_header(records):
    out = ["// Generated by tools/gen_ir_ops.py from the operator records. Do not edit.",
           "#pragma once", "", "#include <span>", "#include <string>", "#include <string_view>",
           "#include <vector>", "", '#include "skiff/ir/dialects/op_dialect_base.h"', "",
           "namespace skiff::ir::op {", ""]
    for r in records:
        cls = camel(r["name"])
        if r["summary"]:
            out.append(f"/// {r['summary']}")
        out.append(f"class {cls} : public Op<{cls}> {{")
        out.append(" public:")
        out.append("  using Op::Op;")
        out.append(f'  static constexpr std::string_view kName = "op.{r["name"]}";')
        out.append("  static const OpSchema& schema();")
        out.append("  static void populate(OpInfo& info);")
        out.append("  static void verify(Operation* op);")
        for i, (n, _) in enumerate(r["inputs"]):
            out.append(f"  Value {ident(n)}() const {{ return op_->operand({i}); }}")
        for n, typ, _ in r["attrs"]:
            helper = ATTR_KINDS[typ][3]
            out.append(f"  {ACCESSOR_RET[helper]} {ident(n)}() const "
                       f'{{ return {helper}(op_, "{n}"); }}')
        for i, (n, _) in enumerate(r["outputs"]):
            out.append(f"  Value {ident(n)}() const {{ return op_->result({i}); }}")
        ps = params(r)
        decl = ", ".join(f"{t} {n}" + (f" = {d}" if d is not None else "") for t, n, d in ps)
        out.append(f"  static {cls} build(Builder& b{', ' if ps else ''}{decl});")
        out.append(f"  static {cls} build_typed(Builder& b, std::span<const Type> out_types"
                   f"{', ' if ps else ''}{decl});")
        out.append("};")
        out.append("")
    out.append("/// Registers every generated op with the op dialect.")
    out.append("void register_generated_ops(Dialect* d);")
    out.append("")
    out.append("}  // namespace skiff::ir::op")
    return "\n".join(out) + "\n"


def gen_source(records):
    out = ["// Generated by tools/gen_ir_ops.py from the operator records. Do not edit.",
           '#include "skiff/ir/dialects/op_dialect.gen.h"', "", "namespace skiff::ir::op {",
           ""]
    for r in records:
        cls = camel(r["name"])
        s = r["name"]

        def argdefs(items, attrs=False):
            rows = []
            for it in items:
                if attrs:
                    n, typ, default = it
                    kind = ATTR_KINDS[typ][0]
                    ir_def = convert_default(kind, default)[1] if default else ""
                    rows.append(f'{{"{n}", ArgKind::{kind}, {cxx_str(ir_def)}}}')
                else:
                    n, kind = it
                    rows.append(f'{{"{n}", ArgKind::{kind}, ""}}')
            return rows

        for label, rows in (("inputs", argdefs(r["inputs"])),
                            ("attrs", argdefs(r["attrs"], True)),
                            ("outputs", argdefs(r["outputs"]))):
            if rows:
                out.append(f"static const ArgDef k_{s}_{label}[] = {{{', '.join(rows)}}};")
        if r["inplace"]:
            pairs = ", ".join(f'{{"{a}", "{b}"}}' for a, b in r["inplace"])
            out.append(f"static const InplacePair k_{s}_inplace[] = {{{pairs}}};")
        spans = []
        for label, present in (("inputs", r["inputs"]), ("attrs", r["attrs"]),
                               ("outputs", r["outputs"]), ("inplace", r["inplace"])):
            spans.append(f"k_{s}_{label}" if present else "{}")
        out.append(f"const OpSchema& {cls}::schema() {{")
        out.append(f"  static const OpSchema s{{{', '.join(spans)}, "
                   f'"{r["infer"]}", "{r["kernel"]}"}};')
        out.append("  return s;")
        out.append("}")
        traits = [TRAITS[t] for t in r["traits"] if t in TRAITS]
        out.append(f"void {cls}::populate(OpInfo& info) {{")
        out.append("  info.schema = &schema();")
        for t in traits:
            out.append(f"  info.add_trait<{t}>();")
        out.append("}")
        out.append(f"void {cls}::verify(Operation* op) {{ verify_schema(op, schema()); }}")
        ps = params(r)
        decl = ", ".join(f"{t} {n}" for t, n, _ in ps)
        ins = ", ".join(ident(n) for n, _ in r["inputs"])
        attr_exprs = ", ".join(
            f'b.named("{n}", {ATTR_KINDS[typ][2].format(ident(n))})' for n, typ, _ in r["attrs"])
        for typed in (False, True):
            fn = "build_typed" if typed else "build"
            extra = ", std::span<const Type> out_types" if typed else ""
            out.append(f"{cls} {cls}::{fn}(Builder& b{extra}{', ' if ps else ''}{decl}) {{")
            if r["inputs"]:
                out.append(f"  Value in[] = {{{ins}}};")
            else:
                out.append("  std::span<const Value> in;")
            out.append(f"  std::vector<NamedAttribute> attrs{{{attr_exprs}}};")
            if typed:
                out.append(f"  return {cls}(b.create(kName, in, out_types, std::move(attrs)));")
            else:
                out.append(f"  return {cls}(b.create_inferred(kName, in, std::move(attrs)));")
            out.append("}")
        out.append("")
    out.append("void register_generated_ops(Dialect* d) {")
    for r in records:
        out.append(f"  d->register_op<{camel(r['name'])}>();")
    out.append("}")
    out.append("")
    out.append("}  // namespace skiff::ir::op")
    return "\n".join(out) + "\n"


def cxx_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("yaml", nargs="+")
    args = ap.parse_args()
    records = load(args.yaml)
    os.makedirs(args.out_dir, exist_ok=True)
    write_if_changed(os.path.join(args.out_dir, "op_dialect.gen.h"), gen_header(records))
    write_if_changed(os.path.join(args.out_dir, "op_dialect.gen.cc"), gen_source(records))


if __name__ == "__main__":
    main()
