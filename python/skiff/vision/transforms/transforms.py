"""paddle.vision.transforms: callable transforms over PIL images and numpy HWC arrays.

BaseTransform(keys): `keys` names the fields of a tuple input ('image', 'label', ...); only
'image' fields are transformed, the others pass through (a single input is one 'image').
Random transforms draw from Python's `random` module (seeded by random.seed).
"""
import numbers
import random

import numpy as np

from . import functional as F
from ... import _errors

__all__ = ["BaseTransform", "Compose", "ToTensor", "Normalize", "Resize", "RandomResizedCrop",
           "CenterCrop", "RandomHorizontalFlip", "RandomVerticalFlip", "Transpose",
           "BrightnessTransform", "ContrastTransform", "SaturationTransform", "HueTransform",
           "ColorJitter", "RandomCrop", "Pad", "RandomRotation", "Grayscale"]


class Compose:
    """Applies the transforms in order."""

    def __init__(self, transforms):
        self.transforms = list(transforms)

    def __call__(self, data):
        for t in self.transforms:
            data = t(data)
        return data

    def __repr__(self):
        inner = "".join(f"\n    {t}" for t in self.transforms)
        return f"{self.__class__.__name__}({inner}\n)"


class BaseTransform:
    def __init__(self, keys=None):
        if keys is None:
            keys = ("image",)
        elif not isinstance(keys, (list, tuple)):
            raise _errors.InvalidArgument(
                f"{type(self).__name__}: argument 'keys' expected a list or tuple "
                f"of field names, got {keys!r}")
        self.keys = tuple(keys)

    def _get_params(self, inputs):
        return None

    def __call__(self, inputs):
        single = not isinstance(inputs, tuple)
        items = (inputs,) if single else inputs
        self.params = self._get_params(items)
        out = []
        for key, item in zip(self.keys, items):
            fn = getattr(self, f"_apply_{key}", None)
            out.append(fn(item) if fn is not None else item)
        out.extend(items[len(self.keys):])
        return out[0] if single else tuple(out)

    def _apply_image(self, image):
        raise NotImplementedError

    def __repr__(self):
        return f"{self.__class__.__name__}()"


def _size_pair(size, name, arg="size"):
    if isinstance(size, numbers.Integral):
        return int(size), int(size)
    if isinstance(size, (list, tuple)) and len(size) == 2:
        return int(size[0]), int(size[1])
    raise _errors.InvalidArgument(
        f"{name}: argument '{arg}' expected an int or (h, w), got {size!r}")


class ToTensor(BaseTransform):
    """PIL image or HWC array -> float32 Tensor (CHW by default), uint8 scaled to [0, 1]."""

    def __init__(self, data_format="CHW", keys=None):
        super().__init__(keys)
        self.data_format = data_format

    def _apply_image(self, img):
        return F.to_tensor(img, self.data_format)


class Normalize(BaseTransform):
    def __init__(self, mean=0.0, std=1.0, data_format="CHW", to_rgb=False, keys=None):
        super().__init__(keys)
        self.mean = [mean] * 3 if isinstance(mean, numbers.Number) else list(mean)
        self.std = [std] * 3 if isinstance(std, numbers.Number) else list(std)
        self.data_format = data_format
        self.to_rgb = to_rgb

    def _apply_image(self, img):
        return F.normalize(img, self.mean, self.std, self.data_format, self.to_rgb)


class Resize(BaseTransform):
    def __init__(self, size, interpolation="bilinear", keys=None):
        super().__init__(keys)
        if not (isinstance(size, numbers.Integral) or
                (isinstance(size, (list, tuple)) and len(size) == 2)):
            raise _errors.InvalidType(
                f"Resize: argument 'size' expected an int or (h, w), got {size!r}")
        self.size = size
        self.interpolation = interpolation

    def _apply_image(self, img):
        return F.resize(img, self.size, self.interpolation)


