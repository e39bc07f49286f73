// Views over an iota tensor, each checked element by element against a naive index mapping:
// element idx of the view must hold the flat index of the source element it stands for.
#include "skiff/core/views.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "tests/cpp/core/test_util.h"

namespace skiff {
namespace {

using testing::at;
using testing::elements;
using testing::error_of;
using testing::flat;
using testing::for_each_index;
using testing::iota;
using Index = std::vector<int64_t>;

// A view of x with `shape` must list x's elements in x's row-major order.
void expect_reshape_of(const DenseTensor& view, const DenseTensor& x, const Dims& shape) {
  EXPECT_EQ(view.dims(), shape);
  EXPECT_TRUE(view.shares_storage_with(x));
  EXPECT_EQ(elements(view), elements(x)) << "reshape to " << shape << " of " << x.dims();
}

TEST(ViewsTest, ReshapeContiguous) {
  const DenseTensor x = iota({2, 3, 4});
  for (const Dims& shape : {Dims{24}, Dims{6, 4}, Dims{4, 3, 2}, Dims{1, 24, 1}, Dims{2, 1, 12}}) {
    auto v = try_view_reshape(x, shape);
    ASSERT_TRUE(v.has_value()) << shape;
    EXPECT_TRUE(v->is_contiguous());
    expect_reshape_of(*v, x, shape);
  }
  // A contiguous slice with an offset keeps its offset.
  const DenseTensor row = view_slice(x, 0, 1, 2);
  auto v = try_view_reshape(row, {12});
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->offset(), 12);
  expect_reshape_of(*v, row, {12});
}

TEST(ViewsTest, ReshapeNonContiguousWhereStridesAllow) {
  const DenseTensor x = iota({2, 3, 4});
  const int64_t perm[] = {1, 0, 2};
  const DenseTensor y = view_permute(x, perm);  // [3, 2, 4], strides [4, 12, 1]
  ASSERT_FALSE(y.is_contiguous());
  for (const Dims& shape :
       {Dims{3, 2, 2, 2}, Dims{3, 1, 2, 4, 1}, Dims{1, 3, 2, 4}, Dims{3, 2, 4}}) {
    auto v = try_view_reshape(y, shape);
    ASSERT_TRUE(v.has_value()) << shape;
    expect_reshape_of(*v, y, shape);
  }
  for (const Dims& shape : {Dims{24}, Dims{3, 8}, Dims{6, 4}, Dims{2, 3, 4}}) {
    EXPECT_FALSE(try_view_reshape(y, shape).has_value()) << shape;
  }
  const DenseTensor t = view_transpose(x, 1, 2);  // [2, 4, 3], strides [12, 1, 4]
  auto v = try_view_reshape(t, {2, 2, 2, 3});
  ASSERT_TRUE(v.has_value());
  expect_reshape_of(*v, t, {2, 2, 2, 3});
  EXPECT_FALSE(try_view_reshape(t, {8, 3}).has_value());
  EXPECT_FALSE(try_view_reshape(t, {2, 12}).has_value());
  // A strided slice whose rows still line up merges into one strided dim.
  const DenseTensor s = view_slice(iota({2, 6}), 1, 0, 6, 2);  // [2, 3], strides [6, 2]
  v = try_view_reshape(s, {6});
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->strides(), Dims{2});
  expect_reshape_of(*v, s, {6});
  EXPECT_FALSE(try_view_reshape(view_slice(iota({2, 5}), 1, 0, 5, 2), {6}).has_value());
}

TEST(ViewsTest, ReshapeSizeOneAndZeroSizeAndExpanded) {
  // Size-1 dims with arbitrary strides carry no layout.
  const DenseTensor base = iota({6});
  const DenseTensor odd = base.as_strided({2, 1, 3}, {3, 100, 1}, 0);
  auto v = try_view_reshape(odd, {6});
  ASSERT_TRUE(v.has_value());
  expect_reshape_of(*v, odd, {6});
  // Zero-size tensors reshape to any zero-size shape.
  const DenseTensor z = view_transpose(iota({0, 3}), 0, 1);
  for (const Dims& shape : {Dims{0}, Dims{3, 0}, Dims{0, 5}}) {
    v = try_view_reshape(z, shape);
    ASSERT_TRUE(v.has_value()) << shape;
    EXPECT_EQ(v->numel(), 0);
  }
  // Expanded (stride 0) dims can be split but not merged with real ones.
  const DenseTensor e = view_expand(iota({1, 3}), {4, 3});
  v = try_view_reshape(e, {2, 2, 3});
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->strides(), (Dims{0, 0, 1}));
  expect_reshape_of(*v, e, {2, 2, 3});
  EXPECT_FALSE(try_view_reshape(e, {12}).has_value());
  v = try_view_reshape(e, {4, 3, 1});
  ASSERT_TRUE(v.has_value());
  expect_reshape_of(*v, e, {4, 3, 1});
}

