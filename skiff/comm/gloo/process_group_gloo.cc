#include "skiff/comm/gloo/process_group_gloo.h"

#include <gloo/allgather.h>
#include <gloo/allreduce.h>
#include <gloo/alltoall.h>
#include <gloo/alltoallv.h>
#include <gloo/barrier.h>
#include <gloo/broadcast.h>
#include <gloo/gather.h>
#include <gloo/reduce.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/store.h>
#include <gloo/scatter.h>
#include <gloo/transport/tcp/device.h>
#include <gloo/transport/unbound_buffer.h>

#include <cstring>
#include <map>

#include "skiff/base/error.h"
#include "skiff/comm/gloo/reduce_functions.h"

namespace skiff::comm {

namespace {

using Clock = std::chrono::steady_clock;

// Gloo's rendezvous reads and writes peers' addresses through this view of our Store.
class GlooStore : public gloo::rendezvous::Store {
 public:
  explicit GlooStore(std::shared_ptr<comm::Store> store) : store_(std::move(store)) {}
  void set(const std::string& key, const std::vector<char>& data) override {
    store_->set(key, std::vector<uint8_t>(data.begin(), data.end()));
  }
  std::vector<char> get(const std::string& key) override {
    auto v = store_->get(key);
    return {v.begin(), v.end()};
  }
  void wait(const std::vector<std::string>& keys) override { store_->wait(keys); }
  void wait(const std::vector<std::string>& keys, const std::chrono::milliseconds& t) override {
    store_->wait(keys, t);
  }

 private:
  std::shared_ptr<comm::Store> store_;
};

// One transport device per address, shared by every group of the process.
std::shared_ptr<gloo::transport::Device> device_for(const std::string& hostname) {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<gloo::transport::Device>> devices;
  std::lock_guard<std::mutex> lock(mu);
  auto& dev = devices[hostname];
  if (!dev) {
    gloo::transport::tcp::attr attr;
    attr.hostname = hostname;
    dev = gloo::transport::tcp::CreateDevice(attr);
  }
  return dev;
}

std::string list(const std::vector<int>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string seconds(Millis ms) { return str(static_cast<double>(ms.count()) / 1000.0, " s"); }

// A contiguous buffer for `t`: t itself, or a copy written back by `finish()`.
struct Contig {
  DenseTensor target, buf;
  explicit Contig(DenseTensor t) : target(std::move(t)) {
    buf = target.is_contiguous() ? target : target.contiguous();
  }
  void* data() const { return buf.raw_data(); }
  void finish() {
    if (buf.storage() != target.storage() || buf.offset() != target.offset()) {
      target.copy_from(buf);
    }
    target.storage()->bump_version();
  }
};

// Gloo's typed setters only need the element size; pick a type of that size.
template <typename Fn>
void with_element(DType dtype, Fn&& fn) {
  switch (dtype_size(dtype)) {
    case 1:
      return fn(uint8_t{});
    case 2:
      return fn(uint16_t{});
    case 4:
      return fn(uint32_t{});
    case 8:
      return fn(uint64_t{});
    default:
      SKIFF_THROW(kTypeError, "ProcessGroupGloo", "dtype", "a 1, 2, 4 or 8 byte dtype",
                  dtype_name(dtype));
  }
}

void check_cpu(const DenseTensor& t, const char* op, const char* arg) {
  SKIFF_ENFORCE(t.defined(), kInvalidArgument, op, arg, "a defined tensor", "an empty handle");
  SKIFF_ENFORCE(t.place().is_cpu(), kInvalidArgument, op, arg,
                "a CPU tensor (the gloo backend communicates host memory)", str(t.place()));
}

}  // namespace

const char* reduce_op_name(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum:
      return "SUM";
    case ReduceOp::kAvg:
      return "AVG";
    case ReduceOp::kMax:
      return "MAX";
    case ReduceOp::kMin:
      return "MIN";
    case ReduceOp::kProd:
      return "PROD";
  }
  return "?";
}

bool Task::is_completed() {
  std::lock_guard<std::mutex> lock(mu_);
  return done_;
}

void Task::set_waiter(std::function<void()> waiter) {
  std::lock_guard<std::mutex> lock(mu_);
  waiter_ = std::move(waiter);
}

void Task::wait() {
  std::function<void()> waiter;
  {
    std::lock_guard<std::mutex> lock(mu_);
    waiter.swap(waiter_);
  }
  if (waiter) {
    std::exception_ptr error;
    try {
      waiter();
    } catch (...) {
      error = std::current_exception();
    }
    finish(error);
  }
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return done_; });
  if (error_) std::rethrow_exception(error_);
}

