// ProcessMesh and Placement (skiff/dist): Paddle's defaults, lookups and coordinates, printed
// forms, equality, and the errors for bad meshes and placements.
#include <gtest/gtest.h>

#include <string>

#include "skiff/base/error.h"
#include "skiff/dist/placement.h"
#include "skiff/dist/process_mesh.h"

namespace skiff::dist {
namespace {

std::string error_of(auto&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(ProcessMeshTest, PaddlesExampleMesh) {
  // dist.ProcessMesh([[2, 4, 5], [0, 1, 3]], dim_names=["x", "y"])
  ProcessMesh m({2, 3}, {2, 4, 5, 0, 1, 3}, {"x", "y"});
  EXPECT_EQ(m.shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(m.process_ids(), (std::vector<int64_t>{2, 4, 5, 0, 1, 3}));
  EXPECT_EQ(m.ndim(), 2);
  EXPECT_EQ(m.size(), 6);
  EXPECT_EQ(m.dim_size(1), 3);
  EXPECT_EQ(m.dim_size(-2), 2);
  EXPECT_EQ(m.dim_size("y"), 3);
  EXPECT_EQ(m.dim_index("x"), 0);
  EXPECT_TRUE(m.contains(5));
  EXPECT_FALSE(m.contains(6));
  EXPECT_EQ(m.coord(5), (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(m.coord(1), (std::vector<int64_t>{1, 1}));
  EXPECT_FALSE(m.is_default_layout());
  EXPECT_EQ(m.to_string(), "{shape: [2, 3], process_ids: [2, 4, 5, 0, 1, 3], dim_names: [x, y]}");
}

TEST(ProcessMeshTest, DefaultIdsAndNames) {
  ProcessMesh m({2, 2});
  EXPECT_EQ(m.process_ids(), (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(m.dim_names(), (std::vector<std::string>{"d0", "d1"}));
  EXPECT_TRUE(m.is_default_layout());
  EXPECT_EQ(m, ProcessMesh({2, 2}, {0, 1, 2, 3}, {"d0", "d1"}));
  EXPECT_NE(m, ProcessMesh({2, 2}, {1, 0, 2, 3}));
  EXPECT_NE(m, ProcessMesh({4}));
  EXPECT_EQ(m.hash(), ProcessMesh({2, 2}).hash());
  EXPECT_TRUE(ProcessMesh().empty());
}

TEST(ProcessMeshTest, BadMeshesNameTheArgument) {
  EXPECT_NE(error_of([] {
              ProcessMesh({2, 0});
            }).find("(InvalidArgument) ProcessMesh: argument 'shape'"),
            std::string::npos)
      << error_of([] {
           ProcessMesh({2, 0});
         });
  const std::string ids = error_of([] { ProcessMesh({2, 2}, {0, 1, 2}); });
  EXPECT_NE(ids.find("process_ids"), std::string::npos) << ids;
  EXPECT_NE(ids.find("4 ids"), std::string::npos) << ids;
  const std::string dup = error_of([] { ProcessMesh({2}, {1, 1}); });
  EXPECT_NE(dup.find("distinct ids"), std::string::npos) << dup;
  const std::string neg = error_of([] { ProcessMesh({2}, {-1, 0}); });
  EXPECT_NE(neg.find("ids >= 0"), std::string::npos) << neg;
  const std::string names = error_of([] { ProcessMesh({2, 2}, {}, {"x"}); });
  EXPECT_NE(names.find("dim_names"), std::string::npos) << names;
  const std::string same = error_of([] { ProcessMesh({2, 2}, {}, {"x", "x"}); });
  EXPECT_NE(same.find("distinct names"), std::string::npos) << same;
  ProcessMesh m({2, 2}, {}, {"dp", "mp"});
  const std::string unknown = error_of([&] { m.dim_size("pp"); });
  EXPECT_NE(unknown.find("one of [dp, mp]"), std::string::npos) << unknown;
  EXPECT_NE(error_of([&] { m.dim_size(2); }).find("(OutOfRange)"), std::string::npos);
  EXPECT_NE(error_of([&] { m.coord(7); }).find("process_id"), std::string::npos);
}

TEST(PlacementTest, KindsAndPrintedForms) {
  Placement s = Placement::shard(1), r = Placement::replicate(), p = Placement::partial();
  EXPECT_TRUE(s.is_shard());
  EXPECT_TRUE(s.is_shard(1));
  EXPECT_FALSE(s.is_shard(0));
  EXPECT_EQ(s.shard_dim(), 1);
  EXPECT_TRUE(r.is_replicated());
  EXPECT_TRUE(Placement().is_replicated());
  EXPECT_TRUE(p.is_partial());
  EXPECT_EQ(p.reduce_type(), ReduceType::kRedSum);
  EXPECT_EQ(s.to_string(), "Shard(dim=1)");
  EXPECT_EQ(r.to_string(), "Replicate()");
  EXPECT_EQ(p.to_string(), "Partial(reduce_type=sum)");
  EXPECT_EQ(s.short_string(), "S(1)");
  EXPECT_EQ(r.short_string(), "R");
  EXPECT_EQ(p.short_string(), "P");
  EXPECT_EQ(Placement::partial(ReduceType::kRedMax).short_string(), "P(max)");
  EXPECT_NE(Placement::partial(ReduceType::kRedMax), p);
  EXPECT_EQ(Placement::shard(1), s);
  EXPECT_NE(Placement::shard(0), s);
  EXPECT_NE(s.hash(), Placement::shard(0).hash());
}

TEST(PlacementTest, ReduceTypeNamesRoundTripAndBadInputIsRefused) {
  for (auto t :
       {ReduceType::kRedSum, ReduceType::kRedMax, ReduceType::kRedMin, ReduceType::kRedProd,
        ReduceType::kRedAvg, ReduceType::kRedAny, ReduceType::kRedAll}) {
    EXPECT_EQ(parse_reduce_type(reduce_type_name(t)), t);
  }
  const std::string bad = error_of([] { parse_reduce_type("mean"); });
  EXPECT_NE(bad.find("(InvalidArgument) Partial: argument 'reduce_type'"), std::string::npos)
      << bad;
  EXPECT_NE(bad.find("'mean'"), std::string::npos) << bad;
  const std::string neg = error_of([] { Placement::shard(-1); });
  EXPECT_NE(neg.find("(InvalidArgument) Shard: argument 'dim'"), std::string::npos) << neg;
}

}  // namespace
}  // namespace skiff::dist
