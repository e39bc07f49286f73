"""Transformer layers (Paddle's paddle.nn.MultiHeadAttention, TransformerEncoderLayer,
TransformerEncoder, TransformerDecoderLayer, TransformerDecoder, Transformer).

Paddle's structure, so state_dict keys are Paddle's (`encoder.layers.0.self_attn.q_proj.weight`,
`decoder.layers.1.cross_attn.out_proj.bias`, `linear1`, `norm1`, ...). Attention runs on
[batch, num_heads, seq_len, head_dim] tensors; masks are bool (True = attend), int (nonzero =
attend) or additive float, broadcastable to [batch, num_heads, query_len, key_len], and bool/int
masks become additive (mask - 1) * 1e9 as in Paddle. MultiHeadAttention's Cache (k/v grown by
each decoding step) and StaticCache (k/v of a fixed memory computed once) serve incremental
decoding."""
import collections
import copy

import numpy as np

from ... import _errors
from .. import functional as F
from ..functional._common_ops import ops as _ops
from .common import Dropout, Linear
from .container import LayerList
from .layers import Layer
from .norm import LayerNorm

__all__ = ["MultiHeadAttention", "TransformerEncoderLayer", "TransformerEncoder",
           "TransformerDecoderLayer", "TransformerDecoder", "Transformer"]


def _convert_attention_mask(attn_mask, dtype):
    """bool/int masks (True/nonzero = attend) as additive masks of `dtype`; float ones as is."""
    if attn_mask is None:
        return None
    if str(attn_mask.dtype).endswith(("bool", "int8", "int16", "int32", "int64", "uint8")):
        return (_ops.cast(attn_mask, dtype) - 1.0) * 1e9
    return attn_mask if attn_mask.dtype == dtype else _ops.cast(attn_mask, dtype)


def _param_attrs(attr, n):
    """Paddle's _convert_param_attr_to_list: one attr per sublayer group. A list gives them
    in order; a single named ParamAttr is copied with `_i` appended to its name."""
    from ..param_attr import ParamAttr
    if isinstance(attr, (list, tuple)):
        if len(attr) != n:
            raise _errors.InvalidArgument(f"expected {n} parameter attributes, got {len(attr)}")
        return [ParamAttr._to_attr(a) for a in attr]
    if isinstance(attr, bool):
        return [ParamAttr._to_attr(None) if attr else False for _ in range(n)]
    base = ParamAttr._to_attr(attr)
    out = []
    for i in range(n):
        a = copy.deepcopy(base)
        if a.name:
            a.name = f"{a.name}_{i}"
        out.append(a)
    return out


def _check_positive(owner, **values):
    for name, v in values.items():
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v <= 0:
            raise _errors.InvalidArgument(f"{owner}: expected {name} to be greater than 0, but "
                                          f"received {v}")