void Task::finish(std::exception_ptr error) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    done_ = true;
    error_ = std::move(error);
  }
  cv_.notify_all();
}

ProcessGroupGloo::ProcessGroupGloo(std::shared_ptr<Store> store, int rank, std::vector<int> ranks,
                                   int gid, std::string name, GlooOptions options)
    : ProcessGroup(std::move(name), rank, std::move(ranks)),
      global_store_(store),
      store_(std::make_shared<PrefixStore>(str("pg/", gid), store)),
      gid_(gid),
      options_(std::move(options)) {
  SKIFF_ENFORCE(rank >= 0 && rank < size(), kInvalidArgument, "ProcessGroupGloo", "rank",
                str("0 <= rank < ", size()), rank);
  SKIFF_ENFORCE(options_.timeout.count() > 0, kInvalidArgument, "ProcessGroupGloo", "timeout",
                "a positive timeout", seconds(options_.timeout));
  sent_.assign(size(), 0);
  received_.assign(size(), 0);
  auto ctx = std::make_shared<gloo::rendezvous::Context>(rank, size());
  ctx->setTimeout(options_.timeout);
  GlooStore gstore(store_);
  auto dev = device_for(options_.hostname);
  try {
    ctx->connectFullMesh(gstore, dev);
  } catch (const skiff::Error&) {
    throw;
  } catch (const std::exception& e) {
    SKIFF_THROW(kPrecondition, describe(), "", "every rank connected", e.what());
  }
  // connectFullMesh can return on one rank while a peer still finishes its side of a pair; a
  // rank that then closed its context at once broke the peer's handshake ("connection closed by
  // peer"). No rank leaves the constructor before every rank is connected.
  if (store_->add("connected", 1) >= size()) store_->set("all_connected", {1});
  store_->wait({"all_connected"}, options_.timeout);
  context_ = ctx;
  worker_ = std::thread([this] { worker_loop(); });
  watchdog_ = std::thread([this] { watchdog_loop(); });
}

ProcessGroupGloo::~ProcessGroupGloo() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  worker_.join();
  watchdog_.join();
}

std::string ProcessGroupGloo::describe() const {
  return str("ProcessGroupGloo(group '", name_, "', ranks ", list(ranks_), ", rank ", ranks_[rank_],
             ")");
}

std::shared_ptr<Task> ProcessGroupGloo::enqueue(std::string op, std::function<void(uint32_t)> fn,
                                                bool sync_op) {
  auto task = std::make_shared<Task>(op);
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(Work{std::move(op), seq_++, std::move(fn), task});
  }
  cv_.notify_all();
  if (sync_op) task->wait();
  return task;
}

void ProcessGroupGloo::worker_loop() {
  while (true) {
    Work w;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;
      w = std::move(queue_.front());
      queue_.pop_front();
    }
    if (auto broken = broken_) {
      w.task->finish(broken);
      continue;
    }
    running_since_ns_ = Clock::now().time_since_epoch().count();
    running_seq_ = w.seq;
    std::exception_ptr error;
    try {
      w.fn(static_cast<uint32_t>(w.seq));
    } catch (const skiff::Error&) {
      error = std::current_exception();
    } catch (const std::exception& e) {
      error = diagnose(w.op, w.seq, e.what(), -1);
      std::lock_guard<std::mutex> lock(mu_);
      broken_ = error;
    }
    running_seq_ = -1;
    w.task->finish(error);
  }
}

