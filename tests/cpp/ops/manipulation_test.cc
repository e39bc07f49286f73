// Behaviour of the manipulation and indexing ops beyond the generic consistency test: views
// share storage (and writes through them reach the base), copies do not, bad inputs raise the
// right code with the op, the argument and the value in the message, in both backends, and
// exact Paddle semantics of a few edge cases.
#include <gtest/gtest.h>

#include <cmath>

#include "error_expectations.h"
#include "op_test_util.h"
#include "skiff/ops/dispatch.h"
#include "skiff/ops/generated/dense/all.h"

namespace skiff::testing {
namespace {

namespace d = ops::dense;
using L = std::vector<int64_t>;

DenseTensor iota(const Dims& dims, DType dtype = DType::kFloat64) {
  std::vector<double> v(dims.numel());
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i);
  return make_tensor(dims, dtype, v);
}

DenseTensor ints(const Dims& dims, const std::vector<double>& v) {
  return make_tensor(dims, DType::kInt64, v);
}

// Bad input must be refused alike by the CPU kernels and the reference kernels.
template <typename F>
void expect_error_on_every_backend(const F& f, ErrorCode code,
                                   const std::vector<std::string>& parts) {
  for (Backend b : {Backend::kCPU, Backend::kReference}) {
    SCOPED_TRACE(b == Backend::kCPU ? "cpu backend" : "reference backend");
    ops::ScopedBackend scoped(b);
    expect_error(f, code, parts);
  }
}

// Writing 100 through `view` at element 0 must be visible in `base` at flat position `pos`.
void expect_aliases(const DenseTensor& base, const DenseTensor& view, int64_t pos) {
  ASSERT_TRUE(view.shares_storage_with(base));
  ASSERT_GT(view.numel(), 0);
  static_cast<double*>(view.raw_data())[0] = 100.0;
  EXPECT_EQ(to_doubles(base)[pos], 100.0) << "position " << pos;
}

TEST(ManipulationViews, ViewOpsShareStorage) {
  {
    DenseTensor x = iota({2, 3, 4});
    expect_aliases(x, d::reshape(x, L{4, -1}), 0);
    expect_aliases(x, d::flatten(x, 1, 2), 0);
    expect_aliases(x, d::transpose(x, L{2, 0, 1}), 0);
    expect_aliases(x, d::unsqueeze(x, L{0}), 0);
    expect_aliases(x, d::slice(x, L{1, 2}, L{1, 2}, L{3, 4}), 6);
    expect_aliases(x, d::strided_slice(x, L{2}, L{1}, L{4}, L{2}), 1);
    expect_aliases(x, d::diagonal(x, 1, 1, 2), 1);
    const auto pieces = d::split(x, L{1, 2}, 1);
    expect_aliases(x, pieces[1], 4);
    expect_aliases(x, d::chunk(x, 2, 2)[1], 2);
    expect_aliases(x, d::split_with_num(x, 2, 0)[1], 12);
    expect_aliases(x, d::unbind(x, 1)[2], 8);
  }
  {
    DenseTensor x = iota({1, 3, 1});
    expect_aliases(x, d::squeeze(x, L{}), 0);
    // expand/broadcast_to are copies, as in Paddle: writing the result never writes x.
    const DenseTensor src = iota({1, 3, 1});
    for (const DenseTensor& e : {d::expand(src, L{2, 3, 5}), d::broadcast_to(src, L{4, 3, 2})}) {
      EXPECT_FALSE(e.shares_storage_with(src));
      EXPECT_TRUE(e.is_contiguous());
      const double first = to_doubles(src)[0];
      static_cast<double*>(e.raw_data())[0] = first + 100.0;
      EXPECT_EQ(to_doubles(src)[0], first);
      EXPECT_EQ(to_doubles(e)[1], first);  // x[0] broadcast along the last dim
    }
  }
}

TEST(ManipulationViews, CopiesWhenNotViewable) {
  DenseTensor x = iota({3, 4});
  DenseTensor t = d::transpose(x, L{1, 0});  // non-contiguous view
  DenseTensor r = d::reshape(t, L{12});      // cannot be a view of t
  EXPECT_FALSE(r.shares_storage_with(x));
  EXPECT_EQ(to_doubles(r), (std::vector<double>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  DenseTensor f = d::flatten(t);
  EXPECT_FALSE(f.shares_storage_with(x));
  DenseTensor n = d::strided_slice(x, L{1}, L{-1}, L{-5}, L{-2});
  EXPECT_FALSE(n.shares_storage_with(x));
  EXPECT_EQ(to_doubles(n), (std::vector<double>{3, 1, 7, 5, 11, 9}));
  // A reshape of a transposed tensor that splits only a contiguous dim stays a view.
  DenseTensor u = d::reshape(iota({4, 6}), L{4, 2, 3});
  EXPECT_TRUE(d::reshape(d::transpose(u, L{0, 2, 1}), L{4, 3, 2}).shares_storage_with(u));
}

TEST(ManipulationViews, ReferenceReturnsFreshTensors) {
  ops::ScopedBackend scoped(Backend::kReference);
  DenseTensor x = iota({2, 3}, DType::kFloat64);
  DenseTensor r = d::transpose(x, L{1, 0});
  EXPECT_FALSE(r.shares_storage_with(x));
  EXPECT_EQ(to_doubles(r), (std::vector<double>{0, 3, 1, 4, 2, 5}));
}

TEST(ManipulationErrors, IndicesOutOfRange) {
  const DenseTensor x = iota({4, 3});
  expect_error_on_every_backend(
      [&] {
        d::gather(x, ints({2}, {1, 7}), 0);
      },
      ErrorCode::kOutOfRange, {"gather", "'index'", "got 7", "[0, 4)"});
  expect_error_on_every_backend([&] { d::gather(x, ints({1}, {-1}), 0); }, ErrorCode::kOutOfRange,
                                {"gather", "'index'", "got -1"});
  expect_error_on_every_backend([&] { d::index_select(x, ints({1}, {3}), 1); },
                                ErrorCode::kOutOfRange, {"index_select", "'index'", "got 3"});
  expect_error_on_every_backend(
      [&] {
        d::gather_nd(x, ints({1, 2}, {0, 5}));
      },
      ErrorCode::kOutOfRange, {"gather_nd", "'index'", "got 5"});
  expect_error_on_every_backend(
      [&] {
        d::take_along_axis(x, ints({1, 3}, {0, -5, 1}), 0);
      },
      ErrorCode::kOutOfRange, {"take_along_axis", "'indices'", "got -5"});
  expect_error_on_every_backend(
      [&] {
        d::scatter(x, ints({1}, {4}), iota({1, 3}));
      },
      ErrorCode::kOutOfRange, {"scatter", "'index'", "got 4"});
  expect_error_on_every_backend(
      [&] {
        d::scatter_nd_add(x, ints({1, 1}, {9}), iota({1, 3}));
      },
      ErrorCode::kOutOfRange, {"scatter_nd_add", "'index'", "got 9"});
  expect_error_on_every_backend(
      [&] {
        d::index_add(x, ints({1}, {4}), 0, iota({1, 3}));
      },
      ErrorCode::kOutOfRange, {"index_add", "'index'", "got 4"});
  expect_error_on_every_backend(
      [&] {
        d::put_along_axis(x, ints({4, 1}, {0, 1, 2, 3}), iota({4, 1}), 1);
      },
      ErrorCode::kOutOfRange, {"put_along_axis", "'indices'", "got 3"});
}

TEST(ManipulationErrors, ShapesDtypesAxes) {
  const DenseTensor a = iota({2, 3}), b = iota({2, 4});
  expect_error_on_every_backend(
      [&] {
        d::concat({a, b}, 0);
      },
      ErrorCode::kInvalidArgument, {"concat", "'x[1]'", "[2, 4]"});
  expect_error_on_every_backend(
      [&] {
        d::concat({a, iota({2, 3}, DType::kInt32)}, 0);
      },
      ErrorCode::kTypeError, {"concat", "'x[1]'", "int32"});
  expect_error_on_every_backend([&] { d::concat({a}, 2); }, ErrorCode::kOutOfRange,
                                {"concat", "'axis'", "got 2"});
  expect_error_on_every_backend(
      [&] {
        d::stack({a, b}, 0);
      },
      ErrorCode::kInvalidArgument, {"stack", "'x[1]'"});
  expect_error_on_every_backend(
      [&] {
        d::reshape(a, L{4, -1});
      },
      ErrorCode::kInvalidArgument, {"reshape", "'shape'", "[4, -1]"});
  expect_error_on_every_backend(
      [&] {
        d::transpose(a, L{0, 0});
      },
      ErrorCode::kInvalidArgument, {"transpose", "'perm'"});
  expect_error_on_every_backend(
      [&] {
        d::expand(a, L{4, 3});
      },
      ErrorCode::kInvalidArgument, {"expand", "'shape'", "[4, 3]"});
  expect_error_on_every_backend([&] { d::broadcast_to(a, L{3}); }, ErrorCode::kInvalidArgument,
                                {"broadcast_to", "'shape'"});
  expect_error_on_every_backend(
      [&] {
        d::split(a, L{1, 1}, 1);
      },
      ErrorCode::kInvalidArgument, {"split", "'sections'", "[1, 1]"});
  expect_error_on_every_backend([&] { d::chunk(a, 2, 1); }, ErrorCode::kInvalidArgument,
                                {"chunk", "'chunks'", "got 2"});
  expect_error_on_every_backend([&] { d::flip(a, L{2}); }, ErrorCode::kOutOfRange,
                                {"flip", "'axis'", "got 2"});
  expect_error_on_every_backend([&] { d::masked_fill(a, a, Scalar(1)); }, ErrorCode::kTypeError,
                                {"masked_fill", "'mask'", "float64"});
  expect_error_on_every_backend(
      [&] {
        d::masked_select(a, make_tensor({3, 2}, DType::kBool, {1, 0, 1, 0, 1, 0}));
      },
      ErrorCode::kInvalidArgument, {"masked_select", "'mask'"});
  expect_error_on_every_backend([&] { d::gather(a, iota({2}), 0); }, ErrorCode::kTypeError,
                                {"gather", "'index'", "float64"});
  expect_error_on_every_backend([&] { d::topk(a, 4, -1); }, ErrorCode::kInvalidArgument,
                                {"topk", "'k'", "got 4"});
  expect_error_on_every_backend(
      [&] {
        d::pad(a, L{3, 3}, "reflect");
      },
      ErrorCode::kInvalidArgument, {"pad", "'paddings'"});
  expect_error_on_every_backend(
      [&] {
        d::pad(a, L{1, 1}, "wrap");
      },
      ErrorCode::kInvalidArgument, {"pad", "'mode'", "wrap"});
  expect_error_on_every_backend([&] { d::tril(iota({3}), 0); }, ErrorCode::kInvalidArgument,
                                {"tril", "'x'"});
  expect_error_on_every_backend([&] { d::strided_slice(a, L{0}, L{0}, L{2}, L{0}); },
                                ErrorCode::kInvalidArgument, {"strided_slice", "'strides'"});
  expect_error_on_every_backend([&] { d::unique(a, false, false, false, L{}, DType::kFloat64); },
                                ErrorCode::kTypeError, {"unique", "'dtype'"});
  expect_error_on_every_backend(
      [&] {
        d::put_along_axis(a, ints({2, 1}, {0, 1}), iota({2, 1}), 1, "max");
      },
      ErrorCode::kInvalidArgument, {"put_along_axis", "'reduce'", "max"});
}

TEST(ManipulationSemantics, PaddleEdgeCases) {
  // flatten of a 0-D tensor gives [1]; squeeze ignores axes whose size is not 1.
  EXPECT_EQ(d::flatten(iota({})).dims(), Dims{1});
  EXPECT_EQ(d::squeeze(iota({2, 1}), L{0}).dims(), (Dims{2, 1}));
  // reshape: 0 copies the input dim, -1 is inferred.
  EXPECT_EQ(d::reshape(iota({2, 3, 4}), L{0, -1}).dims(), (Dims{2, 12}));
  // slice clamps out-of-range starts/ends; decrease_axis drops the sliced axis.
  EXPECT_EQ(d::slice(iota({4, 5}), L{1}, L{-100}, L{100}).dims(), (Dims{4, 5}));
  EXPECT_EQ(d::slice(iota({4, 5}), L{0}, L{2}, L{3}, L{0}).dims(), (Dims{5}));
  // gather with a 0-D index drops the axis.
  EXPECT_EQ(d::gather(iota({4, 3}), make_tensor({}, DType::kInt32, {2}), 1).dims(), (Dims{4}));
}

TEST(ManipulationSemantics, Values) {
  EXPECT_EQ(to_doubles(d::roll(iota({2, 3}), L{1}, L{1})), (std::vector<double>{2, 0, 1, 5, 3, 4}));
  EXPECT_EQ(to_doubles(d::roll(iota({2, 3}), L{-1})), (std::vector<double>{1, 2, 3, 4, 5, 0}));
  EXPECT_EQ(to_doubles(d::pad(iota({3}), L{2, 1}, "reflect")),
            (std::vector<double>{2, 1, 0, 1, 2, 1}));
  EXPECT_EQ(to_doubles(d::pad(iota({3}), L{1, 2}, "replicate")),
            (std::vector<double>{0, 0, 1, 2, 2, 2}));
  EXPECT_EQ(to_doubles(d::pad(iota({1, 2}), L{0, 0, 1, 0}, "constant", 7.0f)),
            (std::vector<double>{7, 0, 1}));
  EXPECT_EQ(to_doubles(d::tril(iota({2, 3}), 0)), (std::vector<double>{0, 0, 0, 3, 4, 0}));
  EXPECT_EQ(to_doubles(d::triu(iota({2, 3}), 1)), (std::vector<double>{0, 1, 2, 0, 0, 5}));
  EXPECT_EQ(to_doubles(d::repeat_interleave_with_tensor_index(iota({3}), ints({3}, {0, 2, 1}), 0)),
            (std::vector<double>{1, 1, 2}));
  EXPECT_EQ(to_doubles(d::tile(iota({2}), L{2, 2})), (std::vector<double>{0, 1, 0, 1, 0, 1, 0, 1}));
  const DenseTensor x = make_tensor({4}, DType::kFloat64, {3, 1, 2, 3});
  auto [v, i] = d::topk(x, 2);
  EXPECT_EQ(to_doubles(v), (std::vector<double>{3, 3}));
  EXPECT_EQ(to_doubles(i), (std::vector<double>{0, 3}));  // ties: lower index first
  const DenseTensor s = make_tensor({4}, DType::kFloat64, {2, NAN, -1, 5});
  const auto sorted = to_doubles(d::sort(s));
  EXPECT_EQ(sorted[0], -1);
  EXPECT_EQ(sorted[2], 5);
  EXPECT_TRUE(std::isnan(sorted[3]));  // NaN sorts last
  auto [u, first, inverse, counts] = d::unique(make_tensor({5}, DType::kInt32, {3, 1, 3, 2, 1}));
  EXPECT_EQ(to_doubles(u), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(to_doubles(first), (std::vector<double>{1, 3, 0}));
  EXPECT_EQ(to_doubles(inverse), (std::vector<double>{2, 0, 2, 1, 0}));
  EXPECT_EQ(to_doubles(counts), (std::vector<double>{2, 1, 2}));
  EXPECT_EQ(to_doubles(d::nonzero(make_tensor({2, 2}, DType::kFloat64, {0, 1, 2, 0}))),
            (std::vector<double>{0, 1, 1, 0}));
  const DenseTensor m = make_tensor({3}, DType::kBool, {1, 0, 1});
  EXPECT_EQ(to_doubles(d::masked_select(iota({2, 3}), m)), (std::vector<double>{0, 2, 3, 5}));
  EXPECT_EQ(to_doubles(d::masked_fill(iota({3}), m, Scalar(-1))), (std::vector<double>{-1, 1, -1}));
  // scatter: overwrite keeps the last duplicate; accumulate zeroes targeted rows first.
  const DenseTensor idx = ints({2}, {1, 1});
  const DenseTensor upd = make_tensor({2, 1}, DType::kFloat64, {5, 6});
  EXPECT_EQ(to_doubles(d::scatter(iota({3, 1}), idx, upd)), (std::vector<double>{0, 6, 2}));
  EXPECT_EQ(to_doubles(d::scatter(iota({3, 1}), idx, upd, false)), (std::vector<double>{0, 11, 2}));
  EXPECT_EQ(to_doubles(d::put_along_axis(iota({1, 3}), ints({1, 2}, {2, 2}),
                                         make_tensor({1}, DType::kFloat64, {4}), 1, "add", false)),
            (std::vector<double>{0, 1, 8}));
}

}  // namespace
}  // namespace skiff::testing