class MultiHeadAttention(Layer):
    """out = out_proj(softmax(q k^T / sqrt(head_dim) + mask) v) over num_heads heads, with
    q/k/v projections q_proj, k_proj (kdim -> embed_dim), v_proj (vdim -> embed_dim).
    forward returns out, then the attention weights if need_weights, then the cache if one was
    passed."""

    Cache = collections.namedtuple("Cache", ["k", "v"])
    StaticCache = collections.namedtuple("StaticCache", ["k", "v"])

    def __init__(self, embed_dim, num_heads, dropout=0.0, kdim=None, vdim=None,
                 need_weights=False, weight_attr=None, bias_attr=None):
        super().__init__()
        _check_positive("MultiHeadAttention", embed_dim=embed_dim, num_heads=num_heads)
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.need_weights = need_weights
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise _errors.InvalidArgument("MultiHeadAttention: embed_dim must be divisible by "
                                          f"num_heads, got embed_dim={embed_dim}, "
                                          f"num_heads={num_heads}")
        self.q_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.k_proj = Linear(self.kdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.v_proj = Linear(self.vdim, embed_dim, weight_attr, bias_attr=bias_attr)
        self.out_proj = Linear(embed_dim, embed_dim, weight_attr, bias_attr=bias_attr)

    def _heads(self, x, what):
        """[batch, seq, embed_dim] -> [batch, num_heads, seq, head_dim]."""
        if len(x.shape) != 3:
            raise _errors.InvalidArgument(f"MultiHeadAttention: {what} must be 3-D [batch_size, "
                                          f"seq_len, dim], got shape {list(x.shape)}")
        return _ops.transpose(_ops.reshape(x, [0, 0, self.num_heads, self.head_dim]),
                              [0, 2, 1, 3])

    def _project(self, x, proj, dim, what):
        if len(x.shape) != 3 or x.shape[-1] != dim:
            raise _errors.InvalidArgument(f"MultiHeadAttention: {what} must be [batch_size, "
                                          f"seq_len, {dim}], got shape {list(x.shape)}")
        return self._heads(proj(x), what)

    def compute_kv(self, key, value):
        """The projected keys and values, each [batch, num_heads, seq_len, head_dim]."""
        return (self._project(key, self.k_proj, self.kdim, "key"),
                self._project(value, self.v_proj, self.vdim, "value"))

    def gen_cache(self, key, value=None, type=Cache):
        """StaticCache: k/v of `key`/`value` (a fixed memory), computed once. Cache with value
        None: empty k/v ([batch, num_heads, 0, head_dim]) that each step extends; Cache with a
        value: (key, value) taken as the initial k/v."""
        if type is MultiHeadAttention.StaticCache:
            return self.StaticCache(*self.compute_kv(key, key if value is None else value))
        if value is None:
            shape = [key.shape[0], self.num_heads, 0, self.head_dim]
            return self.Cache(_ops.full(shape, 0.0, key.dtype), _ops.full(shape, 0.0, key.dtype))
        return self.Cache(key, value)

    def _prepare_qkv(self, query, key, value, cache):
        q = self._project(query, self.q_proj, self.embed_dim, "query")
        if isinstance(cache, self.StaticCache):
            k, v = cache.k, cache.v
        else:
            k, v = self.compute_kv(key, value)
        if isinstance(cache, self.Cache):
            k = _ops.concat([cache.k, k], 2)
            v = _ops.concat([cache.v, v], 2)
            cache = self.Cache(k, v)
        return q, k, v, cache

    def forward(self, query, key=None, value=None, attn_mask=None, cache=None):
        key = query if key is None else key
        value = query if value is None else value
        if cache is not None and not isinstance(cache, (self.Cache, self.StaticCache)):
            raise _errors.InvalidType("MultiHeadAttention: argument 'cache' expected a "
                                      "MultiHeadAttention.Cache or StaticCache, got "
                                      f"{type(cache).__name__}")
        q, k, v, new_cache = self._prepare_qkv(query, key, value, cache)
        product = _ops.matmul(q, k, False, True) * (self.head_dim ** -0.5)
        if attn_mask is not None:
            product = product + _convert_attention_mask(attn_mask, product.dtype)
        weights = F.softmax(product)
        if self.dropout:
            weights = F.dropout(weights, self.dropout, training=self.training,
                                mode="upscale_in_train")
        out = _ops.transpose(_ops.matmul(weights, v, False, False), [0, 2, 1, 3])
        out = self.out_proj(_ops.reshape(out, [0, 0, self.embed_dim]))
        outs = [out]
        if self.need_weights:
            outs.append(weights)
        if cache is not None:
            outs.append(new_cache)
        return out if len(outs) == 1 else tuple(outs)


def _activation(name):
    fn = getattr(F, name, None)
    if not isinstance(name, str) or fn is None or not callable(fn):
        raise _errors.InvalidArgument(f"Transformer: activation {name!r} is not a function of "
                                      "paddle.nn.functional")
    return fn


def _layer_config(frame_locals):
    """The constructor arguments of a layer, so TransformerEncoder/Decoder can build its
    num_layers - 1 clones as Paddle does (type(layer)(**layer._config))."""
    config = dict(frame_locals)
    config.pop("self", None)
    config.pop("__class__", None)
    return config


class TransformerEncoderLayer(Layer):
    """Self-attention then a feed-forward block (linear1 -> activation -> dropout -> linear2),
    each with a residual and LayerNorm after it (before it with normalize_before).
    weight_attr/bias_attr: one for all, or [self_attn, feed-forward]."""

    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.1, activation="relu",
                 attn_dropout=None, act_dropout=None, normalize_before=False, weight_attr=None,
                 bias_attr=None, layer_norm_eps=1e-5):
        self._config = _layer_config(locals())
        super().__init__()
        _check_positive("TransformerEncoderLayer", d_model=d_model, nhead=nhead,
                        dim_feedforward=dim_feedforward)
        attn_dropout = dropout if attn_dropout is None else attn_dropout
        act_dropout = dropout if act_dropout is None else act_dropout
        self.normalize_before = normalize_before
        weight_attrs = _param_attrs(weight_attr, 2)
        bias_attrs = _param_attrs(bias_attr, 2)
        self.self_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout,
                                            weight_attr=weight_attrs[0], bias_attr=bias_attrs[0])
        self.linear1 = Linear(d_model, dim_feedforward, weight_attrs[1], bias_attr=bias_attrs[1])
        self.dropout = Dropout(act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, weight_attrs[1], bias_attr=bias_attrs[1])
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode="upscale_in_train")
        self.dropout2 = Dropout(dropout, mode="upscale_in_train")
        self.activation = _activation(activation)

    def forward(self, src, src_mask=None, cache=None):
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        residual = src
        if self.normalize_before:
            src = self.norm1(src)
        if cache is None:
            src = self.self_attn(src, src, src, src_mask)
        else:
            src, cache = self.self_attn(src, src, src, src_mask, cache)
        src = residual + self.dropout1(src)
        if not self.normalize_before:
            src = self.norm1(src)
        residual = src
        if self.normalize_before:
            src = self.norm2(src)
        src = self.linear2(self.dropout(self.activation(self.linear1(src))))
        src = residual + self.dropout2(src)
        if not self.normalize_before:
            src = self.norm2(src)
        return src if cache is None else (src, cache)

    def gen_cache(self, src):
        return self.self_attn.gen_cache(src, type=self.self_attn.Cache)


