// OpDb entries of the manipulation and indexing ops. Index inputs are generated in a small range
// ([0, 3) or [-3, 3) where negatives are allowed) and every sample's indexed dims are >= 3, so
// one maker serves all samples of an op. One sample per op is large enough (>= 40k elements)
// for the multi-threaded path.
#include "op_db.h"

namespace skiff::testing {

namespace {

using L = std::vector<int64_t>;
using Attrs = std::map<std::string, ops::AttrValue>;

ops::AttrValue I(int64_t v) { return v; }
ops::AttrValue S(const char* v) { return std::string(v); }

OpSample list_sample(std::vector<Dims> list, Attrs attrs = {}) {
  OpSample s;
  s.shapes = {std::move(list)};
  s.attrs = std::move(attrs);
  return s;
}

// Uniform integers in [lo, hi) of the requested dtype.
InputMaker ints(int64_t lo, int64_t hi) {
  return [lo, hi](int, const Dims& dims, DType dtype, std::mt19937_64& rng) {
    std::uniform_int_distribution<int64_t> dist(lo, hi - 1);
    std::vector<double> v(dims.numel());
    for (auto& x : v) x = static_cast<double>(dist(rng));
    return make_tensor(dims, dtype, v);
  };
}

// Indices that never repeat along any axis of the index tensor: (sum of coordinates + shift)
// mod the smallest dim. "assign" then has one surviving write per position, so its gradient
// is well defined (the samples keep the smallest dim <= the indexed axis' size).
InputMaker unique_along_axes() {
  return [](int, const Dims& dims, DType dtype, std::mt19937_64& rng) {
    int64_t m = 1;
    for (int d = 0; d < dims.size(); ++d) m = d == 0 ? dims[d] : std::min(m, dims[d]);
    m = std::max<int64_t>(m, 1);
    const int64_t shift = static_cast<int64_t>(rng() % static_cast<uint64_t>(m));
    std::vector<double> v(dims.numel());
    for (int64_t i = 0; i < dims.numel(); ++i) {
      int64_t rem = i, sum = 0;
      for (int d = dims.size() - 1; d >= 0; --d) {
        sum += rem % dims[d];
        rem /= dims[d];
      }
      v[i] = static_cast<double>((sum + shift) % m);
    }
    return make_tensor(dims, dtype, v);
  };
}

OpInfo info(const char* name, std::vector<OpSample> samples,
            std::map<int, InputMaker> input_makers = {}, std::map<int, DType> fixed_dtypes = {},
            Domain domain = Domain::kAny) {
  OpInfo i;
  i.name = name;
  i.samples = std::move(samples);
  i.input_makers = std::move(input_makers);
  i.fixed_dtypes = std::move(fixed_dtypes);
  i.domain = domain;
  return i;
}

OpInfo view_op(const char* name, std::vector<OpSample> samples) {
  return info(name, std::move(samples));
}

void add_shape_ops(OpDb& db) {
  db.add(
      view_op("reshape",
              {sample({{2, 3, 4}}, {{"shape", L{4, -1}}}), sample({{}}, {{"shape", L{}}}),
               sample({{0, 3}}, {{"shape", L{3, -1}}}), sample({{6, 4}}, {{"shape", L{0, 2, -1}}}),
               sample({{200, 256}}, {{"shape", L{-1}}})}));
  db.add(view_op(
      "flatten",
      {sample({{2, 3, 4}}), sample({{2, 3, 4}}, {{"start_axis", I(1)}, {"stop_axis", I(2)}}),
       sample({{}}), sample({{0, 5}}), sample({{64, 32, 32}}, {{"start_axis", I(1)}})}));
  db.add(view_op("transpose", {sample({{2, 3, 4}}, {{"perm", L{2, 0, 1}}}),
                               sample({{}}, {{"perm", L{}}}), sample({{0, 3}}, {{"perm", L{1, 0}}}),
                               sample({{256, 200}}, {{"perm", L{1, 0}}})}));
  db.add(view_op("squeeze",
                 {sample({{1, 3, 1, 4}}), sample({{1, 3, 1}}, {{"axis", L{0}}}), sample({{}}),
                  sample({{2, 1}}, {{"axis", L{-1, 0}}}), sample({{1, 200, 256}})}));
  db.add(view_op("unsqueeze",
                 {sample({{3, 4}}, {{"axis", L{0, -1}}}), sample({{}}, {{"axis", L{0}}}),
                  sample({{0, 2}}, {{"axis", L{1}}}), sample({{200, 256}}, {{"axis", L{1}}})}));
  for (const char* op : {"expand", "broadcast_to"}) {
    db.add(view_op(op,
                   {sample({{3, 1}}, {{"shape", L{2, 3, 4}}}), sample({{}}, {{"shape", L{5}}}),
                    sample({{1, 4}}, {{"shape", L{-1, 4}}}), sample({{1, 0}}, {{"shape", L{3, 0}}}),
                    sample({{1, 256}}, {{"shape", L{200, 256}}})}));
  }
  db.add(view_op(
      "slice", {sample({{5, 6}}, {{"axes", L{0, 1}}, {"starts", L{1, -4}}, {"ends", L{4, 100}}}),
                sample({{4, 5}},
                       {{"axes", L{1}}, {"starts", L{2}}, {"ends", L{3}}, {"decrease_axis", L{1}}}),
                sample({{4, 5}}, {{"axes", L{0}}, {"starts", L{3}}, {"ends", L{1}}}),
                sample({{}}, {{"axes", L{}}, {"starts", L{}}, {"ends", L{}}}),
                sample({{256, 300}}, {{"axes", L{1}}, {"starts", L{10}}, {"ends", L{-10}}})}));
  db.add(view_op(
      "strided_slice",
      {sample({{7, 6}},
              {{"axes", L{0, 1}}, {"starts", L{0, 5}}, {"ends", L{7, -7}}, {"strides", L{2, -1}}}),
       sample({{8}}, {{"axes", L{0}}, {"starts", L{-1}}, {"ends", L{-9}}, {"strides", L{-3}}}),
       sample({{0, 4}}, {{"axes", L{1}}, {"starts", L{0}}, {"ends", L{4}}, {"strides", L{2}}}),
       sample({{}}, {{"axes", L{}}, {"starts", L{}}, {"ends", L{}}, {"strides", L{}}}),
       sample({{300, 300}},
              {{"axes", L{1}}, {"starts", L{299}}, {"ends", L{-301}}, {"strides", L{-2}}})}));
  db.add(view_op("diagonal",
                 {sample({{3, 4}}), sample({{3, 4}}, {{"offset", I(1)}}),
                  sample({{2, 3, 4}}, {{"offset", I(-1)}, {"axis1", I(2)}, {"axis2", I(1)}}),
                  sample({{0, 3}}), sample({{3, 4}}, {{"offset", I(7)}})}));
  db.add(view_op("split", {sample({{6, 4}}, {{"sections", L{2, -1, 1}}}),
                           sample({{3, 6}}, {{"sections", L{6, 0}}, {"axis", I(1)}}),
                           sample({{0, 4}}, {{"sections", L{0}}}),
                           sample({{300, 200}}, {{"sections", L{100, 200}}})}));
  db.add(view_op("split_with_num", {sample({{6, 4}}, {{"num", I(3)}}),
                                    sample({{4, 6}}, {{"num", I(2)}, {"axis", I(-1)}}),
                                    sample({{0, 4}}, {{"num", I(2)}, {"axis", I(1)}})}));
  db.add(view_op("chunk", {sample({{6, 4}}, {{"chunks", I(3)}}),
                           sample({{4, 6}}, {{"chunks", I(2)}, {"axis", I(-1)}})}));
  db.add(view_op("unbind", {sample({{3, 4}}), sample({{2, 3}}, {{"axis", I(1)}}),
                            sample({{0, 3}}, {{"axis", I(1)}})}));
}

void add_copy_ops(OpDb& db) {
  db.add(info(
      "concat",
      {list_sample({{2, 3}, {4, 3}}), list_sample({{2, 3}, {2, 0}, {2, 5}}, {{"axis", I(1)}}),
       list_sample({{0, 3}, {1, 3}}), list_sample({{5}}), list_sample({{200, 256}, {100, 256}})}));
  db.add(info("stack", {list_sample({{2, 3}, {2, 3}, {2, 3}}, {{"axis", I(1)}}),
                        list_sample({{}, {}}), list_sample({{0, 2}, {0, 2}}, {{"axis", I(-1)}}),
                        list_sample({{200, 128}, {200, 128}})}));
  db.add(info(
      "tile",
      {sample({{2, 3}}, {{"repeat_times", L{2, 2}}}), sample({{3}}, {{"repeat_times", L{2, 1, 2}}}),
       sample({{}}, {{"repeat_times", L{3}}}), sample({{0, 2}}, {{"repeat_times", L{2, 2}}}),
       sample({{2, 3}}), sample({{100, 100}}, {{"repeat_times", L{3, 2}}})}));
  db.add(info("flip", {sample({{3, 4}}, {{"axis", L{0}}}), sample({{2, 3, 4}}, {{"axis", L{0, 2}}}),
                       sample({{}}, {{"axis", L{}}}), sample({{0, 3}}, {{"axis", L{1}}}),
                       sample({{200, 256}}, {{"axis", L{-1}}})}));
  db.add(info(
      "roll",
      {sample({{3, 4}}, {{"shifts", L{1}}, {"axis", L{0}}}), sample({{3, 4}}, {{"shifts", L{-5}}}),
       sample({{2, 3, 4}}, {{"shifts", L{1, -2}}, {"axis", L{2, 1}}}),
       sample({{}}, {{"shifts", L{2}}}), sample({{0, 3}}, {{"shifts", L{1}}, {"axis", L{1}}}),
       sample({{200, 256}}, {{"shifts", L{7}}, {"axis", L{1}}})}));
  db.add(info("pad", {sample({{2, 3}}, {{"paddings", L{1, 2, 0, 1}}}),
                      sample({{2, 3, 4}}, {{"paddings", L{2, 1}}, {"mode", S("reflect")}}),
                      sample({{2, 3, 4}}, {{"paddings", L{1, 1, 2, 0}}, {"mode", S("replicate")}}),
                      sample({{3, 4}}, {{"paddings", L{1, 1, 2, 2}}, {"mode", S("circular")}}),
                      sample({{}}, {{"paddings", L{}}}),
                      sample({{0, 3}}, {{"paddings", L{1, 1, 1, 1}}, {"value", 2.5}}),
                      sample({{200, 200}}, {{"paddings", L{3, 3}}, {"mode", S("reflect")}})}));
  for (const char* op : {"tril", "triu"}) {
    db.add(info(op, {sample({{4, 5}}), sample({{2, 3, 4}}, {{"diagonal", I(1)}}),
                     sample({{3, 3}}, {{"diagonal", I(-1)}}), sample({{0, 3}}),
                     sample({{4, 200, 100}}, {{"diagonal", I(-20)}})}));
  }
  db.add(info("repeat_interleave", {sample({{2, 3}}, {{"repeats", I(2)}, {"axis", I(1)}}),
                                    sample({{}}, {{"repeats", I(3)}, {"axis", I(0)}}),
                                    sample({{3, 0}}, {{"repeats", I(2)}, {"axis", I(0)}}),
                                    sample({{100, 200}}, {{"repeats", I(2)}, {"axis", I(0)}})}));
  db.add(info("repeat_interleave_with_tensor_index",
              {sample({{3, 4}, {4}}, {{"axis", I(1)}}), sample({{5}, {1}}, {{"axis", I(0)}}),
               sample({{200, 200}, {200}}, {{"axis", I(0)}})},
              {{1, ints(0, 4)}}, {{1, DType::kInt64}}));
}

void add_gather_ops(OpDb& db) {
  db.add(info("gather",
              {sample({{5, 3}, {4}}), sample({{3, 5}, {}}, {{"axis", I(1)}}),
               sample({{4, 6}, {0}}, {{"axis", I(1)}}), sample({{400, 128}, {400}})},
              {{1, ints(0, 3)}}, {{1, DType::kInt64}}));
  db.add(
      info("gather_nd",
           {sample({{5, 4, 3}, {2, 2}}), sample({{5, 4, 3}, {3, 1}}), sample({{5, 4, 3}, {2, 3}}),
            sample({{5, 4}, {4, 0}}), sample({{300, 200}, {300, 1}})},
           {{1, ints(0, 3)}}, {{1, DType::kInt32}}));
  db.add(
      info("index_select",
           {sample({{5, 3}, {4}}), sample({{3, 5}, {6}}, {{"axis", I(-1)}}),
            sample({{4, 6}, {0}}, {{"axis", I(1)}}), sample({{128, 400}, {400}}, {{"axis", I(1)}})},
           {{1, ints(0, 3)}}, {{1, DType::kInt32}}));
  db.add(info(
      "take_along_axis",
      {sample({{3, 4}, {3, 2}}, {{"axis", I(1)}}), sample({{3, 4}, {1, 4}}, {{"axis", I(0)}}),
       sample({{2, 3, 4}, {2, 5, 1}}, {{"axis", I(1)}}), sample({{3, 4}, {3, 0}}, {{"axis", I(1)}}),
       sample({{200, 300}, {200, 300}}, {{"axis", I(1)}})},
      {{1, ints(-3, 3)}}, {{1, DType::kInt64}}));
}

void add_scatter_ops(OpDb& db) {
  db.add(info("scatter",
              {sample({{5, 3}, {3}, {3, 3}}), sample({{5, 3}, {4}, {4, 3}}, {{"overwrite", false}}),
               sample({{4, 3}, {}, {3}}), sample({{4, 0}, {2}, {2, 0}}),
               sample({{400, 128}, {300}, {300, 128}}, {{"overwrite", false}})},
              {{1, ints(0, 3)}}, {{1, DType::kInt64}}));
  db.add(info("scatter_nd_add",
              {sample({{5, 4}, {3, 1}, {3, 4}}), sample({{5, 4}, {6, 2}, {6}}),
               sample({{5, 4}, {2, 0}, {2, 5, 4}}), sample({{300, 200}, {250, 1}, {250, 200}})},
              {{1, ints(0, 3)}}, {{1, DType::kInt64}}));
  db.add(info("index_add",
              {sample({{5, 3}, {4}, {4, 3}}, {{"axis", I(0)}}),
               sample({{3, 5}, {6}, {3, 6}}, {{"axis", I(1)}}),
               sample({{3, 5}, {0}, {3, 0}}, {{"axis", I(-1)}}),
               sample({{200, 300}, {200}, {200, 200}}, {{"axis", I(1)}})},
              {{1, ints(0, 3)}}, {{1, DType::kInt64}}));
  db.add(
      info("put_along_axis",
           {sample({{3, 4}, {3, 2}, {3, 2}}, {{"axis", I(1)}}),
            sample({{3, 4}, {3, 2}, {1}}, {{"axis", I(1)}, {"reduce", S("add")}}),
            sample({{3, 4}, {2, 4}, {2, 4}}, {{"axis", I(0)}, {"reduce", S("mul")}}),
            sample({{3, 4}, {3, 3}, {3, 3}},
                   {{"axis", I(1)}, {"reduce", S("add")}, {"include_self", false}}),
            sample({{3, 4}, {3, 2}, {3, 2}},
                   {{"axis", I(1)}, {"reduce", S("mul")}, {"include_self", false}}),
            sample({{3, 4}, {3, 2}, {3, 2}}, {{"axis", I(1)}, {"reduce", S("mean")}}),
            sample({{3, 4}, {2, 4}, {1}},
                   {{"axis", I(0)}, {"reduce", S("mean")}, {"include_self", false}}),
            sample({{3, 4}, {3, 3}, {3, 3}}, {{"axis", I(1)}, {"reduce", S("amax")}}),
            sample({{3, 4}, {3, 2}, {3, 2}},
                   {{"axis", I(1)}, {"reduce", S("amax")}, {"include_self", false}}),
            sample({{4, 3}, {2, 3}, {2, 3}}, {{"axis", I(0)}, {"reduce", S("amin")}}),
            sample({{3, 4}, {3, 2}, {3, 2}},
                   {{"axis", I(1)}, {"reduce", S("amin")}, {"include_self", false}}),
            sample({{200, 300}, {200, 300}, {200, 300}}, {{"axis", I(1)}, {"reduce", S("add")}})},
           {{1, unique_along_axes()}}, {{1, DType::kInt64}}));
}

void add_mask_sort_ops(OpDb& db) {
  db.add(
      info("masked_fill",
           {sample({{3, 4}, {3, 4}}, {{"value", Scalar(2)}}),
            sample({{3, 4}, {4}}, {{"value", Scalar(-1.5)}}),
            sample({{4, 1}, {1, 5}}, {{"value", Scalar(true)}}),
            sample({{}, {}}, {{"value", Scalar(3)}}), sample({{0, 3}, {3}}, {{"value", Scalar(1)}}),
            sample({{200, 256}, {200, 256}}, {{"value", Scalar(0)}})},
           {}, {{1, DType::kBool}}));
  db.add(info("masked_select",
              {sample({{3, 4}, {3, 4}}), sample({{2, 3}, {3}}), sample({{}, {}}),
               sample({{0, 3}, {3}}), sample({{200, 400}, {200, 400}})},
              {}, {{1, DType::kBool}}));
  db.add(info("nonzero", {sample({{3, 4}}), sample({{}}), sample({{0, 3}}), sample({{200, 300}})},
              {}, {}, Domain::kSmallInt));
  db.add(info("topk",
              {sample({{3, 10}}, {{"k", I(3)}}), sample({{10}}, {{"k", I(10)}, {"largest", false}}),
               sample({{4, 5}}, {{"k", I(2)}, {"axis", I(0)}}), sample({{}}, {{"k", I(1)}}),
               sample({{3, 0}}, {{"k", I(0)}}), sample({{200, 300}}, {{"k", I(5)}})}));
  for (const char* op : {"sort", "argsort"}) {
    db.add(info(op, {sample({{3, 10}}), sample({{10}}, {{"descending", true}}),
                     sample({{4, 5}}, {{"axis", I(0)}}), sample({{}}), sample({{0, 4}}),
                     sample({{200, 300}}, {{"descending", true}})}));
  }
  db.add(info("unique",
              {sample({{20}}), sample({{6, 3}}, {{"axis", L{0}}}), sample({{}}), sample({{0}}),
               sample({{3, 8}}, {{"axis", L{1}}, {"dtype", DType::kInt32}}), sample({{200, 300}})},
              {}, {}, Domain::kSmallInt));
}

}  // namespace

void add_manipulation_op_infos(OpDb& db) {
  add_shape_ops(db);
  add_copy_ops(db);
  add_gather_ops(db);
  add_scatter_ops(db);
  add_mask_sort_ops(db);
}

}  // namespace skiff::testing
