// Trace files: the formats a TraceSink writes (core/trace.hpp), chosen by the file's extension from a registry:
//  - ".paje": Paje, SimGrid's own trace format (ViTE, pajeng's pj_dump). Paje needs its events in time order and the
//    models report spans when they are scheduled (a span may start in the future): events are kept in memory and
//    sorted, then streamed out at the end. Containers: one per node, under it one per execution context ("rank R")
//    and one per NIC engine; states: CPU spans and engine spans; links: messages and remote atomics (rank to rank),
//    bulk flows (node to node, value "<bytes> B over <resources>").
//  - ".json": Chrome trace-event JSON (Perfetto, chrome://tracing), streamed as the events come: a process per node,
//    a thread per context and per NIC engine, complete events ("X") for spans, async events for bulk flows, flow
//    events ("s"/"f") from a send to its match.
// Both write a temporary beside the destination and rename it at finish(): a run that fails or is killed leaves no
// half-written trace under the destination's name (a killed one may leave the temporary, "<path>.tmp.<pid>").
#pragma once
#include "core/registry.hpp"
#include "core/trace.hpp"

#include <functional>
#include <memory>
#include <string>

namespace ompisim {

struct TraceFormatInfo {
  std::string name;         // the file extension, without its dot ("paje", "json")
  std::string description;  // the viewers that read it
  std::function<std::unique_ptr<TraceSink>(const std::string& path)> make;
};
class TraceFormatRegistry : public NamedRegistry<TraceFormatInfo, &TraceFormatInfo::make> {};
const TraceFormatRegistry& trace_formats();

// Checks a --trace path before the run: a known extension, an existing writable folder, not a folder itself.
// InputError(option, path, reason) otherwise.
void check_trace_path(const std::string& path, const std::string& option = "--trace");
// The sink for `path` (format from its extension), with its temporary opened now.
std::unique_ptr<TraceSink> open_trace(const std::string& path, const TraceFilter& filter);

// "0-15,1024" (inclusive ranges, non-negative, ascending bounds) and "10us:50us" (times with units; either side may
// be empty: ":50us", "10us:"). InputError(option, text, reason) on bad input.
std::vector<std::pair<long long, long long>> parse_rank_list(const std::string& text, const std::string& option);
std::pair<double, double> parse_time_window(const std::string& text, const std::string& option);

}  // namespace ompisim
