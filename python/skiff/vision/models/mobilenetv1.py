"""MobileNetV1 (Paddle's sublayer names: conv1, conv2_1 ... conv6, each with _depthwise_conv
and _pointwise_conv ConvBNLayers of _conv and _norm_layer)."""
from ... import flatten
from ... import nn
from ._utils import load_pretrained

__all__ = ["MobileNetV1", "mobilenet_v1"]


class ConvBNLayer(nn.Layer):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, num_groups=1):
        super().__init__()
        self._conv = nn.Conv2D(in_channels, out_channels, kernel_size, stride=stride,
                               padding=padding, groups=num_groups, bias_attr=False)
        self._norm_layer = nn.BatchNorm2D(out_channels)
        self._act = nn.ReLU()

    def forward(self, x):
        return self._act(self._norm_layer(self._conv(x)))


class DepthwiseSeparable(nn.Layer):
    def __init__(self, in_channels, out_channels1, out_channels2, num_groups, stride, scale):
        super().__init__()
        self._depthwise_conv = ConvBNLayer(in_channels, int(out_channels1 * scale),
                                           kernel_size=3, stride=stride, padding=1,
                                           num_groups=int(num_groups * scale))
        self._pointwise_conv = ConvBNLayer(int(out_channels1 * scale),
                                           int(out_channels2 * scale), kernel_size=1,
                                           stride=1, padding=0)

    def forward(self, x):
        return self._pointwise_conv(self._depthwise_conv(x))


class MobileNetV1(nn.Layer):
    """MobileNetV1(scale=1.0, num_classes=1000, with_pool=True)."""

    def __init__(self, scale=1.0, num_classes=1000, with_pool=True):
        super().__init__()
        self.scale = scale
        self.dwsl = []
        self.num_classes = num_classes
        self.with_pool = with_pool
        self.conv1 = ConvBNLayer(3, int(32 * scale), kernel_size=3, stride=2, padding=1)
        # (name, in, out1, out2, groups, stride); ins are scaled, outs scaled inside.
        cfg = [("conv2_1", 32, 32, 64, 32, 1), ("conv2_2", 64, 64, 128, 64, 2),
               ("conv3_1", 128, 128, 128, 128, 1), ("conv3_2", 128, 128, 256, 128, 2),
               ("conv4_1", 256, 256, 256, 256, 1), ("conv4_2", 256, 256, 512, 256, 2)]
        cfg += [(f"conv5_{i + 1}", 512, 512, 512, 512, 1) for i in range(5)]
        cfg += [("conv5_6", 512, 512, 1024, 512, 2), ("conv6", 1024, 1024, 1024, 1024, 1)]
        for name, cin, c1, c2, g, s in cfg:
            block = self.add_sublayer(
                name, DepthwiseSeparable(int(cin * scale), c1, c2, g, s, scale))
            self.dwsl.append(block)
        if with_pool:
            self.pool2d_avg = nn.AdaptiveAvgPool2D(1)
        if num_classes > 0:
            self.fc = nn.Linear(int(1024 * scale), num_classes)

    def forward(self, x):
        x = self.conv1(x)
        for dws in self.dwsl:
            x = dws(x)
        if self.with_pool:
            x = self.pool2d_avg(x)
        if self.num_classes > 0:
            x = flatten(x, 1)
            x = self.fc(x)
        return x


def mobilenet_v1(pretrained=False, scale=1.0, **kwargs):
    model = MobileNetV1(scale=scale, **kwargs)
    return load_pretrained(model, f"mobilenetv1_{scale}", pretrained,
                           f"mobilenetv1_{scale}.pdparams")
