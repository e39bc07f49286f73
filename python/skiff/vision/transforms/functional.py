"""paddle.vision.transforms.functional: image operations on PIL images and numpy HWC arrays.

A PIL image in gives a PIL image out (PIL does the work); a numpy array in gives an array of
the same dtype out. Geometric resampling of arrays goes through PIL too (uint8 arrays as
images, other dtypes one float32 'F' plane per channel), so both backends agree.
"""
import math
import numbers

import numpy as np
from ... import _errors

__all__ = ["to_tensor", "normalize", "resize", "pad", "crop", "center_crop", "resized_crop",
           "hflip", "vflip", "rotate", "to_grayscale", "adjust_brightness", "adjust_contrast",
           "adjust_saturation", "adjust_hue"]


def _pil():
    from PIL import Image
    return Image


def _is_pil(img):
    try:
        return isinstance(img, _pil().Image)
    except ImportError:
        return False


def _is_numpy(img):
    return isinstance(img, np.ndarray) and img.ndim in (2, 3)


def _check(img, fn):
    if not (_is_pil(img) or _is_numpy(img)):
        raise _errors.InvalidType(
            f"{fn}: argument 'img' expected a PIL Image or a numpy array of shape "
            f"HW or HWC, got {type(img).__name__}"
            f"{' of shape ' + str(img.shape) if isinstance(img, np.ndarray) else ''}")


_INTERP = {"nearest": "NEAREST", "bilinear": "BILINEAR", "bicubic": "BICUBIC", "box": "BOX",
           "lanczos": "LANCZOS", "hamming": "HAMMING"}


def _interp(name, fn):
    if name not in _INTERP:
        raise _errors.InvalidArgument(
            f"{fn}: argument 'interpolation' expected one of {sorted(_INTERP)}, "
            f"got {name!r}")
    return getattr(_pil().Resampling, _INTERP[name])


def _apply_pil_to_array(img, op):
    """Runs a PIL operation on a numpy HW/HWC array: uint8 arrays as images, others as float32
    planes, one per channel."""
    Image = _pil()
    if img.dtype == np.uint8 and (img.ndim == 2 or img.shape[2] in (1, 3, 4)):
        squeeze = img.ndim == 3 and img.shape[2] == 1
        out = np.asarray(op(Image.fromarray(img[:, :, 0] if squeeze else img)))
        return out[:, :, None] if squeeze else out
    planes = img[:, :, None] if img.ndim == 2 else img
    out = [np.asarray(op(Image.fromarray(np.ascontiguousarray(planes[:, :, c], np.float32),
                                         mode="F"))) for c in range(planes.shape[2])]
    out = np.stack(out, axis=2).astype(img.dtype)
    return out[:, :, 0] if img.ndim == 2 else out


def _size_of(img):
    """(height, width)."""
    if _is_pil(img):
        return img.size[1], img.size[0]
    return img.shape[0], img.shape[1]


def to_tensor(pic, data_format="CHW"):
    """A float32 Tensor (CHW by default); uint8 data is scaled to [0, 1]."""
    from ... import to_tensor as _tt
    if data_format not in ("CHW", "HWC"):
        raise _errors.InvalidArgument(
            f"to_tensor: argument 'data_format' expected 'CHW' or 'HWC', got "
            f"{data_format!r}")
    _check(pic, "to_tensor")
    if _is_pil(pic):
        arr = np.asarray(pic)
        if pic.mode == "1":
            arr = arr.astype(np.uint8) * 255
    else:
        arr = pic
    if arr.ndim == 2:
        arr = arr[:, :, None]
    if data_format == "CHW":
        arr = arr.transpose(2, 0, 1)
    if arr.dtype == np.uint8:
        arr = arr.astype(np.float32) / 255.0
    return _tt(np.ascontiguousarray(arr))


