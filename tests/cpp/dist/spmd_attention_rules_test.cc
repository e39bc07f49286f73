// The attention SPMD rules (skiff/dist/spmd/rules.h): flash_attn_spmd and its gradient side,
// flash_attn_grad_spmd, on the fake 2 x 3 mesh. Cases marked "Paddle" follow Paddle's
// test/auto_parallel/spmd_rules/test_flash_attention_rule.py.
#include <gtest/gtest.h>

#include "skiff/dist/spmd/rules.h"
#include "tests/cpp/dist/spmd_test_util.h"

namespace skiff::dist::spmd {
namespace {

using testing::error_of;
using testing::expect;
using testing::mesh_2d;
using testing::spec;
using V = std::vector<int64_t>;

// q, k, v [4, 8, 6, 16] with one dims_mapping each.
SpmdInfo attn(const V& q, const V& k, const V& v, bool return_softmax = false) {
  const auto m = mesh_2d();
  return flash_attn_spmd(spec(m, {4, 8, 6, 16}, q), spec(m, {4, 8, 6, 16}, k),
                         spec(m, {4, 8, 6, 16}, v), nullptr, return_softmax);
}

TEST(FlashAttnSpmdTest, BatchAndHeadsStaySharded) {  // Paddle
  // dp on batch, mp on heads: local attention, outputs keep both
  const V bh = {0, -1, 1, -1};
  expect(attn(bh, bh, bh), {bh, bh, bh, {}}, {bh, {-1}, {0, 1, -1}, {-1}});
  // with the probabilities returned: [b, h, sq, sk]
  expect(attn(bh, bh, bh, true), {bh, bh, bh, {}}, {bh, {0, 1, -1, -1}, {0, 1, -1}, {-1}});
  // a replicated q adopts k's and v's shardings
  expect(attn({-1, -1, -1, -1}, bh, {-1, -1, 1, -1}), {bh, bh, bh, {}},
         {bh, {-1}, {0, 1, -1}, {-1}});
}

TEST(FlashAttnSpmdTest, SequenceAndHeadDimReplicated) {  // Paddle
  // a sequence-sharded q (sequence parallelism) is gathered; head_dim is never split
  expect(attn({-1, 0, 1, -1}, {-1, 0, 1, -1}, {-1, -1, 1, 0}),
         {{-1, -1, 1, -1}, {-1, -1, 1, -1}, {-1, -1, 1, -1}, {}},
         {{-1, -1, 1, -1}, {-1}, {-1, 1, -1}, {-1}});
}

TEST(FlashAttnSpmdTest, ConflictsKeepTheFirstSharding) {
  // q shards batch on mesh axis 0, k shards heads on axis 0: batch (met first) keeps it
  expect(attn({0, -1, -1, -1}, {-1, -1, 0, -1}, {-1, -1, -1, -1}),
         {{0, -1, -1, -1}, {0, -1, -1, -1}, {0, -1, -1, -1}, {}},
         {{0, -1, -1, -1}, {-1}, {0, -1, -1}, {-1}});
  // two mesh axes on one tensor axis cannot be merged
  EXPECT_EQ(error_of([&] {
              attn({0, -1, -1, -1}, {1, -1, -1, -1}, {-1, -1, -1, -1});
            }),
            "(Unimplemented) flash_attn_spmd: argument 'k' expected tensor axis 'b' sharded like "
            "in 'q' (mesh axis 0); one axis sharded on two mesh axes is not supported, got mesh "
            "axis 1");
}

TEST(FlashAttnSpmdTest, GroupedHeads) {
  const auto m = mesh_2d();  // axis 1 has 3 processes
  // 6 query heads over 3 key heads: each process holds 2 query heads and their key head
  expect(flash_attn_spmd(spec(m, {4, 8, 6, 16}, {-1, -1, 1, -1}),
                         spec(m, {4, 8, 3, 16}, {-1, -1, 1, -1}),
                         spec(m, {4, 8, 3, 16}, {-1, -1, -1, -1}), nullptr),
         {{-1, -1, 1, -1}, {-1, -1, 1, -1}, {-1, -1, 1, -1}, {}},
         {{-1, -1, 1, -1}, {-1}, {-1, 1, -1}, {-1}});
  // 6 query heads over 2 key heads do not split in 3: heads replicated, batch kept
  expect(flash_attn_spmd(spec(m, {4, 8, 6, 16}, {0, -1, 1, -1}),
                         spec(m, {4, 8, 2, 16}, {0, -1, 1, -1}),
                         spec(m, {4, 8, 2, 16}, {0, -1, 1, -1}), nullptr),
         {{0, -1, -1, -1}, {0, -1, -1, -1}, {0, -1, -1, -1}, {}},
         {{0, -1, -1, -1}, {-1}, {0, -1, -1}, {-1}});
}

TEST(FlashAttnSpmdTest, SeedOffsetAndValueHeadDim) {
  const auto m = mesh_2d();
  const auto seed = spec(m, {2}, {0});
  // a fixed (seed, offset) pair is replicated; v's own head_dim (e) is replicated too
  expect(flash_attn_spmd(spec(m, {4, 8, 6, 16}, {0, -1, 1, -1}),
                         spec(m, {4, 10, 6, 16}, {0, -1, 1, -1}),
                         spec(m, {4, 10, 6, 32}, {0, 1, -1, -1}), &seed),
         {{0, -1, 1, -1}, {0, -1, 1, -1}, {0, -1, 1, -1}, {-1}},
         {{0, -1, 1, -1}, {-1}, {0, 1, -1}, {-1}});
}

TEST(FlashAttnSpmdTest, BadInputs) {
  const auto m = mesh_2d();
  const auto q = spec(m, {4, 8, 6, 16}, {0, -1, 1, -1});
  EXPECT_EQ(error_of([&] {
              flash_attn_spmd(spec(m, {4, 8, 6}, {0, -1, 1}), q, q, nullptr);
            }),
            "(InvalidArgument) flash_attn_spmd: argument 'q' expected a 4-d tensor [batch, "
            "seqlen, num_heads, head_dim], got [4, 8, 6]");
  EXPECT_EQ(error_of([&] {
              flash_attn_spmd(q, spec(m, {2, 8, 6, 16}, {-1, -1, -1, -1}), q, nullptr);
            }),
            "(InvalidArgument) flash_attn_spmd: argument 'k' expected q's batch size 4 in k and "
            "v, got 2 and 4");
  EXPECT_EQ(error_of([&] {
              const auto k = spec(m, {4, 8, 4, 16}, {-1, -1, -1, -1});
              flash_attn_spmd(q, k, k, nullptr);
            }),
            "(InvalidArgument) flash_attn_spmd: argument 'k' expected num_heads dividing q's 6, "
            "equal in k and v, got 4 and 4");
  EXPECT_EQ(error_of([&] {
              flash_attn_spmd(q, q, spec(m, {4, 9, 6, 16}, {-1, -1, -1, -1}), nullptr);
            }),
            "(InvalidArgument) flash_attn_spmd: argument 'v' expected k's seqlen 8, got 9");
  EXPECT_EQ(error_of([&] {
              const auto k = spec(m, {4, 8, 6, 8}, {-1, -1, -1, -1});
              flash_attn_spmd(q, k, k, nullptr);
            }),
            "(InvalidArgument) flash_attn_spmd: argument 'k' expected q's head_dim 16, got 8");
  EXPECT_EQ(error_of([&] {
              flash_attn_spmd(q, spec(m, {4, 8, 6, 16}, {0, -1, 2, -1}), q, nullptr);
            }),
            "(InvalidArgument) flash_attn_spmd: argument 'k' expected dims_mapping entries -1 or "
            "a mesh axis in [0, 2), got [0, -1, 2, -1]");
}

// The backward's inputs laid out as the forward left them (its out, softmax_lse and the
// seed_offset) with out_grad in `og`.
SpmdInfo attn_grad(const V& q, const V& og) {
  const auto m = mesh_2d();
  const SpmdInfo fwd = attn(q, q, q);
  return flash_attn_grad_spmd(spec(m, {4, 8, 6, 16}, fwd.inputs[0].dims_mapping()),
                              spec(m, {4, 8, 6, 16}, fwd.inputs[1].dims_mapping()),
                              spec(m, {4, 8, 6, 16}, fwd.inputs[2].dims_mapping()),
                              spec(m, {4, 8, 6, 16}, fwd.outputs[0].dims_mapping()),
                              spec(m, {4, 6, 8}, fwd.outputs[2].dims_mapping()),
                              spec(m, {2}, fwd.outputs[3].dims_mapping()),
                              spec(m, {4, 8, 6, 16}, og));
}

TEST(FlashAttnGradSpmdTest, GradientsTakeTheForwardLayouts) {
  // each gradient is laid out as its input was in the forward: no Partial, no reshard of
  // q, k, v, out or softmax_lse
  for (const V& q : {V{0, -1, 1, -1}, V{-1, -1, 1, -1}, V{0, -1, -1, -1}, V{-1, 0, 1, -1}}) {
    const SpmdInfo fwd = attn(q, q, q);
    const V want = fwd.inputs[0].dims_mapping();
    const V lse = fwd.outputs[2].dims_mapping();
    expect(attn_grad(q, fwd.outputs[0].dims_mapping()), {want, want, want, want, lse, {-1}, want},
           {want, want, want});
  }
}

TEST(FlashAttnGradSpmdTest, OutGradMergedIntoTheLayout) {
  // an out_grad sharded on the sequence (sequence parallelism) is gathered
  expect(attn_grad({0, -1, 1, -1}, {0, 1, -1, -1}),
         {{0, -1, 1, -1},
          {0, -1, 1, -1},
          {0, -1, 1, -1},
          {0, -1, 1, -1},
          {0, 1, -1},
          {-1},
          {0, -1, 1, -1}},
         {{0, -1, 1, -1}, {0, -1, 1, -1}, {0, -1, 1, -1}});
  const auto m = mesh_2d();
  const auto t = spec(m, {4, 8, 6, 16}, {0, -1, 1, -1});
  EXPECT_EQ(
      error_of([&] {
        flash_attn_grad_spmd(t, t, t, t, spec(m, {4, 8, 6}, {0, -1, 1}), spec(m, {2}, {-1}), t);
      }),
      "(InvalidArgument) flash_attn_grad_spmd: argument 'softmax_lse' expected shape "
      "[4, 6, 8] ([batch, num_heads, seqlen_q]), got [4, 8, 6]");
  EXPECT_EQ(error_of([&] {
              flash_attn_grad_spmd(t, t, t, t, spec(m, {4, 6, 8}, {0, 1, -1}), spec(m, {2}, {-1}),
                                   spec(m, {4, 8, 6, 8}, {0, -1, 1, -1}));
            }),
            "(InvalidArgument) flash_attn_grad_spmd: argument 'out_grad' expected shape "
            "[4, 8, 6, 16], got [4, 8, 6, 8]");
}

}  // namespace
}  // namespace skiff::dist::spmd
