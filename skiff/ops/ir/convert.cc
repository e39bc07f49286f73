#include "skiff/ops/ir/convert.h"

#include <cstring>

#include "skiff/base/error.h"
#include "skiff/core/scalar.h"
#include "skiff/ir/core/asm.h"
#include "skiff/ops/boxed.h"

namespace skiff::ops::ir_bridge {

namespace {
struct DTypePair {
  DType ops;
  ir::DataType ir;
};
constexpr DTypePair kPairs[] = {
    {DType::kBool, ir::DataType::kBool},           {DType::kInt8, ir::DataType::kInt8},
    {DType::kUInt8, ir::DataType::kUInt8},         {DType::kInt16, ir::DataType::kInt16},
    {DType::kInt32, ir::DataType::kInt32},         {DType::kInt64, ir::DataType::kInt64},
    {DType::kFloat16, ir::DataType::kFloat16},     {DType::kBFloat16, ir::DataType::kBFloat16},
    {DType::kFloat32, ir::DataType::kFloat32},     {DType::kFloat64, ir::DataType::kFloat64},
    {DType::kUndefined, ir::DataType::kUndefined},
};

/// A scalar constant (bool, int or float attribute) as a Scalar of the same kind.
bool scalar_of(ir::Attribute a, Scalar& out) {
  if (auto f = a.dyn_cast<ir::FloatAttr>()) {
    out = Scalar(f.value());
  } else if (auto i = a.dyn_cast<ir::IntAttr>()) {
    out = Scalar(i.value());
  } else if (auto b = a.dyn_cast<ir::BoolAttr>()) {
    out = Scalar(b.value());
  } else {
    return false;
  }
  return true;
}
}  // namespace

ir::DataType to_ir(DType t) {
  for (const auto& p : kPairs) {
    if (p.ops == t) return p.ir;
  }
  // The IR has no complex element type yet: captured programs (jit, static) refuse them.
  SKIFF_THROW(kUnimplemented, "IR bridge", "dtype", "a dtype the IR has (complex is eager-only)",
              t);
}

DType from_ir(ir::DataType t) {
  for (const auto& p : kPairs) {
    if (p.ir == t) return p.ops;
  }
  SKIFF_THROW(kUnimplemented, "IR bridge", "dtype", "a dtype the ops layer supports",
              ir::dtype_name(t));
}

ir::TensorType to_ir_type(ir::IrContext* ctx, const TensorMeta& meta) {
  return ir::TensorType::get(ctx, to_ir(meta.dtype), meta.dims.span());
}

ir::Type to_ir_type(ir::IrContext* ctx, const std::vector<TensorMeta>& metas) {
  std::vector<ir::Type> elems;
  elems.reserve(metas.size());
  for (const TensorMeta& m : metas) elems.push_back(to_ir_type(ctx, m));
  return ir::VectorType::get(ctx, elems);
}

TensorMeta to_meta(ir::TensorType t) { return {from_ir(t.dtype()), Dims(t.shape())}; }

ir::DenseElementsAttr to_attr(ir::IrContext* ctx, const DenseTensor& t) {
  SKIFF_ENFORCE(t.place().is_cpu(), kInvalidArgument, "IR bridge", "tensor", "a CPU tensor",
                t.place().to_string());
  DenseTensor c = t.is_contiguous() ? t : t.contiguous();
  auto bytes =
      std::span(static_cast<const uint8_t*>(c.raw_data()), static_cast<size_t>(c.nbytes()));
  return ir::DenseElementsAttr::get(ctx, to_ir_type(ctx, c.meta()), bytes);
}

DenseTensor to_dense(ir::Attribute value, ir::TensorType type) {
  SKIFF_ENFORCE(type && !type.is_dynamic(), kInvalidArgument, "IR bridge", "constant type",
                "a tensor type with a static shape", type ? ir::to_string(type) : "none");
  const DType dt = from_ir(type.dtype());
  DenseTensor out = DenseTensor::empty(Dims(type.shape()), dt, Place::cpu());
  const int64_t n = out.numel();
  if (auto d = value.dyn_cast<ir::DenseElementsAttr>()) {
    SKIFF_ENFORCE(d.type().dtype() == type.dtype() && d.numel() == n, kInvalidArgument, "IR bridge",
                  "constant", str("data of ", ir::to_string(type)), ir::to_string(d.type()));
    d.copy_to(static_cast<uint8_t*>(out.raw_data()));
    return out;
  }
  Scalar s;
  if (scalar_of(value, s)) {
    visit_dtype(dt, [&](auto tag) {
      using T = decltype(tag);
      T v = s.to<T>();
      T* p = out.data<T>();
      for (int64_t i = 0; i < n; ++i) p[i] = v;
    });
    return out;
  }
  auto arr = value.dyn_cast<ir::ArrayAttr>();
  SKIFF_ENFORCE(arr && static_cast<int64_t>(arr.size()) == n, kInvalidArgument, "IR bridge",
                "constant", str("a number or ", n, " numbers for ", ir::to_string(type)),
                value ? ir::to_string(value) : "none");
  visit_dtype(dt, [&](auto tag) {
    using T = decltype(tag);
    T* p = out.data<T>();
    for (int64_t i = 0; i < n; ++i) {
      Scalar e;
      SKIFF_ENFORCE(scalar_of(arr[i], e), kInvalidArgument, "IR bridge", "constant", "numbers",
                    ir::to_string(arr[i]));
      p[i] = e.to<T>();
    }
  });
  return out;
}

[[noreturn]] void bad_attr(const OpSchema& s, const ArgSchema& arg, ir::Attribute a,
                           std::string_view expected) {
  SKIFF_THROW(kTypeError, s.name, arg.name, expected, a ? ir::to_string(a) : "none");
}

AttrValue to_attr_value(const OpSchema& s, const ArgSchema& arg, ir::Attribute a) {
  switch (arg.kind) {
    case ArgKind::kBool:
      if (auto b = a.dyn_cast<ir::BoolAttr>()) return b.value();
      bad_attr(s, arg, a, "a bool");
    case ArgKind::kInt:
      if (auto i = a.dyn_cast<ir::IntAttr>()) return i.value();
      bad_attr(s, arg, a, "an integer");
    case ArgKind::kFloat:
    case ArgKind::kDouble:
      if (auto f = a.dyn_cast<ir::FloatAttr>()) return f.value();
      if (auto i = a.dyn_cast<ir::IntAttr>()) return static_cast<double>(i.value());
      bad_attr(s, arg, a, "a number");
    case ArgKind::kScalar: {
      Scalar v;
      if (scalar_of(a, v)) return v;
      bad_attr(s, arg, a, "a number or bool");
    }
    case ArgKind::kString:
      if (auto t = a.dyn_cast<ir::StrAttr>()) return t.value();
      bad_attr(s, arg, a, "a string");
    case ArgKind::kIntArray:
      if (auto arr = a.dyn_cast<ir::ArrayAttr>()) {
        std::vector<int64_t> v;
        for (ir::Attribute e : arr.elements()) {
          if (!e.isa<ir::IntAttr>()) bad_attr(s, arg, a, "an array of integers");
          v.push_back(e.cast<ir::IntAttr>().value());
        }
        return v;
      }
      bad_attr(s, arg, a, "an array of integers");
    case ArgKind::kFloatArray:
      if (auto arr = a.dyn_cast<ir::ArrayAttr>()) {
        std::vector<double> v;
        for (ir::Attribute e : arr.elements()) {
          if (auto f = e.dyn_cast<ir::FloatAttr>()) {
            v.push_back(f.value());
          } else if (auto i = e.dyn_cast<ir::IntAttr>()) {
            v.push_back(static_cast<double>(i.value()));
          } else {
            bad_attr(s, arg, a, "an array of numbers");
          }
        }
        return v;
      }
      bad_attr(s, arg, a, "an array of numbers");
    case ArgKind::kDType:
      if (auto d = a.dyn_cast<ir::DTypeAttr>()) return from_ir(d.value());
      bad_attr(s, arg, a, "a dtype");
    case ArgKind::kPlace:
      if (auto t = a.dyn_cast<ir::StrAttr>()) return Place::parse(t.value());
      bad_attr(s, arg, a, "a place string");
    case ArgKind::kTensor:
    case ArgKind::kTensorList:
    case ArgKind::kOptionalTensor:
      break;
  }
  bad_attr(s, arg, a, "an attribute argument");
}

ir::Attribute to_ir_attr(ir::IrContext* ctx, const ArgSchema& arg, const AttrValue& v) {
  if (arg.kind == ArgKind::kFloat || arg.kind == ArgKind::kDouble) {
    if (const int64_t* i = std::get_if<int64_t>(&v)) {
      return ir::FloatAttr::get(ctx, static_cast<double>(*i));
    }
  }
  if (arg.kind == ArgKind::kFloatArray) {
    if (const auto* iv = std::get_if<std::vector<int64_t>>(&v)) {
      return ir::ArrayAttr::get_floats(ctx, std::vector<double>(iv->begin(), iv->end()));
    }
  }
  return std::visit(
      [ctx](const auto& x) -> ir::Attribute {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>) {
          return ir::BoolAttr::get(ctx, x);
        } else if constexpr (std::is_same_v<T, int64_t>) {
          return ir::IntAttr::get(ctx, x);
        } else if constexpr (std::is_same_v<T, double>) {
          return ir::FloatAttr::get(ctx, x);
        } else if constexpr (std::is_same_v<T, std::string>) {
          return ir::StrAttr::get(ctx, x);
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          return ir::ArrayAttr::get_ints(ctx, x);
        } else if constexpr (std::is_same_v<T, std::vector<double>>) {
          return ir::ArrayAttr::get_floats(ctx, x);
        } else if constexpr (std::is_same_v<T, Scalar>) {
          if (x.kind() == ScalarKind::kBool) return ir::BoolAttr::get(ctx, x.template to<bool>());
          if (x.kind() == ScalarKind::kInt) return ir::IntAttr::get(ctx, x.template to<int64_t>());
          return ir::FloatAttr::get(ctx, x.to_double());
        } else if constexpr (std::is_same_v<T, DType>) {
          return ir::DTypeAttr::get(ctx, to_ir(x));
        } else {
          static_assert(std::is_same_v<T, Place>);
          return ir::StrAttr::get(ctx, x.to_string());
        }
      },
      v);
}

std::vector<ir::NamedAttribute> to_ir_attrs(ir::IrContext* ctx, const OpSchema& s,
                                            const std::map<std::string, AttrValue>& attrs) {
  std::vector<ir::NamedAttribute> out;
  size_t used = 0;
  for (const ArgSchema& arg : s.args) {
    if (is_tensor_kind(arg.kind)) continue;
    auto it = attrs.find(arg.name);
    const AttrValue* v = nullptr;
    if (it != attrs.end()) {
      v = &it->second;
      ++used;
    } else {
      SKIFF_ENFORCE(arg.default_value.has_value(), kInvalidArgument, s.name, arg.name,
                    "a value (the argument has no default)", "none");
      v = &*arg.default_value;
    }
    out.push_back({ir::StrAttr::get(ctx, arg.name), to_ir_attr(ctx, arg, *v)});
  }
  if (used != attrs.size()) check_attr_names(s, attrs);
  return out;
}

}  // namespace skiff::ops::ir_bridge