class RandomResizedCrop(BaseTransform):
    """A random crop (area fraction in scale, aspect ratio in ratio) resized to size."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4, 4.0 / 3),
                 interpolation="bilinear", keys=None):
        super().__init__(keys)
        self.size = _size_pair(size, "RandomResizedCrop")
        if scale[0] > scale[1] or ratio[0] > ratio[1]:
            raise _errors.InvalidArgument(
                f"RandomResizedCrop: 'scale' and 'ratio' expected (min, max), got "
                f"{scale} and {ratio}")
        self.scale = scale
        self.ratio = ratio
        self.interpolation = interpolation

    def _apply_image(self, img):
        h, w = F._size_of(img)
        i, j, ch, cw = F._random_resized_crop_params(h, w, self.scale, self.ratio, random)
        return F.resized_crop(img, i, j, ch, cw, self.size, self.interpolation)


class CenterCrop(BaseTransform):
    def __init__(self, size, keys=None):
        super().__init__(keys)
        self.size = _size_pair(size, "CenterCrop")

    def _apply_image(self, img):
        return F.center_crop(img, self.size)


class RandomHorizontalFlip(BaseTransform):
    def __init__(self, prob=0.5, keys=None):
        super().__init__(keys)
        if not 0 <= prob <= 1:
            raise _errors.InvalidArgument(
                f"RandomHorizontalFlip: argument 'prob' expected a value in "
                f"[0, 1], got {prob}")
        self.prob = prob

    def _apply_image(self, img):
        return F.hflip(img) if random.random() < self.prob else img


class RandomVerticalFlip(BaseTransform):
    def __init__(self, prob=0.5, keys=None):
        super().__init__(keys)
        if not 0 <= prob <= 1:
            raise _errors.InvalidArgument(
                f"RandomVerticalFlip: argument 'prob' expected a value in [0, 1], "
                f"got {prob}")
        self.prob = prob

    def _apply_image(self, img):
        return F.vflip(img) if random.random() < self.prob else img


class Transpose(BaseTransform):
    """Permutes the axes of an HWC array (default to CHW); PIL images become arrays."""

    def __init__(self, order=(2, 0, 1), keys=None):
        super().__init__(keys)
        self.order = tuple(order)

    def _apply_image(self, img):
        from ... import Tensor
        if isinstance(img, Tensor):
            return img.transpose(list(self.order))
        arr = np.asarray(img)
        if arr.ndim == 2:
            arr = arr[:, :, None]
        return arr.transpose(self.order)


def _factor_range(value, name, center=1.0, bound=None):
    if isinstance(value, numbers.Number):
        if value < 0:
            raise _errors.InvalidArgument(
                f"{name}: the value expected a non-negative number, got {value}")
        lo, hi = center - value, center + value
        if bound is None:
            lo = max(lo, 0.0)
        return lo, hi
    raise _errors.InvalidType(f"{name}: the value expected a number, got {value!r}")


class BrightnessTransform(BaseTransform):
    def __init__(self, value, keys=None):
        super().__init__(keys)
        self.value = _factor_range(value, "BrightnessTransform")

    def _apply_image(self, img):
        if self.value == (1.0, 1.0):
            return img
        return F.adjust_brightness(img, random.uniform(*self.value))


class ContrastTransform(BaseTransform):
    def __init__(self, value, keys=None):
        super().__init__(keys)
        self.value = _factor_range(value, "ContrastTransform")

    def _apply_image(self, img):
        if self.value == (1.0, 1.0):
            return img
        return F.adjust_contrast(img, random.uniform(*self.value))


class SaturationTransform(BaseTransform):
    def __init__(self, value, keys=None):
        super().__init__(keys)
        self.value = _factor_range(value, "SaturationTransform")

    def _apply_image(self, img):
        if self.value == (1.0, 1.0):
            return img
        return F.adjust_saturation(img, random.uniform(*self.value))


class HueTransform(BaseTransform):
    def __init__(self, value, keys=None):
        super().__init__(keys)
        if not 0 <= value <= 0.5:
            raise _errors.InvalidArgument(
                f"HueTransform: the value expected a number in [0, 0.5], got "
                f"{value}")
        self.value = (-value, value)

    def _apply_image(self, img):
        if self.value == (0, 0):
            return img
        return F.adjust_hue(img, random.uniform(*self.value))


class ColorJitter(BaseTransform):
    """Random brightness, contrast, saturation and hue changes, applied in a random order."""

    def __init__(self, brightness=0, contrast=0, saturation=0, hue=0, keys=None):
        super().__init__(keys)
        self.brightness = brightness
        self.contrast = contrast
        self.saturation = saturation
        self.hue = hue
        self._parts = [BrightnessTransform(brightness), ContrastTransform(contrast),
                       SaturationTransform(saturation), HueTransform(hue)]

    def _apply_image(self, img):
        parts = list(self._parts)
        random.shuffle(parts)
        for t in parts:
            img = t._apply_image(img)
        return img


class RandomCrop(BaseTransform):
    def __init__(self, size, padding=None, pad_if_needed=False, fill=0,
                 padding_mode="constant", keys=None):
        super().__init__(keys)
        self.size = _size_pair(size, "RandomCrop")
        self.padding = padding
        self.pad_if_needed = pad_if_needed
        self.fill = fill
        self.padding_mode = padding_mode

    def _apply_image(self, img):
        if self.padding is not None:
            img = F.pad(img, self.padding, self.fill, self.padding_mode)
        h, w = F._size_of(img)
        th, tw = self.size
        if self.pad_if_needed and w < tw:
            img = F.pad(img, (tw - w, 0), self.fill, self.padding_mode)
        if self.pad_if_needed and h < th:
            img = F.pad(img, (0, th - h), self.fill, self.padding_mode)
        h, w = F._size_of(img)
        if h < th or w < tw:
            raise _errors.InvalidArgument(
                f"RandomCrop: the crop size {self.size} is larger than the image "
                f"({h}, {w}); use padding or pad_if_needed=True")
        i = random.randint(0, h - th)
        j = random.randint(0, w - tw)
        return F.crop(img, i, j, th, tw)


class Pad(BaseTransform):
    def __init__(self, padding, fill=0, padding_mode="constant", keys=None):
        super().__init__(keys)
        F._padding4(padding, "Pad")
        if padding_mode not in ("constant", "edge", "reflect", "symmetric"):
            raise _errors.InvalidArgument(
                f"Pad: argument 'padding_mode' expected constant, edge, reflect or "
                f"symmetric, got {padding_mode!r}")
        self.padding = padding
        self.fill = fill
        self.padding_mode = padding_mode

    def _apply_image(self, img):
        return F.pad(img, self.padding, self.fill, self.padding_mode)


class RandomRotation(BaseTransform):
    """Rotates by a random angle in degrees (a number d means (-d, d))."""

    def __init__(self, degrees, interpolation="nearest", expand=False, center=None, fill=0,
                 keys=None):
        super().__init__(keys)
        if isinstance(degrees, numbers.Number):
            if degrees < 0:
                raise _errors.InvalidArgument(
                    f"RandomRotation: argument 'degrees' as a number expected a "
                    f"non-negative value, got {degrees}")
            degrees = (-degrees, degrees)
        elif not (isinstance(degrees, (list, tuple)) and len(degrees) == 2):
            raise _errors.InvalidArgument(
                f"RandomRotation: argument 'degrees' expected a number or "
                f"(min, max), got {degrees!r}")
        self.degrees = tuple(degrees)
        self.interpolation = interpolation
        self.expand = expand
        self.center = center
        self.fill = fill

    def _apply_image(self, img):
        angle = random.uniform(*self.degrees)
        return F.rotate(img, angle, self.interpolation, self.expand, self.center, self.fill)


class Grayscale(BaseTransform):
    def __init__(self, num_output_channels=1, keys=None):
        super().__init__(keys)
        self.num_output_channels = num_output_channels

    def _apply_image(self, img):
        return F.to_grayscale(img, self.num_output_channels)
