// Reshard with threads as ranks (each its own store client and CommContext, so every group is a
// real Gloo group over loopback): every pair of placements on a 1-d mesh of 4 and on a 2x2 mesh
// with shuffled process ids, on Paddle's uneven 7x5 tensor and on zero-size shards; after the
// reshard each rank holds exactly the piece shard_tensor would give it, and unsharding gives the
// value back. Also the collectives each primitive issues and the bad-input messages.
#include "skiff/dist/reshard/reshard.h"

#include <gtest/gtest.h>

#include <functional>
#include <thread>

#include "skiff/base/error.h"
#include "skiff/comm/tcp_store.h"
#include "skiff/dist/dist_tensor.h"
#include "skiff/dist/shard_layout.h"

namespace skiff::dist {
namespace {

using comm::Millis;
using Placements = std::vector<Placement>;

DenseTensor iota(std::vector<int64_t> shape, DType dtype = DType::kFloat32) {
  auto t = DenseTensor::empty(Dims(shape), dtype);
  visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    for (int64_t i = 0; i < t.numel(); ++i) t.data<T>()[i] = static_cast<T>(i % 97 + 1);
  });
  return t;
}

std::vector<double> values(const DenseTensor& t) {
  auto c = t.contiguous();
  std::vector<double> v;
  visit_dtype(c.dtype(), [&](auto tag) {
    using T = decltype(tag);
    for (int64_t i = 0; i < c.numel(); ++i) v.push_back(static_cast<double>(c.data<T>()[i]));
  });
  return v;
}

