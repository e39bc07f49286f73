// matmul_spmd: Paddle's MatmulInferSpmd notation ([b..]mk, [b..]kn -> [b..]mn; m, k, n are
// reserved, batch dims take other letters right-aligned, a size-1 batch dim broadcast against a
// larger one is '1'). Transposed operands swap their last two mapping entries before the merge
// and back after it, so the merge always sees mk / kn.
#include <algorithm>
#include <utility>

#include "skiff/base/error.h"
#include "skiff/dist/spmd/einsum.h"
#include "skiff/dist/spmd/rule_util.h"
#include "skiff/dist/spmd/rules.h"

namespace skiff::dist::spmd {

namespace {
constexpr std::string_view kRule = "matmul_spmd";
constexpr std::string_view kBatchLetters = "abcdefghijlopqrstuvwxyz";

void swap_last_two(std::vector<int64_t>& v) {
  if (v.size() >= 2) std::swap(v[v.size() - 1], v[v.size() - 2]);
}
}  // namespace

SpmdInfo matmul_spmd(const DistTensorSpec& x, const DistTensorSpec& y, bool trans_x, bool trans_y) {
  detail::check_inputs(kRule, {{"x", &x}, {"y", &y}});
  const int64_t xn = x.ndim();
  const int64_t yn = y.ndim();
  SKIFF_ENFORCE(xn >= 1, kInvalidArgument, kRule, "x", "a tensor of at least 1 dim", "0 dims");
  SKIFF_ENFORCE(yn >= 1, kInvalidArgument, kRule, "y", "a tensor of at least 1 dim", "0 dims");
  const int64_t xb = std::max<int64_t>(xn - 2, 0);
  const int64_t yb = std::max<int64_t>(yn - 2, 0);
  const int64_t nb = std::max(xb, yb);
  SKIFF_ENFORCE(nb <= static_cast<int64_t>(kBatchLetters.size()), kInvalidArgument, kRule, "x",
                "at most 23 batch dims", nb);
  // Batch letters, right-aligned; '1' where a size-1 dim broadcasts against a larger one.
  std::string xl(kBatchLetters.substr(static_cast<size_t>(nb - xb), static_cast<size_t>(xb)));
  std::string yl(kBatchLetters.substr(static_cast<size_t>(nb - yb), static_cast<size_t>(yb)));
  std::string outl(kBatchLetters.substr(0, static_cast<size_t>(nb)));
  for (int64_t i = 0; i < nb; ++i) {
    const int64_t xi = i - (nb - xb), yi = i - (nb - yb);
    const int64_t xs = xi >= 0 ? x.shape[static_cast<size_t>(xi)] : 1;
    const int64_t ys = yi >= 0 ? y.shape[static_cast<size_t>(yi)] : 1;
    if (xi >= 0 && xs == 1 && ys != 1) xl[static_cast<size_t>(xi)] = '1';
    if (yi >= 0 && ys == 1 && xs != 1) yl[static_cast<size_t>(yi)] = '1';
  }
  xl += xn == 1 ? "k" : "mk";
  yl += yn == 1 ? "k" : "kn";
  if (xn >= 2) outl += "m";
  if (yn >= 2) outl += "n";

  std::vector<int64_t> xm = x.dims_mapping(), ym = y.dims_mapping();
  if (trans_x) swap_last_two(xm);
  if (trans_y) swap_last_two(ym);
  const AxisMap map = merge_shardings(kRule, {{"x", xl, xm}, {"y", yl, ym}});

  std::vector<int64_t> x_in = dims_mapping_for(xl, map), y_in = dims_mapping_for(yl, map);
  if (trans_x) swap_last_two(x_in);
  if (trans_y) swap_last_two(y_in);
  SpmdInfo info;
  info.inputs = {detail::attr_on(x, std::move(x_in)), detail::attr_on(y, std::move(y_in))};
  info.outputs = {detail::attr_on(x, dims_mapping_for(outl, map), partial_for(xl + yl, outl, map))};
  return info;
}

}  // namespace skiff::dist::spmd
