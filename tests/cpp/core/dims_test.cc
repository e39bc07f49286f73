// Dims (inline shape), contiguous_strides and normalize_axis.
#include "skiff/core/dims.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>

#include "skiff/base/error.h"
#include "skiff/core/shape_math.h"
#include "tests/cpp/core/test_util.h"

namespace skiff {
namespace {

using testing::error_of;

TEST(DimsTest, BuildAndEdit) {
  Dims d{2, 3, 4};
  EXPECT_EQ(d.size(), 3);
  EXPECT_FALSE(d.empty());
  EXPECT_EQ(d[1], 3);
  EXPECT_EQ(d.back(), 4);
  EXPECT_EQ(d.numel(), 24);
  EXPECT_EQ(d.to_vector(), (std::vector<int64_t>{2, 3, 4}));
  d.push_back(5);
  EXPECT_EQ(d, (Dims{2, 3, 4, 5}));
  d.insert(0, 7);
  EXPECT_EQ(d, (Dims{7, 2, 3, 4, 5}));
  d.insert(5, 8);
  EXPECT_EQ(d, (Dims{7, 2, 3, 4, 5, 8}));
  d.insert(2, 9);
  EXPECT_EQ(d, (Dims{7, 2, 9, 3, 4, 5, 8}));
  d.erase(0);
  d.erase(5);
  EXPECT_EQ(d, (Dims{2, 9, 3, 4, 5}));
  d.resize(2);
  EXPECT_EQ(d, (Dims{2, 9}));
  d.resize(4, 1);
  EXPECT_EQ(d, (Dims{2, 9, 1, 1}));
  EXPECT_EQ(Dims::filled(3, 6), (Dims{6, 6, 6}));
  EXPECT_EQ(Dims(std::vector<int64_t>{1, 2}), (Dims{1, 2}));
  EXPECT_NE((Dims{1, 2}), (Dims{1, 2, 1}));
  EXPECT_NE((Dims{1, 2}), (Dims{2, 1}));
}

TEST(DimsTest, NumelAndPrinting) {
  EXPECT_EQ(Dims{}.numel(), 1);  // a scalar
  EXPECT_TRUE(Dims{}.empty());
  EXPECT_EQ((Dims{3, 0, 2}).numel(), 0);
  EXPECT_EQ((Dims{3, -1, 2}).numel(), kDynamicDim);
  EXPECT_TRUE((Dims{3, -1}).has_dynamic());
  EXPECT_FALSE((Dims{3, 0}).has_dynamic());
  EXPECT_EQ(str(Dims{2, 3}), "[2, 3]");
  EXPECT_EQ(str(Dims{}), "[]");
}

TEST(DimsTest, RankLimit) {
  Dims d = Dims::filled(kMaxRank, 1);
  std::string msg = error_of([&] { d.push_back(1); });
  EXPECT_HAS(msg, "Dims");
  EXPECT_HAS(msg, "'rank'");
  EXPECT_HAS(msg, "10");
  EXPECT_NE(error_of([] { Dims::filled(kMaxRank + 1, 1); }), "no error");
  EXPECT_NE(error_of([] { Dims{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}; }), "no error");
  EXPECT_NE(error_of([&] { d.insert(0, 1); }), "no error");
  EXPECT_EQ(d.size(), kMaxRank);
}

TEST(DimsTest, ContiguousStrides) {
  EXPECT_EQ(contiguous_strides(Dims{2, 3, 4}), (Dims{12, 4, 1}));
  EXPECT_EQ(contiguous_strides(Dims{5}), (Dims{1}));
  EXPECT_EQ(contiguous_strides(Dims{}), Dims{});
  EXPECT_EQ(contiguous_strides(Dims{4, 1, 3}), (Dims{3, 3, 1}));
  // Zero-size dims count as 1 so strides stay distinct and usable.
  EXPECT_EQ(contiguous_strides(Dims{2, 0, 3}), (Dims{3, 3, 1}));
}

TEST(DimsTest, NormalizeAxis) {
  EXPECT_EQ(normalize_axis(0, 3, "sum"), 0);
  EXPECT_EQ(normalize_axis(2, 3, "sum"), 2);
  EXPECT_EQ(normalize_axis(-1, 3, "sum"), 2);
  EXPECT_EQ(normalize_axis(-3, 3, "sum"), 0);
  EXPECT_EQ(normalize_axis(0, 0, "sum"), 0);  // a 0-D tensor accepts axis 0 and -1
  EXPECT_EQ(normalize_axis(-1, 0, "sum"), 0);
  std::string msg = error_of([] { normalize_axis(3, 3, "sum"); });
  EXPECT_HAS(msg, "sum: argument 'axis'");
  EXPECT_HAS(msg, "[-3, 2]");
  EXPECT_HAS(msg, "got 3");
  msg = error_of([] { normalize_axis(-4, 3, "concat", "dim"); });
  EXPECT_HAS(msg, "concat: argument 'dim'");
  EXPECT_HAS(msg, "got -4");
  msg = error_of([] { normalize_axis(1, 0, "mean"); });
  EXPECT_HAS(msg, "[-1, 0]");
  try {
    normalize_axis(5, 2, "max");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kOutOfRange);
  }
}

ErrorCode code_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.code();
  }
  ADD_FAILURE() << "no error";
  return ErrorCode::kInternal;
}

