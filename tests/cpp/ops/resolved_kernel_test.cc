// Resolved kernel calls of in-place-only ops (the fused optimizer updates, as the static
// executor runs them): the kernel writes the parameters' and moments' own buffers, bumps their
// versions, and gives the dense op's results bit for bit; a non-contiguous target goes through a
// temporary copied back; a result shape that does not fit its target is refused.
#include "skiff/ops/resolved_kernel.h"

#include <gtest/gtest.h>

#include "op_test_util.h"
#include "skiff/ops/generated/dense/all.h"
#include "skiff/ops/generated/op_ids.h"
#include "skiff/ops/kernel_registry.h"

namespace skiff::testing {
namespace {

using Lists = std::vector<std::vector<DenseTensor>>;

std::unique_ptr<ops::ResolvedKernel> resolved(ops::OpId id, const char* name) {
  ops::KernelFn fn = ops::KernelRegistry::global().find(id, Backend::kCPU, DType::kFloat32);
  EXPECT_NE(fn, nullptr);
  return ops::resolve_kernel(id, fn, ops::KernelContext{Place::cpu(), Backend::kCPU, name}, {});
}

std::vector<DenseTensor> copies(const std::vector<DenseTensor>& ts) {
  std::vector<DenseTensor> out;
  for (const DenseTensor& t : ts) out.push_back(t.copy_to(t.place()));
  return out;
}

// Adam's inputs: two parameters (one of them `strided`), their gradients and moments.
Lists adam_inputs(bool strided) {
  std::mt19937_64 rng(5);
  DenseTensor w = random_tensor({3, 4}, DType::kFloat32, Domain::kAny, rng);
  if (strided) w = noncontiguous_copy(w);
  Lists in(7);
  in[0] = {w, random_tensor({5}, DType::kFloat32, Domain::kAny, rng)};
  for (int k = 1; k <= 3; ++k) {
    for (const DenseTensor& p : in[0]) {
      const Domain d = k == 3 ? Domain::kPositive : Domain::kAny;  // moment2 >= 0
      in[k].push_back(random_tensor(p.dims(), DType::kFloat32, d, rng));
    }
  }
  in[5] = {make_tensor({}, DType::kFloat32, {0.01})};  // learning_rate
  in[6] = {make_tensor({}, DType::kFloat32, {3})};     // step
  return in;                                           // in[4]: moment2_max, empty without amsgrad
}

// Runs the resolved call on `in`; `metas` are the results' (the written inputs' by default).
Lists run(const ops::ResolvedKernel& k, const Lists& in, ops::OutputMetas metas) {
  std::vector<ops::ArgSlot> args;
  for (const auto& list : in) args.push_back(&list);
  Lists out(metas.size());
  std::vector<ops::OutSlot> outs;
  for (auto& list : out) outs.push_back(&list);
  k.run(args.data(), metas, outs.data());
  return out;
}

ops::OutputMetas metas_of(const Lists& in, std::initializer_list<int> written) {
  ops::OutputMetas metas;
  for (int k : written) {
    metas.emplace_back();
    for (const DenseTensor& t : in[k]) metas.back().push_back(t.meta());
  }
  return metas;
}

TEST(ResolvedInplaceKernel, FusedAdamWritesParametersAndMomentsInPlace) {
  std::unique_ptr<ops::ResolvedKernel> k = resolved(ops::op_id::kFusedAdam, "fused_adam_");
  ASSERT_NE(k, nullptr) << "fused_adam_ has a resolved call";
  Lists in = adam_inputs(false);
  Lists ref = {copies(in[0]), in[1], copies(in[2]), copies(in[3]), {}};
  ops::dense::fused_adam_(ref[0], ref[1], ref[2], ref[3], ref[4], in[5][0], in[6][0], 0.9f, 0.999f,
                          1e-8f, 0.0f, false);
  std::vector<const void*> data;
  std::vector<uint32_t> versions;
  for (int j : {0, 2, 3}) {
    for (const DenseTensor& t : in[j]) {
      data.push_back(t.raw_data());
      versions.push_back(t.storage()->version());
    }
  }
  Lists out = run(*k, in, metas_of(in, {0, 2, 3, 4}));
  ASSERT_EQ(out.size(), 4u);
  size_t i = 0;
  for (int j : {0, 1, 2}) {
    const int src = j == 0 ? 0 : j + 1;
    ASSERT_EQ(out[j].size(), in[src].size());
    for (size_t e = 0; e < out[j].size(); ++e, ++i) {
      // The output is the input's own buffer, written once.
      EXPECT_EQ(out[j][e].raw_data(), data[i]) << "output " << j << " element " << e;
      EXPECT_EQ(in[src][e].raw_data(), data[i]);
      EXPECT_EQ(in[src][e].storage()->version(), versions[i] + 1);
      EXPECT_EQ(to_doubles(in[src][e]), to_doubles(ref[src][e])) << "output " << j;
    }
  }
  EXPECT_TRUE(out[3].empty());
}

TEST(ResolvedInplaceKernel, StridedParameterIsWrittenThroughATemporary) {
  Lists adam = adam_inputs(true);
  Lists in = {adam[0], adam[1], adam[5]};
  ASSERT_FALSE(in[0][0].is_contiguous());
  std::vector<DenseTensor> ref = copies(in[0]);
  ops::dense::fused_sgd_(ref, in[1], in[2][0], 0.5f);
  const void* data = in[0][0].raw_data();
  std::unique_ptr<ops::ResolvedKernel> decayed = ops::resolve_kernel(
      ops::op_id::kFusedSgd,
      ops::KernelRegistry::global().find(ops::op_id::kFusedSgd, Backend::kCPU, DType::kFloat32),
      ops::KernelContext{Place::cpu(), Backend::kCPU, "fused_sgd_"},
      {{"weight_decay", ops::AttrValue(0.5)}});
  Lists out = run(*decayed, in, metas_of(in, {0}));
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].size(), 2u);
  EXPECT_EQ(in[0][0].raw_data(), data);  // the strided parameter keeps its buffer and strides
  EXPECT_FALSE(in[0][0].is_contiguous());
  for (size_t e = 0; e < 2; ++e) {
    EXPECT_EQ(out[0][e].raw_data(), in[0][e].raw_data());
    EXPECT_EQ(to_doubles(in[0][e]), to_doubles(ref[e])) << "parameter " << e;
  }
}

TEST(ResolvedInplaceKernel, ResultThatDoesNotFitItsTargetIsRefused) {
  std::unique_ptr<ops::ResolvedKernel> k = resolved(ops::op_id::kFusedSgd, "fused_sgd_");
  ASSERT_NE(k, nullptr);
  Lists adam = adam_inputs(false);
  Lists in = {adam[0], adam[1], adam[5]};
  ops::OutputMetas metas = metas_of(in, {0});
  metas[0][1].dims = Dims({6});  // the program's type says [6], the parameter is [5]
  const std::vector<double> before = to_doubles(in[0][1]);
  try {
    run(*k, in, metas);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument) << e.what();
    EXPECT_EQ(e.info().op, "fused_sgd_") << e.what();
    EXPECT_EQ(e.info().arg, "params[1]") << e.what();
    EXPECT_NE(std::string(e.what()).find("the result's shape [6]"), std::string::npos) << e.what();
  }
  EXPECT_EQ(to_doubles(in[0][1]), before);  // nothing written
}

}  // namespace
}  // namespace skiff::testing
