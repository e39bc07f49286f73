#include "skiff/dist/eager/grad_buckets.h"

#include <atomic>
#include <cstdlib>
#include <deque>
#include <memory>
#include <set>
#include <vector>

#include "skiff/comm/process_group.h"
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

// One all-reduce of a bucket: a partial mesh dim's group (of more than one process) and its op.
struct Reduction {
  comm::ProcessGroup* group;
  comm::ReduceOp op;
};

// One packed bucket whose first all-reduce is in flight.
struct Launched {
  struct Slot {
    Tensor leaf;  // keeps the leaf (so its meta) alive until the result lands
    Dims global_dims;
    Dims local_dims;
    DistAttr want;
    int64_t rank;
  };
  std::vector<Slot> slots;
  DenseTensor flat;
  // One per partial mesh dim, each after the one before (they run on different groups'
  // threads): the first is in flight, the rest run when the bucket lands.
  std::vector<Reduction> reductions;
  std::shared_ptr<comm::Task> task;  // the first reduction (null: nothing to reduce)
};

// Per thread, for the backward in progress (a backward runs on one thread):
// - leaves whose reduction waits to be packed; the last one's `.grad` is not final yet (the
//   leaf's accumulation is still running when it is deferred);
// - the bytes of those gradients, and the size at which they are packed and launched;
// - the launched buckets, unpacked in launch order when the outermost backward ends.
thread_local std::vector<Deferred> t_deferred;
thread_local int64_t t_deferred_bytes = 0;
thread_local int64_t t_cap = 0;
thread_local std::deque<Launched> t_launched;
// True while a reduction is queued on this thread's backward. A failed backward drops its
// callbacks without running them; the flag's owner then waits for the buckets in flight, drops
// their results and puts their leaves back in front of the deferred ones, so the next backward
// reduces the leftover gradients (still Partial) again.
thread_local bool t_queued = false;
struct QueuedFlag {
  ~QueuedFlag() {
    t_queued = false;
    std::vector<Deferred> leftover;
    for (Launched& b : t_launched) {
      if (b.task) {
        try {
          b.task->wait();
        } catch (...) {  // the failed backward already reports its own error
        }
      }
      for (Launched::Slot& s : b.slots) leftover.push_back({s.leaf.impl_ptr(), s.want});
    }
    t_launched.clear();
    leftover.insert(leftover.end(), t_deferred.begin(), t_deferred.end());
    t_deferred.swap(leftover);
    t_deferred_bytes = 0;
  }
};
std::atomic<int64_t> g_all_reduce{0};
std::atomic<int64_t> g_overlapped{0};

