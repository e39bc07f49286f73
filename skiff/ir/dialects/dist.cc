#include "skiff/ir/dialects/dist.h"

#include "skiff/base/error.h"
#include "skiff/ir/core/asm.h"

namespace skiff::ir {

std::string Placement::to_string() const {
  if (kind == kShard) return str("S(", dim, ")");
  return kind == kReplicate ? "R" : "P";
}

namespace {
struct DistStorage : StorageBase {
  DistStorage(TensorType t, std::span<const int64_t> m, std::span<const Placement> p)
      : global(t), mesh(m.begin(), m.end()), placements(p.begin(), p.end()) {}
  static size_t hash_key(TensorType t, std::span<const int64_t> m, std::span<const Placement> p) {
    size_t h = t.hash();
    for (int64_t d : m) h = hash_combine(h, std::hash<int64_t>()(d));
    for (const Placement& x : p) h = hash_combine(h, x.kind * 1000003 + x.dim);
    return h;
  }
  bool equals(TensorType t, std::span<const int64_t> m, std::span<const Placement> p) const {
    return t == global && std::equal(m.begin(), m.end(), mesh.begin(), mesh.end()) &&
           std::equal(p.begin(), p.end(), placements.begin(), placements.end());
  }
  TensorType global;
  std::vector<int64_t> mesh;
  std::vector<Placement> placements;
};

void print_dist(Type t, AsmPrinter& p) {
  auto d = t.cast<DistTensorType>();
  p.os() << '<';
  p.print_type(d.global());
  p.os() << ", mesh = [";
  for (size_t i = 0; i < d.mesh().size(); ++i) p.os() << (i ? ", " : "") << d.mesh()[i];
  p.os() << "], placements = [";
  for (size_t i = 0; i < d.placements().size(); ++i) {
    p.os() << (i ? ", " : "") << d.placements()[i].to_string();
  }
  p.os() << "]>";
}
}  // namespace

DistDialect::DistDialect(IrContext* ctx) : Dialect(ctx, kName) {
  register_kind<DistTensorType>("dist.tensor", &print_dist);
}

Type DistDialect::parse_type(std::string_view mnemonic, AsmParser& p) {
  if (mnemonic != "dist.tensor") return Dialect::parse_type(mnemonic, p);
  p.expect("<");
  Type t = p.parse_type();
  if (!t || !t.isa<TensorType>()) p.error("a tensor type");
  p.expect(",");
  p.expect("mesh");
  p.expect("=");
  p.expect("[");
  std::vector<int64_t> mesh;
  do {
    mesh.push_back(p.parse_int());
  } while (p.consume(","));
  p.expect("]");
  p.expect(",");
  p.expect("placements");
  p.expect("=");
  p.expect("[");
  std::vector<Placement> placements;
  do {
    Placement pl;
    if (p.consume("R")) {
      pl.kind = Placement::kReplicate;
    } else if (p.consume("P")) {
      pl.kind = Placement::kPartial;
    } else if (p.consume("S")) {
      pl.kind = Placement::kShard;
      p.expect("(");
      pl.dim = p.parse_int();
      p.expect(")");
    } else {
      p.error("a placement (S(dim), R or P)");
    }
    placements.push_back(pl);
  } while (p.consume(","));
  p.expect("]");
  p.expect(">");
  try {
    return DistTensorType::get(context(), t.cast<TensorType>(), mesh, placements);
  } catch (const Error& e) {
    p.error(e.what());
  }
}

DistTensorType DistTensorType::get(IrContext* ctx, TensorType global, std::span<const int64_t> mesh,
                                   std::span<const Placement> placements) {
  SKIFF_ENFORCE(!mesh.empty() && mesh.size() == placements.size(), kInvalidArgument,
                "dist tensor type", "placements", str("one per mesh dim (", mesh.size(), ")"),
                placements.size());
  for (int64_t m : mesh) {
    SKIFF_ENFORCE(m >= 1, kInvalidArgument, "dist tensor type", "mesh", "dims >= 1", m);
  }
  for (const Placement& p : placements) {
    SKIFF_ENFORCE(p.kind != Placement::kShard || (p.dim >= 0 && p.dim < global.rank()), kOutOfRange,
                  "dist tensor type", "placements", str("shard dims in [0, ", global.rank(), ")"),
                  p.dim);
  }
  return DistTensorType(
      ctx->get_storage<DistStorage>(ctx->kind_of<DistTensorType>(), global, mesh, placements));
}
bool DistTensorType::classof(Type t) { return t.kind_id() == type_id<DistTensorType>(); }
TensorType DistTensorType::global() const { return static_cast<const DistStorage*>(impl_)->global; }
std::span<const int64_t> DistTensorType::mesh() const {
  return static_cast<const DistStorage*>(impl_)->mesh;
}
std::span<const Placement> DistTensorType::placements() const {
  return static_cast<const DistStorage*>(impl_)->placements;
}
std::vector<int64_t> DistTensorType::local_shape() const {
  std::vector<int64_t> shape(global().shape().begin(), global().shape().end());
  for (size_t i = 0; i < placements().size(); ++i) {
    const Placement& p = placements()[i];
    if (p.kind != Placement::kShard || shape[p.dim] == kDynamic) continue;
    shape[p.dim] = (shape[p.dim] + mesh()[i] - 1) / mesh()[i];
  }
  return shape;
}

}  // namespace skiff::ir
