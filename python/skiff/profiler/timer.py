"""Step timing for Profiler(timer_only=True) and Profiler.step_info (Paddle's
paddle.profiler.timer): batch cost, reader cost (DataLoader waits) and throughput."""
import time


class _Stat:
    def __init__(self):
        self.values = []

    def add(self, v):
        self.values.append(v)

    def summary(self):
        v = self.values
        return (sum(v) / len(v), max(v), min(v)) if v else (0.0, 0.0, 0.0)


class _Benchmark:
    def __init__(self):
        self.running = False
        self._reset()

    def _reset(self):
        self.batch = _Stat()
        self.reader = _Stat()
        self.ips = _Stat()
        self.window = []  # (batch_cost, reader_cost, samples) since the last step_info
        self.step_start = None
        self.reader_start = None
        self.reader_time = 0.0

    def begin(self):
        self._reset()
        self.running = True
        self.step_start = time.perf_counter()

    def before_reader(self):
        if self.running:
            self.reader_start = time.perf_counter()

    def after_reader(self):
        if self.running and self.reader_start is not None:
            self.reader_time += time.perf_counter() - self.reader_start
            self.reader_start = None

    def step(self, num_samples=None):
        if not self.running:
            return
        now = time.perf_counter()
        cost = now - self.step_start
        self.batch.add(cost)
        self.reader.add(self.reader_time)
        samples = 1 if num_samples is None else num_samples
        if cost > 0:
            self.ips.add(samples / cost)
        self.window.append((cost, self.reader_time, samples))
        self.step_start = now
        self.reader_time = 0.0

    def step_info(self, unit):
        if not self.window:
            return ""
        batch = sum(w[0] for w in self.window) / len(self.window)
        reader = sum(w[1] for w in self.window) / len(self.window)
        samples = sum(w[2] for w in self.window)
        ips = samples / sum(w[0] for w in self.window) if batch > 0 else 0.0
        self.window = []
        text = f"reader_cost: {reader:.5f} s " if reader > 0 else ""
        return text + f"batch_cost: {batch:.5f} s ips: {ips:.3f} {unit}/s"

    def end(self, unit="samples"):
        """Prints Paddle's Perf Summary of the steps after the first 10 (warm-up)."""
        if not self.running:
            return
        self.running = False
        skip = 10
        if len(self.batch.values) <= skip:
            return
        batch, reader, ips = (_Stat(), _Stat(), _Stat())
        batch.values = self.batch.values[skip:]
        reader.values = self.reader.values[skip:]
        ips.values = self.ips.values[skip:]
        lines = ['Perf Summary'.center(100, '=')]
        total_reader, total = sum(reader.values), sum(batch.values)
        if total_reader > 0:
            lines.append(f"Reader Ratio: {100 * total_reader / total:.3f}%")
        lines.append(f"Time Unit: s, IPS Unit: {unit}/s")
        lines.append(f"| {'':^15} | {'avg':^15} | {'max':^15} | {'min':^15} |")
        rows = [("reader_cost", reader)] if total_reader > 0 else []
        for name, stat in rows + [("batch_cost", batch), ("ips", ips)]:
            avg, mx, mn = stat.summary()
            lines.append(f"| {name:^15} | {avg:^15.5f} | {mx:^15.5f} | {mn:^15.5f} |")
        print("\n".join(lines))


_BENCHMARK = _Benchmark()


def benchmark():
    """The process-wide step timer."""
    return _BENCHMARK
