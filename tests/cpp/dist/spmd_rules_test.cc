// The core SPMD rules (skiff/dist/spmd/rules.h): elementwise, matmul, reduction, replicated.
// Cases marked "Paddle" are transcribed from Paddle's test/cpp/auto_parallel/spmd_rule_test.cc
// and test/auto_parallel/spmd_rules/test_{elementwise,matmul,reduction}_rule.py.
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

TEST(ElementwiseSpmdTest, Unary) {
  const auto m = mesh_1d();
  expect(elementwise_unary_spmd(spec(m, {64, 36}, {-1, 0})), {{-1, 0}}, {{-1, 0}});  // Paddle
  // a partial input is reduced first: neither the input requirement nor out is partial
  DistTensorSpec p{{8}, DistAttr(m, {-1}, {{0, ReduceType::kRedSum}})};
  const SpmdInfo info = elementwise_unary_spmd(p);
  expect(info, {{-1}}, {{-1}});
  EXPECT_EQ(info.outputs[0].process_mesh(), m);
}

TEST(ElementwiseSpmdTest, BinarySingleMeshDim) {  // Paddle
  const auto m = mesh_1d();
  auto run = [&](V xs, V xm, V ys, V ym) {
    return elementwise_binary_spmd(spec(m, xs, xm), spec(m, ys, ym));
  };
  expect(run({64, 36}, {0, -1}, {64, 36}, {-1, -1}), {{0, -1}, {0, -1}}, {{0, -1}});
  // mesh axis 0 would shard both dims: the first dim keeps it
  expect(run({64, 36}, {0, -1}, {64, 36}, {-1, 0}), {{0, -1}, {0, -1}}, {{0, -1}});
  expect(run({64, 36}, {-1, -1}, {64, 36}, {-1, -1}), {{-1, -1}, {-1, -1}}, {{-1, -1}});
}

TEST(ElementwiseSpmdTest, BinaryBroadcastSingleMeshDim) {  // Paddle
  const auto m = mesh_1d();
  auto run = [&](V xs, V xm, V ys, V ym) {
    return elementwise_binary_spmd(spec(m, xs, xm), spec(m, ys, ym));
  };
  expect(run({64, 36, 12}, {0, -1, -1}, {12}, {-1}), {{0, -1, -1}, {-1}}, {{0, -1, -1}});
  expect(run({64, 36, 12}, {-1, 0, -1}, {12}, {-1}), {{-1, 0, -1}, {-1}}, {{-1, 0, -1}});
  expect(run({64, 36, 12}, {-1, -1, 0}, {12}, {-1}), {{-1, -1, 0}, {0}}, {{-1, -1, 0}});
  expect(run({64, 36, 12}, {-1, -1, -1}, {12}, {0}), {{-1, -1, 0}, {0}}, {{-1, -1, 0}});
  expect(run({64, 36, 12}, {-1, 0, -1}, {1, 12}, {-1, -1}), {{-1, 0, -1}, {-1, -1}}, {{-1, 0, -1}});
  expect(run({64, 1, 1, 12}, {0, -1, -1, -1}, {64, 32, 12}, {-1, -1, -1}),
         {{0, -1, -1, -1}, {-1, -1, -1}}, {{0, -1, -1, -1}});
  expect(run({64, 1, 1, 12}, {-1, -1, -1, -1}, {64, 32, 12}, {0, -1, -1}),
         {{-1, -1, -1, -1}, {0, -1, -1}}, {{-1, 0, -1, -1}});
}

TEST(ElementwiseSpmdTest, BroadcastSize1DimIsReplicated) {
  // y's size-1 dim 0 broadcasts against x's 64: its sharding is dropped, out follows x
  const auto m = mesh_1d();
  expect(elementwise_binary_spmd(spec(m, {64, 12}, {-1, -1}), spec(m, {1, 12}, {0, -1})),
         {{-1, -1}, {-1, -1}}, {{-1, -1}});
}

