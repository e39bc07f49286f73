// The indexing SPMD rules (skiff/dist/spmd/rules.h): put_along_axis_spmd and index_add_spmd,
// the ops of cross_entropy's and embedding's backward, on the fake 2 x 3 mesh.
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

TEST(PutAlongAxisSpmdTest, AxisReplicatedOthersMerged) {
  const auto m = mesh_2d();
  // cross_entropy's one-hot: zeros [N, V] with rows on dp, labels [N, 1], ones [N, 1]
  expect(put_along_axis_spmd(spec(m, {16, 10}, {0, -1}), spec(m, {16, 1}, {0, -1}),
                             spec(m, {16, 1}, {-1, -1}), 1),
         {{0, -1}, {0, -1}, {0, -1}}, {{0, -1}});
  // a sharded class axis is gathered; the indices' rows give arr theirs
  expect(put_along_axis_spmd(spec(m, {16, 10}, {-1, 1}), spec(m, {16, 1}, {0, -1}),
                             spec(m, {16, 1}, {0, -1}), -1),
         {{0, -1}, {0, -1}, {0, -1}}, {{0, -1}});
  // indices covering part of a dim: that dim cannot stay sharded
  expect(put_along_axis_spmd(spec(m, {16, 10, 6}, {0, -1, 1}), spec(m, {8, 2, 6}, {0, -1, 1}),
                             spec(m, {6}, {1}), 1),
         {{-1, -1, 1}, {-1, -1, 1}, {1}}, {{-1, -1, 1}});
  // values broadcast: its size-1 dims are never sharded
  expect(put_along_axis_spmd(spec(m, {16, 10}, {-1, -1}), spec(m, {16, 3}, {-1, -1}),
                             spec(m, {1, 3}, {0, -1}), 1),
         {{-1, -1}, {-1, -1}, {-1, -1}}, {{-1, -1}});
  EXPECT_EQ(
      error_of([&] {
        put_along_axis_spmd(spec(m, {16, 10}, {0, -1}), spec(m, {16}, {0}), spec(m, {16}, {0}), 1);
      }),
      "(InvalidArgument) put_along_axis_spmd: argument 'indices' expected 2 dims (arr's), "
      "got [16]");
  EXPECT_EQ(error_of([&] {
              put_along_axis_spmd(spec(m, {16, 10}, {0, -1}), spec(m, {16, 1}, {0, -1}),
                                  spec(m, {16, 1}, {0, -1}), 2);
            }),
            "(InvalidArgument) put_along_axis_spmd: argument 'axis' expected an axis in [-2, 2), "
            "got 2");
}

TEST(IndexAddSpmdTest, ShardedRowsGivePartial) {
  const auto m = mesh_2d();
  // embedding's weight gradient: zeros [V, D] (D on mp), ids [N] on dp, grad [N, D] on dp x mp:
  // out Partial on dp, x entering as Partial on dp (one process keeps it)
  const SpmdInfo info =
      index_add_spmd(spec(m, {50, 12}, {-1, 1}), spec(m, {32}, {0}), 0, spec(m, {32, 12}, {0, 1}));
  ASSERT_EQ(info.inputs.size(), 3u);
  EXPECT_EQ(info.inputs[0].dims_mapping(), (V{-1, 1}));
  EXPECT_EQ(info.inputs[0].partial_axes(), V{0});
  EXPECT_EQ(info.inputs[1].dims_mapping(), V{0});
  EXPECT_FALSE(info.inputs[1].is_partial());
  EXPECT_EQ(info.inputs[2].dims_mapping(), (V{0, 1}));
  ASSERT_EQ(info.outputs.size(), 1u);
  EXPECT_EQ(info.outputs[0].dims_mapping(), (V{-1, 1}));
  EXPECT_EQ(info.outputs[0].partial_axes(), V{0});
  EXPECT_EQ(info.outputs[0].partial_status().at(0), ReduceType::kRedSum);
}

TEST(IndexAddSpmdTest, ReplicatedRowsStayLocal) {
  const auto m = mesh_2d();
  // ids replicated: x's axis is gathered, value's columns follow x's, nothing partial
  expect(index_add_spmd(spec(m, {50, 12}, {0, 1}), spec(m, {32}, {-1}), 0,
                        spec(m, {32, 12}, {-1, -1})),
         {{-1, 1}, {-1}, {-1, 1}}, {{-1, 1}});
  // along axis 1: value's dim 1 goes with the index, its dim 0 with x's
  expect(
      index_add_spmd(spec(m, {6, 50}, {-1, -1}), spec(m, {8}, {-1}), 1, spec(m, {6, 8}, {0, -1})),
      {{0, -1}, {-1}, {0, -1}}, {{0, -1}});
  // value's index dim sharded although the index is not: the index follows, out is Partial
  const SpmdInfo info =
      index_add_spmd(spec(m, {6, 50}, {0, -1}), spec(m, {8}, {-1}), 1, spec(m, {6, 8}, {0, 1}));
  EXPECT_EQ(info.inputs[1].dims_mapping(), V{1});
  EXPECT_EQ(info.outputs[0].dims_mapping(), (V{0, -1}));
  EXPECT_EQ(info.outputs[0].partial_axes(), V{1});
}

TEST(IndexAddSpmdTest, BadInputs) {
  const auto m = mesh_2d();
  EXPECT_EQ(error_of([&] {
              index_add_spmd(spec(m, {50, 12}, {-1, 1}), spec(m, {4, 8}, {0, -1}), 0,
                             spec(m, {32, 12}, {0, 1}));
            }),
            "(InvalidArgument) index_add_spmd: argument 'index' expected a 1-d tensor, got "
            "[4, 8]");
  EXPECT_EQ(error_of([&] {
              index_add_spmd(spec(m, {50, 12}, {-1, 1}), spec(m, {32}, {0}), 0, spec(m, {32}, {0}));
            }),
            "(InvalidArgument) index_add_spmd: argument 'value' expected 2 dims (x's), got [32]");
  EXPECT_EQ(error_of([&] {
              index_add_spmd(spec(m, {50, 12}, {-1, 1}), spec(m, {32}, {0}), -3,
                             spec(m, {32, 12}, {0, 1}));
            }),
            "(InvalidArgument) index_add_spmd: argument 'axis' expected an axis in [-2, 2), got "
            "-3");
}

}  // namespace
}  // namespace skiff::dist::spmd
