#include "skiff/ops/kernels/cpu/onednn.h"

#include <cstring>
#include <list>
#include <memory>
#include <mutex>
#include <oneapi/dnnl/dnnl.hpp>
#include <unordered_map>
#include <vector>

#include "skiff/base/error.h"

namespace skiff::ops::cpu::onednn {

namespace {

using Key = std::vector<int64_t>;

struct KeyHash {
  size_t operator()(const Key& k) const {
    uint64_t h = 1469598103934665603ull;
    for (int64_t v : k) h = (h ^ static_cast<uint64_t>(v)) * 1099511628211ull;
    return static_cast<size_t>(h);
  }
};

int64_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

/// A created primitive and what executing it needs. `ok` is false when oneDNN has no
/// implementation (cached too, so unsupported configurations are not retried).
/// One argument of a convolution primitive: the caller's plain layout, the layout the primitive
/// chose, and the reorder between them when they differ (into the primitive for inputs, out of
/// it for outputs).
struct ConvArg {
  int arg = 0;  // DNNL_ARG_*
  bool output = false;
  dnnl::memory::desc user, prim;
  bool reorder = false;
  dnnl::primitive reorder_prim;
};

struct Entry {
  bool ok = false;
  dnnl::primitive prim;
  dnnl::memory::desc src, wei, dst, scratch;
  size_t scratch_bytes = 0;
  std::vector<ConvArg> conv_args;  // convolutions: source, weights, destination roles
};

/// Thread-safe LRU of primitives. Creation runs outside the lock; a racing duplicate is dropped.
class PrimitiveCache {
 public:
  explicit PrimitiveCache(size_t capacity) : capacity_(capacity) {}

  template <typename Make>
  std::shared_ptr<const Entry> get(const Key& key, const Make& make) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = map_.find(key);
      if (it != map_.end()) {
        order_.splice(order_.begin(), order_, it->second.second);
        return it->second.first;
      }
    }
    auto entry = std::make_shared<const Entry>(make());
    std::lock_guard<std::mutex> lock(mu_);
    auto it = map_.find(key);
    if (it != map_.end()) return it->second.first;
    order_.push_front(key);
    map_.emplace(key, std::make_pair(entry, order_.begin()));
    while (map_.size() > capacity_) {
      map_.erase(order_.back());
      order_.pop_back();
    }
    return entry;
  }

  int64_t size() {
    std::lock_guard<std::mutex> lock(mu_);
    return static_cast<int64_t>(map_.size());
  }

 private:
  size_t capacity_;
  std::mutex mu_;
  std::list<Key> order_;
  std::unordered_map<Key, std::pair<std::shared_ptr<const Entry>, std::list<Key>::iterator>,
                     KeyHash>
      map_;
};

PrimitiveCache& cache() {
  static PrimitiveCache c(1024);
  return c;
}

const dnnl::engine& engine() {
  static const dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

dnnl::stream& stream() {
  thread_local dnnl::stream s(engine());
  return s;
}

dnnl::memory::data_type dnnl_type(DType d) {
  return d == DType::kBFloat16 ? dnnl::memory::data_type::bf16 : dnnl::memory::data_type::f32;
}

// Strides oneDNN accepts for a [batch, rows, cols] operand: size-1 dims get dense strides.
// `flat`: a plain 2-D problem (batch 1), described in 2-D like a direct oneDNN user would.
dnnl::memory::desc operand_desc(bool flat, DType dtype, int64_t batch, int64_t rows, int64_t cols,
                                int64_t bs, int64_t rs, int64_t cs) {
  if (cols == 1) cs = rows == 1 ? 1 : (rs == 1 ? rows : 1);
  if (rows == 1) rs = cs == 1 ? cols : 1;
  if (rows == 1 && cols == 1) rs = cs = 1;
  if (batch == 1 || bs == 0) bs = rows * cols;
  if (flat) return dnnl::memory::desc({rows, cols}, dnnl_type(dtype), {rs, cs});
  return dnnl::memory::desc({batch, rows, cols}, dnnl_type(dtype), {bs, rs, cs});
}

// Runs a cached primitive with a scratchpad from Skiff's allocator.
void execute(const Entry& e, std::unordered_map<int, dnnl::memory> args) {
  DenseTensor scratch;
  if (e.scratch_bytes > 0) {
    scratch = DenseTensor::empty(Dims{static_cast<int64_t>(e.scratch_bytes)}, DType::kUInt8);
    args.emplace(DNNL_ARG_SCRATCHPAD, dnnl::memory(e.scratch, engine(), scratch.raw_data()));
  }
  e.prim.execute(stream(), args);
  stream().wait();
}

dnnl::primitive_attr base_attr() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

}  // namespace

