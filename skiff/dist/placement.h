// How a tensor is laid out along one dimension of a ProcessMesh (Paddle's dist.Shard,
// dist.Replicate, dist.Partial): Shard(d) splits tensor dim d over the mesh dim, Replicate keeps
// a full copy on each process, Partial holds a term of a reduction (sum by default) that a
// reshard completes. One placement per mesh dim. Used by the IR's dist dialect and by DistTensor,
// so it depends on skiff_base only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace skiff::dist {

/// Paddle's ReduceType names (paddle.distributed.ReduceType.kRedSum, ...).
enum class ReduceType : uint8_t { kRedSum, kRedMax, kRedMin, kRedProd, kRedAvg, kRedAny, kRedAll };

/// "sum", "max", "min", "prod", "avg", "any", "all".
std::string_view reduce_type_name(ReduceType t);
/// The inverse of reduce_type_name; InvalidArgument naming the valid names otherwise.
ReduceType parse_reduce_type(std::string_view name);

class Placement {
 public:
  enum class Kind : uint8_t { kShard, kReplicate, kPartial };

  /// Replicate().
  Placement() = default;
  /// Shard(dim): InvalidArgument for a negative dim.
  static Placement shard(int64_t dim);
  static Placement replicate() { return Placement(); }
  static Placement partial(ReduceType reduce = ReduceType::kRedSum);

  Kind kind() const { return kind_; }
  bool is_shard() const { return kind_ == Kind::kShard; }
  bool is_shard(int64_t dim) const { return kind_ == Kind::kShard && dim_ == dim; }
  bool is_replicated() const { return kind_ == Kind::kReplicate; }
  bool is_partial() const { return kind_ == Kind::kPartial; }
  /// The sharded tensor dim (Shard only; -1 otherwise).
  int64_t shard_dim() const { return dim_; }
  /// The pending reduction (Partial only; kRedSum otherwise).
  ReduceType reduce_type() const { return reduce_; }

  /// Paddle's repr: "Shard(dim=0)", "Replicate()", "Partial(reduce_type=sum)".
  std::string to_string() const;
  /// The short form the IR prints: "S(0)", "R", "P" (sum) or "P(max)".
  std::string short_string() const;

  bool operator==(const Placement&) const = default;
  size_t hash() const;

 private:
  Kind kind_ = Kind::kReplicate;
  int64_t dim_ = -1;
  ReduceType reduce_ = ReduceType::kRedSum;
};

}  // namespace skiff::dist