TEST(ViewsTest, ReshapeRejectsAnotherElementCount) {
  const DenseTensor x = iota({2, 3});
  EXPECT_HAS(error_of([&] { try_view_reshape(x, {5}); }), "reshape");
  const DenseTensor t = view_transpose(x, 0, 1);
  // Without the check this returned a 3-element view of the transposed tensor.
  const std::string msg = error_of([&] { try_view_reshape(t, {3}); });
  EXPECT_HAS(msg, "reshape");
  EXPECT_HAS(msg, "'shape'");
  EXPECT_HAS(msg, "[3]");
  EXPECT_NE(error_of([&] { try_view_reshape(t, {6, 2}); }), "no error");
}

TEST(ViewsTest, InferReshapeDims) {
  const int64_t a[] = {-1, 4};
  EXPECT_EQ(infer_reshape_dims({2, 3, 4}, a, "reshape"), (Dims{6, 4}));
  const int64_t b[] = {0, -1};
  EXPECT_EQ(infer_reshape_dims({2, 3, 4}, b, "reshape"), (Dims{2, 12}));
  const int64_t c[] = {0, 0, 2, 2};
  EXPECT_EQ(infer_reshape_dims({2, 3, 4}, c, "reshape"), (Dims{2, 3, 2, 2}));
  const int64_t d[] = {-1};
  EXPECT_EQ(infer_reshape_dims({0, 3}, d, "reshape"), Dims{0});
  const int64_t e[] = {-1, 3};
  EXPECT_EQ(infer_reshape_dims({0, 3}, e, "reshape"), (Dims{0, 3}));
  EXPECT_EQ(infer_reshape_dims({}, d, "reshape"), Dims{1});
  EXPECT_EQ(infer_reshape_dims({1}, {}, "reshape"), Dims{});
  // Symbolic inputs with run-time sizes (-1): the inferred dim is unknown as well.
  EXPECT_EQ(infer_reshape_dims({-1, 2, 3}, b, "reshape"), (Dims{-1, -1}));
  const int64_t f[] = {-1, 6};
  EXPECT_EQ(infer_reshape_dims({-1, 2, 3}, f, "reshape"), (Dims{-1, 6}));
  const int64_t g[] = {0, 16};
  EXPECT_EQ(infer_reshape_dims({-1, 16}, g, "reshape"), (Dims{-1, 16}));

  const int64_t two[] = {-1, -1};
  std::string msg = error_of([&] { infer_reshape_dims({2, 3}, two, "reshape"); });
  EXPECT_HAS(msg, "reshape: argument 'shape'");
  EXPECT_HAS(msg, "at most one -1");
  EXPECT_HAS(msg, "[-1, -1]");
  const int64_t bad[] = {4, -1};
  msg = error_of([&] { infer_reshape_dims({2, 3}, bad, "view"); });
  EXPECT_HAS(msg, "view: argument 'shape'");
  EXPECT_HAS(msg, "[2, 3]");
  EXPECT_HAS(msg, "[4, -1]");
  const int64_t wrong[] = {4, 2};
  msg = error_of([&] { infer_reshape_dims({2, 3}, wrong, "reshape"); });
  EXPECT_HAS(msg, "6 elements");
  EXPECT_HAS(msg, "[4, 2]");
  const int64_t zero_out[] = {2, 3, 0};
  EXPECT_HAS(error_of([&] { infer_reshape_dims({6}, zero_out, "reshape"); }), "0 at 2");
  const int64_t neg[] = {-2, 3};
  EXPECT_HAS(error_of([&] { infer_reshape_dims({6}, neg, "reshape"); }), "[-2, 3]");
  const int64_t ambiguous[] = {0, -1};
  EXPECT_NE(error_of([&] { infer_reshape_dims({0, 3}, ambiguous, "reshape"); }), "no error");
}

