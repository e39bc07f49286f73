"""paddle.static: Programs built by running ops on symbolic tensors (the capture machinery of
skiff/runtime/jit), run by the Executor. See docs/ARCHITECTURE.md "Static graph".

    paddle.enable_static()
    main, startup = static.Program(), static.Program()
    with static.program_guard(main, startup):
        x = static.data("x", [None, 4], "float32")
        loss = paddle.mean(nn.Linear(4, 1)(x) ** 2)
        paddle.optimizer.SGD(0.1).minimize(loss)
    exe = static.Executor()
    exe.run(startup)                               # initializes the parameters
    loss_value, = exe.run(main, feed={"x": xs}, fetch_list=[loss])
"""
from . import nn  # noqa: F401
from .backward import append_backward, gradients  # noqa: F401
from .executor import (BuildStrategy, CompiledProgram, ExecutionStrategy, Executor,  # noqa: F401
                       Scope, global_scope, scope_guard)
from .input import InputSpec, data  # noqa: F401
from .io import (load, load_inference_model, load_program_state, save,  # noqa: F401
                 save_inference_model, set_program_state)
from .metric import accuracy, auc  # noqa: F401
from .name_scope import name_scope  # noqa: F401
from .print_op import Print  # noqa: F401
from .persistent import create_global_var  # noqa: F401
from ..nn.parameter import create_parameter  # noqa: F401
from ..nn.param_attr import WeightNormParamAttr  # noqa: F401
from .program import (Block, Program, default_main_program, default_startup_program,  # noqa: F401
                      program_guard)


from ..framework import Tensor as Variable  # noqa: F401,E402 (variables are symbolic Tensors)


def cpu_places(device_count=None):
    from .. import CPUPlace
    return [CPUPlace()] * (device_count or 1)


def cuda_places(device_ids=None):
    """CUDAPlace(i) for each id (default: every GPU); Paddle asserts a CUDA build first, and so
    does this CPU build of Skiff."""
    from .. import CUDAPlace, is_compiled_with_cuda
    assert is_compiled_with_cuda(), "Not compiled with CUDA"
    if device_ids is None:
        device_ids = [0]  # a CUDA build of Skiff drives one GPU per process
    elif not isinstance(device_ids, (list, tuple)):
        device_ids = [device_ids]
    return [CUDAPlace(i) for i in device_ids]
