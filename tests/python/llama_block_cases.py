"""Rank programs for test_auto_parallel_llama.py: a Llama decoder block (RMSNorm, q/k/v/o
projections with rotary embeddings and causal softmax attention, SwiGLU MLP) written with
ordinary nn layers and tensor ops, trained a few AdamW steps in one process and through
dist.parallelize with Paddle 3.0's plan (ColWiseParallel on q/k/v/gate/up, RowWiseParallel on
o/down) on a dp2 x mp2 mesh; losses, parameters and collective counts per step are checked.
Each exits non-zero with a message on a mismatch."""
import sys

import numpy as np

import skiff as paddle
import skiff.distributed as dist
import skiff.nn as nn
import skiff.nn.functional as F
from dtensor_cases import check

BATCH, SEQ, HIDDEN, HEADS, FFN, STEPS = 4, 8, 16, 4, 32, 3
HEAD_DIM = HIDDEN // HEADS


def rope_tables():
    """cos and sin [SEQ, 1, HEAD_DIM] of the rotary angles (pair (i, i + hd/2) turns by
    t * 10000^(-2i/hd)), broadcast over [batch, seq, heads, head_dim]."""
    inv = 1.0 / (10000.0 ** (np.arange(0, HEAD_DIM, 2) / HEAD_DIM))
    angles = np.outer(np.arange(SEQ), inv)
    emb = np.concatenate([angles, angles], axis=-1).reshape(SEQ, 1, HEAD_DIM)
    return np.cos(emb).astype("float32"), np.sin(emb).astype("float32")


def rotate_half(x):
    half = x.shape[-1] // 2
    return paddle.concat([-x[..., half:], x[..., :half]], axis=-1)


class Attention(nn.Layer):
    def __init__(self):
        super().__init__()
        self.q_proj = nn.Linear(HIDDEN, HIDDEN, bias_attr=False)
        self.k_proj = nn.Linear(HIDDEN, HIDDEN, bias_attr=False)
        self.v_proj = nn.Linear(HIDDEN, HIDDEN, bias_attr=False)
        self.o_proj = nn.Linear(HIDDEN, HIDDEN, bias_attr=False)

    def forward(self, x, cos, sin):
        b, s, _ = x.shape
        q, k, v = (proj(x).reshape([b, s, HEADS, HEAD_DIM])
                   for proj in (self.q_proj, self.k_proj, self.v_proj))
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        q, k, v = (paddle.transpose(t, [0, 2, 1, 3]) for t in (q, k, v))  # [b, heads, s, hd]
        scores = paddle.matmul(q, k, transpose_y=True) * (HEAD_DIM ** -0.5)
        causal = paddle.to_tensor(np.triu(np.full([s, s], -1e9, "float32"), 1))
        probs = F.softmax(scores + causal, axis=-1)
        out = paddle.transpose(paddle.matmul(probs, v), [0, 2, 1, 3]).reshape([b, s, HIDDEN])
        return self.o_proj(out)


