// IrContext owns the dialects, the op registry (OpInfo by name) and the uniqued storages of types
// and attributes. It is passed explicitly (no global singleton). Uniquing and registration are
// guarded by mutexes, so several threads may build programs in one context.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "skiff/ir/core/type.h"

namespace skiff::ir {

class Dialect;
struct OpInfo;

/// A non-owning reference to a callable, used on the uniquing hot path instead of std::function.
template <typename Fn>
class FunctionRef;
template <typename Ret, typename... Params>
class FunctionRef<Ret(Params...)> {
 public:
  template <typename Callable>
  FunctionRef(Callable&& c)  // NOLINT: implicit by design
      : callable_(reinterpret_cast<void*>(&c)), call_([](void* p, Params... ps) -> Ret {
          return (*reinterpret_cast<std::remove_reference_t<Callable>*>(p))(
              std::forward<Params>(ps)...);
        }) {}
  Ret operator()(Params... ps) const { return call_(callable_, std::forward<Params>(ps)...); }

 private:
  void* callable_;
  Ret (*call_)(void*, Params...);
};

class IrContext {
 public:
  /// Creates a context with the builtin dialect loaded.
  IrContext();
  ~IrContext();
  IrContext(const IrContext&) = delete;
  IrContext& operator=(const IrContext&) = delete;

  /// Loads dialect D once and returns it.
  template <typename D>
  D* load_dialect() {
    if (Dialect* d = find_dialect(D::kName)) return static_cast<D*>(d);
    return static_cast<D*>(add_dialect(std::make_unique<D>(this)));
  }
  Dialect* find_dialect(std::string_view name) const;
  std::vector<Dialect*> dialects() const;

  // Kinds of types and attributes -----------------------------------------------------------
  const AbstractKind* register_kind(AbstractKind kind);
  const AbstractKind* find_kind(TypeId id) const;
  template <typename T>
  const AbstractKind* kind_of() const {
    return find_kind(type_id<T>());
  }
  /// Looks up a registered dialect type or attribute kind by mnemonic ("kernel.dense").
  const AbstractKind* find_kind(std::string_view mnemonic) const;

  /// Returns the unique storage equal to `eq`, constructing it with `make` on a miss.
  const StorageBase* unique(size_t hash, FunctionRef<bool(const StorageBase*)> eq,
                            FunctionRef<StorageBase*()> make);

  /// Convenience over `unique` for storages with `hash_key(args...)`, `equals(args...)` and a
  /// constructor taking args....
  template <typename Storage, typename... Args>
  const Storage* get_storage(const AbstractKind* kind, const Args&... args) {
    size_t h = hash_combine(reinterpret_cast<size_t>(kind), Storage::hash_key(args...));
    const StorageBase* s = unique(
        h,
        [&](const StorageBase* b) {
          return b->kind == kind && static_cast<const Storage*>(b)->equals(args...);
        },
        [&]() -> StorageBase* {
          auto* st = new Storage(args...);
          st->kind = kind;
          return st;
        });
    return static_cast<const Storage*>(s);
  }
  size_t num_uniqued() const;

  // Ops ---------------------------------------------------------------------------------------
  OpInfo* register_op(std::unique_ptr<OpInfo> info);
  /// Returns the op named `name` or nullptr.
  OpInfo* find_op(std::string_view name) const;
  /// Like find_op but throws kNotFound naming the op.
  OpInfo* op_info(std::string_view name) const;
  /// All registered ops, sorted by name.
  std::vector<OpInfo*> ops() const;

 private:
  Dialect* add_dialect(std::unique_ptr<Dialect> d);

  mutable std::shared_mutex registry_mu_;
  std::vector<std::unique_ptr<Dialect>> dialects_;
  std::vector<std::unique_ptr<AbstractKind>> kinds_;
  std::unordered_map<const void*, const AbstractKind*> kinds_by_id_;
  std::map<std::string, const AbstractKind*, std::less<>> kinds_by_name_;
  std::map<std::string, std::unique_ptr<OpInfo>, std::less<>> ops_;

  mutable std::mutex storage_mu_;
  std::unordered_multimap<size_t, StorageBase*> storages_;
  std::vector<std::unique_ptr<StorageBase>> owned_;
};

}  // namespace skiff::ir