TEST(ViewsTest, PermuteEveryOrder) {
  const DenseTensor x = iota({2, 3, 4});
  std::vector<int64_t> perm = {0, 1, 2};
  do {
    for (bool negative : {false, true}) {
      std::vector<int64_t> p = perm;
      if (negative) {
        for (auto& a : p) a -= 3;
      }
      const DenseTensor y = view_permute(x, p);
      ASSERT_TRUE(y.shares_storage_with(x));
      for (int i = 0; i < 3; ++i) EXPECT_EQ(y.dim(i), x.dim(static_cast<int>(perm[i])));
      for_each_index(y.dims(), [&](const Index& idx) {
        Index src(3);
        for (int i = 0; i < 3; ++i) src[perm[i]] = idx[i];
        ASSERT_EQ(at(y, idx), flat(x.dims(), src));
      });
    }
  } while (std::next_permutation(perm.begin(), perm.end()));
}

TEST(ViewsTest, Transpose) {
  const DenseTensor x = iota({2, 3, 4});
  const DenseTensor y = view_transpose(x, -1, 0);  // [4, 3, 2]
  EXPECT_EQ(y.dims(), (Dims{4, 3, 2}));
  for_each_index(y.dims(), [&](const Index& idx) {
    ASSERT_EQ(at(y, idx), flat(x.dims(), {idx[2], idx[1], idx[0]}));
  });
  EXPECT_EQ(elements(view_transpose(x, 1, 1)), elements(x));
  // A 0-D tensor transposes to itself (axes 0 and -1 name its only position).
  const DenseTensor s = iota({});
  const DenseTensor st = view_transpose(s, 0, -1);
  EXPECT_EQ(st.rank(), 0);
  EXPECT_EQ(elements(st), elements(s));
  EXPECT_HAS(error_of([&] { view_transpose(s, 0, 1); }), "transpose");
}

// Python's slice(start, end, step).indices(n) for step > 0, written independently.
std::vector<int64_t> python_slice(int64_t n, int64_t start, int64_t end, int64_t step) {
  auto fix = [n](int64_t v) {
    if (v < 0) v += n;
    return std::min(std::max<int64_t>(v, 0), n);
  };
  std::vector<int64_t> out;
  for (int64_t i = fix(start); i < fix(end); i += step) out.push_back(i);
  return out;
}

TEST(ViewsTest, SliceWithStepsAndNegativeIndices) {
  const DenseTensor x = iota({3, 7, 2});
  for (int64_t axis : {0, 1, 2, -2}) {
    const int a = axis < 0 ? static_cast<int>(axis) + 3 : static_cast<int>(axis);
    const int64_t n = x.dim(a);
    for (int64_t start : {-9, -3, -1, 0, 1, 2, 6, 8}) {
      for (int64_t end : {-8, -2, 0, 1, 3, 7, 100}) {
        for (int64_t step : {1, 2, 3, 5}) {
          const DenseTensor y = view_slice(x, axis, start, end, step);
          const auto picks = python_slice(n, start, end, step);
          ASSERT_EQ(y.dim(a), static_cast<int64_t>(picks.size()))
              << axis << " " << start << ":" << end << ":" << step;
          EXPECT_TRUE(y.shares_storage_with(x));
          for_each_index(y.dims(), [&](const Index& idx) {
            Index src = idx;
            src[a] = picks[idx[a]];
            ASSERT_EQ(at(y, idx), flat(x.dims(), src));
          });
        }
      }
    }
  }
  // Slices of slices compose offsets and strides.
  const DenseTensor y = view_slice(view_slice(x, 1, 1, 7, 2), 1, 1, 3, 1);  // columns 3, 5
  for_each_index(y.dims(), [&](const Index& idx) {
    ASSERT_EQ(at(y, idx), flat(x.dims(), {idx[0], 3 + 2 * idx[1], idx[2]}));
  });
}

TEST(ViewsTest, SliceErrors) {
  const DenseTensor x = iota({3, 4});
  std::string msg = error_of([&] { view_slice(x, 0, 0, 3, 0); });
  EXPECT_HAS(msg, "slice: argument 'step'");
  EXPECT_HAS(msg, "got 0");
  msg = error_of([&] { view_slice(x, 2, 0, 3); });
  EXPECT_HAS(msg, "slice: argument 'axis'");
  EXPECT_HAS(msg, "got 2");
  EXPECT_HAS(error_of([&] { view_slice(x, 0, 0, 3, -1); }), "got -1");
  msg = error_of([&] { view_slice(iota({}), 0, 0, 1); });
  EXPECT_HAS(msg, "slice");
  EXPECT_HAS(msg, "0-D");
}

