// Every op x every CPU dtype it declares x every sample: the CPU kernel against the float64
// reference backend, on contiguous and on strided inputs (ops without a reference kernel by
// design: their entry's property check instead). Also checks that the op database
// covers every op and that every CPU kernel has a reference kernel to be checked against.
#include <gtest/gtest.h>

#include "op_db.h"
#include "skiff/core/generator.h"
#include "skiff/ops/boxed.h"
#include "skiff/ops/dispatch.h"
#include "skiff/ops/generated/dense/all.h"
#include "skiff/ops/kernel_registry.h"

namespace skiff::testing {
namespace {

DType widen(DType d) {
  if (is_floating(d)) return DType::kFloat64;
  if (is_complex(d)) return DType::kComplex128;
  if (is_integral(d)) return DType::kInt64;
  return d;
}

bool has_kernel(const ops::OpSchema& s, Backend b, DType d) {
  return ops::KernelRegistry::global().find(s.id, b, d) != nullptr;
}

std::vector<DType> cpu_dtypes(const ops::OpSchema& s) {
  std::vector<DType> out;
  for (const auto& k : ops::KernelRegistry::global().kernels_of(s.id)) {
    if (k.backend == Backend::kCPU) out.push_back(k.dtype);
  }
  return out;
}

ops::BoxedInputs build_inputs(const OpInfo& info, const OpSample& sample, DType dtype,
                              uint64_t seed) {
  std::mt19937_64 rng(seed);
  ops::BoxedInputs in;
  in.tensors = sample_inputs(info, sample, dtype, rng);
  in.attrs = sample.attrs;
  return in;
}

ops::BoxedInputs transform_inputs(const ops::BoxedInputs& in, DType tested,
                                  const std::function<DenseTensor(const DenseTensor&)>& f) {
  ops::BoxedInputs out;
  out.attrs = in.attrs;
  for (const auto& list : in.tensors) {
    std::vector<DenseTensor> l;
    // Tensors of other dtypes are copied too: in-place ops (optimizers) must not see the
    // writes of another run.
    for (const auto& t : list) l.push_back(t.dtype() == tested ? f(t) : t.copy_to(t.place()));
    out.tensors.push_back(std::move(l));
  }
  return out;
}

ops::BoxedOutputs run(const ops::OpSchema& s, const ops::BoxedInputs& in, Backend backend) {
  default_generator(Place::cpu()).set_state({1234, 0});  // random ops draw the same numbers
  ops::ScopedBackend scoped(backend);
  return ops::call_boxed(s.id, in);
}

void check_outputs(const OpInfo& info, const ops::BoxedOutputs& got, const ops::BoxedOutputs& want,
                   const std::string& where) {
  ASSERT_EQ(got.size(), want.size()) << where;
  for (size_t o = 0; o < got.size(); ++o) {
    if (info.compared_outputs) {
      const auto& c = *info.compared_outputs;
      if (std::find(c.begin(), c.end(), static_cast<int>(o)) == c.end()) continue;
    }
    ASSERT_EQ(got[o].size(), want[o].size()) << where << " output " << o;
    for (size_t i = 0; i < got[o].size(); ++i) {
      const DenseTensor& g = got[o][i];
      // Round the reference to the tested dtype first: that is the best any kernel can do, and
      // it gives integer results the wrap-around of their dtype.
      const DenseTensor w =
          want[o][i].dtype() == g.dtype() ? want[o][i] : ops::dense::cast(want[o][i], g.dtype());
      ASSERT_EQ(g.dims(), w.dims()) << where << " output " << o;
      Tolerance tol = tolerance_for(g.dtype());
      tol.rtol *= info.tolerance_scale;
      tol.atol *= info.tolerance_scale;
      const std::string diff = compare(to_doubles(g), to_doubles(w), tol);
      EXPECT_TRUE(diff.empty()) << where << " output " << o << "[" << i << "]: " << diff;
    }
  }
}

class OpConsistency : public ::testing::TestWithParam<std::string> {};

TEST_P(OpConsistency, CpuMatchesReference) {
  const OpInfo& info = OpDb::get().infos().at(GetParam());
  const ops::OpSchema& s = ops::op_schema(info.name);
  const auto dtypes = cpu_dtypes(s);
  ASSERT_FALSE(dtypes.empty()) << s.name << " has no CPU kernel";
  for (DType dtype : dtypes) {
    if (info.property) {  // no reference kernel by design: check the outputs' defining property
      for (size_t k = 0; k < info.samples.size(); ++k) {
        const std::string where = str(s.name, " ", dtype, " sample ", k);
        const ops::BoxedInputs in = build_inputs(info, info.samples[k], dtype, 1000 + k);
        const std::string wrong = info.property(in, run(s, in, Backend::kCPU));
        EXPECT_TRUE(wrong.empty()) << where << ": " << wrong;
      }
      continue;
    }
    const DType ref = has_kernel(s, Backend::kReference, widen(dtype)) ? widen(dtype) : dtype;
    ASSERT_TRUE(has_kernel(s, Backend::kReference, ref))
        << s.name << " has no reference kernel for " << dtype;
    for (size_t k = 0; k < info.samples.size(); ++k) {
      const std::string where = str(s.name, " ", dtype, " sample ", k);
      const ops::BoxedInputs in = build_inputs(info, info.samples[k], dtype, 1000 + k);
      const auto widened = transform_inputs(
          in, dtype, [&](const DenseTensor& t) { return ops::dense::cast(t, ref); });
      ops::BoxedOutputs want;
      try {
        want = run(s, widened, Backend::kReference);
      } catch (const Error& e) {
        FAIL() << where << ": reference threw: " << e.what();
      }
      // The reference ran on widened inputs; its outputs are compared as float64 values.
      ops::BoxedOutputs got;
      try {
        got = run(s, in, Backend::kCPU);
      } catch (const Error& e) {
        FAIL() << where << ": cpu threw: " << e.what();
      }
      check_outputs(info, got, want, where);
      if (!info.skip_noncontiguous) {
        const auto strided = transform_inputs(in, dtype, noncontiguous_copy);
        check_outputs(info, run(s, strided, Backend::kCPU), want, where + " (strided)");
      }
    }
  }
}

std::vector<std::string> db_ops() {
  std::vector<std::string> names;
  for (const auto& [name, info] : OpDb::get().infos()) names.push_back(name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(AllOps, OpConsistency, ::testing::ValuesIn(db_ops()),
                         [](const auto& p) { return p.param; });

TEST(OpDbTest, EveryOpHasAnEntry) {
  std::vector<std::string> missing;
  for (const auto& s : ops::all_op_schemas()) {
    if (!OpDb::get().infos().count(s.name)) missing.push_back(s.name);
  }
  EXPECT_TRUE(missing.empty()) << "ops without an OpDb entry: " << join(missing, ", ");
}

}  // namespace
}  // namespace skiff::testing
