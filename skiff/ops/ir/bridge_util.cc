#include "skiff/ops/ir/bridge_util.h"

#include "skiff/base/error.h"
#include "skiff/ir/core/asm.h"
#include "skiff/ir/dialects/kernel.h"

namespace skiff::ops::ir_bridge {

AttrMap attr_map(const OpSchema& s, std::span<const ir::NamedAttribute> attrs) {
  AttrMap out;
  for (const ArgSchema& arg : s.args) {
    if (is_tensor_kind(arg.kind)) continue;
    for (const ir::NamedAttribute& na : attrs) {
      if (na.name.value() != arg.name) continue;
      // The IR writes an unspecified place as "": the record's default applies.
      if (auto t = na.value.dyn_cast<ir::StrAttr>();
          arg.kind == ArgKind::kPlace && t && t.value().empty()) {
        break;
      }
      out.emplace(arg.name, to_attr_value(s, arg, na.value));
      break;
    }
  }
  return out;
}

void check_operand_count(const OpSchema& s, std::span<const ir::Type> in, size_t n) {
  SKIFF_ENFORCE(in.size() == n, kInvalidArgument, s.name, "operands", str(n, " operands"),
                in.size());
}

TensorMeta operand_meta(const OpSchema& s, std::span<const ir::Type> in, size_t arg, size_t k) {
  auto t = in[k].dyn_cast<ir::TensorType>();
  SKIFF_ENFORCE(t, kTypeError, s.name, s.args[arg].name, "a tensor",
                in[k] ? ir::to_string(in[k]) : "none");
  return to_meta(t);
}

std::vector<TensorMeta> operand_metas(const OpSchema& s, std::span<const ir::Type> in, size_t arg,
                                      size_t k) {
  auto v = in[k].dyn_cast<ir::VectorType>();
  SKIFF_ENFORCE(v, kTypeError, s.name, s.args[arg].name, "a list of tensors (vec<...>)",
                in[k] ? ir::to_string(in[k]) : "none");
  std::vector<TensorMeta> out;
  out.reserve(v.size());
  for (ir::Type e : v.elements()) {
    auto t = e.dyn_cast<ir::TensorType>();
    SKIFF_ENFORCE(t, kTypeError, s.name, s.args[arg].name, "a list of tensors", ir::to_string(e));
    out.push_back(to_meta(t));
  }
  return out;
}

std::optional<TensorMeta> optional_meta(const OpSchema& s, std::span<const ir::Type> in, size_t arg,
                                        size_t k) {
  if (!in[k]) return std::nullopt;
  return operand_meta(s, in, arg, k);
}

namespace {
// A tensor type, placed (kernel dialect) or not.
ir::TensorType tensor_of(ir::Type t) {
  if (auto p = t.dyn_cast<ir::DenseTensorOnPlaceType>()) return p.tensor();
  return t.dyn_cast<ir::TensorType>();
}
}  // namespace

DType operand_dtype(ir::Operation* op, size_t k) {
  ir::Value v = op->operand(static_cast<uint32_t>(k));
  auto t = v ? tensor_of(v.type()) : ir::TensorType();
  return t ? from_ir(t.dtype()) : DType::kUndefined;
}

DType list_dtype(ir::Operation* op, size_t k) {
  ir::Value v = op->operand(static_cast<uint32_t>(k));
  auto vt = v ? v.type().dyn_cast<ir::VectorType>() : ir::VectorType();
  if (!vt || vt.size() == 0) return DType::kFloat32;
  auto t = tensor_of(vt.elements()[0]);
  return t ? from_ir(t.dtype()) : DType::kUndefined;
}

DType result_dtype(ir::Operation* op, size_t j) {
  ir::Type t = op->result_type(static_cast<uint32_t>(j));
  if (auto vt = t.dyn_cast<ir::VectorType>()) {
    t = vt.size() ? vt.elements()[0] : ir::Type();
  }
  auto tt = tensor_of(t);
  return tt ? from_ir(tt.dtype()) : DType::kUndefined;
}

DType attr_dtype(ir::Operation* op, std::string_view name) {
  auto d = op->attr_of<ir::DTypeAttr>(name);
  return d ? from_ir(d.value()) : DType::kUndefined;
}

}  // namespace skiff::ops::ir_bridge