TEST(ViewsTest, SqueezeAndUnsqueeze) {
  const DenseTensor x = view_transpose(iota({1, 3, 1, 2}), 1, 3);  // [1, 2, 1, 3]
  const auto want = elements(x);
  DenseTensor y = view_squeeze(x, {});
  EXPECT_EQ(y.dims(), (Dims{2, 3}));
  EXPECT_EQ(elements(y), want);
  const int64_t ax0[] = {0};
  EXPECT_EQ(view_squeeze(x, ax0).dims(), (Dims{2, 1, 3}));
  const int64_t ax_neg[] = {-2, 0};
  y = view_squeeze(x, ax_neg);
  EXPECT_EQ(y.dims(), (Dims{2, 3}));
  EXPECT_EQ(elements(y), want);
  const int64_t not_one[] = {1};  // size 2: ignored, as in Paddle
  EXPECT_EQ(view_squeeze(x, not_one).dims(), x.dims());
  const int64_t out_of_range[] = {4};
  std::string msg = error_of([&] { view_squeeze(x, out_of_range); });
  EXPECT_HAS(msg, "squeeze: argument 'axis'");
  EXPECT_HAS(msg, "got 4");

  const DenseTensor z = view_transpose(iota({2, 3}), 0, 1);  // [3, 2]
  const int64_t front[] = {0}, back[] = {-1}, both[] = {0, 2}, mid[] = {1};
  EXPECT_EQ(view_unsqueeze(z, front).dims(), (Dims{1, 3, 2}));
  EXPECT_EQ(view_unsqueeze(z, back).dims(), (Dims{3, 2, 1}));
  EXPECT_EQ(view_unsqueeze(z, both).dims(), (Dims{1, 3, 1, 2}));
  EXPECT_EQ(view_unsqueeze(z, mid).dims(), (Dims{3, 1, 2}));
  for (auto axes : {std::span<const int64_t>(front), std::span<const int64_t>(back),
                    std::span<const int64_t>(both), std::span<const int64_t>(mid)}) {
    const DenseTensor u = view_unsqueeze(z, axes);
    EXPECT_TRUE(u.shares_storage_with(z));
    EXPECT_EQ(elements(u), elements(z));
    EXPECT_EQ(elements(view_squeeze(u, {})), elements(z));
  }
  const int64_t too_far[] = {3};
  msg = error_of([&] { view_unsqueeze(z, too_far); });
  EXPECT_HAS(msg, "unsqueeze: argument 'axis'");
  EXPECT_HAS(msg, "got 3");
  EXPECT_EQ(view_unsqueeze(iota({}), front).dims(), Dims{1});
}

TEST(ViewsTest, ExpandWithStrideZero) {
  const DenseTensor x = view_slice(iota({3, 2}), 1, 1, 2);  // [3, 1], the odd column
  const DenseTensor y = view_expand(x, {2, 3, 4});
  EXPECT_EQ(y.dims(), (Dims{2, 3, 4}));
  EXPECT_EQ(y.strides()[0], 0);
  EXPECT_EQ(y.strides()[2], 0);
  EXPECT_TRUE(y.shares_storage_with(x));
  for_each_index(y.dims(), [&](const Index& idx) { ASSERT_EQ(at(y, idx), 2 * idx[1] + 1); });
  EXPECT_EQ(view_expand(x, {-1, 5}).dims(), (Dims{3, 5}));
  EXPECT_EQ(view_expand(x, {3, 1}).dims(), (Dims{3, 1}));
  EXPECT_EQ(view_expand(x, {3, 0}).numel(), 0);
  EXPECT_EQ(view_expand(iota({}), {2, 2}).strides(), (Dims{0, 0}));

  std::string msg = error_of([&] { view_expand(x, {4, 4}); });
  EXPECT_HAS(msg, "expand: argument 'shape'");
  EXPECT_HAS(msg, "[3, 1]");
  EXPECT_HAS(msg, "[4, 4]");
  EXPECT_HAS(error_of([&] { view_expand(x, {3}); }), "at least 2 dims");
  EXPECT_HAS(error_of([&] { view_expand(x, {-1, 3, 1}); }), "-1 only for existing dims");
  msg = error_of([&] { view_expand(x, {3, -2}); });  // was accepted as a dim of -2
  EXPECT_HAS(msg, "expand: argument 'shape'");
  EXPECT_HAS(msg, "[3, -2]");
}