// The gradients of one group share a mesh, a partial status and a dtype, so one flat buffer
// and one all-reduce per partial mesh dim serve them all.
struct Member {
  Tensor leaf;
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

// A view of `flat` at element `offset` with the dims `dims` (contiguous).
DenseTensor slot(const DenseTensor& flat, const Dims& dims, int64_t offset) {
  return flat.as_strided(dims, contiguous_strides(dims), offset);
}

std::vector<Reduction> reductions_of(const DistAttr& attr, int64_t rank, CommContext* ctx) {
  std::vector<Reduction> out;
  for (const auto& [axis, reduce] : attr.partial_status()) {
    AxisGroup g = axis_group("backward", attr.process_mesh(), axis, rank, ctx);
    if (g.group != nullptr) out.push_back({g.group, comm_reduce_op(reduce)});
  }
  return out;
}

// Packs members [begin, end) of `group` into one flat buffer and launches its first all-reduce.
void launch_bucket(const Group& group, size_t begin, size_t end, CommContext* ctx) {
  int64_t total = 0;
  for (size_t i = begin; i < end; ++i) total += group.members[i].grad->local_value().numel();
  Launched b;
  b.flat = DenseTensor::empty(Dims({total}), group.first->dtype());
  int64_t offset = 0;
  for (size_t i = begin; i < end; ++i) {
    const Member& m = group.members[i];
    const DenseTensor& local = m.grad->local_value();
    slot(b.flat, local.dims(), offset).copy_from(local);
    offset += local.numel();
    b.slots.push_back({m.leaf, m.grad->dims(), local.dims(), m.want, m.grad->rank()});
  }
  if (total > 0) b.reductions = reductions_of(group.first->dist_attr(), group.first->rank(), ctx);
  if (!b.reductions.empty()) {
    b.task = b.reductions.front().group->all_reduce(b.flat, b.reductions.front().op, false);
    g_all_reduce.fetch_add(1, std::memory_order_relaxed);
  }
  t_launched.push_back(std::move(b));
}

// Waits for `b`, applies its remaining partial mesh dims and replaces each leaf's `.grad` with
// the reduced value in the leaf's layout.
void land_bucket(Launched& b) {
  if (b.task) b.task->wait();
  for (size_t i = 1; i < b.reductions.size(); ++i) {
    b.reductions[i].group->all_reduce(b.flat, b.reductions[i].op, true)->wait();
    g_all_reduce.fetch_add(1, std::memory_order_relaxed);
  }
  int64_t offset = 0;
  for (Launched::Slot& s : b.slots) {
    DenseTensor reduced = DenseTensor::empty(s.local_dims, b.flat.dtype());
    reduced.copy_from(slot(b.flat, s.local_dims, offset));
    offset += reduced.numel();
    AutogradMeta* meta = autograd_meta(s.leaf);
    meta->grad =
        Tensor(std::make_shared<DistTensor>(s.global_dims, s.want, std::move(reduced), s.rank));
  }
}

// Packs the deferred leaves' gradients (all final) into buckets and launches them.
void launch_deferred(std::vector<Deferred> deferred) {
  std::vector<Group> groups;
  std::set<const TensorImpl*> seen;
  auto ctx = CommContext::global();
  for (Deferred& d : deferred) {
    std::shared_ptr<TensorImpl> impl = d.leaf.lock();
    // A leaf left over from a failed backward comes again in the next one: pack it once.
    if (!impl || !seen.insert(impl.get()).second) continue;
    Tensor leaf(impl);
    AutogradMeta* meta = autograd_meta(leaf);
    const DistTensor* g = meta != nullptr ? as_dist(meta->grad) : nullptr;
    // Already reduced (by an add of a later backward, say) or never Partial.
    if (g == nullptr || !g->dist_attr().is_partial()) continue;
    if (!g->in_mesh() || g->dist_attr().dims_mapping() != d.want.dims_mapping()) {
      meta->grad = reshard(meta->grad, d.want, ctx.get());  // nothing to pack on this process
      continue;
    }
    auto it = groups.begin();
    while (it != groups.end() && !same_group(*it->first, *g)) ++it;
    if (it == groups.end()) it = groups.insert(groups.end(), Group{g, {}});
    it->members.push_back({leaf, g, d.want});
  }
  // Members point into their leaves' `.grad`, which stays until their bucket lands.
  const int64_t cap = t_cap;
  for (const Group& group : groups) {
    size_t begin = 0;
    int64_t bytes = 0;
    for (size_t i = 0; i < group.members.size(); ++i) {
      const int64_t n = group.members[i].grad->local_value().nbytes();
      if (i > begin && bytes + n > cap) {
        launch_bucket(group, begin, i, ctx.get());
        begin = i;
        bytes = 0;
      }
      bytes += n;
    }
    launch_bucket(group, begin, group.members.size(), ctx.get());
  }
}

// The end of the outermost backward: launches what is left, then lands every bucket in order
// (a leaf packed twice, as a leftover and again, gets the later bucket's value).
void reduce_deferred() {
  std::vector<Deferred> deferred;
  deferred.swap(t_deferred);
  t_deferred_bytes = 0;
  launch_deferred(std::move(deferred));
  std::deque<Launched> launched;
  launched.swap(t_launched);
  for (Launched& b : launched) land_bucket(b);
}

}  // namespace

int64_t grad_bucket_bytes() {
  constexpr int64_t kDefault = int64_t{25} << 20;  // Paddle's DataParallel comm_buffer_size
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

void defer_leaf_reduction(const Tensor& leaf, const Tensor& grad, const DistAttr& want) {
  if (!t_queued) {
    t_queued = true;
    t_cap = grad_bucket_bytes();
    auto flag = std::make_shared<QueuedFlag>();
    autograd::queue_callback([flag] {
      t_queued = false;
      reduce_deferred();
    });
  } else if (t_deferred_bytes >= t_cap) {
    // The leaves deferred so far have their final gradients: their bucket's all-reduce runs
    // on the group's thread while backward goes on.
    std::vector<Deferred> ready;
    ready.swap(t_deferred);
    t_deferred_bytes = 0;
    launch_deferred(std::move(ready));
    g_overlapped.fetch_add(1, std::memory_order_relaxed);
  }
  t_deferred.push_back({leaf.impl_ptr(), want});
  t_deferred_bytes += as_dist(grad)->local_value().nbytes();
}

int64_t bucketed_all_reduce_count() { return g_all_reduce.load(std::memory_order_relaxed); }

int64_t overlapped_bucket_launches() { return g_overlapped.load(std::memory_order_relaxed); }

}  // namespace skiff::dist
