// DistAttr (skiff/dist/spmd): placements <-> dims_mapping + partial status, validation messages,
// and the einsum-letter merge engine.
#include "skiff/dist/spmd/dist_attr.h"

#include <gtest/gtest.h>

#include "skiff/dist/spmd/einsum.h"
#include "tests/cpp/dist/spmd_test_util.h"

namespace skiff::dist::spmd {
namespace {

using testing::error_of;
using testing::mesh_1d;
using testing::mesh_2d;

TEST(DistAttrTest, PlacementsRoundTrip2dMesh) {
  // [Shard(1), Partial(max)] on a 2x3 mesh, 3-d tensor: dims_mapping [-1, 0, -1], partial {1: max}
  const std::vector<Placement> ps = {Placement::shard(1), Placement::partial(ReduceType::kRedMax)};
  DistAttr a = DistAttr::from_placements(mesh_2d(), ps, 3);
  EXPECT_EQ(a.dims_mapping(), (std::vector<int64_t>{-1, 0, -1}));
  EXPECT_TRUE(a.is_partial(1));
  EXPECT_FALSE(a.is_partial(0));
  EXPECT_EQ(a.partial_status().at(1), ReduceType::kRedMax);
  EXPECT_EQ(a.placements(), ps);
  EXPECT_FALSE(a.is_replicated());
  EXPECT_EQ(a.to_string(), "{mesh: [2, 3], dims_mapping: [-1, 0, -1], partial: [1:max]}");
}

TEST(DistAttrTest, PlacementsFromDimsMapping) {
  DistAttr a(mesh_2d(), {1, -1, 0});
  EXPECT_EQ(a.placements(), (std::vector<Placement>{Placement::shard(2), Placement::shard(0)}));
  DistAttr r = DistAttr::replicated(mesh_1d(), 2);
  EXPECT_TRUE(r.is_replicated());
  EXPECT_EQ(r.placements(), (std::vector<Placement>{Placement::replicate()}));
  EXPECT_EQ(DistAttr::from_placements(mesh_1d(), {Placement::replicate()}, 2), r);
}

TEST(DistAttrTest, FromPlacementsErrors) {
  EXPECT_EQ(error_of([] { DistAttr::from_placements(mesh_2d(), {Placement::shard(0)}, 2); }),
            "(InvalidArgument) DistAttr: argument 'placements' expected 2 placements (one per mesh "
            "axis), got 1");
  EXPECT_EQ(error_of([] { DistAttr::from_placements(mesh_1d(), {Placement::shard(2)}, 2); }),
            "(InvalidArgument) DistAttr: argument 'placements[0]' expected Shard(dim) with dim < 2 "
            "(the tensor's ndim), got Shard(dim=2)");
  EXPECT_NE(error_of([] {
              DistAttr::from_placements(mesh_2d(), {Placement::shard(0), Placement::shard(0)}, 2);
            }).find("tensor dim 0 sharded by one mesh axis, got mesh axes 0 and 1"),
            std::string::npos);
}

TEST(DistAttrTest, ValidateNamesRuleAndArgument) {
  EXPECT_EQ(error_of([] { DistAttr(mesh_2d(), {0}).validate("matmul_spmd", "x", 2); }),
            "(InvalidArgument) matmul_spmd: argument 'x' expected dims_mapping of length 2 (the "
            "tensor's ndim), got [0]");
  EXPECT_EQ(error_of([] { DistAttr(mesh_2d(), {2, -1}).validate("matmul_spmd", "y", 2); }),
            "(InvalidArgument) matmul_spmd: argument 'y' expected dims_mapping entries -1 or a mesh "
            "axis in [0, 2), got [2, -1]");
  EXPECT_EQ(error_of([] { DistAttr(mesh_2d(), {-2, -1}).validate("r", "x", 2); }),
            "(InvalidArgument) r: argument 'x' expected dims_mapping entries -1 or a mesh axis in "
            "[0, 2), got [-2, -1]");
  EXPECT_EQ(error_of([] { DistAttr(mesh_2d(), {1, 1}).validate("r", "x", 2); }),
            "(InvalidArgument) r: argument 'x' expected each mesh axis in dims_mapping at most "
            "once, got [1, 1]");
  EXPECT_EQ(error_of([] { DistAttr(mesh_2d(), {0, -1}, {{0, ReduceType::kRedSum}}).validate("r", "x", 2); }),
            "(InvalidArgument) r: argument 'x' expected a partial mesh axis that shards no dim, got "
            "axis 0 partial and in dims_mapping [0, -1]");
  EXPECT_EQ(error_of([] { DistAttr(mesh_1d(), {-1}, {{3, ReduceType::kRedSum}}).validate("r", "x", 1); }),
            "(InvalidArgument) r: argument 'x' expected partial mesh axes in [0, 1), got 3");
  EXPECT_EQ(error_of([] { DistAttr().validate("r", "x", 0); }),
            "(InvalidArgument) r: argument 'x' expected a dist attr with a process mesh, got an "
            "empty mesh");
  EXPECT_EQ(error_of([] { DistAttr(mesh_2d(), {1, 0}).validate("r", "x", 2); }), "no error");
}

TEST(EinsumMergeTest, ReplicatedSideAdoptsSharding) {
  AxisMap m = merge_shardings("t", {{"x", "mk", {0, -1}}, {"y", "kn", {-1, 1}}});
  EXPECT_EQ(dims_mapping_for("mk", m), (std::vector<int64_t>{0, -1}));
  EXPECT_EQ(dims_mapping_for("kn", m), (std::vector<int64_t>{-1, 1}));
  EXPECT_EQ(dims_mapping_for("mn", m), (std::vector<int64_t>{0, 1}));
  EXPECT_TRUE(partial_for("mkkn", "mn", m).empty());
}

TEST(EinsumMergeTest, MeshAxisConflictKeepsFirstLetter) {
  // mesh axis 0 shards m (x) and n (y): m is met first and keeps it, n is replicated.
  AxisMap m = merge_shardings("t", {{"x", "mk", {0, -1}}, {"y", "kn", {-1, 0}}});
  EXPECT_EQ(dims_mapping_for("mn", m), (std::vector<int64_t>{0, -1}));
  // letter order is first appearance: here n comes first in x.
  AxisMap m2 = merge_shardings("t", {{"x", "nm", {-1, 1}}, {"y", "m", {-1}}, {"z", "n", {1}}});
  EXPECT_EQ(dims_mapping_for("nm", m2), (std::vector<int64_t>{1, -1}));
}

TEST(EinsumMergeTest, ContractedShardedLetterIsPartial) {
  AxisMap m = merge_shardings("t", {{"x", "mk", {-1, 1}}, {"y", "kn", {-1, -1}}});
  EXPECT_EQ(dims_mapping_for("kn", m), (std::vector<int64_t>{1, -1}));
  auto p = partial_for("mkkn", "mn", m, ReduceType::kRedMax);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p.at(1), ReduceType::kRedMax);
}

TEST(EinsumMergeTest, BroadcastLetterIsNeverSharded) {
  AxisMap m = merge_shardings("t", {{"x", "1b", {0, -1}}, {"y", "ab", {-1, -1}}});
  EXPECT_EQ(dims_mapping_for("1b", m), (std::vector<int64_t>{-1, -1}));
  EXPECT_EQ(dims_mapping_for("ab", m), (std::vector<int64_t>{-1, -1}));
}

TEST(EinsumMergeTest, OneLetterOnTwoMeshAxesIsUnimplemented) {
  EXPECT_EQ(error_of([] { merge_shardings("matmul_spmd", {{"x", "mk", {-1, 1}}, {"y", "kn", {0, -1}}}); }),
            "(Unimplemented) matmul_spmd: argument 'y' expected tensor axis 'k' sharded like in 'x' "
            "(mesh axis 1); one axis sharded on two mesh axes is not supported, got mesh axis 0");
}

}  // namespace
}  // namespace skiff::dist::spmd
