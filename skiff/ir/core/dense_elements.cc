// Storage and accessors of DenseElementsAttr. Printing and parsing live in printer.cc and
// parser.cc with the other builtin attributes.
#include "skiff/ir/core/dense_elements.h"

#include <cmath>
#include <cstring>
#include <string_view>
#include <vector>

#include "skiff/base/error.h"
#include "skiff/ir/core/asm.h"
#include "skiff/ir/core/context.h"

namespace skiff::ir {

size_t dtype_size(DataType t) {
  switch (t) {
    case DataType::kUndefined:
      return 0;
    case DataType::kBool:
    case DataType::kInt8:
    case DataType::kUInt8:
      return 1;
    case DataType::kInt16:
    case DataType::kFloat16:
    case DataType::kBFloat16:
      return 2;
    case DataType::kInt32:
    case DataType::kFloat32:
      return 4;
    case DataType::kInt64:
    case DataType::kFloat64:
    case DataType::kComplex64:
      return 8;
    case DataType::kComplex128:
      return 16;
  }
  return 0;
}

namespace {
struct DenseStorage : StorageBase {
  DenseStorage(TensorType t, bool s, std::span<const uint8_t> b)
      : type(t), splat(s), data(b.begin(), b.end()) {}
  static size_t hash_key(TensorType t, bool s, std::span<const uint8_t> b) {
    std::string_view v(reinterpret_cast<const char*>(b.data()), b.size());
    return hash_combine(hash_combine(t.hash(), s), std::hash<std::string_view>()(v));
  }
  bool equals(TensorType t, bool s, std::span<const uint8_t> b) const {
    return t == type && s == splat && b.size() == data.size() &&
           std::equal(b.begin(), b.end(), data.begin());
  }
  TensorType type;
  bool splat;
  std::vector<uint8_t> data;  // one element when splat
};
const DenseStorage* ds(const StorageBase* p) { return static_cast<const DenseStorage*>(p); }

void check_type(TensorType type) {
  SKIFF_ENFORCE(type && !type.is_dynamic(), kInvalidArgument, "dense elements attribute", "type",
                "a tensor type with a static shape", type ? to_string(type) : "none");
  SKIFF_ENFORCE(dtype_size(type.dtype()) > 0, kInvalidArgument, "dense elements attribute", "type",
                "a defined element type", to_string(type));
}

float half_to_float(uint16_t h) {
  uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  float v;
  if (exp == 0) {
    v = std::ldexp(static_cast<float>(mant), -24);
  } else if (exp == 31) {
    v = mant ? NAN : INFINITY;
  } else {
    v = std::ldexp(static_cast<float>(mant | 0x400), static_cast<int>(exp) - 25);
  }
  return sign ? -v : v;
}

template <typename T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <typename T>
void store(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}
}  // namespace

DenseElementsAttr DenseElementsAttr::get(IrContext* ctx, TensorType type,
                                         std::span<const uint8_t> bytes) {
  check_type(type);
  size_t es = dtype_size(type.dtype());
  auto n = static_cast<size_t>(type.numel());
  SKIFF_ENFORCE(bytes.size() == n * es, kInvalidArgument, "dense elements attribute", "data",
                str(n * es, " bytes for ", to_string(type)), str(bytes.size(), " bytes"));
  bool splat = n > 1;
  for (size_t i = 1; splat && i < n; ++i) {
    splat = std::memcmp(bytes.data(), bytes.data() + i * es, es) == 0;
  }
  if (splat) return get_splat(ctx, type, bytes.first(es));
  return DenseElementsAttr(
      ctx->get_storage<DenseStorage>(ctx->kind_of<DenseElementsAttr>(), type, false, bytes));
}

DenseElementsAttr DenseElementsAttr::get_splat(IrContext* ctx, TensorType type,
                                               std::span<const uint8_t> element) {
  check_type(type);
  SKIFF_ENFORCE(element.size() == dtype_size(type.dtype()), kInvalidArgument,
                "dense elements attribute", "splat", str(dtype_size(type.dtype()), " bytes"),
                str(element.size(), " bytes"));
  // A one-element tensor is stored like any other (the splat flag marks expansion only).
  bool splat = type.numel() != 1;
  return DenseElementsAttr(
      ctx->get_storage<DenseStorage>(ctx->kind_of<DenseElementsAttr>(), type, splat, element));
}

DenseElementsAttr DenseElementsAttr::from_doubles(IrContext* ctx, TensorType type,
                                                  std::span<const double> values) {
  check_type(type);
  DataType dt = type.dtype();
  size_t es = dtype_size(dt);
  bool splat = values.size() == 1;
  SKIFF_ENFORCE(splat || static_cast<int64_t>(values.size()) == type.numel(), kInvalidArgument,
                "dense elements attribute", "values", str("1 or ", type.numel(), " values"),
                values.size());
  std::vector<uint8_t> bytes(values.size() * es);
  for (size_t i = 0; i < values.size(); ++i) {
    uint8_t* p = bytes.data() + i * es;
    double v = values[i];
    switch (dt) {
      case DataType::kBool:
        store<uint8_t>(p, v != 0.0);
        break;
      case DataType::kInt8:
        store(p, static_cast<int8_t>(v));
        break;
      case DataType::kUInt8:
        store(p, static_cast<uint8_t>(v));
        break;
      case DataType::kInt16:
        store(p, static_cast<int16_t>(v));
        break;
      case DataType::kInt32:
        store(p, static_cast<int32_t>(v));
        break;
      case DataType::kInt64:
        store(p, static_cast<int64_t>(v));
        break;
      case DataType::kFloat32:
        store(p, static_cast<float>(v));
        break;
      case DataType::kFloat64:
        store(p, v);
        break;
      default:
        SKIFF_THROW(kUnimplemented, "dense elements attribute", "type",
                    "bool, integer, f32 or f64 elements from numbers", to_string(type));
    }
  }
  return splat ? get_splat(ctx, type, bytes) : get(ctx, type, bytes);
}

bool DenseElementsAttr::classof(Attribute a) { return a.kind_id() == type_id<DenseElementsAttr>(); }
TensorType DenseElementsAttr::type() const { return ds(impl_)->type; }
bool DenseElementsAttr::is_splat() const { return ds(impl_)->splat; }
std::span<const uint8_t> DenseElementsAttr::raw() const { return ds(impl_)->data; }

void DenseElementsAttr::copy_to(uint8_t* dst) const {
  const auto& d = ds(impl_)->data;
  if (d.empty()) return;  // zero elements: memcpy with a null source is undefined even for 0 bytes
  if (!is_splat()) {
    std::memcpy(dst, d.data(), d.size());
    return;
  }
  for (int64_t i = 0, n = numel(); i < n; ++i) std::memcpy(dst + i * d.size(), d.data(), d.size());
}

double DenseElementsAttr::element_as_double(int64_t i) const {
  size_t es = dtype_size(type().dtype());
  const uint8_t* p = ds(impl_)->data.data() + (is_splat() ? 0 : static_cast<size_t>(i) * es);
  switch (type().dtype()) {
    case DataType::kBool:
      return p[0] ? 1.0 : 0.0;
    case DataType::kInt8:
      return load<int8_t>(p);
    case DataType::kUInt8:
      return load<uint8_t>(p);
    case DataType::kInt16:
      return load<int16_t>(p);
    case DataType::kInt32:
      return load<int32_t>(p);
    case DataType::kInt64:
      return static_cast<double>(load<int64_t>(p));
    case DataType::kFloat16:
      return half_to_float(load<uint16_t>(p));
    case DataType::kBFloat16: {
      uint32_t bits = static_cast<uint32_t>(load<uint16_t>(p)) << 16;
      return load<float>(reinterpret_cast<const uint8_t*>(&bits));
    }
    case DataType::kFloat32:
      return load<float>(p);
    case DataType::kFloat64:
      return load<double>(p);
    case DataType::kComplex64:
      return load<float>(p);
    case DataType::kComplex128:
      return load<double>(p);
    case DataType::kUndefined:
      break;
  }
  return 0.0;
}

std::string to_hex(std::span<const uint8_t> bytes) {
  static const char* kHex = "0123456789abcdef";
  std::string s = "0x";
  s.reserve(2 + bytes.size() * 2);
  for (uint8_t b : bytes) {
    s += kHex[b >> 4];
    s += kHex[b & 15];
  }
  return s;
}

bool from_hex(std::string_view text, std::string& out) {
  if (text.size() < 2 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X') || text.size() % 2) {
    return false;
  }
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  out.clear();
  out.reserve((text.size() - 2) / 2);
  for (size_t i = 2; i < text.size(); i += 2) {
    int hi = nibble(text[i]), lo = nibble(text[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out += static_cast<char>(hi * 16 + lo);
  }
  return true;
}

}  // namespace skiff::ir
