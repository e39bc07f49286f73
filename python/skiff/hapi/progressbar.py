"""The progress bar paddle.Model prints (Paddle's hapi ProgressBar, same text).

verbose=1: `step  3/10 [======>.......] - loss: 0.6931 - acc: 0.5000 - ETA: 2s - 12ms/step`,
rewritten in place ('\\r') when stdout is a terminal, one line per update otherwise (a log file
then reads as a list of steps). verbose=2: one plain line per update, without the bar.
Values: floats with 4 decimals (scientific below 1e-3), lists joined by spaces.
"""
import sys
import time

import numpy as np

__all__ = ["ProgressBar"]


def _dynamic(file):
    # A terminal or a notebook redraws in place; a pipe or a file gets plain lines.
    return (hasattr(file, "isatty") and file.isatty()) or "ipykernel" in sys.modules


def _fmt_value(v):
    if isinstance(v, (float, np.floating)):
        return f" {v:.4f}" if abs(v) > 1e-3 else f" {v:.4e}"
    return f" {v}"


class ProgressBar:
    def __init__(self, num=None, width=30, verbose=1, start=True, file=None, name="step"):
        self._num = num
        self._width = width
        self._verbose = verbose
        self._file = file
        self.name = name
        self._total_width = 0
        self._last_update = 0
        self._start = time.time() if start else None
        self._dynamic_display = _dynamic(self.file)

    @property
    def file(self):
        return self._file if self._file is not None else sys.stdout

    def start(self):
        self._start = time.time()
        self.file.flush()

    def _values_text(self, values):
        info = ""
        for k, val in values:
            info += f" - {k}:"
            for v in (val if isinstance(val, (list, tuple)) else [val]):
                info += _fmt_value(v)
        return info

    def update(self, current_num, values=()):
        now = time.time()
        if self._start is None:
            self._start = now
        per_unit = (now - self._start) / current_num if current_num else 0
        if per_unit >= 1 or per_unit == 0:
            fps = f" - {per_unit:.0f}s/{self.name}"
        elif per_unit >= 1e-3:
            fps = f" - {per_unit * 1e3:.0f}ms/{self.name}"
        else:
            fps = f" - {per_unit * 1e6:.0f}us/{self.name}"
        out = self.file
        if self._verbose == 1:
            prev_width = self._total_width
            out.write("\r" if self._dynamic_display else "\n")
            if self._num is not None:
                digits = len(str(self._num))
                bar = f"{self.name} {current_num:{digits}d}/{self._num} ["
                filled = int(self._width * min(current_num / self._num, 1.0))
                if filled > 0:
                    bar += "=" * (filled - 1) + (">" if current_num < self._num else "=")
                bar += "." * (self._width - filled) + "]"
            else:
                bar = f"{self.name} {current_num:3d}"
            self._total_width = len(bar)
            info = self._values_text(values)
            if self._num is not None and current_num < self._num:
                eta = per_unit * (self._num - current_num)
                if eta > 3600:
                    eta_text = f"{int(eta // 3600)}:{int(eta % 3600) // 60:02d}:{int(eta) % 60:02d}"
                elif eta > 60:
                    eta_text = f"{int(eta // 60)}:{int(eta) % 60:02d}"
                else:
                    eta_text = f"{int(eta)}s"
                info += f" - ETA: {eta_text}"
            info += fps
            self._total_width += len(info)
            if self._dynamic_display and prev_width > self._total_width:
                info += " " * (prev_width - self._total_width)  # cover the longer old line
            if self._num is None or current_num >= self._num:
                info += "\n"
            out.write(bar + info)
            out.flush()
        elif self._verbose in (2, 3):
            if self._num:
                digits = len(str(self._num))
                count = f"{self.name} {current_num:{digits}d}/{self._num}"
            else:
                count = f"{self.name} {current_num:3d}"
            out.write(count + self._values_text(values) + fps + "\n")
            out.flush()
        self._last_update = now