// Posts this rank's marker once an op has run longer than a tenth of the timeout (at most
// half a second): see Note [Naming the missing ranks].
void ProcessGroupGloo::watchdog_loop() {
  const auto threshold = std::min<Millis>(options_.timeout / 10, Millis(500));
  const auto period = std::max<Millis>(std::min<Millis>(threshold / 2, Millis(100)), Millis(5));
  while (true) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      if (cv_.wait_for(lock, period, [this] { return stop_; })) return;
    }
    int64_t seq = running_seq_;
    if (seq < 0 || seq == posted_seq_) continue;
    auto since = Clock::time_point(Clock::duration(running_since_ns_.load()));
    if (Clock::now() - since < threshold) continue;
    try {
      // One string: iterators taken from two temporaries would span unrelated memory.
      const std::string s = std::to_string(seq);
      store_->set(str("at/", rank_), std::vector<uint8_t>(s.begin(), s.end()));
      posted_seq_ = seq;
    } catch (const std::exception&) {
      posted_seq_ = seq;  // the store is gone; the failing op will say so
    }
  }
}

std::exception_ptr ProcessGroupGloo::diagnose(const std::string& op, int64_t seq,
                                              const std::string& what, int peer) {
  std::vector<int> exited, missing;
  std::string store_note;
  try {
    std::string s = std::to_string(seq);
    if (peer < 0) {
      store_->set(str("at/", rank_), std::vector<uint8_t>(s.begin(), s.end()));
      const auto threshold = std::min<Millis>(options_.timeout / 10, Millis(500));
      std::this_thread::sleep_for(threshold + Millis(150));
    }
    for (int r = 0; r < size(); ++r) {
      if (r == rank_ || (peer >= 0 && r != peer)) continue;
      int g = ranks_[r];
      if (global_store_->check({str("__exited__/", g)})) {
        exited.push_back(g);
        missing.push_back(g);
        continue;
      }
      bool arrived = peer >= 0;
      if (peer < 0 && store_->check({str("at/", r)})) {
        auto v = store_->get(str("at/", r));
        arrived = std::stoll(std::string(v.begin(), v.end())) >= seq;
      }
      if (!arrived) missing.push_back(g);
    }
  } catch (const std::exception& e) {
    store_note =
        str("; the store is unreachable too, so the rank hosting it (rank 0) is likely "
            "dead (",
            e.what(), ")");
  }
  std::string got;
  if (!missing.empty()) {
    got = str("missing ranks ", list(missing));
    if (!exited.empty()) got += str(" (exited: ", list(exited), ")");
  } else if (store_note.empty()) {
    got = "no rank identified as missing";
  } else {
    got = "missing ranks unknown";
  }
  got += str("; gloo: ", what, store_note);
  try {
    SKIFF_THROW(kPrecondition, str(describe(), " ", op, seq >= 0 ? str(" #", seq) : ""), "",
                str("every rank of the group to join within ", seconds(options_.timeout)), got);
  } catch (...) {
    return std::current_exception();
  }
}

std::shared_ptr<Task> ProcessGroupGloo::all_reduce(DenseTensor tensor, ReduceOp op, bool sync_op) {
  check_cpu(tensor, "all_reduce", "tensor");
  auto c = std::make_shared<Contig>(tensor);
  auto fn = reduce_function(tensor.dtype(), op);
  return enqueue(
      "all_reduce",
      [this, c, fn, op](uint32_t tag) {
        size_t n = static_cast<size_t>(c->buf.numel());
        if (n > 0 && size() > 1) {
          gloo::AllreduceOptions opts(context_);
          with_element(c->buf.dtype(),
                       [&](auto v) { opts.setOutput(static_cast<decltype(v)*>(c->data()), n); });
          opts.setReduceFunction(fn);
          opts.setTag(tag);
          opts.setTimeout(options_.timeout);
          gloo::allreduce(opts);
        }
        if (op == ReduceOp::kAvg) divide_elements(c->data(), c->buf.dtype(), n, size());
        c->finish();
      },
      sync_op);
}