TEST(ElementwiseSpmdTest, BinaryMultiMeshDim) {  // Paddle
  const auto m = mesh_2d();
  auto run = [&](V xs, V xm, V ys, V ym) {
    return elementwise_binary_spmd(spec(m, xs, xm), spec(m, ys, ym));
  };
  expect(run({96, 24, 48}, {0, 1, -1}, {96, 24, 48}, {-1, -1, -1}), {{0, 1, -1}, {0, 1, -1}},
         {{0, 1, -1}});
  expect(run({96, 24, 48}, {0, -1, -1}, {96, 24, 48}, {-1, 1, 0}), {{0, 1, -1}, {0, 1, -1}},
         {{0, 1, -1}});
  expect(run({96, 24, 48}, {0, -1, -1}, {48}, {1}), {{0, -1, 1}, {1}}, {{0, -1, 1}});
  expect(run({96, 24, 48}, {0, 1, -1}, {48}, {0}), {{0, 1, -1}, {-1}}, {{0, 1, -1}});
  expect(run({96, 1, 1, 48}, {-1, -1, -1, 1}, {96, 24, 48}, {0, -1, 1}),
         {{-1, -1, -1, 1}, {0, -1, 1}}, {{-1, 0, -1, 1}});
}

TEST(ElementwiseSpmdTest, BinaryErrors) {
  const auto m = mesh_2d();
  EXPECT_EQ(error_of([&] {
              elementwise_binary_spmd(spec(m, {4, 6}, {0, -1}), spec(m, {4, 6}, {0, 0}));
            }),
            "(InvalidArgument) elementwise_binary_spmd: argument 'y' expected each mesh axis in "
            "dims_mapping at most once, got [0, 0]");
  EXPECT_EQ(error_of([&] {
              elementwise_binary_spmd(spec(m, {4, 6}, {0, -1}), spec(mesh_1d(), {4, 6}, {0, -1}));
            }),
            "(InvalidArgument) elementwise_binary_spmd: argument 'y' expected the process mesh of "
            "'x' {shape: [2, 3], process_ids: [0, 1, 2, 3, 4, 5], dim_names: [x, y]}, got "
            "{shape: [4], process_ids: [0, 1, 2, 3], dim_names: [d0]}");
  EXPECT_NE(error_of([&] {
              elementwise_binary_spmd(spec(m, {4, 6}, {0, -1}), spec(m, {4, 6}, {1, -1}));
            }).find("(Unimplemented) elementwise_binary_spmd: argument 'y'"),
            std::string::npos);
}

// Paddle's MatmulSPMDRule test: mesh [[0,1,2],[3,4,5]], x [64, 32], y [32, 48].
TEST(MatmulSpmdTest, PaddleCases2d) {
  const auto m = mesh_2d();
  auto run = [&](V xs, V xm, V ym, bool tx = false, bool ty = false) {
    return matmul_spmd(spec(m, xs, xm), spec(m, {32, 48}, ym), tx, ty);
  };
  expect(run({64, 32}, {1, -1}, {-1, -1}), {{1, -1}, {-1, -1}}, {{1, -1}});
  expect(run({64, 32}, {-1, -1}, {-1, 0}), {{-1, -1}, {-1, 0}}, {{-1, 0}});
  // k sharded by x only: y must shard k too, out Partial on mesh axis 0
  expect(run({64, 32}, {1, 0}, {-1, -1}), {{1, 0}, {0, -1}}, {{1, -1}}, {{0}});
  expect(run({64, 32}, {-1, -1}, {1, 0}), {{-1, 1}, {1, 0}}, {{-1, 0}}, {{1}});
  const V xs = {512, 48, 64, 32};
  expect(run(xs, {0, 1, -1, -1}, {-1, -1}), {{0, 1, -1, -1}, {-1, -1}}, {{0, 1, -1, -1}});
  expect(run(xs, {1, -1, -1, 0}, {-1, -1}), {{1, -1, -1, 0}, {0, -1}}, {{1, -1, -1, -1}}, {{0}});
  // trans_x: x's last two dims are km, so mesh axis 0 shards m
  expect(run(xs, {1, -1, -1, 0}, {-1, -1}, true), {{1, -1, -1, 0}, {-1, -1}}, {{1, -1, 0, -1}});
  expect(run(xs, {-1, -1, -1, -1}, {1, 0}, false, true), {{-1, -1, -1, 0}, {1, 0}},
         {{-1, -1, -1, 1}}, {{0}});
  // both transposed; mesh axis 1 would shard m and n: m (x, met first) keeps it, y gathers n
  expect(run(xs, {-1, -1, 0, 1}, {1, 0}, true, true), {{-1, -1, 0, 1}, {-1, 0}}, {{-1, -1, 1, -1}},
         {{0}});
}