bool gemm(DType dtype, int64_t batch, int64_t m, int64_t n, int64_t k, const Operand& a,
          const Operand& b, void* c, float alpha, float beta) {
  const int64_t ab = a.batch_stride == 0 ? 1 : batch, bb = b.batch_stride == 0 ? 1 : batch;
  const bool flat = batch == 1;
  const auto src = operand_desc(flat, dtype, ab, m, k, a.batch_stride, a.row_stride, a.col_stride);
  const auto wei = operand_desc(flat, dtype, bb, k, n, b.batch_stride, b.row_stride, b.col_stride);
  // Key: everything the primitive depends on (the data pointers are execution arguments).
  Key key{0,
          static_cast<int64_t>(dtype),
          batch,
          m,
          n,
          k,
          ab,
          bb,
          src.data.format_desc.blocking.strides[0],
          src.data.format_desc.blocking.strides[1],
          flat ? -1 : src.data.format_desc.blocking.strides[2],
          wei.data.format_desc.blocking.strides[0],
          wei.data.format_desc.blocking.strides[1],
          flat ? -1 : wei.data.format_desc.blocking.strides[2],
          float_bits(alpha),
          float_bits(beta)};
  auto entry = cache().get(key, [&] {
    Entry e;
    const dnnl::memory::desc dst =
        flat ? dnnl::memory::desc({m, n}, dnnl_type(dtype), {n, 1})
             : dnnl::memory::desc({batch, m, n}, dnnl_type(dtype), {m * n, n, 1});
    dnnl::primitive_attr attr = base_attr();
    if (alpha != 1.0f) attr.set_output_scales(0, {alpha});
    if (beta != 0.0f) {
      dnnl::post_ops po;
      po.append_sum(beta);
      attr.set_post_ops(po);
    }
    try {
      const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(src, wei, dst), attr, engine());
      e.prim = dnnl::matmul(pd);
      e.src = src;
      e.wei = wei;
      e.dst = dst;
      e.scratch = pd.scratchpad_desc();
      e.scratch_bytes = e.scratch.get_size();
      e.ok = true;
    } catch (const dnnl::error&) {
      e.ok = false;  // no implementation for this dtype/CPU
    }
    return e;
  });
  if (!entry->ok) return false;
  execute(*entry,
          {{DNNL_ARG_SRC, dnnl::memory(entry->src, engine(), const_cast<void*>(a.data))},
           {DNNL_ARG_WEIGHTS, dnnl::memory(entry->wei, engine(), const_cast<void*>(b.data))},
           {DNNL_ARG_DST, dnnl::memory(entry->dst, engine(), c)}});
  return true;
}

bool gemm_s8(int64_t m, int64_t n, int64_t k, const int8_t* a, const int8_t* b, int32_t* c) {
  using dt = dnnl::memory::data_type;
  const Key key{-1, m, n, k};  // float GEMM keys start with 0, convolutions with their kind
  auto entry = cache().get(key, [&] {
    Entry e;
    e.src = dnnl::memory::desc({m, k}, dt::s8, {k, 1});
    e.wei = dnnl::memory::desc({k, n}, dt::s8, {1, k});  // b's rows are the columns
    e.dst = dnnl::memory::desc({m, n}, dt::s32, {n, 1});
    try {
      const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(e.src, e.wei, e.dst), base_attr(),
                                            engine());
      e.prim = dnnl::matmul(pd);
      e.scratch = pd.scratchpad_desc();
      e.scratch_bytes = e.scratch.get_size();
      e.ok = true;
    } catch (const dnnl::error&) {
      e.ok = false;
    }
    return e;
  });
  if (!entry->ok) return false;
  execute(*entry, {{DNNL_ARG_SRC, dnnl::memory(entry->src, engine(), const_cast<int8_t*>(a))},
                   {DNNL_ARG_WEIGHTS, dnnl::memory(entry->wei, engine(), const_cast<int8_t*>(b))},
                   {DNNL_ARG_DST, dnnl::memory(entry->dst, engine(), c)}});
  return true;
}

