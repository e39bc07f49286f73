#include "skiff/dist/eager/grad_buckets.h"

#include <atomic>
#include <cstdlib>
#include <memory>
#include <set>
#include <vector>

#include "skiff/dist/dist_tensor.h"
#include "skiff/dist/reshard/reshard.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/engine.h"
#include "skiff/runtime/eager/grad_mode.h"

namespace skiff::dist {

namespace {

using autograd::autograd_meta;
using autograd::AutogradMeta;
using spmd::DistAttr;

struct Deferred {
  std::weak_ptr<TensorImpl> leaf;
  DistAttr want;
};

// Leaves whose reduction waits for the end of this thread's outermost backward.
thread_local std::vector<Deferred> t_deferred;
// True while a reduction is queued on this thread's backward. A failed backward drops its
// callbacks without running them; the flag's owner resets it then, so the next backward queues
// again (and reduces the leaves left over, whose gradients are still Partial).
thread_local bool t_queued = false;
struct QueuedFlag {
  ~QueuedFlag() { t_queued = false; }
};
std::atomic<int64_t> g_all_reduce{0};

// The gradients of one group share a mesh, a partial status and a dtype, so one flat buffer
// and one all-reduce per partial mesh dim serve them all.
struct Member {
  AutogradMeta* meta;
  const DistTensor* grad;
  DistAttr want;
};
struct Group {
  const DistTensor* first;
  std::vector<Member> members;
};

bool same_group(const DistTensor& a, const DistTensor& b) {
  return a.process_mesh() == b.process_mesh() &&
         a.dist_attr().partial_status() == b.dist_attr().partial_status() && a.dtype() == b.dtype();
}

// A view of `flat` at element `offset` with the dims of `like` (contiguous).
DenseTensor slot(const DenseTensor& flat, const DenseTensor& like, int64_t offset) {
  return flat.as_strided(like.dims(), contiguous_strides(like.dims()), offset);
}

// Reduces members [begin, end) of `group` through one flat buffer and replaces each one's
// `.grad` with the reduced value in the leaf's layout.
void reduce_bucket(const Group& group, size_t begin, size_t end, CommContext* ctx) {
  int64_t total = 0;
  for (size_t i = begin; i < end; ++i) total += group.members[i].grad->local_value().numel();
  DenseTensor flat = DenseTensor::empty(Dims({total}), group.first->dtype());
  int64_t offset = 0;
  for (size_t i = begin; i < end; ++i) {
    const DenseTensor& local = group.members[i].grad->local_value();
    slot(flat, local, offset).copy_from(local);
    offset += local.numel();
  }
  const DistAttr& attr = group.first->dist_attr();
  for (const auto& [axis, reduce] : attr.partial_status()) {
    AxisGroup g = axis_group("backward", attr.process_mesh(), axis, group.first->rank(), ctx);
    if (g.group == nullptr || total == 0) continue;
    g.group->all_reduce(flat, comm_reduce_op(reduce), true)->wait();
    g_all_reduce.fetch_add(1, std::memory_order_relaxed);
  }
  offset = 0;
  for (size_t i = begin; i < end; ++i) {
    const Member& m = group.members[i];
    const DenseTensor& local = m.grad->local_value();
    DenseTensor reduced = DenseTensor::empty(local.dims(), local.dtype());
    reduced.copy_from(slot(flat, local, offset));
    offset += local.numel();
    m.meta->grad = Tensor(
        std::make_shared<DistTensor>(m.grad->dims(), m.want, std::move(reduced), m.grad->rank()));
  }
}

void reduce_deferred() {
  std::vector<Deferred> deferred;
  deferred.swap(t_deferred);
  std::vector<Tensor> alive;  // the leaves (so their metas) and their Partial gradients
  std::vector<Group> groups;
  std::set<const TensorImpl*> seen;
  auto ctx = CommContext::global();
  for (Deferred& d : deferred) {
    std::shared_ptr<TensorImpl> impl = d.leaf.lock();
    // A leaf left over from a failed backward comes again in the next one: reduce it once.
    if (!impl || !seen.insert(impl.get()).second) continue;
    Tensor leaf(impl);
    AutogradMeta* meta = autograd_meta(leaf);
    const DistTensor* g = meta != nullptr ? as_dist(meta->grad) : nullptr;
    // Already reduced (by an add of a later backward, say) or never Partial.
    if (g == nullptr || !g->dist_attr().is_partial()) continue;
    alive.push_back(leaf);
    alive.push_back(meta->grad);  // Members point into it after `.grad` is replaced
    if (!g->in_mesh() || g->dist_attr().dims_mapping() != d.want.dims_mapping()) {
      meta->grad = reshard(meta->grad, d.want, ctx.get());  // nothing to pack on this process
      continue;
    }
    auto it = groups.begin();
    while (it != groups.end() && !same_group(*it->first, *g)) ++it;
    if (it == groups.end()) it = groups.insert(groups.end(), Group{g, {}});
    it->members.push_back({meta, g, d.want});
  }
  const int64_t cap = grad_bucket_bytes();
  for (const Group& group : groups) {
    size_t begin = 0;
    int64_t bytes = 0;
    for (size_t i = 0; i < group.members.size(); ++i) {
      const int64_t n = group.members[i].grad->local_value().nbytes();
      if (i > begin && bytes + n > cap) {
        reduce_bucket(group, begin, i, ctx.get());
        begin = i;
        bytes = 0;
      }
      bytes += n;
    }
    reduce_bucket(group, begin, group.members.size(), ctx.get());
  }
}

}  // namespace

int64_t grad_bucket_bytes() {
  constexpr int64_t kDefault = int64_t{64} << 20;
  const char* v = std::getenv("SKIFF_GRAD_BUCKET_BYTES");
  if (v == nullptr || *v == '\0') return kDefault;
  char* end = nullptr;
  const long long n = std::strtoll(v, &end, 10);
  return end != nullptr && *end == '\0' && n > 0 ? static_cast<int64_t>(n) : kDefault;
}

bool can_defer_leaf_reduction(const Tensor& grad, const DistAttr& want) {
  const DistTensor* g = as_dist(grad);
  return g != nullptr && autograd::in_backward() && !autograd::grad_enabled() &&
         g->dist_attr().is_partial() && !want.is_partial() &&
         g->dist_attr().dims_mapping() == want.dims_mapping() &&
         g->process_mesh() == want.process_mesh();
}

void defer_leaf_reduction(const Tensor& leaf, const DistAttr& want) {
  t_deferred.push_back({leaf.impl_ptr(), want});
  if (t_queued) return;
  t_queued = true;
  auto flag = std::make_shared<QueuedFlag>();
  autograd::queue_callback([flag] {
    t_queued = false;
    reduce_deferred();
  });
}

int64_t bucketed_all_reduce_count() { return g_all_reduce.load(std::memory_order_relaxed); }

}  // namespace skiff::dist
