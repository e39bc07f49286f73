// The shape and nn SPMD rules (skiff/dist/spmd/rules.h): where, transpose, reshape, softmax,
// layer_norm, rms_norm, concat, split, slice, pad, roll, embedding, cross_entropy_with_softmax.
// Cases marked
// "Paddle" are transcribed from Paddle's test/auto_parallel/spmd_rules/test_*_rule.py and
// test/cpp/auto_parallel/spmd_rule_test.cc.
#include <gtest/gtest.h>

#include "skiff/dist/spmd/rules.h"
#include "tests/cpp/dist/spmd_test_util.h"

namespace skiff::dist::spmd {
namespace {

using testing::error_of;
using testing::expect;
using testing::mesh_1d;
using testing::mesh_2d;
using testing::spec;
using V = std::vector<int64_t>;

TEST(WhereSpmdTest, BroadcastsThreeInputs) {
  const auto m = mesh_2d();
  expect(where_spmd(spec(m, {16, 8}, {-1, -1}), spec(m, {16, 8}, {0, -1}), spec(m, {8}, {1})),
         {{0, 1}, {0, 1}, {1}}, {{0, 1}});
  // condition's sharded size-1 dim broadcasts: its sharding is dropped, x's dim 1 wins
  expect(
      where_spmd(spec(m, {1, 8}, {0, -1}), spec(m, {16, 8}, {-1, 0}), spec(m, {16, 8}, {-1, -1})),
      {{-1, 0}, {-1, 0}, {-1, 0}}, {{-1, 0}});
}

TEST(TransposeSpmdTest, FollowsPerm) {  // Paddle
  const auto m = mesh_2d();
  expect(transpose_spmd(spec(m, {64, 36}, {-1, 0}), {1, 0}), {{-1, 0}}, {{0, -1}});
  expect(transpose_spmd(spec(m, {64, 48, 36, 24}, {-1, 0, 1, -1}), {0, 2, 3, 1}), {{-1, 0, 1, -1}},
         {{-1, 1, -1, 0}});
  expect(transpose_spmd(spec(m, {64, 48, 36, 24}, {-1, 0, 1, -1}), {-1, 0, -2, 1}),
         {{-1, 0, 1, -1}}, {{-1, -1, 1, 0}});
  EXPECT_EQ(error_of([&] {
              transpose_spmd(spec(m, {4, 6}, {0, -1}), {0, 0});
            }),
            "(InvalidArgument) transpose_spmd: argument 'perm' expected a permutation of x's dims, "
            "got [0, 0]");
  EXPECT_EQ(error_of([&] {
              transpose_spmd(spec(m, {4, 6}, {0, -1}), {0});
            }),
            "(InvalidArgument) transpose_spmd: argument 'perm' expected 2 entries (x's ndim), got "
            "[0]");
}

TEST(ExpandSpmdTest, GrownAndNewDimsReplicated) {
  const auto m = mesh_2d();
  // [8] sharded -> [4, 8]: the new leading dim is replicated, dim 1 keeps the sharding
  expect(expand_spmd(spec(m, {8}, {1}), {4, 8}), {{1}}, {{-1, 1}});
  // a sharded size-1 dim that grows is replicated; -1 keeps x's size and sharding
  expect(expand_spmd(spec(m, {1, 8}, {0, 1}), {6, -1}), {{-1, 1}}, {{-1, 1}});
  expect(expand_spmd(spec(m, {6, 1}, {0, -1}), {2, 6, 1}), {{0, -1}}, {{-1, 0, -1}});
  EXPECT_EQ(error_of([&] {
              expand_spmd(spec(m, {6, 8}, {0, -1}), {8});
            }),
            "(InvalidArgument) expand_spmd: argument 'shape' expected at least 2 dims (x's ndim), "
            "got [8]");
  EXPECT_EQ(error_of([&] {
              expand_spmd(spec(m, {6, 8}, {0, -1}), {6, 4});
            }),
            "(InvalidArgument) expand_spmd: argument 'shape' expected a shape x [6, 8] broadcasts "
            "to, got [6, 4]");
}

// Paddle's TestReshapeSPMDRule: mesh [[0,1,2],[3,4,5]], x [6, 12, 48, 24].
TEST(ReshapeSpmdTest, PaddleCases) {
  const auto m = mesh_2d();
  auto run = [&](V xs, V xm, V shape) { return reshape_spmd(spec(m, xs, xm), shape); };
  const V xs = {6, 12, 48, 24};
  expect(run(xs, {0, -1, 1, -1}, {1, 72, 48, 4, 6}), {{0, -1, 1, -1}}, {{-1, 0, 1, -1, -1}});
  // 12 is not the first dim of its merge; 4 does not divide by 3
  expect(run(xs, {-1, 0, -1, 1}, {1, 72, 48, 4, 6}), {{-1, -1, -1, -1}}, {{-1, -1, -1, -1, -1}});
  expect(run(xs, {1, -1, -1, 0}, {1, 72, 48, 4, 6}), {{1, -1, -1, 0}}, {{-1, 1, -1, 0, -1}});
  expect(run(xs, {0, 1, -1, -1}, {3, 24, 6, 8, 24}), {{-1, -1, -1, -1}}, {{-1, -1, -1, -1, -1}});
  expect(run(xs, {1, -1, -1, 0}, {3, 24, 6, 8, 24}), {{1, -1, -1, 0}}, {{1, -1, -1, -1, 0}});
  expect(run(xs, {-1, -1, 0, 1}, {3, 24, 6, -1, 24}), {{-1, -1, 0, 1}}, {{-1, -1, 0, -1, 1}});
  expect(run(xs, {1, -1, -1, 0}, {1, 72, 0, 4, 6}), {{1, -1, -1, 0}}, {{-1, 1, -1, 0, -1}});
  expect(run(xs, {-1, -1, 0, 1}, {6, 12, 48, 24}), {{-1, -1, 0, 1}}, {{-1, -1, 0, 1}});
  expect(run(xs, {0, -1, 1, -1}, {72, 3, 16, 24}), {{0, -1, 1, -1}}, {{0, 1, -1, -1}});
  expect(run(xs, {1, -1, 0, -1}, {72, 3, 16, 24}), {{1, -1, -1, -1}}, {{1, -1, -1, -1}});
  expect(run({1, 72, 48, 4, 6}, {-1, 1, -1, 0, -1}, {6, 12, 48, 24}), {{-1, 1, -1, 0, -1}},
         {{1, -1, -1, 0}});
  expect(run({8, 1024, 3072}, {0, 1, -1}, {0, 0, -1, 192}), {{0, 1, -1}}, {{0, 1, -1, -1}});
  // dynamic dims of x copied by 0 map one to one; the -1 is inferred from the static dims
  expect(run({-1, -1, 3072}, {0, 1, -1}, {0, 0, -1, 192}), {{0, 1, -1}}, {{0, 1, -1, -1}});
  expect(run({-1, -1, 3072}, {0, -1, 1}, {0, 0, -1, 192}), {{0, -1, -1}}, {{0, -1, -1, -1}});
  expect(run({-1, -1, 3072}, {1, -1, 0}, {0, 0, -1, 192}), {{1, -1, 0}}, {{1, -1, 0, -1}});
  EXPECT_EQ(error_of([&] {
              run({-1, 3072}, {-1, -1}, {-1, 192});
            }),
            "(InvalidArgument) reshape_spmd: argument 'shape' expected 0 (copy) at each dynamic "
            "dim of x [-1, 3072], got [-1, 192]");
  EXPECT_EQ(error_of([&] {
              run({6, -1}, {-1, -1}, {2, 0, 3});
            }),
            "(InvalidArgument) reshape_spmd: argument 'shape' expected dynamic dims of x [6, -1] "
            "kept at their positions, got [2, -1, 3]");
  // a size-1 dim that maps one to one keeps its sharding
  expect(run({1, 2048, 12288}, {0, -1, 1}, {0, 0, 6, 2048}), {{0, -1, 1}}, {{0, -1, 1, -1}});
  EXPECT_EQ(error_of([&] {
              run(xs, {-1, -1, -1, -1}, {3, 24, 6, -1, -1});
            }),
            "(InvalidArgument) reshape_spmd: argument 'shape' expected at most one -1, got [3, "
            "24, 6, -1, -1]");
  EXPECT_EQ(error_of([&] {
              run(xs, {-1, -1, -1, -1}, {5, 7});
            }),
            "(InvalidArgument) reshape_spmd: argument 'shape' expected a shape of 82944 elements "
            "(x's shape [6, 12, 48, 24]), got [5, 7]");
}

TEST(ReshapeSpmdTest, OneDMesh) {
  const auto m = mesh_1d();  // 4 processes
  expect(reshape_spmd(spec(m, {8, 6}, {0, -1}), {48}), {{0, -1}}, {{0}});
  expect(reshape_spmd(spec(m, {8, 6}, {-1, 0}), {48}), {{-1, -1}}, {{-1}});
  expect(reshape_spmd(spec(m, {48}, {0}), {8, 6}), {{0}}, {{0, -1}});
  expect(reshape_spmd(spec(m, {48}, {0}), {6, 8}), {{-1}}, {{-1, -1}});  // 6 % 4 != 0
  expect(reshape_spmd(spec(m, {0, 6}, {0, -1}), {-1, 3}), {{-1, -1}}, {{-1, -1}});
}

TEST(SoftmaxSpmdTest, AxisReplicated) {  // Paddle
  const auto m = mesh_2d();
  expect(softmax_spmd(spec(m, {8, 16, 48}, {1, -1, 0}), -1), {{1, -1, -1}}, {{1, -1, -1}});
  expect(softmax_spmd(spec(m, {8, 16, 48}, {-1, 0, -1}), 1), {{-1, -1, -1}}, {{-1, -1, -1}});
  expect(softmax_spmd(spec(m, {8, 16, 48}, {-1, 0, 1}), 0), {{-1, 0, 1}}, {{-1, 0, 1}});
  EXPECT_EQ(error_of([&] {
              softmax_spmd(spec(m, {8, 16}, {-1, 0}), 2);
            }),
            "(InvalidArgument) softmax_spmd: argument 'axis' expected an axis in [-2, 2), got 2");
}

// Paddle's LayerNormSPMDRule: mesh [[0,1,2],[3,4,5]], x [64, 32, 1024].
TEST(LayerNormSpmdTest, PaddleCases) {
  const auto m = mesh_2d();
  const V xs = {64, 32, 1024};
  auto s = spec(m, {1024}, {-1}), b = spec(m, {1024}, {-1});
  expect(layer_norm_spmd(spec(m, xs, {1, -1, -1}), &s, &b, 1e-5f, 2), {{1, -1, -1}, {-1}, {-1}},
         {{1, -1, -1}, {1, -1}, {1, -1}});
  s = spec(m, {1024}, {0});
  b = spec(m, {1024}, {0});
  expect(layer_norm_spmd(spec(m, xs, {1, 0, -1}), &s, &b, 1e-5f, 2), {{1, 0, -1}, {-1}, {-1}},
         {{1, 0, -1}, {1, 0}, {1, 0}});
  s = spec(m, {32 * 1024}, {-1});
  b = spec(m, {32 * 1024}, {1});
  expect(layer_norm_spmd(spec(m, xs, {0, -1, -1}), &s, &b, 1e-5f, 1), {{0, -1, -1}, {-1}, {-1}},
         {{0, -1, -1}, {0}, {0}});
  // a sharded normalized dim is replicated
  expect(layer_norm_spmd(spec(m, xs, {0, 1, -1}), nullptr, nullptr, 1e-5f, 1),
         {{0, -1, -1}, {}, {}}, {{0, -1, -1}, {0}, {0}});
  const SpmdInfo info = layer_norm_spmd(spec(m, xs, {0, 1, -1}), nullptr, nullptr, 1e-5f, 1);
  EXPECT_TRUE(info.inputs[1].process_mesh().empty());
  EXPECT_EQ(error_of([&] {
              auto bad = spec(m, {1024}, {0, 1});
              layer_norm_spmd(spec(m, xs, {0, 1, -1}), &bad, nullptr, 1e-5f, 2);
            }),
            "(InvalidArgument) layer_norm_spmd: argument 'scale' expected dims_mapping of length 1 "
            "(the tensor's ndim), got [0, 1]");
}

TEST(RmsNormSpmdTest, LastDimReplicated) {
  const auto m = mesh_2d();
  auto w = spec(m, {1024}, {1});
  expect(rms_norm_spmd(spec(m, {8, 32, 1024}, {0, -1, 1}), &w, 1e-6f, -1), {{0, -1, -1}, {-1}},
         {{0, -1, -1}, {0, -1}});
  expect(rms_norm_spmd(spec(m, {8, 32, 1024}, {0, 1, -1}), nullptr, 1e-6f, 1), {{0, -1, -1}, {}},
         {{0, -1, -1}, {0}});
  EXPECT_EQ(error_of([&] {
              rms_norm_spmd(spec(m, {8, 32}, {0, -1}), nullptr, 1e-6f, 3);
            }),
            "(InvalidArgument) rms_norm_spmd: argument 'begin_norm_axis' expected an axis in [-2, "
            "2), got 3");
}

TEST(ConcatSpmdTest, AxisReplicatedOthersMerged) {  // Paddle
  const auto m = mesh_2d();
  const std::vector<DistTensorSpec> xs = {spec(m, {64, 36}, {0, -1}), spec(m, {64, 36}, {-1, 1}),
                                          spec(m, {64, 36}, {-1, -1})};
  expect(concat_spmd(xs, 1), {{0, -1}, {0, -1}, {0, -1}}, {{0, -1}});
  expect(concat_spmd(xs, 0), {{-1, 1}, {-1, 1}, {-1, 1}}, {{-1, 1}});
  EXPECT_EQ(error_of([&] {
              concat_spmd({spec(m, {4, 6}, {0, -1}), spec(m, {4}, {-1})}, 0);
            }),
            "(InvalidArgument) concat_spmd: argument 'x[1]' expected 2 dims (as x[0]), got 1");
  EXPECT_EQ(error_of([&] { concat_spmd({}, 0); }),
            "(InvalidArgument) concat_spmd: argument 'x' expected at least one tensor, got none");
}

TEST(SplitSpmdTest, AxisReplicated) {  // Paddle
  const auto m = mesh_2d();
  expect(split_spmd(spec(m, {64, 32, 48}, {0, 1, -1}), 3, 2), {{0, 1, -1}},
         {{0, 1, -1}, {0, 1, -1}, {0, 1, -1}});
  expect(split_spmd(spec(m, {64, 32, 48}, {0, 1, -1}), 2, -2), {{0, -1, -1}},
         {{0, -1, -1}, {0, -1, -1}});
  EXPECT_EQ(error_of([&] { split_spmd(spec(m, {64}, {0}), 0, 0); }),
            "(InvalidArgument) split_spmd: argument 'num_outputs' expected at least 1, got 0");
}

TEST(SliceSpmdTest, SlicedAxesReplicated) {  // Paddle
  const auto m = mesh_2d();
  expect(slice_spmd(spec(m, {64, 48, 36, 24}, {0, 1, -1, -1}), {1, 2}), {{0, -1, -1, -1}},
         {{0, -1, -1, -1}});
  expect(slice_spmd(spec(m, {64, 48, 36, 24}, {-1, 0, 1, -1}), {0}, {0}), {{-1, 0, 1, -1}},
         {{0, 1, -1}});
  expect(slice_spmd(spec(m, {64, 48, 36, 24}, {-1, 0, 1, -1}), {-1, 1}, {1}), {{-1, -1, 1, -1}},
         {{-1, 1, -1}});
  EXPECT_EQ(error_of([&] {
              slice_spmd(spec(m, {64, 48}, {0, -1}), {4});
            }),
            "(InvalidArgument) slice_spmd: argument 'axes' expected an axis in [-2, 2), got 4");
}

TEST(PadSpmdTest, PaddedDimsReplicated) {  // Paddle
  const auto m = mesh_2d();
  // one pair per dim: dim 1 padded
  expect(pad_spmd(spec(m, {8, 6, 4}, {0, 1, -1}), {0, 0, 1, 2, 0, 0}), {{0, -1, -1}},
         {{0, -1, -1}});
  // the short form pads the last dims, last dim first: {1, 0} pads dim 2, {0, 0} leaves dim 1
  expect(pad_spmd(spec(m, {8, 6, 4}, {-1, 0, 1}), {1, 0, 0, 0}), {{-1, 0, -1}}, {{-1, 0, -1}});
  expect(pad_spmd(spec(m, {8, 6}, {0, 1}), {}), {{0, 1}}, {{0, 1}});
  EXPECT_EQ(error_of([&] {
              pad_spmd(spec(m, {8, 6}, {0, 1}), {1, 2, 3});
            }),
            "(InvalidArgument) pad_spmd: argument 'paddings' expected an even number of values, "
            "at most 4 (2 * rank), got [1, 2, 3]");
}

TEST(RollSpmdTest, RolledAxesReplicated) {  // Paddle
  const auto m = mesh_2d();
  // RoPE's roll on head_dim of [b, s, heads, head_dim] sharded on batch and heads: no comm
  expect(roll_spmd(spec(m, {4, 8, 6, 16}, {0, -1, 1, -1}), {8}, {-1}), {{0, -1, 1, -1}},
         {{0, -1, 1, -1}});
  expect(roll_spmd(spec(m, {8, 6, 4}, {0, 1, -1}), {1}, {0}), {{-1, 1, -1}}, {{-1, 1, -1}});
  expect(roll_spmd(spec(m, {8, 6, 4}, {0, 1, -1}), {1, -2}, {0, -2}), {{-1, -1, -1}},
         {{-1, -1, -1}});
  // empty axis: the flattened tensor rolls, nothing may stay sharded
  expect(roll_spmd(spec(m, {8, 6}, {-1, 1}), {3}, {}), {{-1, -1}}, {{-1, -1}});
  EXPECT_EQ(error_of([&] {
              roll_spmd(spec(m, {8, 6}, {0, 1}), {1, 2}, {});
            }),
            "(InvalidArgument) roll_spmd: argument 'shifts' expected one shift when axis is "
            "empty (the flattened tensor rolls), got [1, 2]");
  EXPECT_EQ(error_of([&] {
              roll_spmd(spec(m, {8, 6}, {0, 1}), {1}, {0, 1});
            }),
            "(InvalidArgument) roll_spmd: argument 'shifts' expected 2 values (one per axis), got "
            "[1]");
  EXPECT_EQ(error_of([&] {
              roll_spmd(spec(m, {8, 6}, {0, 1}), {1}, {2});
            }),
            "(InvalidArgument) roll_spmd: argument 'axis' expected an axis in [-2, 2), got 2");
}

TEST(RollSpmdTest, GradientIsTheRollBack) {
  // roll's VJP is roll(grad_out, -shifts, axis): the rule on out's layout gives x's layout, so
  // the gradient arrives laid out like x and needs no reshard
  const auto m = mesh_2d();
  for (const V& x_map : {V{0, -1, 1}, V{-1, 0, 1}, V{1, 0, -1}}) {
    const SpmdInfo fwd = roll_spmd(spec(m, {8, 6, 4}, x_map), {2}, {1});
    const SpmdInfo bwd = roll_spmd({{8, 6, 4}, fwd.outputs[0]}, {-2}, {1});
    EXPECT_EQ(bwd.inputs[0], fwd.outputs[0]);
    EXPECT_EQ(bwd.outputs[0], fwd.inputs[0]);
  }
}

TEST(EmbeddingSpmdTest, VocabShardedGivesPartial) {  // Paddle
  const auto m = mesh_2d();
  // dp: ids sharded, table replicated
  expect(embedding_spmd(spec(m, {16, 32}, {1, -1}), spec(m, {512, 768}, {-1, -1})),
         {{1, -1}, {-1, -1}}, {{1, -1, -1}});
  // mp on hidden
  expect(embedding_spmd(spec(m, {16, 32}, {0, -1}), spec(m, {512, 768}, {-1, 1})),
         {{0, -1}, {-1, 1}}, {{0, -1, 1}});
  // vocab parallel: out Partial on mesh axis 1
  expect(embedding_spmd(spec(m, {16, 32}, {0, -1}), spec(m, {512, 768}, {1, -1})),
         {{0, -1}, {1, -1}}, {{0, -1, -1}}, {{1}});
  // with a padding_idx the table is gathered
  expect(embedding_spmd(spec(m, {16, 32}, {0, -1}), spec(m, {512, 768}, {1, -1}), 0),
         {{0, -1}, {-1, -1}}, {{0, -1, -1}});
  // ids and vocab on one mesh axis: ids (met first) keep it
  expect(embedding_spmd(spec(m, {16, 32}, {0, -1}), spec(m, {512, 768}, {0, -1})),
         {{0, -1}, {-1, -1}}, {{0, -1, -1}});
  EXPECT_EQ(error_of([&] { embedding_spmd(spec(m, {16}, {0}), spec(m, {512}, {-1})); }),
            "(InvalidArgument) embedding_spmd: argument 'weight' expected a 2-d table [vocab, "
            "hidden], got [512]");
}

TEST(CrossEntropyWithSoftmaxSpmdTest, ClassAxisReplicated) {  // Paddle
  const auto m = mesh_2d();
  // hard label [N, 1]
  expect(cross_entropy_with_softmax_spmd(spec(m, {8, 16, 1000}, {1, -1, 0}),
                                         spec(m, {8, 16, 1}, {-1, 0, -1})),
         {{1, 0, -1}, {1, 0, -1}}, {{1, 0, -1}, {1, 0, -1}});
  // soft label, class axis 1
  expect(cross_entropy_with_softmax_spmd(spec(m, {8, 1000}, {-1, 0}), spec(m, {8, 1000}, {1, -1}),
                                         true, true, true, -100, 1),
         {{1, -1}, {1, -1}}, {{1, -1}, {1, -1}});
  EXPECT_EQ(error_of([&] {
              cross_entropy_with_softmax_spmd(spec(m, {8, 10}, {0, -1}), spec(m, {8}, {0}));
            }),
            "(InvalidArgument) cross_entropy_with_softmax_spmd: argument 'label' expected 2 dims "
            "(as logits; size 1 on the class axis for hard labels), got [8]");
}

}  // namespace
}  // namespace skiff::dist::spmd