class TransformerEncoder(Layer):
    """num_layers encoder layers (the given one and fresh clones of its configuration), then
    `norm` if given."""

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        _check_positive("TransformerEncoder", num_layers=num_layers)
        self.layers = LayerList([encoder_layer if i == 0 else
                                 type(encoder_layer)(**encoder_layer._config)
                                 for i in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, src, src_mask=None, cache=None):
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        output = src
        new_caches = []
        for i, layer in enumerate(self.layers):
            if cache is None:
                output = layer(output, src_mask=src_mask)
            else:
                output, c = layer(output, src_mask=src_mask, cache=cache[i])
                new_caches.append(c)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, src):
        return [layer.gen_cache(src) for layer in self.layers]


class TransformerDecoderLayer(Layer):
    """Self-attention, cross-attention over the encoder memory, feed-forward; residuals and
    LayerNorms as in the encoder layer. weight_attr/bias_attr: one for all, or
    [self_attn, cross_attn, feed-forward]. cache: (Cache, StaticCache) from gen_cache."""

    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.1, activation="relu",
                 attn_dropout=None, act_dropout=None, normalize_before=False, weight_attr=None,
                 bias_attr=None, layer_norm_eps=1e-5):
        self._config = _layer_config(locals())
        super().__init__()
        _check_positive("TransformerDecoderLayer", d_model=d_model, nhead=nhead,
                        dim_feedforward=dim_feedforward)
        attn_dropout = dropout if attn_dropout is None else attn_dropout
        act_dropout = dropout if act_dropout is None else act_dropout
        self.normalize_before = normalize_before
        weight_attrs = _param_attrs(weight_attr, 3)
        bias_attrs = _param_attrs(bias_attr, 3)
        self.self_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout,
                                            weight_attr=weight_attrs[0], bias_attr=bias_attrs[0])
        self.cross_attn = MultiHeadAttention(d_model, nhead, dropout=attn_dropout,
                                             weight_attr=weight_attrs[1],
                                             bias_attr=bias_attrs[1])
        self.linear1 = Linear(d_model, dim_feedforward, weight_attrs[2], bias_attr=bias_attrs[2])
        self.dropout = Dropout(act_dropout, mode="upscale_in_train")
        self.linear2 = Linear(dim_feedforward, d_model, weight_attrs[2], bias_attr=bias_attrs[2])
        self.norm1 = LayerNorm(d_model, layer_norm_eps)
        self.norm2 = LayerNorm(d_model, layer_norm_eps)
        self.norm3 = LayerNorm(d_model, layer_norm_eps)
        self.dropout1 = Dropout(dropout, mode="upscale_in_train")
        self.dropout2 = Dropout(dropout, mode="upscale_in_train")
        self.dropout3 = Dropout(dropout, mode="upscale_in_train")
        self.activation = _activation(activation)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, cache=None):
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype)
        residual = tgt
        if self.normalize_before:
            tgt = self.norm1(tgt)
        if cache is None:
            tgt = self.self_attn(tgt, tgt, tgt, tgt_mask, None)
        else:
            tgt, incremental_cache = self.self_attn(tgt, tgt, tgt, tgt_mask, cache[0])
        tgt = residual + self.dropout1(tgt)
        if not self.normalize_before:
            tgt = self.norm1(tgt)
        residual = tgt
        if self.normalize_before:
            tgt = self.norm2(tgt)
        if cache is None:
            tgt = self.cross_attn(tgt, memory, memory, memory_mask, None)
        else:
            tgt, static_cache = self.cross_attn(tgt, memory, memory, memory_mask, cache[1])
        tgt = residual + self.dropout2(tgt)
        if not self.normalize_before:
            tgt = self.norm2(tgt)
        residual = tgt
        if self.normalize_before:
            tgt = self.norm3(tgt)
        tgt = self.linear2(self.dropout(self.activation(self.linear1(tgt))))
        tgt = residual + self.dropout3(tgt)
        if not self.normalize_before:
            tgt = self.norm3(tgt)
        return tgt if cache is None else (tgt, (incremental_cache, static_cache))

    def gen_cache(self, memory):
        incremental = self.self_attn.gen_cache(memory, type=self.self_attn.Cache)
        static = self.cross_attn.gen_cache(memory, memory, type=self.cross_attn.StaticCache)
        return incremental, static


