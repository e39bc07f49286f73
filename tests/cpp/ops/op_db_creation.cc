// OpDb entries of the creation ops. Their dtype is an attribute, so samples name dtypes
// explicitly (the tested-dtype loop reruns them); *_like ops follow the tested dtype of x.
#include "op_db.h"

namespace skiff::testing {

namespace {

using ops::AttrValue;
using Attrs = std::map<std::string, AttrValue>;

OpSample no_inputs(Attrs attrs) { return sample({}, std::move(attrs)); }

using Shape = std::vector<int64_t>;

}  // namespace

void add_creation_op_infos(OpDb& db) {
  db.add(
      {.name = "full",
       .samples = {
           no_inputs({{"shape", Shape{2, 3}}, {"fill_value", Scalar(2.5)}}),
           no_inputs({{"shape", Shape{4}},
                      {"fill_value", Scalar(int64_t{-3})},
                      {"dtype", DType::kInt32}}),
           no_inputs({{"shape", Shape{4}}, {"fill_value", Scalar(true)}, {"dtype", DType::kBool}}),
           no_inputs(
               {{"shape", Shape{}}, {"fill_value", Scalar(1.5)}, {"dtype", DType::kBFloat16}}),
           no_inputs(
               {{"shape", Shape{3, 0}}, {"fill_value", Scalar(1.0)}, {"dtype", DType::kFloat16}}),
           no_inputs({{"shape", Shape{2}}, {"fill_value", Scalar(7)}, {"dtype", DType::kUInt8}}),
           no_inputs({{"shape", Shape{300, 200}},
                      {"fill_value", Scalar(0.1)},
                      {"dtype", DType::kFloat64}})}});
  db.add({.name = "full_like",
          .samples = {sample({{2, 3}}, {{"fill_value", Scalar(3)}}),
                      sample({{}}, {{"fill_value", Scalar(-1.0)}}),
                      sample({{0, 2}}, {{"fill_value", Scalar(1)}}),
                      sample({{2, 2}}, {{"fill_value", Scalar(4)}, {"dtype", DType::kInt16}}),
                      sample({{300, 200}}, {{"fill_value", Scalar(1)}})},
          .domain = Domain::kSmallInt});
  for (const char* name : {"zeros", "ones"}) {
    db.add({.name = name,
            .samples = {no_inputs({{"shape", Shape{2, 3}}}),
                        no_inputs({{"shape", Shape{}}, {"dtype", DType::kInt64}}),
                        no_inputs({{"shape", Shape{0}}, {"dtype", DType::kBool}}),
                        no_inputs({{"shape", Shape{5}}, {"dtype", DType::kBFloat16}}),
                        no_inputs({{"shape", Shape{300, 200}}, {"dtype", DType::kInt8}})}});
  }
  for (const char* name : {"zeros_like", "ones_like"}) {
    db.add({.name = name,
            .samples = {sample({{2, 3}}), sample({{}}), sample({{0, 4}}),
                        sample({{2, 2}}, {{"dtype", DType::kFloat16}}), sample({{300, 200}})},
            .domain = Domain::kSmallInt});
  }
  db.add(
      {.name = "arange",
       .samples = {
           no_inputs({{"start", Scalar(0)}, {"end", Scalar(10)}}),
           no_inputs({{"start", Scalar(0.5)}, {"end", Scalar(3.2)}, {"step", Scalar(0.3)}}),
           no_inputs({{"start", Scalar(10)},
                      {"end", Scalar(0)},
                      {"step", Scalar(-3)},
                      {"dtype", DType::kInt32}}),
           no_inputs({{"start", Scalar(0)}, {"end", Scalar(0)}}),
           no_inputs({{"start", Scalar(5)}, {"end", Scalar(0)}}),
           no_inputs({{"start", Scalar(-2)},
                      {"end", Scalar(2)},
                      {"step", Scalar(0.5)},
                      {"dtype", DType::kBFloat16}}),
           no_inputs({{"start", Scalar(0)}, {"end", Scalar(50000)}, {"dtype", DType::kFloat64}})}});
  db.add(
      {.name = "linspace",
       .samples = {no_inputs({{"start", Scalar(-1.0)}, {"stop", Scalar(1.0)}, {"num", int64_t{7}}}),
                   no_inputs({{"start", Scalar(0)},
                              {"stop", Scalar(10)},
                              {"num", int64_t{11}},
                              {"dtype", DType::kInt32}}),
                   no_inputs({{"start", Scalar(3.0)}, {"stop", Scalar(4.0)}, {"num", int64_t{1}}}),
                   no_inputs({{"start", Scalar(3.0)}, {"stop", Scalar(4.0)}, {"num", int64_t{0}}}),
                   no_inputs({{"start", Scalar(2.0)},
                              {"stop", Scalar(-2.0)},
                              {"num", int64_t{9}},
                              {"dtype", DType::kFloat16}}),
                   no_inputs({{"start", Scalar(0.0)},
                              {"stop", Scalar(1.0)},
                              {"num", int64_t{50000}},
                              {"dtype", DType::kFloat64}})}});
  db.add(
      {.name = "eye",
       .samples = {
           no_inputs({{"num_rows", int64_t{3}}}),
           no_inputs(
               {{"num_rows", int64_t{3}}, {"num_columns", int64_t{5}}, {"dtype", DType::kInt64}}),
           no_inputs(
               {{"num_rows", int64_t{4}}, {"num_columns", int64_t{2}}, {"dtype", DType::kBool}}),
           no_inputs({{"num_rows", int64_t{0}}}),
           no_inputs({{"num_rows", int64_t{250}},
                      {"num_columns", int64_t{200}},
                      {"dtype", DType::kBFloat16}})}});
  db.add(
      {.name = "uniform",
       .samples = {
           no_inputs({{"shape", Shape{3, 4}}}),
           no_inputs({{"shape", Shape{7}}, {"dtype", DType::kFloat64}, {"min", 2.0}, {"max", 5.0}}),
           no_inputs({{"shape", Shape{}}, {"dtype", DType::kBFloat16}}),
           no_inputs({{"shape", Shape{9}}, {"dtype", DType::kFloat16}, {"seed", int64_t{7}}}),
           no_inputs({{"shape", Shape{0, 3}}}),
           no_inputs({{"shape", Shape{300, 200}}, {"min", 0.0}, {"max", 1.0}}),
           no_inputs({{"shape", Shape{301, 200}}, {"dtype", DType::kFloat64}})}});
  db.add({.name = "gaussian",
          .samples =
              {no_inputs({{"shape", Shape{3, 5}}}),
               no_inputs(
                   {{"shape", Shape{7}}, {"dtype", DType::kFloat64}, {"mean", 1.0}, {"std", 2.0}}),
               no_inputs({{"shape", Shape{}}, {"dtype", DType::kBFloat16}}),
               no_inputs({{"shape", Shape{9}}, {"dtype", DType::kFloat16}, {"seed", int64_t{7}}}),
               no_inputs({{"shape", Shape{0}}}), no_inputs({{"shape", Shape{300, 201}}}),
               no_inputs({{"shape", Shape{301, 200}}, {"dtype", DType::kFloat64}})},
          .tolerance_scale = 4});
  db.add({.name = "fill",
          .samples = {sample({{2, 3}}, {{"value", Scalar(3)}}),
                      sample({{}}, {{"value", Scalar(-1.5)}}), sample({{0, 2}}),
                      sample({{300, 200}}, {{"value", Scalar(1)}})}});
  // The in-place draws equal uniform's and gaussian's (checked in the runtime's inplace_test);
  // the float64 reference draws with its own recipe, so outputs are not compared here.
  for (const char* op : {"uniform_inplace", "gaussian_inplace"}) {
    db.add({.name = op,
            .samples = {sample({{3, 4}}), sample({{7}}, {{"seed", int64_t{3}}}), sample({{}}),
                        sample({{0, 3}})},
            .compared_outputs = std::vector<int>{}});
  }
  db.add({.name = "randint",
          .samples = {
              no_inputs({{"low", int64_t{0}}, {"high", int64_t{10}}, {"shape", Shape{3, 4}}}),
              no_inputs({{"low", int64_t{-5}},
                         {"high", int64_t{5}},
                         {"shape", Shape{7}},
                         {"dtype", DType::kInt32}}),
              no_inputs({{"low", int64_t{0}}, {"high", int64_t{1} << 40}, {"shape", Shape{9}}}),
              no_inputs({{"low", int64_t{0}}, {"high", int64_t{3}}, {"shape", Shape{}}}),
              no_inputs({{"low", int64_t{0}}, {"high", int64_t{3}}, {"shape", Shape{0}}}),
              no_inputs({{"low", int64_t{0}}, {"high", int64_t{1000}}, {"shape", Shape{50000}}})}});
  db.add({.name = "randperm",
          .samples = {no_inputs({{"n", int64_t{10}}}),
                      no_inputs({{"n", int64_t{7}}, {"dtype", DType::kInt32}}),
                      no_inputs({{"n", int64_t{5}}, {"dtype", DType::kFloat32}}),
                      no_inputs({{"n", int64_t{1}}}),
                      no_inputs({{"n", int64_t{0}}, {"dtype", DType::kFloat64}}),
                      no_inputs({{"n", int64_t{50000}}})}});
}

}  // namespace skiff::testing
