// The abstract body behind a Tensor handle. Kinds: a dense tensor in memory; later a
// distributed tensor (local dense shard + placements) and a symbolic tensor that stands for an
// IR value while a function is captured. The op API dispatches on kind().
#pragma once

#include <memory>

#include "skiff/core/dims.h"
#include "skiff/core/dtype.h"
#include "skiff/core/place.h"

namespace skiff {

enum class TensorKind : uint8_t { kDense, kDist, kSymbolic };

/// Implemented by the autograd engine (runtime layer); core only holds the pointer.
class AutogradMetaBase {
 public:
  virtual ~AutogradMetaBase() = default;
};

class TensorImpl {
 public:
  TensorImpl() = default;
  // A copy is a new tensor: it shares data, never autograd state.
  TensorImpl(const TensorImpl&) {}
  TensorImpl& operator=(const TensorImpl&) { return *this; }
  virtual ~TensorImpl() = default;
  virtual TensorKind kind() const = 0;
  virtual DType dtype() const = 0;
  virtual const Dims& dims() const = 0;
  virtual Place place() const = 0;

  AutogradMetaBase* autograd_meta() const { return autograd_meta_.get(); }
  void set_autograd_meta(std::shared_ptr<AutogradMetaBase> meta) {
    autograd_meta_ = std::move(meta);
  }

 private:
  std::shared_ptr<AutogradMetaBase> autograd_meta_;
};

/// Metadata that infer-meta computes: enough to describe a tensor in eager mode and in the IR.
struct TensorMeta {
  DType dtype = DType::kUndefined;
  Dims dims;

  friend bool operator==(const TensorMeta&, const TensorMeta&) = default;
};

}  // namespace skiff
