// DistTensor: the TensorImpl kind of a distributed tensor (Paddle's phi::distributed::DistTensor):
// the global shape, the DistAttr (mesh, dims_mapping, partial status) and this process's local
// dense piece. dims() is the global shape, as Paddle's Tensor.shape of a dist tensor is; the
// local piece follows shard_layout.h (ceil-sized chunks, zero-size shards allowed). A process
// outside the mesh holds an empty local value and only the metadata.
#pragma once

#include <memory>
#include <optional>

#include "skiff/core/dense_tensor.h"
#include "skiff/core/tensor.h"
#include "skiff/dist/spmd/dist_attr.h"

namespace skiff::dist {

class DistTensor final : public TensorImpl {
 public:
  /// `local` must have the shape shard_layout gives this process (checked: InvalidArgument).
  DistTensor(Dims global_dims, spmd::DistAttr attr, DenseTensor local, int64_t rank);

  TensorKind kind() const override { return TensorKind::kDist; }
  DType dtype() const override { return local_.dtype(); }
  const Dims& dims() const override { return global_dims_; }
  Place place() const override { return local_.place(); }

  const spmd::DistAttr& dist_attr() const { return attr_; }
  const ProcessMesh& process_mesh() const { return attr_.process_mesh(); }
  std::vector<Placement> placements() const { return attr_.placements(); }
  const DenseTensor& local_value() const { return local_; }
  /// The global rank the local value belongs to; -1 marks a process outside the mesh.
  int64_t rank() const { return rank_; }
  bool in_mesh() const { return rank_ >= 0 && attr_.process_mesh().contains(rank_); }

  /// The layout the accumulated gradient of this tensor takes as a leaf (ShardingStage2 shards
  /// it over the sharding mesh dim: its Partial gradient is reduce-scattered); null: its own
  /// layout without partial status.
  const spmd::DistAttr* grad_dist_attr() const { return grad_attr_ ? &*grad_attr_ : nullptr; }
  void set_grad_dist_attr(spmd::DistAttr attr) { grad_attr_ = std::move(attr); }

  /// Note [Partial reductions are memoized]: the local value a reshard of this Partial tensor
  /// to `dst` gave, or nullopt; reshard stores each result here, so a Partial gradient read by
  /// two ops (a row-parallel Linear's dx and dW matmuls) is reduced once. Sound because dist
  /// values are never written in place except parameters and optimizer states, which are not
  /// Partial; copies of the impl (detach) share the memo with the value.
  std::optional<DenseTensor> reduced(const spmd::DistAttr& dst) const;
  void remember_reduced(const spmd::DistAttr& dst, const DenseTensor& local) const;

 private:
  Dims global_dims_;
  spmd::DistAttr attr_;
  DenseTensor local_;
  int64_t rank_;
  std::optional<spmd::DistAttr> grad_attr_;
  struct ReducedMemo;
  std::shared_ptr<ReducedMemo> reduced_;
};

/// The dist body of `t`, or nullptr for other kinds.
inline const DistTensor* as_dist(const Tensor& t) {
  return t.defined() && t.kind() == TensorKind::kDist ? static_cast<const DistTensor*>(t.impl())
                                                      : nullptr;
}

/// Every process holds `global` (the same value on all ranks, as Paddle's shard_tensor expects)
/// and keeps its own piece: `placements` checked against the mesh and the tensor (InvalidArgument
/// for a wrong count or a Shard dim out of range, naming `op`). Partial placements keep the value
/// on mesh coordinate 0 and the reduction's identity elsewhere, so the pending sum is `global`.
Tensor shard_dense(const char* op, const DenseTensor& global, const ProcessMesh& mesh,
                   const std::vector<Placement>& placements, int64_t rank);

/// Paddle's dtensor_from_local: `local` is this process's piece; the global shape multiplies
/// the local size by the mesh dim's size on each sharded dim (even shards, as in Paddle).
Tensor dist_from_local(const char* op, const DenseTensor& local, const ProcessMesh& mesh,
                       const std::vector<Placement>& placements, int64_t rank);

/// An empty (0-element) local value of `dtype` for processes outside the mesh.
DenseTensor empty_local(DType dtype, int64_t ndim);

}  // namespace skiff::dist