def normalize(img, mean, std, data_format="CHW", to_rgb=False):
    """(img - mean) / std per channel; img a Tensor, numpy array or PIL image (as float32)."""
    from ... import Tensor, to_tensor as _tt
    if data_format not in ("CHW", "HWC"):
        raise _errors.InvalidArgument(
            f"normalize: argument 'data_format' expected 'CHW' or 'HWC', got "
            f"{data_format!r}")
    is_tensor = isinstance(img, Tensor)
    arr = img.numpy() if is_tensor else np.asarray(img, dtype=np.float32)
    if arr.ndim != 3:
        raise _errors.InvalidArgument(f"normalize: expected a 3-D image ({data_format}), got shape "
                                      f"{list(arr.shape)}")
    axis = 0 if data_format == "CHW" else 2
    shape = [1, 1, 1]
    shape[axis] = -1
    if to_rgb:
        arr = np.flip(arr, axis=axis)
    mean = np.asarray(mean, dtype=np.float32).reshape(-1)
    std = np.asarray(std, dtype=np.float32).reshape(-1)
    if np.any(std == 0):
        raise _errors.InvalidArgument(f"normalize: argument 'std' has a zero, got {std.tolist()}")
    out = (arr - mean.reshape(shape)) / std.reshape(shape)
    out = out.astype(arr.dtype if arr.dtype.kind == "f" else np.float32)
    return _tt(out) if is_tensor else out


def resize(img, size, interpolation="bilinear"):
    """size an int: the shorter side becomes size (aspect kept); (h, w): exactly that."""
    _check(img, "resize")
    h, w = _size_of(img)
    if isinstance(size, numbers.Integral):
        if (w <= h and w == size) or (h <= w and h == size):
            return img
        if w < h:
            ow, oh = int(size), int(size * h / w)
        else:
            oh, ow = int(size), int(size * w / h)
    elif isinstance(size, (list, tuple)) and len(size) == 2:
        oh, ow = int(size[0]), int(size[1])
    else:
        raise _errors.InvalidType(
            f"resize: argument 'size' expected an int or (h, w), got {size!r}")
    if oh <= 0 or ow <= 0:
        raise _errors.InvalidArgument(
            f"resize: argument 'size' expected positive sizes, got {size!r}")
    resample = _interp(interpolation, "resize")
    op = lambda im: im.resize((ow, oh), resample)  # noqa: E731
    return op(img) if _is_pil(img) else _apply_pil_to_array(img, op)


def _padding4(padding, fn):
    if isinstance(padding, numbers.Integral):
        return (padding,) * 4
    if isinstance(padding, (list, tuple)) and len(padding) == 2:
        return (padding[0], padding[1], padding[0], padding[1])
    if isinstance(padding, (list, tuple)) and len(padding) == 4:
        return tuple(padding)
    raise _errors.InvalidArgument(
        f"{fn}: argument 'padding' expected an int or a sequence of 2 or 4 ints, "
        f"got {padding!r}")


def pad(img, padding, fill=0, padding_mode="constant"):
    """padding: all sides, (left/right, top/bottom) or (left, top, right, bottom); modes
    constant (fill), edge, reflect, symmetric."""
    _check(img, "pad")
    if padding_mode not in ("constant", "edge", "reflect", "symmetric"):
        raise _errors.InvalidArgument(
            f"pad: argument 'padding_mode' expected constant, edge, reflect or "
            f"symmetric, got {padding_mode!r}")
    left, top, right, bottom = _padding4(padding, "pad")
    was_pil = _is_pil(img)
    arr = np.asarray(img)
    mode = arr.ndim
    widths = [(top, bottom), (left, right)] + ([(0, 0)] if mode == 3 else [])
    if padding_mode == "constant":
        out = np.pad(arr, widths, mode="constant", constant_values=0)
        if fill:
            fill_v = np.asarray(fill, dtype=arr.dtype)
            mask = np.ones(out.shape[:2], bool)
            mask[top:top + arr.shape[0], left:left + arr.shape[1]] = False
            out[mask] = fill_v
    else:
        out = np.pad(arr, widths, mode=padding_mode)
    return _pil().fromarray(out, mode=img.mode) if was_pil else out


