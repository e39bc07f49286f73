#!/usr/bin/env python3
"""Generates the IR `op` dialect (skiff::ir::op) from the op records.

Every record becomes a typed op class with accessors for its inputs, attributes and outputs,
`build` (result types from the InferMetaInterface the ops layer attaches), `build_typed`
(explicit result types), a schema-driven `verify`, its record's `traits`, and a line in
`register_generated_ops`. The records are read by opgen.load, the same reader as every other
generator: there is no second list of IR ops.

The IR's own ops without a kernel (op.data, the fused targets of the DRR rules) are declared in
skiff/ir/dialects/ir_ops.yaml (--ir-only), read by the same reader; a name there that has an op
record is an error.

Usage: ir_dialect.py --yaml-dir skiff/ops/yaml [--ir-only ir_ops.yaml] --out-dir DIR
Writes DIR/op_dialect.gen.h and DIR/op_dialect.gen.cc (only when their content changes).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from opgen import RecordError, TRAITS, load, write_if_changed  # noqa: E402
from opgen.records import load_ir_only  # noqa: E402

# record type -> (IR ArgKind, C++ parameter type, attribute builder, accessor helper)
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
    "float[]": ("kFloatArray", "const std::vector<double>&", "b.floats_attr({})", "attr_doubles"),
    "DataType": ("kDataType", "DataType", "b.dtype_attr({})", "attr_dtype"),
}
ACCESSOR_RET = {
    "attr_int": "int64_t", "attr_double": "double", "attr_bool": "bool",
    "attr_str": "const std::string&", "attr_ints": "std::vector<int64_t>",
    "attr_doubles": "std::vector<double>", "attr_dtype": "DataType",
}
TENSOR_KINDS = {"kTensor": "kTensor", "kTensorList": "kTensorList",
                "kOptionalTensor": "kOptionalTensor"}
RESERVED = {"operation", "loc", "build", "build_typed", "verify", "schema", "populate", "kName",
            "new", "delete", "default", "and", "or", "not", "xor", "register", "class", "b",
            "out_types", "int", "float", "double", "bool", "char", "auto", "switch", "case"}
# record dtype name -> (C++ enumerator, IR short name)
IR_DTYPES = {"undefined": ("kUndefined", "undefined"), "bool": ("kBool", "bool"),
             "int8": ("kInt8", "i8"), "int16": ("kInt16", "i16"), "int32": ("kInt32", "i32"),
             "int64": ("kInt64", "i64"), "uint8": ("kUInt8", "u8"),
             "float16": ("kFloat16", "f16"), "bfloat16": ("kBFloat16", "bf16"),
             "float32": ("kFloat32", "f32"), "float64": ("kFloat64", "f64")}


def camel_op(name):
    return "".join(p[:1].upper() + p[1:] for p in name.split("_") if p) + "Op"


def ident(name):
    return name + "_" if name in RESERVED else name


def float_text(v):
    r = repr(float(v))
    return r if ("." in r or "e" in r or "n" in r) else r + ".0"


def defaults(a):
    """(C++ default of the build parameter, IR attribute text) of an attribute's default."""
    v, kind = a.value, ATTR_KINDS[a.type][0]
    if kind in ("kInt", "kInt64"):
        return str(v), str(v)
    if kind in ("kFloat", "kDouble", "kScalar"):
        return repr(float(v)), float_text(v)
    if kind == "kBool":
        return ("true" if v else "false"), ("true" if v else "false")
    if kind in ("kStr", "kPlace"):
        text = '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"'
        return text, text
    if kind in ("kIntArray", "kInt64Array"):
        return "{" + ", ".join(str(x) for x in v) + "}", "[" + ", ".join(str(x) for x in v) + "]"
    if kind == "kFloatArray":
        return ("{" + ", ".join(repr(float(x)) for x in v) + "}",
                "[" + ", ".join(float_text(x) for x in v) + "]")
    if kind == "kDataType":
        enum, short = IR_DTYPES[v]
        return "DataType::" + enum, short
    raise RecordError(f"op '{a.name}': no IR form for a default of type {a.type}")


def view(op):
    """The IR's view of a record: inputs, attributes (name, type, default or None), outputs."""
    inputs = [(a.name, TENSOR_KINDS[a.kind]) for a in op.args if a.is_tensor]
    attrs = [(a.name, a.type, defaults(a) if a.default is not None else None)
             for a in op.args if not a.is_tensor]
    outputs = [(o.name, "kTensorList" if o.is_list else "kTensor") for o in op.outputs]
    inplace = [(src, dst) for dst, src in op.inplace.items()]
    return dict(name=op.name, inputs=inputs, attrs=attrs, outputs=outputs, inplace=inplace,
                traits=op.traits, infer=op.meta_func, kernel=op.kernel_func, doc=op.doc)


def params(r):
    """C++ parameters of build: inputs then attributes, defaults only in a trailing run."""
    ps = [("Value", ident(n), None) for n, _ in r["inputs"]]
    attr_ps = [(ATTR_KINDS[typ][1], ident(n), d[0] if d else None) for n, typ, d in r["attrs"]]
    seen_required = False
    for i in range(len(attr_ps) - 1, -1, -1):
        if attr_ps[i][2] is None:
            seen_required = True
        elif seen_required:
            attr_ps[i] = (attr_ps[i][0], attr_ps[i][1], None)
    return ps + attr_ps


