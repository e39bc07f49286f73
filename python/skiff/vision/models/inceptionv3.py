"""Inception v3 (Szegedy et al., "Rethinking the Inception Architecture") in Paddle's layout.

Every convolution is a ConvNormActivation (bias-free Conv2D, BatchNorm2D, ReLU: keys `0.weight`,
`1.weight`, `1._mean`, ...). The stem is `inception_stem` (`conv_1a_3x3` ... `conv_4a_3x3`), the
eleven blocks are `inception_block_list.0` ... `.10` (three A, one B, four C, one D, two E), the
head `fc` (2048 -> num_classes after dropout 0.2). No auxiliary classifier, as in Paddle. Each
block is described by a table of branches: a branch is a list of (name, out channels, kernel,
stride, padding) convolutions, optionally preceded by a pooling; a branch whose last step splits
in two ("a"/"b" names) concatenates both outputs. The smallest input is 75 x 75."""
import math

from ... import concat, reshape
from ... import nn
from ...nn.initializer import Uniform
from ..ops import ConvNormActivation
from ._utils import load_pretrained

__all__ = ["InceptionV3", "inception_v3"]


def _cna(cin, cout, kernel, stride=1, padding=0):
    return ConvNormActivation(cin, cout, kernel_size=kernel, stride=stride, padding=padding,
                              activation_layer=nn.ReLU)


class InceptionStem(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv_1a_3x3 = _cna(3, 32, 3, stride=2)
        self.conv_2a_3x3 = _cna(32, 32, 3)
        self.conv_2b_3x3 = _cna(32, 64, 3, padding=1)
        self.max_pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=0)
        self.conv_3b_1x1 = _cna(64, 80, 1)
        self.conv_4a_3x3 = _cna(80, 192, 3)

    def forward(self, x):
        x = self.max_pool(self.conv_2b_3x3(self.conv_2a_3x3(self.conv_1a_3x3(x))))
        return self.max_pool(self.conv_4a_3x3(self.conv_3b_1x1(x)))


# Kernel shapes with their 'same' paddings.
_K1, _K3, _K5 = (1, 0), (3, 1), (5, 2)
_K17, _K71 = ((1, 7), (0, 3)), ((7, 1), (3, 0))
_K13, _K31 = ((1, 3), (0, 1)), ((3, 1), (1, 0))


class _Block(nn.Layer):
    """An Inception block from `branches`: each (pool, steps, split) with pool None, "avg"
    (3x3, stride 1, padded, counting the padding as Paddle's exclusive=False) or "max" (3x3,
    stride 2, no conv steps: `branch_pool`); steps are (name, out, (kernel, padding), stride);
    split is two such steps applied to the last output and concatenated."""

    def __init__(self, cin, branches):
        super().__init__()
        self._plan = []
        for pool, steps, split in branches:
            if pool == "avg":
                self.branch_pool = nn.AvgPool2D(kernel_size=3, stride=1, padding=1,
                                                exclusive=False)
            elif pool == "max":
                self.branch_pool = nn.MaxPool2D(kernel_size=3, stride=2)
            c, names = cin, []
            for name, cout, (kernel, padding), stride in steps:
                setattr(self, name, _cna(c, cout, kernel, stride, padding))
                c, names = cout, names + [name]
            for name, cout, (kernel, padding), stride in split or ():
                setattr(self, name, _cna(c, cout, kernel, stride, padding))
            self._plan.append((pool, names, [s[0] for s in split or ()]))

    def forward(self, x):
        outs = []
        for pool, names, split in self._plan:
            y = self.branch_pool(x) if pool else x
            for name in names:
                y = getattr(self, name)(y)
            if split:
                y = concat([getattr(self, name)(y) for name in split], axis=1)
            outs.append(y)
        return concat(outs, axis=1)


def _block_a(cin, pool_features):
    return _Block(cin, [
        (None, [("branch1x1", 64, _K1, 1)], None),
        (None, [("branch5x5_1", 48, _K1, 1), ("branch5x5_2", 64, _K5, 1)], None),
        (None, [("branch3x3dbl_1", 64, _K1, 1), ("branch3x3dbl_2", 96, _K3, 1),
                ("branch3x3dbl_3", 96, _K3, 1)], None),
        ("avg", [("branch_pool_conv", pool_features, _K1, 1)], None)])


