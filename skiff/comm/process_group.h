// A process group in Paddle's shape (phi's ProcessGroup): one tensor in and one out per call,
// `sync_op`, and a Task to wait on. Ranks inside a group are group-local (0..size-1); `ranks()`
// maps them to global ranks. Tensors are dense, on the group's device, contiguous or not (a
// non-contiguous output is written through a contiguous copy). Tasks of one group run in call
// order on one worker thread, so every rank issues the same sequence (the collective contract);
// a failed op fails its task and every later one of the group.
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "skiff/core/dense_tensor.h"

namespace skiff::comm {

enum class ReduceOp : uint8_t { kSum, kAvg, kMax, kMin, kProd };
const char* reduce_op_name(ReduceOp op);

/// Completion of one operation; wait() rethrows the operation's error.
class Task {
 public:
  explicit Task(std::string op) : op_(std::move(op)) {}
  bool is_completed();
  void wait();
  /// Work that wait() runs on the caller's thread (point to point posts, then waits here).
  void set_waiter(std::function<void()> waiter);
  const std::string& op() const { return op_; }
  void finish(std::exception_ptr error);

 private:
  std::string op_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::exception_ptr error_;
  std::function<void()> waiter_;
};

class ProcessGroup {
 public:
  ProcessGroup(std::string name, int rank, std::vector<int> ranks)
      : name_(std::move(name)), rank_(rank), ranks_(std::move(ranks)) {}
  virtual ~ProcessGroup() = default;

  const std::string& name() const { return name_; }
  int rank() const { return rank_; }
  int size() const { return static_cast<int>(ranks_.size()); }
  const std::vector<int>& ranks() const { return ranks_; }
  virtual std::string backend() const = 0;

  /// In place on `tensor` (Paddle's all_reduce).
  virtual std::shared_ptr<Task> all_reduce(DenseTensor tensor, ReduceOp op, bool sync_op) = 0;
  /// out = the inputs of ranks 0..size-1 back to back (out.numel() == size * in.numel()).
  virtual std::shared_ptr<Task> all_gather(DenseTensor out, DenseTensor in, bool sync_op) = 0;
  /// in = size equal chunks; rank r's out = the reduction of every rank's chunk r.
  virtual std::shared_ptr<Task> reduce_scatter(DenseTensor out, DenseTensor in, ReduceOp op,
                                               bool sync_op) = 0;
  virtual std::shared_ptr<Task> broadcast(DenseTensor tensor, int root, bool sync_op) = 0;
  /// The reduction lands in root's tensor; other ranks' tensors are left unchanged.
  virtual std::shared_ptr<Task> reduce(DenseTensor tensor, int root, ReduceOp op, bool sync_op) = 0;
  /// root's in = size chunks; chunk r goes to rank r's out (in is read only on root).
  virtual std::shared_ptr<Task> scatter(DenseTensor out, DenseTensor in, int root,
                                        bool sync_op) = 0;
  /// root's out = every rank's in back to back (out is written only on root).
  virtual std::shared_ptr<Task> gather(DenseTensor out, DenseTensor in, int root, bool sync_op) = 0;
  /// Element counts per peer along the flattened buffers; empty = equal chunks.
  virtual std::shared_ptr<Task> all_to_all(DenseTensor out, DenseTensor in,
                                           std::vector<int64_t> out_counts,
                                           std::vector<int64_t> in_counts, bool sync_op) = 0;
  virtual std::shared_ptr<Task> send(DenseTensor tensor, int dst, bool sync_op) = 0;
  virtual std::shared_ptr<Task> recv(DenseTensor tensor, int src, bool sync_op) = 0;
  virtual std::shared_ptr<Task> barrier(bool sync_op) = 0;

  /// Collective operations issued so far on this group (tests and debugging read it).
  virtual int64_t op_count() const = 0;

 protected:
  std::string name_;
  int rank_;
  std::vector<int> ranks_;
};

}  // namespace skiff::comm
