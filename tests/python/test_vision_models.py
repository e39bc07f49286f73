"""paddle.vision.models: parameter counts equal the published ones, state_dict keys and shapes
equal those of Paddle's definitions (so Paddle .pdparams load), forward shapes on tiny inputs."""
import numpy as np
import pytest

import skiff as paddle
from skiff.nn.initializer import Constant, set_global_initializer
from skiff.vision import models as M
from skiff.vision.models.resnet import BasicBlock


def _trainable(m):
    return sum(int(np.prod(p.shape)) for p in m.parameters() if not p.stop_gradient)


@pytest.fixture
def zero_init():
    """Counting parameters needs no random values: constant init keeps the big models fast."""
    set_global_initializer(Constant(0.0), Constant(0.0))
    yield
    set_global_initializer(None, None)


# Published parameter counts (Paddle's models have torchvision's architectures, so the counts
# of both model zoos agree); MobileNetV3: Paddle's own layout (PaddleClas: 2.94M / 5.47M).
COUNTS = [
    ("LeNet", {}, 61_610),
    ("resnet18", {}, 11_689_512), ("resnet34", {}, 21_797_672),
    ("resnet50", {}, 25_557_032), ("resnet101", {}, 44_549_160),
    ("resnet152", {}, 60_192_808), ("resnext50_32x4d", {}, 25_028_904),
    ("wide_resnet50_2", {}, 68_883_240),
    ("vgg11", {}, 132_863_336), ("vgg16", {}, 138_357_544), ("vgg19", {}, 143_667_240),
    ("vgg16", {"batch_norm": True}, 138_365_992), ("vgg16", {"num_classes": 0}, 14_714_688),
    ("mobilenet_v1", {}, 4_231_976), ("mobilenet_v2", {}, 3_504_872),
    ("mobilenet_v3_small", {}, 2_939_958), ("mobilenet_v3_large", {}, 5_480_206),
    ("squeezenet1_0", {}, 1_248_424), ("squeezenet1_1", {}, 1_235_496),
    ("shufflenet_v2_x0_5", {}, 1_366_792), ("shufflenet_v2_x1_0", {}, 2_278_604),
    ("densenet121", {}, 7_978_856), ("densenet161", {}, 28_681_000),
    ("densenet169", {}, 14_149_480), ("densenet201", {}, 20_013_928),
    ("googlenet", {}, 11_535_736),  # Paddle's, with both auxiliary heads (PaddleClas: 11.54M)
    # torchvision's inception_v3 (27,161,264) less its auxiliary head (3,326,696): Paddle's has
    # none; its BatchNorms are affine like torchvision's.
    ("inception_v3", {}, 23_834_568), ("inception_v3", {"num_classes": 0}, 21_785_568),
]


@pytest.mark.parametrize("name,kwargs,count", COUNTS,
                         ids=[f"{n}{'-' + str(k) if k else ''}" for n, k, _ in COUNTS])
def test_parameter_counts(zero_init, name, kwargs, count):
    assert _trainable(getattr(M, name)(**kwargs)) == count


def test_googlenet_keys_and_three_outputs():
    paddle.seed(0)
    m = M.googlenet(num_classes=7)
    sd = m.state_dict()
    for k, shape in {"_conv._conv.weight": [64, 3, 7, 7],
                     "_ince3a._conv1._conv.weight": [64, 192, 1, 1],
                     "_ince5b._convprj._conv.weight": [128, 832, 1, 1],
                     "_fc_o1.weight": [1152, 1024], "_out2.bias": [7],
                     "_fc_out.weight": [1024, 7]}.items():
        assert list(sd[k].shape) == shape, k
    assert not any("_mean" in k for k in sd)  # Paddle's GoogLeNet has no batch norm
    m.eval()
    out = m(paddle.randn([1, 3, 224, 224]))
    assert [o.shape for o in out] == [[1, 7]] * 3


