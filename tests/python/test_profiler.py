"""paddle.profiler: the scheduler's state machine, traces (Chrome trace-event JSON, nesting),
summaries, RecordEvent, load_profiler_result, timer_only, and the memory statistics."""
import io
import json
import os
import contextlib
import threading

import numpy as np
import pytest

import skiff as paddle
import skiff.profiler as profiler
from skiff.profiler import ProfilerState as S


def states(scheduler, n):
    return [scheduler(i) for i in range(n)]


def test_make_scheduler_follows_paddles_state_machine():
    # Paddle's example 1: batch 0 closed, 1 ready, [2, 5] recorded, returned at 5.
    sch = profiler.make_scheduler(closed=1, ready=1, record=4, repeat=1)
    assert states(sch, 8) == [S.CLOSED, S.READY, S.RECORD, S.RECORD, S.RECORD,
                              S.RECORD_AND_RETURN, S.CLOSED, S.CLOSED]
    # Example 2: skip 1, then [3, 6], [9, 12], ... until the end.
    sch = profiler.make_scheduler(closed=1, ready=1, record=4, skip_first=1)
    got = states(sch, 14)
    assert got[:7] == [S.CLOSED, S.CLOSED, S.READY, S.RECORD, S.RECORD, S.RECORD,
                       S.RECORD_AND_RETURN]
    assert got[7:] == [S.CLOSED, S.READY, S.RECORD, S.RECORD, S.RECORD, S.RECORD_AND_RETURN,
                       S.CLOSED]
    with pytest.raises(AssertionError, match="record"):
        profiler.make_scheduler(closed=1, ready=1, record=0)
    with pytest.raises(AssertionError, match="closed"):
        profiler.make_scheduler(closed=-1, ready=1, record=1)
    with pytest.warns(UserWarning, match="noisy"):
        profiler.make_scheduler(closed=1, ready=0, record=1)


def test_tuple_scheduler_records_start_to_end(tmp_path):
    p = profiler.Profiler(scheduler=(2, 5), on_trace_ready=lambda prof: None)
    assert states(p.scheduler, 7) == [S.CLOSED, S.READY, S.RECORD, S.RECORD,
                                      S.RECORD_AND_RETURN, S.CLOSED, S.CLOSED]
    with pytest.raises(AssertionError, match="end > start"):
        profiler.Profiler(scheduler=(3, 3), on_trace_ready=lambda prof: None)
    with pytest.raises(TypeError, match="scheduler"):
        profiler.Profiler(scheduler="often", on_trace_ready=lambda prof: None)


def small_step(x, w):
    y = paddle.matmul(x, w)
    loss = paddle.nn.functional.relu(y).sum()
    loss.backward()
    return loss


def check_trace(path):
    """The file is a Chrome trace (JSON object format) whose complete events nest per thread."""
    with open(path) as f:
        doc = json.load(f)
    assert isinstance(doc["traceEvents"], list)
    by_tid = {}
    for e in doc["traceEvents"]:
        assert {"name", "ph", "pid"} <= set(e), e
        assert e["ph"] in ("X", "M", "i", "C"), e
        if e["ph"] == "X":
            assert isinstance(e["ts"], (int, float)) and isinstance(e["dur"], (int, float))
            assert e["dur"] >= 0 and isinstance(e["tid"], int) and isinstance(e["cat"], str)
            # Integer nanoseconds: the decimals are exact, so nesting can be checked exactly.
            by_tid.setdefault(e["tid"], []).append(
                (round(e["ts"] * 1000), round((e["ts"] + e["dur"]) * 1000), e["name"]))
        if e["ph"] == "i":
            assert e["s"] == "t" and e["cat"] == "Memory"
    for tid, evs in by_tid.items():
        evs.sort(key=lambda r: (r[0], -r[1]))
        stack = []
        for s, t, name in evs:
            while stack and stack[-1][1] <= s:
                stack.pop()
            if stack:
                assert t <= stack[-1][1], f"{name} overlaps {stack[-1][2]} on thread {tid}"
            stack.append((s, t, name))
    return doc