namespace {

ConvArg conv_arg(int arg, bool output, const dnnl::memory::desc& user,
                 const dnnl::memory::desc& prim) {
  ConvArg a;
  a.arg = arg;
  a.output = output;
  a.user = user;
  a.prim = prim;
  if (user != prim) {
    a.reorder = true;
    a.reorder_prim =
        output ? dnnl::reorder(dnnl::reorder::primitive_desc(engine(), prim, engine(), user))
               : dnnl::reorder(dnnl::reorder::primitive_desc(engine(), user, engine(), prim));
  }
  return a;
}

// Runs a convolution entry on the caller's buffers (ordered like e.conv_args): inputs are
// reordered into the primitive's layouts first, outputs out of them after.
void execute_conv(const Entry& e, const std::vector<void*>& data) {
  std::unordered_map<int, dnnl::memory> args;
  std::vector<DenseTensor> blocked;
  blocked.reserve(e.conv_args.size());
  for (size_t i = 0; i < e.conv_args.size(); ++i) {
    const ConvArg& a = e.conv_args[i];
    dnnl::memory user(a.user, engine(), data[i]);
    if (!a.reorder) {
      args.emplace(a.arg, user);
      continue;
    }
    blocked.push_back(
        DenseTensor::empty(Dims{static_cast<int64_t>(a.prim.get_size())}, DType::kUInt8));
    dnnl::memory mem(a.prim, engine(), blocked.back().raw_data());
    if (!a.output) a.reorder_prim.execute(stream(), {{DNNL_ARG_FROM, user}, {DNNL_ARG_TO, mem}});
    args.emplace(a.arg, mem);
  }
  execute(e, args);
  for (size_t i = 0; i < e.conv_args.size(); ++i) {
    const ConvArg& a = e.conv_args[i];
    if (!a.output || !a.reorder) continue;
    a.reorder_prim.execute(stream(), {{DNNL_ARG_FROM, args.at(a.arg)},
                                      {DNNL_ARG_TO, dnnl::memory(a.user, engine(), data[i])}});
  }
  stream().wait();
}

enum ConvKind : int64_t { kConvForward = 1, kConvBackwardData = 2, kConvBackwardWeights = 3 };

// Forward and both backward convolutions. The primitives see `any` layouts, so oneDNN picks its
// blocked direct (JIT) implementations; with the plain layouts as given it falls back to
// im2col + GEMM, about 2-3x slower on ResNet shapes. NHWC activations stay as they are (the
// direct kernels read them); NCHW ones are reordered in and out per call, as PyTorch's oneDNN
// path does.
std::shared_ptr<const Entry> conv2d_entry(ConvKind kind, DType dtype, const meta::Window2d& g) {
  using tag = dnnl::memory::format_tag;
  const auto dt = dnnl_type(dtype);
  const int64_t G = g.groups;
  Key key{kind,       static_cast<int64_t>(dtype),
          g.nhwc,     g.n,
          g.c,        g.h,
          g.w,        g.oc,
          g.kh,       g.kw,
          g.oh,       g.ow,
          g.stride_h, g.stride_w,
          g.dil_h,    g.dil_w,
          g.pad_top,  g.pad_bottom,
          g.pad_left, g.pad_right,
          G};
  return cache().get(key, [&] {
    Entry e;
    const tag layout = g.nhwc ? tag::nhwc : tag::nchw;
    const dnnl::memory::desc src({g.n, g.c, g.h, g.w}, dt, layout);
    const dnnl::memory::desc dst({g.n, g.oc, g.oh, g.ow}, dt, layout);
    const dnnl::memory::desc wei =
        G == 1 ? dnnl::memory::desc({g.oc, g.c, g.kh, g.kw}, dt, tag::oihw)
               : dnnl::memory::desc({G, g.oc / G, g.c / G, g.kh, g.kw}, dt, tag::goihw);
    const tag act_any = g.nhwc ? layout : tag::any;
    const dnnl::memory::desc any_src(src.dims(), dt, act_any), any_dst(dst.dims(), dt, act_any),
        any_wei(wei.dims(), dt, tag::any);
    const dnnl::memory::dims strides{g.stride_h, g.stride_w}, dil{g.dil_h - 1, g.dil_w - 1},
        pad_l{g.pad_top, g.pad_left}, pad_r{g.pad_bottom, g.pad_right};
    try {
      const dnnl::convolution_forward::primitive_desc fwd(
          dnnl::convolution_forward::desc(dnnl::prop_kind::forward_training,
                                          dnnl::algorithm::convolution_direct, any_src, any_wei,
                                          any_dst, strides, dil, pad_l, pad_r),
          base_attr(), engine());
      if (kind == kConvForward) {
        e.prim = dnnl::convolution_forward(fwd);
        e.scratch = fwd.scratchpad_desc();
        e.conv_args = {conv_arg(DNNL_ARG_SRC, false, src, fwd.src_desc()),
                       conv_arg(DNNL_ARG_WEIGHTS, false, wei, fwd.weights_desc()),
                       conv_arg(DNNL_ARG_DST, true, dst, fwd.dst_desc())};
      } else if (kind == kConvBackwardData) {
        const dnnl::convolution_backward_data::primitive_desc pd(
            dnnl::convolution_backward_data::desc(dnnl::algorithm::convolution_direct, any_src,
                                                  any_wei, any_dst, strides, dil, pad_l, pad_r),
            base_attr(), engine(), fwd);
        e.prim = dnnl::convolution_backward_data(pd);
        e.scratch = pd.scratchpad_desc();
        e.conv_args = {conv_arg(DNNL_ARG_DIFF_SRC, true, src, pd.diff_src_desc()),
                       conv_arg(DNNL_ARG_WEIGHTS, false, wei, pd.weights_desc()),
                       conv_arg(DNNL_ARG_DIFF_DST, false, dst, pd.diff_dst_desc())};
      } else {
        const dnnl::convolution_backward_weights::primitive_desc pd(
            dnnl::convolution_backward_weights::desc(dnnl::algorithm::convolution_direct, any_src,
                                                     any_wei, any_dst, strides, dil, pad_l, pad_r),
            base_attr(), engine(), fwd);
        e.prim = dnnl::convolution_backward_weights(pd);
        e.scratch = pd.scratchpad_desc();
        e.conv_args = {conv_arg(DNNL_ARG_SRC, false, src, pd.src_desc()),
                       conv_arg(DNNL_ARG_DIFF_WEIGHTS, true, wei, pd.diff_weights_desc()),
                       conv_arg(DNNL_ARG_DIFF_DST, false, dst, pd.diff_dst_desc())};
      }
      e.scratch_bytes = e.scratch.get_size();
      e.ok = true;
    } catch (const dnnl::error&) {
      e.ok = false;  // no implementation for this dtype/CPU
    }
    return e;
  });
}

}  // namespace

