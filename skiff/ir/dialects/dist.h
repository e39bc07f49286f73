// The dist dialect (a start): a distributed tensor type carrying the global tensor type, the
// process mesh and one placement per mesh dim, after Paddle's DistDenseTensorType:
//   !dist.tensor<tensor<8x4xf32>, mesh = [2, 2], placements = [S(0), R]>
//   !dist.tensor<tensor<8xf32>, mesh = [2], process_ids = [4, 5], dim_names = ["mp"],
//                placements = [P(max)]>
// (process_ids and dim_names are printed only when they are not the defaults 0..n-1, d0, d1...).
// Placements: S(d) shards tensor dim d, R replicates, P holds partial sums (P(max) another
// reduction). The mesh and placements are skiff::dist's types (skiff/dist), shared with
// DistTensor. Reshard ops and SPMD rules (SpmdInterface) come with the distributed layer.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "skiff/dist/placement.h"
#include "skiff/dist/process_mesh.h"
#include "skiff/ir/core/builtin_types.h"
#include "skiff/ir/core/dialect.h"

namespace skiff::ir {

class DistDialect : public Dialect {
 public:
  static constexpr std::string_view kName = "dist";
  explicit DistDialect(IrContext* ctx);
  Type parse_type(std::string_view mnemonic, AsmParser& p) override;
};

using dist::Placement;
using dist::ProcessMesh;

class DistTensorType : public Type {
 public:
  using Type::Type;
  /// Throws when placements do not match the mesh rank or shard a dim the tensor lacks.
  static DistTensorType get(IrContext* ctx, TensorType global, const ProcessMesh& mesh,
                            std::span<const Placement> placements);
  /// On a mesh of this shape with the default ids and dim names.
  static DistTensorType get(IrContext* ctx, TensorType global, std::span<const int64_t> mesh_shape,
                            std::span<const Placement> placements);
  static bool classof(Type t);
  TensorType global() const;
  const ProcessMesh& process_mesh() const;
  /// The mesh shape.
  std::span<const int64_t> mesh() const;
  std::span<const Placement> placements() const;
  /// The per-rank shape (dims divided by the mesh dims that shard them; dynamic stays dynamic).
  std::vector<int64_t> local_shape() const;
};

}  // namespace skiff::ir
