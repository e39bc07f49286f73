"""The vocabulary the op records are checked against: dtypes, argument types, backends, traits,
AMP classes, Python variants and the declared SPMD rule names."""
import os

import yaml

DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
          "float64", "complex64", "complex128"]
DTYPE_ENUM = {"bool": "kBool", "int8": "kInt8", "uint8": "kUInt8", "int16": "kInt16",
              "int32": "kInt32", "int64": "kInt64", "float16": "kFloat16",
              "bfloat16": "kBFloat16", "float32": "kFloat32", "float64": "kFloat64",
              "complex64": "kComplex64", "complex128": "kComplex128"}
CPP_TYPE = {"bool": "bool", "int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t",
            "int32": "int32_t", "int64": "int64_t", "float16": "float16",
            "bfloat16": "bfloat16", "float32": "float", "float64": "double",
            "complex64": "complex64", "complex128": "complex128"}
DTYPE_GROUPS = {
    "float": ["float32", "float64", "bfloat16", "float16"],
    "int": ["int8", "uint8", "int16", "int32", "int64"],
    "signed": ["int8", "int16", "int32", "int64"],
    "index": ["int32", "int64"],
    # Not part of numeric/all: an op takes complex only where its record says so.
    "complex": ["complex64", "complex128"],
}
DTYPE_GROUPS["numeric"] = DTYPE_GROUPS["int"] + DTYPE_GROUPS["float"]
DTYPE_GROUPS["all"] = ["bool"] + DTYPE_GROUPS["numeric"]
BACKENDS = {"cpu": "kCPU", "reference": "kReference", "cuda": "kCUDA"}

# Arg type -> (ArgKind, API parameter type, struct member type, meta parameter type)
ARG_TYPES = {
    "Tensor": ("kTensor", None, None, "const TensorMeta&"),
    "Tensor[]": ("kTensorList", None, None, "std::span<const TensorMeta>"),
    "Tensor?": ("kOptionalTensor", None, None, "const TensorMeta*"),
    "bool": ("kBool", "bool", "bool", "bool"),
    "int": ("kInt", "int64_t", "int64_t", "int64_t"),
    "int64_t": ("kInt", "int64_t", "int64_t", "int64_t"),
    "float": ("kFloat", "float", "float", "float"),
    "double": ("kDouble", "double", "double", "double"),
    "str": ("kString", "const std::string&", "const std::string&", "const std::string&"),
    "int[]": ("kIntArray", "const std::vector<int64_t>&", "const std::vector<int64_t>&",
              "const std::vector<int64_t>&"),
    "int64_t[]": ("kIntArray", "const std::vector<int64_t>&", "const std::vector<int64_t>&",
                  "const std::vector<int64_t>&"),
    "float[]": ("kFloatArray", "const std::vector<double>&", "const std::vector<double>&",
                "const std::vector<double>&"),
    "Scalar": ("kScalar", "const Scalar&", "const Scalar&", "const Scalar&"),
    "DataType": ("kDType", "DType", "DType", "DType"),
    "Place": ("kPlace", "const Place&", "const Place&", "const Place&"),
}
VALUE_TYPE = {"kBool": "bool", "kInt": "int64_t", "kFloat": "double", "kDouble": "double",
              "kString": "std::string", "kIntArray": "std::vector<int64_t>",
              "kFloatArray": "std::vector<double>", "kScalar": "Scalar", "kDType": "DType",
              "kPlace": "Place"}

# `traits`: what the IR (and later the compiler) may assume of the op. Each maps to an IR trait
# class (skiff/ir/core/op_base.h).
TRAITS = {
    "pure": "PureTrait",                        # no side effect: DCE/CSE may drop or merge it
    "commutative": "CommutativeTrait",          # f(x, y) == f(y, x) (DRR matches both orders)
    "elementwise": "ElementwiseTrait",          # out[i] depends on the inputs' element i only
    "idempotent": "IdempotentTrait",            # f(f(x)) == f(x) (canonicalize drops the outer)
    "same_shape": "SameOperandsAndResultShapeTrait",  # verified by the IR
    "constant_like": "ConstantLikeTrait",       # its value is known from its attributes (fold)
}

# `amp`: Paddle's auto-mixed-precision class of the op (python/paddle/amp/amp_lists.py):
# white: run in the low-precision dtype; black: run in float32; promote: the widest input dtype.
AMP_CLASSES = ("white", "black", "promote")
AMP_DTYPES = ("float16", "bfloat16")

# `variants`: what the Python front end exposes: paddle.<op> (function), Tensor.<op> (method),
# paddle.<op>_ / Tensor.<op>_ (inplace, needs the record's `inplace` pairs).
VARIANTS = ("function", "method", "inplace")

_HERE = os.path.dirname(os.path.abspath(__file__))
SPMD_RULES_FILE = os.path.join(_HERE, "..", "..", "skiff", "ops", "spmd_rules.yaml")


def spmd_rules(path=SPMD_RULES_FILE):
    """The declared SPMD rule names, each a function `skiff::dist::spmd::<name>` in
    skiff/dist/spmd/rules.h (tests/python/test_spmd_rules_list.py keeps the two in step)."""
    with open(path) as f:
        data = yaml.safe_load(f) or {}
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        raise ValueError(f"{path}: 'rules' must map rule names to descriptions")
    return set(rules)
