#include "skiff/ir/core/verifier.h"

#include <vector>

#include "skiff/base/error.h"
#include "skiff/ir/core/asm.h"
#include "skiff/ir/core/interfaces.h"
#include "skiff/ir/core/op_base.h"

namespace skiff::ir {

// Note [Types agree with infer-meta]
// A program states every result type, and a parsed or hand-built program can state types its
// ops cannot produce (matmul of 2x3 by 4x5, relu declared i64). The executor trusts the types
// (it plans buffers from them), so the verifier reruns each op's infer-meta on its operand types
// and attributes: an error there names the op and the operand, and a result whose declared type
// disagrees with the inferred one is rejected. Dims agree when equal or when either is dynamic
// (`?`): capture widens types to dynamic dims where control flow merges shapes, and a program may
// state a dim the rule could only infer as dynamic. Layouts are not compared.
namespace {

/// `read` applied to a type and, for a vec, to its elements.
Type read_type(IrContext* ctx, Type t, TypeReader read) {
  if (!t || !read) return t;
  if (auto v = t.dyn_cast<VectorType>()) {
    std::vector<Type> elems;
    for (Type e : v.elements()) elems.push_back(read_type(ctx, e, read));
    return VectorType::get(ctx, elems);
  }
  return read(t);
}

/// A builtin tensor, or a vec of them: the types infer-meta reads without a TypeReader.
bool is_tensor_like(Type t) {
  if (!t || t.isa<TensorType>()) return true;
  auto v = t.dyn_cast<VectorType>();
  if (!v) return false;
  for (Type e : v.elements()) {
    if (!is_tensor_like(e)) return false;
  }
  return true;
}

bool agrees(Type inferred, Type declared) {
  if (inferred == declared) return true;
  auto a = inferred.dyn_cast<TensorType>();
  auto b = declared.dyn_cast<TensorType>();
  if (a && b) {
    if (a.dtype() != b.dtype() || a.rank() != b.rank()) return false;
    for (int64_t i = 0; i < a.rank(); ++i) {
      int64_t x = a.shape()[i], y = b.shape()[i];
      if (x != y && x != kDynamic && y != kDynamic) return false;
    }
    return true;
  }
  auto va = inferred.dyn_cast<VectorType>();
  auto vb = declared.dyn_cast<VectorType>();
  if (!va || !vb || va.size() != vb.size()) return false;
  for (size_t i = 0; i < va.size(); ++i) {
    if (!agrees(va.elements()[i], vb.elements()[i])) return false;
  }
  return true;
}

std::string type_list(std::span<const Type> types) {
  std::string s;
  for (size_t i = 0; i < types.size(); ++i) {
    s += (i ? ", " : "") + (types[i] ? to_string(types[i]) : std::string("none"));
  }
  return s;
}

}  // namespace

void verify_against_infer_meta(Operation* op, const OpInfo* rule, TypeReader read) {
  const InferMetaConcept* im = rule ? rule->interface<InferMetaInterface>() : nullptr;
  if (!im || !im->infer) return;
  IrContext* ctx = op->context();
  std::vector<Type> in;
  for (uint32_t i = 0; i < op->num_operands(); ++i) {
    in.push_back(op->operand(i) ? read_type(ctx, op->operand(i).type(), read) : Type());
  }
  // Other dialects' types (a lowered op.data's placed result) are checked by their dialect.
  for (Type t : in) {
    if (!is_tensor_like(t)) return;
  }
  for (uint32_t i = 0; i < op->num_results(); ++i) {
    if (!is_tensor_like(read_type(ctx, op->result_type(i), read))) return;
  }
  std::string who = op->describe();
  if (rule != op->info()) who += str(" (", rule->name, ")");
  std::vector<Type> out;
  try {
    out = im->infer(ctx, in, op->attrs());
  } catch (const Error& e) {
    // infer-meta names its argument (the operand); the op and its location come first.
    ErrorInfo info = e.info();
    info.hint = str("operand types (", type_list(in), ")");
    info.op = str(who, ": ", info.op);
    throw Error(std::move(info));
  }
  SKIFF_ENFORCE(out.size() == op->num_results(), kInvalidArgument, who, "results",
                str(out.size(), " results (infer-meta)"), op->num_results());
  for (uint32_t i = 0; i < op->num_results(); ++i) {
    Type declared = read_type(ctx, op->result_type(i), read);
    SKIFF_ENFORCE(agrees(out[i], declared), kTypeError, who, str("result #", i),
                  str(to_string(out[i]), " (infer-meta of ", type_list(in), ")"),
                  to_string(declared));
  }
}

namespace {

class Verifier {
 public:
  explicit Verifier(Operation* root) : root_(root) {}
  // Clears the marks even when verification throws half way.
  ~Verifier() {
    for (detail::ValueImpl* v : scope_) v->visible = 0;
  }

