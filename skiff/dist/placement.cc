#include "skiff/dist/placement.h"

#include <functional>

#include "skiff/base/error.h"

namespace skiff::dist {

namespace {
constexpr std::string_view kReduceNames[] = {"sum", "max", "min", "prod", "avg", "any", "all"};
}

std::string_view reduce_type_name(ReduceType t) { return kReduceNames[static_cast<int>(t)]; }

ReduceType parse_reduce_type(std::string_view name) {
  for (size_t i = 0; i < std::size(kReduceNames); ++i) {
    if (kReduceNames[i] == name) return static_cast<ReduceType>(i);
  }
  SKIFF_THROW(kInvalidArgument, "Partial", "reduce_type",
              "one of sum, max, min, prod, avg, any, all", str("'", name, "'"));
}

Placement Placement::shard(int64_t dim) {
  SKIFF_ENFORCE(dim >= 0, kInvalidArgument, "Shard", "dim", "a tensor dim >= 0", dim);
  Placement p;
  p.kind_ = Kind::kShard;
  p.dim_ = dim;
  return p;
}

Placement Placement::partial(ReduceType reduce) {
  Placement p;
  p.kind_ = Kind::kPartial;
  p.reduce_ = reduce;
  return p;
}

std::string Placement::to_string() const {
  switch (kind_) {
    case Kind::kShard:
      return str("Shard(dim=", dim_, ")");
    case Kind::kReplicate:
      return "Replicate()";
    case Kind::kPartial:
      return str("Partial(reduce_type=", reduce_type_name(reduce_), ")");
  }
  return "";
}

std::string Placement::short_string() const {
  switch (kind_) {
    case Kind::kShard:
      return str("S(", dim_, ")");
    case Kind::kReplicate:
      return "R";
    case Kind::kPartial:
      return reduce_ == ReduceType::kRedSum ? "P" : str("P(", reduce_type_name(reduce_), ")");
  }
  return "";
}

size_t Placement::hash() const {
  return std::hash<int64_t>()((dim_ + 1) * 64 + static_cast<int>(kind_) * 8 +
                              static_cast<int>(reduce_));
}

}  // namespace skiff::dist