def gen_header(records):
    out = ["// Generated by tools/opgen/ir_dialect.py from skiff/ops/yaml. Do not edit.",
           "#pragma once", "", "#include <span>", "#include <string>", "#include <string_view>",
           "#include <vector>", "", '#include "skiff/ir/dialects/op_dialect_base.h"', "",
           "namespace skiff::ir::op {", ""]
    for r in records:
        cls = camel_op(r["name"])
        if r["doc"]:
            out.append(f"/// {' '.join(r['doc'].split())}")
        out += [f"class {cls} : public Op<{cls}> {{", " public:", "  using Op::Op;",
                f'  static constexpr std::string_view kName = "op.{r["name"]}";',
                "  static const OpSchema& schema();", "  static void populate(OpInfo& info);",
                "  static void verify(Operation* op);"]
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
        out += ["};", ""]
    out += ["/// Registers every generated op with the op dialect.",
            "void register_generated_ops(Dialect* d);", "", "}  // namespace skiff::ir::op"]
    return "\n".join(out) + "\n"


def cxx_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def gen_op_source(r):
    cls, s = camel_op(r["name"]), r["name"]
    out = []
    tables = (("inputs", [f'{{"{n}", ArgKind::{k}, ""}}' for n, k in r["inputs"]]),
              ("attrs", [f'{{"{n}", ArgKind::{ATTR_KINDS[t][0]}, {cxx_str(d[1] if d else "")}}}'
                         for n, t, d in r["attrs"]]),
              ("outputs", [f'{{"{n}", ArgKind::{k}, ""}}' for n, k in r["outputs"]]))
    for label, rows in tables:
        if rows:
            out.append(f"static const ArgDef k_{s}_{label}[] = {{{', '.join(rows)}}};")
    if r["inplace"]:
        pairs = ", ".join(f'{{"{a}", "{b}"}}' for a, b in r["inplace"])
        out.append(f"static const InplacePair k_{s}_inplace[] = {{{pairs}}};")
    spans = [f"k_{s}_{label}" if r[label] else "{}"
             for label in ("inputs", "attrs", "outputs", "inplace")]
    out += [f"const OpSchema& {cls}::schema() {{",
            f"  static const OpSchema s{{{', '.join(spans)}, "
            f'"{r["infer"]}", "{r["kernel"]}"}};', "  return s;", "}",
            f"void {cls}::populate(OpInfo& info) {{", "  info.schema = &schema();"]
    out += [f"  info.add_trait<{TRAITS[t]}>();" for t in r["traits"]]
    out += ["}", f"void {cls}::verify(Operation* op) {{ verify_schema(op, schema()); }}"]
    ps = params(r)
    decl = ", ".join(f"{t} {n}" for t, n, _ in ps)
    ins = ", ".join(ident(n) for n, _ in r["inputs"])
    attr_exprs = ", ".join(f'b.named("{n}", {ATTR_KINDS[typ][2].format(ident(n))})'
                           for n, typ, _ in r["attrs"])
    for typed in (False, True):
        fn = "build_typed" if typed else "build"
        extra = ", std::span<const Type> out_types" if typed else ""
        out.append(f"{cls} {cls}::{fn}(Builder& b{extra}{', ' if ps else ''}{decl}) {{")
        out.append(f"  Value in[] = {{{ins}}};" if r["inputs"] else
                   "  std::span<const Value> in;")
        out.append(f"  std::vector<NamedAttribute> attrs{{{attr_exprs}}};")
        if typed:
            out.append(f"  return {cls}(b.create(kName, in, out_types, std::move(attrs)));")
        else:
            out.append(f"  return {cls}(b.create_inferred(kName, in, std::move(attrs)));")
        out.append("}")
    out.append("")
    return out


def gen_source(records):
    out = ["// Generated by tools/opgen/ir_dialect.py from skiff/ops/yaml. Do not edit.",
           '#include "skiff/ir/dialects/op_dialect.gen.h"', "", "namespace skiff::ir::op {", ""]
    for r in records:
        out += gen_op_source(r)
    out.append("void register_generated_ops(Dialect* d) {")
    out += [f"  d->register_op<{camel_op(r['name'])}>();" for r in records]
    out += ["}", "", "}  // namespace skiff::ir::op"]
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--yaml-dir", required=True)
    ap.add_argument("--ir-only", help="skiff/ir/dialects/ir_ops.yaml: ops without a kernel")
    ap.add_argument("--out-dir", required=True)
    args = ap.parse_args()
    try:
        ops = load(args.yaml_dir)
        if args.ir_only:
            ops = sorted(ops + load_ir_only(args.ir_only, ops), key=lambda o: o.name)
        records = [view(op) for op in ops]
        header, source = gen_header(records), gen_source(records)
    except RecordError as e:
        print(f"opgen/ir_dialect.py: error: {e}", file=sys.stderr)
        sys.exit(1)
    os.makedirs(args.out_dir, exist_ok=True)
    write_if_changed(os.path.join(args.out_dir, "op_dialect.gen.h"), header)
    write_if_changed(os.path.join(args.out_dir, "op_dialect.gen.cc"), source)


if __name__ == "__main__":
    main()
