// ProcessGroupGloo: the CPU process group, every operation one of Gloo's algorithms (allreduce,
// allgather, broadcast, reduce, scatter, gather, alltoall(v), barrier) over its TCP transport;
// reduce_scatter is Gloo's alltoall followed by a local reduction (the same bytes on the wire
// as a ring reduce-scatter). Gloo's context meets its peers through our Store under
// "pg/<gid>/". 16-bit floats reduce in float through our own element functions.
//
// Note [Naming the missing ranks]: a timeout or a closed connection inside Gloo says little.
// A watchdog thread posts "pg/<gid>/at/<rank>" = op number once an op has run longer than a
// fraction of the timeout (nothing is posted while ops are fast). When an op fails, the rank
// posts its own marker, waits a little longer than that fraction, and reads the markers and the
// store's "__exited__/<rank>" records: the ranks that never reached the op (or whose process
// ended) are named in the error, with the group, the op and its number.
#pragma once

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <thread>

#include "skiff/comm/process_group.h"
#include "skiff/comm/store.h"

namespace gloo {
class Context;
}

namespace skiff::comm {

struct GlooOptions {
  std::string hostname = "127.0.0.1";  // the address peers reach this rank at
  Millis timeout{std::chrono::seconds(1800)};
};

class ProcessGroupGloo : public ProcessGroup {
 public:
  /// `store` is the job's store (shared by all groups); `rank` the group-local rank; `ranks`
  /// the members' global ranks; `gid` names the group's keys, equal on every member.
  ProcessGroupGloo(std::shared_ptr<Store> store, int rank, std::vector<int> ranks, int gid,
                   std::string name, GlooOptions options);
  ~ProcessGroupGloo() override;

  std::string backend() const override { return "gloo"; }
  std::shared_ptr<Task> all_reduce(DenseTensor tensor, ReduceOp op, bool sync_op) override;
  std::shared_ptr<Task> all_gather(DenseTensor out, DenseTensor in, bool sync_op) override;
  std::shared_ptr<Task> reduce_scatter(DenseTensor out, DenseTensor in, ReduceOp op,
                                       bool sync_op) override;
  std::shared_ptr<Task> broadcast(DenseTensor tensor, int root, bool sync_op) override;
  std::shared_ptr<Task> reduce(DenseTensor tensor, int root, ReduceOp op, bool sync_op) override;
  std::shared_ptr<Task> scatter(DenseTensor out, DenseTensor in, int root, bool sync_op) override;
  std::shared_ptr<Task> gather(DenseTensor out, DenseTensor in, int root, bool sync_op) override;
  std::shared_ptr<Task> all_to_all(DenseTensor out, DenseTensor in, std::vector<int64_t> out_counts,
                                   std::vector<int64_t> in_counts, bool sync_op) override;
  std::shared_ptr<Task> send(DenseTensor tensor, int dst, bool sync_op) override;
  std::shared_ptr<Task> recv(DenseTensor tensor, int src, bool sync_op) override;
  std::shared_ptr<Task> barrier(bool sync_op) override;
  int64_t op_count() const override { return seq_; }

  Millis timeout() const { return options_.timeout; }

 private:
  struct Work {
    std::string op;
    int64_t seq;
    std::function<void(uint32_t)> fn;  // gets the op's tag
    std::shared_ptr<Task> task;
  };
  std::shared_ptr<Task> enqueue(std::string op, std::function<void(uint32_t)> fn, bool sync_op);
  void worker_loop();
  void watchdog_loop();
  std::string describe() const;
  /// The error for a failed op (seq -1 and a peer for point to point).
  std::exception_ptr diagnose(const std::string& op, int64_t seq, const std::string& what,
                              int peer);
  std::shared_ptr<Task> p2p(DenseTensor tensor, int peer, bool is_send, bool sync_op);

  std::shared_ptr<Store> global_store_;
  std::shared_ptr<Store> store_;  // "pg/<gid>/" of the global store
  int gid_;
  GlooOptions options_;
  std::shared_ptr<gloo::Context> context_;
  int64_t seq_ = 0;                        // collectives issued (caller side)
  std::vector<uint32_t> sent_, received_;  // p2p messages per peer, in order

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Work> queue_;
  bool stop_ = false;
  std::exception_ptr broken_;  // the first failure; later ops fail with it
  std::thread worker_;

  // What the worker runs now, for the watchdog.
  std::atomic<int64_t> running_seq_{-1};
  std::atomic<int64_t> running_since_ns_{0};
  int64_t posted_seq_ = -1;
  std::thread watchdog_;
};

}  // namespace skiff::comm
