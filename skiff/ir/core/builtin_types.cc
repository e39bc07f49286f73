// Storages and accessors of the builtin types and attributes. Printing lives in printer.cc.
#include <cmath>
#include <cstring>

#include "skiff/base/error.h"
#include "skiff/ir/core/builtin_attributes.h"
#include "skiff/ir/core/context.h"

namespace skiff::ir {

namespace {
struct DTypeName {
  DataType t;
  std::string_view short_name;
  std::string_view long_name;
};
constexpr DTypeName kDTypeNames[] = {
    {DataType::kUndefined, "undefined", "undefined"},
    {DataType::kBool, "bool", "bool"},
    {DataType::kInt8, "i8", "int8"},
    {DataType::kInt16, "i16", "int16"},
    {DataType::kInt32, "i32", "int32"},
    {DataType::kInt64, "i64", "int64"},
    {DataType::kUInt8, "u8", "uint8"},
    {DataType::kFloat16, "f16", "float16"},
    {DataType::kBFloat16, "bf16", "bfloat16"},
    {DataType::kFloat32, "f32", "float32"},
    {DataType::kFloat64, "f64", "float64"},
    {DataType::kComplex64, "c64", "complex64"},
    {DataType::kComplex128, "c128", "complex128"},
};
constexpr std::string_view kLayoutNames[] = {"any", "NCHW", "NHWC", "NCDHW", "NDHWC"};

size_t hash_span(std::span<const int64_t> s) {
  size_t h = s.size();
  for (int64_t v : s) h = hash_combine(h, std::hash<int64_t>()(v));
  return h;
}
template <typename H>
size_t hash_handles(std::span<const H> s) {
  size_t h = s.size();
  for (const H& v : s) h = hash_combine(h, v.hash());
  return h;
}
template <typename T>
bool span_eq(std::span<const T> a, const std::vector<T>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}
}  // namespace

std::string_view dtype_name(DataType t) { return kDTypeNames[static_cast<int>(t)].short_name; }

std::optional<DataType> parse_dtype(std::string_view s) {
  for (const auto& n : kDTypeNames) {
    if (n.short_name == s || n.long_name == s) return n.t;
  }
  return std::nullopt;
}

bool is_floating(DataType t) {
  return t == DataType::kFloat16 || t == DataType::kBFloat16 || t == DataType::kFloat32 ||
         t == DataType::kFloat64;
}

std::string_view layout_name(Layout l) { return kLayoutNames[static_cast<int>(l)]; }

std::optional<Layout> parse_layout(std::string_view s) {
  for (size_t i = 0; i < std::size(kLayoutNames); ++i) {
    if (kLayoutNames[i] == s) return static_cast<Layout>(i);
  }
  return std::nullopt;
}

// TensorType -----------------------------------------------------------------------------------
struct TensorTypeStorage : StorageBase {
  TensorTypeStorage(IrContext* c, DataType d, std::span<const int64_t> s, Layout l)
      : dtype(d), shape(s.begin(), s.end()), layout(l), ctx(c) {}
  static size_t hash_key(IrContext*, DataType d, std::span<const int64_t> s, Layout l) {
    return hash_combine(hash_combine(static_cast<size_t>(d), hash_span(s)), static_cast<size_t>(l));
  }
  bool equals(IrContext*, DataType d, std::span<const int64_t> s, Layout l) const {
    return d == dtype && l == layout && span_eq(s, shape);
  }
  DataType dtype;
  std::vector<int64_t> shape;
  Layout layout;
  IrContext* ctx;
};

TensorType TensorType::get(IrContext* ctx, DataType dtype, std::span<const int64_t> shape,
                           Layout layout) {
  for (int64_t d : shape) {
    SKIFF_ENFORCE(d >= 0 || d == kDynamic, kInvalidArgument, "tensor type", "shape",
                  "dims >= 0 or -1 (dynamic)", shape);
  }
  return TensorType(
      ctx->get_storage<TensorTypeStorage>(ctx->kind_of<TensorType>(), ctx, dtype, shape, layout));
}
bool TensorType::classof(Type t) { return t.kind_id() == type_id<TensorType>(); }
static const TensorTypeStorage* tts(const StorageBase* p) {
  return static_cast<const TensorTypeStorage*>(p);
}
DataType TensorType::dtype() const { return tts(impl_)->dtype; }
std::span<const int64_t> TensorType::shape() const { return tts(impl_)->shape; }
Layout TensorType::layout() const { return tts(impl_)->layout; }
IrContext* TensorType::context() const { return tts(impl_)->ctx; }
bool TensorType::is_dynamic() const {
  for (int64_t d : shape()) {
    if (d == kDynamic) return true;
  }
  return false;
}
int64_t TensorType::numel() const {
  int64_t n = 1;
  for (int64_t d : shape()) {
    if (d == kDynamic) return -1;
    n *= d;
  }
  return n;
}
TensorType TensorType::with_shape(std::span<const int64_t> s) const {
  return get(context(), dtype(), s, layout());
}
TensorType TensorType::with_dtype(DataType d) const { return get(context(), d, shape(), layout()); }

// VectorType -----------------------------------------------------------------------------------
struct VectorTypeStorage : StorageBase {
  explicit VectorTypeStorage(std::span<const Type> e) : elements(e.begin(), e.end()) {}
  static size_t hash_key(std::span<const Type> e) { return hash_handles(e); }
  bool equals(std::span<const Type> e) const { return span_eq(e, elements); }
  std::vector<Type> elements;
};
VectorType VectorType::get(IrContext* ctx, std::span<const Type> elements) {
  return VectorType(ctx->get_storage<VectorTypeStorage>(ctx->kind_of<VectorType>(), elements));
}
bool VectorType::classof(Type t) { return t.kind_id() == type_id<VectorType>(); }
std::span<const Type> VectorType::elements() const {
  return static_cast<const VectorTypeStorage*>(impl_)->elements;
}

// Scalar attributes ----------------------------------------------------------------------------
namespace {
template <typename T>
struct ScalarStorage : StorageBase {
  explicit ScalarStorage(const T& v) : value(v) {}
  static size_t hash_key(const T& v) { return std::hash<T>()(v); }
  bool equals(const T& v) const { return v == value; }
  T value;
};
// Doubles compare by bit pattern so -0.0 and NaN payloads stay distinct and NaN equals itself.
struct FloatStorage : StorageBase {
  explicit FloatStorage(double v) : value(v) {}
  static uint64_t bits(double v) {
    uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
  }
  static size_t hash_key(double v) { return std::hash<uint64_t>()(bits(v)); }
  bool equals(double v) const { return bits(v) == bits(value); }
  double value;
};
struct StrStorage : StorageBase {
  explicit StrStorage(std::string_view v) : value(v) {}
  static size_t hash_key(std::string_view v) { return std::hash<std::string_view>()(v); }
  bool equals(std::string_view v) const { return v == value; }
  std::string value;
};
struct ArrayStorage : StorageBase {
  explicit ArrayStorage(std::span<const Attribute> e) : elements(e.begin(), e.end()) {}
  static size_t hash_key(std::span<const Attribute> e) { return hash_handles(e); }
  bool equals(std::span<const Attribute> e) const { return span_eq(e, elements); }
  std::vector<Attribute> elements;
};
struct TypeAttrStorage : StorageBase {
  explicit TypeAttrStorage(Type t) : value(t) {}
  static size_t hash_key(Type t) { return t.hash(); }
  bool equals(Type t) const { return t == value; }
  Type value;
};
struct LocStorage : StorageBase {
  LocStorage(std::string_view f, int64_t l, int64_t c, LocAttr k)
      : file(f), line(l), col(c), caller(k) {}
  static size_t hash_key(std::string_view f, int64_t l, int64_t c, LocAttr k) {
    return hash_combine(hash_combine(std::hash<std::string_view>()(f), l * 31 + c), k.hash());
  }
  bool equals(std::string_view f, int64_t l, int64_t c, LocAttr k) const {
    return f == file && l == line && c == col && k == caller;
  }
  std::string file;
  int64_t line, col;
  LocAttr caller;
};
}  // namespace

BoolAttr BoolAttr::get(IrContext* ctx, bool v) {
  return BoolAttr(ctx->get_storage<ScalarStorage<bool>>(ctx->kind_of<BoolAttr>(), v));
}
bool BoolAttr::classof(Attribute a) { return a.kind_id() == type_id<BoolAttr>(); }
bool BoolAttr::value() const { return static_cast<const ScalarStorage<bool>*>(impl_)->value; }

IntAttr IntAttr::get(IrContext* ctx, int64_t v) {
  return IntAttr(ctx->get_storage<ScalarStorage<int64_t>>(ctx->kind_of<IntAttr>(), v));
}
bool IntAttr::classof(Attribute a) { return a.kind_id() == type_id<IntAttr>(); }
int64_t IntAttr::value() const { return static_cast<const ScalarStorage<int64_t>*>(impl_)->value; }

FloatAttr FloatAttr::get(IrContext* ctx, double v) {
  return FloatAttr(ctx->get_storage<FloatStorage>(ctx->kind_of<FloatAttr>(), v));
}
bool FloatAttr::classof(Attribute a) { return a.kind_id() == type_id<FloatAttr>(); }
double FloatAttr::value() const { return static_cast<const FloatStorage*>(impl_)->value; }

StrAttr StrAttr::get(IrContext* ctx, std::string_view v) {
  return StrAttr(ctx->get_storage<StrStorage>(ctx->kind_of<StrAttr>(), v));
}
bool StrAttr::classof(Attribute a) { return a.kind_id() == type_id<StrAttr>(); }
const std::string& StrAttr::value() const { return static_cast<const StrStorage*>(impl_)->value; }

ArrayAttr ArrayAttr::get(IrContext* ctx, std::span<const Attribute> elements) {
  return ArrayAttr(ctx->get_storage<ArrayStorage>(ctx->kind_of<ArrayAttr>(), elements));
}
ArrayAttr ArrayAttr::get_ints(IrContext* ctx, std::span<const int64_t> values) {
  std::vector<Attribute> e;
  e.reserve(values.size());
  for (int64_t v : values) e.push_back(IntAttr::get(ctx, v));
  return get(ctx, e);
}
ArrayAttr ArrayAttr::get_floats(IrContext* ctx, std::span<const double> values) {
  std::vector<Attribute> e;
  e.reserve(values.size());
  for (double v : values) e.push_back(FloatAttr::get(ctx, v));
  return get(ctx, e);
}
bool ArrayAttr::classof(Attribute a) { return a.kind_id() == type_id<ArrayAttr>(); }
std::span<const Attribute> ArrayAttr::elements() const {
  return static_cast<const ArrayStorage*>(impl_)->elements;
}
std::vector<int64_t> ArrayAttr::ints() const {
  std::vector<int64_t> out;
  for (Attribute a : elements()) {
    SKIFF_ENFORCE(a.isa<IntAttr>(), kTypeError, "array attribute", "element", "an integer",
                  "another kind");
    out.push_back(a.cast<IntAttr>().value());
  }
  return out;
}
std::vector<double> ArrayAttr::floats() const {
  std::vector<double> out;
  for (Attribute a : elements()) {
    if (a.isa<IntAttr>()) {
      out.push_back(static_cast<double>(a.cast<IntAttr>().value()));
      continue;
    }
    SKIFF_ENFORCE(a.isa<FloatAttr>(), kTypeError, "array attribute", "element", "a number",
                  "another kind");
    out.push_back(a.cast<FloatAttr>().value());
  }
  return out;
}

DTypeAttr DTypeAttr::get(IrContext* ctx, DataType v) {
  return DTypeAttr(ctx->get_storage<ScalarStorage<DataType>>(ctx->kind_of<DTypeAttr>(), v));
}
bool DTypeAttr::classof(Attribute a) { return a.kind_id() == type_id<DTypeAttr>(); }
DataType DTypeAttr::value() const {
  return static_cast<const ScalarStorage<DataType>*>(impl_)->value;
}

TypeAttr TypeAttr::get(IrContext* ctx, Type t) {
  return TypeAttr(ctx->get_storage<TypeAttrStorage>(ctx->kind_of<TypeAttr>(), t));
}
bool TypeAttr::classof(Attribute a) { return a.kind_id() == type_id<TypeAttr>(); }
Type TypeAttr::value() const { return static_cast<const TypeAttrStorage*>(impl_)->value; }

LocAttr LocAttr::get(IrContext* ctx, std::string_view file, int64_t line, int64_t col,
                     LocAttr caller) {
  return LocAttr(ctx->get_storage<LocStorage>(ctx->kind_of<LocAttr>(), file, line, col, caller));
}
bool LocAttr::classof(Attribute a) { return a.kind_id() == type_id<LocAttr>(); }
const std::string& LocAttr::file() const { return static_cast<const LocStorage*>(impl_)->file; }
int64_t LocAttr::line() const { return static_cast<const LocStorage*>(impl_)->line; }
int64_t LocAttr::col() const { return static_cast<const LocStorage*>(impl_)->col; }
LocAttr LocAttr::caller() const { return static_cast<const LocStorage*>(impl_)->caller; }
std::string LocAttr::to_string() const {
  if (!impl_) return "unknown location";
  std::string s = str(file(), ":", line(), ":", col());
  if (caller()) s += str(" (called from ", caller().to_string(), ")");
  return s;
}

}  // namespace skiff::ir
