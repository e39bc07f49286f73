// A kernel call's arguments seen without knowing the op: its tensor inputs per argument, its
// outputs and its attributes by name, read from the op's generated argument struct by a
// generated function per op (tools/gen_ops.py: kernel_args_view.cc). Device plugin kernels
// (skiff/ops/plugin) and the CPU fallback use it; built-in kernels take their structs directly.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "skiff/core/dense_tensor.h"
#include "skiff/ops/op_schema.h"

namespace skiff::ops {

struct KernelArgsView {
  /// Per tensor argument of the record, in order: one tensor, a list, or zero/one (Tensor?).
  std::vector<std::vector<const DenseTensor*>> inputs;
  /// Per output of the record; an output is undefined when its shape is known only after the
  /// kernel (the kernel assigns it).
  std::vector<std::vector<DenseTensor*>> outputs;
  std::map<std::string, AttrValue> attrs;
};

using ArgsViewFn = void (*)(const void* args, KernelArgsView& view);
/// The view function of op `id` (generated).
ArgsViewFn args_view_fn(OpId id);

inline std::vector<const DenseTensor*> input_ptrs(const std::vector<DenseTensor>& list) {
  std::vector<const DenseTensor*> out;
  out.reserve(list.size());
  for (const DenseTensor& t : list) out.push_back(&t);
  return out;
}
inline std::vector<const DenseTensor*> optional_ptrs(const DenseTensor* t) {
  return t ? std::vector<const DenseTensor*>{t} : std::vector<const DenseTensor*>{};
}
inline std::vector<DenseTensor*> output_ptrs(std::vector<DenseTensor>* list) {
  std::vector<DenseTensor*> out;
  out.reserve(list->size());
  for (DenseTensor& t : *list) out.push_back(&t);
  return out;
}

}  // namespace skiff::ops
