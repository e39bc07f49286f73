"""paddle.inference: serving a model saved by paddle.jit.save or paddle.static.save_inference_model
through Skiff's C++ predictor (include/skiff/inference.h), with Paddle Inference's Python names.

    import paddle.inference as paddle_infer
    config = paddle_infer.Config("model.pdmodel", "model.pdiparams")
    predictor = paddle_infer.create_predictor(config)
    x = predictor.get_input_handle(predictor.get_input_names()[0])
    x.copy_from_cpu(np.ones([1, 4], "float32"))       # takes the array's shape
    predictor.run()
    y = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()
    outs = predictor.run([paddle.to_tensor(...)])      # Paddle 3's list-of-tensors form

The predictor runs CPU kernels: enable_use_gpu, enable_xpu, enable_tensorrt_engine and
enable_onnxruntime log a warning and leave the config on the CPU (use_gpu() is False), as a Paddle
build without those devices does. oneDNN is always Skiff's CPU kernel library, so enable_mkldnn()
only keeps its fusion passes, which are on by default; disable_mkldnn() drops them.
enable_mkldnn_bfloat16() converts the model at load (matmul, linear and conv2d in bfloat16, as
paddle.amp.auto_cast O1 would; inputs and outputs stay float32); convert_to_mixed_precision
writes such a converted copy of the files once. enable_mkldnn_int8() runs the linears as LLM.int8
(int8 weights quantized at load, activations quantized per row at run time, int8 GEMMs through
oneDNN); enable_weight_only_int8() quantizes the weights only.
"""
from .. import _C

_inf = _C.inference

Config = _inf.Config
Predictor = _inf.Predictor
Tensor = _inf.Tensor
PassBuilder = _inf.PassBuilder
PrecisionType = _inf.PrecisionType
PlaceType = _inf.PlaceType
DataType = _inf.DataType
create_predictor = _inf.create_predictor
from .mixed_precision import convert_to_mixed_precision  # noqa: E402

__all__ = ["Config", "Predictor", "Tensor", "PredictorPool", "PrecisionType", "PlaceType",
           "DataType", "create_predictor", "get_version", "get_num_bytes_of_data_type",
           "convert_to_mixed_precision"]

_BYTES = {DataType.FLOAT32: 4, DataType.INT64: 8, DataType.INT32: 4, DataType.UINT8: 1,
          DataType.INT8: 1, DataType.FLOAT16: 2, DataType.BOOL: 1, DataType.FLOAT64: 8,
          DataType.BFLOAT16: 2}


def get_version():
    """The library's version and the model format it reads ("skiff 0.1.0, model format 1")."""
    return _inf.get_version()


def get_num_bytes_of_data_type(dtype):
    """Bytes of one element of a paddle.inference.DataType."""
    if not isinstance(dtype, DataType):
        raise TypeError(f"get_num_bytes_of_data_type: argument 'dtype' expected a "
                        f"paddle.inference.DataType, got {type(dtype).__name__}")
    return _BYTES[dtype]


class PredictorPool:
    """Paddle's PredictorPool: `size` predictors for one model, the first made from `config`
    and the others its clones (the weights are loaded once and shared)."""

    def __init__(self, config, size=1):
        if not isinstance(size, int) or isinstance(size, bool) or size < 1:
            raise ValueError(f"(InvalidArgument) PredictorPool: argument 'size' expected an int "
                             f">= 1, got {size!r}")
        first = create_predictor(config)
        self._predictors = [first] + [first.clone() for _ in range(size - 1)]

    def retrive(self, idx):  # Paddle's spelling
        if not isinstance(idx, int) or not 0 <= idx < len(self._predictors):
            raise IndexError(f"(OutOfRange) PredictorPool.retrive: argument 'idx' expected an "
                             f"int in [0, {len(self._predictors)}), got {idx!r}")
        return self._predictors[idx]

    retrieve = retrive
