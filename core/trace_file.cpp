#include "core/trace_file.hpp"

#include "core/atomic_write.hpp"
#include "core/errors.hpp"
#include "core/trace_writers.hpp"

#include <filesystem>
#include <fmt/format.h>

namespace fs = std::filesystem;

namespace ompisim {

const TraceFormatRegistry& trace_formats() {
  static const TraceFormatRegistry reg = [] {
    TraceFormatRegistry r;
    r.add({"paje", "Paje (SimGrid's trace format): ViTE, pajeng's pj_dump",
           make_paje_trace});
    r.add({"json", "Chrome trace-event JSON: Perfetto (ui.perfetto.dev), chrome://tracing",
           [](const std::string& p, std::size_t) { return make_chrome_trace(p); }});
    return r;
  }();
  return reg;
}

const TraceFormatInfo& trace_format_of(const std::string& path, const std::string& option) {
  const std::string ext = fs::path(path).extension().string();
  const TraceFormatInfo* f = ext.size() > 1 ? trace_formats().find(ext.substr(1)) : nullptr;
  if (!f) {
    std::vector<std::string> known;
    for (auto& n : trace_formats().names()) known.push_back("." + n);
    throw InputError(option, path, fmt::format("unknown trace format '{}': the file name must end in {}", ext,
                                               fmt::join(known, " or ")));
  }
  return *f;
}

void check_trace_path(const std::string& path, const std::string& option) {
  if (path.empty()) throw InputError(option, path, "empty path");
  (void)trace_format_of(path, option);
  check_output_path(path, option);
}

std::unique_ptr<TraceSink> open_trace(const std::string& path, const TraceFilter& filter, std::size_t memory) {
  auto sink = trace_format_of(path, "--trace").make(path, memory ? memory : kTraceMemoryDefault);
  sink->filter = filter;
  return sink;
}

}  // namespace ompisim
