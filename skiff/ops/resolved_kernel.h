// A kernel call resolved ahead of time, for callers that run one op many times on inputs whose
// dtypes and places are already fixed (the static-graph executor: a lowered kernel.call). The
// kernel function and context are chosen once, the op's attributes are unboxed once into typed
// members, and a call reads its tensors straight from the caller's slots into the op's argument
// struct: no boxing, promotion, place check, kernel selection, nor infer-meta unless the caller
// asks for it (a dynamic dim). The typed code per op is generated (tools/gen_ops.py:
// resolved_kernels.cc) from the same record as the dense op it short-cuts, so both allocate and
// call alike.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "skiff/core/dense_tensor.h"
#include "skiff/ops/kernel_registry.h"
#include "skiff/ops/op_schema.h"

namespace skiff::ops {

/// One tensor argument of the record: its slot's tensors (one, or a list), or null for an
/// absent Tensor?.
using ArgSlot = const std::vector<DenseTensor>*;
/// One output of the record: where its tensors go (one, or a list).
using OutSlot = std::vector<DenseTensor>*;
/// Per output of the record: the metas of its tensors (one, or one per list element).
using OutputMetas = std::vector<std::vector<TensorMeta>>;

class ResolvedKernel {
 public:
  virtual ~ResolvedKernel() = default;
  /// The record's infer-meta on these inputs (`in` has one entry per tensor argument).
  virtual void infer(const ArgSlot* in, OutputMetas& metas) const = 0;
  /// Allocates the outputs that are neither views nor known only after the kernel, from
  /// `metas`, then runs the kernel; `outs` has one entry per output of the record. A single
  /// tensor output that `outs` already holds (a contiguous buffer of its meta, which the caller
  /// no longer needs) is written instead of a new allocation.
  virtual void run(const ArgSlot* in, const OutputMetas& metas, const OutSlot* outs) const = 0;

  const KernelContext& context() const { return ctx_; }

 protected:
  friend std::unique_ptr<ResolvedKernel> resolve_kernel(OpId, KernelFn, const KernelContext&,
                                                        const std::map<std::string, AttrValue>&);
  KernelFn fn_ = nullptr;
  KernelContext ctx_{};
};

/// The resolved call of op `id` with kernel `fn` under `ctx` and attributes `attrs` (missing
/// ones take the record's defaults). An in-place-only op (fused optimizer update) writes each
/// aliased output into its input's buffers, with the dense op's overlap checks and version
/// bumps, and its output slots get the written inputs.
std::unique_ptr<ResolvedKernel> resolve_kernel(OpId id, KernelFn fn, const KernelContext& ctx,
                                               const std::map<std::string, AttrValue>& attrs);

}  // namespace skiff::ops
