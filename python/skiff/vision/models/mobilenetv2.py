"""MobileNetV2 (Paddle's layout: features.<i> of ConvBNReLU Sequentials and InvertedResidual
blocks with a `conv` Sequential; classifier = Dropout(0.2), Linear)."""
from ... import flatten
from ... import nn
from ._utils import _make_divisible, load_pretrained
from ... import _errors

__all__ = ["MobileNetV2", "mobilenet_v2"]


class ConvBNReLU(nn.Sequential):
    def __init__(self, in_planes, out_planes, kernel_size=3, stride=1, groups=1,
                 norm_layer=nn.BatchNorm2D):
        padding = (kernel_size - 1) // 2
        super().__init__(
            nn.Conv2D(in_planes, out_planes, kernel_size, stride, padding, groups=groups,
                      bias_attr=False),
            norm_layer(out_planes), nn.ReLU6())


class InvertedResidual(nn.Layer):
    def __init__(self, inp, oup, stride, expand_ratio, norm_layer=nn.BatchNorm2D):
        super().__init__()
        if stride not in (1, 2):
            raise _errors.InvalidArgument(f"InvertedResidual: stride must be 1 or 2, got {stride}")
        self.stride = stride
        hidden_dim = int(round(inp * expand_ratio))
        self.use_res_connect = stride == 1 and inp == oup
        layers = []
        if expand_ratio != 1:
            layers.append(ConvBNReLU(inp, hidden_dim, kernel_size=1, norm_layer=norm_layer))
        layers += [ConvBNReLU(hidden_dim, hidden_dim, stride=stride, groups=hidden_dim,
                              norm_layer=norm_layer),
                   nn.Conv2D(hidden_dim, oup, 1, 1, 0, bias_attr=False),
                   norm_layer(oup)]
        self.conv = nn.Sequential(*layers)

    def forward(self, x):
        return x + self.conv(x) if self.use_res_connect else self.conv(x)


class MobileNetV2(nn.Layer):
    """MobileNetV2(scale=1.0, num_classes=1000, with_pool=True)."""

    def __init__(self, scale=1.0, num_classes=1000, with_pool=True):
        super().__init__()
        self.num_classes = num_classes
        self.with_pool = with_pool
        round_nearest = 8
        norm_layer = nn.BatchNorm2D
        setting = [[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2], [6, 64, 4, 2], [6, 96, 3, 1],
                   [6, 160, 3, 2], [6, 320, 1, 1]]
        input_channel = _make_divisible(32 * scale, round_nearest)
        self.last_channel = _make_divisible(1280 * max(1.0, scale), round_nearest)
        features = [ConvBNReLU(3, input_channel, stride=2, norm_layer=norm_layer)]
        for t, c, n, s in setting:
            output_channel = _make_divisible(c * scale, round_nearest)
            for i in range(n):
                features.append(InvertedResidual(input_channel, output_channel,
                                                 s if i == 0 else 1, expand_ratio=t,
                                                 norm_layer=norm_layer))
                input_channel = output_channel
        features.append(ConvBNReLU(input_channel, self.last_channel, kernel_size=1,
                                   norm_layer=norm_layer))
        self.features = nn.Sequential(*features)
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.classifier = nn.Sequential(nn.Dropout(0.2),
                                            nn.Linear(self.last_channel, num_classes))

    def forward(self, x):
        x = self.features(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = flatten(x, 1)
            x = self.classifier(x)
        return x


def mobilenet_v2(pretrained=False, scale=1.0, **kwargs):
    model = MobileNetV2(scale=scale, **kwargs)
    return load_pretrained(model, f"mobilenetv2_{scale}", pretrained,
                           f"mobilenet_v2_x{scale}.pdparams")