class TransformerDecoder(Layer):
    """num_layers decoder layers (the given one and clones), then `norm` if given."""

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        _check_positive("TransformerDecoder", num_layers=num_layers)
        self.layers = LayerList([decoder_layer if i == 0 else
                                 type(decoder_layer)(**decoder_layer._config)
                                 for i in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, cache=None):
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype)
        output = tgt
        new_caches = []
        for i, layer in enumerate(self.layers):
            if cache is None:
                output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                               cache=None)
            else:
                output, c = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                                  cache=cache[i])
                new_caches.append(c)
        if self.norm is not None:
            output = self.norm(output)
        return output if cache is None else (output, new_caches)

    def gen_cache(self, memory, do_zip=False):
        cache = [layer.gen_cache(memory) for layer in self.layers]
        return list(zip(*cache)) if do_zip else cache


def _split_attr(attr):
    """Transformer's attr lists: 1 -> the same for both; 2 -> both get [attn, ffn]; 3 -> encoder
    [self_attn, ffn], decoder [self_attn, cross_attn, ffn]."""
    if not isinstance(attr, (list, tuple)):
        return attr, attr
    if len(attr) == 1:
        return [attr[0]] * 2, [attr[0]] * 3
    if len(attr) == 2:
        return list(attr), [attr[0], attr[0], attr[1]]
    if len(attr) == 3:
        return [attr[0], attr[-1]], list(attr)
    raise _errors.InvalidArgument("Transformer: length of weight_attr/bias_attr should be 1, 2 "
                                  f"or 3, got {len(attr)}")


class Transformer(Layer):
    """Encoder (TransformerEncoder of num_encoder_layers layers + LayerNorm) and decoder
    (likewise), or custom_encoder/custom_decoder; forward(src, tgt, masks) -> decoder output."""

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                 dim_feedforward=2048, dropout=0.1, activation="relu", attn_dropout=None,
                 act_dropout=None, normalize_before=False, weight_attr=None, bias_attr=None,
                 custom_encoder=None, custom_decoder=None):
        super().__init__()
        _check_positive("Transformer", d_model=d_model, nhead=nhead,
                        dim_feedforward=dim_feedforward)
        enc_w, dec_w = _split_attr(weight_attr)
        enc_b, dec_b = _split_attr(bias_attr)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                            attn_dropout, act_dropout, normalize_before, enc_w,
                                            enc_b)
            self.encoder = TransformerEncoder(layer, num_encoder_layers, LayerNorm(d_model))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                            attn_dropout, act_dropout, normalize_before, dec_w,
                                            dec_b)
            self.decoder = TransformerDecoder(layer, num_decoder_layers, LayerNorm(d_model))
        self.d_model = d_model
        self.nhead = nhead

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None):
        src_mask = _convert_attention_mask(src_mask, src.dtype)
        memory = self.encoder(src, src_mask=src_mask)
        tgt_mask = _convert_attention_mask(tgt_mask, tgt.dtype)
        memory_mask = _convert_attention_mask(memory_mask, memory.dtype)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask)

    def generate_square_subsequent_mask(self, length):
        """[length, length] float32: 0 on and below the diagonal, -inf above (a causal mask)."""
        from ... import Tensor, get_default_dtype
        if isinstance(length, Tensor):
            length = int(length.item())
        _check_positive("Transformer.generate_square_subsequent_mask", length=length)
        return _ops.triu(_ops.full([length, length], float("-inf"), get_default_dtype()), 1)
