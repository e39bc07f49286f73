// All-reduce latency and bandwidth of ProcessGroupGloo against Gloo called directly (the peer:
// the same gloo::allreduce with Gloo's own sum, no task queue, no store markers), in the same
// run, on N forked local ranks (default 2). Bus bandwidth = 2 (n-1)/n x bytes / time, the
// usual figure for ring all-reduce.
//
//   build/bin/comm_bench [ranks] [max_bytes]
#include <gloo/allreduce.h>
#include <gloo/math.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/store.h>
#include <gloo/transport/tcp/device.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "skiff/comm/gloo/process_group_gloo.h"
#include "skiff/comm/tcp_store.h"

namespace {

using namespace skiff;
using Clock = std::chrono::steady_clock;

class StoreView : public gloo::rendezvous::Store {
 public:
  explicit StoreView(std::shared_ptr<comm::Store> s) : s_(std::move(s)) {}
  void set(const std::string& k, const std::vector<char>& v) override {
    s_->set("raw/" + k, {v.begin(), v.end()});
  }
  std::vector<char> get(const std::string& k) override {
    auto v = s_->get("raw/" + k);
    return {v.begin(), v.end()};
  }
  void wait(const std::vector<std::string>& keys) override {
    std::vector<std::string> p;
    for (auto& k : keys) p.push_back("raw/" + k);
    s_->wait(p);
  }

 private:
  std::shared_ptr<comm::Store> s_;
};

int iterations(size_t bytes) { return bytes <= 65536 ? 400 : bytes <= (1 << 20) ? 60 : 12; }

void run_rank(int rank, int n, int port, size_t max_bytes) {
  auto store = std::make_shared<comm::TCPStore>("127.0.0.1", port, false, comm::Millis(60000));
  std::vector<int> ranks;
  for (int i = 0; i < n; ++i) ranks.push_back(i);
  comm::ProcessGroupGloo pg(store, rank, ranks, 0, "bench",
                            comm::GlooOptions{"127.0.0.1", comm::Millis(60000)});
  auto raw = std::make_shared<gloo::rendezvous::Context>(rank, n);
  gloo::transport::tcp::attr attr;
  attr.hostname = "127.0.0.1";
  auto dev = gloo::transport::tcp::CreateDevice(attr);
  StoreView view(store);
  raw->connectFullMesh(view, dev);
  if (rank == 0) {
    std::printf("ranks %d | %10s | %12s %12s | %12s %12s | %s\n", n, "bytes", "skiff us",
                "skiff GB/s", "gloo us", "gloo GB/s", "skiff/gloo");
  }
  for (size_t bytes = 4; bytes <= max_bytes; bytes *= 16) {
    size_t count = bytes / sizeof(float);
    auto t = DenseTensor::empty(Dims({static_cast<int64_t>(count)}), DType::kFloat32);
    std::vector<float> buf(count, 1.0f);
    for (size_t i = 0; i < count; ++i) t.data<float>()[i] = 1.0f;
    int iters = iterations(bytes);
    auto time_it = [&](auto&& fn) {
      for (int i = 0; i < 3; ++i) fn();
      pg.barrier(true);
      auto t0 = Clock::now();
      for (int i = 0; i < iters; ++i) fn();
      return std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / iters;
    };
    double ours = time_it([&] { pg.all_reduce(t, comm::ReduceOp::kSum, true); });
    uint32_t tag = 1000;
    double theirs = time_it([&] {
      gloo::AllreduceOptions opts(raw);
      opts.setOutput(buf.data(), count);
      opts.setReduceFunction(
          static_cast<void (*)(void*, const void*, const void*, size_t)>(&gloo::sum<float>));
      opts.setTag(tag++);
      gloo::allreduce(opts);
    });
    double bus = 2.0 * (n - 1) / n * static_cast<double>(bytes) / 1e3;  // bytes/us -> GB/s
    if (rank == 0) {
      std::printf("ranks %d | %10zu | %12.1f %12.3f | %12.1f %12.3f | %.2f\n", n, bytes, ours,
                  bus / ours, theirs, bus / theirs, ours / theirs);
      std::fflush(stdout);
    }
  }
  pg.barrier(true);
}

}  // namespace

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 2;
  size_t max_bytes = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : (64u << 20);
  comm::TCPStore master("127.0.0.1", 0, true, comm::Millis(60000));
  std::vector<pid_t> kids;
  for (int r = 0; r < n; ++r) {
    pid_t pid = fork();
    if (pid == 0) {
      run_rank(r, n, master.port(), max_bytes);
      std::_Exit(0);
    }
    kids.push_back(pid);
  }
  int failed = 0;
  for (pid_t pid : kids) {
    int status = 0;
    waitpid(pid, &status, 0);
    failed |= !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  return failed;
}
