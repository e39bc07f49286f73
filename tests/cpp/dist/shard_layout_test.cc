// Shard layouts (Paddle's ceil-sized chunks, last ones shorter or empty), the placements checks
// and the local pieces DistTensor keeps, in one process.
#include "skiff/dist/shard_layout.h"

#include <gtest/gtest.h>

#include "skiff/base/error.h"
#include "skiff/dist/dist_tensor.h"

namespace skiff::dist {
namespace {

DenseTensor iota(std::vector<int64_t> shape) {
  auto t = DenseTensor::empty(Dims(shape), DType::kFloat32);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = static_cast<float>(i);
  return t;
}

std::vector<float> values(const DenseTensor& t) {
  auto c = t.contiguous();
  return {c.data<float>(), c.data<float>() + c.numel()};
}

std::vector<int64_t> sizes(int64_t n, int64_t k) {
  std::vector<int64_t> s;
  for (int64_t i = 0; i < k; ++i) s.push_back(shard_range(n, k, i).size());
  return s;
}

TEST(ShardLayout, CeilChunksLastShorterOrEmpty) {
  EXPECT_EQ(sizes(8, 4), (std::vector<int64_t>{2, 2, 2, 2}));
  EXPECT_EQ(sizes(7, 4), (std::vector<int64_t>{2, 2, 2, 1}));
  EXPECT_EQ(sizes(5, 4), (std::vector<int64_t>{2, 2, 1, 0}));
  EXPECT_EQ(sizes(2, 4), (std::vector<int64_t>{1, 1, 0, 0}));
  EXPECT_EQ(sizes(0, 3), (std::vector<int64_t>{0, 0, 0}));
  EXPECT_EQ(shard_range(7, 4, 3).begin, 6);
  EXPECT_EQ(shard_range(5, 4, 3).begin, 5);
  EXPECT_EQ(chunk_size(7, 4), 2);
}

TEST(ShardLayout, LocalShapesOnA2dMesh) {
  ProcessMesh mesh({2, 2});
  auto attr = dist_attr_for("t", mesh, {Placement::shard(1), Placement::shard(0)}, 2);
  EXPECT_EQ(attr.dims_mapping(), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(local_shape({7, 5}, attr, {0, 0}), (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(local_shape({7, 5}, attr, {1, 1}), (std::vector<int64_t>{3, 2}));
  auto p = dist_attr_for("t", mesh, {Placement::partial(), Placement::shard(1)}, 2);
  EXPECT_TRUE(p.is_partial(0));
  EXPECT_EQ(local_shape({7, 5}, p, {1, 1}), (std::vector<int64_t>{7, 2}));
}

TEST(ShardLayout, ShardDenseKeepsEachPiece) {
  ProcessMesh mesh({4});
  auto g = iota({7, 5});
  auto t = shard_dense("shard_tensor", g, mesh, {Placement::shard(1)}, 3);
  const DistTensor* d = as_dist(t);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(t.shape(), (std::vector<int64_t>{7, 5}));
  EXPECT_EQ(d->local_value().dims().to_vector(), (std::vector<int64_t>{7, 0}));
  auto t2 = shard_dense("shard_tensor", g, mesh, {Placement::shard(0)}, 3);
  EXPECT_EQ(values(as_dist(t2)->local_value()), (std::vector<float>{30, 31, 32, 33, 34}));
  auto t1 = shard_dense("shard_tensor", g, mesh, {Placement::shard(1)}, 2);
  EXPECT_EQ(values(as_dist(t1)->local_value()), (std::vector<float>{4, 9, 14, 19, 24, 29, 34}));
  // Partial(sum): coordinate 0 holds the value, the others zeros; avg keeps it everywhere.
  auto ps = shard_dense("shard_tensor", g, mesh, {Placement::partial()}, 1);
  EXPECT_EQ(values(as_dist(ps)->local_value()), std::vector<float>(35, 0.0f));
  auto pa = shard_dense("shard_tensor", g, mesh, {Placement::partial(ReduceType::kRedAvg)}, 1);
  EXPECT_EQ(values(as_dist(pa)->local_value()), values(g));
  // The local piece is a copy: writing the global value later does not change it.
  g.data<float>()[30] = -1;
  EXPECT_EQ(values(as_dist(t2)->local_value())[0], 30);
}

TEST(ShardLayout, OutsideTheMeshHoldsAnEmptyValue) {
  ProcessMesh mesh({2}, {0, 1});
  auto t = shard_dense("shard_tensor", iota({4, 2}), mesh, {Placement::shard(0)}, 2);
  EXPECT_FALSE(as_dist(t)->in_mesh());
  EXPECT_EQ(as_dist(t)->local_value().numel(), 0);
  EXPECT_EQ(t.shape(), (std::vector<int64_t>{4, 2}));
}

TEST(ShardLayout, FromLocalMultipliesShardedDims) {
  ProcessMesh mesh({2, 2});
  auto t = dist_from_local("dtensor_from_local", iota({3, 2}), mesh,
                           {Placement::shard(0), Placement::replicate()}, 1);
  EXPECT_EQ(t.shape(), (std::vector<int64_t>{6, 2}));
}

void expect_error(const std::function<void()>& fn, ErrorCode code, const std::string& part) {
  try {
    fn();
    ADD_FAILURE() << "no error, expected " << part;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(ShardLayout, BadPlacements) {
  ProcessMesh mesh({2, 2});
  auto g = iota({4, 4});
  expect_error([&] { shard_dense("shard_tensor", g, mesh, {Placement::shard(0)}, 0); },
               ErrorCode::kInvalidArgument,
               "shard_tensor: argument 'placements' expected one placement per mesh dim (2)");
  expect_error(
      [&] { shard_dense("shard_tensor", g, mesh, {Placement::shard(2), Placement::replicate()}, 0); },
      ErrorCode::kInvalidArgument, "expected Shard dims in [0, 2) for a 2-d tensor, got Shard(dim=2)");
  expect_error(
      [&] { shard_dense("shard_tensor", g, mesh, {Placement::shard(1), Placement::shard(1)}, 0); },
      ErrorCode::kUnimplemented, "dim 1 sharded on mesh dims 0 and 1");
  expect_error([&] { shard_dense("shard_tensor", g, ProcessMesh(), {}, 0); },
               ErrorCode::kInvalidArgument, "a non-empty ProcessMesh");
  auto attr = dist_attr_for("t", ProcessMesh({2}), {Placement::shard(0)}, 2);
  expect_error([&] { DistTensor(Dims({4, 4}), attr, iota({4, 4}), 0); },
               ErrorCode::kInvalidArgument, "expected the local shape [2, 4] of rank 0, got [4, 4]");
}

}  // namespace
}  // namespace skiff::dist
