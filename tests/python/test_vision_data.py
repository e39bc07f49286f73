"""paddle.vision.transforms against numpy/PIL, and the datasets on files written here."""
import gzip
import io
import os
import pickle
import random
import struct
import tarfile

import numpy as np
import pytest
from PIL import Image

import skiff as paddle
from skiff.vision import datasets as D
from skiff.vision import transforms as T
from skiff.vision.transforms import functional as F


def _img(h=6, w=8, c=3, seed=0):
    return np.random.RandomState(seed).randint(0, 256, size=(h, w, c)).astype(np.uint8)


# ---------------------------------------------------------------------------- transforms
def test_to_tensor_and_normalize():
    a = _img()
    t = T.ToTensor()(a)
    assert isinstance(t, paddle.Tensor) and t.shape == [3, 6, 8]
    np.testing.assert_allclose(t.numpy(), a.transpose(2, 0, 1) / 255.0, rtol=1e-6)
    t2 = T.ToTensor()(Image.fromarray(a))
    np.testing.assert_allclose(t2.numpy(), t.numpy())
    assert T.ToTensor(data_format="HWC")(a).shape == [6, 8, 3]
    gray = T.ToTensor()(Image.fromarray(a[:, :, 0]))
    assert gray.shape == [1, 6, 8]
    n = T.Normalize(mean=[0.5, 0.4, 0.3], std=[0.2, 0.2, 0.1])(t)
    ref = (a.transpose(2, 0, 1) / 255.0 - np.array([0.5, 0.4, 0.3])[:, None, None]) / \
        np.array([0.2, 0.2, 0.1])[:, None, None]
    np.testing.assert_allclose(n.numpy(), ref, rtol=1e-5, atol=1e-6)
    hwc = T.Normalize(127.5, 127.5, data_format="HWC")(a)
    np.testing.assert_allclose(hwc, (a - 127.5) / 127.5, rtol=1e-6)
    with pytest.raises(ValueError, match="std"):
        F.normalize(a.astype(np.float32), [0, 0, 0], [1, 0, 1], data_format="HWC")


def test_resize_matches_pil_for_both_backends():
    a = _img(10, 20)
    out = F.resize(a, 5)  # shorter side 10 -> 5, width 20 -> 10
    assert out.shape == (5, 10, 3) and out.dtype == np.uint8
    ref = np.asarray(Image.fromarray(a).resize((10, 5), Image.Resampling.BILINEAR))
    np.testing.assert_array_equal(out, ref)
    pil = T.Resize((4, 7))(Image.fromarray(a))
    assert pil.size == (7, 4)
    f = F.resize(a.astype(np.float32), (5, 10))
    assert f.dtype == np.float32
    np.testing.assert_allclose(f, ref.astype(np.float32), atol=1.01)
    with pytest.raises(ValueError, match="interpolation"):
        F.resize(a, 4, interpolation="cubic-ish")
    with pytest.raises(ValueError, match="resize: argument 'size'"):
        F.resize(a, -3)
    with pytest.raises(TypeError, match="img"):
        F.resize([1, 2, 3], 4)


def test_crops_flips_pad_transpose():
    a = _img(6, 8)
    np.testing.assert_array_equal(F.center_crop(a, 4), a[1:5, 2:6])
    np.testing.assert_array_equal(np.asarray(F.center_crop(Image.fromarray(a), (2, 4))),
                                  a[2:4, 2:6])
    np.testing.assert_array_equal(T.RandomHorizontalFlip(1.0)(a), a[:, ::-1])
    np.testing.assert_array_equal(T.RandomVerticalFlip(1.0)(a), a[::-1])
    np.testing.assert_array_equal(np.asarray(T.RandomHorizontalFlip(1.0)(Image.fromarray(a))),
                                  a[:, ::-1])
    np.testing.assert_array_equal(T.RandomHorizontalFlip(0.0)(a), a)
    p = T.Pad((1, 2), fill=7)(a)
    assert p.shape == (10, 10, 3) and (p[0] == 7).all() and (p[:, 0] == 7).all()
    np.testing.assert_array_equal(p[2:8, 1:9], a)
    np.testing.assert_array_equal(F.pad(a, 2, padding_mode="reflect"),
                                  np.pad(a, ((2, 2), (2, 2), (0, 0)), mode="reflect"))
    np.testing.assert_array_equal(np.asarray(F.pad(Image.fromarray(a), (1, 0, 2, 3),
                                                   padding_mode="edge")),
                                  np.pad(a, ((0, 3), (1, 2), (0, 0)), mode="edge"))
    assert T.Transpose()(a).shape == (3, 6, 8)
    random.seed(0)
    c = T.RandomCrop(4, padding=1)(a)
    assert c.shape == (4, 4, 3)
    assert T.RandomCrop(10, pad_if_needed=True)(a).shape == (10, 10, 3)
    with pytest.raises(ValueError, match="larger than the image"):
        T.RandomCrop(10)(a)
    with pytest.raises(ValueError, match="padding_mode"):
        T.Pad(1, padding_mode="wrap")


