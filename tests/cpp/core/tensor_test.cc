// The Tensor handle: shared body, metadata forwarding, item(), and errors for other kinds.
#include "skiff/core/tensor.h"

#include <gtest/gtest.h>

#include <functional>

#include "skiff/core/views.h"
#include "tests/cpp/core/test_util.h"

namespace skiff {
namespace {

using testing::error_of;
using testing::iota;

class FakeSymbolic final : public TensorImpl {
 public:
  TensorKind kind() const override { return TensorKind::kSymbolic; }
  DType dtype() const override { return DType::kFloat32; }
  const Dims& dims() const override { return dims_; }
  Place place() const override { return Place::cpu(); }

 private:
  Dims dims_{-1, 4};
};

struct Meta : AutogradMetaBase {
  int tag = 7;
};

TEST(TensorTest, HandleForwardsToTheBody) {
  Tensor t(iota({2, 3}));
  EXPECT_TRUE(t.defined());
  EXPECT_TRUE(t.is_dense());
  EXPECT_EQ(t.kind(), TensorKind::kDense);
  EXPECT_EQ(t.dtype(), DType::kInt64);
  EXPECT_EQ(t.dims(), (Dims{2, 3}));
  EXPECT_EQ(t.shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(t.rank(), 2);
  EXPECT_EQ(t.numel(), 6);
  EXPECT_EQ(t.place(), Place::cpu());
  Tensor copy = t;  // copies share the body and the autograd slot
  EXPECT_EQ(copy.impl(), t.impl());
  t.set_autograd_meta(std::make_shared<Meta>());
  Tensor copy2 = t;
  EXPECT_EQ(copy2.autograd_meta(), t.autograd_meta());
  EXPECT_EQ(static_cast<Meta*>(copy2.autograd_meta())->tag, 7);
  copy.mutable_dense().data<int64_t>()[0] = 42;
  EXPECT_EQ(t.dense().data<int64_t>()[0], 42);
  EXPECT_FALSE(Tensor().defined());
  EXPECT_FALSE(Tensor().is_dense());
}

TEST(TensorTest, Item) {
  EXPECT_EQ(Tensor(view_slice(iota({5}), 0, 3, 4)).item<int64_t>(), 3);
  DenseTensor f = DenseTensor::empty({1, 1}, DType::kFloat16);
  *f.data<float16>() = float16(2.5f);
  EXPECT_EQ(Tensor(f).item<float>(), 2.5f);
  EXPECT_EQ(Tensor(f).item<double>(), 2.5);
  EXPECT_EQ(Tensor(f).item<int32_t>(), 2);
  EXPECT_TRUE(Tensor(f).item<bool>());
  DenseTensor b = DenseTensor::empty({}, DType::kBFloat16);
  *b.data<bfloat16>() = bfloat16(-3.0f);
  EXPECT_EQ(Tensor(b).item<float>(), -3.0f);
  const std::string msg = error_of([] { Tensor(iota({2})).item<float>(); });
  EXPECT_HAS(msg, "item: argument 'self'");
  EXPECT_HAS(msg, "[2]");
}

TEST(TensorTest, DenseOfOtherKindsIsAClearError) {
  Tensor s(std::make_shared<FakeSymbolic>());
  EXPECT_FALSE(s.is_dense());
  EXPECT_EQ(s.dims(), (Dims{-1, 4}));
  EXPECT_EQ(s.numel(), kDynamicDim);
  std::string msg = error_of([&] { s.dense(); });
  EXPECT_HAS(msg, "a dense tensor");
  EXPECT_HAS(msg, "a symbolic tensor");
  msg = error_of([] { Tensor().dense(); });
  EXPECT_HAS(msg, "an undefined tensor");
}

TEST(TensorTest, AnUndefinedTensorRefusesEveryAccessor) {
  // A default tensor or an unused gradient: each accessor is an error, never a null read.
  const Tensor t;
  EXPECT_FALSE(t.defined());
  EXPECT_FALSE(t.is_dense());
  EXPECT_EQ(t.autograd_meta(), nullptr);
  const std::vector<std::function<void()>> accessors = {
      [&] { (void)t.kind(); },  [&] { (void)t.dtype(); },
      [&] { (void)t.dims(); },  [&] { (void)t.shape(); },
      [&] { (void)t.place(); }, [&] { (void)t.rank(); },
      [&] { (void)t.numel(); }, [&] { t.set_autograd_meta(nullptr); }};
  for (const auto& f : accessors) {
    try {
      f();
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kPrecondition) << e.what();
      EXPECT_HAS(std::string(e.what()), "Tensor: argument 'self' expected an initialized tensor");
    }
  }
}

}  // namespace
}  // namespace skiff
