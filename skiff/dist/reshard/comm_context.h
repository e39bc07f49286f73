// CommContext: this process's view of the job for reshard: its global rank, the world size and
// a factory for the process group over any list of global ranks (the ranks of one mesh dim's
// slice through this process). Groups are made on first use by their members only, so their id
// (the store prefix Gloo meets under) is derived from the rank list, not from a call counter:
// every member computes the same id without the other ranks taking part. A group is cached per
// rank list for the life of the context. Every collective keeps the group's timeout.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "skiff/comm/gloo/process_group_gloo.h"
#include "skiff/comm/store.h"

namespace skiff::dist {

class CommContext {
 public:
  CommContext(std::shared_ptr<comm::Store> store, int rank, int world_size,
              comm::GlooOptions options);

  int rank() const { return rank_; }
  int world_size() const { return world_size_; }
  /// The group over `ranks` (global ranks, group rank = position); this rank must be a member.
  comm::ProcessGroup& group(const std::vector<int64_t>& ranks);
  /// Collectives issued by the groups of this context (tests check the counts).
  int64_t op_count() const;

  /// The process-wide context paddle.distributed.init_parallel_env installs (nullptr: a single
  /// process without a parallel environment).
  static std::shared_ptr<CommContext> global();
  static void set_global(std::shared_ptr<CommContext> ctx);

 private:
  std::shared_ptr<comm::Store> store_;
  int rank_;
  int world_size_;
  comm::GlooOptions options_;
  mutable std::mutex mu_;
  std::map<std::vector<int64_t>, std::unique_ptr<comm::ProcessGroupGloo>> groups_;
};

/// The group id reshard uses for `ranks`: a hash above the ids new_group hands out.
int group_id_for(const std::vector<int64_t>& ranks);

}  // namespace skiff::dist
