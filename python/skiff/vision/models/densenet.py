"""DenseNet 121/161/169/201/264 (Paddle's layout: conv1_func, dense blocks `db_conv_2` ...
with layers `conv2_1` ... holding bn_ac_func1/2 (BatchNorm with ReLU, then a bias-free conv),
transitions `tr_conv2_blk` ..., a final batch_norm and `out`)."""
import math

from ... import concat, flatten
from ... import nn
from ...nn.initializer import Uniform
from ._utils import load_pretrained
from ... import _errors

__all__ = ["DenseNet", "densenet121", "densenet161", "densenet169", "densenet201",
           "densenet264"]


class BNACConvLayer(nn.Layer):
    def __init__(self, num_channels, num_filters, filter_size, stride=1, pad=0, groups=1,
                 act="relu"):
        super().__init__()
        self._batch_norm = nn.BatchNorm(num_channels, act=act)
        self._conv = nn.Conv2D(num_channels, num_filters, filter_size, stride=stride,
                               padding=pad, groups=groups, bias_attr=False)

    def forward(self, input):
        return self._conv(self._batch_norm(input))


class DenseLayer(nn.Layer):
    def __init__(self, num_channels, growth_rate, bn_size, dropout):
        super().__init__()
        self.dropout = dropout
        self.bn_ac_func1 = BNACConvLayer(num_channels, bn_size * growth_rate, 1, 1, 0)
        self.bn_ac_func2 = BNACConvLayer(bn_size * growth_rate, growth_rate, 3, 1, 1)
        if dropout:
            self.dropout_func = nn.Dropout(p=dropout, mode="downscale_in_infer")

    def forward(self, input):
        conv = self.bn_ac_func2(self.bn_ac_func1(input))
        if self.dropout:
            conv = self.dropout_func(conv)
        return concat([input, conv], axis=1)


class DenseBlock(nn.Layer):
    def __init__(self, num_channels, num_layers, bn_size, growth_rate, dropout, name=None):
        super().__init__()
        self.dropout = dropout
        self.dense_layer_func = []
        pre = num_channels
        for i in range(num_layers):
            self.dense_layer_func.append(self.add_sublayer(
                f"{name}_{i + 1}", DenseLayer(pre, growth_rate, bn_size, dropout)))
            pre += growth_rate

    def forward(self, input):
        for f in self.dense_layer_func:
            input = f(input)
        return input


class TransitionLayer(nn.Layer):
    def __init__(self, num_channels, num_output_features):
        super().__init__()
        self.conv_ac_func = BNACConvLayer(num_channels, num_output_features, 1, 1, 0)
        self.pool2d_avg = nn.AvgPool2D(kernel_size=2, stride=2, padding=0)

    def forward(self, input):
        return self.pool2d_avg(self.conv_ac_func(input))


class ConvBNLayer(nn.Layer):
    def __init__(self, num_channels, num_filters, filter_size, stride=1, pad=0, groups=1,
                 act="relu"):
        super().__init__()
        self._conv = nn.Conv2D(num_channels, num_filters, filter_size, stride=stride,
                               padding=pad, groups=groups, bias_attr=False)
        self._batch_norm = nn.BatchNorm(num_filters, act=act)

    def forward(self, input):
        return self._batch_norm(self._conv(input))


_SPECS = {121: (64, 32, [6, 12, 24, 16]), 161: (96, 48, [6, 12, 36, 24]),
          169: (64, 32, [6, 12, 32, 32]), 201: (64, 32, [6, 12, 48, 32]),
          264: (64, 32, [6, 12, 64, 48])}


class DenseNet(nn.Layer):
    """DenseNet(layers=121, bn_size=4, dropout=0.0, num_classes=1000, with_pool=True)."""

    def __init__(self, layers=121, bn_size=4, dropout=0.0, num_classes=1000, with_pool=True):
        super().__init__()
        if layers not in _SPECS:
            raise _errors.InvalidArgument(
                f"supported layers are {sorted(_SPECS)} but input layer is "
                f"{layers}")
        self.num_classes = num_classes
        self.with_pool = with_pool
        num_init, growth, block_config = _SPECS[layers]
        self.conv1_func = ConvBNLayer(3, num_init, 7, stride=2, pad=3, act="relu")
        self.pool2d_max = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self.block_config = block_config
        self.dense_block_func_list = []
        self.transition_func_list = []
        features = num_init
        for i, n in enumerate(block_config):
            self.dense_block_func_list.append(self.add_sublayer(
                f"db_conv_{i + 2}", DenseBlock(features, n, bn_size, growth, dropout,
                                               name=f"conv{i + 2}")))
            features += n * growth
            if i != len(block_config) - 1:
                self.transition_func_list.append(self.add_sublayer(
                    f"tr_conv{i + 2}_blk", TransitionLayer(features, features // 2)))
                features //= 2
        self.batch_norm = nn.BatchNorm(features, act="relu")
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            stdv = 1.0 / math.sqrt(features * 1.0)
            self.out = nn.Linear(features, num_classes,
                                 weight_attr=nn.ParamAttr(initializer=Uniform(-stdv, stdv)))

    def forward(self, input):
        y = self.pool2d_max(self.conv1_func(input))
        for i in range(len(self.block_config)):
            y = self.dense_block_func_list[i](y)
            if i != len(self.block_config) - 1:
                y = self.transition_func_list[i](y)
        y = self.batch_norm(y)
        if self.with_pool:
            y = self.pool2d_avg(y)
        if self.num_classes > 0:
            y = self.out(flatten(y, start_axis=1, stop_axis=-1))
        return y


def _densenet(arch, layers, pretrained, **kwargs):
    return load_pretrained(DenseNet(layers=layers, **kwargs), arch, pretrained,
                           f"DenseNet{layers}_pretrained.pdparams")


def densenet121(pretrained=False, **kwargs):
    return _densenet("densenet121", 121, pretrained, **kwargs)


def densenet161(pretrained=False, **kwargs):
    return _densenet("densenet161", 161, pretrained, **kwargs)


def densenet169(pretrained=False, **kwargs):
    return _densenet("densenet169", 169, pretrained, **kwargs)


def densenet201(pretrained=False, **kwargs):
    return _densenet("densenet201", 201, pretrained, **kwargs)


def densenet264(pretrained=False, **kwargs):
    return _densenet("densenet264", 264, pretrained, **kwargs)
