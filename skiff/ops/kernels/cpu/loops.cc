#include "skiff/ops/kernels/cpu/loops.h"

namespace skiff::ops::cpu {

Dims broadcast_strides(const DenseTensor& t, const Dims& out) {
  Dims s = Dims::filled(out.size(), 0);
  const int lead = out.size() - t.rank();
  for (int i = 0; i < t.rank(); ++i) {
    s[lead + i] = t.dim(i) == out[lead + i] ? t.strides()[i] : 0;
  }
  return s;
}

}  // namespace skiff::ops::cpu
