// The abstract body behind a Tensor handle. Kinds: a dense tensor in memory; later a
// distributed tensor (local dense shard + placements) and a symbolic tensor that stands for an
// IR value while a function is captured. The op API dispatches on kind().
#pragma once

#include "skiff/core/dims.h"
#include "skiff/core/dtype.h"
#include "skiff/core/place.h"

namespace skiff {

enum class TensorKind : uint8_t { kDense, kDist, kSymbolic };

class TensorImpl {
 public:
  virtual ~TensorImpl() = default;
  virtual TensorKind kind() const = 0;
  virtual DType dtype() const = 0;
  virtual const Dims& dims() const = 0;
  virtual Place place() const = 0;
};

/// Metadata that infer-meta computes: enough to describe a tensor in eager mode and in the IR.
struct TensorMeta {
  DType dtype = DType::kUndefined;
  Dims dims;

  friend bool operator==(const TensorMeta&, const TensorMeta&) = default;
};

}  // namespace skiff