TEST(MatmulSpmdTest, KShardedOnTwoMeshAxesIsUnimplemented) {  // Paddle (test10)
  const auto m = mesh_2d();
  EXPECT_EQ(error_of([&] {
              matmul_spmd(spec(m, {512, 48, 64, 32}, {-1, -1, 1, 0}), spec(m, {32, 48}, {1, 0}),
                          true, true);
            }),
            "(Unimplemented) matmul_spmd: argument 'y' expected tensor axis 'k' sharded like in "
            "'x' (mesh axis 1); one axis sharded on two mesh axes is not supported, got mesh axis "
            "0");
}

TEST(MatmulSpmdTest, OneDimOperands) {
  const auto m = mesh_1d();
  // k . k -> scalar, Partial when k is sharded
  expect(matmul_spmd(spec(m, {8}, {0}), spec(m, {8}, {-1})), {{0}, {0}}, {V{}}, {{0}});
  // k . kn -> n
  expect(matmul_spmd(spec(m, {8}, {-1}), spec(m, {8, 4}, {-1, 0})), {{-1}, {-1, 0}}, {{0}});
  // bmk . k -> bm
  expect(matmul_spmd(spec(m, {2, 6, 8}, {0, -1, -1}), spec(m, {8}, {-1})), {{0, -1, -1}, {-1}},
         {{0, -1}});
  // trans_* is ignored for 1-d operands
  expect(matmul_spmd(spec(m, {8}, {0}), spec(m, {8, 4}, {-1, -1}), true, false), {{0}, {0, -1}},
         {{-1}}, {{0}});
}

TEST(MatmulSpmdTest, BatchBroadcast) {
  const auto m = mesh_2d();
  // x [4, 1, 6, 8] with its size-1 batch dim sharded (dropped); y [3, 8, 5] sharded on batch
  expect(matmul_spmd(spec(m, {4, 1, 6, 8}, {0, 1, -1, -1}), spec(m, {3, 8, 5}, {-1, -1, -1})),
         {{0, -1, -1, -1}, {-1, -1, -1}}, {{0, -1, -1, -1}});
  expect(matmul_spmd(spec(m, {4, 1, 6, 8}, {-1, -1, -1, -1}), spec(m, {3, 8, 5}, {1, -1, 0})),
         {{-1, -1, -1, -1}, {1, -1, 0}}, {{-1, 1, -1, 0}});
  // shared batch letter: the replicated side adopts the sharding
  expect(matmul_spmd(spec(m, {4, 6, 8}, {-1, -1, 1}), spec(m, {4, 8, 5}, {0, -1, -1})),
         {{0, -1, 1}, {0, 1, -1}}, {{0, -1, -1}}, {{1}});
}

TEST(MatmulSpmdTest, Errors) {
  const auto m = mesh_2d();
  EXPECT_EQ(error_of([&] {
              matmul_spmd(spec(m, {64, 32}, {0}), spec(m, {32, 48}, {-1, -1}));
            }),
            "(InvalidArgument) matmul_spmd: argument 'x' expected dims_mapping of length 2 (the "
            "tensor's ndim), got [0]");
  EXPECT_EQ(error_of([&] {
              matmul_spmd(spec(m, {64, 32}, {0, -1}), spec(m, {32, 48}, {-1, 3}));
            }),
            "(InvalidArgument) matmul_spmd: argument 'y' expected dims_mapping entries -1 or a "
            "mesh axis in [0, 2), got [-1, 3]");
  EXPECT_EQ(error_of([&] {
              matmul_spmd(spec(m, {}, {}), spec(m, {32, 48}, {-1, -1}));
            }),
            "(InvalidArgument) matmul_spmd: argument 'x' expected a tensor of at least 1 dim, got "
            "0 dims");
}

