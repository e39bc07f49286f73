// In-place variants of ops (Paddle's `add_`, `relu_`, fused optimizer updates): a record's
// `inplace : (x -> out)` makes the generated dense op write `out` into x's buffer. These helpers
// sit between infer-meta and the kernel of those variants: they refuse results that would change
// x's shape or dtype, pick the buffer the kernel writes (x itself when x is contiguous and no
// other input overlaps it; otherwise a temporary copied back into x afterwards, because kernels
// expect contiguous outputs and read their inputs while writing), and bump x's storage version
// so that autograd catches saved tensors that were overwritten.
#pragma once

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "skiff/core/dense_tensor.h"
#include "skiff/ops/op_schema.h"

namespace skiff::ops {

/// A record's in-place facts: the in-place API's name ("add_"; the op's own name for
/// in-place-only ops such as fused optimizer updates) and its (input, output) pairs.
struct InplaceInfo {
  std::string api;
  std::vector<std::pair<std::string, std::string>> pairs;
};
/// Null for ops without an in-place form.
const InplaceInfo* inplace_info(OpId id);

/// The dtype an in-place op computes in: the written input's. Errors when the promoted dtype of
/// the inputs cannot be stored in it (a float result into an integer tensor, a number into bool).
DType inplace_dtype(const char* op, const char* arg, DType target, DType promoted);

/// Errors unless the inferred output has the written input's shape and dtype (broadcasting must
/// not grow x; a true division of integers cannot be stored in them).
void check_inplace_meta(const char* op, const char* arg, const DenseTensor& input,
                        const TensorMeta& out);
void check_inplace_meta(const char* op, const char* arg, const std::vector<DenseTensor>& inputs,
                        const std::vector<TensorMeta>& outs);

/// The output buffers of one in-place pair (a tensor or a list of them).
class InplaceTarget {
 public:
  InplaceTarget(const char* op, const char* arg, const DenseTensor& input, const TensorMeta& meta,
                const Place& place, std::initializer_list<const DenseTensor*> others,
                std::initializer_list<const std::vector<DenseTensor>*> other_lists);
  InplaceTarget(const char* op, const char* arg, const std::vector<DenseTensor>& inputs,
                const std::vector<TensorMeta>& metas, const Place& place,
                std::initializer_list<const DenseTensor*> others,
                std::initializer_list<const std::vector<DenseTensor>*> other_lists);
  InplaceTarget(const InplaceTarget&) = delete;
  InplaceTarget& operator=(const InplaceTarget&) = delete;

  /// What the kernel writes: the input itself, or a temporary.
  DenseTensor& output() { return outputs_[0]; }
  std::vector<DenseTensor>& outputs() { return outputs_; }
  /// After the kernel: copies temporaries into the inputs and bumps their versions.
  void finish();

 private:
  void add(const char* op, const char* arg, const DenseTensor& input, const TensorMeta& meta,
           const Place& place, std::initializer_list<const DenseTensor*> others,
           std::initializer_list<const std::vector<DenseTensor>*> other_lists,
           const std::vector<DenseTensor>* own_list);

  std::vector<DenseTensor> inputs_;
  std::vector<DenseTensor> outputs_;
  std::vector<bool> direct_;
};

}  // namespace skiff::ops
