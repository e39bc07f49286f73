#include "skiff/ops/kernels/cpu/manipulation_util.h"

#include <algorithm>

#include "skiff/core/parallel.h"

namespace skiff::ops::cpu {

namespace {

// A run of the innermost table: out[begin + i] = src[base + src + i * step], or fill.
struct Run {
  int64_t begin, len, src, step;
  bool fill;
};

std::vector<Run> compress(const std::vector<int64_t>& t) {
  std::vector<Run> runs;
  const int64_t n = static_cast<int64_t>(t.size());
  int64_t i = 0;
  while (i < n) {
    if (t[i] == kFillOffset) {
      int64_t j = i + 1;
      while (j < n && t[j] == kFillOffset) ++j;
      runs.push_back({i, j - i, 0, 0, true});
      i = j;
      continue;
    }
    int64_t j = i + 1, step = 0;
    if (j < n && t[j] != kFillOffset) {
      step = t[j] - t[i];
      while (j < n && t[j] != kFillOffset && t[j] - t[j - 1] == step) ++j;
    }
    runs.push_back({i, j - i, t[i], step, false});
    i = j;
  }
  return runs;
}

}  // namespace

void table_copy(const DenseTensor& src, DenseTensor& out,
                const std::vector<std::vector<int64_t>>& tables, const void* fill) {
  const int64_t numel = out.numel();
  if (numel == 0) return;
  const int rank = out.rank();
  const int64_t n = rank ? out.dim(rank - 1) : 1;
  const std::vector<Run> runs =
      rank ? compress(tables[rank - 1]) : std::vector<Run>{{0, 1, 0, 0, false}};
  const int64_t outer = numel / n;
  visit_bytes(out.itemsize(), [&](auto tag) {
    using U = decltype(tag);
    const U* s = static_cast<const U*>(src.raw_data());
    U* o = static_cast<U*>(out.raw_data());
    U fv{};
    if (fill) std::memcpy(&fv, fill, sizeof(U));
    const int64_t grain = std::max<int64_t>(1, kParallelGrain / n);
    parallel_for(0, outer, grain, [&](int64_t b, int64_t e) {
      int64_t idx[kMaxRank] = {};
      int64_t rem = b;
      for (int d = rank - 2; d >= 0; --d) {
        idx[d] = rem % out.dim(d);
        rem /= out.dim(d);
      }
      for (int64_t row = b; row < e; ++row) {
        int64_t base = 0;
        bool fill_row = false;
        for (int d = 0; d < rank - 1; ++d) {
          const int64_t t = tables[d][idx[d]];
          // A fill axis makes the whole row fill; adding INT64_MIN to base would overflow.
          if (t == kFillOffset) {
            fill_row = true;
            break;
          }
          base += t;
        }
        U* orow = o + row * n;
        if (fill_row) {
          std::fill(orow, orow + n, fv);
        } else {
          for (const Run& r : runs) {
            U* po = orow + r.begin;
            if (r.fill) {
              std::fill(po, po + r.len, fv);
            } else if (r.step == 1) {
              std::memcpy(po, s + base + r.src, r.len * sizeof(U));
            } else if (r.step == 0) {
              std::fill(po, po + r.len, s[base + r.src]);
            } else {
              const U* ps = s + base + r.src;
              for (int64_t i = 0; i < r.len; ++i) po[i] = ps[i * r.step];
            }
          }
        }
        for (int d = rank - 2; d >= 0; --d) {  // next row
          if (++idx[d] < out.dim(d)) break;
          idx[d] = 0;
        }
      }
    });
  });
}

std::vector<std::vector<int64_t>> identity_tables(const DenseTensor& src, const Dims& out_dims) {
  const int rank = out_dims.size(), lead = rank - src.rank();
  std::vector<std::vector<int64_t>> t(rank);
  for (int d = 0; d < rank; ++d) {
    const int j = d - lead;
    const int64_t stride = (j >= 0 && src.dim(j) != 1) ? src.strides()[j] : 0;
    t[d].resize(out_dims[d]);
    for (int64_t i = 0; i < out_dims[d]; ++i) t[d][i] = i * stride;
  }
  return t;
}

std::vector<int64_t> index_values(const DenseTensor& index) {
  const DenseTensor c = index.contiguous();
  std::vector<int64_t> v(c.numel());
  if (c.dtype() == DType::kInt32) {
    const int32_t* p = static_cast<const int32_t*>(c.raw_data());
    std::copy(p, p + v.size(), v.begin());
  } else {
    const int64_t* p = static_cast<const int64_t*>(c.raw_data());
    std::copy(p, p + v.size(), v.begin());
  }
  return v;
}

std::vector<int64_t> read_indices(const char* op, const char* arg, const DenseTensor& index,
                                  int64_t n, bool allow_negative, const char* what) {
  std::vector<int64_t> v = index_values(index);
  const int64_t lo = allow_negative ? -n : 0;
  for (int64_t& i : v) {
    SKIFF_ENFORCE(i >= lo && i < n, kOutOfRange, op, arg,
                  str("values in [", lo, ", ", n, ") (", what, ")"), i);
    if (i < 0) i += n;
  }
  return v;
}

DenseTensor clone(const DenseTensor& x) {
  DenseTensor out = DenseTensor::empty(x.dims(), x.dtype(), x.place());
  out.copy_from(x);
  return out;
}

}  // namespace skiff::ops::cpu
