"""paddle.vision.datasets: MNIST, FashionMNIST, Cifar10, Cifar100, DatasetFolder,
ImageFolder, reading files already on disk (no downloads)."""
from .cifar import Cifar10, Cifar100  # noqa: F401
from .folder import DatasetFolder, ImageFolder  # noqa: F401
from .mnist import FashionMNIST, MNIST  # noqa: F401

__all__ = ["MNIST", "FashionMNIST", "Cifar10", "Cifar100", "DatasetFolder", "ImageFolder"]