def _inception_count(num_classes):
    """Inception v3's count from its architecture table (independent of the model code): each
    ConvNormActivation is a bias-free conv plus an affine batch norm."""
    def cna(cin, cout, kh, kw=None):
        return cin * cout * kh * (kw or kh) + 2 * cout
    stem = cna(3, 32, 3) + cna(32, 32, 3) + cna(32, 64, 3) + cna(64, 80, 1) + cna(80, 192, 3)

    def a(c, pf):
        return (cna(c, 64, 1) + cna(c, 48, 1) + cna(48, 64, 5) + cna(c, 64, 1) + cna(64, 96, 3)
                + cna(96, 96, 3) + cna(c, pf, 1))

    def c_(c, c7):
        return (cna(c, 192, 1) + cna(c, c7, 1) + cna(c7, c7, 1, 7) + cna(c7, 192, 7, 1)
                + cna(c, c7, 1) + 3 * cna(c7, c7, 1, 7) + cna(c7, 192, 1, 7) + cna(c, 192, 1))

    def e(c):
        return (cna(c, 320, 1) + cna(c, 384, 1) + 2 * cna(384, 384, 1, 3) + cna(c, 448, 1)
                + cna(448, 384, 3) + 2 * cna(384, 384, 1, 3) + cna(c, 192, 1))
    b = cna(288, 384, 3) + cna(288, 64, 1) + cna(64, 96, 3) + cna(96, 96, 3)
    d = (cna(768, 192, 1) + cna(192, 320, 3) + cna(768, 192, 1) + 2 * cna(192, 192, 1, 7)
         + cna(192, 192, 3))
    total = (stem + a(192, 32) + a(256, 64) + a(288, 64) + b + c_(768, 128) + 2 * c_(768, 160)
             + c_(768, 192) + d + e(1280) + e(2048))
    return total + (2048 * num_classes + num_classes if num_classes > 0 else 0)


def test_inception_v3_count_keys_and_forward(zero_init):
    assert _inception_count(1000) == 23_834_568
    m = M.InceptionV3(num_classes=5)
    assert _trainable(m) == _inception_count(5)
    sd = m.state_dict()
    for k, shape in {"inception_stem.conv_1a_3x3.0.weight": [32, 3, 3, 3],
                     "inception_stem.conv_4a_3x3.1._variance": [192],
                     "inception_block_list.0.branch_pool_conv.0.weight": [32, 192, 1, 1],
                     "inception_block_list.3.branch3x3.0.weight": [384, 288, 3, 3],
                     "inception_block_list.4.branch7x7_2.0.weight": [128, 128, 1, 7],
                     "inception_block_list.7.branch7x7dbl_5.0.weight": [192, 192, 1, 7],
                     "inception_block_list.8.branch7x7x3_4.0.weight": [192, 192, 3, 3],
                     "inception_block_list.10.branch3x3dbl_3b.0.weight": [384, 384, 3, 1],
                     "inception_block_list.10.branch3x3dbl_3b.1.bias": [384],
                     "fc.weight": [2048, 5], "fc.bias": [5]}.items():
        assert list(sd[k].shape) == shape, k
    assert all(k.startswith(("inception_stem.", "inception_block_list.", "fc."))
               and k.endswith(("weight", "bias", "_mean", "_variance")) for k in sd)
    # per ConvNormActivation (94 of them) the conv weight and the norm's weight, bias, _mean and
    # _variance; the fc's two
    assert len(sd) == 94 * 5 + 2
    assert not hasattr(M.InceptionV3(num_classes=0), "fc")
    with pytest.raises(ValueError, match="does not download.*inception_v3.pdparams"):
        M.inception_v3(pretrained=True)


def test_inception_v3_forward():
    paddle.seed(0)
    m = M.inception_v3(num_classes=7)
    m.eval()
    y = m(paddle.randn([2, 3, 75, 75]))  # the smallest input the stride-2 steps allow
    assert y.shape == [2, 7] and np.isfinite(y.numpy()).all()
    feats = M.InceptionV3(num_classes=0, with_pool=False)
    feats.eval()
    assert feats(paddle.randn([1, 3, 107, 107])).shape == [1, 2048, 2, 2]
    pooled = M.InceptionV3(num_classes=0)
    pooled.eval()
    assert pooled(paddle.randn([1, 3, 75, 75])).shape == [1, 2048, 1, 1]
    # trains: every parameter gets a gradient through the 94 conv-BN-ReLU units
    m.train()
    loss = paddle.nn.functional.cross_entropy(m(paddle.randn([2, 3, 75, 75])),
                                              paddle.to_tensor(np.array([[1], [4]])))
    loss.backward()
    assert not [p.name for p in m.parameters() if not p.stop_gradient and p.grad is None]


def test_alexnet_count_and_forward():
    m = M.alexnet()  # its own Uniform init ignores the global one
    assert _trainable(m) == 61_100_840
    sd = m.state_dict()
    assert list(sd["_conv1._conv.weight"].shape) == [64, 3, 11, 11]
    assert list(sd["_fc6.weight"].shape) == [9216, 4096]
    m.eval()
    assert m(paddle.randn([1, 3, 224, 224])).shape == [1, 1000]


