#include "skiff/ops/generated/kernels/autograd_support.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/reference/ref_loops.h"

namespace skiff::ops {

template <typename T>
void reduce_as_reference(const KernelContext&, const ReduceAsArgs& a) {
  DenseTensor& out = *a.out;
  reference::for_each_index(out.dims(), [&](const int64_t* idx) {
    reference::set<T>(out, reference::offset_of(out, idx), T{0});
  });
  // Every x element adds into the output element it broadcasts from.
  reference::for_each_index(a.x.dims(), [&](const int64_t* idx) {
    const int64_t o = reference::broadcast_offset(out, idx, a.x.rank());
    const T v = reference::get<T>(a.x, reference::offset_of(a.x, idx));
    reference::set<T>(out, o, static_cast<T>(reference::get<T>(out, o) + v));
  });
}
SKIFF_INSTANTIATE_KERNEL(reduce_as, reference)

}  // namespace skiff::ops