def test_random_resized_crop_rotation_grayscale_color():
    random.seed(1)
    a = _img(16, 16)
    out = T.RandomResizedCrop(8)(a)
    assert out.shape == (8, 8, 3)
    assert T.RandomResizedCrop((6, 5))(Image.fromarray(a)).size == (5, 6)
    r = F.rotate(a, 90)
    np.testing.assert_array_equal(r, np.rot90(a))  # counter-clockwise, square image
    assert T.RandomRotation(30)(Image.fromarray(a)).size == (16, 16)
    assert F.rotate(a.astype(np.float32), 90).dtype == np.float32
    g = F.to_grayscale(a)
    ref = np.round(a.astype(np.float64) @ [0.299, 0.587, 0.114])
    assert g.shape == (16, 16, 1)
    np.testing.assert_allclose(g[:, :, 0], ref, atol=1)
    assert T.Grayscale(3)(Image.fromarray(a)).mode == "RGB"
    np.testing.assert_array_equal(F.adjust_brightness(a, 1.0), a)
    np.testing.assert_array_equal(F.adjust_brightness(a, 0.5),
                                  np.round(a * 0.5).astype(np.uint8))
    np.testing.assert_array_equal(F.adjust_saturation(a, 0.0), np.repeat(g, 3, axis=2))
    np.testing.assert_array_equal(F.adjust_hue(a, 0.0), a)
    shifted = F.adjust_hue(a, 0.5)
    np.testing.assert_allclose(F.adjust_hue(shifted, -0.5).astype(int), a.astype(int), atol=2)
    pil_b = F.adjust_contrast(Image.fromarray(a), 1.5)
    assert pil_b.size == (16, 16)
    jit = T.ColorJitter(0.4, 0.4, 0.4, 0.1)
    assert jit(a).shape == a.shape and jit(Image.fromarray(a)).size == (16, 16)
    with pytest.raises(ValueError, match="hue_factor"):
        F.adjust_hue(a, 0.7)


def test_compose_and_keys():
    a = _img(8, 8)
    pipe = T.Compose([T.CenterCrop(4), T.ToTensor(), T.Normalize(0.5, 0.5)])
    out = pipe(a)
    assert out.shape == [3, 4, 4]
    img, label = T.CenterCrop(4, keys=("image", "label"))((a, 3))
    assert img.shape == (4, 4, 3) and label == 3


# ---------------------------------------------------------------------------- datasets
def _write_idx(path, arr, magic):
    header = struct.pack(">II", magic, arr.shape[0])
    if magic == 2051:
        header += struct.pack(">II", arr.shape[1], arr.shape[2])
    with gzip.open(path, "wb") as f:
        f.write(header + arr.astype(np.uint8).tobytes())


def test_mnist_from_files(tmp_path, monkeypatch):
    imgs = np.random.RandomState(0).randint(0, 256, size=(5, 28, 28))
    labels = np.arange(5) % 10
    ip, lp = str(tmp_path / "img.gz"), str(tmp_path / "lbl.gz")
    _write_idx(ip, imgs, 2051)
    _write_idx(lp, labels, 2049)
    ds = D.MNIST(image_path=ip, label_path=lp, mode="test")
    assert len(ds) == 5
    img, lab = ds[3]
    assert isinstance(img, Image.Image) and img.size == (28, 28)
    np.testing.assert_array_equal(np.asarray(img), imgs[3])
    assert lab.dtype == np.int64 and lab.shape == (1,) and lab[0] == 3
    ds2 = D.FashionMNIST(image_path=ip, label_path=lp, transform=T.ToTensor(), backend="cv2")
    t, _ = ds2[0]
    np.testing.assert_allclose(t.numpy()[0], imgs[0].astype(np.float32))  # float: no /255
    monkeypatch.setenv("HOME", str(tmp_path))  # an empty ~/.cache/paddle
    with pytest.raises(FileNotFoundError, match="does not download.*put t10k-images-idx3"):
        D.MNIST(mode="test", label_path=lp)
    cache = tmp_path / ".cache" / "paddle" / "dataset" / "mnist"
    cache.mkdir(parents=True)
    _write_idx(str(cache / "t10k-images-idx3-ubyte.gz"), imgs, 2051)
    assert len(D.MNIST(mode="test", label_path=lp)) == 5  # Paddle's cache path is read
    _write_idx(lp, labels[:4], 2049)
    with pytest.raises(ValueError, match="5 images.*4 labels"):
        D.MNIST(image_path=ip, label_path=lp)
    with pytest.raises(ValueError, match="magic"):
        D.MNIST(image_path=lp, label_path=lp)


