// InplaceTarget over lists (an optimizer's update): an input is written directly unless another
// argument is a different view of its memory; the check looks only at tensors on the same
// storage.
#include <gtest/gtest.h>

#include <vector>

#include "skiff/core/dense_tensor.h"
#include "skiff/ops/inplace.h"

namespace skiff::ops {
namespace {

DenseTensor floats(int64_t n) { return DenseTensor::empty(Dims({n}), DType::kFloat32); }

std::vector<TensorMeta> metas_of(const std::vector<DenseTensor>& ts) {
  std::vector<TensorMeta> out;
  for (const DenseTensor& t : ts) out.push_back({t.dtype(), t.dims()});
  return out;
}

// Which inputs the kernel writes directly (not through a temporary).
std::vector<bool> direct(const std::vector<DenseTensor>& inputs,
                         const std::vector<DenseTensor>& other) {
  InplaceTarget target("fused_adam_", "param", inputs, metas_of(inputs), Place::cpu(), {},
                       {&other});
  std::vector<bool> out;
  for (size_t i = 0; i < inputs.size(); ++i) {
    out.push_back(target.outputs()[i].storage() == inputs[i].storage() &&
                  target.outputs()[i].offset() == inputs[i].offset());
  }
  return out;
}

TEST(InplaceTargetList, DistinctBuffersAreWrittenDirectly) {
  std::vector<DenseTensor> params = {floats(4), floats(3), floats(5)};
  std::vector<DenseTensor> grads = {floats(4), floats(3), floats(5)};
  EXPECT_EQ(direct(params, grads), (std::vector<bool>{true, true, true}));
}

TEST(InplaceTargetList, TheSameViewInAnotherListIsNoOverlap) {
  std::vector<DenseTensor> params = {floats(4), floats(3)};
  std::vector<DenseTensor> grads = {params[0], floats(3)};  // x.add_(x) reads x as written
  EXPECT_EQ(direct(params, grads), (std::vector<bool>{true, true}));
}

TEST(InplaceTargetList, AnotherViewOfAnInputGoesThroughATemporary) {
  std::vector<DenseTensor> params = {floats(4), floats(3), floats(6)};
  // The last gradient reads the middle of the last parameter's buffer.
  DenseTensor middle = params[2].as_strided(Dims({3}), Dims({1}), 2);
  std::vector<DenseTensor> grads = {floats(4), floats(3), middle};
  EXPECT_EQ(direct(params, grads), (std::vector<bool>{true, true, false}));
}

TEST(InplaceTargetList, TwoInputsOnOneBufferBothGoThroughTemporaries) {
  DenseTensor flat = floats(8);
  std::vector<DenseTensor> params = {flat.as_strided(Dims({4}), Dims({1}), 0), floats(2),
                                     flat.as_strided(Dims({4}), Dims({1}), 4)};
  std::vector<DenseTensor> grads = {floats(4), floats(2), floats(4)};
  EXPECT_EQ(direct(params, grads), (std::vector<bool>{false, true, false}));
}

TEST(InplaceTargetList, FinishCopiesTemporariesBackAndBumpsVersions) {
  std::vector<DenseTensor> params = {floats(2), floats(4)};
  DenseTensor alias = params[1].as_strided(Dims({2}), Dims({2}), 0);
  std::vector<DenseTensor> grads = {floats(2), alias};
  const uint32_t v0 = params[0].storage()->version();
  const uint32_t v1 = params[1].storage()->version();
  InplaceTarget target("fused_adam_", "param", params, metas_of(params), Place::cpu(), {},
                       {&grads});
  ASSERT_NE(target.outputs()[1].storage(), params[1].storage());
  for (int i = 0; i < 4; ++i) target.outputs()[1].data<float>()[i] = 1.5f * i;
  target.finish();
  for (int i = 0; i < 4; ++i) EXPECT_EQ(params[1].data<float>()[i], 1.5f * i);
  EXPECT_EQ(params[0].storage()->version(), v0 + 1);
  EXPECT_EQ(params[1].storage()->version(), v1 + 1);
}

}  // namespace
}  // namespace skiff::ops