def test_periods_are_exported_as_valid_traces(tmp_path):
    x = paddle.randn([4, 8])
    w = paddle.randn([8, 3])
    w.stop_gradient = False
    sch = profiler.make_scheduler(closed=1, ready=1, record=2, repeat=2)
    with profiler.Profiler(scheduler=sch, on_trace_ready=profiler.export_chrome_tracing(
            str(tmp_path), worker_name="w")) as p:
        for _ in range(10):
            small_step(x, w)
            p.step()
    files = sorted(os.listdir(tmp_path))
    assert len(files) == 2, files
    assert all(f.startswith("w_time_") and f.endswith(".paddle_trace.json") for f in files)
    doc = check_trace(tmp_path / files[0])
    names = [e["name"] for e in doc["traceEvents"] if e["ph"] == "X"]
    # Steps 2 and 3 were recorded in the first period.
    assert "ProfileStep#2" in names and "ProfileStep#3" in names
    assert "ProfileStep#1" not in names and "ProfileStep#4" not in names
    cats = {e["cat"] for e in doc["traceEvents"] if e["ph"] == "X"}
    assert {"ProfileStep", "Backward", "Operator"} <= cats, cats
    thread_names = [e for e in doc["traceEvents"] if e["ph"] == "M"]
    assert thread_names[0]["name"] == "process_name"


def test_summary_tables_and_load_profiler_result(tmp_path):
    x = paddle.randn([4, 8])
    w = paddle.randn([8, 3])
    w.stop_gradient = False
    p = profiler.Profiler(on_trace_ready=lambda prof: None)
    p.start()
    for _ in range(3):
        small_step(x, w)
        p.step()
    p.stop()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        p.summary(sorted_by=profiler.SortedKeys.CPUTotal, op_detail=True, thread_sep=False,
                  time_unit='ms')
    text = out.getvalue()
    # Eager ops come from the profile mode of the dispatch stack, their kernels under them.
    assert "\nmatmul " in text and "\n  matmul_cpu<float32> " in text, text
    assert "Kernel Summary" in text
    for title in ("Device Summary", "Overview Summary", "Operator Summary", "Time unit: ms",
                  "Thread: All threads merged", "CPU Total / Avg / Max / Min / Ratio(%)"):
        assert title in text, text
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        p.summary(time_unit='us', views=[profiler.SummaryView.OverView])
    assert "Overview Summary" in out.getvalue() and "Operator Summary" not in out.getvalue()
    assert "Time unit: us" in out.getvalue()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        p.summary(thread_sep=True, sorted_by=profiler.SortedKeys.CPUMin)
    assert "Thread: All threads merged" not in out.getvalue()
    assert f"Thread: {threading.get_native_id()}" in out.getvalue()
    with pytest.raises(ValueError, match="time_unit"):
        p.summary(time_unit='hours')
    with pytest.raises(TypeError, match="sorted_by"):
        p.summary(sorted_by="CPUTotal")

    path = str(tmp_path / "trace.json")
    p.export(path, format="json")
    with pytest.raises(NotImplementedError, match="json"):
        p.export(str(tmp_path / "trace.pb"), format="pb")
    loaded = profiler.load_profiler_result(path)
    assert loaded.events() == p.profiler_result.events()
    trees = loaded.get_data()
    (root,) = [r for r in trees.values() if any(c.name.startswith("ProfileStep#")
                                                 for c in r.children_node)]
    steps = [c for c in root.children_node if c.name.startswith("ProfileStep#")]
    assert [s.name for s in steps] == ["ProfileStep#0", "ProfileStep#1", "ProfileStep#2",
                                       "ProfileStep#3"]
    for step in steps:
        for child in step.children_node:
            assert step.start_ns <= child.start_ns <= child.end_ns <= step.end_ns
    backward = [c for s in steps for c in s.children_node if c.type.name == "Backward"]
    assert len(backward) == 3
    assert all(c.children_node for c in backward)  # the grad nodes inside
    stat = profiler.profiler_statistic.StatisticData(trees, loaded.get_extra_info())
    assert "Operator Summary" in profiler.profiler_statistic._build_table(stat)
    with open(path, "w") as f:
        f.write('{"traceEvents": [')
    with pytest.raises(OSError, match="trace.json"):
        profiler.load_profiler_result(path)


def test_static_program_instructions_carry_their_kernels():
    net = paddle.nn.Linear(8, 3)
    fn = paddle.jit.to_static(lambda x: paddle.nn.functional.relu(net(x)))
    x = paddle.randn([2, 8])
    fn(x)  # captured and compiled outside the profile
    p = profiler.Profiler(on_trace_ready=lambda prof: None, record_shapes=True)
    with p:
        fn(x)
    events = p.profiler_result.events()
    kernels = {name for name, t, *_ in events if t == "Kernel"}
    assert "relu_cpu<float32>" in kernels, kernels
    ops = {name: args for name, t, s, e, tid, args in events if t == "Operator"}
    assert ops["relu"]["kernel"] == "relu_cpu<float32>"


