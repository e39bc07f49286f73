// OpDb entries of the elementwise binary, comparison, logical, bitwise and ternary ops, and cast.
#include "op_db.h"

namespace skiff::testing {

namespace {
// Equal shapes, broadcasting both ways, a scalar operand, a zero-size tensor, and two samples
// big enough for the multi-threaded path (one contiguous, one broadcast).
std::vector<OpSample> binary_samples() {
  return {sample({{3, 4}, {3, 4}}),
          sample({{2, 3, 4}, {4}}),
          sample({{4, 1}, {1, 5}}),
          sample({{5}, {}}),
          sample({{}, {2, 2}}),
          sample({{}, {}}),
          sample({{0, 3}, {3}}),
          sample({{2, 1, 65}, {2, 70, 1}}),
          sample({{300, 200}, {300, 200}}),
          sample({{200, 256}, {256}})};
}

std::vector<OpSample> unary_samples(std::map<std::string, ops::AttrValue> attrs = {}) {
  return {sample({{3, 4}}, attrs), sample({{}}, attrs), sample({{0, 3}}, attrs),
          sample({{2, 3, 5}}, attrs), sample({{300, 200}}, attrs)};
}

std::vector<OpSample> ternary_samples() {
  return {sample({{3, 4}, {3, 4}, {3, 4}}),
          sample({{3, 1}, {1, 4}, {4}}),
          sample({{}, {2, 2}, {}}),
          sample({{}, {}, {}}),
          sample({{0, 3}, {3}, {1}}),
          sample({{2, 1, 5}, {4, 1}, {2, 4, 5}}),
          sample({{200, 256}, {200, 256}, {200, 256}}),
          sample({{200, 256}, {256}, {200, 1}})};
}

// Plain assignments rather than designated initializers: those warn about every member left out
// (-Wmissing-field-initializers).
OpInfo info(std::string name, std::vector<OpSample> samples, Domain domain = Domain::kAny) {
  OpInfo i;
  i.name = std::move(name);
  i.samples = std::move(samples);
  i.domain = domain;
  return i;
}

std::vector<OpSample> with_attrs(std::vector<std::map<std::string, ops::AttrValue>> attr_sets) {
  std::vector<OpSample> out;
  for (const auto& attrs : attr_sets) {
    for (auto& s : unary_samples(attrs)) out.push_back(std::move(s));
  }
  return out;
}
}  // namespace

void add_elementwise_op_infos(OpDb& db) {
  db.add(info("add", binary_samples()));
  db.add(info("subtract", binary_samples()));
  db.add(info("multiply", binary_samples()));
  db.add(info("divide", binary_samples(), Domain::kNonZero));
  db.add(info("floor_divide", binary_samples(), Domain::kNonZero));
  db.add(info("remainder", binary_samples(), Domain::kNonZero));
  db.add(info("elementwise_pow", binary_samples(), Domain::kPositive));
  db.add(info("pow",
              with_attrs({{{"y", Scalar(2.0)}},
                          {{"y", Scalar(3)}},
                          {{"y", Scalar(0.5)}},
                          {{"y", Scalar(-1.0)}},
                          {{"y", Scalar(1.7)}}}),
              Domain::kPositive));
  db.add(info("maximum", binary_samples()));
  db.add(info("minimum", binary_samples()));
  // Small integers in every dtype, so that equal values occur.
  for (const char* op : {"equal", "not_equal", "less_than", "less_equal", "greater_than",
                         "greater_equal", "logical_and", "logical_or", "logical_xor"}) {
    db.add(info(op, binary_samples(), Domain::kSmallInt));
  }
  db.add(info("logical_not", unary_samples(), Domain::kSmallInt));
  for (const char* op : {"bitwise_and", "bitwise_or", "bitwise_xor"}) {
    db.add(info(op, binary_samples()));
  }
  db.add(info("bitwise_not", unary_samples()));
  OpInfo where = info("where", ternary_samples());
  where.fixed_dtypes = {{0, DType::kBool}};  // the condition
  db.add(std::move(where));
  db.add(info("lerp", ternary_samples()));
  db.add(info("clip",
              with_attrs({{{"min", Scalar(-1.0)}, {"max", Scalar(1.0)}},
                          {{"min", Scalar(0)}, {"max", Scalar(0)}},
                          {{"min", Scalar(-0.5)}, {"max", Scalar(1.5)}},
                          {{"min", Scalar(-100)}, {"max", Scalar(1000)}}}),
              Domain::kSmallInt));
  db.add(info("assign", unary_samples()));
  db.add(info(
      "scale",
      with_attrs({{},
                  {{"scale", Scalar(2)}, {"bias", Scalar(-3)}},
                  {{"scale", Scalar(0.5)}, {"bias", Scalar(1.25)}, {"bias_after_scale", false}},
                  {{"scale", Scalar(-3)}, {"bias", Scalar(2)}, {"bias_after_scale", false}}})));
  db.add(info(
      "cast",
      {sample({{3, 4}}, {{"dtype", DType::kFloat32}}), sample({{3, 4}}, {{"dtype", DType::kInt32}}),
       sample({{7}}, {{"dtype", DType::kBFloat16}}), sample({{7}}, {{"dtype", DType::kFloat16}}),
       sample({{2, 5}}, {{"dtype", DType::kBool}}), sample({{2, 5}}, {{"dtype", DType::kInt64}}),
       sample({{2, 5}}, {{"dtype", DType::kFloat64}})},
      Domain::kSmallInt));
  // reduce_as sums x down to the shape of target (which broadcasts to x).
  db.add(info("reduce_as",
              {sample({{3, 4}, {4}}), sample({{2, 3, 4}, {3, 1}}), sample({{2, 3}, {2, 3}}),
               sample({{5}, {}}), sample({{0, 3}, {3}}), sample({{300, 200}, {1, 200}})}));
}

}  // namespace skiff::testing
