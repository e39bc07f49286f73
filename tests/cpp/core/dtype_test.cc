// DType names, sizes, properties and the full promotion table (Paddle 3 / numpy lattice).
#include "skiff/core/dtype.h"

#include <gtest/gtest.h>

#include <string>

#include "skiff/base/error.h"
#include "tests/cpp/core/test_util.h"

namespace skiff {
namespace {

constexpr DType kAll[] = {DType::kBool,    DType::kInt8,    DType::kUInt8,     DType::kInt16,
                          DType::kInt32,   DType::kInt64,   DType::kFloat16,   DType::kBFloat16,
                          DType::kFloat32, DType::kFloat64, DType::kComplex64, DType::kComplex128};
static_assert(std::size(kAll) == kNumDTypes);
// The dtypes visit_dtype covers (the complex ones go through visit_dtype_complex).
constexpr DType kReal[] = {DType::kBool,    DType::kInt8,   DType::kUInt8,   DType::kInt16,
                           DType::kInt32,   DType::kInt64,  DType::kFloat16, DType::kBFloat16,
                           DType::kFloat32, DType::kFloat64};

using testing::error_of;

TEST(DTypeTest, NamesRoundTrip) {
  const char* names[] = {"bool",    "int8",     "uint8",   "int16",   "int32",     "int64",
                         "float16", "bfloat16", "float32", "float64", "complex64", "complex128"};
  for (int i = 0; i < kNumDTypes; ++i) {
    EXPECT_EQ(dtype_name(kAll[i]), names[i]);
    EXPECT_EQ(parse_dtype(names[i]), kAll[i]);
    EXPECT_EQ(parse_dtype(std::string("paddle.") + names[i]), kAll[i]);
    EXPECT_EQ(str(kAll[i]), names[i]);
  }
  EXPECT_EQ(dtype_name(DType::kUndefined), "undefined");
  EXPECT_EQ(parse_dtype("float"), DType::kFloat32);
  EXPECT_EQ(parse_dtype("double"), DType::kFloat64);
  EXPECT_EQ(parse_dtype("half"), DType::kFloat16);
  EXPECT_EQ(parse_dtype("int"), DType::kInt32);
  EXPECT_EQ(parse_dtype("long"), DType::kInt64);
}

TEST(DTypeTest, ParseErrorNamesTheValue) {
  const std::string msg = error_of([] { parse_dtype("float128"); });
  EXPECT_NE(msg.find("dtype"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'name'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'float128'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("bfloat16"), std::string::npos) << msg;  // lists the valid names
  try {
    parse_dtype("");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kTypeError);
  }
}

TEST(DTypeTest, SizesAndProperties) {
  const int64_t sizes[] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8, 8, 16};
  for (int i = 0; i < kNumDTypes; ++i) EXPECT_EQ(dtype_size(kAll[i]), sizes[i]) << kAll[i];
  EXPECT_EQ(dtype_size(DType::kUndefined), 0);
  EXPECT_EQ(dtype_size(dtype_v<float16>), static_cast<int64_t>(sizeof(float16)));
  EXPECT_EQ(dtype_size(dtype_v<double>), 8);
  for (DType d : kAll) {
    const bool fl = d >= DType::kFloat16 && d <= DType::kFloat64;
    const bool in = d >= DType::kInt8 && d <= DType::kInt64;
    const bool cx = d == DType::kComplex64 || d == DType::kComplex128;
    EXPECT_EQ(is_floating(d), fl) << d;
    EXPECT_EQ(is_complex(d), cx) << d;
    EXPECT_EQ(is_differentiable(d), fl || cx) << d;
    EXPECT_EQ(is_integral(d), in) << d;
    EXPECT_EQ(is_low_precision(d), d == DType::kFloat16 || d == DType::kBFloat16) << d;
  }
}

TEST(DTypeTest, VisitDTypeGivesTheCppType) {
  for (DType d : kReal) {
    const DType back = visit_dtype(d, [](auto tag) { return dtype_v<decltype(tag)>; });
    EXPECT_EQ(back, d);
    EXPECT_EQ(visit_dtype(d, [](auto tag) { return static_cast<int64_t>(sizeof(tag)); }),
              dtype_size(d));
  }
  for (DType d : kAll) {
    EXPECT_EQ(visit_dtype_complex(d, [](auto tag) { return dtype_v<decltype(tag)>; }), d);
  }
  // Routines without complex support refuse it by name instead of running on it.
  const std::string cmsg = error_of([] { visit_dtype(DType::kComplex64, [](auto) {}); });
  EXPECT_NE(cmsg.find("(Unimplemented)"), std::string::npos) << cmsg;
  EXPECT_NE(cmsg.find("complex64"), std::string::npos) << cmsg;
  const std::string msg = error_of([] { visit_dtype(DType::kUndefined, [](auto) {}); });
  EXPECT_NE(msg.find("undefined"), std::string::npos) << msg;
}

// The whole table, written out by hand in the order of kAll.
TEST(DTypeTest, PromotionTable) {
  constexpr DType b = DType::kBool, i8 = DType::kInt8, u8 = DType::kUInt8, i16 = DType::kInt16,
                  i32 = DType::kInt32, i64 = DType::kInt64, f16 = DType::kFloat16,
                  bf = DType::kBFloat16, f32 = DType::kFloat32, f64 = DType::kFloat64,
                  c64 = DType::kComplex64, c128 = DType::kComplex128;
  // Complex wins; it is complex128 when either side is float64 or complex128 (Paddle's rule).
  const DType want[kNumDTypes][kNumDTypes] = {
      //     b    i8   u8   i16  i32  i64  f16  bf   f32  f64  c64  c128
      /*b*/ {b, i8, u8, i16, i32, i64, f16, bf, f32, f64, c64, c128},
      /*i8*/ {i8, i8, i16, i16, i32, i64, f16, bf, f32, f64, c64, c128},
      /*u8*/ {u8, i16, u8, i16, i32, i64, f16, bf, f32, f64, c64, c128},
      /*i16*/ {i16, i16, i16, i16, i32, i64, f16, bf, f32, f64, c64, c128},
      /*i32*/ {i32, i32, i32, i32, i32, i64, f16, bf, f32, f64, c64, c128},
      /*i64*/ {i64, i64, i64, i64, i64, i64, f16, bf, f32, f64, c64, c128},
      /*f16*/ {f16, f16, f16, f16, f16, f16, f16, f32, f32, f64, c64, c128},
      /*bf*/ {bf, bf, bf, bf, bf, bf, f32, bf, f32, f64, c64, c128},
      /*f32*/ {f32, f32, f32, f32, f32, f32, f32, f32, f32, f64, c64, c128},
      /*f64*/ {f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, c128, c128},
      /*c64*/ {c64, c64, c64, c64, c64, c64, c64, c64, c64, c128, c64, c128},
      /*c128*/ {c128, c128, c128, c128, c128, c128, c128, c128, c128, c128, c128, c128},
  };
  for (int r = 0; r < kNumDTypes; ++r) {
    for (int c = 0; c < kNumDTypes; ++c) {
      EXPECT_EQ(promote_types(kAll[r], kAll[c]), want[r][c]) << kAll[r] << " + " << kAll[c];
    }
  }
}

TEST(DTypeTest, PromotionIsALattice) {
  for (DType a : kAll) {
    EXPECT_EQ(promote_types(a, a), a);
    for (DType b : kAll) {
      const DType ab = promote_types(a, b);
      EXPECT_EQ(ab, promote_types(b, a));
      EXPECT_EQ(promote_types(ab, a), ab);  // the join is an upper bound
      for (DType c : kAll) {
        EXPECT_EQ(promote_types(ab, c), promote_types(a, promote_types(b, c)))
            << a << " " << b << " " << c;
      }
    }
  }
}

TEST(DTypeTest, PromotionRejectsUndefined) {
  const std::string msg = error_of([] { promote_types(DType::kFloat32, DType::kUndefined); });
  EXPECT_NE(msg.find("promote_types"), std::string::npos) << msg;
  EXPECT_NE(msg.find("float32, undefined"), std::string::npos) << msg;
}

TEST(DTypeTest, PromoteWithScalar) {
  const DType df = DType::kFloat32;
  for (DType t : kAll) {
    // A scalar of the same or a lower category never changes the tensor's dtype.
    EXPECT_EQ(promote_with_scalar(t, ScalarKind::kBool, df), t) << t;
    if (t != DType::kBool) {
      EXPECT_EQ(promote_with_scalar(t, ScalarKind::kInt, df), t) << t;
    }
    if (is_floating(t) || is_complex(t)) {
      EXPECT_EQ(promote_with_scalar(t, ScalarKind::kFloat, df), t) << t;
    }
    // A float scalar turns bool and integer tensors into the default float dtype.
    if (!is_floating(t) && !is_complex(t)) {
      EXPECT_EQ(promote_with_scalar(t, ScalarKind::kFloat, df), df) << t;
      EXPECT_EQ(promote_with_scalar(t, ScalarKind::kFloat, DType::kFloat64), DType::kFloat64);
    }
  }
  EXPECT_EQ(promote_with_scalar(DType::kBool, ScalarKind::kInt, df), DType::kInt64);
  EXPECT_EQ(promote_with_scalar(DType::kUInt8, ScalarKind::kInt, df), DType::kUInt8);
  EXPECT_EQ(promote_with_scalar(DType::kFloat16, ScalarKind::kFloat, df), DType::kFloat16);
  EXPECT_EQ(promote_with_scalar(DType::kBFloat16, ScalarKind::kInt, df), DType::kBFloat16);
}

}  // namespace
}  // namespace skiff
