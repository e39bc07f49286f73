"""MNIST and FashionMNIST from the idx files (gzipped or not) already on disk.

Paddle downloads them to ~/.cache/paddle/dataset/<name>/ when no path is given; Skiff does not
download, so it reads that cache if the files are there and otherwise says which file to put
where. Samples: (image, label), image a 28x28 PIL 'L' image (backend 'pil', the default) or a
28x28 float32 array (backend 'cv2') before the transform, label an int64 array of shape [1],
as in Paddle.
"""
import gzip
import os
import struct

import numpy as np

from ...io import Dataset
from ... import _errors

__all__ = ["MNIST", "FashionMNIST"]

_CACHE = os.path.join("~", ".cache", "paddle", "dataset")


def _open(path):
    with open(path, "rb") as f:
        magic = f.read(2)
    return gzip.open(path, "rb") if magic == b"\x1f\x8b" else open(path, "rb")


def _read_idx(path, expect_magic, what):
    with _open(path) as f:
        data = f.read()
    if len(data) < 8:
        raise _errors.InvalidArgument(
            f"{what}: {path!r} is not an idx file (only {len(data)} bytes)")
    magic, n = struct.unpack(">II", data[:8])
    if magic != expect_magic:
        raise _errors.InvalidArgument(
            f"{what}: {path!r} has idx magic {magic}, expected {expect_magic}")
    if magic == 2051:
        rows, cols = struct.unpack(">II", data[8:16])
        body, shape = data[16:], (n, rows, cols)
    else:
        body, shape = data[8:], (n,)
    need = int(np.prod(shape))
    if len(body) != need:
        raise _errors.InvalidArgument(
            f"{what}: {path!r} holds {len(body)} data bytes, its header says "
            f"{need}")
    return np.frombuffer(body, dtype=np.uint8).reshape(shape)


def _transformed(image, transform, backend, dtype):
    """The dataset's image (a PIL image, or an array for backend 'cv2') through its transform;
    arrays come out in the dataset's dtype, as Paddle's do."""
    if backend == "cv2" and isinstance(image, np.ndarray):
        image = image.astype(dtype)
    if transform is not None:
        image = transform(image)
    if backend == "cv2" and isinstance(image, np.ndarray):
        image = image.astype(dtype)
    return image


def _check_mode(mode, name):
    mode = mode.lower() if isinstance(mode, str) else mode
    if mode not in ("train", "test"):
        raise _errors.InvalidArgument(
            f"{name}: argument 'mode' expected 'train' or 'test', got {mode!r}")
    return mode


def _check_backend(backend, name):
    if backend is None:
        from .. import get_image_backend
        backend = get_image_backend()
    if backend not in ("pil", "cv2"):
        raise _errors.InvalidArgument(
            f"{name}: argument 'backend' expected 'pil' or 'cv2', got {backend!r}")
    return backend


def _resolve(path, default_name, folder, what, arg, download):
    if path is not None:
        if not os.path.isfile(path):
            raise FileNotFoundError(f"{what}: {arg} {path!r} does not exist")
        return path
    cached = os.path.expanduser(os.path.join(_CACHE, folder, default_name))
    if os.path.isfile(cached):
        return cached
    raise FileNotFoundError(
        f"{what}: no {arg} given and {cached} does not exist; this build does not download "
        f"(download={download}): put {default_name} there, or pass {arg}='path/to/"
        f"{default_name}'")


class MNIST(Dataset):
    NAME = "mnist"
    FILES = {"train": ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
             "test": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")}

    def __init__(self, image_path=None, label_path=None, mode="train", transform=None,
                 download=True, backend=None):
        cls = type(self).__name__
        self.mode = _check_mode(mode, cls)
        self.backend = _check_backend(backend, cls)
        self.transform = transform
        self.dtype = "float32"
        img_name, lbl_name = self.FILES[mode]
        self.image_path = _resolve(image_path, img_name, self.NAME, cls, "image_path", download)
        self.label_path = _resolve(label_path, lbl_name, self.NAME, cls, "label_path", download)
        images = _read_idx(self.image_path, 2051, cls)
        labels = _read_idx(self.label_path, 2049, cls)
        if len(images) != len(labels):
            raise _errors.InvalidArgument(f"{cls}: {len(images)} images in {self.image_path!r} but "
                                          f"{len(labels)} labels in {self.label_path!r}")
        self.images = images
        self.labels = labels.astype(np.int64).reshape(-1, 1)

    def __getitem__(self, idx):
        image, label = self.images[idx], self.labels[idx]
        if self.backend == "pil":
            from PIL import Image
            image = Image.fromarray(image, mode="L")
        image = _transformed(image, self.transform, self.backend, self.dtype)
        return image, label.astype("int64")

    def __len__(self):
        return len(self.labels)


class FashionMNIST(MNIST):
    NAME = "fashion-mnist"
