// Declared statistics, as SST's ELI block declares a component's statistics: each counter once, with its name, unit
// and description, in a table whose order an enum follows. The counters are an array indexed by that enum (no string
// lookup per event); `report` writes them under their declared names into a run's counter map, and the component's
// registry entry carries the same table for `ompisim describe`.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ompisim {

struct StatisticInfo {
  const char* name;         // the key in a run's "counters" (prefixed by the component where several share a map)
  const char* unit;         // what one count is: "messages", "bytes", "endpoints", ...
  const char* description;  // one line
  bool when_counted = false;  // reported only once counted (absent from a run's counters while zero); else always
  // A level at the end of the run (requests still live, buffers still held), which can fall: not a count of events,
  // so it has no share per size (benchmarks/osu.cpp counts per size only what counts events).
  bool level = false;
};

// The counters of a table of N declarations, indexed by the enum Id (Id's values are 0 .. N-1 in the table's order).
template <class Id, std::size_t N>
class Statistics {
public:
  explicit Statistics(const std::array<StatisticInfo, N>& table) : table_(&table) {}
  void add(Id id, std::uint64_t n = 1) { values_[static_cast<std::size_t>(id)] += n; }
  // A value the component derives at report time (a level, a rounded time) rather than counts on the message path.
  void set(Id id, std::uint64_t v) { values_[static_cast<std::size_t>(id)] = v; }
  std::uint64_t operator[](Id id) const { return values_[static_cast<std::size_t>(id)]; }
  // Every counter under its declared name, except a zero one declared `when_counted`. Assigns.
  void report(std::map<std::string, std::uint64_t>& out) const { write(out, false); }
  // As report, but adds to what the map holds: for a counter several components of one stack report under one name
  // (mpi_truncate_errors of the libfabric providers under one MTL), the stack's value is their sum.
  void accumulate(std::map<std::string, std::uint64_t>& out) const { write(out, true); }

private:
  void write(std::map<std::string, std::uint64_t>& out, bool add) const {
    for (std::size_t i = 0; i < N; ++i) {
      if ((*table_)[i].when_counted && !values_[i]) continue;
      auto& v = out[(*table_)[i].name];
      v = add ? v + values_[i] : values_[i];
    }
  }
  const std::array<StatisticInfo, N>* table_;
  std::array<std::uint64_t, N> values_{};
};

// The declaration of the counter `id` of a table (what StackStats::find reads a run's value by): a renamed enum entry
// is a compile error where it is read, and a renamed counter is read under its new name.
template <class Id, std::size_t N>
constexpr const StatisticInfo& statistic(const std::array<StatisticInfo, N>& table, Id id) {
  return table[static_cast<std::size_t>(id)];
}

// The tables as a registry entry holds them (ComponentInfo::statistics): a component's own, then those of the parts
// whose counters it reports with its own (the NIC model it drives, the providers it links), in that order; a name
// several of them declare (mpi_truncate_errors) is listed once, as its first table declares it.
template <std::size_t... N>
std::vector<StatisticInfo> statistic_list(const std::array<StatisticInfo, N>&... tables) {
  std::vector<StatisticInfo> out;
  auto append = [&out](const auto& table) {
    for (const StatisticInfo& s : table) {
      auto same = [&s](const StatisticInfo& o) { return std::string_view(o.name) == s.name; };
      if (std::none_of(out.begin(), out.end(), same)) out.push_back(s);
    }
  };
  (append(tables), ...);
  return out;
}

// A component that reuses another's model reports its counters under names of its own (Cray MPI's Portals device,
// counted by mtl/portals' model; Cray MPICH's shared-memory path, counted by the libfabric shm model): `to` declares
// them, entry by entry in `from`'s order. Each counter of `from` that `counters` holds moves to its name in `to`; one
// both tables name alike (mpi_truncate_errors) stays.
template <std::size_t N>
void rename_counters(std::map<std::string, std::uint64_t>& counters, const std::array<StatisticInfo, N>& from,
                     const std::array<StatisticInfo, N>& to) {
  for (std::size_t i = 0; i < N; ++i) {
    if (std::string_view(from[i].name) == to[i].name) continue;
    auto it = counters.find(from[i].name);
    if (it == counters.end()) continue;
    const std::uint64_t v = it->second;
    counters.erase(it);
    counters[to[i].name] = v;
  }
}

}  // namespace ompisim
