// The AMP dispatch mode (skiff/runtime/eager/amp_mode.h): dtypes per class and level, custom
// lists, gradients back in the inputs' dtype, gradient rules left alone, thread locality, and
// bad states refused.
#include <gtest/gtest.h>

#include <thread>

#include "skiff/ops/generated/api.h"
#include "skiff/ops/op_schema.h"
#include "skiff/runtime/eager/amp_mode.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/engine.h"

namespace skiff::testing {
namespace {

amp::AmpState o1(DType d) {
  amp::AmpState s;
  s.level = amp::Level::kO1;
  s.dtype = d;
  return s;
}

TEST(AmpModeTest, RecordClassesReachTheTable) {
  const auto& mm = ops::op_schema("matmul");
  EXPECT_EQ(ops::amp_class(mm.id, DType::kBFloat16), ops::AmpClass::kWhite);
  const auto& sm = ops::op_schema("softmax");
  EXPECT_EQ(ops::amp_class(sm.id, DType::kFloat16), ops::AmpClass::kBlack);
  EXPECT_EQ(ops::amp_class(sm.id, DType::kBFloat16), ops::AmpClass::kPromote);
  EXPECT_EQ(ops::amp_class(mm.id, DType::kFloat32), ops::AmpClass::kPromote);
}

TEST(AmpModeTest, DestDtypeFollowsPaddle) {
  using ops::AmpClass;
  amp::AmpState s = o1(DType::kBFloat16);
  const std::vector<DType> f32 = {DType::kFloat32}, bf = {DType::kBFloat16};
  EXPECT_EQ(amp::dest_dtype(s, AmpClass::kWhite, f32), DType::kBFloat16);
  EXPECT_EQ(amp::dest_dtype(s, AmpClass::kBlack, bf), DType::kFloat32);
  EXPECT_EQ(amp::dest_dtype(s, AmpClass::kPromote, {DType::kBFloat16, DType::kFloat32}),
            DType::kFloat32);
  EXPECT_EQ(amp::dest_dtype(s, AmpClass::kPromote, bf), DType::kBFloat16);
  EXPECT_EQ(amp::dest_dtype(s, AmpClass::kWhite, {}), DType::kUndefined);
  s.level = amp::Level::kO2;
  s.use_promote = false;
  EXPECT_EQ(amp::dest_dtype(s, AmpClass::kPromote, f32), DType::kBFloat16);
  EXPECT_EQ(amp::dest_dtype(s, AmpClass::kBlack, bf), DType::kFloat32);
  s.level = amp::Level::kOD;
  EXPECT_EQ(amp::dest_dtype(s, AmpClass::kPromote, bf), DType::kFloat32);
  s.level = amp::Level::kO0;
  EXPECT_EQ(amp::dest_dtype(s, AmpClass::kWhite, f32), DType::kUndefined);
}

TEST(AmpModeTest, CastsAreRecordedAndGradientsComeBackInFloat32) {
  Tensor x = ones({2, 3});
  Tensor w = full({3, 4}, Scalar(0.5));
  autograd::set_stop_gradient(w, false);
  Tensor y, z;
  {
    amp::AutoCastGuard guard(o1(DType::kBFloat16));
    y = matmul(x, w);
    z = sum(multiply(y, y));  // promote over bf16 inputs: bf16
    EXPECT_EQ(y.dtype(), DType::kBFloat16);
    EXPECT_EQ(z.dtype(), DType::kBFloat16);
  }
  EXPECT_EQ(matmul(x, w).dtype(), DType::kFloat32);
  EXPECT_EQ(amp::thread_state().level, amp::Level::kO0);
  autograd::backward({cast(z, DType::kFloat32)});
  const Tensor g = autograd::autograd_meta(w)->grad;
  ASSERT_TRUE(g.defined());
  EXPECT_EQ(g.dtype(), DType::kFloat32);
}

TEST(AmpModeTest, CustomListsOverrideAndOtherThreadsAreUntouched) {
  amp::AmpState s = o1(DType::kFloat16);
  s.black.insert("matmul");
  s.white.insert("tanh");
  amp::AutoCastGuard guard(std::move(s));
  Tensor x = ones({2, 2});
  EXPECT_EQ(matmul(x, x).dtype(), DType::kFloat32);
  EXPECT_EQ(tanh(x).dtype(), DType::kFloat16);
  DType other = DType::kUndefined;
  std::thread t([&] { other = tanh(ones({2})).dtype(); });
  t.join();
  EXPECT_EQ(other, DType::kFloat32);
}

TEST(AmpModeTest, BadStatesAreRefused) {
  amp::AmpState s = o1(DType::kFloat64);
  EXPECT_THROW(amp::set_thread_state(s), std::exception);
  s = o1(DType::kBFloat16);
  s.white.insert("tanh");
  s.black.insert("tanh");
  EXPECT_THROW(amp::set_thread_state(s), std::exception);
  EXPECT_EQ(amp::thread_state().level, amp::Level::kO0);
}

}  // namespace
}  // namespace skiff::testing