def test_record_shapes_gives_op_inputs():
    x = paddle.randn([4, 8])
    w = paddle.randn([8, 3])
    with profiler.Profiler(on_trace_ready=lambda prof: None, record_shapes=True) as p:
        paddle.matmul(x, w)
    (args,) = [a for n, t, s, e, tid, a in p.profiler_result.events()
               if t == "Operator" and n == "matmul"]
    assert args == {"input_shapes": "[[4, 8], [8, 3]]", "input_dtypes": "[float32, float32]",
                    "kernel": "matmul_cpu<float32>"}
    with profiler.Profiler(on_trace_ready=lambda prof: None) as p:
        paddle.matmul(x, w)
    (args,) = [a for n, t, s, e, tid, a in p.profiler_result.events() if n == "matmul"]
    assert args == {"kernel": "matmul_cpu<float32>"}  # Paddle's default: no shapes


def test_record_event_context_decorator_and_begin_end():
    @profiler.RecordEvent("decorated")
    def f(n):
        return f(n - 1) + 1 if n else 0

    with profiler.Profiler(on_trace_ready=lambda prof: None) as p:
        with profiler.RecordEvent("outer"):
            assert f(2) == 2
        e = profiler.RecordEvent("manual")
        e.begin()
        e.end()
    assert f(1) == 1  # outside a profiler it records nothing and still runs
    events = p.profiler_result.events()
    names = [n for n, *_ in events]
    assert names.count("decorated") == 3 and "manual" in names
    assert all(t == "PythonUserDefined" for n, t, *_ in events if n in ("outer", "decorated"))
    outer = next(ev for ev in events if ev[0] == "outer")
    for ev in events:
        if ev[0] == "decorated":
            assert outer[2] <= ev[2] <= ev[3] <= outer[3]
    assert f.__name__ == "f"
    with pytest.raises(TypeError, match="name"):
        profiler.RecordEvent(3)