std::shared_ptr<Task> ProcessGroupGloo::all_gather(DenseTensor out, DenseTensor in, bool sync_op) {
  check_cpu(out, "all_gather", "out");
  check_cpu(in, "all_gather", "tensor");
  SKIFF_ENFORCE(out.dtype() == in.dtype(), kTypeError, "all_gather", "tensor_list",
                str("dtype ", dtype_name(in.dtype()), " (the input's)"), dtype_name(out.dtype()));
  SKIFF_ENFORCE(out.numel() == in.numel() * size(), kInvalidArgument, "all_gather", "out",
                str(size(), " x ", in.numel(), " elements"), out.numel());
  auto c = std::make_shared<Contig>(out);
  DenseTensor src = in.contiguous();
  return enqueue(
      "all_gather",
      [this, c, src](uint32_t tag) {
        size_t n = static_cast<size_t>(src.numel());
        if (n > 0) {
          gloo::AllgatherOptions opts(context_);
          with_element(src.dtype(), [&](auto v) {
            using T = decltype(v);
            opts.setInput(static_cast<T*>(src.raw_data()), n);
            opts.setOutput(static_cast<T*>(c->data()), n * size());
          });
          opts.setTag(tag);
          opts.setTimeout(options_.timeout);
          gloo::allgather(opts);
        }
        c->finish();
      },
      sync_op);
}

std::shared_ptr<Task> ProcessGroupGloo::reduce_scatter(DenseTensor out, DenseTensor in, ReduceOp op,
                                                       bool sync_op) {
  check_cpu(out, "reduce_scatter", "tensor");
  check_cpu(in, "reduce_scatter", "tensor_list");
  SKIFF_ENFORCE(out.dtype() == in.dtype(), kTypeError, "reduce_scatter", "tensor_list",
                str("dtype ", dtype_name(out.dtype()), " (the output's)"), dtype_name(in.dtype()));
  SKIFF_ENFORCE(in.numel() == out.numel() * size(), kInvalidArgument, "reduce_scatter",
                "tensor_list", str(size(), " x ", out.numel(), " elements"), in.numel());
  auto c = std::make_shared<Contig>(out);
  DenseTensor src = in.contiguous();
  DenseTensor scratch = DenseTensor::empty(in.dims(), in.dtype());
  auto fn = reduce_function(in.dtype(), op);
  return enqueue(
      "reduce_scatter",
      [this, c, src, scratch, fn, op](uint32_t tag) {
        size_t n = static_cast<size_t>(c->buf.numel());
        size_t bytes = n * static_cast<size_t>(src.itemsize());
        if (n == 0) return c->finish();
        // Chunk r of every rank arrives here as row r of scratch; then reduce the rows.
        if (size() > 1) {
          gloo::AlltoallOptions opts(context_);
          with_element(src.dtype(), [&](auto v) {
            using T = decltype(v);
            opts.setInput(static_cast<T*>(src.raw_data()), n * size());
            opts.setOutput(static_cast<T*>(scratch.raw_data()), n * size());
          });
          opts.setTag(tag);
          opts.setTimeout(options_.timeout);
          gloo::alltoall(opts);
        } else {
          std::memcpy(scratch.raw_data(), src.raw_data(), bytes);
        }
        auto* rows = static_cast<char*>(scratch.raw_data());
        std::memcpy(c->data(), rows, bytes);
        for (int r = 1; r < size(); ++r) fn(c->data(), c->data(), rows + r * bytes, n);
        if (op == ReduceOp::kAvg) divide_elements(c->data(), c->buf.dtype(), n, size());
        c->finish();
      },
      sync_op);
}

