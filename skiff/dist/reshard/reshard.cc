#include "skiff/dist/reshard/reshard.h"

#include <algorithm>
#include <atomic>

#include "skiff/base/error.h"
#include "skiff/dist/dist_tensor.h"
#include "skiff/dist/reshard/reshard_1d.h"

namespace skiff::dist {

namespace {

using Placements = std::vector<Placement>;

std::atomic<int64_t> g_all_reduce{0}, g_reduce_scatter{0}, g_all_to_all{0}, g_all_gather{0};

// Counts a collective of a step over `g` (a mesh dim of one process communicates nothing).
void count(const AxisGroup& g, std::atomic<int64_t>& counter) {
  if (g.group != nullptr) counter.fetch_add(1, std::memory_order_relaxed);
}

// True when a mesh dim other than `axis` shards tensor dim `dim` in `cur`.
bool sharded_elsewhere(const Placements& cur, int64_t dim, size_t axis) {
  for (size_t m = 0; m < cur.size(); ++m) {
    if (m != axis && cur[m].is_shard(dim)) return true;
  }
  return false;
}

class Planner {
 public:
  Planner(const DistTensor& src, CommContext* ctx)
      : mesh_(src.process_mesh()),
        shape_(src.dims().to_vector()),
        ctx_(ctx),
        rank_(src.rank()),
        local_(src.local_value()) {}

  DenseTensor run(Placements cur, const Placements& dst) {
    for (size_t m = 0; m < cur.size(); ++m) {  // 1. pending reductions
      if (!cur[m].is_partial() || cur[m] == dst[m]) continue;
      AxisGroup g = group(m);
      if (dst[m].is_shard() && !sharded_elsewhere(cur, dst[m].shard_dim(), m)) {
        local_ = p_to_s(local_, cur[m].reduce_type(), dst[m].shard_dim(), g);
        count(g, g_reduce_scatter);
        cur[m] = dst[m];
      } else {
        local_ = p_to_r(local_, cur[m].reduce_type(), g);
        count(g, g_all_reduce);
        cur[m] = Placement::replicate();
      }
    }
    for (size_t m = 0; m < cur.size(); ++m) {  // 2. moves of the shard dim on one mesh dim
      if (!cur[m].is_shard() || !dst[m].is_shard() || cur[m] == dst[m]) continue;
      if (sharded_elsewhere(cur, dst[m].shard_dim(), m)) continue;
      int64_t from = cur[m].shard_dim();
      AxisGroup g = group(m);
      local_ = s_to_s(local_, from, shape_[from], dst[m].shard_dim(), g);
      count(g, g_all_to_all);
      cur[m] = dst[m];
    }
    for (size_t m = cur.size(); m-- > 0;) {  // 3. gathers
      if (!cur[m].is_shard() || cur[m] == dst[m]) continue;
      int64_t d = cur[m].shard_dim();
      AxisGroup g = group(m);
      local_ = s_to_r(local_, d, shape_[d], g);
      count(g, g_all_gather);
      cur[m] = Placement::replicate();
    }
    for (size_t m = 0; m < cur.size(); ++m) {  // 4. slices and partial terms
      if (cur[m] == dst[m]) continue;
      local_ = dst[m].is_shard() ? r_to_s(local_, dst[m].shard_dim(), group(m))
                                 : r_to_p(local_, dst[m].reduce_type(), group(m));
      cur[m] = dst[m];
    }
    return local_;
  }

 private:
  AxisGroup group(size_t axis) {
    return axis_group("reshard", mesh_, static_cast<int64_t>(axis), rank_, ctx_);
  }

  const ProcessMesh& mesh_;
  std::vector<int64_t> shape_;
  CommContext* ctx_;
  int64_t rank_;
  DenseTensor local_;
};

}  // namespace

ReshardCounts reshard_counts() {
  return {g_all_reduce.load(), g_reduce_scatter.load(), g_all_to_all.load(), g_all_gather.load()};
}

std::vector<int64_t> axis_ranks(const ProcessMesh& mesh, int64_t axis, int64_t rank) {
  auto coord = mesh.coord(rank);
  std::vector<int64_t> ranks;
  for (int64_t i = 0; i < mesh.shape()[static_cast<size_t>(axis)]; ++i) {
    coord[static_cast<size_t>(axis)] = i;
    int64_t flat = 0;
    for (size_t d = 0; d < coord.size(); ++d) flat = flat * mesh.shape()[d] + coord[d];
    ranks.push_back(mesh.process_ids()[static_cast<size_t>(flat)]);
  }
  return ranks;
}

AxisGroup axis_group(const char* op, const ProcessMesh& mesh, int64_t axis, int64_t rank,
                     CommContext* ctx) {
  const auto a = static_cast<size_t>(axis);
  AxisGroup g{mesh.shape()[a], mesh.coord(rank)[a], nullptr};
  if (g.size == 1) return g;
  SKIFF_ENFORCE(ctx != nullptr, kPrecondition, op, "mesh",
                "an initialized parallel environment (paddle.distributed.init_parallel_env) "
                "for a mesh dim of several processes",
                str("mesh dim ", axis, " of size ", g.size, " in a single process"));
  g.group = &ctx->group(axis_ranks(mesh, axis, rank));
  return g;
}

void check_mesh_in_world(const char* op, const ProcessMesh& mesh, int64_t world_size) {
  for (int64_t id : mesh.process_ids()) {
    SKIFF_ENFORCE(id < world_size, kInvalidArgument, op, "mesh",
                  str("process ids below the world size ", world_size), mesh.to_string());
  }
}

Tensor reshard(const Tensor& t, const spmd::DistAttr& dst, CommContext* ctx) {
  const DistTensor* src = as_dist(t);
  SKIFF_ENFORCE(src != nullptr, kInvalidArgument, "reshard", "dist_tensor",
                "a distributed tensor (made by shard_tensor)", "a dense tensor");
  SKIFF_ENFORCE(dst.process_mesh() == src->process_mesh(), kUnimplemented, "reshard", "mesh",
                src->process_mesh().to_string(),
                str(dst.process_mesh().to_string(), " (reshard across meshes)"));
  SKIFF_ENFORCE(dst.ndim() == src->dims().size(), kInvalidArgument, "reshard", "dist_attr",
                str("a dims_mapping for ", src->dims().size(), " dims"), dst.to_string());
  if (ctx != nullptr) check_mesh_in_world("reshard", dst.process_mesh(), ctx->world_size());
  if (!src->in_mesh()) {
    return Tensor(std::make_shared<DistTensor>(src->dims(), dst, src->local_value(), src->rank()));
  }
  // Note [Partial reductions are memoized] (dist_tensor.h): a second reshard of one Partial
  // value to the same layout reuses the first's result and communicates nothing.
  if (auto memo = src->reduced(dst)) {
    return Tensor(std::make_shared<DistTensor>(src->dims(), dst, *memo, src->rank()));
  }
  DenseTensor local = Planner(*src, ctx).run(src->placements(), dst.placements());
  if (src->dist_attr().is_partial()) src->remember_reduced(dst, local);
  return Tensor(std::make_shared<DistTensor>(src->dims(), dst, local, src->rank()));
}

}  // namespace skiff::dist
