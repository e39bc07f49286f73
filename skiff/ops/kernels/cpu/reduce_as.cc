// reduce_as: sums a gradient back to the shape of a broadcast operand. Output element j adds
// every input element that broadcasting mapped onto it; accumulation in double keeps the sum
// exact enough for float32 and independent of the thread count.
#include "skiff/ops/generated/kernels/autograd_support.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/loops.h"

namespace skiff::ops {

template <typename T>
void reduce_as_cpu(const KernelContext&, const ReduceAsArgs& a) {
  DenseTensor& out = *a.out;
  const DenseTensor x = a.x.contiguous();
  const int64_t n_out = out.numel();
  if (n_out == 0) return;
  using Acc = std::conditional_t<std::is_integral_v<T>, int64_t, double>;
  // Strides of the output read through x's shape: 0 on the reduced (broadcast) dims.
  const Dims out_strides = cpu::broadcast_strides(out, x.dims());
  const Dims& dims = x.dims();
  const T* px = static_cast<const T*>(x.raw_data());
  T* po = static_cast<T*>(out.raw_data());
  std::vector<Acc> acc(static_cast<size_t>(n_out), Acc{0});
  const int rank = dims.size();
  std::vector<int64_t> idx(rank, 0);
  for (int64_t i = 0; i < x.numel(); ++i) {
    int64_t o = 0;
    for (int d = 0; d < rank; ++d) o += idx[d] * out_strides[d];
    acc[o] += static_cast<Acc>(cpu::load(px[i]));
    for (int d = rank - 1; d >= 0 && ++idx[d] == dims[d]; --d) idx[d] = 0;
  }
  for (int64_t j = 0; j < n_out; ++j) po[j] = cpu::store<T>(static_cast<compute_t<T>>(acc[j]));
}
SKIFF_INSTANTIATE_KERNEL(reduce_as, cpu)

}  // namespace skiff::ops
