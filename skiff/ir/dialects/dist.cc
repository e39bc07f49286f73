#include "skiff/ir/dialects/dist.h"

#include "skiff/base/error.h"
#include "skiff/ir/core/asm.h"

namespace skiff::ir {

namespace {
struct DistStorage : StorageBase {
  DistStorage(TensorType t, const ProcessMesh& m, std::span<const Placement> p)
      : global(t), mesh(m), placements(p.begin(), p.end()) {}
  static size_t hash_key(TensorType t, const ProcessMesh& m, std::span<const Placement> p) {
    size_t h = hash_combine(t.hash(), m.hash());
    for (const Placement& x : p) h = hash_combine(h, x.hash());
    return h;
  }
  bool equals(TensorType t, const ProcessMesh& m, std::span<const Placement> p) const {
    return t == global && m == mesh &&
           std::equal(p.begin(), p.end(), placements.begin(), placements.end());
  }
  TensorType global;
  ProcessMesh mesh;
  std::vector<Placement> placements;
};

void print_dist(Type t, AsmPrinter& p) {
  auto d = t.cast<DistTensorType>();
  p.os() << '<';
  p.print_type(d.global());
  p.os() << ", mesh = [";
  for (size_t i = 0; i < d.mesh().size(); ++i) p.os() << (i ? ", " : "") << d.mesh()[i];
  p.os() << "]";
  const ProcessMesh& mesh = d.process_mesh();
  if (!mesh.is_default_layout()) {
    p.os() << ", process_ids = [";
    for (size_t i = 0; i < mesh.process_ids().size(); ++i) {
      p.os() << (i ? ", " : "") << mesh.process_ids()[i];
    }
    p.os() << "], dim_names = [";
    for (size_t i = 0; i < mesh.dim_names().size(); ++i) {
      p.os() << (i ? ", " : "") << '"' << mesh.dim_names()[i] << '"';
    }
    p.os() << "]";
  }
  p.os() << ", placements = [";
  for (size_t i = 0; i < d.placements().size(); ++i) {
    p.os() << (i ? ", " : "") << d.placements()[i].short_string();
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
  std::vector<int64_t> ids;
  std::vector<std::string> names;
  if (p.consume("process_ids")) {
    p.expect("=");
    p.expect("[");
    do {
      ids.push_back(p.parse_int());
    } while (p.consume(","));
    p.expect("]");
    p.expect(",");
  }
  if (p.consume("dim_names")) {
    p.expect("=");
    p.expect("[");
    do {
      names.push_back(p.parse_string());
    } while (p.consume(","));
    p.expect("]");
    p.expect(",");
  }
  p.expect("placements");
  p.expect("=");
  p.expect("[");
  std::vector<Placement> placements;
  do {
    if (p.consume("R")) {
      placements.push_back(Placement::replicate());
    } else if (p.consume("P")) {
      dist::ReduceType reduce = dist::ReduceType::kRedSum;
      if (p.consume("(")) {
        try {
          reduce = dist::parse_reduce_type(p.parse_ident());
        } catch (const Error& e) {
          p.error(e.what());
        }
        p.expect(")");
      }
      placements.push_back(Placement::partial(reduce));
    } else if (p.consume("S")) {
      p.expect("(");
      const int64_t dim = p.parse_int();
      p.expect(")");
      placements.push_back(dim >= 0 ? Placement::shard(dim) : Placement());
      if (dim < 0) p.error("a shard dim >= 0");
    } else {
      p.error("a placement (S(dim), R, P or P(reduce))");
    }
  } while (p.consume(","));
  p.expect("]");
  p.expect(">");
  try {
    return DistTensorType::get(context(), t.cast<TensorType>(),
                               ProcessMesh(mesh, std::move(ids), std::move(names)), placements);
  } catch (const Error& e) {
    p.error(e.what());
  }
}

DistTensorType DistTensorType::get(IrContext* ctx, TensorType global,
                                   std::span<const int64_t> mesh_shape,
                                   std::span<const Placement> placements) {
  return get(ctx, global, ProcessMesh(std::vector<int64_t>(mesh_shape.begin(), mesh_shape.end())),
             placements);
}

DistTensorType DistTensorType::get(IrContext* ctx, TensorType global, const ProcessMesh& mesh,
                                   std::span<const Placement> placements) {
  SKIFF_ENFORCE(!mesh.empty() && mesh.ndim() == static_cast<int64_t>(placements.size()),
                kInvalidArgument, "dist tensor type", "placements",
                str("one per mesh dim (", mesh.ndim(), ")"), placements.size());
  for (const Placement& p : placements) {
    SKIFF_ENFORCE(!p.is_shard() || p.shard_dim() < global.rank(), kOutOfRange, "dist tensor type",
                  "placements", str("shard dims in [0, ", global.rank(), ")"), p.shard_dim());
  }
  return DistTensorType(
      ctx->get_storage<DistStorage>(ctx->kind_of<DistTensorType>(), global, mesh, placements));
}
bool DistTensorType::classof(Type t) { return t.kind_id() == type_id<DistTensorType>(); }
TensorType DistTensorType::global() const { return static_cast<const DistStorage*>(impl_)->global; }
const ProcessMesh& DistTensorType::process_mesh() const {
  return static_cast<const DistStorage*>(impl_)->mesh;
}
std::span<const int64_t> DistTensorType::mesh() const { return process_mesh().shape(); }
std::span<const Placement> DistTensorType::placements() const {
  return static_cast<const DistStorage*>(impl_)->placements;
}
std::vector<int64_t> DistTensorType::local_shape() const {
  std::vector<int64_t> shape(global().shape().begin(), global().shape().end());
  for (size_t i = 0; i < placements().size(); ++i) {
    const Placement& p = placements()[i];
    if (!p.is_shard() || shape[p.shard_dim()] == kDynamic) continue;
    shape[p.shard_dim()] = (shape[p.shard_dim()] + mesh()[i] - 1) / mesh()[i];
  }
  return shape;
}

}  // namespace skiff::ir
