"""paddle.distributed.shard_layer (Paddle 3.0's dynamic-mode semantics): every sublayer's
parameters and buffers become dist tensors, through shard_fn(name, sublayer, mesh) where given
and replicated on the mesh otherwise; input_fn/output_fn become forward pre/post hooks."""
from ... import _errors
from .api import _is_dist, shard_tensor
from .placement_type import Replicate
from .process_mesh import ProcessMesh

__all__ = ["shard_layer"]


def _replicate_rest(layer, mesh):
    """Replicates the parameters and buffers of `layer` (not its sublayers) that are dense."""
    replicated = [Replicate() for _ in range(mesh.ndim)]
    for key, param in list(layer._parameters.items()):
        if param is not None and not _is_dist(param):
            layer._parameters[key] = shard_tensor(param, mesh, replicated)
    for key, buf in list(layer._buffers.items()):
        if buf is not None and not _is_dist(buf):
            layer._buffers[key] = shard_tensor(buf, mesh, replicated)


def shard_layer(layer, process_mesh, shard_fn=None, input_fn=None, output_fn=None):
    """Converts `layer`'s parameters and buffers to dist tensors on `process_mesh`: shard_fn
    (layer_name, layer, process_mesh) -> None marks some (e.g. layer.weight =
    dist.shard_tensor(layer.weight, mesh, [dist.Shard(1)])); the rest are replicated.
    input_fn(inputs, process_mesh) and output_fn(outputs, process_mesh) run before and after
    forward. Returns `layer`."""
    from ...nn import Layer
    if not isinstance(layer, Layer):
        raise _errors.InvalidType(f"shard_layer: argument 'layer' expected a paddle.nn.Layer, "
                                  f"got {type(layer).__name__}")
    if process_mesh is None:
        raise _errors.InvalidArgument("The argument `process_mesh` cannot be empty.")
    if not isinstance(process_mesh, ProcessMesh):
        raise _errors.InvalidArgument("The argument `process_mesh` is not `dist.ProcessMesh` "
                                      f"type, got {type(process_mesh).__name__}")
    for fn, what in ((shard_fn, "shard_fn"), (input_fn, "input_fn"), (output_fn, "output_fn")):
        if fn is not None and not callable(fn):
            raise _errors.InvalidType(f"shard_layer: argument '{what}' expected a callable or "
                                      f"None, got {type(fn).__name__}")
    for name, sub in layer.named_sublayers(include_self=True):
        if shard_fn is not None:
            shard_fn(name, sub, process_mesh)
        _replicate_rest(sub, process_mesh)
    if input_fn is not None:
        layer.register_forward_pre_hook(lambda _, inputs: input_fn(inputs, process_mesh))
    if output_fn is not None:
        layer.register_forward_post_hook(
            lambda _, inputs, outputs: output_fn(outputs, process_mesh))
    return layer
