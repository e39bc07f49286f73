#include "skiff/dist/reshard/comm_context.h"

#include <algorithm>

#include "skiff/base/error.h"

namespace skiff::dist {

namespace {

std::mutex& global_mu() {
  static std::mutex mu;
  return mu;
}

std::shared_ptr<CommContext>& global_slot() {
  static std::shared_ptr<CommContext> ctx;
  return ctx;
}

}  // namespace

int group_id_for(const std::vector<int64_t>& ranks) {
  // FNV-1a over the ranks; ids below 2^24 stay free for new_group's counter.
  uint64_t h = 1469598103934665603ull;
  for (int64_t r : ranks) {
    h ^= static_cast<uint64_t>(r) + 0x9e3779b97f4a7c15ull;
    h *= 1099511628211ull;
  }
  return static_cast<int>((1u << 24) + (h % ((1u << 30) - (1u << 24))));
}

CommContext::CommContext(std::shared_ptr<comm::Store> store, int rank, int world_size,
                         comm::GlooOptions options)
    : store_(std::move(store)), rank_(rank), world_size_(world_size), options_(std::move(options)) {}

comm::ProcessGroup& CommContext::group(const std::vector<int64_t>& ranks) {
  std::lock_guard<std::mutex> lock(mu_);
  auto& g = groups_[ranks];
  if (g) return *g;
  auto it = std::find(ranks.begin(), ranks.end(), rank_);
  SKIFF_ENFORCE(it != ranks.end(), kInternal, "reshard", "group", str("rank ", rank_, " a member"),
                "a group without it");
  std::vector<int> members(ranks.begin(), ranks.end());
  std::string name = "_reshard_pg";
  for (int64_t r : ranks) name += str("_", r);
  g = std::make_unique<comm::ProcessGroupGloo>(store_, static_cast<int>(it - ranks.begin()),
                                               members, group_id_for(ranks), name, options_);
  return *g;
}

int64_t CommContext::op_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  int64_t n = 0;
  for (const auto& [ranks, g] : groups_) n += g->op_count();
  return n;
}

std::shared_ptr<CommContext> CommContext::global() {
  std::lock_guard<std::mutex> lock(global_mu());
  return global_slot();
}

void CommContext::set_global(std::shared_ptr<CommContext> ctx) {
  std::lock_guard<std::mutex> lock(global_mu());
  global_slot() = std::move(ctx);
}

}  // namespace skiff::dist