TEST(DimsTest, OverflowIsAnErrorNeverAWrappedCount) {
  constexpr int64_t k32 = int64_t{1} << 32, k40 = int64_t{1} << 40, k62 = int64_t{1} << 62;
  // Products that wrap to 0 or to a small count (the bugs: numel 0, or 4 elements allocated).
  for (const Dims& d :
       {Dims{k32, k32}, Dims{k40, k40}, Dims{int64_t{1} << 31, int64_t{1} << 31, int64_t{1} << 31},
        Dims{k62 + 1, 4}}) {
    EXPECT_EQ(code_of([&] { (void)d.numel(); }), ErrorCode::kInvalidArgument) << d;
    const std::string msg = error_of([&] { checked_numel(d, "ones"); });
    EXPECT_HAS(msg, "ones: argument 'shape'");
    EXPECT_HAS(msg, "fits in int64");
    EXPECT_EQ(code_of([&] { checked_nbytes(d, 4, "zeros"); }), ErrorCode::kInvalidArgument);
  }
  // A zero dim makes the count 0 whatever the others, but the strides must still fit.
  EXPECT_EQ((Dims{0, k40, k40}).numel(), 0);
  EXPECT_EQ(code_of([] {
              checked_numel(Dims{0, k40, k40}, "zeros");
            }),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(code_of([] { contiguous_strides(Dims{2, k40, k40}); }), ErrorCode::kInvalidArgument);
  EXPECT_EQ(checked_numel(Dims{0, k40}, "zeros"), 0);
  EXPECT_EQ(checked_numel(Dims{k40, 1 << 20}, "zeros"), int64_t{1} << 60);
  // Counts that fit but bytes that no device has: ResourceExhausted (kOutOfMemory).
  const std::string msg = error_of([&] { checked_nbytes(Dims{k40, 1 << 20}, 8, "zeros"); });
  EXPECT_HAS(msg, "zeros: argument 'shape'");
  EXPECT_EQ(code_of([&] {
              checked_nbytes(Dims{k40, 1 << 20}, 8, "zeros");
            }),
            ErrorCode::kOutOfMemory);
  EXPECT_EQ(checked_nbytes(Dims{3, 5}, 8, "zeros"), 120);
  EXPECT_HAS(error_of([] { checked_numel(Dims{3, -2}, "ones"); }), "non-negative dims");
  int64_t r = 0;
  EXPECT_TRUE(mul_overflows(k32, k32, &r));
  EXPECT_FALSE(mul_overflows(k32, 4, &r));
  EXPECT_EQ(r, k32 * 4);
  EXPECT_TRUE(add_overflows(INT64_MAX, 1, &r));
}

}  // namespace
}  // namespace skiff