  void verify_op(Operation* op) {
    for (uint32_t i = 0; i < op->num_operands(); ++i) {
      Value v = op->operand(i);
      if (!v || v.impl()->visible || defined_outside_root(v)) continue;
      SKIFF_THROW(kInvalidArgument, op->describe(), str("operand #", i),
                  "a value that dominates its use (defined earlier in the block or in an "
                  "enclosing block)",
                  "a value defined later or inside another region");
    }
    for (uint32_t i = 0; i < op->num_results(); ++i) {
      SKIFF_ENFORCE(op->result_type(i), kInvalidArgument, op->describe(), str("result #", i),
                    "a type", "none");
    }
    // Terminator placement first: op verifiers look at the last op of their blocks.
    for (uint32_t r = 0; r < op->num_regions(); ++r) {
      for (Block* b : op->region(r)) {
        for (Operation* inner : *b) {
          if (inner->has_trait<TerminatorTrait>() && inner != b->back()) {
            SKIFF_THROW(kInvalidArgument, inner->describe(), "position",
                        "a terminator at the end of its block", "ops after it");
          }
        }
      }
    }
    if (op->info()->verify) op->info()->verify(op);
    for (auto* tv : op->info()->trait_verifiers) tv(op);
    verify_against_infer_meta(op, op->info());
    for (uint32_t r = 0; r < op->num_regions(); ++r) {
      for (Block* b : op->region(r)) verify_block(op, b);
    }
  }

 private:
  void verify_block(Operation* parent, Block* b) {
    size_t mark = scope_.size();
    for (uint32_t i = 0; i < b->num_args(); ++i) add(b->arg(i));
    for (Operation* op : *b) {
      SKIFF_ENFORCE(op->parent_block() == b, kInternal, op->describe(), "parent", "its block",
                    "another block");
      if (op->has_trait<TerminatorTrait>() && op != b->back()) {
        SKIFF_THROW(kInvalidArgument, op->describe(), "position",
                    "a terminator at the end of its block", "ops after it");
      }
      verify_op(op);
      for (uint32_t i = 0; i < op->num_results(); ++i) add(op->result(i));
    }
    if (!parent->has_trait<NoTerminatorTrait>() && !b->terminator()) {
      SKIFF_THROW(kInvalidArgument, parent->describe(), "region",
                  "every block to end with a terminator (e.g. cf.yield)",
                  b->empty() ? std::string("an empty block") : str("'", b->back()->name(), "'"));
    }
    while (scope_.size() > mark) {
      scope_.back()->visible = 0;
      scope_.pop_back();
    }
  }

  void add(Value v) {
    v.impl()->visible = 1;
    scope_.push_back(v.impl());
  }

  bool defined_outside_root(Value v) const {
    Block* b = v.parent_block();
    Operation* owner = b ? b->parent_op() : nullptr;
    if (v.defining_op() == root_) return false;
    return !owner || !owner->is_inside(root_);
  }

  Operation* root_;
  // Values in scope carry ValueImpl::visible = 1 (so one program is verified by one thread at a
  // time); scope_ lists them to unmark on leaving a block.
  std::vector<detail::ValueImpl*> scope_;
};

}  // namespace

void verify(Operation* op) { Verifier(op).verify_op(op); }

}  // namespace skiff::ir
