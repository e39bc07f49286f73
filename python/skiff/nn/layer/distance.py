"""PairwiseDistance (Paddle's paddle.nn layer over nn.functional.pairwise_distance)."""
from .. import functional as F
from .layers import Layer

__all__ = ["PairwiseDistance"]


class PairwiseDistance(Layer):
    def __init__(self, p=2.0, epsilon=1e-6, keepdim=False, name=None):
        super().__init__()
        self.p, self.epsilon, self.keepdim = p, epsilon, keepdim

    def forward(self, x, y):
        return F.pairwise_distance(x, y, self.p, self.epsilon, self.keepdim)

    def extra_repr(self):
        return f"p={self.p}, epsilon={self.epsilon}, keepdim={self.keepdim}"
