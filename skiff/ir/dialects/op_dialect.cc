#include "skiff/ir/dialects/op_dialect.h"

#include <algorithm>
#include <functional>
#include <map>

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

// Basic shape inference --------------------------------------------------------------------------
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
std::vector<int64_t> ints_of(Attrs attrs, std::string_view name) {
  auto a = find(attrs, name).dyn_cast<ArrayAttr>();
  return a ? a.ints() : std::vector<int64_t>{};
}
int64_t int_of(Attrs attrs, std::string_view name, int64_t def) {
  Attribute a = find(attrs, name);
  if (auto i = a.dyn_cast<IntAttr>()) return i.value();
  if (auto f = a.dyn_cast<FloatAttr>()) return static_cast<int64_t>(f.value());
  return def;
}
bool bool_of(Attrs attrs, std::string_view name) {
  auto a = find(attrs, name).dyn_cast<BoolAttr>();
  return a && a.value();
}
int64_t norm_axis(int64_t axis, int64_t rank, std::string_view op) {
  SKIFF_ENFORCE(axis >= -rank && axis < std::max<int64_t>(rank, 1), kOutOfRange, op, "axis",
                str("in [", -rank, ", ", rank, ")"), axis);
  return axis < 0 ? axis + rank : axis;
}

std::vector<int64_t> broadcast(std::span<const int64_t> a, std::span<const int64_t> b,
                               std::string_view op) {
  size_t n = std::max(a.size(), b.size());
  std::vector<int64_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (x == 1) {
      out[i] = y;
    } else if (y == 1 || x == y) {
      out[i] = x;
    } else if (x == kDynamic || y == kDynamic) {
      out[i] = x == kDynamic ? y : x;
    } else {
      SKIFF_THROW(kInvalidArgument, op, "y", "a shape broadcastable with x",
                  str(std::vector<int64_t>(a.begin(), a.end()), " vs ",
                      std::vector<int64_t>(b.begin(), b.end())));
    }
  }
  return out;
}

std::vector<Type> one(Type t) { return {t}; }

InferFn same_as_x() {
  return [](IrContext*, Types in, Attrs) { return one(tensor_arg(in, 0, "unary")); };
}
InferFn binary(std::string name) {
  return [name](IrContext*, Types in, Attrs) {
    TensorType x = tensor_arg(in, 0, name), y = tensor_arg(in, 1, name);
    return one(x.with_shape(broadcast(x.shape(), y.shape(), name)));
  };
}
std::vector<Type> matmul_like(Types in, Attrs attrs, std::string_view name) {
  TensorType x = tensor_arg(in, 0, name), y = tensor_arg(in, 1, name);
  SKIFF_ENFORCE(x.rank() >= 2 && y.rank() >= 2, kInvalidArgument, name, "x, y", "rank >= 2",
                str(x.rank(), ", ", y.rank()));
  std::vector<int64_t> xs(x.shape().begin(), x.shape().end()),
      ys(y.shape().begin(), y.shape().end());
  if (bool_of(attrs, "transpose_x")) std::swap(xs[xs.size() - 1], xs[xs.size() - 2]);
  if (bool_of(attrs, "transpose_y")) std::swap(ys[ys.size() - 1], ys[ys.size() - 2]);
  int64_t k1 = xs.back(), k2 = ys[ys.size() - 2];
  SKIFF_ENFORCE(k1 == k2 || k1 == kDynamic || k2 == kDynamic, kInvalidArgument, name, "y",
                str("dims[-2] == ", k1, " (x.dims[-1])"), k2);
  std::vector<int64_t> out =
      broadcast(std::span(xs).first(xs.size() - 2), std::span(ys).first(ys.size() - 2), name);
  out.push_back(xs[xs.size() - 2]);
  out.push_back(ys.back());
  return one(x.with_shape(out));
}
std::vector<Type> reduce(Types in, Attrs attrs, std::string_view name) {
  TensorType x = tensor_arg(in, 0, name);
  std::vector<int64_t> axes = ints_of(attrs, "axis");
  bool keep = bool_of(attrs, "keepdim");
  std::vector<bool> reduced(x.rank(), axes.empty());
  for (int64_t a : axes) reduced[norm_axis(a, x.rank(), name)] = true;
  std::vector<int64_t> out;
  for (int64_t i = 0; i < x.rank(); ++i) {
    if (!reduced[i]) {
      out.push_back(x.shape()[i]);
    } else if (keep) {
      out.push_back(1);
    }
  }
  TensorType t = x.with_shape(out);
  if (auto d = find(attrs, "dtype").dyn_cast<DTypeAttr>(); d && d.value() != DataType::kUndefined) {
    t = t.with_dtype(d.value());
  }
  return one(t);
}