std::shared_ptr<Task> ProcessGroupGloo::broadcast(DenseTensor tensor, int root, bool sync_op) {
  check_cpu(tensor, "broadcast", "tensor");
  SKIFF_ENFORCE(root >= 0 && root < size(), kInvalidArgument, "broadcast", "src",
                str("a rank of the group ", list(ranks_)), root);
  auto c = std::make_shared<Contig>(tensor);
  return enqueue(
      "broadcast",
      [this, c, root](uint32_t tag) {
        size_t n = static_cast<size_t>(c->buf.numel());
        if (n > 0 && size() > 1) {
          gloo::BroadcastOptions opts(context_);
          with_element(c->buf.dtype(),
                       [&](auto v) { opts.setOutput(static_cast<decltype(v)*>(c->data()), n); });
          opts.setRoot(root);
          opts.setTag(tag);
          opts.setTimeout(options_.timeout);
          gloo::broadcast(opts);
        }
        if (rank_ != root) c->finish();
      },
      sync_op);
}

std::shared_ptr<Task> ProcessGroupGloo::reduce(DenseTensor tensor, int root, ReduceOp op,
                                               bool sync_op) {
  check_cpu(tensor, "reduce", "tensor");
  SKIFF_ENFORCE(root >= 0 && root < size(), kInvalidArgument, "reduce", "dst",
                str("a rank of the group ", list(ranks_)), root);
  auto c = std::make_shared<Contig>(tensor);
  DenseTensor src = tensor.contiguous();
  if (src.storage() == tensor.storage()) src = tensor.copy_to(tensor.place());
  DenseTensor scratch = DenseTensor::empty(tensor.dims(), tensor.dtype());
  auto fn = reduce_function(tensor.dtype(), op);
  return enqueue(
      "reduce",
      [this, c, src, scratch, fn, op, root](uint32_t tag) {
        size_t n = static_cast<size_t>(src.numel());
        // Gloo may use the output as scratch on every rank: only root's lands in the tensor.
        void* out = rank_ == root ? c->data() : scratch.raw_data();
        if (n > 0 && size() > 1) {
          gloo::ReduceOptions opts(context_);
          with_element(src.dtype(), [&](auto v) {
            using T = decltype(v);
            opts.setInput(static_cast<T*>(src.raw_data()), n);
            opts.setOutput(static_cast<T*>(out), n);
          });
          opts.setRoot(root);
          opts.setReduceFunction(fn);
          opts.setTag(tag);
          opts.setTimeout(options_.timeout);
          gloo::reduce(opts);
        } else if (n > 0) {
          std::memcpy(out, src.raw_data(), n * src.itemsize());
        }
        if (rank_ == root) {
          if (op == ReduceOp::kAvg) divide_elements(c->data(), c->buf.dtype(), n, size());
          c->finish();
        }
      },
      sync_op);
}

std::shared_ptr<Task> ProcessGroupGloo::scatter(DenseTensor out, DenseTensor in, int root,
                                                bool sync_op) {
  check_cpu(out, "scatter", "tensor");
  SKIFF_ENFORCE(root >= 0 && root < size(), kInvalidArgument, "scatter", "src",
                str("a rank of the group ", list(ranks_)), root);
  DenseTensor src;
  if (rank_ == root) {
    check_cpu(in, "scatter", "tensor_list");
    SKIFF_ENFORCE(in.dtype() == out.dtype(), kTypeError, "scatter", "tensor_list",
                  str("dtype ", dtype_name(out.dtype())), dtype_name(in.dtype()));
    SKIFF_ENFORCE(in.numel() == out.numel() * size(), kInvalidArgument, "scatter", "tensor_list",
                  str(size(), " x ", out.numel(), " elements"), in.numel());
    src = in.contiguous();
  }
  auto c = std::make_shared<Contig>(out);
  return enqueue(
      "scatter",
      [this, c, src, root](uint32_t tag) {
        size_t n = static_cast<size_t>(c->buf.numel());
        if (n > 0) {
          gloo::ScatterOptions opts(context_);
          with_element(c->buf.dtype(), [&](auto v) {
            using T = decltype(v);
            if (rank_ == root) {
              std::vector<T*> ptrs;
              for (int r = 0; r < size(); ++r)
                ptrs.push_back(static_cast<T*>(src.raw_data()) + r * n);
              opts.setInputs(ptrs, n);
            }
            opts.setOutput(static_cast<T*>(c->data()), n);
          });
          opts.setRoot(root);
          opts.setTag(tag);
          opts.setTimeout(options_.timeout);
          gloo::scatter(opts);
        }
        c->finish();
      },
      sync_op);
}

