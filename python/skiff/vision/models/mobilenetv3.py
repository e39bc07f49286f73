"""MobileNetV3 Small and Large (Paddle's layout: conv, blocks.<i> with expand_conv,
bottleneck_conv, mid_se, linear_conv; last_second_conv, last_conv, fc)."""
from ... import multiply
from ... import nn
from ...nn import functional as F
from ...regularizer import L2Decay
from ._utils import _make_divisible, load_pretrained
from ... import _errors

__all__ = ["MobileNetV3Small", "MobileNetV3Large", "mobilenet_v3_small", "mobilenet_v3_large"]


def _create_act(act):
    if act == "hardswish":
        return nn.Hardswish()
    if act == "relu":
        return nn.ReLU()
    if act is None:
        return None
    raise _errors.InvalidArgument(f"MobileNetV3: the activation function is not supported: {act}")


class _Hardsigmoid(nn.Layer):
    def __init__(self, slope=0.1666667, offset=0.5):
        super().__init__()
        self.slope = slope
        self.offset = offset

    def forward(self, x):
        return F.hardsigmoid(x, slope=self.slope, offset=self.offset)


class SqueezeExcitation(nn.Layer):
    def __init__(self, channels, reduction=4):
        super().__init__()
        self.avg_pool = nn.AdaptiveAvgPool2D(1)
        self.conv1 = nn.Conv2D(channels, channels // reduction, 1, stride=1, padding=0)
        self.relu = nn.ReLU()
        self.conv2 = nn.Conv2D(channels // reduction, channels, 1, stride=1, padding=0)
        self.hardsigmoid = _Hardsigmoid(slope=0.2, offset=0.5)

    def forward(self, x):
        s = self.hardsigmoid(self.conv2(self.relu(self.conv1(self.avg_pool(x)))))
        return multiply(x, s)


class ConvBNLayer(nn.Layer):
    def __init__(self, in_channels, out_channels, filter_size, stride, padding, num_groups=1,
                 act=None):
        super().__init__()
        self.conv = nn.Conv2D(in_channels, out_channels, filter_size, stride=stride,
                              padding=padding, groups=num_groups, bias_attr=False)
        self.bn = nn.BatchNorm(num_channels=out_channels, act=None,
                               param_attr=nn.ParamAttr(regularizer=L2Decay(0.0)),
                               bias_attr=nn.ParamAttr(regularizer=L2Decay(0.0)))
        self.act = _create_act(act)

    def forward(self, x):
        x = self.bn(self.conv(x))
        return self.act(x) if self.act is not None else x


class InvertedResidual(nn.Layer):
    def __init__(self, in_channels, expanded_channels, out_channels, filter_size, stride,
                 use_se, act=None):
        super().__init__()
        self.if_shortcut = stride == 1 and in_channels == out_channels
        self.if_se = use_se
        self.expand_conv = ConvBNLayer(in_channels, expanded_channels, 1, 1, 0, act=act)
        self.bottleneck_conv = ConvBNLayer(expanded_channels, expanded_channels, filter_size,
                                           stride, (filter_size - 1) // 2,
                                           num_groups=expanded_channels, act=act)
        if use_se:
            self.mid_se = SqueezeExcitation(expanded_channels)
        self.linear_conv = ConvBNLayer(expanded_channels, out_channels, 1, 1, 0, act=None)

    def forward(self, x):
        identity = x
        x = self.bottleneck_conv(self.expand_conv(x))
        if self.if_se:
            x = self.mid_se(x)
        x = self.linear_conv(x)
        return identity + x if self.if_shortcut else x


class InvertedResidualConfig:
    def __init__(self, in_channels, kernel, expanded_channels, out_channels, use_se,
                 activation, stride):
        self.in_channels = in_channels
        self.kernel = kernel
        self.expanded_channels = expanded_channels
        self.out_channels = out_channels
        self.use_se = use_se
        self.activation = activation
        self.stride = stride


class MobileNetV3(nn.Layer):
    def __init__(self, config, scale=1.0, last_channel=1280, num_classes=1000, with_pool=True):
        super().__init__()
        self.config = config
        self.scale = scale
        self.last_channel = last_channel
        self.num_classes = num_classes
        self.with_pool = with_pool
        self.first_in_channels = config[0].in_channels
        self.last_expanded_channels = config[-1].expanded_channels
        self.last_out_channels = config[-1].out_channels
        self.conv = ConvBNLayer(3, _make_divisible(self.first_in_channels * scale), 3, 2, 1,
                                num_groups=1, act="hardswish")
        self.blocks = nn.Sequential(*[
            InvertedResidual(_make_divisible(scale * c.in_channels),
                             _make_divisible(scale * c.expanded_channels),
                             _make_divisible(scale * c.out_channels), c.kernel, c.stride,
                             c.use_se, c.activation) for c in config])
        last_expanded = _make_divisible(scale * self.last_expanded_channels)
        self.last_second_conv = ConvBNLayer(_make_divisible(scale * self.last_out_channels),
                                            last_expanded, 1, 1, 0, num_groups=1,
                                            act="hardswish")
        if with_pool:
            self.avg_pool = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.last_conv = nn.Conv2D(last_expanded, last_channel, 1, stride=1, padding=0,
                                       bias_attr=False)
            self.hardswish = nn.Hardswish()
            self.dropout = nn.Dropout(p=0.2, mode="downscale_in_infer")
            self.flatten = nn.Flatten(start_axis=1, stop_axis=-1)
            self.fc = nn.Linear(last_channel, num_classes)

    def forward(self, x):
        x = self.last_second_conv(self.blocks(self.conv(x)))
        if self.with_pool:
            x = self.avg_pool(x)
        if self.num_classes > 0:
            x = self.dropout(self.hardswish(self.last_conv(x)))
            x = self.fc(self.flatten(x))
        return x


_C = InvertedResidualConfig


class MobileNetV3Small(MobileNetV3):
    """MobileNetV3Small(scale=1.0, last_channel=1280, num_classes=1000, with_pool=True)."""

    def __init__(self, scale=1.0, last_channel=1280, num_classes=1000, with_pool=True):
        config = [
            _C(16, 3, 16, 16, True, "relu", 2), _C(16, 3, 72, 24, False, "relu", 2),
            _C(24, 3, 88, 24, False, "relu", 1), _C(24, 5, 96, 40, True, "hardswish", 2),
            _C(40, 5, 240, 40, True, "hardswish", 1), _C(40, 5, 240, 40, True, "hardswish", 1),
            _C(40, 5, 120, 48, True, "hardswish", 1), _C(48, 5, 144, 48, True, "hardswish", 1),
            _C(48, 5, 288, 96, True, "hardswish", 2), _C(96, 5, 576, 96, True, "hardswish", 1),
            _C(96, 5, 576, 96, True, "hardswish", 1)]
        super().__init__(config, scale=scale, last_channel=last_channel, with_pool=with_pool,
                         num_classes=num_classes)


class MobileNetV3Large(MobileNetV3):
    """MobileNetV3Large(scale=1.0, last_channel=1280, num_classes=1000, with_pool=True)."""

    def __init__(self, scale=1.0, last_channel=1280, num_classes=1000, with_pool=True):
        config = [
            _C(16, 3, 16, 16, False, "relu", 1), _C(16, 3, 64, 24, False, "relu", 2),
            _C(24, 3, 72, 24, False, "relu", 1), _C(24, 5, 72, 40, True, "relu", 2),
            _C(40, 5, 120, 40, True, "relu", 1), _C(40, 5, 120, 40, True, "relu", 1),
            _C(40, 3, 240, 80, False, "hardswish", 2), _C(80, 3, 200, 80, False, "hardswish", 1),
            _C(80, 3, 184, 80, False, "hardswish", 1), _C(80, 3, 184, 80, False, "hardswish", 1),
            _C(80, 3, 480, 112, True, "hardswish", 1),
            _C(112, 3, 672, 112, True, "hardswish", 1),
            _C(112, 5, 672, 160, True, "hardswish", 2),
            _C(160, 5, 960, 160, True, "hardswish", 1),
            _C(160, 5, 960, 160, True, "hardswish", 1)]
        super().__init__(config, scale=scale, last_channel=last_channel, with_pool=with_pool,
                         num_classes=num_classes)


def mobilenet_v3_small(pretrained=False, scale=1.0, **kwargs):
    model = MobileNetV3Small(scale=scale, **kwargs)
    return load_pretrained(model, f"mobilenet_v3_small_x{scale}", pretrained,
                           f"MobileNetV3_small_x{str(scale).replace('.', '_')}_pretrained.pdparams")


def mobilenet_v3_large(pretrained=False, scale=1.0, **kwargs):
    model = MobileNetV3Large(scale=scale, **kwargs)
    return load_pretrained(model, f"mobilenet_v3_large_x{scale}", pretrained,
                           f"MobileNetV3_large_x{str(scale).replace('.', '_')}_pretrained.pdparams")