def test_model_summary_phases_and_dataloader_waits():
    class Data(paddle.io.Dataset):
        def __getitem__(self, i):
            return np.full([8], i, "float32"), np.array([i % 3], "int64")

        def __len__(self):
            return 8

    net = paddle.nn.Sequential(paddle.nn.Linear(8, 3))
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())
    loader = paddle.io.DataLoader(Data(), batch_size=4)
    with profiler.Profiler(on_trace_ready=lambda prof: None) as p:
        for x, y in loader:
            loss = paddle.nn.functional.cross_entropy(net(x), y)
            loss.backward()
            opt.step()
            opt.clear_grad()
            p.step()
    events = p.profiler_result.events()
    types = {}
    for name, t, *_ in events:
        types.setdefault(t, set()).add(name)
    assert types["Dataloader"] == {"_DataLoaderIterSingleProcess"}
    assert {"Sequential", "Linear"} <= types["Forward"]
    assert types["Optimization"] == {"Optimization Step"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        p.summary()
    text = out.getvalue()
    assert "Model Summary" in text
    for row in ("  Dataloader", "  Forward", "  Backward", "  Optimization", "  Others"):
        assert row in text


def test_profile_memory_gives_a_memory_summary():
    with profiler.Profiler(on_trace_ready=lambda prof: None, profile_memory=True) as p:
        a = paddle.ones([256, 256])
        b = a + 1
        del a, b
    mem = p.profiler_result.mem_events()
    assert any(m["type"] == "Allocate" and m["increase_bytes"] >= 256 * 256 * 4 for m in mem)
    assert any(m["type"] == "Free" and m["increase_bytes"] <= -256 * 256 * 4 for m in mem)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        p.summary()
    assert "Memory Summary - cpu" in out.getvalue()
    assert "Peak Allocated Memory:" in out.getvalue()


def test_timer_only_reports_steps(capsys):
    p = profiler.Profiler(timer_only=True, on_trace_ready=lambda prof: None)
    p.start()
    for _ in range(3):
        paddle.ones([4]).sum()
        p.step(num_samples=4)
    info = p.step_info(unit="images")
    for _ in range(9):
        p.step(num_samples=4)
    p.stop()
    assert info.startswith("batch_cost: ") and info.endswith("images/s"), info
    assert p.profiler_result is None
    out = capsys.readouterr().out  # the first 10 steps are warm-up, as in Paddle
    assert "Perf Summary" in out and "batch_cost" in out and "ips" in out, out
    p = profiler.Profiler(timer_only=True, on_trace_ready=lambda prof: None)
    p.start()
    p.step()
    p.stop()
    assert capsys.readouterr().out == ""


def test_unsupported_targets_warn():
    with pytest.warns(UserWarning, match="not supported"):
        p = profiler.Profiler(targets=[profiler.ProfilerTarget.GPU],
                              on_trace_ready=lambda prof: None)
    assert p.targets == set()


def test_memory_statistics_follow_known_allocations():
    dev = paddle.device
    base = dev.memory_allocated()
    t = paddle.zeros([1000], dtype="float32")  # 4000 bytes, 64-byte aligned blocks
    grown = dev.memory_allocated() - base
    assert 4000 <= grown < 4000 + 64 + 512, grown
    assert dev.memory_allocated("cpu") == dev.memory_allocated(paddle.CPUPlace()) == base + grown
    assert dev.max_memory_allocated() >= base + grown
    assert dev.memory_reserved() >= dev.memory_allocated()
    assert dev.max_memory_reserved() >= dev.memory_reserved()
    del t
    assert dev.memory_allocated() == base
    dev.reset_max_memory_allocated()
    assert dev.max_memory_allocated() == base
    big = paddle.zeros([1 << 18])  # 1 MiB
    assert dev.max_memory_allocated() >= base + (1 << 20)
    del big
    assert dev.max_memory_allocated() >= base + (1 << 20)
    dev.reset_max_memory_reserved()
    assert dev.max_memory_reserved() == dev.memory_reserved()
    with pytest.raises(ValueError, match="not expected"):
        dev.memory_allocated(1.5)
    if not paddle.is_compiled_with_cuda():
        with pytest.raises(ValueError, match="no CUDA"):
            dev.memory_allocated(0)
        for fn in ("memory_allocated", "max_memory_allocated", "memory_reserved",
                   "max_memory_reserved", "reset_max_memory_allocated",
                   "reset_max_memory_reserved"):
            with pytest.raises(ValueError, match=f"paddle.device.cuda.{fn} is not supported in "
                               "CPU-only PaddlePaddle"):
                getattr(paddle.device.cuda, fn)()


def test_llama_profile_flag_writes_a_trace_and_prints_the_summary(tmp_path, capsys):
    from example_scripts import train_module
    train = train_module("llama")
    out = str(tmp_path / "run")
    train.main(["--out", out, "--corpus-bytes", "20000", "--vocab", "280", "--dim", "16",
                "--layers", "1", "--heads", "2", "--hidden", "32", "--seq-len", "16",
                "--batch-size", "2", "--ckpt-every", "100", "--eval-every", "100",
                "--warmup", "1", "--steps", "6", "--sample-tokens", "2", "--profile"])
    text = capsys.readouterr().out
    assert "Operator Summary" in text and "Memory Summary - cpu" in text
    assert os.path.isdir(os.path.join(out, "ckpt"))
    (trace,) = os.listdir(os.path.join(out, "profile"))
    assert trace.startswith("llama_time_") and trace.endswith(".paddle_trace.json")
    doc = check_trace(os.path.join(out, "profile", trace))
    names = {e["name"] for e in doc["traceEvents"] if e["ph"] == "X"}
    assert {"ProfileStep#2", "ProfileStep#3", "ProfileStep#4", "matmul"} <= names
    assert "ProfileStep#5" not in names
    shapes = [e["args"] for e in doc["traceEvents"] if e["ph"] == "X" and e["name"] == "matmul"]
    assert all("input_shapes" in a and a["kernel"].startswith("matmul_cpu<") for a in shapes)


def test_python_events_may_end_on_another_thread():
    with profiler.Profiler(on_trace_ready=lambda prof: None) as p:
        e = profiler.RecordEvent("handed over", profiler.TracerEventType.Operator)
        e.begin()
        t = threading.Thread(target=e.end)
        t.start()
        t.join()
        paddle.matmul(paddle.ones([2, 2]), paddle.ones([2, 2]))  # its kernel tags its own event
    events = {n: (t, a) for n, t, s, end, tid, a in p.profiler_result.events()}
    assert events["handed over"][0] == "Operator" and "kernel" not in events["handed over"][1]
    assert events["matmul"][1]["kernel"] == "matmul_cpu<float32>"
