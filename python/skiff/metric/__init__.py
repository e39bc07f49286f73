"""paddle.metric: Metric, Accuracy, Precision, Recall, Auc and the accuracy function."""
from .metrics import Accuracy, Auc, Metric, Precision, Recall, accuracy  # noqa: F401

__all__ = ["Metric", "Accuracy", "Precision", "Recall", "Auc", "accuracy"]