bool conv2d(DType dtype, const meta::Window2d& g, const DenseTensor& input,
            const DenseTensor& filter, DenseTensor& out) {
  auto entry = conv2d_entry(kConvForward, dtype, g);
  if (!entry->ok) return false;
  execute_conv(*entry, {input.raw_data(), filter.raw_data(), out.raw_data()});
  return true;
}

bool conv2d_backward_data(DType dtype, const meta::Window2d& g, const DenseTensor& grad_out,
                          const DenseTensor& filter, DenseTensor& grad_input) {
  auto entry = conv2d_entry(kConvBackwardData, dtype, g);
  if (!entry->ok) return false;
  execute_conv(*entry, {grad_input.raw_data(), filter.raw_data(), grad_out.raw_data()});
  return true;
}

bool conv2d_backward_weights(DType dtype, const meta::Window2d& g, const DenseTensor& input,
                             const DenseTensor& grad_out, DenseTensor& grad_filter) {
  auto entry = conv2d_entry(kConvBackwardWeights, dtype, g);
  if (!entry->ok) return false;
  execute_conv(*entry, {input.raw_data(), grad_filter.raw_data(), grad_out.raw_data()});
  return true;
}

int64_t cached_primitives() { return cache().size(); }

}  // namespace skiff::ops::cpu::onednn
