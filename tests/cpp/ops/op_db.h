// The op database for generic tests (PyTorch's OpInfo idea): per op, sample inputs and how to
// generate their values. The consistency test runs every op on every CPU dtype it declares,
// contiguous and strided, against the float64 reference backend. Each op family registers its
// entries in its own op_db_<family>.cc.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "op_test_util.h"
#include "skiff/ops/op_schema.h"

namespace skiff::testing {

struct OpSample {
  /// Shapes per tensor argument, in record order: one shape for Tensor, any number for
  /// Tensor[], zero or one for Tensor?.
  std::vector<std::vector<Dims>> shapes;
  std::map<std::string, ops::AttrValue> attrs;
};

/// A sample whose optional tensor arguments may be absent (an empty shape list).
inline OpSample with_optional(std::vector<std::vector<Dims>> shapes,
                              std::map<std::string, ops::AttrValue> attrs) {
  return OpSample{std::move(shapes), std::move(attrs)};
}

/// Makes the input for tensor argument `arg` (record order) of a sample; default: random values
/// of the tested dtype in the op's domain.
using InputMaker =
    std::function<DenseTensor(int arg, const Dims& dims, DType dtype, std::mt19937_64& rng)>;

struct OpInfo {
  std::string name{};
  std::vector<OpSample> samples{};
  Domain domain = Domain::kAny;
  /// Per tensor argument, a maker overriding the default (e.g. integer indices, labels).
  std::map<int, InputMaker> input_makers{};
  /// Multiplies the dtype tolerances (ops that amplify rounding, e.g. long reductions).
  double tolerance_scale = 1.0;
  /// Tensor arguments whose dtype stays fixed (e.g. int64 indices) instead of the tested dtype.
  std::map<int, DType> fixed_dtypes{};
  /// Compare outputs only at these indices (e.g. skip a data-dependent second output).
  std::optional<std::vector<int>> compared_outputs{};
  /// Skip the strided-input variant (ops whose kernels are given views on purpose).
  bool skip_noncontiguous = false;
  /// Finite-difference checks of the VJP rule (float64), first and second order.
  bool check_grad = true;
  bool check_gradgrad = true;
  /// Skip the IR tests (op dialect, static capture): the IR has no complex element type yet.
  bool eager_only = false;
  /// For an op with no reference kernel (a CPU-only record, e.g. eig, whose outputs have no
  /// canonical order to compare with an oracle's): a check of the CPU outputs against the
  /// inputs, returning "" when they are right, else what is wrong.
  std::function<std::string(const ops::BoxedInputs&, const ops::BoxedOutputs&)> property{};
};

class OpDb {
 public:
  void add(OpInfo info);
  const std::map<std::string, OpInfo>& infos() const { return infos_; }
  static const OpDb& get();

 private:
  std::map<std::string, OpInfo> infos_;
};

// One per family; each file adds the entries of its ops.
void add_elementwise_op_infos(OpDb& db);
void add_unary_op_infos(OpDb& db);
void add_activation_op_infos(OpDb& db);
void add_reduction_op_infos(OpDb& db);
void add_linalg_op_infos(OpDb& db);
void add_nn_op_infos(OpDb& db);
void add_manipulation_op_infos(OpDb& db);
void add_creation_op_infos(OpDb& db);
void add_optimizer_op_infos(OpDb& db);
void add_vision_op_infos(OpDb& db);
void add_attention_op_infos(OpDb& db);
void add_lapack_op_infos(OpDb& db);
void add_math_functions_op_infos(OpDb& db);
void add_statistics_op_infos(OpDb& db);
void add_quant_op_infos(OpDb& db);
void add_special_op_infos(OpDb& db);
void add_complex_op_infos(OpDb& db);
void add_fused_op_infos(OpDb& db);

/// Shorthand for a sample with one shape per tensor argument.
OpSample sample(std::vector<Dims> shapes, std::map<std::string, ops::AttrValue> attrs = {});

/// The inputs of `sample`, one list per tensor argument (record order): the entry's input maker
/// where it has one for the argument, else random values of `domain` (default: the entry's) in
/// the argument's fixed dtype or `dtype`. The one input builder of every op-table test.
std::vector<std::vector<DenseTensor>> sample_inputs(const OpInfo& info, const OpSample& sample,
                                                    DType dtype, std::mt19937_64& rng,
                                                    std::optional<Domain> domain = {});

}  // namespace skiff::testing
