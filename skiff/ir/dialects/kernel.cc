#include "skiff/ir/dialects/kernel.h"

#include "skiff/base/error.h"
#include "skiff/ir/core/asm.h"
#include "skiff/ir/core/verifier.h"

namespace skiff::ir {

std::string Place::to_string() const { return device < 0 ? backend : str(backend, ":", device); }

namespace {
struct PlacedStorage : StorageBase {
  PlacedStorage(const Place& p, TensorType t) : place(p), tensor(t) {}
  static size_t hash_key(const Place& p, TensorType t) {
    return hash_combine(hash_combine(std::hash<std::string>()(p.backend), p.device), t.hash());
  }
  bool equals(const Place& p, TensorType t) const { return p == place && t == tensor; }
  Place place;
  TensorType tensor;
};
struct KeyStorage : StorageBase {
  KeyStorage(std::string_view b, DataType d, Layout l) : backend(b), dtype(d), layout(l) {}
  static size_t hash_key(std::string_view b, DataType d, Layout l) {
    return hash_combine(std::hash<std::string_view>()(b),
                        static_cast<size_t>(d) * 16 + static_cast<size_t>(l));
  }
  bool equals(std::string_view b, DataType d, Layout l) const {
    return b == backend && d == dtype && l == layout;
  }
  std::string backend;
  DataType dtype;
  Layout layout;
};

void print_placed(Type t, AsmPrinter& p) {
  auto pt = t.cast<DenseTensorOnPlaceType>();
  p.os() << '<' << pt.place().to_string() << ", ";
  p.print_type(pt.tensor());
  p.os() << '>';
}
void print_key(Attribute a, AsmPrinter& p) {
  auto k = a.cast<KernelKeyAttr>();
  p.os() << '<' << k.backend() << ", " << dtype_name(k.dtype()) << ", " << layout_name(k.layout())
         << '>';
}
Place parse_place(AsmParser& p) {
  Place place;
  place.backend = p.parse_ident();
  if (p.consume(":")) {
    place.device = p.parse_int();
    if (place.device < 0) p.error("a device index >= 0");
  }
  return place;
}
bool is_placed(Type t) {
  if (!t) return true;
  if (t.isa<DenseTensorOnPlaceType>()) return true;
  if (auto vt = t.dyn_cast<VectorType>()) {
    for (Type e : vt.elements()) {
      if (!e.isa<DenseTensorOnPlaceType>()) return false;
    }
    return true;
  }
  return false;
}
}  // namespace

KernelDialect::KernelDialect(IrContext* ctx) : Dialect(ctx, kName) {
  register_kind<DenseTensorOnPlaceType>("kernel.dense", &print_placed);
  register_kind<KernelKeyAttr>("kernel.key", nullptr, &print_key);
  register_op<KernelCallOp>();
  register_op<TransferOp>();
}

Type KernelDialect::parse_type(std::string_view mnemonic, AsmParser& p) {
  if (mnemonic != "kernel.dense") return Dialect::parse_type(mnemonic, p);
  p.expect("<");
  Place place = parse_place(p);
  p.expect(",");
  Type t = p.parse_type();
  if (!t || !t.isa<TensorType>()) p.error("a tensor type");
  p.expect(">");
  return DenseTensorOnPlaceType::get(context(), place, t.cast<TensorType>());
}

Attribute KernelDialect::parse_attr(std::string_view mnemonic, AsmParser& p) {
  if (mnemonic != "kernel.key") return Dialect::parse_attr(mnemonic, p);
  p.expect("<");
  std::string backend = p.parse_ident();
  p.expect(",");
  auto d = parse_dtype(p.parse_ident());
  if (!d) p.error("a dtype");
  p.expect(",");
  auto l = parse_layout(p.parse_ident());
  if (!l) p.error("a layout");
  p.expect(">");
  return KernelKeyAttr::get(context(), backend, *d, *l);
}

DenseTensorOnPlaceType DenseTensorOnPlaceType::get(IrContext* ctx, const Place& place,
                                                   TensorType tensor) {
  return DenseTensorOnPlaceType(
      ctx->get_storage<PlacedStorage>(ctx->kind_of<DenseTensorOnPlaceType>(), place, tensor));
}
bool DenseTensorOnPlaceType::classof(Type t) {
  return t.kind_id() == type_id<DenseTensorOnPlaceType>();
}
const Place& DenseTensorOnPlaceType::place() const {
  return static_cast<const PlacedStorage*>(impl_)->place;
}
TensorType DenseTensorOnPlaceType::tensor() const {
  return static_cast<const PlacedStorage*>(impl_)->tensor;
}

KernelKeyAttr KernelKeyAttr::get(IrContext* ctx, std::string_view backend, DataType dtype,
                                 Layout layout) {
  return KernelKeyAttr(
      ctx->get_storage<KeyStorage>(ctx->kind_of<KernelKeyAttr>(), backend, dtype, layout));
}
bool KernelKeyAttr::classof(Attribute a) { return a.kind_id() == type_id<KernelKeyAttr>(); }
const std::string& KernelKeyAttr::backend() const {
  return static_cast<const KeyStorage*>(impl_)->backend;
}
DataType KernelKeyAttr::dtype() const { return static_cast<const KeyStorage*>(impl_)->dtype; }
Layout KernelKeyAttr::layout() const { return static_cast<const KeyStorage*>(impl_)->layout; }

void KernelCallOp::verify(Operation* op) {
  for (std::string_view a : {"op_name", "kernel_name"}) {
    SKIFF_ENFORCE(op->attr_of<StrAttr>(a), kInvalidArgument, op->describe(), a,
                  "a string attribute", "none");
  }
  SKIFF_ENFORCE(op->attr_of<KernelKeyAttr>("kernel_key"), kInvalidArgument, op->describe(),
                "kernel_key", "a #kernel.key attribute", "none");
  for (uint32_t i = 0; i < op->num_operands(); ++i) {
    Type t = op->operand(i) ? op->operand(i).type() : Type();
    SKIFF_ENFORCE(is_placed(t), kTypeError, op->describe(), str("operand #", i),
                  "a placed tensor (!kernel.dense)", to_string(t));
  }
  for (uint32_t i = 0; i < op->num_results(); ++i) {
    SKIFF_ENFORCE(is_placed(op->result_type(i)), kTypeError, op->describe(), str("result #", i),
                  "a placed tensor (!kernel.dense)", to_string(op->result_type(i)));
  }
  // The lowered op's infer-meta still holds for the call (Note [Types agree with infer-meta]).
  const std::string& lowered = op->attr_of<StrAttr>("op_name").value();
  verify_against_infer_meta(op, op->context()->find_op(lowered), [](Type t) -> Type {
    auto p = t.dyn_cast<DenseTensorOnPlaceType>();
    return p ? Type(p.tensor()) : t;
  });
}
KernelCallOp KernelCallOp::build(Builder& b, std::string_view op_name, std::string_view kernel_name,
                                 KernelKeyAttr key, std::span<const Value> inputs,
                                 std::span<const Type> result_types,
                                 std::vector<NamedAttribute> attrs) {
  attrs.push_back(b.named("op_name", b.str_attr(op_name)));
  attrs.push_back(b.named("kernel_name", b.str_attr(kernel_name)));
  attrs.push_back(b.named("kernel_key", key));
  return KernelCallOp(b.create(kName, inputs, result_types, std::move(attrs)));
}

void TransferOp::populate(OpInfo& info) { info.add_trait<PureTrait>(); }
void TransferOp::verify(Operation* op) {
  SKIFF_ENFORCE(op->num_operands() == 1 && op->num_results() == 1 && op->operand(0),
                kInvalidArgument, op->describe(), "structure", "1 operand and 1 result",
                str(op->num_operands(), " operands, ", op->num_results(), " results"));
  // The input is a placed tensor, or an unplaced one (a constant or host data being placed).
  Type in = op->operand(0).type();
  auto out = op->result_type(0).dyn_cast<DenseTensorOnPlaceType>();
  Type in_tensor =
      in.isa<DenseTensorOnPlaceType>() ? in.cast<DenseTensorOnPlaceType>().tensor() : in;
  SKIFF_ENFORCE(out && in_tensor == out.tensor(), kTypeError, op->describe(), "types",
                "tensors of the same tensor type, the result placed", "other types");
  auto dst = op->attr_of<StrAttr>("dst_place");
  SKIFF_ENFORCE(dst && dst.value() == out.place().to_string(), kInvalidArgument, op->describe(),
                "dst_place", str("the place of the result (", out.place().to_string(), ")"),
                dst ? dst.value() : "none");
}
TransferOp TransferOp::build(Builder& b, Value x, const Place& dst) {
  auto placed = x.type().dyn_cast<DenseTensorOnPlaceType>();
  auto tensor = placed ? placed.tensor() : x.type().cast<TensorType>();
  Type out = DenseTensorOnPlaceType::get(b.context(), dst, tensor);
  return TransferOp(
      b.create(kName, {&x, 1}, {&out, 1}, {b.named("dst_place", b.str_attr(dst.to_string()))}));
}

}  // namespace skiff::ir
