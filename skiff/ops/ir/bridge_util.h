// What the generated bridge (op_bridge.gen.cc, tools/gen_op_bridge.py) builds on: reading IR
// operand types and attributes as the ops layer's metas and boxed attribute values, and the
// table of generated per-op functions. Not a public header: use op_bridge.h.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "skiff/ir/core/builtin_attributes.h"
#include "skiff/ir/core/operation.h"
#include "skiff/ops/boxed.h"
#include "skiff/ops/ir/convert.h"

namespace skiff::ops::ir_bridge {

using AttrMap = std::map<std::string, AttrValue>;

/// The op's IR attributes that are arguments of its record, as boxed values (others, such as
/// `inplace` marks, are ignored; missing ones take the record's default in boxed_attr).
AttrMap attr_map(const OpSchema& s, std::span<const ir::NamedAttribute> attrs);

void check_operand_count(const OpSchema& s, std::span<const ir::Type> in, size_t n);
/// Operand `k`, the tensor argument `arg` of the record, as a meta (it must be a tensor type).
TensorMeta operand_meta(const OpSchema& s, std::span<const ir::Type> in, size_t arg, size_t k);
/// A Tensor[] operand (a vec<...> type).
std::vector<TensorMeta> operand_metas(const OpSchema& s, std::span<const ir::Type> in, size_t arg,
                                      size_t k);
/// A Tensor? operand: absent when the operand is null.
std::optional<TensorMeta> optional_meta(const OpSchema& s, std::span<const ir::Type> in, size_t arg,
                                        size_t k);

// Readers of a built op for the kernel dtype rules.
DType operand_dtype(ir::Operation* op, size_t k);
/// The dtype of the first element of a vec operand (float32 when empty, as the dense API).
DType list_dtype(ir::Operation* op, size_t k);
DType result_dtype(ir::Operation* op, size_t j);
DType attr_dtype(ir::Operation* op, std::string_view name);

using InferFn = std::vector<ir::Type> (*)(ir::IrContext*, std::span<const ir::Type>,
                                          std::span<const ir::NamedAttribute>);
using KernelDTypeFn = DType (*)(ir::Operation*);
struct BridgeEntry {
  OpId id;
  InferFn infer;
  KernelDTypeFn kernel_dtype;
  int data_type_operand;  // the operand named by the record's kernel.data_type, else -1
  uint32_t promote_mask;  // bit k: operand k is cast to the promoted dtype (record's promote)
};
/// One entry per op record (generated).
std::span<const BridgeEntry> bridge_entries();

}  // namespace skiff::ops::ir_bridge