# Keys and shapes as Paddle's definitions name them (Linear weights are [in, out]; BatchNorm
# running statistics are `_mean` / `_variance`).
KEYS = {
    ("LeNet", ()): {"features.0.weight": [6, 1, 3, 3], "features.3.weight": [16, 6, 5, 5],
                    "fc.0.weight": [400, 120], "fc.2.bias": [10]},
    ("resnet18", ()): {"conv1.weight": [64, 3, 7, 7], "bn1._mean": [64], "bn1._variance": [64],
                       "layer1.0.conv1.weight": [64, 64, 3, 3],
                       "layer2.0.downsample.0.weight": [128, 64, 1, 1],
                       "layer2.0.downsample.1.weight": [128], "layer4.1.bn2.bias": [512],
                       "fc.weight": [512, 1000], "fc.bias": [1000]},
    ("resnet50", ()): {"layer1.0.conv3.weight": [256, 64, 1, 1],
                       "layer3.5.bn3._variance": [1024], "fc.weight": [2048, 1000]},
    ("resnext50_32x4d", ()): {"layer1.0.conv2.weight": [128, 4, 3, 3]},
    ("vgg16", ()): {"features.0.weight": [64, 3, 3, 3], "features.28.weight": [512, 512, 3, 3],
                    "classifier.0.weight": [25088, 4096], "classifier.6.weight": [4096, 1000]},
    ("vgg11", (("batch_norm", True),)): {"features.1._mean": [64],
                                         "features.25.weight": [512, 512, 3, 3],
                                         "features.26._variance": [512]},
    ("mobilenet_v1", ()): {"conv1._conv.weight": [32, 3, 3, 3],
                           "conv2_1._depthwise_conv._conv.weight": [32, 1, 3, 3],
                           "conv5_6._pointwise_conv._norm_layer._variance": [1024],
                           "fc.weight": [1024, 1000]},
    ("mobilenet_v2", ()): {"features.0.0.weight": [32, 3, 3, 3],
                           "features.1.conv.0.0.weight": [32, 1, 3, 3],
                           "features.2.conv.0.0.weight": [96, 16, 1, 1],
                           "features.18.1._mean": [1280], "classifier.1.weight": [1280, 1000]},
    ("mobilenet_v3_small", ()): {"conv.conv.weight": [16, 3, 3, 3], "conv.bn._mean": [16],
                                 "blocks.0.mid_se.conv1.weight": [4, 16, 1, 1],
                                 "blocks.0.mid_se.conv1.bias": [4],
                                 "last_second_conv.conv.weight": [576, 96, 1, 1],
                                 "last_conv.weight": [1280, 576, 1, 1],
                                 "fc.weight": [1280, 1000]},
    ("shufflenet_v2_x1_0", ()): {"_conv1.0.weight": [24, 3, 3, 3],
                                 "2_1._conv_dw_1.0.weight": [24, 1, 3, 3],
                                 "4_4._conv_linear.1._variance": [232],
                                 "_last_conv.0.weight": [1024, 464, 1, 1],
                                 "_fc.weight": [1024, 1000]},
    ("densenet121", ()): {"conv1_func._conv.weight": [64, 3, 7, 7],
                          "conv1_func._batch_norm._mean": [64],
                          "db_conv_2.conv2_1.bn_ac_func1._conv.weight": [128, 64, 1, 1],
                          "db_conv_2.conv2_6.bn_ac_func2._conv.weight": [32, 128, 3, 3],
                          "tr_conv2_blk.conv_ac_func._conv.weight": [128, 256, 1, 1],
                          "db_conv_5.conv5_16.bn_ac_func1._batch_norm.weight": [992],
                          "batch_norm._variance": [1024], "out.weight": [1024, 1000]},
    ("squeezenet1_1", ()): {"_conv.weight": [64, 3, 3, 3],
                            "_conv1._conv._conv.weight": [16, 64, 1, 1],
                            "_conv8._conv_path2._conv.weight": [256, 64, 3, 3],
                            "_conv9.weight": [1000, 512, 1, 1]},
}


@pytest.mark.parametrize("key", list(KEYS), ids=[k[0] + str(dict(k[1]) or "") for k in KEYS])
def test_state_dict_names_and_shapes(zero_init, key):
    name, kwargs = key
    sd = getattr(M, name)(**dict(kwargs)).state_dict()
    for k, shape in KEYS[key].items():
        assert k in sd, f"{name}: missing {k}"
        assert list(sd[k].shape) == shape, k
    # no keys outside Paddle's naming scheme (e.g. from helper attributes)
    assert all(k.endswith(("weight", "bias", "_mean", "_variance")) for k in sd)