TEST(ReductionSpmdTest, SingleMeshDim) {  // Paddle
  const auto m = mesh_1d();
  expect(reduction_spmd(spec(m, {64, 32}, {0, -1}), {0}, false), {{0, -1}}, {{-1}}, {{0}});
  expect(reduction_spmd(spec(m, {64, 32}, {0, -1}), {0}, true), {{0, -1}}, {{-1, -1}}, {{0}});
  expect(reduction_spmd(spec(m, {64, 32}, {0, -1}), {1}, false), {{0, -1}}, {{0}});
  expect(reduction_spmd(spec(m, {64, 32}, {0, -1}), {-1}, true), {{0, -1}}, {{0, -1}});
  // all dims (empty axis list): a scalar
  expect(reduction_spmd(spec(m, {64, 32}, {0, -1}), {}, false), {{0, -1}}, {V{}}, {{0}});
  expect(reduction_spmd(spec(m, {64, 32}, {-1, -1}), {0, 1}, true), {{-1, -1}}, {{-1, -1}});
}

TEST(ReductionSpmdTest, MultiMeshDimAndReduceType) {  // Paddle
  const auto m = mesh_2d();
  expect(reduction_spmd(spec(m, {96, 24, 48}, {0, -1, 1}), {1, 2}, false), {{0, -1, 1}}, {{0}},
         {{1}});
  expect(reduction_spmd(spec(m, {96, 24, 48}, {-1, 0, 1}), {1, 2}, true), {{-1, 0, 1}},
         {{-1, -1, -1}}, {{0, 1}});
  const SpmdInfo info =
      reduction_spmd(spec(m, {96, 24, 48}, {0, 1, -1}), {0}, false, ReduceType::kRedMax);
  EXPECT_EQ(info.outputs[0].dims_mapping(), (V{1, -1}));
  EXPECT_EQ(info.outputs[0].partial_status().at(0), ReduceType::kRedMax);
  EXPECT_EQ(info.outputs[0].placements(),
            (std::vector<Placement>{Placement::partial(ReduceType::kRedMax), Placement::shard(0)}));
}

TEST(ReductionSpmdTest, Errors) {
  const auto m = mesh_1d();
  EXPECT_EQ(error_of([&] {
              reduction_spmd(spec(m, {64, 32}, {0, -1}), {2}, false);
            }),
            "(InvalidArgument) reduction_spmd: argument 'axis' expected an axis in [-2, 2), got 2");
  EXPECT_EQ(error_of([&] {
              reduction_spmd(spec(m, {64, 32}, {0, 0}), {0}, false);
            }),
            "(InvalidArgument) reduction_spmd: argument 'x' expected each mesh axis in "
            "dims_mapping at most once, got [0, 0]");
}

TEST(ReplicatedSpmdTest, EverythingReplicated) {  // Paddle
  const auto m = mesh_2d();
  const SpmdInfo info = replicated_spmd(
      {spec(m, {64, 32}, {0, -1}), spec(m, {32, 48}, {-1, 1}), spec(m, {8}, {1})}, {2, 3});
  expect(info, {{-1, -1}, {-1, -1}, {-1}}, {{-1, -1}, {-1, -1, -1}});
  EXPECT_EQ(info.outputs[1].process_mesh(), m);
  EXPECT_EQ(error_of([] { replicated_spmd({}, {1}); }),
            "(InvalidArgument) replicated_spmd: argument 'inputs' expected at least one input (it "
            "gives the mesh), got none");
  EXPECT_EQ(error_of([&] {
              replicated_spmd({spec(m, {4}, {-1}), spec(m, {4}, {5})}, {1});
            }),
            "(InvalidArgument) replicated_spmd: argument 'inputs[1]' expected dims_mapping entries "
            "-1 or a mesh axis in [0, 2), got [5]");
}

}  // namespace
}  // namespace skiff::dist::spmd
