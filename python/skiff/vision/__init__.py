"""paddle.vision: models, transforms, datasets, ops; get/set_image_backend."""
from . import datasets, models, ops, transforms  # noqa: F401
from .models import *  # noqa: F401,F403
from .. import _errors

_image_backend = "pil"


def set_image_backend(backend):
    global _image_backend
    if backend not in ("pil", "cv2", "tensor"):
        raise _errors.InvalidArgument(
            f"set_image_backend: argument 'backend' expected 'pil', 'cv2' or "
            f"'tensor', got {backend!r}")
    _image_backend = backend


def get_image_backend():
    return _image_backend


def image_load(path, backend=None):
    """Reads an image file: a PIL image ('pil') or an HWC uint8 BGR array ('cv2', as OpenCV
    gives)."""
    import numpy as np
    from PIL import Image
    backend = backend or _image_backend
    if backend not in ("pil", "cv2"):
        raise _errors.InvalidArgument(
            f"image_load: argument 'backend' expected 'pil' or 'cv2', got "
            f"{backend!r}")
    img = Image.open(path)
    if backend == "pil":
        return img
    return np.asarray(img.convert("RGB"))[:, :, ::-1].copy()
