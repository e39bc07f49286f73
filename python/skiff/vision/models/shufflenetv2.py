"""ShuffleNetV2 (Paddle's layout: _conv1, blocks named `2_1` ... `4_4` of ConvNormActivation
Sequentials, _last_conv, _fc). Channel shuffle is reshape-transpose-reshape."""
from ... import concat, flatten, reshape, split, transpose
from ... import nn
from ..ops import ConvNormActivation
from ._utils import load_pretrained
from ... import _errors

__all__ = ["ShuffleNetV2", "shufflenet_v2_x0_25", "shufflenet_v2_x0_33", "shufflenet_v2_x0_5",
           "shufflenet_v2_x1_0", "shufflenet_v2_x1_5", "shufflenet_v2_x2_0",
           "shufflenet_v2_swish"]


def _activation_layer(act):
    if act == "swish":
        return nn.Swish
    if act == "relu":
        return nn.ReLU
    if act is None:
        return None
    raise _errors.InvalidArgument(f"ShuffleNetV2: the activation function is not supported: {act}")


def channel_shuffle(x, groups):
    b, c, h, w = x.shape[0:4]
    x = reshape(x, [b, groups, c // groups, h, w])
    x = transpose(x, perm=[0, 2, 1, 3, 4])
    return reshape(x, [b, c, h, w])


class InvertedResidual(nn.Layer):
    def __init__(self, in_channels, out_channels, stride, activation_layer=nn.ReLU):
        super().__init__()
        half = out_channels // 2
        self._conv_pw = ConvNormActivation(in_channels // 2, half, 1, 1, 0,
                                           activation_layer=activation_layer)
        self._conv_dw = ConvNormActivation(half, half, 3, stride, 1, groups=half,
                                           activation_layer=None)
        self._conv_linear = ConvNormActivation(half, half, 1, 1, 0,
                                               activation_layer=activation_layer)

    def forward(self, inputs):
        c = inputs.shape[1]
        x1, x2 = split(inputs, num_or_sections=[c // 2, c // 2], axis=1)
        x2 = self._conv_linear(self._conv_dw(self._conv_pw(x2)))
        return channel_shuffle(concat([x1, x2], axis=1), 2)


class InvertedResidualDS(nn.Layer):
    def __init__(self, in_channels, out_channels, stride, activation_layer=nn.ReLU):
        super().__init__()
        half = out_channels // 2
        self._conv_dw_1 = ConvNormActivation(in_channels, in_channels, 3, stride, 1,
                                             groups=in_channels, activation_layer=None)
        self._conv_linear_1 = ConvNormActivation(in_channels, half, 1, 1, 0,
                                                 activation_layer=activation_layer)
        self._conv_pw_2 = ConvNormActivation(in_channels, half, 1, 1, 0,
                                             activation_layer=activation_layer)
        self._conv_dw_2 = ConvNormActivation(half, half, 3, stride, 1, groups=half,
                                             activation_layer=None)
        self._conv_linear_2 = ConvNormActivation(half, half, 1, 1, 0,
                                                 activation_layer=activation_layer)

    def forward(self, inputs):
        x1 = self._conv_linear_1(self._conv_dw_1(inputs))
        x2 = self._conv_linear_2(self._conv_dw_2(self._conv_pw_2(inputs)))
        return channel_shuffle(concat([x1, x2], axis=1), 2)


_STAGE_CHANNELS = {0.25: [-1, 24, 24, 48, 96, 512], 0.33: [-1, 24, 32, 64, 128, 512],
                   0.5: [-1, 24, 48, 96, 192, 1024], 1.0: [-1, 24, 116, 232, 464, 1024],
                   1.5: [-1, 24, 176, 352, 704, 1024], 2.0: [-1, 24, 224, 488, 976, 2048]}


class ShuffleNetV2(nn.Layer):
    """ShuffleNetV2(scale=1.0, act='relu', num_classes=1000, with_pool=True)."""

    def __init__(self, scale=1.0, act="relu", num_classes=1000, with_pool=True):
        super().__init__()
        if scale not in _STAGE_CHANNELS:
            raise _errors.Unimplemented(f"This scale size:[{scale}] is not implemented!")
        self.scale = scale
        self.num_classes = num_classes
        self.with_pool = with_pool
        ch = _STAGE_CHANNELS[scale]
        act_layer = _activation_layer(act)
        self._conv1 = ConvNormActivation(3, ch[1], 3, 2, 1, activation_layer=act_layer)
        self._max_pool = nn.MaxPool2D(kernel_size=3, stride=2, padding=1)
        self._block_list = []
        for stage_id, repeats in enumerate([4, 8, 4]):
            for i in range(repeats):
                if i == 0:
                    blk = InvertedResidualDS(ch[stage_id + 1], ch[stage_id + 2], 2, act_layer)
                else:
                    blk = InvertedResidual(ch[stage_id + 2], ch[stage_id + 2], 1, act_layer)
                self._block_list.append(self.add_sublayer(f"{stage_id + 2}_{i + 1}", blk))
        self._last_conv = ConvNormActivation(ch[-2], ch[-1], 1, 1, 0, activation_layer=act_layer)
        if with_pool:
            self._pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self._out_c = ch[-1]
            self._fc = nn.Linear(ch[-1], num_classes)

    def forward(self, inputs):
        x = self._max_pool(self._conv1(inputs))
        for blk in self._block_list:
            x = blk(x)
        x = self._last_conv(x)
        if self.with_pool:
            x = self._pool2d_avg(x)
        if self.num_classes > 0:
            x = self._fc(flatten(x, start_axis=1, stop_axis=-1))
        return x


def _shufflenet_v2(arch, pretrained=False, **kwargs):
    return load_pretrained(ShuffleNetV2(**kwargs), arch, pretrained, f"{arch}.pdparams")


def shufflenet_v2_x0_25(pretrained=False, **kwargs):
    return _shufflenet_v2("shufflenet_v2_x0_25", pretrained, scale=0.25, **kwargs)


def shufflenet_v2_x0_33(pretrained=False, **kwargs):
    return _shufflenet_v2("shufflenet_v2_x0_33", pretrained, scale=0.33, **kwargs)


def shufflenet_v2_x0_5(pretrained=False, **kwargs):
    return _shufflenet_v2("shufflenet_v2_x0_5", pretrained, scale=0.5, **kwargs)


def shufflenet_v2_x1_0(pretrained=False, **kwargs):
    return _shufflenet_v2("shufflenet_v2_x1_0", pretrained, scale=1.0, **kwargs)


def shufflenet_v2_x1_5(pretrained=False, **kwargs):
    return _shufflenet_v2("shufflenet_v2_x1_5", pretrained, scale=1.5, **kwargs)


def shufflenet_v2_x2_0(pretrained=False, **kwargs):
    return _shufflenet_v2("shufflenet_v2_x2_0", pretrained, scale=2.0, **kwargs)


def shufflenet_v2_swish(pretrained=False, **kwargs):
    return _shufflenet_v2("shufflenet_v2_swish", pretrained, scale=1.0, act="swish", **kwargs)
