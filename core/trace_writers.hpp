// The trace writers behind the formats of core/trace_file.hpp, one file each: the Chrome trace-event JSON writer
// (core/trace_chrome.cpp) and the Paje writer (core/trace_paje.cpp, sorting through core/external_sort.hpp). Each
// opens its temporary beside `path` at once and renames it into place at finish().
#pragma once
#include "core/trace.hpp"

#include <cstddef>
#include <memory>
#include <string>

namespace ompisim {

std::unique_ptr<TraceSink> make_chrome_trace(const std::string& path);
// `memory`: bytes of events held before a sorted chunk is spilled to disk.
std::unique_ptr<TraceSink> make_paje_trace(const std::string& path, std::size_t memory);

}  // namespace ompisim