class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.gate_proj = nn.Linear(HIDDEN, FFN, bias_attr=False)
        self.up_proj = nn.Linear(HIDDEN, FFN, bias_attr=False)
        self.down_proj = nn.Linear(FFN, HIDDEN, bias_attr=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class DecoderBlock(nn.Layer):
    def __init__(self):
        super().__init__()
        self.input_layernorm = nn.RMSNorm(HIDDEN)
        self.self_attn = Attention()
        self.post_attention_layernorm = nn.RMSNorm(HIDDEN)
        self.mlp = MLP()
        cos, sin = rope_tables()
        self.cos, self.sin = paddle.to_tensor(cos), paddle.to_tensor(sin)

    def forward(self, x):
        x = x + self.self_attn(self.input_layernorm(x), self.cos, self.sin)
        return x + self.mlp(self.post_attention_layernorm(x))


class TinyLlama(nn.Layer):
    """A projection in, one decoder block, the final norm and a head: the layers Paddle's
    Llama plans name (embed_tokens, layers.N, norm, lm_head)."""

    def __init__(self):
        super().__init__()
        self.embed_tokens = nn.Linear(HIDDEN, HIDDEN, bias_attr=False)
        self.layers = nn.LayerList([DecoderBlock()])
        self.norm = nn.RMSNorm(HIDDEN)
        self.lm_head = nn.Linear(HIDDEN, HIDDEN, bias_attr=False)

    def forward(self, x):
        h = self.embed_tokens(x)
        for layer in self.layers:
            h = layer(h)
        return self.lm_head(self.norm(h))


def tp_plan(prefix=""):
    """Paddle 3.0's Llama plan for the block's projections (keys are sublayer names)."""
    col, row = dist.ColWiseParallel, dist.RowWiseParallel
    return {f"{prefix}self_attn.q_proj": col(), f"{prefix}self_attn.k_proj": col(),
            f"{prefix}self_attn.v_proj": col(), f"{prefix}self_attn.o_proj": row(),
            f"{prefix}mlp.gate_proj": col(), f"{prefix}mlp.up_proj": col(),
            f"{prefix}mlp.down_proj": row()}


def tiny_llama_plan(sequence_parallel):
    """TinyLlama's plan as Paddle's auto-parallel Llama writes it, with or without sequence
    parallelism (the residual stream, norms and head input sharded on the sequence dim)."""
    plan = tp_plan(r"layers\.\d+\.")
    plan["lm_head.weight"] = dist.ColWiseParallel()
    if not sequence_parallel:
        plan["embed_tokens"] = dist.ColWiseParallel(gather_output=True)
        return plan
    plan["embed_tokens"] = [dist.ColWiseParallel(), dist.SequenceParallelBegin()]
    plan[r"layers\.\d+\.self_attn"] = dist.SequenceParallelDisable()
    plan[r"layers\.\d+\.mlp"] = dist.SequenceParallelDisable(need_transpose=False)
    plan["lm_head"] = dist.SequenceParallelEnd()
    return plan


def data(step):
    rng = np.random.RandomState(200 + step)
    return (rng.randn(BATCH, SEQ, HIDDEN).astype("float32"),
            rng.randn(BATCH, SEQ, HIDDEN).astype("float32"))


def make_model(cls=DecoderBlock):
    paddle.seed(11)
    return cls()


def loss_of(model, x, y):
    return paddle.mean(paddle.square(paddle.subtract(model(x), y)))


def counts_since(before):
    after = paddle._C.dist.reshard_counts()
    return {k: after[k] - before[k] for k in after}


def train(mesh=None, config=None, forward_counts=None, step_counts=None, cls=DecoderBlock,
          watch=None):
    """Losses per step and final (unsharded) parameters of the model trained in this process
    alone (mesh None) or through dist.parallelize on `mesh` with the batch sharded over "dp".
    watch: a sublayer whose local input sizes are appended to watch["sizes"] per call."""
    model = make_model(cls)
    opt = paddle.optimizer.AdamW(learning_rate=0.01, parameters=model.parameters())
    if mesh is not None:
        model, opt = dist.parallelize(model, opt, mesh, config)
    if watch is not None:
        def record(_, inputs):
            x = inputs[0]
            watch["sizes"].append(list(x._local_value().shape if x.is_dist() else x.shape))
        layer = model
        for part in watch["layer"].split("."):
            layer = layer[int(part)] if part.isdigit() else getattr(layer, part)
        layer.register_forward_pre_hook(record)
    losses = []
    for step in range(STEPS):
        x, y = (paddle.to_tensor(a) for a in data(step))
        if mesh is not None:
            batch = [dist.Shard(0) if n == "dp" else dist.Replicate() for n in mesh.dim_names]
            x, y = dist.shard_tensor(x, mesh, batch), dist.shard_tensor(y, mesh, batch)
        before = paddle._C.dist.reshard_counts()
        loss = loss_of(model, x, y)
        made = counts_since(before)
        check(forward_counts is None or made == forward_counts,
              f"step {step}: forward collectives {made}, expected {forward_counts}")
        loss.backward()
        opt.step()
        opt.clear_grad()
        made = counts_since(before)
        check(step_counts is None or made == step_counts,
              f"step {step}: collectives {made}, expected {step_counts}")
        losses.append(float(loss.numpy()))
    params = {k: (dist.unshard_dtensor(v) if v.is_dist() else v).numpy()
              for k, v in model.state_dict().items()}
    return losses, params


def compare(got, want, what, tol):
    (losses, params), (ref_losses, ref_params) = got, want
    np.testing.assert_allclose(losses, ref_losses, rtol=tol, atol=tol, err_msg=f"{what}: losses")
    check(set(params) == set(ref_params), f"{what}: parameters {sorted(params)}")
    for k in ref_params:
        np.testing.assert_allclose(params[k], ref_params[k], rtol=tol, atol=tol,
                                   err_msg=f"{what}: parameter {k}")


def counts(all_reduce=0, reduce_scatter=0, all_to_all=0, all_gather=0, grad_bucket_all_reduce=0):
    return {"all_reduce": all_reduce, "reduce_scatter": reduce_scatter,
            "all_to_all": all_to_all, "all_gather": all_gather,
            "grad_bucket_all_reduce": grad_bucket_all_reduce}


def llama_dp2_mp2():
    """dp2 x mp2 (mesh [[0, 1], [2, 3]]) against one process within 1e-4.

    Forward: the row-parallel o_proj and down_proj give Partial(mp) outputs, each all-reduced
    once at its residual add (2); nothing else moves (heads stay mp-sharded through reshape,
    RoPE's slice/concat, transpose, the batched matmuls and softmax; the norms see whole rows).
    Backward: post_attention_layernorm's input gradient is Partial(mp) (gate and up contract
    the sharded FFN dim) and is all-reduced where it meets the residual's (1); the input needs
    no gradient, so input_layernorm's is never formed; each norm weight's gradient, Partial
    over mp and dp, has its mp reduction made by the norm's gradient rule (1 each). The leaves'
    gradients, all Partial(dp), are reduced together after backward: one bucket all-reduce for
    the seven projection weights and the two norm weights."""
    dist.init_parallel_env()
    ref = train()
    mesh = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["dp", "mp"])
    config = {"dp_config": {"sharding_level": 0},
              "mp_config": {"parallelize_plan": tp_plan()}}
    compare(train(mesh, config, forward_counts=counts(all_reduce=2),
                  step_counts=counts(all_reduce=2 + 1 + 2, grad_bucket_all_reduce=1)), ref,
            "dp2 x mp2", 1e-4)


