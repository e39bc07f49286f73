"""AdaptiveLogSoftmaxWithLoss (Paddle's paddle.nn layer over
nn.functional.adaptive_log_softmax_with_loss): head_weight [in, shortlist + clusters],
optional head_bias, and per cluster i two projections [in, in // div^(i+1)] and
[in // div^(i+1), cluster size] (tail_weights, a LayerList of ParameterLists)."""
from .. import functional as F
from ... import _C
from .container import LayerList, ParameterList
from .layers import Layer

__all__ = ["AdaptiveLogSoftmaxWithLoss"]

_ops = _C.ops


class AdaptiveLogSoftmaxWithLoss(Layer):
    def __init__(self, in_features, n_classes, cutoffs, weight_attr=None, bias_attr=None,
                 div_value=4.0, head_bias=False, name=None):
        super().__init__()
        cutoffs = list(cutoffs)
        if len(cutoffs) == 0:
            raise ValueError("(InvalidArgument) AdaptiveLogSoftmaxWithLoss: argument 'cutoffs' "
                             "expected at least one value")
        if (cutoffs != sorted(cutoffs) or min(cutoffs) <= 0 or max(cutoffs) > n_classes - 1
                or len(set(cutoffs)) != len(cutoffs) or any(int(c) != c for c in cutoffs)):
            raise ValueError("(InvalidArgument) AdaptiveLogSoftmaxWithLoss: argument 'cutoffs' "
                             "expected a sequence of unique, positive integers sorted in "
                             f"increasing order, each in [1, n_classes - 1], got {cutoffs}")
        from ... import get_default_dtype
        dtype = get_default_dtype()
        self.in_features, self.n_classes = in_features, n_classes
        self.cutoffs = [int(c) for c in cutoffs] + [n_classes]
        self.div_value = div_value
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.head_weight = self.create_parameter([in_features, self.head_size],
                                                 attr=weight_attr, dtype=dtype)
        self.head_bias = (self.create_parameter([self.head_size], attr=bias_attr, dtype=dtype,
                                                is_bias=True) if head_bias else None)
        tails = []
        for i in range(self.n_clusters):
            hsz = int(in_features // (div_value ** (i + 1)))
            osz = self.cutoffs[i + 1] - self.cutoffs[i]
            tails.append(ParameterList([
                self.create_parameter([in_features, hsz], attr=weight_attr, dtype=dtype),
                self.create_parameter([hsz, osz], attr=weight_attr, dtype=dtype)]))
        self.tail_weights = LayerList(tails)

    def forward(self, input, label):
        return F.adaptive_log_softmax_with_loss(input, label, self.head_weight,
                                                self.tail_weights, self.cutoffs,
                                                self.head_bias)

    def log_prob(self, input):
        """Log-probabilities of every class, [N, n_classes]."""
        head = _ops.log_softmax(_ops.linear(input, self.head_weight, self.head_bias), 1)
        parts = [_ops.slice(head, [1], [0], [self.shortlist_size])]
        for i, (w0, w1) in enumerate(self.tail_weights):
            cluster = _ops.log_softmax(_ops.matmul(_ops.matmul(input, w0, False, False), w1,
                                                   False, False), 1)
            prior = _ops.slice(head, [1], [self.shortlist_size + i],
                               [self.shortlist_size + i + 1])
            parts.append(_ops.add(cluster, prior))
        return _ops.concat(parts, 1)

    def predict(self, input):
        """The most likely class of each row, [N]."""
        return _ops.argmax(self.log_prob(input), 1, False, False, "int64")
