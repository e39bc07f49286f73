// OpDb entries of the elementwise binary ops and cast.
#include "op_db.h"

namespace skiff::testing {

namespace {
// Equal shapes, broadcasting both ways, a scalar operand and a zero-size tensor.
std::vector<OpSample> binary_samples() {
  return {sample({{3, 4}, {3, 4}}),
          sample({{2, 3, 4}, {4}}),
          sample({{4, 1}, {1, 5}}),
          sample({{5}, {}}),
          sample({{}, {2, 2}}),
          sample({{0, 3}, {3}}),
          sample({{2, 1, 65}, {2, 70, 1}})};
}
}  // namespace

void add_elementwise_op_infos(OpDb& db) {
  db.add({.name = "add", .samples = binary_samples()});
  db.add({.name = "subtract", .samples = binary_samples()});
  db.add({.name = "multiply", .samples = binary_samples()});
  db.add({.name = "divide", .samples = binary_samples(), .domain = Domain::kNonZero});
  db.add({.name = "cast",
          .samples = {sample({{3, 4}}, {{"dtype", DType::kFloat32}}),
                      sample({{3, 4}}, {{"dtype", DType::kInt32}}),
                      sample({{7}}, {{"dtype", DType::kBFloat16}}),
                      sample({{7}}, {{"dtype", DType::kFloat16}}),
                      sample({{2, 5}}, {{"dtype", DType::kBool}}),
                      sample({{2, 5}}, {{"dtype", DType::kInt64}}),
                      sample({{2, 5}}, {{"dtype", DType::kFloat64}})},
          .domain = Domain::kSmallInt});
}

}  // namespace skiff::testing
