"""paddle.metric: streaming metrics paddle.Model updates every batch (Paddle's semantics).

A Metric's compute(*outputs_and_labels) runs on Tensors (in the step), update(*computed)
accumulates numpy values and returns the batch's value, accumulate() the value since reset().
"""
import abc

import numpy as np

__all__ = ["Metric", "Accuracy", "Precision", "Recall", "Auc", "accuracy"]


def _to_numpy(x, what):
    from .. import Tensor
    if isinstance(x, Tensor):
        return x.numpy()
    if isinstance(x, np.ndarray):
        return x
    raise ValueError(f"The '{what}' must be a numpy ndarray or Tensor.")


class Metric(metaclass=abc.ABCMeta):
    def __init__(self):
        pass

    @abc.abstractmethod
    def reset(self):
        raise NotImplementedError(f"function 'reset' not implemented in "
                                  f"{self.__class__.__name__}.")

    @abc.abstractmethod
    def update(self, *args):
        raise NotImplementedError(f"function 'update' not implemented in "
                                  f"{self.__class__.__name__}.")

    @abc.abstractmethod
    def accumulate(self):
        raise NotImplementedError(f"function 'accumulate' not implemented in "
                                  f"{self.__class__.__name__}.")

    @abc.abstractmethod
    def name(self):
        raise NotImplementedError(f"function 'name' not implemented in "
                                  f"{self.__class__.__name__}.")

    def compute(self, *args):
        return args