def _block_b(cin):
    return _Block(cin, [
        (None, [("branch3x3", 384, (3, 0), 2)], None),
        (None, [("branch3x3dbl_1", 64, _K1, 1), ("branch3x3dbl_2", 96, _K3, 1),
                ("branch3x3dbl_3", 96, (3, 0), 2)], None),
        ("max", [], None)])


def _block_c(cin, c7):
    return _Block(cin, [
        (None, [("branch1x1", 192, _K1, 1)], None),
        (None, [("branch7x7_1", c7, _K1, 1), ("branch7x7_2", c7, _K17, 1),
                ("branch7x7_3", 192, _K71, 1)], None),
        (None, [("branch7x7dbl_1", c7, _K1, 1), ("branch7x7dbl_2", c7, _K71, 1),
                ("branch7x7dbl_3", c7, _K17, 1), ("branch7x7dbl_4", c7, _K71, 1),
                ("branch7x7dbl_5", 192, _K17, 1)], None),
        ("avg", [("branch_pool_conv", 192, _K1, 1)], None)])


def _block_d(cin):
    return _Block(cin, [
        (None, [("branch3x3_1", 192, _K1, 1), ("branch3x3_2", 320, (3, 0), 2)], None),
        (None, [("branch7x7x3_1", 192, _K1, 1), ("branch7x7x3_2", 192, _K17, 1),
                ("branch7x7x3_3", 192, _K71, 1), ("branch7x7x3_4", 192, (3, 0), 2)], None),
        ("max", [], None)])


def _block_e(cin):
    return _Block(cin, [
        (None, [("branch1x1", 320, _K1, 1)], None),
        (None, [("branch3x3_1", 384, _K1, 1)],
         [("branch3x3_2a", 384, _K13, 1), ("branch3x3_2b", 384, _K31, 1)]),
        (None, [("branch3x3dbl_1", 448, _K1, 1), ("branch3x3dbl_2", 384, _K3, 1)],
         [("branch3x3dbl_3a", 384, _K13, 1), ("branch3x3dbl_3b", 384, _K31, 1)]),
        ("avg", [("branch_pool_conv", 192, _K1, 1)], None)])


class InceptionV3(nn.Layer):
    """InceptionV3(num_classes=1000, with_pool=True): num_classes <= 0 leaves out the fc
    layer (the output is the [N, 2048, 1, 1] pooled features, or [N, 2048, H, W] without
    with_pool)."""

    def __init__(self, num_classes=1000, with_pool=True):
        super().__init__()
        self.num_classes = num_classes
        self.with_pool = with_pool
        self.inception_stem = InceptionStem()
        blocks = [_block_a(192, 32), _block_a(256, 64), _block_a(288, 64), _block_b(288),
                  _block_c(768, 128), _block_c(768, 160), _block_c(768, 160),
                  _block_c(768, 192), _block_d(768), _block_e(1280), _block_e(2048)]
        self.inception_block_list = nn.LayerList(blocks)
        if with_pool:
            self.avg_pool = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.dropout = nn.Dropout(p=0.2, mode="downscale_in_infer")
            stdv = 1.0 / math.sqrt(2048.0)
            self.fc = nn.Linear(2048, num_classes,
                                weight_attr=nn.ParamAttr(initializer=Uniform(-stdv, stdv)),
                                bias_attr=nn.ParamAttr())

    def forward(self, x):
        x = self.inception_stem(x)
        for block in self.inception_block_list:
            x = block(x)
        if self.with_pool:
            x = self.avg_pool(x)
        if self.num_classes > 0:
            x = self.fc(self.dropout(reshape(x, [-1, 2048])))
        return x


def inception_v3(pretrained=False, **kwargs):
    return load_pretrained(InceptionV3(**kwargs), "inception_v3", pretrained,
                           "inception_v3.pdparams")
