"""A dataset drawn on the fly: small RGB images of one of six shapes (circle, square,
triangle, cross, ring, star) at a random position, size, rotation and colour over a random
background with noise. Drawn once at start with PIL (a few thousand images per second), kept
as uint8 HWC arrays; the Dataset applies paddle.vision.transforms per sample."""
import math

import numpy as np
from PIL import Image, ImageDraw

from skiff.io import Dataset

CLASSES = ["circle", "square", "triangle", "cross", "ring", "star"]


def _polygon(cx, cy, r, n, rot, inner=None):
    pts = []
    steps = n * (2 if inner else 1)
    for k in range(steps):
        rad = r if (inner is None or k % 2 == 0) else r * inner
        a = rot + 2 * math.pi * k / steps
        pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    return pts


def draw(label, size, rng):
    bg = tuple(int(v) for v in rng.randint(0, 256, 3))
    fg = tuple(int(v) for v in rng.randint(0, 256, 3))
    while sum(abs(a - b) for a, b in zip(bg, fg)) < 150:  # keep the shape visible
        fg = tuple(int(v) for v in rng.randint(0, 256, 3))
    img = Image.new("RGB", (size, size), bg)
    d = ImageDraw.Draw(img)
    r = rng.uniform(0.22, 0.4) * size
    cx, cy = rng.uniform(r, size - r, 2)
    rot = rng.uniform(0, 2 * math.pi)
    name = CLASSES[label]
    if name == "circle":
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fg)
    elif name == "square":
        d.polygon(_polygon(cx, cy, r, 4, rot), fill=fg)
    elif name == "triangle":
        d.polygon(_polygon(cx, cy, r, 3, rot), fill=fg)
    elif name == "cross":
        w = max(2, int(r * 0.45))
        for a in (rot, rot + math.pi / 2):
            dx, dy = r * math.cos(a), r * math.sin(a)
            d.line([cx - dx, cy - dy, cx + dx, cy + dy], fill=fg, width=w)
    elif name == "ring":
        w = max(2, int(r * 0.35))
        d.ellipse([cx - r, cy - r, cx + r, cy + r], outline=fg, width=w)
    else:
        d.polygon(_polygon(cx, cy, r, 5, rot, inner=0.45), fill=fg)
    arr = np.asarray(img, dtype=np.int16)
    arr = arr + rng.randint(-20, 21, size=arr.shape)
    return np.clip(arr, 0, 255).astype(np.uint8)


def make(n, size, seed):
    rng = np.random.RandomState(seed)
    labels = rng.randint(0, len(CLASSES), n)
    images = np.stack([draw(int(l), size, rng) for l in labels])
    return images, labels.astype(np.int64)


class Shapes(Dataset):
    def __init__(self, n, size=32, seed=0, transform=None):
        self.images, self.labels = make(n, size, seed)
        self.transform = transform

    def __getitem__(self, i):
        img = self.images[i]
        if self.transform is not None:
            img = self.transform(img)
        return img, self.labels[i:i + 1]

    def __len__(self):
        return len(self.labels)