class Accuracy(Metric):
    """Top-k accuracy. compute(pred [N, C], label [N] / [N, 1] / one-hot [N, C]) gives the
    [N, maxk] correctness matrix; names are `acc` or `acc_top1`, `acc_top5`, ..."""

    def __init__(self, topk=(1,), name=None, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if isinstance(topk, int):
            topk = (topk,)
        if not topk or any(not isinstance(k, int) or k < 1 for k in topk):
            raise ValueError(f"Accuracy: argument 'topk' expected positive ints, got {topk!r}")
        self.topk = tuple(topk)
        self.maxk = max(self.topk)
        self._init_name(name)
        self.reset()

    def compute(self, pred, label, *args):
        from .. import argmax, argsort, cast, reshape
        if pred.shape[-1] < self.maxk:
            raise ValueError(f"Accuracy: topk {self.maxk} is larger than the number of classes "
                             f"{pred.shape[-1]} of 'pred' (shape {list(pred.shape)})")
        idx = argsort(pred, axis=-1, descending=True)[..., :self.maxk]
        if len(label.shape) == 1 or (len(label.shape) == 2 and label.shape[-1] == 1):
            label = reshape(label, (-1, 1))
        elif label.shape[-1] != 1:
            label = argmax(label, axis=-1, keepdim=True)  # one-hot labels
        correct = idx == cast(label, idx.dtype)
        return cast(correct, "float32")

    def update(self, correct, *args):
        correct = _to_numpy(correct, "correct")
        num_samples = int(np.prod(np.array(correct.shape[:-1])))
        accs = []
        for i, k in enumerate(self.topk):
            num_corrects = float(correct[..., :k].sum())
            accs.append(num_corrects / num_samples if num_samples else 0.0)
            self.total[i] += num_corrects
            self.count[i] += num_samples
        return accs[0] if len(self.topk) == 1 else accs

    def reset(self):
        self.total = [0.0] * len(self.topk)
        self.count = [0] * len(self.topk)

    def accumulate(self):
        res = [float(t) / c if c > 0 else 0.0 for t, c in zip(self.total, self.count)]
        return res[0] if len(self.topk) == 1 else res

    def _init_name(self, name):
        name = name or "acc"
        self._name = [f"{name}_top{k}" for k in self.topk] if self.maxk != 1 else [name]

    def name(self):
        return self._name


class Precision(Metric):
    """Binary precision tp / (tp + fp); preds are probabilities rounded at 0.5."""

    def __init__(self, name="precision", *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.tp = 0
        self.fp = 0
        self._name = name

    def update(self, preds, labels):
        preds = _to_numpy(preds, "preds")
        labels = _to_numpy(labels, "labels")
        pred = np.floor(preds + 0.5).astype("int32").reshape(labels.shape[0], -1)[:, 0]
        label = labels.reshape(labels.shape[0], -1)[:, 0]
        pos = pred == 1
        self.tp += int(np.sum(pos & (pred == label)))
        self.fp += int(np.sum(pos & (pred != label)))

    def reset(self):
        self.tp = 0
        self.fp = 0

    def accumulate(self):
        ap = self.tp + self.fp
        return float(self.tp) / ap if ap != 0 else 0.0

    def name(self):
        return self._name


class Recall(Metric):
    """Binary recall tp / (tp + fn); preds are probabilities rounded at 0.5."""

    def __init__(self, name="recall", *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.tp = 0
        self.fn = 0
        self._name = name

    def update(self, preds, labels):
        preds = _to_numpy(preds, "preds")
        labels = _to_numpy(labels, "labels")
        pred = np.floor(preds + 0.5).astype("int32").reshape(labels.shape[0], -1)[:, 0]
        label = labels.reshape(labels.shape[0], -1)[:, 0]
        pos = label == 1
        self.tp += int(np.sum(pos & (pred == label)))
        self.fn += int(np.sum(pos & (pred != label)))

    def accumulate(self):
        recall = self.tp + self.fn
        return float(self.tp) / recall if recall != 0 else 0.0

    def reset(self):
        self.tp = 0
        self.fn = 0

    def name(self):
        return self._name


class Auc(Metric):
    """Area under the ROC curve from histograms of the positive-class probability
    (preds [N, 2], column 1) in num_thresholds + 1 buckets."""

    def __init__(self, curve="ROC", num_thresholds=4095, name="auc", *args, **kwargs):
        super().__init__(*args, **kwargs)
        if curve != "ROC":
            raise ValueError(f"Auc: argument 'curve' supports only 'ROC', got {curve!r}")
        self._curve = curve
        self._num_thresholds = num_thresholds
        self._name = name
        self.reset()

    def update(self, preds, labels):
        preds = _to_numpy(preds, "preds")
        labels = _to_numpy(labels, "labels").reshape(-1)
        if preds.ndim != 2 or preds.shape[1] < 2:
            raise ValueError(f"Auc: argument 'preds' expected shape [N, 2] (class "
                             f"probabilities), got {list(preds.shape)}")
        bins = (preds[:, 1] * self._num_thresholds).astype(np.int64)
        if bins.size and (bins.max() > self._num_thresholds or bins.min() < 0):
            raise ValueError("Auc: argument 'preds' expected probabilities in [0, 1]")
        pos = labels.astype(bool)
        np.add.at(self._stat_pos, bins[pos], 1.0)
        np.add.at(self._stat_neg, bins[~pos], 1.0)

    @staticmethod
    def trapezoid_area(x1, x2, y1, y2):
        return abs(x1 - x2) * (y1 + y2) / 2.0

    def accumulate(self):
        # From the highest threshold down: cumulative positives (TP) against negatives (FP).
        pos = np.cumsum(self._stat_pos[::-1])
        neg = np.cumsum(self._stat_neg[::-1])
        tot_pos, tot_neg = (pos[-1], neg[-1]) if pos.size else (0.0, 0.0)
        if tot_pos <= 0.0 or tot_neg <= 0.0:
            return 0.0
        pos_prev = np.concatenate([[0.0], pos[:-1]])
        neg_prev = np.concatenate([[0.0], neg[:-1]])
        auc = np.sum(np.abs(neg - neg_prev) * (pos + pos_prev) / 2.0)
        return float(auc / tot_pos / tot_neg)

    def reset(self):
        self._stat_pos = np.zeros(self._num_thresholds + 1)
        self._stat_neg = np.zeros(self._num_thresholds + 1)

    def name(self):
        return self._name


def accuracy(input, label, k=1, correct=None, total=None, name=None):
    """Fraction of rows whose label is among the k largest of input ([N, C]; label [N, 1] or
    [N]); a float32 Tensor of shape [1]. correct/total, if given, receive the counts."""
    from .. import Tensor, any as any_, cast, reshape, sum as sum_, to_tensor, topk
    if not isinstance(input, Tensor) or not isinstance(label, Tensor):
        raise TypeError(f"accuracy: arguments 'input' and 'label' expected Tensors, got "
                        f"{type(input).__name__} and {type(label).__name__}")
    if input.shape[-1] < k:
        raise ValueError(f"accuracy: argument 'k' ({k}) is larger than the last dim of 'input' "
                         f"(shape {list(input.shape)})")
    _, indices = topk(input, k=k)
    label = cast(reshape(label, (-1, 1)), indices.dtype)
    hit = any_(indices == label, axis=-1)
    n = int(indices.shape[0])
    num_correct = sum_(cast(hit, "int32"))
    acc = reshape(cast(num_correct, "float32") / float(max(n, 1)), [1])
    if correct is not None:
        correct.set_value(reshape(cast(num_correct, correct.dtype), correct.shape))
    if total is not None:
        total.set_value(reshape(cast(to_tensor(n), total.dtype), total.shape))
    return acc
