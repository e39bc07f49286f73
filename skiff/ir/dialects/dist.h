// The dist dialect (a start): a distributed tensor type carrying the global tensor type, the
// process mesh shape and one placement per mesh dim, after Paddle's DistDenseTensorType:
//   !dist.tensor<tensor<8x4xf32>, mesh = [2, 2], placements = [S(0), R]>
// Placements: S(d) shards tensor dim d, R replicates, P holds partial sums. Reshard ops and SPMD
// rules (SpmdInterface) come with the distributed layer.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "skiff/ir/core/builtin_types.h"
#include "skiff/ir/core/dialect.h"

namespace skiff::ir {

class DistDialect : public Dialect {
 public:
  static constexpr std::string_view kName = "dist";
  explicit DistDialect(IrContext* ctx);
  Type parse_type(std::string_view mnemonic, AsmParser& p) override;
};

struct Placement {
  enum Kind : uint8_t { kShard, kReplicate, kPartial } kind = kReplicate;
  int64_t dim = -1;  // kShard only
  bool operator==(const Placement&) const = default;
  std::string to_string() const;
};

class DistTensorType : public Type {
 public:
  using Type::Type;
  /// Throws when placements do not match the mesh rank or shard a dim the tensor lacks.
  static DistTensorType get(IrContext* ctx, TensorType global, std::span<const int64_t> mesh,
                            std::span<const Placement> placements);
  static bool classof(Type t);
  TensorType global() const;
  std::span<const int64_t> mesh() const;
  std::span<const Placement> placements() const;
  /// The per-rank shape (dims divided by the mesh dims that shard them; dynamic stays dynamic).
  std::vector<int64_t> local_shape() const;
};

}  // namespace skiff::ir
