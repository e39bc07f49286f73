"""DatasetFolder (root/<class>/<file>, classes = sorted sub-folder names) and ImageFolder (every
image under root, no labels), Paddle's semantics: DatasetFolder samples are (sample, target),
ImageFolder samples are [sample]."""
import os

from ...io import Dataset
from ... import _errors

__all__ = ["DatasetFolder", "ImageFolder", "IMG_EXTENSIONS", "default_loader"]

IMG_EXTENSIONS = (".jpg", ".jpeg", ".png", ".ppm", ".bmp", ".pgm", ".tif", ".tiff", ".webp")


def has_valid_extension(filename, extensions):
    return filename.lower().endswith(tuple(e.lower() for e in extensions))


def pil_loader(path):
    from PIL import Image
    with open(path, "rb") as f:
        img = Image.open(f)
        return img.convert("RGB")


def default_loader(path):
    return pil_loader(path)


def _validator(cls, extensions, is_valid_file):
    if extensions is not None and is_valid_file is not None:
        raise _errors.InvalidArgument(
            f"{cls}: both extensions and is_valid_file cannot be not None at the "
            f"same time")
    if is_valid_file is not None:
        return is_valid_file
    exts = IMG_EXTENSIONS if extensions is None else extensions
    return lambda p: has_valid_extension(p, exts)


def _walk(directory):
    for dirpath, dirnames, filenames in os.walk(directory, followlinks=True):
        dirnames.sort()
        for name in sorted(filenames):
            yield os.path.join(dirpath, name)


class DatasetFolder(Dataset):
    def __init__(self, root, loader=None, extensions=None, transform=None, is_valid_file=None):
        cls = type(self).__name__
        self.root = root
        self.transform = transform
        if not os.path.isdir(root):
            raise FileNotFoundError(f"{cls}: root {root!r} is not a directory")
        valid = _validator(cls, extensions, is_valid_file)
        classes = sorted(d.name for d in os.scandir(root) if d.is_dir())
        class_to_idx = {c: i for i, c in enumerate(classes)}
        samples = []
        for c in classes:
            for path in _walk(os.path.join(root, c)):
                if valid(path):
                    samples.append((path, class_to_idx[c]))
        if not samples:
            raise _errors.NotFound(f"{cls}: found 0 files in subfolders of {root!r} (supported "
                                   f"extensions: {', '.join(extensions or IMG_EXTENSIONS)})")
        self.loader = default_loader if loader is None else loader
        self.extensions = extensions
        self.classes = classes
        self.class_to_idx = class_to_idx
        self.samples = samples
        self.targets = [s[1] for s in samples]

    def __getitem__(self, index):
        path, target = self.samples[index]
        sample = self.loader(path)
        if self.transform is not None:
            sample = self.transform(sample)
        return sample, target

    def __len__(self):
        return len(self.samples)


class ImageFolder(Dataset):
    def __init__(self, root, loader=None, extensions=None, transform=None, is_valid_file=None):
        cls = type(self).__name__
        self.root = root
        if not os.path.isdir(root):
            raise FileNotFoundError(f"{cls}: root {root!r} is not a directory")
        valid = _validator(cls, extensions, is_valid_file)
        samples = [p for p in _walk(root) if valid(p)]
        if not samples:
            raise _errors.NotFound(f"{cls}: found 0 files in {root!r} (supported extensions: "
                                   f"{', '.join(extensions or IMG_EXTENSIONS)})")
        self.loader = default_loader if loader is None else loader
        self.extensions = extensions
        self.samples = samples
        self.transform = transform

    def __getitem__(self, index):
        sample = self.loader(self.samples[index])
        if self.transform is not None:
            sample = self.transform(sample)
        return [sample]

    def __len__(self):
        return len(self.samples)