def crop(img, top, left, height, width):
    _check(img, "crop")
    if _is_pil(img):
        return img.crop((left, top, left + width, top + height))
    return img[top:top + height, left:left + width]


def center_crop(img, output_size):
    if isinstance(output_size, numbers.Integral):
        output_size = (int(output_size), int(output_size))
    h, w = _size_of(img)
    th, tw = output_size
    i = int(round((h - th) / 2.0))
    j = int(round((w - tw) / 2.0))
    return crop(img, i, j, th, tw)


def resized_crop(img, top, left, height, width, size, interpolation="bilinear"):
    return resize(crop(img, top, left, height, width), size, interpolation)


def hflip(img):
    _check(img, "hflip")
    if _is_pil(img):
        return img.transpose(_pil().Transpose.FLIP_LEFT_RIGHT)
    return np.ascontiguousarray(img[:, ::-1])


def vflip(img):
    _check(img, "vflip")
    if _is_pil(img):
        return img.transpose(_pil().Transpose.FLIP_TOP_BOTTOM)
    return np.ascontiguousarray(img[::-1])


def rotate(img, angle, interpolation="nearest", expand=False, center=None, fill=0):
    """Counter-clockwise rotation by angle degrees about center (default: the middle)."""
    _check(img, "rotate")
    resample = _interp(interpolation, "rotate")
    if interpolation not in ("nearest", "bilinear", "bicubic"):
        raise _errors.InvalidArgument(
            f"rotate: argument 'interpolation' expected nearest, bilinear or "
            f"bicubic, got {interpolation!r}")

    def op(im):
        f = fill
        if isinstance(fill, (list, tuple)) and im.mode in ("F", "L"):
            f = fill[0]
        return im.rotate(angle, resample, expand, center, fillcolor=f)
    return op(img) if _is_pil(img) else _apply_pil_to_array(img, op)


def to_grayscale(img, num_output_channels=1):
    """ITU-R 601-2 luma (0.299 R + 0.587 G + 0.114 B); 1 or 3 output channels."""
    _check(img, "to_grayscale")
    if num_output_channels not in (1, 3):
        raise _errors.InvalidArgument(
            f"to_grayscale: argument 'num_output_channels' expected 1 or 3, got "
            f"{num_output_channels}")
    if _is_pil(img):
        g = img.convert("L")
        return g if num_output_channels == 1 else _pil().merge("RGB", [g, g, g])
    arr = img if img.ndim == 3 else img[:, :, None]
    if arr.shape[2] == 1:
        g = arr.astype(np.float32)
    else:
        g = (arr[..., :3].astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32))
        g = g[:, :, None]
    if img.dtype == np.uint8:
        g = np.clip(np.round(g), 0, 255)
    g = g.astype(img.dtype)
    return np.repeat(g, num_output_channels, axis=2)


def _blend(img, other, factor):
    """img * factor + other * (1 - factor), clipped to the dtype's range (PIL's enhancers)."""
    out = img.astype(np.float32) * factor + np.asarray(other, np.float32) * (1.0 - factor)
    if img.dtype == np.uint8:
        return np.clip(np.round(out), 0, 255).astype(np.uint8)
    return out.astype(img.dtype)


def _check_factor(factor, fn, arg):
    if factor < 0:
        raise _errors.InvalidArgument(
            f"{fn}: argument '{arg}' expected a non-negative number, got {factor}")


def adjust_brightness(img, brightness_factor):
    _check(img, "adjust_brightness")
    _check_factor(brightness_factor, "adjust_brightness", "brightness_factor")
    if _is_pil(img):
        from PIL import ImageEnhance
        return ImageEnhance.Brightness(img).enhance(brightness_factor)
    return _blend(img, 0.0, brightness_factor)