class _Evil:
    def __reduce__(self):
        return (os.system, ("echo pwned",))


def _cifar_tar(path, members):
    with tarfile.open(path, "w:gz") as tar:
        for name, obj in members.items():
            data = pickle.dumps(obj, protocol=2)
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


def test_cifar_from_tarball(tmp_path):
    rng = np.random.RandomState(0)
    data = rng.randint(0, 256, size=(4, 3072)).astype(np.uint8)
    path = str(tmp_path / "cifar-10-python.tar.gz")
    _cifar_tar(path, {"cifar-10-batches-py/data_batch_1": {b"data": data[:2],
                                                           b"labels": [1, 2]},
                      "cifar-10-batches-py/data_batch_2": {b"data": data[2:],
                                                           b"labels": [3, 4]},
                      "cifar-10-batches-py/test_batch": {b"data": data[:1], b"labels": [9]}})
    train = D.Cifar10(data_file=path, mode="train")
    assert len(train) == 4
    img, lab = train[2]
    np.testing.assert_array_equal(np.asarray(img), data[2].reshape(3, 32, 32).transpose(1, 2, 0))
    assert int(lab) == 3 and lab.dtype == np.int64
    test = D.Cifar10(data_file=path, mode="test", backend="cv2")
    arr, lab = test[0]
    assert arr.shape == (32, 32, 3) and arr.dtype == np.float32 and int(lab) == 9
    p100 = str(tmp_path / "cifar-100-python.tar.gz")
    _cifar_tar(p100, {"cifar-100-python/train": {b"data": data, b"fine_labels": [5, 6, 7, 8]}})
    assert int(D.Cifar100(data_file=p100)[1][1]) == 6
    bad = str(tmp_path / "evil.tar.gz")
    _cifar_tar(bad, {"x/data_batch_1": _Evil()})
    with pytest.raises(pickle.UnpicklingError, match="refusing to load"):
        D.Cifar10(data_file=bad)
    with pytest.raises(FileNotFoundError, match="does not exist"):
        D.Cifar10(data_file=str(tmp_path / "nope.tar.gz"))


def test_dataset_folder_and_image_folder(tmp_path):
    for cls, n in (("cat", 2), ("dog", 3)):
        d = tmp_path / cls
        d.mkdir()
        for i in range(n):
            Image.fromarray(_img(5, 7, seed=i)).save(d / f"{i}.png")
    (tmp_path / "dog" / "notes.txt").write_text("not an image")
    ds = D.DatasetFolder(str(tmp_path), transform=T.ToTensor())
    assert ds.classes == ["cat", "dog"] and len(ds) == 5
    assert ds.targets == [0, 0, 1, 1, 1]
    t, target = ds[4]
    assert t.shape == [3, 5, 7] and target == 1
    flat = D.ImageFolder(str(tmp_path))
    assert len(flat) == 5
    (sample,) = flat[0]
    assert isinstance(sample, Image.Image) and sample.mode == "RGB"
    only_txt = D.DatasetFolder(str(tmp_path), loader=lambda p: open(p).read(),
                               extensions=(".txt",))
    assert len(only_txt) == 1 and only_txt[0] == ("not an image", 1)
    with pytest.raises(RuntimeError, match="found 0 files"):
        D.DatasetFolder(str(tmp_path), extensions=(".jpg",))
    with pytest.raises(ValueError, match="both extensions and is_valid_file"):
        D.ImageFolder(str(tmp_path), extensions=(".png",), is_valid_file=lambda p: True)
    with pytest.raises(FileNotFoundError, match="not a directory"):
        D.ImageFolder(str(tmp_path / "missing"))


def test_dataset_feeds_model_fit(tmp_path):
    """A vision dataset with transforms through paddle.Model.fit (the tutorial path)."""
    rng = np.random.RandomState(0)
    imgs = rng.randint(0, 60, size=(32, 28, 28))
    labels = np.arange(32) % 2
    imgs[labels == 1, 10:18, 10:18] = 250  # class 1: a bright square
    ip, lp = str(tmp_path / "i.gz"), str(tmp_path / "l.gz")
    _write_idx(ip, imgs, 2051)
    _write_idx(lp, labels, 2049)
    ds = D.MNIST(image_path=ip, label_path=lp,
                 transform=T.Compose([T.ToTensor(), T.Normalize([0.5], [0.5])]))
    paddle.seed(0)
    net = paddle.vision.models.LeNet(num_classes=2)
    model = paddle.Model(net)
    model.prepare(paddle.optimizer.Adam(0.003, parameters=net.parameters()),
                  paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy())
    before = model.evaluate(ds, batch_size=16, verbose=0)["loss"][0]
    model.fit(ds, batch_size=8, epochs=3, verbose=0)
    after = model.evaluate(ds, batch_size=16, verbose=0)
    assert after["loss"][0] < before and after["acc"] >= 0.9
