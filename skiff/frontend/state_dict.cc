#include "skiff/state_dict.h"

#include "skiff/base/error.h"

namespace skiff {

void StateDict::set(const std::string& name, Tensor tensor) {
  auto it = index_.find(name);
  if (it != index_.end()) {
    items_[it->second].second = std::move(tensor);
    return;
  }
  index_.emplace(name, items_.size());
  items_.emplace_back(name, std::move(tensor));
}

const Tensor* StateDict::find(const std::string& name) const {
  auto it = index_.find(name);
  return it == index_.end() ? nullptr : &items_[it->second].second;
}

const Tensor& StateDict::at(const std::string& name) const {
  const Tensor* t = find(name);
  SKIFF_ENFORCE(t != nullptr, kNotFound, "StateDict", "name", "a key of the state dict", name);
  return *t;
}

void StateDict::merge(const StateDict& other, const std::string& prefix) {
  for (const auto& [name, t] : other) set(prefix + name, t);
}

StateDict StateDict::with_prefix(const std::string& prefix) const {
  StateDict out;
  for (const auto& [name, t] : items_) {
    if (name.compare(0, prefix.size(), prefix) == 0) out.set(name.substr(prefix.size()), t);
  }
  return out;
}

}  // namespace skiff
