// Fusion rules written with DRR, and the passes that apply them:
//   fuse-linear    matmul(x, w) + b                                  -> op.linear(x, w, b)
//   fuse-rms-norm  x * rsqrt(mean(x * x, [-1], keepdim) + eps) * w   -> op.rms_norm(x, w, eps)
//   fuse-swiglu    silu(a) * b                                       -> op.swiglu(a, b)
//   fuse-rotary    x * cos + rotate_half(x) * sin                    -> op.rotary_embedding
//                  (rotate_half(x) = concat([-x2, x1], -1) with x1, x2 = split(x, 2, -1))
//   fusion         all of them (opt level 2)
#pragma once

#include <memory>

namespace skiff::ir {

class IrContext;
class RewritePatternSet;
class PassRegistry;

void add_linear_fusion(RewritePatternSet& patterns);
void add_rms_norm_fusion(RewritePatternSet& patterns);
void add_swiglu_fusion(RewritePatternSet& patterns);
void add_rotary_fusion(RewritePatternSet& patterns);
void add_all_fusions(RewritePatternSet& patterns);

void register_fusion_passes(PassRegistry& registry);

}  // namespace skiff::ir
