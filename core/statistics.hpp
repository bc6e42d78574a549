// Declared statistics, as SST's ELI block declares a component's statistics: each counter once, with its name, unit
// and description, in a table whose order an enum follows. The counters are an array indexed by that enum (no string
// lookup per event); `report` writes them under their declared names into a run's counter map, and the component's
// registry entry carries the same table for `ompisim describe`.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ompisim {

struct StatisticInfo {
  const char* name;         // the key in a run's "counters" (prefixed by the component where several share a map)
  const char* unit;         // what one count is: "messages", "bytes", "endpoints", ...
  const char* description;  // one line
  bool when_counted = false;  // reported only once counted (absent from a run's counters while zero); else always
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
  void report(std::map<std::string, std::uint64_t>& out) const {
    for (std::size_t i = 0; i < N; ++i)
      if (!(*table_)[i].when_counted || values_[i]) out[(*table_)[i].name] = values_[i];
  }

private:
  const std::array<StatisticInfo, N>* table_;
  std::array<std::uint64_t, N> values_{};
};

// The table as a registry entry holds it (ComponentInfo::statistics).
template <std::size_t N>
std::vector<StatisticInfo> statistic_list(const std::array<StatisticInfo, N>& table) {
  return {table.begin(), table.end()};
}

}  // namespace ompisim
