#include "skiff/ir/dialects/op_dialect.h"

#include <algorithm>
#include <functional>
#include <utility>

#include "skiff/base/error.h"
#include "skiff/ir/core/asm.h"
#include "skiff/ir/core/interfaces.h"

namespace skiff::ir {

OpDialect::OpDialect(IrContext* ctx) : Dialect(ctx, kName) { op::register_generated_ops(this); }

// Attribute readers ------------------------------------------------------------------------------
namespace {
Attribute must(Operation* op, std::string_view name) {
  Attribute a = op->attr(name);
  SKIFF_ENFORCE(a, kInvalidArgument, op->describe(), name, "the attribute to be set", "none");
  return a;
}
template <typename A>
A must_be(Operation* op, std::string_view name, std::string_view what) {
  Attribute a = must(op, name);
  SKIFF_ENFORCE(a.isa<A>(), kTypeError, op->describe(), name, what, to_string(a));
  return a.cast<A>();
}
}  // namespace

int64_t attr_int(Operation* op, std::string_view name) {
  return must_be<IntAttr>(op, name, "an integer").value();
}
double attr_double(Operation* op, std::string_view name) {
  Attribute a = must(op, name);
  if (auto i = a.dyn_cast<IntAttr>()) return static_cast<double>(i.value());
  return must_be<FloatAttr>(op, name, "a number").value();
}
bool attr_bool(Operation* op, std::string_view name) {
  return must_be<BoolAttr>(op, name, "a bool").value();
}
const std::string& attr_str(Operation* op, std::string_view name) {
  return must_be<StrAttr>(op, name, "a string").value();
}
std::vector<int64_t> attr_ints(Operation* op, std::string_view name) {
  return must_be<ArrayAttr>(op, name, "an array").ints();
}
std::vector<double> attr_doubles(Operation* op, std::string_view name) {
  return must_be<ArrayAttr>(op, name, "an array").floats();
}
DataType attr_dtype(Operation* op, std::string_view name) {
  return must_be<DTypeAttr>(op, name, "a dtype").value();
}

// Shape inference of the ops without a record ---------------------------------------------------
// Every other op's infer-meta is its record's, attached by the ops layer (op_bridge.cc); these
// four exist only in the IR (skiff/ir/dialects/ir_ops.yaml), so their rules live here, once.
namespace {
using Attrs = std::span<const NamedAttribute>;
using Types = std::span<const Type>;
using InferFn = std::function<std::vector<Type>(IrContext*, Types, Attrs)>;

Attribute find(Attrs attrs, std::string_view name) {
  for (const auto& a : attrs) {
    if (a.name.value() == name) return a.value;
  }
  return Attribute();
}
TensorType tensor_arg(Types in, size_t i, std::string_view op) {
  auto t = i < in.size() && in[i] ? in[i].dyn_cast<TensorType>() : TensorType();
  SKIFF_ENFORCE(t, kTypeError, op, str("input #", i), "a tensor",
                i < in.size() ? to_string(in[i]) : "nothing");
  return t;
}

std::vector<Type> one(Type t) { return {t}; }

// Results of x's type: print, rotary_embedding (cos and sin broadcast onto x), swiglu (y of x's
// shape: the fusion rule matches silu(x) * y of equal types, and the eager function asks the same).
InferFn like_x(std::string op, size_t arity, bool same_shape) {
  return [op, arity, same_shape](IrContext*, Types in, Attrs) {
    TensorType x = tensor_arg(in, 0, op);
    for (size_t i = 1; i < arity; ++i) {
      TensorType t = tensor_arg(in, i, op);
      SKIFF_ENFORCE(!same_shape || std::ranges::equal(t.shape(), x.shape()), kInvalidArgument, op,
                    str("input #", i), str("x's shape ", to_string(Type(x))), to_string(Type(t)));
    }
    return one(x);
  };
}

std::vector<Type> data_type(IrContext* ctx, Types, Attrs a) {
  auto d = find(a, "dtype").dyn_cast<DTypeAttr>();
  auto shape = find(a, "shape").dyn_cast<ArrayAttr>();
  SKIFF_ENFORCE(d && shape, kInvalidArgument, "data", d ? "shape" : "dtype", "to be set", "none");
  return one(TensorType::get(ctx, d.value(), shape.ints()));
}
}  // namespace

void attach_ir_only_infer_meta(IrContext* ctx) {
  const std::pair<const char*, InferFn> rules[] = {
      {"data", data_type},
      {"print", like_x("print", 1, false)},
      {"swiglu", like_x("swiglu", 2, true)},
      {"rotary_embedding", like_x("rotary_embedding", 3, false)},
  };
  for (const auto& [name, fn] : rules) {
    OpInfo* info = ctx->find_op(str("op.", name));
    if (!info || info->interface<InferMetaInterface>()) continue;
    info->attach_interface<InferMetaInterface>(InferMetaConcept{fn});
  }
}

}  // namespace skiff::ir
