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
  using Acc = std::conditional_t<std::is_integral_v<T>, int64_t,
                                 std::conditional_t<is_complex_v<T>, complex128, double>>;
  // Strides of the output read through x's shape: 0 on the reduced (broadcast) dims.
  const Dims out_strides = cpu::broadcast_strides(out, x.dims());
  const Dims& dims = x.dims();
  const T* px = static_cast<const T*>(x.raw_data());
  T* po = static_cast<T*>(out.raw_data());
  std::vector<Acc> acc(static_cast<size_t>(n_out), Acc{0});
  const int rank = dims.size();
  // The shapes autodiff produces (a bias gradient: leading dims summed; a keepdim row sum:
  // trailing dims summed) as plain loops over contiguous runs; other layouts index per element.
  // Does out keep exactly the dims [lo, hi), contiguously, and sum over all others?
  auto keeps = [&](int lo, int hi) {
    int64_t stride = 1;
    for (int d = rank - 1; d >= 0; --d) {
      if (dims[d] == 1) continue;
      const bool kept = d >= lo && d < hi;
      if (out_strides[d] != (kept ? stride : 0)) return false;
      if (kept) stride *= dims[d];
    }
    return stride == n_out;
  };
  int split = rank;  // leading dims [0, split) summed
  for (int64_t n = 1; split > 0 && n < n_out;) n *= dims[--split];
  int keep = 0;  // trailing dims [keep, rank) summed
  for (int64_t n = 1; keep < rank && n < n_out;) n *= dims[keep++];
  const bool leading_reduced = keeps(split, rank);
  const bool trailing_reduced = !leading_reduced && keeps(0, keep);
  const int64_t inner = n_out;
  if (leading_reduced) {
    const int64_t rows = x.numel() / inner;
    for (int64_t r = 0; r < rows; ++r) {
      const T* row = px + r * inner;
      for (int64_t j = 0; j < inner; ++j) acc[j] += static_cast<Acc>(cpu::load(row[j]));
    }
  } else if (trailing_reduced) {
    const int64_t run = x.numel() / n_out;
    for (int64_t j = 0; j < n_out; ++j) {
      const T* r = px + j * run;
      Acc sum{0};
      for (int64_t k = 0; k < run; ++k) sum += static_cast<Acc>(cpu::load(r[k]));
      acc[j] = sum;
    }
  }
  if (leading_reduced || trailing_reduced) {
    for (int64_t j = 0; j < n_out; ++j) po[j] = cpu::store<T>(static_cast<compute_t<T>>(acc[j]));
    return;
  }
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
