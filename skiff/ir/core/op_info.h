// OpInfo: the registered definition of one op kind. It holds the verifier, the schema of
// generated ops, sorted trait ids and interface tables. Traits and interfaces may be attached after
// registration, from another library (the ops layer attaches InferMeta, dist attaches SPMD rules),
// so no dialect has to depend on the code that gives its ops behaviour.
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "skiff/ir/core/type_id.h"

namespace skiff::ir {

class Operation;
class Dialect;
class IrContext;
class RewritePatternSet;
struct OpSchema;

struct OpInfo {
  std::string name;  // "dialect.op"
  TypeId id;
  Dialect* dialect = nullptr;
  IrContext* ctx = nullptr;
  void (*verify)(Operation*) = nullptr;
  const OpSchema* schema = nullptr;  // generated ops only
  std::vector<TypeId> traits;        // sorted
  std::vector<std::string_view> trait_names;
  std::vector<void (*)(Operation*)> trait_verifiers;
  std::vector<std::pair<TypeId, std::shared_ptr<const void>>> interfaces;  // sorted by id
  std::vector<std::function<void(RewritePatternSet&)>> canonicalizers;

  std::string_view short_name() const { return std::string_view(name).substr(name.find('.') + 1); }

  template <typename Trait>
  bool has_trait() const {
    return std::binary_search(traits.begin(), traits.end(), type_id<Trait>());
  }
  /// Adds a trait; a trait with `static void verify(Operation*)` also verifies every op.
  template <typename Trait>
  void add_trait() {
    TypeId id = type_id<Trait>();
    auto it = std::lower_bound(traits.begin(), traits.end(), id);
    if (it != traits.end() && *it == id) return;
    traits.insert(it, id);
    trait_names.push_back(Trait::kName);
    if constexpr (requires(Operation * op) { Trait::verify(op); }) {
      trait_verifiers.push_back(&Trait::verify);
    }
  }
  template <typename... Traits>
  void add_traits() {
    (add_trait<Traits>(), ...);
  }

  template <typename I>
  const typename I::Concept* interface() const {
    TypeId id = type_id<I>();
    auto it = std::lower_bound(interfaces.begin(), interfaces.end(), id,
                               [](const auto& e, TypeId k) { return e.first < k; });
    if (it == interfaces.end() || !(it->first == id)) return nullptr;
    return static_cast<const typename I::Concept*>(it->second.get());
  }
  /// Attaches (or replaces) the implementation of interface I.
  template <typename I>
  void attach_interface(typename I::Concept impl) {
    TypeId id = type_id<I>();
    auto p = std::make_shared<const typename I::Concept>(std::move(impl));
    auto it = std::lower_bound(interfaces.begin(), interfaces.end(), id,
                               [](const auto& e, TypeId k) { return e.first < k; });
    if (it != interfaces.end() && it->first == id) {
      it->second = std::move(p);
      return;
    }
    interfaces.insert(it, {id, std::move(p)});
  }
};

/// Base of typed interface views: an op plus its interface table.
template <typename Concrete, typename ConceptT>
class OpInterface {
 public:
  using Concept = ConceptT;
  OpInterface() = default;
  OpInterface(Operation* op, const Concept* impl) : op_(op), impl_(impl) {}
  explicit operator bool() const { return impl_ != nullptr; }
  Operation* operation() const { return op_; }
  const Concept* impl() const { return impl_; }

 protected:
  Operation* op_ = nullptr;
  const Concept* impl_ = nullptr;
};

}  // namespace skiff::ir
