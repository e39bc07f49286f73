// skiff._C.profiler: sessions, RecordEvent and ProfilerResult of skiff/profiler for
// python/skiff/profiler (Paddle's paddle.profiler runs its scheduler in Python on top of these).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>

#include "skiff/ops/profile_mode.h"
#include "skiff/profiler/profiler.h"
#include "skiff/python/bind.h"

namespace skiff::python {

namespace {

namespace prof = skiff::profiler;

// A RecordEvent Python code begins and ends itself (context manager, decorator, begin/end).
class PyRecordEvent {
 public:
  PyRecordEvent(std::string name, prof::EventType type) : name_(std::move(name)), type_(type) {}
  void begin() {
    if (!prof::is_enabled()) return;  // a closed profiler: nothing to start
    event_ = std::make_unique<prof::RecordEvent>();
    event_->begin(name_, type_, /*scoped=*/false);  // may end on another thread
  }
  void end() {
    if (event_) event_->end();
    event_.reset();
  }

 private:
  std::string name_;
  prof::EventType type_;
  std::unique_ptr<prof::RecordEvent> event_;
};

py::dict args_dict(const prof::EventArgs& args) {
  py::dict d;
  for (const auto& [k, v] : args) d[py::str(k)] = v;
  return d;
}

}  // namespace

void bind_profiler(py::module_& m) {
  ops::install_profile_mode();
  py::enum_<prof::EventType> type(m, "TracerEventType", "Paddle's TracerEventType");
  for (int i = 0; i < prof::kNumEventTypes; ++i) {
    const auto t = static_cast<prof::EventType>(i);
    type.value(std::string(prof::event_type_name(t)).c_str(), t);
  }

  py::class_<PyRecordEvent>(m, "RecordEvent")
      .def(py::init<std::string, prof::EventType>(), py::arg("name"),
           py::arg("event_type") = prof::EventType::kPythonUserDefined)
      .def("begin", &PyRecordEvent::begin)
      .def("end", &PyRecordEvent::end);

  py::class_<prof::ProfilerResult>(m, "ProfilerResult")
      .def("save", &prof::ProfilerResult::save, py::arg("path"), py::arg("format") = "json",
           py::call_guard<py::gil_scoped_release>())
      .def_static("load", &prof::ProfilerResult::load, py::arg("path"))
      .def(
          "summary",
          [](const prof::ProfilerResult& r, int sorted_by, bool op_detail, bool thread_sep,
             const std::string& time_unit) {
            prof::SummaryOptions o;
            o.sorted_by = static_cast<prof::SortedBy>(sorted_by);
            o.op_detail = op_detail;
            o.thread_sep = thread_sep;
            o.time_unit = time_unit;
            return r.summary(o);
          },
          py::arg("sorted_by") = 0, py::arg("op_detail") = true, py::arg("thread_sep") = false,
          py::arg("time_unit") = "ms")
      .def(
          "events",
          [](const prof::ProfilerResult& r) {
            py::list out;
            for (const prof::HostEvent& e : r.events) {
              out.append(py::make_tuple(e.name, std::string(prof::event_type_name(e.type)),
                                        e.start_ns, e.end_ns, e.tid, args_dict(e.args)));
            }
            return out;
          },
          "(name, type, start_ns, end_ns, thread_id, args) per host event, by thread and start")
      .def("mem_events",
           [](const prof::ProfilerResult& r) {
             py::list out;
             for (const prof::MemEvent& e : r.mem_events) {
               py::dict d;
               d["type"] = std::string(prof::mem_event_type_name(e.type));
               d["timestamp_ns"] = e.ts_ns;
               d["thread_id"] = e.tid;
               d["place"] = e.place;
               d["addr"] = e.addr;
               d["increase_bytes"] = e.type == prof::MemEventType::kFree ||
                                             e.type == prof::MemEventType::kReservedFree
                                         ? -e.bytes
                                         : e.bytes;
               d["current_allocated"] = e.allocated;
               d["current_reserved"] = e.reserved;
               d["peak_allocated"] = e.peak_allocated;
               d["peak_reserved"] = e.peak_reserved;
               out.append(d);
             }
             return out;
           })
      .def_readonly("extra_info", &prof::ProfilerResult::extra_info)
      .def_readonly("thread_names", &prof::ProfilerResult::thread_names)
      .def_readonly("pid", &prof::ProfilerResult::pid)
      .def_readonly("start_ns", &prof::ProfilerResult::start_ns)
      .def_readonly("end_ns", &prof::ProfilerResult::end_ns);

  m.def(
      "start",
      [](bool record_shapes, bool profile_memory) {
        prof::start_session({.record_shapes = record_shapes, .profile_memory = profile_memory});
      },
      py::arg("record_shapes") = false, py::arg("profile_memory") = false);
  m.def("stop", &prof::stop_session, py::call_guard<py::gil_scoped_release>());
  m.def("running", &prof::session_running);
  m.def("is_enabled", &prof::is_enabled);
}

}  // namespace skiff::python
