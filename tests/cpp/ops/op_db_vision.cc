// OpDb entries of the detection ops (vision.yaml). Boxes come from a maker (x1 < x2, y1 < y2,
// some past the border of the 6x7 / 8x8 planes of the samples); boxes_num follows the pattern
// 2, 0, 3, 1, ... per image, so each sample's box count is the pattern's sum over its batch.
#include "op_db.h"

namespace skiff::testing {

namespace {

using ops::AttrValue;
using Attrs = std::map<std::string, AttrValue>;

constexpr int64_t kCountPattern[] = {2, 0, 3, 1};

InputMaker boxes_maker(double extent) {
  return [extent](int, const Dims& dims, DType dtype, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> corner(-1.0, extent - 1.0), size(0.4, extent / 1.5);
    std::vector<double> v(dims.numel());
    for (int64_t r = 0; r < dims.numel() / 4; ++r) {
      const double x = corner(rng), y = corner(rng);
      v[4 * r] = x, v[4 * r + 1] = y, v[4 * r + 2] = x + size(rng), v[4 * r + 3] = y + size(rng);
    }
    return make_tensor(dims, dtype, v);
  };
}

InputMaker counts_maker() {
  return [](int, const Dims& dims, DType dtype, std::mt19937_64&) {
    std::vector<double> v(dims.numel());
    for (int64_t n = 0; n < dims.numel(); ++n) v[n] = static_cast<double>(kCountPattern[n % 4]);
    return make_tensor(dims, dtype, v);
  };
}

InputMaker positions_below(int64_t limit) {
  return [limit](int, const Dims& dims, DType dtype, std::mt19937_64& rng) {
    std::uniform_int_distribution<int64_t> pick(-1, limit - 1);
    std::vector<double> v(dims.numel());
    for (auto& x : v) x = static_cast<double>(pick(rng));
    return make_tensor(dims, dtype, v);
  };
}

int64_t boxes_for(int64_t batch) {
  int64_t k = 0;
  for (int64_t n = 0; n < batch; ++n) k += kCountPattern[n % 4];
  return k;
}

// (x, boxes, boxes_num, extra...) for a batch of n images of c x h x w; with `single` >= 0,
// x has one image and `single` boxes without boxes_num. `extra(k)` gives the shapes of the
// arguments after boxes_num for k boxes.
using Extra = std::function<std::vector<Dims>(int64_t k)>;

OpSample roi(int64_t n, int64_t c, int64_t h, int64_t w, Attrs attrs, const Extra& extra,
             int64_t single = -1) {
  OpSample s;
  const int64_t k = single >= 0 ? single : boxes_for(n);
  s.shapes = {{Dims{single >= 0 ? 1 : n, c, h, w}}, {Dims{k, 4}}, {}};
  if (single < 0) s.shapes[2].push_back(Dims{n});
  for (const Dims& d : extra(k)) s.shapes.push_back({d});
  s.attrs = std::move(attrs);
  return s;
}

Attrs pooled(int64_t ph, int64_t pw, Attrs more = {}) {
  more["pooled_height"] = ph;
  more["pooled_width"] = pw;
  return more;
}

// Extra shapes: none (forward), out_grad (roi_align_grad), arg_max and out_grad
// (roi_pool_grad), all [k, c, ph, pw].
Extra grads(int copies, int64_t c, int64_t ph, int64_t pw) {
  return [=](int64_t k) { return std::vector<Dims>(copies, Dims{k, c, ph, pw}); };
}

std::vector<OpSample> align_samples(int copies) {
  const Attrs legacy = {{"aligned", false}}, aligned = {{"aligned", true}};
  return {roi(3, 2, 6, 7, pooled(2, 3, aligned), grads(copies, 2, 2, 3)),
          roi(3, 2, 6, 7, pooled(2, 2, legacy), grads(copies, 2, 2, 2)),
          roi(2, 2, 6, 7, pooled(3, 2, {{"aligned", true}, {"sampling_ratio", int64_t{2}}}),
              grads(copies, 2, 3, 2)),
          roi(2, 1, 8, 8, pooled(2, 2, {{"spatial_scale", 0.5}, {"aligned", true}}),
              grads(copies, 1, 2, 2)),
          roi(1, 2, 6, 6, pooled(2, 2, aligned), grads(copies, 2, 2, 2), 3),
          roi(1, 3, 6, 6, pooled(2, 2, aligned), grads(copies, 3, 2, 2), 0),
          roi(4, 16, 20, 20, pooled(7, 7, aligned), grads(copies, 16, 7, 7))};
}

std::vector<OpSample> pool_samples(int copies) {
  return {roi(3, 2, 6, 7, pooled(2, 3), grads(copies, 2, 2, 3)),
          roi(2, 2, 8, 8, pooled(3, 2, {{"spatial_scale", 0.5}}), grads(copies, 2, 3, 2)),
          roi(1, 2, 6, 6, pooled(2, 2), grads(copies, 2, 2, 2), 3),
          roi(1, 2, 6, 6, pooled(2, 2), grads(copies, 2, 2, 2), 0),
          roi(4, 16, 20, 20, pooled(7, 7), grads(copies, 16, 7, 7))};
}

}  // namespace

void add_vision_op_infos(OpDb& db) {
  const std::map<int, InputMaker> roi_makers = {{1, boxes_maker(7.0)}, {2, counts_maker()}};
  db.add({.name = "roi_align",
          .samples = align_samples(0),
          .input_makers = roi_makers,
          .fixed_dtypes = {{2, DType::kInt32}}});
  db.add({.name = "roi_align_grad",
          .samples = align_samples(1),
          .input_makers = roi_makers,
          .fixed_dtypes = {{2, DType::kInt32}}});
  db.add({.name = "roi_pool",
          .samples = pool_samples(0),
          .input_makers = roi_makers,
          .fixed_dtypes = {{2, DType::kInt64}},
          // roi_pool_grad has no rule: max pooling has no second order here.
          .check_gradgrad = false});
  std::map<int, InputMaker> pool_grad_makers = roi_makers;
  pool_grad_makers[3] = positions_below(36);
  db.add({.name = "roi_pool_grad",
          .samples = pool_samples(2),
          .input_makers = pool_grad_makers,
          .fixed_dtypes = {{2, DType::kInt32}, {3, DType::kInt64}}});
  db.add(
      {.name = "nms",
       .samples = {sample({{40, 4}}, {{"threshold", 0.3}}), sample({{40, 4}}, {{"threshold", 0.0}}),
                   sample({{1, 4}}), sample({{0, 4}}), sample({{600, 4}}, {{"threshold", 0.5}})},
       .input_makers = {{0, boxes_maker(10.0)}}});
  const AttrValue decode = std::string("decode_center_size");
  const AttrValue variance = std::vector<double>{0.1, 0.1, 0.2, 0.2};
  auto coder = [](std::vector<std::vector<Dims>> shapes, Attrs attrs) {
    OpSample s;
    s.shapes = std::move(shapes);
    s.attrs = std::move(attrs);
    return s;
  };
  db.add({.name = "box_coder",
          .samples = {coder({{{5, 4}}, {{5, 4}}, {{3, 4}}}, {}),
                      coder({{{5, 4}}, {}, {{3, 4}}}, {{"variance", variance}}),
                      coder({{{5, 4}}, {}, {{3, 4}}}, {{"box_normalized", false}}),
                      coder({{{5, 4}}, {{5, 4}}, {{3, 5, 4}}}, {{"code_type", decode}}),
                      coder({{{3, 4}}, {}, {{3, 5, 4}}},
                            {{"code_type", decode}, {"axis", int64_t{1}}, {"variance", variance}}),
                      coder({{{4, 4}}, {}, {{0, 4}}}, {}),
                      coder({{{64, 4}}, {}, {{300, 4}}}, {{"box_normalized", false}})},
          // prior_box_var must be positive; target boxes are boxes (encode) or small codes.
          .input_makers = {
              {0, boxes_maker(10.0)},
              {1, [](int, const Dims& d, DType t,
                     std::mt19937_64& rng) { return random_tensor(d, t, Domain::kPositive, rng); }},
              {2, [](int a, const Dims& d, DType t, std::mt19937_64& rng) {
                 if (d.size() == 2) return boxes_maker(10.0)(a, d, t, rng);
                 return random_tensor(d, t, Domain::kUnit, rng);
               }}}});
}

}  // namespace skiff::testing
