"""Every paddle.incubate.nn.functional fused function refuses a non-Tensor argument with
Paddle's (InvalidType) message naming the function and the argument (never an AttributeError)."""
import pytest

import skiff as paddle
import skiff.incubate.nn.functional as IF

X = paddle.ones([2, 4])
Q = paddle.ones([1, 2, 2, 4])

CASES = [
    ("fused_rms_norm", "x", lambda: IF.fused_rms_norm([1.0], None, None, 1e-5, 1), "list"),
    ("fused_rms_norm", "norm_weight", lambda: IF.fused_rms_norm(X, 1.0, None, 1e-5, 1), "float"),
    ("fused_layer_norm", "x", lambda: IF.fused_layer_norm("a", None, None, 1e-5), "str"),
    ("fused_layer_norm", "residual",
     lambda: IF.fused_layer_norm(X, None, None, 1e-5, residual=3), "int"),
    ("fused_dropout_add", "x", lambda: IF.fused_dropout_add("a", X), "str"),
    ("fused_dropout_add", "y", lambda: IF.fused_dropout_add(X, [1.0]), "list"),
    ("fused_bias_act", "x", lambda: IF.fused_bias_act("a"), "str"),
    ("fused_bias_act", "bias", lambda: IF.fused_bias_act(X, bias=(1,)), "tuple"),
    ("fused_rotary_position_embedding", "q", lambda: IF.fused_rotary_position_embedding("a"),
     "str"),
    ("fused_rotary_position_embedding", "k",
     lambda: IF.fused_rotary_position_embedding(Q, k="b"), "str"),
    ("fused_rotary_position_embedding", "sin",
     lambda: IF.fused_rotary_position_embedding(Q, sin=3, cos=3), "int"),
    ("fused_rotary_position_embedding", "position_ids",
     lambda: IF.fused_rotary_position_embedding(Q, position_ids=[[0, 1]]), "list"),
]


@pytest.mark.parametrize("op, arg, call, got", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_non_tensor_argument_is_invalid_type(op, arg, call, got):
    with pytest.raises(TypeError) as e:
        call()
    assert str(e.value) == f"(InvalidType) {op}: argument '{arg}' expected a Tensor, got {got}"
