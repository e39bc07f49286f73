"""SyncBatchNorm (Paddle's paddle.nn.SyncBatchNorm): batch normalisation whose training-time
statistics cover the whole global batch of the default process group.

Each rank sums x and x^2 per channel and counts its elements; one all_reduce of that vector
gives the global mean and (biased) variance used to normalise, and the running statistics
get the unbiased global variance as BatchNorm's do. The all_reduce is a PyLayer whose
backward all-reduces the gradient, which is exactly the cross-rank term of sync BN's
backward. On one process (or in eval) it is BatchNorm. convert_sync_batchnorm swaps the
BatchNorm layers of a model for SyncBatchNorm sharing their parameters."""
from ... import _C
from ...autograd.py_layer import PyLayer
from .norm import BatchNorm, BatchNorm1D, BatchNorm2D, BatchNorm3D, _BatchNormBase

__all__ = ["SyncBatchNorm"]

_ops = _C.ops


class _AllReduceSum(PyLayer):
    @staticmethod
    def forward(ctx, x):
        from ... import distributed as dist
        y = _ops.assign(x)
        dist.all_reduce(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        from ... import distributed as dist
        g = _ops.assign(grad)
        dist.all_reduce(g)
        return g


class SyncBatchNorm(_BatchNormBase):
    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCHW", name=None):
        if data_format not in ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
            raise ValueError(f"(InvalidArgument) SyncBatchNorm: argument 'data_format' expected "
                             f"a channels-first or channels-last format, got {data_format!r}")
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format)

    def forward(self, input):
        from ... import distributed as dist
        if not self.training or not dist.is_initialized() or dist.get_world_size() <= 1:
            return super().forward(input)
        rank = len(input.shape)
        if rank < 2:
            raise ValueError(f"(InvalidArgument) SyncBatchNorm: argument 'input' expected at "
                             f"least 2 dims, got shape {list(input.shape)}")
        channel = rank - 1 if self._data_format[-1] == "C" and rank > 2 else 1
        if input.shape[channel] != self._num_features:
            raise ValueError(f"(InvalidArgument) SyncBatchNorm: input's channel dim "
                             f"{input.shape[channel]} expected num_features "
                             f"{self._num_features}")
        axes = [a for a in range(rank) if a != channel]
        count = input.size // self._num_features
        local = _ops.concat([_ops.sum(input, axes, None, False),
                             _ops.sum(_ops.square(input), axes, None, False),
                             _ops.full([1], float(count), input.dtype)], 0)
        total = _AllReduceSum.apply(local)
        c = self._num_features
        n = float(total.numpy()[-1])
        mean = _ops.scale(_ops.slice(total, [0], [0], [c]), 1.0 / n, 0.0, True)
        var = _ops.subtract(_ops.scale(_ops.slice(total, [0], [c], [2 * c]), 1.0 / n, 0.0, True),
                            _ops.square(mean))
        shape = [1] * rank
        shape[channel] = c
        inv = _ops.rsqrt(_ops.scale(var, 1.0, float(self._epsilon), True))
        out = _ops.multiply(_ops.subtract(input, _ops.reshape(mean, shape)),
                            _ops.reshape(inv, shape))
        if self.weight is not None:
            out = _ops.multiply(out, _ops.reshape(self.weight, shape))
        if self.bias is not None:
            out = _ops.add(out, _ops.reshape(self.bias, shape))
        self._update_running(mean.detach(), var.detach(), n)
        return out

    def _update_running(self, mean, var, n):
        from ...tensor.creation import assign
        from ...autograd import no_grad
        m = self._momentum
        with no_grad():
            unbiased = _ops.scale(var, n / max(n - 1.0, 1.0), 0.0, True)
            assign(_ops.add(_ops.scale(self._mean, m, 0.0, True),
                            _ops.scale(_ops.cast(mean, self._mean.dtype), 1.0 - m, 0.0, True)),
                   self._mean)
            assign(_ops.add(_ops.scale(self._variance, m, 0.0, True),
                            _ops.scale(_ops.cast(unbiased, self._variance.dtype), 1.0 - m, 0.0,
                                       True)), self._variance)

    @classmethod
    def convert_sync_batchnorm(cls, layer):
        """The model with every BatchNorm/BatchNorm1D/2D/3D replaced by a SyncBatchNorm that
        holds the same parameters and running statistics."""
        out = layer
        if isinstance(layer, (BatchNorm, BatchNorm1D, BatchNorm2D, BatchNorm3D)):
            fmt = layer._data_format
            if fmt in ("NC", "NCL"):
                fmt = "NCHW"
            out = cls(layer._num_features, layer._momentum, layer._epsilon, data_format=fmt)
            for name in ("weight", "bias", "_mean", "_variance"):
                out._parameters[name] = layer._parameters.get(name)
        for name, sub in list(layer._sub_layers.items()):
            if sub is not None:
                out._sub_layers[name] = cls.convert_sync_batchnorm(sub)
        return out
