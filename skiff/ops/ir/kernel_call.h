// What a lowered kernel.call runs, resolved once from the IR (the static-graph executor builds
// its op instructions from it): the op's record, the kernel function for the call's key and
// place, the attributes unboxed into the op's typed call (skiff/ops/resolved_kernel.h), and the
// results' metas taken from their types, so a run re-infers only where a dim is dynamic.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "skiff/core/place.h"
#include "skiff/ir/core/operation.h"
#include "skiff/ir/dialects/kernel.h"
#include "skiff/ops/resolved_kernel.h"

namespace skiff::ops::ir_bridge {

/// The device place of an IR place ("cpu", "npu:0").
Place to_place(const ir::Place& place);

struct ResolvedCall {
  const OpSchema* schema = nullptr;
  std::map<std::string, AttrValue> attrs;  // the record's attributes, boxed
  Backend backend{};                       // the key's
  DType dtype{};                           // the key's
  Place place;                             // where the results live (their placed types)
  /// Null when the op must run as the boxed dense op: an in-place-only op, or no kernel is
  /// registered for the key (a device's CPU fallback chooses one per call).
  std::unique_ptr<const ResolvedKernel> kernel;
  OutputMetas metas;     // per result, from its type
  bool dynamic = false;  // some result dim is known only at run time
};

/// Resolves a kernel.call; an op without a record is Unimplemented.
ResolvedCall resolve_call(ir::KernelCallOp call);

}  // namespace skiff::ops::ir_bridge
