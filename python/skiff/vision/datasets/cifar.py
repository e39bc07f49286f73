"""Cifar10 and Cifar100 from the python-version tarballs already on disk
(cifar-10-python.tar.gz / cifar-100-python.tar.gz, as Paddle downloads them).

The batches inside are pickles; they are read by an unpickler that only rebuilds numpy arrays,
lists, dicts and numbers (loading runs no other code). Samples: (image, label), image a 32x32
RGB PIL image (backend 'pil', default) or a 32x32x3 float32 HWC array ('cv2') before the
transform, label an int64 0-D array.
"""
import io
import os
import pickle
import tarfile

import numpy as np

from ...io import Dataset
from .mnist import _check_backend, _check_mode, _resolve, _transformed
from ... import _errors

__all__ = ["Cifar10", "Cifar100"]

_ALLOWED = {("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
            ("numpy", "ndarray"), ("numpy", "dtype"), ("numpy.core.multiarray", "scalar"),
            ("numpy._core.multiarray", "scalar"), ("_codecs", "encode")}


class _ArrayUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if (module, name) in _ALLOWED:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"refusing to load {module}.{name} from a dataset pickle "
                                     f"(only numpy arrays and plain containers are allowed)")


def _load_batch(data):
    return _ArrayUnpickler(io.BytesIO(data), encoding="bytes").load()


class Cifar10(Dataset):
    FILE = "cifar-10-python.tar.gz"
    FOLDER = "cifar"
    MEMBERS = {"train": "data_batch", "test": "test_batch"}
    LABEL_KEY = b"labels"

    def __init__(self, data_file=None, mode="train", transform=None, download=True,
                 backend=None):
        cls = type(self).__name__
        self.mode = _check_mode(mode, cls)
        self.backend = _check_backend(backend, cls)
        self.transform = transform
        self.dtype = "float32"
        self.data_file = _resolve(data_file, self.FILE, self.FOLDER, cls, "data_file", download)
        self.data = self._load()

    def _load(self):
        cls = type(self).__name__
        images, labels = [], []
        try:
            tar = tarfile.open(self.data_file, mode="r")
        except tarfile.TarError as e:
            raise _errors.InvalidArgument(
                f"{cls}: {self.data_file!r} is not a tar archive: {e}") from None
        with tar:
            names = sorted(m.name for m in tar.getmembers()
                           if m.isfile() and self.MEMBERS[self.mode] in os.path.basename(m.name))
            if not names:
                raise _errors.InvalidArgument(f"{cls}: {self.data_file!r} has no "
                                              f"'{self.MEMBERS[self.mode]}' member")
            for name in names:
                batch = _load_batch(tar.extractfile(name).read())
                if not isinstance(batch, dict) or b"data" not in batch or \
                        self.LABEL_KEY not in batch:
                    raise _errors.InvalidArgument(
                        f"{cls}: member {name!r} of {self.data_file!r} lacks "
                        f"b'data' or {self.LABEL_KEY!r}")
                data = np.asarray(batch[b"data"], dtype=np.uint8).reshape(-1, 3072)
                lab = np.asarray(batch[self.LABEL_KEY], dtype=np.int64).reshape(-1)
                if len(data) != len(lab):
                    raise _errors.InvalidArgument(f"{cls}: member {name!r}: {len(data)} images but "
                                                  f"{len(lab)} labels")
                images.append(data)
                labels.append(lab)
        return list(zip(np.concatenate(images), np.concatenate(labels)))

    def __getitem__(self, idx):
        image, label = self.data[idx]
        image = np.reshape(image, [3, 32, 32]).transpose([1, 2, 0])
        if self.backend == "pil":
            from PIL import Image
            image = Image.fromarray(np.ascontiguousarray(image))
        image = _transformed(image, self.transform, self.backend, self.dtype)
        return image, np.array(label).astype("int64")

    def __len__(self):
        return len(self.data)


class Cifar100(Cifar10):
    FILE = "cifar-100-python.tar.gz"
    MEMBERS = {"train": "train", "test": "test"}
    LABEL_KEY = b"fine_labels"