std::map<std::string, InferFn, std::less<>> basic_rules() {
  std::map<std::string, InferFn, std::less<>> r;
  for (const char* n : {"relu", "exp", "sqrt", "rsqrt", "sigmoid", "silu", "sin", "cos", "scale",
                        "assign", "print", "softmax", "rotary_embedding"}) {
    r[n] = same_as_x();
  }
  for (const char* n : {"add", "subtract", "multiply", "divide", "swiglu"}) r[n] = binary(n);
  r["matmul"] = [](IrContext*, Types in, Attrs a) { return matmul_like(in, a, "matmul"); };
  r["linear"] = [](IrContext*, Types in, Attrs) {
    TensorType x = tensor_arg(in, 0, "linear"), w = tensor_arg(in, 1, "linear");
    SKIFF_ENFORCE(x.rank() >= 1 && w.rank() == 2, kInvalidArgument, "linear", "weight",
                  "x of rank >= 1 and a 2-D weight", str(x.rank(), ", ", w.rank()));
    std::vector<int64_t> out(x.shape().begin(), x.shape().end());
    out.back() = w.shape()[1];
    return one(x.with_shape(out));
  };
  r["rms_norm"] = [](IrContext*, Types in, Attrs a) {
    TensorType x = tensor_arg(in, 0, "rms_norm");
    int64_t begin = norm_axis(int_of(a, "begin_norm_axis", -1), x.rank(), "rms_norm");
    std::vector<int64_t> lead(x.shape().begin(), x.shape().begin() + begin);
    DataType stat = x.dtype() == DataType::kFloat16 || x.dtype() == DataType::kBFloat16
                        ? DataType::kFloat32
                        : x.dtype();
    return std::vector<Type>{x, x.with_shape(lead).with_dtype(stat)};
  };
  r["mean"] = [](IrContext*, Types in, Attrs a) { return reduce(in, a, "mean"); };
  r["sum"] = [](IrContext*, Types in, Attrs a) { return reduce(in, a, "sum"); };
  r["cast"] = [](IrContext*, Types in, Attrs a) {
    auto d = find(a, "dtype").dyn_cast<DTypeAttr>();
    SKIFF_ENFORCE(d, kInvalidArgument, "cast", "dtype", "a dtype", "none");
    return one(tensor_arg(in, 0, "cast").with_dtype(d.value()));
  };
  auto from_attrs = [](IrContext* ctx, Types, Attrs a) {
    auto d = find(a, "dtype").dyn_cast<DTypeAttr>();
    std::vector<int64_t> shape = ints_of(a, "shape");
    return one(TensorType::get(ctx, d ? d.value() : DataType::kFloat32, shape));
  };
  r["full"] = from_attrs;
  r["data"] = from_attrs;
  r["transpose"] = [](IrContext*, Types in, Attrs a) {
    TensorType x = tensor_arg(in, 0, "transpose");
    std::vector<int64_t> perm = ints_of(a, "perm");
    SKIFF_ENFORCE(static_cast<int64_t>(perm.size()) == x.rank(), kInvalidArgument, "transpose",
                  "perm", str(x.rank(), " axes"), perm);
    std::vector<int64_t> out;
    for (int64_t p : perm) out.push_back(x.shape()[norm_axis(p, x.rank(), "transpose")]);
    return one(x.with_shape(out));
  };
  r["reshape"] = [](IrContext*, Types in, Attrs a) {
    TensorType x = tensor_arg(in, 0, "reshape");
    std::vector<int64_t> shape = ints_of(a, "shape");
    int64_t known = 1, infer_at = -1;
    for (size_t i = 0; i < shape.size(); ++i) {
      if (shape[i] == 0 && static_cast<int64_t>(i) < x.rank()) shape[i] = x.shape()[i];
      if (shape[i] == -1) {
        infer_at = static_cast<int64_t>(i);
      } else {
        known *= shape[i];
      }
    }
    if (infer_at >= 0 && x.numel() >= 0 && known > 0) shape[infer_at] = x.numel() / known;
    return one(x.with_shape(shape));
  };
  r["concat"] = [](IrContext*, Types in, Attrs a) {
    auto vt = in.size() == 1 && in[0] ? in[0].dyn_cast<VectorType>() : VectorType();
    SKIFF_ENFORCE(vt && vt.size() > 0, kTypeError, "concat", "x", "a non-empty vec", "other");
    TensorType first = vt.elements()[0].cast<TensorType>();
    int64_t axis = norm_axis(int_of(a, "axis", 0), first.rank(), "concat");
    std::vector<int64_t> out(first.shape().begin(), first.shape().end());
    for (size_t i = 1; i < vt.size(); ++i) {
      int64_t d = vt.elements()[i].cast<TensorType>().shape()[axis];
      out[axis] = (out[axis] == kDynamic || d == kDynamic) ? kDynamic : out[axis] + d;
    }
    return one(first.with_shape(out));
  };
  r["split"] = [](IrContext* ctx, Types in, Attrs a) {
    TensorType x = tensor_arg(in, 0, "split");
    int64_t axis = norm_axis(int_of(a, "axis", 0), x.rank(), "split");
    std::vector<Type> parts;
    for (int64_t s : ints_of(a, "sections")) {
      std::vector<int64_t> shape(x.shape().begin(), x.shape().end());
      shape[axis] = s;
      parts.push_back(x.with_shape(shape));
    }
    return one(VectorType::get(ctx, parts));
  };
  return r;
}
}  // namespace

void attach_basic_infer_meta(IrContext* ctx) {
  for (auto& [name, fn] : basic_rules()) {
    OpInfo* info = ctx->find_op(str("op.", name));
    if (!info || info->interface<InferMetaInterface>()) continue;
    info->attach_interface<InferMetaInterface>(InferMetaConcept{fn});
  }
}

}  // namespace skiff::ir
