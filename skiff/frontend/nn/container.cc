#include "skiff/nn/container.h"

#include <string>

#include "skiff/base/str.h"

namespace skiff::nn {

Sequential::Sequential(std::initializer_list<std::shared_ptr<Layer>> layers) {
  for (const auto& l : layers) append(l);
}

void Sequential::append(std::shared_ptr<Layer> layer) {
  layers_.push_back(add_sublayer(std::to_string(layers_.size()), std::move(layer)));
}

Tensor Sequential::forward(const Tensor& x) {
  Tensor y = x;
  for (const auto& l : layers_) y = l->forward(y);
  return y;
}

const std::shared_ptr<Layer>& Sequential::operator[](size_t i) const {
  SKIFF_ENFORCE(i < layers_.size(), kOutOfRange, "Sequential", "index",
                str("an index below ", layers_.size()), i);
  return layers_[i];
}

LayerList::LayerList(std::initializer_list<std::shared_ptr<Layer>> layers) {
  for (const auto& l : layers) append(l);
}

void LayerList::append(std::shared_ptr<Layer> layer) {
  layers_.push_back(add_sublayer(std::to_string(layers_.size()), std::move(layer)));
}

const std::shared_ptr<Layer>& LayerList::operator[](int64_t i) const {
  const int64_t n = static_cast<int64_t>(layers_.size());
  SKIFF_ENFORCE(i >= -n && i < n, kOutOfRange, "LayerList", "index", str("in [", -n, ", ", n, ")"),
                i);
  return layers_[i < 0 ? i + n : i];
}

}  // namespace skiff::nn
