"""A small Llama written against the Paddle API (`import skiff as paddle`): token embedding,
RMSNorm, rotary position embedding, causal multi-head attention, SwiGLU MLP, tied or untied
output head. Activations use Paddle's [batch, seq, heads, head_dim] attention layout."""
from dataclasses import asdict, dataclass

import numpy as np

import skiff as paddle
import skiff.nn as nn
import skiff.nn.functional as F
from skiff.distributed.fleet.utils import recompute


@dataclass
class LlamaConfig:
    vocab_size: int = 4096
    dim: int = 256
    n_layers: int = 4
    n_heads: int = 4
    hidden_dim: int = 688
    max_seq_len: int = 1024
    norm_eps: float = 1e-5
    rope_base: float = 10000.0
    tie_embeddings: bool = False
    init_std: float = 0.02

    def to_dict(self):
        return asdict(self)


def rope_tables(max_len, head_dim, base):
    """cos and signed sin of the rotation angles, [max_len, head_dim]: pair (i, i + hd/2)
    rotates by angle t * base^(-2i/hd); the first half of the sin table is negated so that
    apply_rope needs no negation."""
    inv = 1.0 / (base ** (np.arange(0, head_dim, 2, dtype=np.float64) / head_dim))
    t = np.arange(max_len, dtype=np.float64)
    freqs = np.outer(t, inv)
    emb = np.concatenate([freqs, freqs], axis=-1)
    sin = np.sin(emb)
    sin[:, : head_dim // 2] *= -1
    return np.cos(emb).astype(np.float32), sin.astype(np.float32)


def apply_rope(x, cos, sin_signed):
    """x [B, T, H, hd]; cos/sin_signed [T, 1, hd]. x * cos + rotate_half(x) * sin, where
    rotate_half(x) = concat(-x2, x1) = roll(x, hd/2) * sign: one roll instead of split, negate
    and concat."""
    return x * cos + paddle.roll(x, x.shape[-1] // 2, axis=-1) * sin_signed


class Attention(nn.Layer):
    def __init__(self, cfg):
        super().__init__()
        self.n_heads = cfg.n_heads
        self.head_dim = cfg.dim // cfg.n_heads
        self.wq = nn.Linear(cfg.dim, cfg.dim, bias_attr=False)
        self.wk = nn.Linear(cfg.dim, cfg.dim, bias_attr=False)
        self.wv = nn.Linear(cfg.dim, cfg.dim, bias_attr=False)
        self.wo = nn.Linear(cfg.dim, cfg.dim, bias_attr=False)

    def forward(self, x, cos, sin):
        b, t, d = x.shape
        q = self.wq(x).reshape([b, t, self.n_heads, self.head_dim])
        k = self.wk(x).reshape([b, t, self.n_heads, self.head_dim])
        v = self.wv(x).reshape([b, t, self.n_heads, self.head_dim])
        q = apply_rope(q, cos, sin)
        k = apply_rope(k, cos, sin)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.wo(y.reshape([b, t, d]))

    def forward_cached(self, x, cos, sin, cache=None):
        """Inference with a KV cache. x [B, T, D] at the positions cos/sin were taken at; cache
        is (k, v) [B, P, H, hd] of the P positions before them (after RoPE), or None for the
        prompt. With a cache, T is 1 (one decode step attends to every cached key). Returns the
        output and the cache extended by x's positions. Reshapes use 0 (copy the dim) so that a
        program captured with dynamic T and P stays shape-generic."""
        hd = self.head_dim
        q = self.wq(x).reshape([0, 0, self.n_heads, hd])
        k = self.wk(x).reshape([0, 0, self.n_heads, hd])
        v = self.wv(x).reshape([0, 0, self.n_heads, hd])
        q = apply_rope(q, cos, sin)
        k = apply_rope(k, cos, sin)
        if cache is not None:
            k = paddle.concat([cache[0], k], axis=1)
            v = paddle.concat([cache[1], v], axis=1)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=cache is None)
        return self.wo(y.reshape([0, 0, self.n_heads * hd])), (k, v)


class MLP(nn.Layer):
    """SwiGLU: w2(silu(w1 x) * w3 x)."""

    def __init__(self, cfg):
        super().__init__()
        self.w1 = nn.Linear(cfg.dim, cfg.hidden_dim, bias_attr=False)
        self.w3 = nn.Linear(cfg.dim, cfg.hidden_dim, bias_attr=False)
        self.w2 = nn.Linear(cfg.hidden_dim, cfg.dim, bias_attr=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class Block(nn.Layer):
    def __init__(self, cfg):
        super().__init__()
        self.attn_norm = nn.RMSNorm(cfg.dim, epsilon=cfg.norm_eps)
        self.attn = Attention(cfg)
        self.mlp_norm = nn.RMSNorm(cfg.dim, epsilon=cfg.norm_eps)
        self.mlp = MLP(cfg)

    def forward(self, x, cos, sin):
        x = x + self.attn(self.attn_norm(x), cos, sin)
        return x + self.mlp(self.mlp_norm(x))

    def forward_cached(self, x, cos, sin, cache=None):
        h, cache = self.attn.forward_cached(self.attn_norm(x), cos, sin, cache)
        x = x + h
        return x + self.mlp(self.mlp_norm(x)), cache


class Llama(nn.Layer):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.recompute_blocks = False  # paddle.distributed.fleet.utils.recompute per block
        init = nn.initializer.Normal(mean=0.0, std=cfg.init_std)
        self.embed = nn.Embedding(cfg.vocab_size, cfg.dim,
                                  weight_attr=nn.ParamAttr(initializer=init))
        self.layers = nn.LayerList([Block(cfg) for _ in range(cfg.n_layers)])
        self.norm = nn.RMSNorm(cfg.dim, epsilon=cfg.norm_eps)
        if not cfg.tie_embeddings:
            self.head = nn.Linear(cfg.dim, cfg.vocab_size, bias_attr=False,
                                  weight_attr=nn.ParamAttr(initializer=init))
        for name, p in self.named_parameters():
            if len(p.shape) == 2 and not name.startswith(("embed", "head")):
                init(p)
        cos, sin = rope_tables(cfg.max_seq_len, cfg.dim // cfg.n_heads, cfg.rope_base)
        hd = cfg.dim // cfg.n_heads
        self.register_buffer("rope_cos", paddle.to_tensor(cos.reshape(cfg.max_seq_len, 1, hd)),
                             persistable=False)
        self.register_buffer("rope_sin", paddle.to_tensor(sin.reshape(cfg.max_seq_len, 1, hd)),
                             persistable=False)

    def forward(self, idx):
        t = idx.shape[1]
        if t > self.cfg.max_seq_len:
            raise ValueError(f"sequence length {t} exceeds max_seq_len {self.cfg.max_seq_len}")
        cos = self.rope_cos[:t]
        sin = self.rope_sin[:t]
        x = self.embed(idx)
        for layer in self.layers:
            if self.recompute_blocks and self.training and paddle.is_grad_enabled():
                # Keeps only each block's input; backward recomputes the block.
                x = recompute(layer, x, cos, sin)
            else:
                x = layer(x, cos, sin)
        x = self.norm(x)
        if self.cfg.tie_embeddings:
            return paddle.matmul(x, self.embed.weight, transpose_y=True)
        return self.head(x)

    def forward_cached(self, idx, positions, caches=None):
        """One inference step with a KV cache: idx [B, T] at `positions` ([T] int64, their
        places in the sequence); caches None for the prompt (T any), else one (k, v) per layer
        holding every earlier position (T must be 1). Returns the logits of the last position
        [B, V] and the extended caches. Prefill and decode programs for the C++ generator are
        this method captured with two input signatures (export.py)."""
        cos = paddle.index_select(self.rope_cos, positions, axis=0)
        sin = paddle.index_select(self.rope_sin, positions, axis=0)
        x = self.embed(idx)
        new_caches = []
        for i, layer in enumerate(self.layers):
            x, c = layer.forward_cached(x, cos, sin, None if caches is None else caches[i])
            new_caches.append(c)
        x = self.norm(x[:, -1])
        if self.cfg.tie_embeddings:
            return paddle.matmul(x, self.embed.weight, transpose_y=True), new_caches
        return self.head(x), new_caches

    def loss(self, idx, targets):
        logits = self(idx)
        return F.cross_entropy(logits.reshape([-1, self.cfg.vocab_size]), targets.reshape([-1]))

    @paddle.no_grad()
    def generate(self, idx, max_new_tokens, temperature=1.0, top_k=None, rng=None):
        """Appends max_new_tokens sampled tokens to idx ([1, T] int64) and returns them (numpy).
        temperature 0 means greedy; top_k keeps the k most likely tokens."""
        rng = np.random.default_rng() if rng is None else rng
        ids = list(idx.numpy().reshape(-1))
        out = []
        for _ in range(max_new_tokens):
            ctx = ids[-self.cfg.max_seq_len:]
            logits = self(paddle.to_tensor(np.array([ctx], dtype=np.int64)))
            last = logits[0, -1].numpy().astype(np.float64)
            if temperature <= 0:
                nxt = int(np.argmax(last))
            else:
                last = last / temperature
                if top_k is not None and top_k < last.shape[0]:
                    kth = np.partition(last, -top_k)[-top_k]
                    last = np.where(last < kth, -np.inf, last)
                p = np.exp(last - last.max())
                p /= p.sum()
                nxt = int(rng.choice(len(p), p=p))
            ids.append(nxt)
            out.append(nxt)
        return np.array(out, dtype=np.int64)


def num_params(model):
    return sum(int(np.prod(p.shape)) for p in model.parameters())


def flops_per_token(cfg, seq_len):
    """Matmul FLOPs per token of one forward (2 * matmul params + attention)."""
    n_mm = cfg.n_layers * (4 * cfg.dim * cfg.dim + 3 * cfg.dim * cfg.hidden_dim)
    n_mm += cfg.dim * cfg.vocab_size
    return 2 * n_mm + cfg.n_layers * 2 * 2 * seq_len * cfg.dim