def sequence_parallel_dp2_mp2():
    """TinyLlama on dp2 x mp2: the sequence-parallel plan equals the plain tensor-parallel one
    within 1e-5 (and both one process within 1e-4), with the norms seeing half the tokens.

    Sequence parallel, per step. Forward: embed_tokens' column-parallel output moves its mp
    shard from hidden to sequence (1 all-to-all); attention and the MLP gather their input
    over mp (2 all-gathers) and reduce-scatter their Partial output onto the sequence dim (2),
    lm_head gathers its input (1 all-gather); nothing is all-reduced. Backward mirrors each
    move (1 all-to-all, 2 all-gathers for the reduce-scatters, 3 reduce-scatters for the
    gathers, whose gradients arrive Partial) and reduces the weights' gradients after backward,
    in buckets: the 9 Partial(dp) projection gradients in one all-reduce, the 3 norm weights'
    (Partial over mp and dp) in one per mesh dim, 3 all-reduces.
    Plain tensor parallel instead gathers embed_tokens' output (1 all-gather; its gradient
    arrives replicated and is sliced), all-reduces the two row-parallel outputs in forward (2)
    and, in backward, the residual stream's gradient once per column-parallel reader (lm_head's
    dx is Partial and stays so through the final norm; it is reduced for down_proj's dx and
    reused, reduced memo and all, by its dW; then at the two residual adds: 3); its norms see
    whole rows, so each norm weight's gradient has its mp reduction made by the norm's
    gradient rule (3), and the 12 Partial(dp) gradients go in one bucket all-reduce."""
    dist.init_parallel_env()
    ref = train(cls=TinyLlama)
    mesh = dist.ProcessMesh([[0, 1], [2, 3]], dim_names=["dp", "mp"])
    runs = {}
    for sp in (False, True):
        config = {"dp_config": {"sharding_level": 0},
                  "mp_config": {"parallelize_plan": tiny_llama_plan(sp)}}
        watch = {"layer": "layers.0.post_attention_layernorm", "sizes": []}
        step = (counts(reduce_scatter=5, all_gather=5, all_to_all=2, grad_bucket_all_reduce=3)
                if sp else counts(all_reduce=2 + 3 + 3, all_gather=1, grad_bucket_all_reduce=1))
        runs[sp] = train(mesh, config, cls=TinyLlama, step_counts=step, watch=watch)
        check(watch["sizes"][0] == ([SEQ // 2, BATCH // 2, HIDDEN] if sp else
                                    [BATCH // 2, SEQ, HIDDEN]),
              f"sequence_parallel={sp}: the norm's local input {watch['sizes'][0]}")
        compare(runs[sp], ref, f"sequence_parallel={sp} against one process", 1e-4)
    compare(runs[True], runs[False], "sequence parallel against tensor parallel", 1e-5)


if __name__ == "__main__":
    globals()[sys.argv[1]]()
