// OpDb entries of the fused LLM ops.
#include "op_db.h"

namespace skiff::testing {

namespace {

using ops::AttrValue;
using Attrs = std::map<std::string, AttrValue>;

// Position ids in [0, 5): within every sample's sin/cos table (5 rows where ids are given).
InputMaker positions() {
  return [](int, const Dims& dims, DType dtype, std::mt19937_64& rng) {
    std::vector<double> v(dims.numel());
    for (auto& x : v) x = static_cast<double>(rng() % 5);
    return make_tensor(dims, dtype, v);
  };
}

}  // namespace

void add_fused_op_infos(OpDb& db) {
  const Attrs half = {{"use_neox_rotary_style", false}};
  const Attrs tm = {{"time_major", true}};
  db.add(
      {.name = "fused_rope",
       .samples = {with_optional({{{2, 3, 2, 4}}, {}, {}, {}}, {}),
                   with_optional({{{2, 3, 2, 4}}, {}, {}, {}}, half),
                   with_optional({{{2, 3, 2, 4}}, {{3, 4}}, {{3, 4}}, {}}, {}),
                   with_optional({{{2, 3, 2, 6}}, {{1, 5, 1, 6}}, {{1, 5, 1, 6}}, {{2, 3}}}, half),
                   with_optional({{{3, 2, 1, 4}}, {{5, 4}}, {{5, 4}}, {{2, 3}}}, tm),
                   with_optional({{{3, 2, 2, 4}}, {}, {}, {}},
                                 {{"transpose", true}, {"rotary_emb_base", 100.0}}),
                   with_optional({{{0, 3, 2, 4}}, {}, {}, {}}, {}),
                   with_optional({{{2, 64, 4, 64}}, {}, {}, {}}, {})},
       .input_makers = {{3, positions()}},
       .fixed_dtypes = {{3, DType::kInt64}}});
}

}  // namespace skiff::testing
