"""Builds paddle_api.json (next to this file) from Paddle's public names and signatures.

The `__all__` lists below and the signatures in signatures_*.txt were transcribed from Paddle's
source as stored by the search tool (the file and commit of each are recorded); nothing is added
that was not read there. To extend the data, read another file of Paddle's source, add its
`name: params | keyword-only params` lines under a `# path @ commit` comment, and run

    python3 tests/python/paddle_api/build_paddle_api.py
    PYTHONPATH=python python3 tools/api_coverage.py
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

SOURCES = {
  "paddle.Tensor": ("PaddlePaddle/Paddle", "python/paddle/tensor/__init__.py (tensor_method_func)", None,
             "2.6-era (cauchy_/geometric_/pca_lowrank present): the newest version of this list found; index id 2518580074, commit not reported"),
  "paddle": ("PaddlePaddle/Paddle", "python/paddle/__init__.py", None,
             "3.0-era (PIR default, cauchy_/geometric_/gammainc present); index id 485733350, commit not reported"),
  "paddle.linalg": ("PaddlePaddle/Paddle", "python/paddle/linalg.py", "00c3d4d8e19b0b256bba0b1ac37cd1b0595ea0f3", "3.x"),
  "paddle.fft": ("PaddlePaddle/Paddle", "python/paddle/fft.py", "02a5e4e062d7cdb7e87c62d284b61a9504bf8ee1", "3.x"),
  "paddle.nn.functional": ("cy-suite/paddlepaddle-new (mirror of PaddlePaddle/Paddle)", "python/paddle/nn/functional/__init__.py",
             "02d73b0a00cfb22ae35e8a82e559065778eaa342", "3.x"),
  "paddle.nn": ("yangguohao/Paddle (fork of PaddlePaddle/Paddle)", "python/paddle/nn/__init__.py",
             "40bf8c7fd24f74f60f9c3f6443b367385956e797", "2.3-era: the newest version of this file in the index"),
  "paddle.optimizer": ("PaddlePaddle/Paddle", "python/paddle/optimizer/__init__.py", "a7ff758ee06ed223547277e02617389ef98eb2d2", "3.0-era"),
  "paddle.optimizer.lr": ("PaddlePaddle/Paddle", "python/paddle/optimizer/lr.py", "00816fcb21ade6ad4425774b0e989c8098c6d324", "2.6/3.0-era"),
  "paddle.io": ("Jonathans575/Paddle (fork of PaddlePaddle/Paddle)", "python/paddle/io/__init__.py",
             "4e99d36b05914bd669747aa6a1cbf33c5f20eeef", "2.1-era: the newest version of this file in the index"),
  "paddle.autograd": ("cy-suite/paddlepaddle-new (mirror of PaddlePaddle/Paddle)", "python/paddle/autograd/__init__.py",
             "825eb4df6c265df95ed7824d5946564330efd75d", "3.x develop"),
  "paddle.incubate.autograd": ("PaddlePaddle/Paddle", "python/paddle/incubate/autograd/__init__.py",
             "03256b4483f86a998a254ac4ddfa0985578d9777", "2.3-era: the newest version of this file in the index"),
  "paddle.static": ("PaddlePaddle/Paddle", "python/paddle/static/__init__.py", "002a4334e144df880b77bc246173eb123366a675",
             "2.0-era: the newest version of this file in the index"),
  "paddle.jit": ("PaddlePaddle/Paddle", "python/paddle/jit/__init__.py", "01070766a0d5889c69c20b64775e2909673de644",
             "2.2-era: the newest version of this file in the index"),
}

ALL = {}
ALL["paddle.Tensor"] = """
create_parameter create_tensor matmul dot cov corrcoef norm cond transpose cauchy_ geometric_ lstsq dist t t_ cross
cholesky bmm histogram bincount mv matrix_power qr pca_lowrank eigvals eigvalsh abs acos all any asin atan ceil ceil_
cos cosh cumsum cumsum_ cummax cummin cumprod cumprod_ logcumsumexp logit logit_ exp exp_ expm1 floor floor_ increment
logaddexp log log_ log2 log2_ log10 log10_ logsumexp multiplex pow pow_ prod reciprocal reciprocal_ round round_ rsqrt
rsqrt_ scale scale_ sign sin sinh sqrt sqrt_ square stanh sum nan_to_num nan_to_num_ nansum nanmean count_nonzero tanh
tanh_ add_n max amax maximum min amin minimum fmax fmin mm inner outer divide divide_ floor_divide floor_divide_
remainder remainder_ mod mod_ floor_mod floor_mod_ multiply multiply_ add add_ subtract subtract_ atan logsumexp
inverse log1p log1p_ erf addmm addmm_ clip clip_ trace kron kthvalue isfinite isinf isnan broadcast_shape conj neg neg_
lgamma lgamma_ equal equal_ equal_all greater_equal greater_equal_ greater_than greater_than_ is_empty less_equal
less_equal_ less_than less_than_ logical_and logical_and_ logical_not logical_not_ logical_or logical_or_ logical_xor
logical_xor_ not_equal not_equal_ allclose isclose is_tensor cast cast_ concat expand broadcast_to expand_as flatten
flatten_ gather gather_nd reshape reshape_ reverse scatter scatter_ scatter_nd_add scatter_nd shard_index slice split
vsplit chunk tensordot squeeze squeeze_ stack strided_slice transpose transpose_ cauchy_ geometric_ tan_ unique
unique_consecutive unsqueeze unsqueeze_ unstack flip rot90 unbind roll tile argmax argmin argsort masked_select topk
where where_ index_select nonzero sort index_sample mean std var numel median nanmedian quantile nanquantile is_complex
is_integer rank shape real imag is_floating_point digamma digamma_ diagonal trunc trunc_ frac frac_ bitwise_and
bitwise_and_ bitwise_or bitwise_or_ bitwise_xor bitwise_xor_ bitwise_not bitwise_not_ broadcast_tensors eig uniform_
multi_dot solve cholesky_solve triangular_solve asinh atanh acosh lu lu_unpack cdist as_complex as_real rad2deg deg2rad
gcd gcd_ lcm lcm_ diff mode lerp lerp_ erfinv erfinv_ angle moveaxis repeat_interleave take_along_axis put_along_axis
put_along_axis_ exponential_ heaviside index_add index_add_ index_put index_put_ take bucketize sgn frexp ldexp ldexp_
trapezoid cumulative_trapezoid polar sigmoid sigmoid_ vander nextafter unflatten as_strided view view_as unfold i0 i0_
i0e i1 i1e polygamma polygamma_ normal_
"""
ALL["paddle"] = """
block_diag iinfo finfo dtype uint8 int8 int16 int32 int64 float16 float32 float64 bfloat16 bool complex64 complex128
addmm addmm_ allclose isclose t t_ add subtract diag diagflat diag_embed isnan scatter_nd_add unstack get_default_dtype
save multinomial get_cuda_rng_state get_rng_state rank empty_like eye cumsum cumsum_ cummax cummin cumprod cumprod_
logaddexp logcumsumexp logit logit_ LazyGuard sign is_empty equal equal_ equal_all is_tensor is_complex is_integer cross
where where_ log1p cos cos_ tan tan_ mean mode mv in_dynamic_mode min amin any slice slice_scatter normal normal_ logsumexp
full unsqueeze unsqueeze_ argmax Model summary flops sort searchsorted bucketize split tensor_split hsplit dsplit vsplit
logical_and logical_and_ full_like less_than less_than_ kron clip Tensor crop ParamAttr stanh randint randint_like assign
gather scale zeros rsqrt squeeze squeeze_ to_tensor gather_nd isin isinf isneginf isposinf isreal uniform floor_divide
floor_divide_ remainder remainder_ floor_mod floor_mod_ roll batch max amax logical_or logical_or_ bitwise_and bitwise_and_
bitwise_or bitwise_or_ bitwise_xor bitwise_xor_ bitwise_not bitwise_not_ mm flip rot90 bincount histogram histogramdd
multiplex CUDAPlace empty shape real imag is_floating_point complex reciprocal rand less_equal less_equal_ triu triu_ sin
sin_ dist cdist pdist unbind meshgrid arange load numel median nanmedian quantile nanquantile no_grad enable_grad
set_grad_enabled is_grad_enabled mod mod_ abs abs_ tril tril_ pow pow_ zeros_like maximum topk index_select CPUPlace matmul
seed acos acos_ logical_xor exp expm1 expm1_ bernoulli bernoulli_ binomial poisson standard_gamma sinh sinh_ sinc sinc_
round DataParallel argmin prod broadcast_shape conj neg neg_ lgamma lgamma_ gammaincc gammaincc_ gammainc gammainc_ lerp
erfinv inner outer square square_ divide divide_ gammaln gammaln_ ceil atan atan_ atan2 rad2deg deg2rad gcd gcd_ lcm lcm_
expand broadcast_to ones_like index_sample cast cast_ grad all ones not_equal sum reduce_as nansum nanmean count_nonzero
tile greater_equal greater_equal_ isfinite create_parameter dot increment erf erf_ bmm chunk tolist tensordot greater_than
greater_than_ shard_index argsort tanh tanh_ transpose transpose_ cauchy_ geometric_ randn strided_slice unique
unique_consecutive set_cuda_rng_state set_rng_state set_printoptions std flatten flatten_ asin multiply multiply_
disable_static masked_select var trace enable_static scatter_nd set_default_dtype disable_signal_handler expand_as stack
hstack vstack dstack column_stack row_stack sqrt randperm linspace logspace reshape reshape_ atleast_1d atleast_2d
atleast_3d reverse nonzero CUDAPinnedPlace logical_not logical_not_ add_n minimum scatter scatter_ floor cosh log log_ log2
log2_ log10 log10_ concat check_shape trunc trunc_ frac frac_ digamma digamma_ standard_normal diagonal broadcast_tensors
einsum set_flags get_flags asinh acosh atanh as_complex as_real diff angle fmax fmin moveaxis repeat_interleave clone
kthvalue renorm renorm_ take_along_axis put_along_axis select_scatter multigammaln multigammaln_ nan_to_num nan_to_num_
heaviside tril_indices index_add index_add_ index_put index_put_ sgn triu_indices take frexp ldexp ldexp_ trapezoid
cumulative_trapezoid polar vander unflatten as_strided view view_as unfold nextafter i0 i0_ i0e i1 i1e polygamma
polygamma_ copysign copysign_ bitwise_left_shift bitwise_left_shift_ bitwise_right_shift bitwise_right_shift_ masked_fill
masked_fill_ masked_scatter masked_scatter_ hypot hypot_ index_fill index_fill_ diagonal_scatter combinations signbit
"""
ALL["paddle.linalg"] = """
cholesky norm matrix_norm vector_norm cond cov corrcoef inv eig eigvals multi_dot matrix_rank svd qr householder_product
pca_lowrank svd_lowrank lu lu_unpack matrix_exp matrix_power det slogdet eigh eigvalsh pinv solve cholesky_solve
triangular_solve lstsq fp8_fp8_fp8_dual_gemm_fused ormqr
"""
ALL["paddle.fft"] = """
fft ifft rfft irfft hfft ihfft fft2 ifft2 rfft2 irfft2 hfft2 ihfft2 fftn ifftn rfftn irfftn hfftn ihfftn fftfreq rfftfreq
fftshift ifftshift
"""
ALL["paddle.nn.functional"] = """
celu conv1d conv1d_transpose conv2d conv2d_transpose conv3d conv3d_transpose pairwise_distance elu elu_ gelu hardshrink
hardtanh hardtanh_ hardsigmoid hardswish leaky_relu leaky_relu_ log_sigmoid maxout prelu relu relu_ relu6 selu softmax
softmax_ softplus softshrink softsign sigmoid silu swish mish tanh tanh_ tanhshrink thresholded_relu thresholded_relu_
log_softmax glu gumbel_softmax sequence_mask dropout dropout2d dropout3d alpha_dropout feature_alpha_dropout label_smooth
linear pad zeropad2d unfold interpolate upsample bilinear cosine_similarity avg_pool1d avg_pool2d avg_pool3d lp_pool1d
lp_pool2d max_pool1d max_pool2d max_pool3d max_unpool1d max_unpool2d max_unpool3d adaptive_avg_pool1d adaptive_avg_pool2d
adaptive_avg_pool3d adaptive_max_pool1d adaptive_max_pool2d adaptive_max_pool3d fractional_max_pool2d fractional_max_pool3d
binary_cross_entropy binary_cross_entropy_with_logits cross_entropy dice_loss hsigmoid_loss kl_div l1_loss log_loss
mse_loss margin_ranking_loss multi_label_soft_margin_loss nll_loss poisson_nll_loss npair_loss sigmoid_focal_loss
smooth_l1_loss softmax_with_cross_entropy margin_cross_entropy square_error_cost ctc_loss rnnt_loss hinge_embedding_loss
affine_grid grid_sample local_response_norm pixel_shuffle pixel_unshuffle channel_shuffle embedding gather_tree one_hot
normalize temporal_shift batch_norm layer_norm instance_norm class_center_sample sparse_attention fold
cosine_embedding_loss rrelu triplet_margin_with_distance_loss triplet_margin_loss adaptive_log_softmax_with_loss
multi_margin_loss soft_margin_loss gaussian_nll_loss scaled_dot_product_attention flashmask_attention
flash_attn_qkvpacked flash_attn_varlen_qkvpacked group_norm
"""
ALL["paddle.nn"] = """
BatchNorm CELU GroupNorm LayerNorm SpectralNorm BatchNorm1D BatchNorm2D BatchNorm3D InstanceNorm1D InstanceNorm2D
InstanceNorm3D SyncBatchNorm LocalResponseNorm Embedding Linear Upsample UpsamplingNearest2D UpsamplingBilinear2D Pad1D
Pad2D Pad3D CosineSimilarity Dropout Dropout2D Dropout3D Bilinear AlphaDropout Unfold Fold RNNCellBase SimpleRNNCell
LSTMCell GRUCell RNN BiRNN SimpleRNN LSTM GRU dynamic_decode MultiHeadAttention Maxout Softsign Transformer MSELoss
LogSigmoid BeamSearchDecoder ClipGradByNorm ReLU PairwiseDistance BCEWithLogitsLoss SmoothL1Loss MaxPool3D
AdaptiveMaxPool2D Hardshrink Softplus KLDivLoss AvgPool2D L1Loss LeakyReLU AvgPool1D AdaptiveAvgPool3D AdaptiveMaxPool3D
NLLLoss Conv1D Sequential Hardswish Conv1DTranspose AdaptiveMaxPool1D TransformerEncoder Softmax ParameterList Conv2D
Softshrink Hardtanh TransformerDecoderLayer CrossEntropyLoss GELU SELU Silu Conv2DTranspose CTCLoss ThresholdedReLU
AdaptiveAvgPool2D MaxPool1D Layer TransformerDecoder Conv3D Tanh Conv3DTranspose Flatten AdaptiveAvgPool1D Tanhshrink
HSigmoidLoss PReLU TransformerEncoderLayer AvgPool3D MaxPool2D MarginRankingLoss LayerList ClipGradByValue BCELoss
Hardsigmoid ClipGradByGlobalNorm LogSoftmax Sigmoid Swish Mish PixelShuffle ELU ReLU6 LayerDict ZeroPad2D MaxUnPool1D
MaxUnPool2D MaxUnPool3D HingeEmbeddingLoss TripletMarginDistanceLoss
"""
ALL["paddle.optimizer"] = """
Optimizer Adagrad Adam AdamW Adamax ASGD RAdam RMSProp Adadelta SGD Rprop Momentum NAdam Lamb LBFGS
"""
ALL["paddle.optimizer.lr"] = """
LRScheduler NoamDecay PiecewiseDecay NaturalExpDecay InverseTimeDecay PolynomialDecay LinearWarmup ExponentialDecay
MultiStepDecay StepDecay LambdaDecay ReduceOnPlateau CosineAnnealingDecay MultiplicativeDecay OneCycleLR CyclicLR LinearLR
CosineAnnealingWarmRestarts
"""
ALL["paddle.io"] = """
Dataset IterableDataset TensorDataset ComposeDataset ChainDataset BatchSampler DistributedBatchSampler DataLoader
get_worker_info Sampler SequenceSampler RandomSampler WeightedRandomSampler random_split Subset
"""
ALL["paddle.autograd"] = """
jacobian hessian backward PyLayer PyLayerContext saved_tensors_hooks enter_dual_level exit_dual_level make_dual
unpack_dual dual_level
"""
ALL["paddle.incubate.autograd"] = """
vjp jvp Jacobian Hessian prim2orig enable_prim disable_prim prim_enabled
"""
ALL["paddle.static"] = """
append_backward gradients Executor global_scope scope_guard BuildStrategy CompiledProgram Print py_func ExecutionStrategy
name_scope ParallelExecutor program_guard WeightNormParamAttr default_main_program default_startup_program Program data
InputSpec save load save_inference_model load_inference_model load_program_state set_program_state cpu_places
cuda_places xpu_places Variable auc accuracy
"""
ALL["paddle.jit"] = """
save load TracedLayer to_static ProgramTranslator TranslatedLayer set_code_level set_verbosity not_to_static
hang_a_pre_save_hook delete_a_pre_save_hook clear_pre_save_hooks
"""

# Signatures read in the source (positional-or-keyword parameters in order; defaults as written in
# the source, None where a parameter has no default). Keyword-only parameters that later Paddle
# versions added (out=) are kept apart under "kwonly".
def read_sigs(path):
    """name: params | kwonly  lines, grouped under '# file @ commit' comments."""
    sigs, files, current = {}, [], None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("#"):
            current = line[1:].strip()
            files.append(current)
            continue
        if not line.strip():
            continue
        name, _, rest = line.partition(":")
        sigs[name.strip()] = (rest.strip(), current)
    return sigs, files

SIGS = {}
SIG_FILES = {}
for module, path in (("paddle", os.path.join(HERE, "signatures_paddle.txt")), ("paddle.nn.functional", os.path.join(HERE, "signatures_nn_functional.txt"))):
    SIGS[module], SIG_FILES[module] = read_sigs(path)
SIGS["paddle.fft"] = {n: ("x, n=None, axis=-1, norm='backward', name=None", "python/paddle/fft.py @ 02a5e4e062d7cdb7e87c62d284b61a9504bf8ee1")
                      for n in ("fft", "ifft", "rfft", "irfft", "hfft")}
SIG_FILES["paddle.fft"] = ["python/paddle/fft.py @ 02a5e4e062d7cdb7e87c62d284b61a9504bf8ee1"]
SIGS["paddle.optimizer.lr"] = {
    "LRScheduler": ("learning_rate=0.1, last_epoch=-1, verbose=False", "python/paddle/optimizer/lr.py @ 00816fcb21ade6ad4425774b0e989c8098c6d324"),
    "NoamDecay": ("d_model, warmup_steps, learning_rate=1.0, last_epoch=-1, verbose=False", "python/paddle/optimizer/lr.py @ 00816fcb21ade6ad4425774b0e989c8098c6d324"),
}
SIG_FILES["paddle.optimizer.lr"] = ["python/paddle/optimizer/lr.py @ 00816fcb21ade6ad4425774b0e989c8098c6d324"]
DTYPES = {"uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64", "bfloat16", "bool",
          "complex64", "complex128"}

def parse_params(text):
    out = []
    for p in [s.strip() for s in text.split(",") if s.strip()]:
        if "=" in p:
            k, v = p.split("=", 1)
            out.append([k.strip(), v.strip()])
        else:
            out.append([p, None])
    return out

def kind_of(module, name):
    if module == "paddle.Tensor":
        return "method"
    if module == "paddle" and name in DTYPES:
        return "dtype"
    if name == "dtype":
        return "class"
    return "class" if name[0].isupper() else "function"

data = {"_meta": {
    "what": "Paddle's public API as read from its source with the search tool: per module, the names of __all__;"
            " for the functions and classes whose definitions were read, the parameters in order with the default"
            " as written in the source (null: no default). 'params' absent means the signature was not read yet.",
    "paddle_version": "3.0 (the top-level paddle, linalg, fft, nn.functional, optimizer, lr lists); some modules"
                      " only had an older version in the index, see sources[...].vintage",
    "kind": "method for paddle.Tensor, dtype for paddle.<dtype>, class for CamelCase names (and paddle.dtype), else function",
    "sources": {m: {"repo": r, "path": p, "commit": c, "vintage": v} for m, (r, p, c, v) in SOURCES.items()},
    "signature_sources": {m: {"repo": "PaddlePaddle/Paddle", "files": f} for m, f in SIG_FILES.items()},
    "signature_note": "signatures come from the newest stored version of each file, which can postdate 3.0;"
                      " parameters that such versions added (param aliases, keyword-only out=) are kept apart"
                      " under kwonly when keyword-only",
}}
for module, names in ALL.items():
    entries = {}
    for n in names.split():
        if n in entries:  # Paddle's list names a few methods twice (transpose, atan, ...)
            continue
        e = {"kind": kind_of(module, n)}
        sig = SIGS.get(module, {}).get(n)
        if module == "paddle.Tensor":  # Paddle binds the paddle.tensor function itself as the method
            sig = SIGS["paddle"].get(n)
        if sig is not None:
            pos, _, kw = sig[0].partition("|")
            e["params"] = parse_params(pos)
            if kw.strip():
                e["kwonly"] = parse_params(kw)
        entries[n] = e
    for n in (SIGS.get(module, {}) if module != "paddle.Tensor" else ()):
        assert n in entries, (module, n)
    data[module] = entries
out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "paddle_api.json")
with open(out, "w") as f:
    json.dump(data, f, indent=1, sort_keys=False)
print({m: len(v) for m, v in data.items() if m != "_meta"})
