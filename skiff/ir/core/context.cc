#include "skiff/ir/core/context.h"

#include "skiff/base/error.h"
#include "skiff/ir/core/dialect.h"
#include "skiff/ir/dialects/builtin.h"

namespace skiff::ir {

IrContext::IrContext() { load_dialect<BuiltinDialect>(); }

IrContext::~IrContext() = default;

Dialect* IrContext::find_dialect(std::string_view name) const {
  std::shared_lock lock(registry_mu_);
  for (const auto& d : dialects_) {
    if (d->name() == name) return d.get();
  }
  return nullptr;
}

std::vector<Dialect*> IrContext::dialects() const {
  std::shared_lock lock(registry_mu_);
  std::vector<Dialect*> out;
  for (const auto& d : dialects_) out.push_back(d.get());
  return out;
}

Dialect* IrContext::add_dialect(std::unique_ptr<Dialect> d) {
  // The dialect constructor already registered its ops and kinds (each under the lock).
  std::unique_lock lock(registry_mu_);
  dialects_.push_back(std::move(d));
  return dialects_.back().get();
}

const AbstractKind* IrContext::register_kind(AbstractKind kind) {
  std::unique_lock lock(registry_mu_);
  auto it = kinds_by_id_.find(kind.id.raw());
  if (it != kinds_by_id_.end()) return it->second;
  kinds_.push_back(std::make_unique<AbstractKind>(kind));
  const AbstractKind* k = kinds_.back().get();
  kinds_by_id_[kind.id.raw()] = k;
  kinds_by_name_[std::string(kind.mnemonic)] = k;
  return k;
}

const AbstractKind* IrContext::find_kind(TypeId id) const {
  std::shared_lock lock(registry_mu_);
  auto it = kinds_by_id_.find(id.raw());
  SKIFF_ENFORCE(it != kinds_by_id_.end(), kNotFound, "ir", "kind", "a registered type or attribute",
                "an unregistered kind (is its dialect loaded?)");
  return it->second;
}

const AbstractKind* IrContext::find_kind(std::string_view mnemonic) const {
  std::shared_lock lock(registry_mu_);
  auto it = kinds_by_name_.find(mnemonic);
  return it == kinds_by_name_.end() ? nullptr : it->second;
}

const StorageBase* IrContext::unique(size_t hash, FunctionRef<bool(const StorageBase*)> eq,
                                     FunctionRef<StorageBase*()> make) {
  std::lock_guard lock(storage_mu_);
  auto [lo, hi] = storages_.equal_range(hash);
  for (auto it = lo; it != hi; ++it) {
    if (eq(it->second)) return it->second;
  }
  StorageBase* s = make();
  s->hash = hash;
  owned_.emplace_back(s);
  storages_.emplace(hash, s);
  return s;
}

size_t IrContext::num_uniqued() const {
  std::lock_guard lock(storage_mu_);
  return owned_.size();
}

OpInfo* IrContext::register_op(std::unique_ptr<OpInfo> info) {
  std::unique_lock lock(registry_mu_);
  auto it = ops_.find(info->name);
  SKIFF_ENFORCE(it == ops_.end(), kInvalidArgument, "ir", "op", "a new op name",
                str("'", info->name, "' registered twice"));
  OpInfo* p = info.get();
  ops_.emplace(info->name, std::move(info));
  return p;
}

OpInfo* IrContext::find_op(std::string_view name) const {
  std::shared_lock lock(registry_mu_);
  auto it = ops_.find(name);
  return it == ops_.end() ? nullptr : it->second.get();
}

OpInfo* IrContext::op_info(std::string_view name) const {
  OpInfo* info = find_op(name);
  SKIFF_ENFORCE(info, kNotFound, "ir", "op", "a registered op", str("'", name, "'"));
  return info;
}

std::vector<OpInfo*> IrContext::ops() const {
  std::shared_lock lock(registry_mu_);
  std::vector<OpInfo*> out;
  for (const auto& [name, info] : ops_) out.push_back(info.get());
  return out;
}

Type Dialect::parse_type(std::string_view mnemonic, AsmParser& p) {
  (void)p;
  SKIFF_THROW(kNotFound, "parser", "type", str("a type known to dialect ", name_), mnemonic);
}

Attribute Dialect::parse_attr(std::string_view mnemonic, AsmParser& p) {
  (void)p;
  SKIFF_THROW(kNotFound, "parser", "attribute", str("an attribute known to dialect ", name_),
              mnemonic);
}

}  // namespace skiff::ir