void run_ranks(int n, const std::function<void(int, CommContext&)>& fn) {
  Millis timeout(20000);
  comm::TCPStore master("127.0.0.1", 0, true, timeout);
  std::vector<std::thread> threads;
  std::vector<std::string> errors(n);
  for (int r = 0; r < n; ++r) {
    threads.emplace_back([&, r] {
      try {
        auto store = std::make_shared<comm::TCPStore>("127.0.0.1", master.port(), false, timeout);
        CommContext ctx(store, r, n, comm::GlooOptions{"127.0.0.1", timeout});
        fn(r, ctx);
      } catch (const std::exception& e) {
        errors[r] = e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int r = 0; r < n; ++r) EXPECT_EQ(errors[r], "") << "rank " << r;
}

std::vector<Placements> all_placements(int64_t mesh_ndim) {
  Placements one = {Placement::replicate(), Placement::shard(0), Placement::shard(1),
                    Placement::partial(), Placement::partial(ReduceType::kRedAvg)};
  if (mesh_ndim == 1) {
    std::vector<Placements> out;
    for (const auto& p : one) out.push_back({p});
    return out;
  }
  std::vector<Placements> out;
  for (const auto& a : one) {
    for (const auto& b : one) {
      if (a.is_shard() && a == b) continue;
      out.push_back({a, b});
    }
  }
  return out;
}

std::string name(const Placements& ps) {
  std::string s;
  for (const auto& p : ps) s += p.short_string() + " ";
  return s;
}

// Every src -> dst on `mesh`: the local piece equals shard_dense's, and back to Replicate gives
// the global value on every rank.
void round_trips(const ProcessMesh& mesh, std::vector<int64_t> shape, DType dtype) {
  run_ranks(static_cast<int>(mesh.size()), [&](int r, CommContext& ctx) {
    auto global = iota(shape, dtype);
    auto all_r = spmd::DistAttr::replicated(mesh, static_cast<int64_t>(shape.size()));
    for (const auto& src : all_placements(mesh.ndim())) {
      auto t = shard_dense("shard_tensor", global, mesh, src, r);
      for (const auto& dst : all_placements(mesh.ndim())) {
        auto want = shard_dense("shard_tensor", global, mesh, dst, r);
        auto got = reshard(t, dist_attr_for("reshard", mesh, dst, global.rank()), &ctx);
        const auto& local = as_dist(got)->local_value();
        ASSERT_EQ(local.dims().to_vector(), as_dist(want)->local_value().dims().to_vector())
            << name(src) << "-> " << name(dst) << " rank " << r;
        ASSERT_EQ(values(local), values(as_dist(want)->local_value()))
            << name(src) << "-> " << name(dst) << " rank " << r;
        auto back = reshard(got, all_r, &ctx);
        ASSERT_EQ(values(as_dist(back)->local_value()), values(global))
            << name(src) << "-> " << name(dst) << " -> R, rank " << r;
      }
    }
  });
}

TEST(Reshard, Uneven7x5On4Ranks) { round_trips(ProcessMesh({4}), {7, 5}, DType::kFloat32); }

TEST(Reshard, ZeroSizeShardsAndEmptyTensors) {
  round_trips(ProcessMesh({4}), {2, 3}, DType::kFloat32);
  round_trips(ProcessMesh({2}), {0, 3}, DType::kFloat32);
}

TEST(Reshard, TwoByTwoMeshWithShuffledIds) {
  round_trips(ProcessMesh({2, 2}, {3, 1, 0, 2}), {7, 5}, DType::kFloat32);
}

TEST(Reshard, IntegerDtypeAnd3dTensor) {
  round_trips(ProcessMesh({2}), {3, 4, 5}, DType::kInt64);
}

// The collectives of each 1-d primitive: slices and partial terms send nothing.
TEST(Reshard, CollectivesPerPrimitive) {
  ProcessMesh mesh({2});
  run_ranks(2, [&](int r, CommContext& ctx) {
    auto g = iota({4, 6});
    auto count = [&](Placements src, Placements dst) {
      auto t = shard_dense("shard_tensor", g, mesh, src, r);
      int64_t before = ctx.op_count();
      reshard(t, dist_attr_for("reshard", mesh, dst, 2), &ctx);
      return ctx.op_count() - before;
    };
    EXPECT_EQ(count({Placement::replicate()}, {Placement::shard(0)}), 0);
    EXPECT_EQ(count({Placement::replicate()}, {Placement::partial()}), 0);
    EXPECT_EQ(count({Placement::shard(0)}, {Placement::replicate()}), 1);
    EXPECT_EQ(count({Placement::partial()}, {Placement::replicate()}), 1);
    EXPECT_EQ(count({Placement::partial()}, {Placement::shard(1)}), 1);
    EXPECT_EQ(count({Placement::shard(0)}, {Placement::shard(1)}), 1);
    EXPECT_EQ(count({Placement::shard(1)}, {Placement::shard(1)}), 0);
  });
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

TEST(Reshard, BadInputs) {
  ProcessMesh mesh({2});
  auto g = iota({4, 2});
  auto t = shard_dense("shard_tensor", g, mesh, {Placement::shard(0)}, 0);
  auto r = dist_attr_for("reshard", mesh, {Placement::replicate()}, 2);
  expect_error([&] { reshard(t, r, nullptr); }, ErrorCode::kPrecondition,
               "expected an initialized parallel environment");
  expect_error([&] { reshard(Tensor(g), r, nullptr); }, ErrorCode::kInvalidArgument,
               "reshard: argument 'dist_tensor' expected a distributed tensor");
  auto other = dist_attr_for("reshard", ProcessMesh({2}, {1, 0}), {Placement::replicate()}, 2);
  expect_error([&] { reshard(t, other, nullptr); }, ErrorCode::kUnimplemented,
               "(reshard across meshes)");
  expect_error([&] { check_mesh_in_world("shard_tensor", ProcessMesh({4}), 2); },
               ErrorCode::kInvalidArgument,
               "shard_tensor: argument 'mesh' expected process ids below the world size 2");
  // A mesh dim of size 1 needs no parallel environment.
  auto one = shard_dense("shard_tensor", g, ProcessMesh({1}), {Placement::partial()}, 0);
  auto rep = reshard(one, dist_attr_for("reshard", ProcessMesh({1}), {Placement::shard(1)}, 2),
                     nullptr);
  EXPECT_EQ(values(as_dist(rep)->local_value()), values(g));
}

}  // namespace
}  // namespace skiff::dist
