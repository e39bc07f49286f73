// The current main job: a tour of tensors and operators from C++. It builds tensors, runs
// elementwise math with broadcasting and type promotion, takes views, and prints results and
// allocator statistics. Later issues replace it with model training.
#include <iostream>

#include "skiff/core/allocator.h"
#include "skiff/core/views.h"
#include "skiff/ops/generated/api.h"
#include "skiff/ops/kernels/cpu/isa.h"

namespace {

void print(const char* label, const skiff::Tensor& t) {
  const skiff::DenseTensor d = t.dense().contiguous();
  std::cout << label << " shape=" << t.dims() << " dtype=" << t.dtype() << " values=[";
  skiff::visit_dtype(d.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* p = static_cast<const T*>(d.raw_data());
    for (int64_t i = 0; i < d.numel() && i < 12; ++i) {
      std::cout << (i ? ", " : "") << static_cast<double>(static_cast<skiff::compute_t<T>>(p[i]));
    }
  });
  std::cout << (d.numel() > 12 ? ", ...]" : "]") << '\n';
}

skiff::Tensor filled(const skiff::Dims& dims, skiff::DType dtype, double start, double step) {
  skiff::DenseTensor t = skiff::DenseTensor::empty(dims, skiff::DType::kFloat64);
  double* p = t.data<double>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = start + step * static_cast<double>(i);
  return skiff::cast(skiff::Tensor(t), dtype);
}

}  // namespace

int main() {
  using skiff::DType;
  std::cout << "Skiff demo (CPU kernels compiled for "
            << skiff::ops::cpu::cpu_isa_name(skiff::ops::cpu::cpu_isa()) << ")\n";
  skiff::Tensor a = filled({2, 3}, DType::kFloat32, 0.0, 1.0);
  skiff::Tensor b = filled({3}, DType::kFloat32, 10.0, 10.0);
  print("a", a);
  print("b", b);
  print("a + b (broadcast)", skiff::add(a, b));
  print("a * b", skiff::multiply(a, b));
  skiff::Tensor ints = filled({2, 3}, DType::kInt32, 1.0, 1.0);
  print("ints / 2 (true division)", skiff::divide(ints, filled({}, DType::kInt32, 2.0, 0.0)));
  print("a(float32) + ints(int32) promotes", skiff::add(a, ints));
  skiff::Tensor h = skiff::cast(a, DType::kBFloat16);
  print("bf16(a) - 0.5", skiff::subtract(h, filled({}, DType::kBFloat16, 0.5, 0.0)));
  skiff::Tensor t(skiff::view_transpose(a.dense(), 0, 1));
  print("transpose(a) (a view)", t);
  std::cout << "transpose shares storage: " << std::boolalpha
            << t.dense().shares_storage_with(a.dense()) << '\n';
  const auto stats = skiff::allocator_for(skiff::Place::cpu())->stats();
  std::cout << "allocator: " << stats.num_allocs << " allocations served by "
            << stats.num_device_allocs << " chunk(s); peak " << stats.peak_allocated_bytes
            << " bytes allocated\n";
  return 0;
}
