// Containers: Sequential (runs its layers in order) and LayerList (holds layers by index).
// Children are registered as sublayers "0", "1", ... so state-dict names match Paddle's.
#pragma once

#include <initializer_list>
#include <memory>
#include <vector>

#include "skiff/nn/layer.h"

namespace skiff::nn {

class Sequential : public Layer {
 public:
  Sequential() = default;
  Sequential(std::initializer_list<std::shared_ptr<Layer>> layers);
  void append(std::shared_ptr<Layer> layer);
  Tensor forward(const Tensor& x) override;
  size_t size() const { return layers_.size(); }
  const std::shared_ptr<Layer>& operator[](size_t i) const;

 private:
  std::vector<std::shared_ptr<Layer>> layers_;
};

class LayerList : public Layer {
 public:
  LayerList() = default;
  LayerList(std::initializer_list<std::shared_ptr<Layer>> layers);
  void append(std::shared_ptr<Layer> layer);
  size_t size() const { return layers_.size(); }
  /// Negative indices count from the end; out of range is an IndexError.
  const std::shared_ptr<Layer>& operator[](int64_t i) const;
  std::vector<std::shared_ptr<Layer>>::const_iterator begin() const { return layers_.begin(); }
  std::vector<std::shared_ptr<Layer>>::const_iterator end() const { return layers_.end(); }

 private:
  std::vector<std::shared_ptr<Layer>> layers_;
};

}  // namespace skiff::nn