def adjust_contrast(img, contrast_factor):
    _check(img, "adjust_contrast")
    _check_factor(contrast_factor, "adjust_contrast", "contrast_factor")
    if _is_pil(img):
        from PIL import ImageEnhance
        return ImageEnhance.Contrast(img).enhance(contrast_factor)
    mean = float(np.mean(to_grayscale(img)))
    return _blend(img, mean, contrast_factor)


def adjust_saturation(img, saturation_factor):
    _check(img, "adjust_saturation")
    _check_factor(saturation_factor, "adjust_saturation", "saturation_factor")
    if _is_pil(img):
        from PIL import ImageEnhance
        return ImageEnhance.Color(img).enhance(saturation_factor)
    return _blend(img, to_grayscale(img), saturation_factor)


def adjust_hue(img, hue_factor):
    """Shifts the hue by hue_factor (in [-0.5, 0.5]) of a full turn (in HSV space)."""
    _check(img, "adjust_hue")
    if not -0.5 <= hue_factor <= 0.5:
        raise _errors.InvalidArgument(
            f"adjust_hue: argument 'hue_factor' expected a value in [-0.5, 0.5], "
            f"got {hue_factor}")
    if _is_pil(img):
        if img.mode in ("L", "1", "I", "F"):
            return img
        mode = img.mode
        h, s, v = img.convert("HSV").split()
        h = h.point(lambda x: (x + int(round(hue_factor * 255))) % 256)
        return _pil().merge("HSV", (h, s, v)).convert(mode)
    if img.ndim == 2 or img.shape[2] == 1:
        return img
    arr = img[..., :3].astype(np.float32) / (255.0 if img.dtype == np.uint8 else 1.0)
    hsv = _rgb_to_hsv(arr)
    hsv[..., 0] = (hsv[..., 0] + hue_factor) % 1.0
    out = _hsv_to_rgb(hsv)
    if img.dtype == np.uint8:
        out = np.clip(np.round(out * 255.0), 0, 255)
    res = img.copy()
    res[..., :3] = out.astype(img.dtype)
    return res


def _rgb_to_hsv(rgb):
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    maxc, minc = rgb.max(-1), rgb.min(-1)
    v = maxc
    delta = maxc - minc
    s = np.where(maxc > 0, delta / np.maximum(maxc, 1e-12), 0.0)
    dz = np.maximum(delta, 1e-12)
    rc, gc, bc = (maxc - r) / dz, (maxc - g) / dz, (maxc - b) / dz
    h = np.where(maxc == r, bc - gc, np.where(maxc == g, 2.0 + rc - bc, 4.0 + gc - rc))
    h = np.where(delta > 0, (h / 6.0) % 1.0, 0.0)
    return np.stack([h, s, v], -1)


def _hsv_to_rgb(hsv):
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    i = np.floor(h * 6.0)
    f = h * 6.0 - i
    p, q, t = v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f))
    i = i.astype(np.int64) % 6
    choices = [np.stack(c, -1) for c in ((v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v),
                                         (v, p, q))]
    out = np.zeros_like(hsv)
    for k in range(6):
        out = np.where((i == k)[..., None], choices[k], out)
    return out


def _random_resized_crop_params(height, width, scale, ratio, rng):
    area = height * width
    log_ratio = (math.log(ratio[0]), math.log(ratio[1]))
    for _ in range(10):
        target = area * rng.uniform(*scale)
        aspect = math.exp(rng.uniform(*log_ratio))
        w = int(round(math.sqrt(target * aspect)))
        h = int(round(math.sqrt(target / aspect)))
        if 0 < w <= width and 0 < h <= height:
            return rng.randint(0, height - h), rng.randint(0, width - w), h, w
    in_ratio = width / height
    if in_ratio < min(ratio):
        w, h = width, int(round(width / min(ratio)))
    elif in_ratio > max(ratio):
        h, w = height, int(round(height * max(ratio)))
    else:
        w, h = width, height
    return (height - h) // 2, (width - w) // 2, h, w
