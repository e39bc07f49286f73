// Infer-meta functions: output dtype and dims from input metas and attributes, shared by the
// eager op API, IR op building and the executor. Each takes the op name first so errors name
// the op a user called even when several ops share one function. One header per op family.
#pragma once

#include "skiff/ops/meta/attention_meta.h"
#include "skiff/ops/meta/complex_meta.h"
#include "skiff/ops/meta/conv_meta.h"
#include "skiff/ops/meta/creation_meta.h"
#include "skiff/ops/meta/elementwise_meta.h"
#include "skiff/ops/meta/fft_meta.h"
#include "skiff/ops/meta/fused_meta.h"
#include "skiff/ops/meta/lapack_meta.h"
#include "skiff/ops/meta/linalg_meta.h"
#include "skiff/ops/meta/manipulation_meta.h"
#include "skiff/ops/meta/math_functions_meta.h"
#include "skiff/ops/meta/nn_meta.h"
#include "skiff/ops/meta/optimizer_meta.h"
#include "skiff/ops/meta/quant_meta.h"
#include "skiff/ops/meta/reduction_meta.h"
#include "skiff/ops/meta/statistics_meta.h"
#include "skiff/ops/meta/unary_meta.h"
#include "skiff/ops/meta/vision_meta.h"
