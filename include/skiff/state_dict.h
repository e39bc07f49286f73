// StateDict: named tensors in insertion order (Paddle's OrderedDict of a state_dict). Layers,
// optimizers and LR schedulers fill one; checkpoints save and load one.
#pragma once

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "skiff/core/tensor.h"

namespace skiff {

class StateDict {
 public:
  using Item = std::pair<std::string, Tensor>;

  /// Adds `name`, or replaces its tensor if present (keeping its position).
  void set(const std::string& name, Tensor tensor);
  /// The tensor of `name`, or null.
  const Tensor* find(const std::string& name) const;
  /// The tensor of `name`; throws NotFound naming the missing key.
  const Tensor& at(const std::string& name) const;
  bool contains(const std::string& name) const { return index_.count(name) != 0; }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  std::vector<Item>::const_iterator begin() const { return items_.begin(); }
  std::vector<Item>::const_iterator end() const { return items_.end(); }
  /// Every entry of `other`, its names prefixed with `prefix`.
  void merge(const StateDict& other, const std::string& prefix = "");
  /// The entries whose names start with `prefix`, with the prefix removed.
  StateDict with_prefix(const std::string& prefix) const;

 private:
  std::vector<Item> items_;
  std::unordered_map<std::string, size_t> index_;
};

}  // namespace skiff