FORWARD = [
    ("LeNet", {}, [2, 1, 28, 28], [2, 10]),
    ("LeNet", {"num_classes": 0}, [2, 1, 28, 28], [2, 16, 5, 5]),
    ("resnet18", {"num_classes": 10}, [2, 3, 32, 32], [2, 10]),
    ("resnet18", {"num_classes": 0, "with_pool": False}, [1, 3, 64, 64], [1, 512, 2, 2]),
    ("resnext50_32x4d", {"num_classes": 5}, [1, 3, 32, 32], [1, 5]),
    ("vgg11", {"num_classes": 0, "with_pool": False}, [2, 3, 32, 32], [2, 512, 1, 1]),
    ("vgg11", {"num_classes": 0, "batch_norm": True}, [1, 3, 32, 32], [1, 512, 7, 7]),
    ("mobilenet_v1", {"scale": 0.25, "num_classes": 10}, [2, 3, 32, 32], [2, 10]),
    ("mobilenet_v2", {"scale": 0.5, "num_classes": 10}, [2, 3, 32, 32], [2, 10]),
    ("mobilenet_v3_small", {"num_classes": 10}, [2, 3, 32, 32], [2, 10]),
    ("mobilenet_v3_large", {"scale": 0.5, "num_classes": 10}, [1, 3, 32, 32], [1, 10]),
    ("squeezenet1_1", {"num_classes": 10}, [2, 3, 64, 64], [2, 10]),
    ("squeezenet1_0", {"num_classes": 10}, [1, 3, 64, 64], [1, 10]),
    ("shufflenet_v2_x0_25", {"num_classes": 10}, [2, 3, 32, 32], [2, 10]),
    ("densenet121", {"num_classes": 10}, [1, 3, 64, 64], [1, 10]),
    ("densenet121", {"num_classes": 0}, [1, 3, 32, 32], [1, 1024, 1, 1]),
    ("shufflenet_v2_swish", {"num_classes": 10}, [1, 3, 32, 32], [1, 10]),
]


@pytest.mark.parametrize("name,kwargs,shape,out", FORWARD,
                         ids=[f"{n}-{i}" for i, (n, *_rest) in enumerate(FORWARD)])
def test_forward_shapes(name, kwargs, shape, out):
    paddle.seed(0)
    m = getattr(M, name)(**kwargs)
    m.eval()
    y = m(paddle.randn(shape))
    assert y.shape == out
    assert np.isfinite(y.numpy()).all()


def test_train_step_reaches_every_parameter():
    paddle.seed(0)
    m = M.mobilenet_v3_small(scale=0.35, num_classes=4)
    m.train()
    loss = paddle.nn.functional.cross_entropy(m(paddle.randn([4, 3, 32, 32])),
                                              paddle.to_tensor(np.array([[0], [1], [2], [3]])))
    loss.backward()
    missing = [p.name for p in m.parameters() if not p.stop_gradient and p.grad is None]
    assert not missing


def test_pretrained(tmp_path):
    with pytest.raises(ValueError, match="does not download.*resnet18.pdparams"):
        M.resnet18(pretrained=True)
    with pytest.raises(FileNotFoundError, match="does not exist"):
        M.resnet18(pretrained=str(tmp_path / "none.pdparams"))
    paddle.seed(3)
    src = M.resnet18(num_classes=10)
    path = str(tmp_path / "r18.pdparams")
    paddle.save(src.state_dict(), path)
    dst = M.resnet18(pretrained=path, num_classes=10)
    np.testing.assert_array_equal(dst.fc.weight.numpy(), src.fc.weight.numpy())
    np.testing.assert_array_equal(dst.bn1._variance.numpy(), src.bn1._variance.numpy())
    with pytest.raises(ValueError, match="does not fit.*fc.weight"):
        M.resnet18(pretrained=path)  # 1000 classes vs the file's 10


def test_bad_arguments():
    with pytest.raises(ValueError, match="depth"):
        M.ResNet(BasicBlock, depth=20)
    with pytest.raises(ValueError, match="supported versions"):
        M.SqueezeNet("2.0")
    with pytest.raises(NotImplementedError, match="scale"):
        M.ShuffleNetV2(scale=0.7)
