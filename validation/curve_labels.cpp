#include "validation/curve_labels.hpp"

#include "core/json_input.hpp"
#include "platform/world.hpp"
#include "runner/registries.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>

namespace ompisim::validation {

std::string placement_phrase(const Scenario& s) {
  auto m = load_machine(s.machine_file.empty() ? s.machine : s.machine_file);
  if (m->node_types().size() < 2 || s.ranks.empty()) return "";
  const long long ranks = s.ranks.back();
  const Placement p = make_placement(*m, ranks, s.ranks_per_node, s.nodes, s.file, s.mapping);
  std::vector<std::pair<std::string, long long>> runs;  // node type, ranks in a row on it
  std::vector<std::string> types;                       // in order of first appearance
  for (long long r = 0; r < ranks; ++r) {
    const std::string& t = m->node_type_def(p.nodes[static_cast<std::size_t>(p.map->node_index(r))]).name;
    if (runs.empty() || runs.back().first != t) runs.push_back({t, 0});
    ++runs.back().second;
    if (std::find(types.begin(), types.end(), t) == types.end()) types.push_back(t);
  }
  auto join = [](const std::vector<std::string>& v, const char* sep) {
    std::string out;
    for (const auto& x : v) out += (out.empty() ? "" : sep) + x;
    return out;
  };
  if (types.size() == 1) return "homogeneous " + types[0];
  if (ranks <= 4) {
    std::vector<std::string> seq;
    for (const auto& [t, n] : runs)
      for (long long i = 0; i < n; ++i) seq.push_back(t);
    return join(seq, "-") + ", heterogeneous";
  }
  if (runs.size() == types.size()) {
    std::vector<std::string> parts;
    for (const auto& [t, n] : runs) parts.push_back(fmt::format("{} {}", n, t));
    return "heterogeneous, block " + join(parts, " + ");
  }
  if (std::all_of(runs.begin(), runs.end(), [](const auto& r) { return r.second == 1; }))
    return "heterogeneous, round robin " + join(types, "/");
  return fmt::format("heterogeneous, {} runs of {}", runs.size(), join(types, "/"));
}

void distinguish_labels(std::vector<std::string>& labels, const std::vector<const Scenario*>& scenarios) {
  auto clashes = [&labels] {
    std::map<std::string, std::vector<std::size_t>> by;
    for (std::size_t i = 0; i < labels.size(); ++i) by[labels[i]].push_back(i);
    std::vector<std::vector<std::size_t>> out;
    for (auto& [label, g] : by)
      if (g.size() > 1) out.push_back(g);
    return out;
  };
  for (auto& g : clashes()) {
    std::vector<Json> bench;
    std::set<std::string> keys;
    for (std::size_t c : g) {
      Json j = load_json_file(scenarios[c]->file);
      bench.push_back(j.contains("benchmark") && j["benchmark"].is_object() ? j["benchmark"] : Json::object());
      for (auto it = bench.back().begin(); it != bench.back().end(); ++it) keys.insert(it.key());
    }
    std::vector<std::string> extra(g.size());
    for (const auto& k : keys) {
      bool scalar = true, differ = false;
      for (const auto& b : bench) {
        scalar = scalar && (!b.contains(k) || b[k].is_primitive());
        differ = differ || b.value(k, Json()) != bench[0].value(k, Json());
      }
      if (!scalar || !differ) continue;
      for (std::size_t i = 0; i < g.size(); ++i) {
        const Json v = bench[i].value(k, Json());
        extra[i] += fmt::format(" {}={}", k, v.is_null() ? "default" : v.is_string() ? v.get<std::string>() : v.dump());
      }
    }
    std::vector<std::string> where;
    for (std::size_t c : g) where.push_back(placement_phrase(*scenarios[c]));
    if (std::any_of(where.begin(), where.end(), [&](const std::string& w) { return w != where[0]; }))
      for (std::size_t i = 0; i < g.size(); ++i) extra[i] += where[i].empty() ? "" : ", " + where[i];
    for (std::size_t i = 0; i < g.size(); ++i) labels[g[i]] += extra[i];
  }
  for (auto& g : clashes())
    for (std::size_t c : g) labels[c] += " (" + scenarios[c]->id + ")";
}

}  // namespace ompisim::validation