std::shared_ptr<Task> ProcessGroupGloo::gather(DenseTensor out, DenseTensor in, int root,
                                               bool sync_op) {
  check_cpu(in, "gather", "tensor");
  SKIFF_ENFORCE(root >= 0 && root < size(), kInvalidArgument, "gather", "dst",
                str("a rank of the group ", list(ranks_)), root);
  std::shared_ptr<Contig> c;
  if (rank_ == root) {
    check_cpu(out, "gather", "gather_list");
    SKIFF_ENFORCE(in.dtype() == out.dtype(), kTypeError, "gather", "gather_list",
                  str("dtype ", dtype_name(in.dtype())), dtype_name(out.dtype()));
    SKIFF_ENFORCE(out.numel() == in.numel() * size(), kInvalidArgument, "gather", "gather_list",
                  str(size(), " x ", in.numel(), " elements"), out.numel());
    c = std::make_shared<Contig>(out);
  }
  DenseTensor src = in.contiguous();
  return enqueue(
      "gather",
      [this, c, src, root](uint32_t tag) {
        size_t n = static_cast<size_t>(src.numel());
        if (n > 0) {
          gloo::GatherOptions opts(context_);
          with_element(src.dtype(), [&](auto v) {
            using T = decltype(v);
            opts.setInput(static_cast<T*>(src.raw_data()), n);
            if (c) opts.setOutput(static_cast<T*>(c->data()), n * size());
          });
          opts.setRoot(root);
          opts.setTag(tag);
          opts.setTimeout(options_.timeout);
          gloo::gather(opts);
        }
        if (c) c->finish();
      },
      sync_op);
}

std::shared_ptr<Task> ProcessGroupGloo::all_to_all(DenseTensor out, DenseTensor in,
                                                   std::vector<int64_t> out_counts,
                                                   std::vector<int64_t> in_counts, bool sync_op) {
  check_cpu(out, "alltoall", "out_tensor");
  check_cpu(in, "alltoall", "in_tensor");
  SKIFF_ENFORCE(out.dtype() == in.dtype(), kTypeError, "alltoall", "out_tensor",
                str("dtype ", dtype_name(in.dtype())), dtype_name(out.dtype()));
  bool equal = out_counts.empty() && in_counts.empty();
  if (equal) {
    SKIFF_ENFORCE(in.numel() % size() == 0 && out.numel() == in.numel(), kInvalidArgument,
                  "alltoall", "in_tensor",
                  str("the same element count in and out, divisible by ", size()),
                  str(in.numel(), " in, ", out.numel(), " out"));
  } else {
    auto total = [](const std::vector<int64_t>& v) {
      int64_t s = 0;
      for (auto x : v) s += x;
      return s;
    };
    SKIFF_ENFORCE(static_cast<int>(out_counts.size()) == size() &&
                      static_cast<int>(in_counts.size()) == size(),
                  kInvalidArgument, "alltoall", "split sizes", str(size(), " entries each"),
                  str(in_counts.size(), " in, ", out_counts.size(), " out"));
    SKIFF_ENFORCE(total(in_counts) == in.numel() && total(out_counts) == out.numel(),
                  kInvalidArgument, "alltoall", "split sizes", "counts that add up to the tensors",
                  str(total(in_counts), "/", in.numel(), " in, ", total(out_counts), "/",
                      out.numel(), " out"));
  }
  auto c = std::make_shared<Contig>(out);
  DenseTensor src = in.contiguous();
  return enqueue(
      "alltoall",
      [this, c, src, equal, out_counts, in_counts](uint32_t tag) {
        if (equal) {
          size_t n = static_cast<size_t>(src.numel());
          if (n > 0) {
            gloo::AlltoallOptions opts(context_);
            with_element(src.dtype(), [&](auto v) {
              using T = decltype(v);
              opts.setInput(static_cast<T*>(src.raw_data()), n);
              opts.setOutput(static_cast<T*>(c->data()), n);
            });
            opts.setTag(tag);
            opts.setTimeout(options_.timeout);
            gloo::alltoall(opts);
          }
        } else {
          gloo::AlltoallvOptions opts(context_);
          with_element(src.dtype(), [&](auto v) {
            using T = decltype(v);
            opts.setInput(static_cast<T*>(src.raw_data()), in_counts);
            opts.setOutput(static_cast<T*>(c->data()), out_counts);
          });
          opts.setTag(tag);
          opts.setTimeout(options_.timeout);
          gloo::alltoallv(opts);
        }
        c->finish();
      },
      sync_op);
}