TEST(ViewsTest, DiagonalWithOffsets) {
  const DenseTensor m = iota({3, 4});
  const DenseTensor c = iota({2, 3, 4});
  struct Case {
    const DenseTensor* x;
    int64_t offset, axis1, axis2;
  };
  std::vector<Case> cases;
  for (int64_t off : {-4, -3, -2, -1, 0, 1, 2, 3, 4, 5}) {
    cases.push_back({&m, off, 0, 1});
    cases.push_back({&m, off, 1, 0});
    cases.push_back({&c, off, 1, 2});
    cases.push_back({&c, off, 0, 2});
    cases.push_back({&c, off, -1, 0});
  }
  for (const Case& k : cases) {
    const DenseTensor& x = *k.x;
    const DenseTensor y = view_diagonal(x, k.offset, k.axis1, k.axis2);
    const int a1 = static_cast<int>((k.axis1 + x.rank()) % x.rank());
    const int a2 = static_cast<int>((k.axis2 + x.rank()) % x.rank());
    // Naive length: count (i, j) on the diagonal j - i == offset.
    int64_t len = 0;
    for (int64_t i = 0; i < x.dim(a1); ++i) {
      const int64_t j = i + k.offset;
      if (j >= 0 && j < x.dim(a2)) ++len;
    }
    ASSERT_EQ(y.rank(), x.rank() - 1);
    ASSERT_EQ(y.dims().back(), len) << k.offset << " " << k.axis1 << " " << k.axis2;
    EXPECT_TRUE(y.shares_storage_with(x));
    for_each_index(y.dims(), [&](const Index& idx) {
      const int64_t d = idx.back();
      const int64_t i = k.offset >= 0 ? d : d - k.offset;
      Index src(x.rank());
      int r = 0;
      for (int ax = 0; ax < x.rank(); ++ax) {
        if (ax != a1 && ax != a2) src[ax] = idx[r++];
      }
      src[a1] = i;
      src[a2] = i + k.offset;
      ASSERT_EQ(at(y, idx), flat(x.dims(), src)) << k.offset;
    });
  }
  std::string msg = error_of([&] { view_diagonal(m, 0, 1, -1); });
  EXPECT_HAS(msg, "diagonal: argument 'axis2'");
  EXPECT_HAS(error_of([&] { view_diagonal(m, 0, 0, 2); }), "diagonal: argument 'axis2'");
  EXPECT_HAS(error_of([&] { view_diagonal(m, 0, -3, 1); }), "diagonal: argument 'axis1'");
}

TEST(ViewsTest, BadInputMessagesNameOpArgumentAndValues) {
  const DenseTensor x = iota({2, 3, 4});
  const int64_t short_perm[] = {0, 1};
  std::string msg = error_of([&] { view_permute(x, short_perm); });
  EXPECT_HAS(msg, "transpose: argument 'perm'");
  EXPECT_HAS(msg, "3 axes");
  EXPECT_HAS(msg, "[0, 1]");
  const int64_t dup[] = {0, 2, 0};
  msg = error_of([&] { view_permute(x, dup); });
  EXPECT_HAS(msg, "transpose: argument 'perm'");
  EXPECT_HAS(msg, "each axis exactly once");
  EXPECT_HAS(msg, "[0, 2, 0]");
  const int64_t big[] = {0, 1, 3};
  msg = error_of([&] { view_permute(x, big); });
  EXPECT_HAS(msg, "transpose: argument 'perm'");
  EXPECT_HAS(msg, "got 3");
  msg = error_of([&] { view_transpose(x, 0, 5); });
  EXPECT_HAS(msg, "transpose: argument 'dim1'");
  EXPECT_HAS(msg, "got 5");
  msg = error_of([&] { view_transpose(x, -4, 0); });
  EXPECT_HAS(msg, "transpose: argument 'dim0'");
  EXPECT_HAS(msg, "got -4");
}

}  // namespace
}  // namespace skiff
