// Bad inputs and Paddle's window rules for conv2d and pool2d.
#include <gtest/gtest.h>

#include <cmath>

#include "error_expectations.h"
#include "op_test_util.h"
#include "skiff/base/error.h"
#include "skiff/ops/generated/dense/all.h"

namespace skiff::testing {
namespace {

namespace dense = ops::dense;
using IntList = std::vector<int64_t>;

DenseTensor ones(const Dims& d, DType t = DType::kFloat32) {
  return make_tensor(d, t, std::vector<double>(static_cast<size_t>(d.numel()), 1.0));
}

TEST(Conv2dTest, BadInputs) {
  expect_error_message(
      [] {
        dense::conv2d(ones({2, 3, 5}), ones({4, 3, 3, 3}));
      },
      ErrorCode::kInvalidArgument,
      "conv2d: argument 'input' expected a 4-D tensor [N, C, H, W], got [2, 3, 5]");
  expect_error_message(
      [] {
        dense::conv2d(ones({1, 3, 5, 5}), ones({4, 2, 3, 3}));
      },
      ErrorCode::kInvalidArgument,
      "conv2d: argument 'filter' expected dim 1 equal to input channels / groups (3 / "
      "1), got [4, 2, 3, 3]");
  expect_error_message(
      [] {
        dense::conv2d(ones({1, 4, 5, 5}), ones({3, 2, 3, 3}), {1, 1}, {0, 0}, "EXPLICIT", {1, 1},
                      2);
      },
      ErrorCode::kInvalidArgument,
      "conv2d: argument 'filter' expected out_channels divisible by groups (2), got [3, "
      "2, 3, 3]");
  expect_error_message(
      [] {
        dense::conv2d(ones({1, 3, 2, 2}), ones({4, 3, 3, 3}));
      },
      ErrorCode::kInvalidArgument,
      "conv2d: argument 'filter' expected a window (dilated 3x3) that fits the padded "
      "input 2x2, got [4, 3, 3, 3]");
  expect_error_message(
      [] {
        dense::conv2d(ones({1, 3, 5, 5}), ones({4, 3, 3, 3}), {0, 1});
      },
      ErrorCode::kInvalidArgument, "conv2d: argument 'strides' expected positive values, got 0, 1");
  expect_error_message(
      [] {
        dense::conv2d(ones({1, 3, 5, 5}), ones({4, 3, 3, 3}), {1, 1}, {0, 0}, "FULL");
      },
      ErrorCode::kInvalidArgument,
      "conv2d: argument 'padding_algorithm' expected \"EXPLICIT\", \"SAME\" or "
      "\"VALID\", got FULL");
  expect_error_message(
      [] {
        dense::conv2d(ones({1, 3, 5, 5}), ones({4, 3, 3, 3}), {1, 1}, {0, 0}, "EXPLICIT", {1, 1}, 1,
                      "NCDHW");
      },
      ErrorCode::kInvalidArgument,
      "conv2d: argument 'data_format' expected \"NCHW\" or \"NHWC\", got NCDHW");
  expect_error_message(
      [] {
        dense::conv2d(ones({1, 3, 5, 5}), ones({4, 3, 3, 3}, DType::kFloat64));
      },
      ErrorCode::kTypeError,
      "conv2d: argument 'filter' expected dtype float32 (as input), got float64");
}

TEST(Conv2dTest, PaddleSamePaddingIgnoresDilation) {
  // SAME: ceil(7 / 2) = 4 outputs per dim whatever the dilation.
  const DenseTensor r =
      dense::conv2d(ones({1, 1, 7, 7}), ones({1, 1, 3, 3}), {2, 2}, {0, 0}, "SAME", {3, 3});
  EXPECT_EQ(r.dims(), (Dims{1, 1, 4, 4}));
  EXPECT_EQ(to_doubles(r)[0], 4.0);  // top-left window: one padded row and column
}

TEST(Pool2dTest, BadInputs) {
  expect_error_message(
      [] {
        dense::pool2d(ones({1, 2, 4, 4}), {2, 2}, {1, 1}, {0, 0}, false, true, "NCHW", "min");
      },
      ErrorCode::kInvalidArgument,
      "pool2d: argument 'pooling_type' expected \"max\" or \"avg\", got min");
  expect_error_message(
      [] {
        dense::pool2d(ones({1, 2, 4, 4}), {5, 5});
      },
      ErrorCode::kInvalidArgument,
      "pool2d: argument 'kernel_size' expected a window that fits the padded input 4x4, "
      "got 5x5");
  expect_error_message(
      [] {
        dense::pool2d(ones({1, 2, 4, 4}), {2, 2, 2});
      },
      ErrorCode::kInvalidArgument, "pool2d: argument 'kernel_size' expected 1 or 2 values, got 3");
  expect_error_message(
      [] {
        dense::pool2d(ones({1, 2, 4, 4}), {2, 2}, {1, 1}, {-1, 0});
      },
      ErrorCode::kInvalidArgument,
      "pool2d: argument 'paddings' expected non-negative values, got -1");
  expect_error_message(
      [] {
        dense::pool2d(ones({2, 4, 4}), {2, 2});
      },
      ErrorCode::kInvalidArgument,
      "pool2d: argument 'x' expected a 4-D tensor [N, C, H, W], got [2, 4, 4]");
}

TEST(Pool2dTest, PaddleWindowRules) {
  const DenseTensor x = make_tensor({1, 1, 3, 3}, DType::kFloat32, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  // Exclusive average ignores padding; non-exclusive divides by the full window.
  const auto ex = to_doubles(dense::pool2d(x, {2, 2}, {2, 2}, {1, 1}, false, true, "NCHW", "avg"));
  EXPECT_EQ(ex, (std::vector<double>{1, 2.5, 5.5, 7}));
  const auto inc =
      to_doubles(dense::pool2d(x, {2, 2}, {2, 2}, {1, 1}, false, false, "NCHW", "avg"));
  EXPECT_EQ(inc, (std::vector<double>{0.25, 1.25, 2.75, 7}));
  // ceil_mode keeps the partial last window.
  EXPECT_EQ(dense::pool2d(x, {2, 2}, {2, 2}, {0, 0}, true).dims(), (Dims{1, 1, 2, 2}));
  EXPECT_EQ(dense::pool2d(x, {2, 2}, {2, 2}, {0, 0}, false).dims(), (Dims{1, 1, 1, 1}));
  // Adaptive max to 1x1 and global pooling.
  EXPECT_EQ(
      to_doubles(dense::pool2d(x, {1, 1}, {1, 1}, {0, 0}, false, true, "NCHW", "max", false, true)),
      std::vector<double>{9});
  EXPECT_EQ(to_doubles(dense::pool2d(x, {1, 1}, {1, 1}, {0, 0}, false, true, "NCHW", "avg", true)),
            std::vector<double>{5});
}

TEST(Pool2dTest, MaxPropagatesNan) {
  const DenseTensor x = make_tensor({1, 1, 2, 2}, DType::kFloat32, {1, std::nan(""), 3, 4});
  EXPECT_TRUE(std::isnan(to_doubles(dense::pool2d(x, {2, 2}))[0]));
}

}  // namespace
}  // namespace skiff::testing
