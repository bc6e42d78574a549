// Trace files: the formats a TraceSink writes (core/trace.hpp), chosen by the file's extension from a registry:
//  - ".paje": Paje, SimGrid's own trace format (ViTE, pajeng's pj_dump). Paje needs its events in time order and the
//    models report them out of order (a span when it is scheduled, a flow or message when it ends): events are sorted
//    in bounded memory (an external merge sort: sorted chunks of at most `memory` bytes spilled to an unlinked file
//    beside the trace, merged at the end). Containers: one per node, under it one per execution context ("rank R")
//    and one per NIC engine, and one per resource a traced flow crosses; states: CPU spans and engine spans; links:
//    messages and remote atomics (rank to rank), bulk flows (node to node, value "<bytes> B over <resources>");
//    variable FLOWS on each resource: the traced flows in flight on it.
//  - ".json": Chrome trace-event JSON (Perfetto, chrome://tracing), streamed as the events come: a process per node,
//    a thread per context and per NIC engine, complete events ("X") for spans, async events for bulk flows, flow
//    events ("s"/"f") from a send to its match, counter events ("C") per resource for the flows in flight on it.
// Both write a temporary beside the destination and rename it at finish(): a run that fails or is killed leaves no
// half-written trace under the destination's name; the temporary ("<path>.tmp.<pid>") of a simulation process killed
// by SIGINT / SIGTERM, or dead, is removed by its parent (core/signals.hpp add_child_temporary).
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
  std::function<std::unique_ptr<TraceSink>(const std::string& path, std::size_t memory)> make;  // memory: see open_trace
};
class TraceFormatRegistry : public NamedRegistry<TraceFormatInfo, &TraceFormatInfo::make> {};
const TraceFormatRegistry& trace_formats();

// Checks a --trace path before the run: a known extension, then check_output_path (an existing writable folder, not
// a folder itself, not a symbolic link). InputError(option, path, reason) otherwise.
void check_trace_path(const std::string& path, const std::string& option = "--trace");
// The format of a trace path, by its extension; InputError(option, path, reason) for an unknown one.
const TraceFormatInfo& trace_format_of(const std::string& path, const std::string& option);
// The sink for `path` (format from its extension), with its temporary opened now. `memory`: the bytes of events a
// format that sorts (Paje) holds before spilling a sorted chunk to disk (0: kTraceMemoryDefault).
constexpr std::size_t kTraceMemoryDefault = 64u << 20;
std::unique_ptr<TraceSink> open_trace(const std::string& path, const TraceFilter& filter, std::size_t memory = 0);

}  // namespace ompisim
