#include "tests/cpp/ir/test_infer_meta.h"

#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "skiff/base/error.h"
#include "skiff/ir/core/builtin_attributes.h"
#include "skiff/ir/core/builtin_types.h"
#include "skiff/ir/core/interfaces.h"
#include "skiff/ir/core/op_info.h"
#include "skiff/ir/dialects/op_dialect.h"

namespace skiff::ir {
namespace {
using Attrs = std::span<const NamedAttribute>;
using Types = std::span<const Type>;
using Rule = std::function<std::vector<Type>(IrContext*, Types, Attrs)>;

Attribute find(Attrs attrs, std::string_view name) {
  for (const auto& a : attrs) {
    if (a.name.value() == name) return a.value;
  }
  return Attribute();
}
TensorType arg(Types in, size_t i) {
  auto t = i < in.size() && in[i] ? in[i].dyn_cast<TensorType>() : TensorType();
  SKIFF_ENFORCE(t, kTypeError, "test rule", str("input #", i), "a tensor", "other");
  return t;
}
std::vector<int64_t> ints(Attrs a, std::string_view name) {
  auto v = find(a, name).dyn_cast<ArrayAttr>();
  return v ? v.ints() : std::vector<int64_t>{};
}
bool flag(Attrs a, std::string_view name) {
  auto v = find(a, name).dyn_cast<BoolAttr>();
  return v && v.value();
}
int64_t axis_of(int64_t a, int64_t rank) { return a < 0 ? a + rank : a; }

std::vector<Type> unary(IrContext*, Types in, Attrs) { return {arg(in, 0)}; }
// No broadcasting checks: the tests' operands are equal or one is a trailing-axes suffix.
std::vector<Type> elementwise(IrContext*, Types in, Attrs) {
  TensorType x = arg(in, 0), y = arg(in, 1);
  return {y.rank() > x.rank() ? y : x};
}
std::vector<Type> matmul(IrContext*, Types in, Attrs a) {
  TensorType x = arg(in, 0), y = arg(in, 1);
  SKIFF_ENFORCE(x.rank() == 2 && y.rank() == 2, kInvalidArgument, "matmul", "x, y",
                "2-D operands (test rule)", str(x.rank(), ", ", y.rank()));
  int64_t m = x.shape()[flag(a, "transpose_x") ? 1 : 0];
  int64_t k = x.shape()[flag(a, "transpose_x") ? 0 : 1];
  int64_t k2 = y.shape()[flag(a, "transpose_y") ? 1 : 0];
  int64_t n = y.shape()[flag(a, "transpose_y") ? 0 : 1];
  SKIFF_ENFORCE(k == k2, kInvalidArgument, "matmul", "y", str("dims[-2] == ", k), k2);
  return {x.with_shape(std::vector<int64_t>{m, n})};
}
std::vector<Type> mean(IrContext*, Types in, Attrs a) {
  TensorType x = arg(in, 0);
  std::vector<bool> reduced(x.rank(), false);
  for (int64_t ax : ints(a, "axis")) reduced[axis_of(ax, x.rank())] = true;
  std::vector<int64_t> out;
  for (int64_t i = 0; i < x.rank(); ++i) {
    if (!reduced[i]) {
      out.push_back(x.shape()[i]);
    } else if (flag(a, "keepdim")) {
      out.push_back(1);
    }
  }
  return {x.with_shape(out)};
}
std::vector<Type> transpose(IrContext*, Types in, Attrs a) {
  TensorType x = arg(in, 0);
  std::vector<int64_t> out;
  for (int64_t p : ints(a, "perm")) out.push_back(x.shape()[axis_of(p, x.rank())]);
  return {x.with_shape(out)};
}
std::vector<Type> full(IrContext* ctx, Types, Attrs a) {
  auto d = find(a, "dtype").dyn_cast<DTypeAttr>();
  return {TensorType::get(ctx, d ? d.value() : DataType::kFloat32, ints(a, "shape"))};
}
std::vector<Type> linear(IrContext*, Types in, Attrs) {
  TensorType x = arg(in, 0), w = arg(in, 1);
  std::vector<int64_t> out(x.shape().begin(), x.shape().end());
  out.back() = w.shape()[1];
  return {x.with_shape(out)};
}
// rms_norm over the last axis: (out, inv_rms of the leading shape).
std::vector<Type> rms_norm(IrContext*, Types in, Attrs) {
  TensorType x = arg(in, 0);
  return {x, x.with_shape(x.shape().first(x.rank() - 1))};
}
}  // namespace

void attach_test_infer_meta(IrContext* ctx) {
  const std::pair<const char*, Rule> rules[] = {
      {"relu", unary},           {"exp", unary},     {"silu", unary},
      {"rsqrt", unary},          {"scale", unary},   {"add", elementwise},
      {"multiply", elementwise}, {"matmul", matmul}, {"mean", mean},
      {"transpose", transpose},  {"full", full},     {"linear", linear},
      {"rms_norm", rms_norm},
  };
  for (const auto& [name, fn] : rules) {
    OpInfo* info = ctx->find_op(str("op.", name));
    SKIFF_ENFORCE(info, kNotFound, "attach_test_infer_meta", "op", "a registered op", name);
    info->attach_interface<InferMetaInterface>(InferMetaConcept{fn});
  }
  attach_ir_only_infer_meta(ctx);
}

}  // namespace skiff::ir