std::shared_ptr<Task> ProcessGroupGloo::barrier(bool sync_op) {
  return enqueue(
      "barrier",
      [this](uint32_t tag) {
        if (size() == 1) return;
        gloo::BarrierOptions opts(context_);
        opts.setTag(tag);
        opts.setTimeout(options_.timeout);
        gloo::barrier(opts);
      },
      sync_op);
}

// Point to point: the buffer is posted at once (not behind queued collectives, so an isend
// and an irecv between two ranks cannot block each other); the task's wait() waits for it.
// Slots number the messages between each ordered pair, so both sides agree without talking.
std::shared_ptr<Task> ProcessGroupGloo::p2p(DenseTensor tensor, int peer, bool is_send,
                                            bool sync_op) {
  const char* op = is_send ? "send" : "recv";
  check_cpu(tensor, op, "tensor");
  SKIFF_ENFORCE(peer >= 0 && peer < size() && peer != rank_, kInvalidArgument, op,
                is_send ? "dst" : "src", str("another rank of the group ", list(ranks_)),
                peer < 0 || peer >= size() ? std::to_string(peer) : str("rank ", ranks_[peer]));
  auto c = std::make_shared<Contig>(tensor);
  size_t bytes = static_cast<size_t>(c->buf.nbytes());
  std::shared_ptr<gloo::transport::UnboundBuffer> buf;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (broken_) std::rethrow_exception(broken_);
    int src = is_send ? rank_ : peer, dst = is_send ? peer : rank_;
    uint32_t index = is_send ? sent_[peer]++ : received_[peer]++;
    uint64_t slot = (uint64_t{0xA5} << 56) | (static_cast<uint64_t>(src) << 44) |
                    (static_cast<uint64_t>(dst) << 32) | index;
    if (bytes > 0) {
      buf = context_->createUnboundBuffer(c->data(), bytes);
      if (is_send)
        buf->send(peer, slot);
      else
        buf->recv(peer, slot);
    }
  }
  auto task = std::make_shared<Task>(op);
  task->set_waiter([this, c, buf, is_send, peer, op] {
    try {
      if (buf) {
        if (is_send)
          buf->waitSend(options_.timeout);
        else
          buf->waitRecv(options_.timeout);
      }
    } catch (const skiff::Error&) {
      throw;
    } catch (const std::exception& e) {
      std::rethrow_exception(diagnose(str(op, is_send ? " to rank " : " from rank ", ranks_[peer]),
                                      -1, e.what(), peer));
    }
    if (!is_send) c->finish();
  });
  if (sync_op) task->wait();
  return task;
}

std::shared_ptr<Task> ProcessGroupGloo::send(DenseTensor tensor, int dst, bool sync_op) {
  return p2p(std::move(tensor), dst, true, sync_op);
}

std::shared_ptr<Task> ProcessGroupGloo::recv(DenseTensor tensor, int src, bool sync_op) {
  return p2p(std::move(tensor), src, false, sync_op);
}

}  // namespace skiff::comm
