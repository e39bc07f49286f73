#include "skiff/dist/dist_tensor.h"

#include <mutex>

#include "skiff/base/error.h"
#include "skiff/core/views.h"
#include "skiff/dist/reshard/local_ops.h"
#include "skiff/dist/shard_layout.h"

namespace skiff::dist {

DistTensor::DistTensor(Dims global_dims, spmd::DistAttr attr, DenseTensor local, int64_t rank)
    : global_dims_(std::move(global_dims)),
      attr_(std::move(attr)),
      local_(std::move(local)),
      rank_(rank) {
  if (attr_.is_partial()) reduced_ = std::make_shared<ReducedMemo>();
  if (!in_mesh()) return;
  auto want = local_shape(global_dims_.to_vector(), attr_, attr_.process_mesh().coord(rank_));
  SKIFF_ENFORCE(local_.dims().to_vector() == want, kInvalidArgument, "DistTensor", "local_value",
                str("the local shape ", Dims(want), " of rank ", rank_), local_.dims());
}

struct DistTensor::ReducedMemo {
  std::mutex mu;
  std::vector<std::pair<spmd::DistAttr, DenseTensor>> results;
};

std::optional<DenseTensor> DistTensor::reduced(const spmd::DistAttr& dst) const {
  if (!reduced_) return std::nullopt;
  std::lock_guard<std::mutex> lock(reduced_->mu);
  for (const auto& [attr, local] : reduced_->results) {
    if (attr == dst) return local;
  }
  return std::nullopt;
}

void DistTensor::remember_reduced(const spmd::DistAttr& dst, const DenseTensor& local) const {
  if (!reduced_) return;
  std::lock_guard<std::mutex> lock(reduced_->mu);
  reduced_->results.emplace_back(dst, local);
}

DenseTensor empty_local(DType dtype, int64_t ndim) {
  return DenseTensor::empty(Dims(std::vector<int64_t>(static_cast<size_t>(ndim), 0)), dtype);
}

Tensor shard_dense(const char* op, const DenseTensor& global, const ProcessMesh& mesh,
                   const std::vector<Placement>& placements, int64_t rank) {
  auto attr = dist_attr_for(op, mesh, placements, global.rank());
  auto shape = global.dims().to_vector();
  if (!mesh.contains(rank)) {
    return Tensor(std::make_shared<DistTensor>(global.dims(), attr,
                                               empty_local(global.dtype(), global.rank()), rank));
  }
  auto coord = mesh.coord(rank);
  DenseTensor local = global;
  auto ranges = local_ranges(shape, attr, coord);
  for (size_t d = 0; d < ranges.size(); ++d) {
    local = view_slice(local, static_cast<int64_t>(d), ranges[d].begin, ranges[d].end);
  }
  local = local.contiguous();
  if (local.shares_storage_with(global)) local = local_ops::clone(local);
  for (const auto& [axis, reduce] : attr.partial_status()) {
    if (coord[axis] != 0) local_ops::fill_identity(local, reduce);
  }
  return Tensor(std::make_shared<DistTensor>(global.dims(), attr, local, rank));
}

Tensor dist_from_local(const char* op, const DenseTensor& local, const ProcessMesh& mesh,
                       const std::vector<Placement>& placements, int64_t rank) {
  auto attr = dist_attr_for(op, mesh, placements, local.rank());
  auto shape = local.dims().to_vector();
  const auto& map = attr.dims_mapping();
  for (size_t d = 0; d < shape.size(); ++d) {
    if (map[d] != spmd::kReplicated) shape[d] *= mesh.shape()[map[d]];
  }
  DenseTensor value = mesh.contains(rank) ? local : empty_local(local.dtype(), local.rank());
  return Tensor(std::make_shared<DistTensor>(Dims(shape), attr, value, rank));
}

}  // namespace skiff::dist
