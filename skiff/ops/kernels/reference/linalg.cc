// Reference kernels of the linalg ops: naive float64 (int64 for dot/outer on integers) loops.
#include "skiff/ops/generated/kernels/linalg.h"

#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/reference/ref_loops.h"

namespace skiff::ops {

using reference::for_each_index;
using reference::get;
using reference::offset_of;
using reference::set;

namespace {

// Element (i, j) of the matrix of `t` (rank >= 2) at batch index `bidx` (rank nb, numpy
// broadcast of t's leading dims), optionally transposed.
template <typename T>
T mat_at(const DenseTensor& t, const int64_t* bidx, int nb, int64_t i, int64_t j, bool trans) {
  const int r = t.rank();
  int64_t off = 0;
  for (int d = 0; d < r - 2; ++d) {
    if (t.dim(d) != 1) off += bidx[nb - (r - 2) + d] * t.strides()[d];
  }
  if (trans) std::swap(i, j);
  return get<T>(t, off + i * t.strides()[r - 2] + j * t.strides()[r - 1]);
}

// out[b] = sum_p x[b](i, p) * y[b](p, j) for 2-D-or-more x and y; c is out as [batch.., M, N].
template <typename T>
void matmul_loop(const DenseTensor& x, bool tx, const DenseTensor& y, bool ty, DenseTensor& c,
                 double alpha, double beta) {
  const int rc = c.rank();
  const int64_t m = c.dim(rc - 2), n = c.dim(rc - 1);
  const int64_t k = tx ? x.dim(x.rank() - 2) : x.dim(x.rank() - 1);
  Dims batch;
  for (int d = 0; d < rc - 2; ++d) batch.push_back(c.dim(d));
  for_each_index(batch, [&](const int64_t* b) {
    int64_t coff = 0;
    for (int d = 0; d < rc - 2; ++d) coff += b[d] * c.strides()[d];
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        using A = std::conditional_t<is_complex_v<T>, complex128, double>;
        A s = 0;
        for (int64_t p = 0; p < k; ++p) {
          s += static_cast<A>(mat_at<T>(x, b, rc - 2, i, p, tx)) *
               static_cast<A>(mat_at<T>(y, b, rc - 2, p, j, ty));
        }
        const int64_t o = coff + i * c.strides()[rc - 2] + j * c.strides()[rc - 1];
        const A prev = beta == 0.0 ? A(0) : static_cast<A>(get<T>(c, o));
        set<T>(c, o, static_cast<T>(alpha * s + beta * prev));
      }
    }
  });
}

DenseTensor with_dims(const DenseTensor& t, const Dims& d) {
  return t.as_strided(d, contiguous_strides(d), t.offset());
}

}  // namespace

template <typename T>
void matmul_reference(const KernelContext&, const MatmulArgs& a) {
  DenseTensor x = a.x, y = a.y;
  const bool x1 = x.rank() == 1, y1 = y.rank() == 1;
  // 1-D x is a [1, K] row, 1-D y a [K, 1] column (transposes do not apply to them).
  if (x1) x = x.as_strided(Dims{1, x.dim(0)}, Dims{0, x.strides()[0]}, x.offset());
  if (y1) y = y.as_strided(Dims{y.dim(0), 1}, Dims{y.strides()[0], 0}, y.offset());
  Dims cd = a.out->dims();
  if (x1) cd.insert(cd.size() - (y1 ? 0 : 1), 1);
  if (y1) cd.push_back(1);
  DenseTensor c = with_dims(*a.out, cd);
  matmul_loop<T>(x, a.transpose_x && !x1, y, a.transpose_y && !y1, c, 1.0, 0.0);
}
SKIFF_INSTANTIATE_KERNEL(matmul, reference)

template <typename T>
void bmm_reference(const KernelContext&, const BmmArgs& a) {
  matmul_loop<T>(a.x, false, a.y, false, *a.out, 1.0, 0.0);
}
SKIFF_INSTANTIATE_KERNEL(bmm, reference)

template <typename T>
void addmm_reference(const KernelContext&, const AddmmArgs& a) {
  DenseTensor& out = *a.out;
  const DenseTensor& in = a.input;
  for_each_index(out.dims(), [&](const int64_t* idx) {
    set<T>(out, offset_of(out, idx), get<T>(in, reference::broadcast_offset(in, idx, 2)));
  });
  matmul_loop<T>(a.x, false, a.y, false, out, a.alpha, a.beta);
}
SKIFF_INSTANTIATE_KERNEL(addmm, reference)

template <typename T>
void linear_reference(const KernelContext&, const LinearArgs& a) {
  DenseTensor& out = *a.out;
  const DenseTensor &x = a.x, &w = a.weight;
  const int r = x.rank();
  const int64_t k = w.dim(0), n = w.dim(1);
  Dims lead;
  for (int d = 0; d < r - 1; ++d) lead.push_back(x.dim(d));
  for_each_index(lead, [&](const int64_t* idx) {
    int64_t xo = 0, oo = 0;
    for (int d = 0; d < r - 1; ++d) {
      xo += idx[d] * x.strides()[d];
      oo += idx[d] * out.strides()[d];
    }
    for (int64_t j = 0; j < n; ++j) {
      double s = a.bias ? static_cast<double>(get<T>(*a.bias, j * a.bias->strides()[0])) : 0.0;
      for (int64_t p = 0; p < k; ++p) {
        s += static_cast<double>(get<T>(x, xo + p * x.strides()[r - 1])) *
             static_cast<double>(get<T>(w, p * w.strides()[0] + j * w.strides()[1]));
      }
      set<T>(out, oo + j * out.strides()[r - 1], static_cast<T>(s));
    }
  });
}
SKIFF_INSTANTIATE_KERNEL(linear, reference)

template <typename T>
void dot_reference(const KernelContext&, const DotArgs& a) {
  const DenseTensor &x = a.x, &y = a.y;
  DenseTensor& out = *a.out;
  const int r = x.rank();
  const int64_t rows = r == 1 ? 1 : x.dim(0), n = x.dim(r - 1);
  for (int64_t i = 0; i < rows; ++i) {
    T s = 0;
    for (int64_t p = 0; p < n; ++p) {
      const int64_t xo = (r == 2 ? i * x.strides()[0] : 0) + p * x.strides()[r - 1];
      const int64_t yo = (r == 2 ? i * y.strides()[0] : 0) + p * y.strides()[r - 1];
      s += get<T>(x, xo) * get<T>(y, yo);
    }
    set<T>(out, r == 2 ? i * out.strides()[0] : 0, s);
  }
}
SKIFF_INSTANTIATE_KERNEL(dot, reference)

template <typename T>
void outer_reference(const KernelContext&, const OuterArgs& a) {
  const DenseTensor x = a.x.contiguous(), y = a.y.contiguous();
  DenseTensor& out = *a.out;
  const int64_t m = x.numel(), n = y.numel();
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      set<T>(out, i * out.strides()[0] + j * out.strides()[1], get<T>(x, i) * get<T>(y, j));
    }
  }
}
SKIFF_INSTANTIATE_KERNEL(outer, reference)

}  // namespace skiff::ops
