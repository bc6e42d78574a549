#include "runner/report.hpp"

#include "core/build_info.hpp"

#include "core/atomic_write.hpp"
#include "core/errors.hpp"
#include "core/units.hpp"
#include "protocols/register.hpp"
#include "runner/registries.hpp"
#include "runner/stacks.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <map>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <set>
#include <tuple>

namespace ompisim {

namespace {
namespace fs = std::filesystem;
// What each network's route policy does on its topology where that is not what its name promises (RoutePolicyInfo::
// on_topology), as "network: text"; empty when none.
std::vector<std::string> routing_notes(const World& w) {
  std::vector<std::string> out;
  for (int i = 0; i < w.networks(); ++i) {
    const auto& r = w.fabric(i).routing();
    if (!r.on_topology) continue;
    if (std::string t = r.on_topology(*w.fabric(i).network().topology); !t.empty())
      out.push_back(w.networks() == 1 ? fmt::format("{}: {}", r.name, t)
                                      : fmt::format("{} ({}): {}", r.name, w.fabric(i).network().name, t));
  }
  return out;
}

// The route policy of the run: its name on a machine with one network, else {network: name}.
Json routing_json(const World& w) {
  if (w.networks() == 1) return w.fabric().routing().name;
  Json j = Json::object();
  for (int i = 0; i < w.networks(); ++i) j[w.fabric(i).network().name] = w.fabric(i).routing().name;
  return j;
}

// The MCA parameters of the run's stack, as resolved: those of its components only (the ones `--set` and a scenario's
// "mca" may set; another component's defaults are not the run's).
Json stack_mca(const StackSpec& spec, McaParams& mca) {
  ParamList list;
  for (const ComponentInfo* c : mca_components(spec))
    for (auto& r : c->param_list(mca)) list.push_back(r);
  return resolved(list);
}
}  // namespace

Json result_json(const RunRecord& r) {
  const Scenario& s = r.scenario;
  Machine& m = r.machine;
  const Simulator& sim = r.sim;
  const StackStats& st = r.stats;
  const long long ranks = r.ranks;
  const Overrides& sets = r.sets;
  const Placement& pl = r.placement;
  Json stats{{"sends_posted", st.sends_posted},       {"sends_completed", st.sends_completed},
             {"recvs_posted", st.recvs_posted},       {"recvs_completed", st.recvs_completed},
             {"live_requests", st.live_requests},     {"unexpected_left", st.unexpected_now},
             {"posted_left", st.posted_now},          {"amos", st.amos},
             {"events", sim.events_scheduled},       {"flows", sim.flows_started},
             {"simulated_time_s", sim.now()},        {"counters", st.counters}};
  Json res{{"scenario", s.id},
           {"machine", m.name},
           {"stack", s.stack},
           {"benchmark", s.benchmark},
           {"ranks", ranks},
           {"ranks_per_node", s.ranks_per_node},
           {"points", r.points},
           {"stats", stats}};
  res["provenance"] = {{"git_describe", git_describe()},
                       {"scenario_file", provenance_path(s.file)},
                       {"benchmark_block", s.benchmark_block},  // what was asked: sizes, iterations, warm-up, cutoff
                       {"machine_file", repo_relative(m.file)},
                       {"engine", sim.name()},
                       {"routing", routing_json(r.world)},
                       {"mapping", {{"map_by", platform::to_string(pl.map->map_by())},
                                    {"bind_to", platform::to_string(pl.map->bind_to())},
                                    {"rank_by", platform::to_string(pl.map->rank_by())}}},
                       {"overrides", sets},
                       {"parameters", resolved(m.physical_params())},
                       {"mca", stack_mca(r.spec, r.mca)}};
  // the nodes the scenario chose (its "nodes"), as given; without them the placement's default (node-list order)
  if (!s.nodes.empty()) res["provenance"]["mapping"]["nodes"] = s.nodes;
  Json components = Json::array();  // the stack's components by id ("pml/ob1", "btl/ugni"): what its counters are
  for (const auto& c : r.spec.components()) components.push_back(c.framework + "/" + c.name);
  res["provenance"]["components"] = std::move(components);
  if (auto notes = routing_notes(r.world); !notes.empty())
    res["provenance"]["routing_note"] = fmt::format("{}", fmt::join(notes, "; "));
  if (const EngineInfo* e = engines().find(sim.name()); e && e->set_grid)
    res["provenance"]["engine_grid_s"] = s.engine_grid >= 0 ? s.engine_grid : kDefaultEngineGrid;
  if (s.packet_trains > 0) {
    std::uint64_t trains = 0, flows = 0, between = 0;
    double largest = 0;
    for (int i = 0; i < r.world.networks(); ++i) {
      const Fabric& f = r.world.fabric(i);
      trains += f.packet_trains;
      flows += f.pio_flows + f.bulk_flows;
      between += f.flows_between_nodes;
      largest = std::max(largest, f.largest_flow_between_nodes);
    }
    res["provenance"]["packet_trains"] = {{"max_bytes", s.packet_trains}, {"trains", trains}, {"flows", flows},
                                          {"flows_between_nodes", between}, {"largest_flow_between_nodes", largest}};
  }
  if (const EngineInfo* e = engines().find(sim.name()); e && e->window_figures)
    if (auto w = e->window_figures(sim); !w.empty()) {
      Json& o = res["provenance"]["engine_window"];
      for (auto& [k, v] : w) o[k] = v;
    }
  if (s.neighbour)
    res["provenance"]["neighbour_job"] = {{"nodes", s.neighbour->nodes.size()},
                                          {"pattern", s.neighbour->pattern},
                                          {"flows_per_pair", s.neighbour->flows_per_pair},
                                          {"streams", r.world.neighbour_streams()}};
  stack_report(r.spec, res, StackReport{pl, r.mca, st});
  return res;
}


std::string calls_note(const Json& res) {
  if (!res.contains("points") || !res["points"].is_array() || res["points"].empty()) return "";
  double lo = 0, hi = 0;
  bool first = true;
  for (const auto& p : res["points"]) {
    if (!p.is_object() || !p.contains("calls_simulated") || !p["calls_simulated"].is_number()) return "";
    const double n = p["calls_simulated"].get<double>();
    lo = first ? n : std::min(lo, n);
    hi = first ? n : std::max(hi, n);
    first = false;
  }
  return fmt::format("calls simulated, warm-up included: {} (the steady-state cutoff, key \"steady_state\", stops a point "
                     "once two calls agree; 0 simulates every call)",
                     lo == hi ? fmt::format("{:g} at every point", lo) : fmt::format("{:g} to {:g} by point", lo, hi));
}

std::vector<std::string> engine_notes(const Json& res) {
  std::vector<std::string> out;
  const Json* p = res.contains("provenance") && res["provenance"].is_object() ? &res["provenance"] : nullptr;
  if (!p || !p->contains("engine") || !(*p)["engine"].is_string()) return out;
  const std::string name = (*p)["engine"].get<std::string>();
  std::vector<std::string> sharing;
  for (const auto& n : engines().names())
    if (engines().find(n)->shares_bandwidth) sharing.push_back(n);
  if (const EngineInfo* e = engines().find(name); e && !e->shares_bandwidth)
    out.push_back(fmt::format("engine {}: flows share no bandwidth (transfers at once each get their path's whole "
                              "rate, so a bandwidth may exceed a link's capacity); the engines that share it: {}",
                              name, fmt::join(sharing, ", ")));
  if (p->contains("engine_window") && (*p)["engine_window"].is_object()) {
    const Json& w = (*p)["engine_window"];
    auto num = [&](const char* k) { return w.contains(k) && w[k].is_number() ? w[k].get<double>() : 0.0; };
    out.push_back(fmt::format("engine {}, solve window {} (approximate): {:.0f} of {:.0f} flow starts delayed, by up "
                              "to {} (mean {})",
                              name, format_quantity(num("window_s"), Dim::Time), num("flow_starts_delayed"),
                              num("flow_starts_solved"), format_quantity(num("flow_start_delay_max_s"), Dim::Time),
                              format_quantity(num("flow_start_delay_mean_s"), Dim::Time)));
  }
  if (p->contains("packet_trains") && (*p)["packet_trains"].is_object()) {
    const Json& t = (*p)["packet_trains"];
    auto num = [&](const char* k) { return t.contains(k) && t[k].is_number() ? t[k].get<double>() : 0.0; };
    out.push_back(fmt::format("packet trains up to {} (approximate): {:.0f} transfers timed FIFO per link instead of "
                              "as shared flows, {:.0f} as flows",
                              format_quantity(num("max_bytes"), Dim::Bytes), num("trains"), num("flows")));
  }
  return out;
}

SweepReport::SweepReport(const Scenario& s) : s_(s), axis_(s.driver->axis()), values_(s.driver->axis_values()) {}

void SweepReport::add(long long ranks, std::size_t axis_index, Json one) {
  for (auto& p : one["points"]) points_.push_back(p);
  // The mailbox what-if and the SMSG limit depend on the rank count, not the axis value: once per count.
  const bool first_value = values_.empty() || values_.at(axis_index) == values_.front();
  if (first_value && one.contains("mailbox_memory")) mailbox_.push_back(one["mailbox_memory"]);
  if (first_value && one["provenance"].contains("derived")) {
    Json d = one["provenance"]["derived"];
    d["ranks"] = ranks;
    derived_.push_back(d);
  }
  // A --set parameter is unread when no run of the scenario read it; idle when no run's message took its component.
  for (auto [key, acc] : {std::pair{"unread_overrides", &unread_}, std::pair{"idle_overrides", &idle_},
                          std::pair{"idle_mca", &idle_mca_},
                          std::pair{"unread_mca", &unread_mca_}}) {
    const Json mine = one["provenance"].value(key, Json::array());
    if (acc->is_null()) {
      *acc = mine;
      continue;
    }
    Json both = Json::array();
    for (const auto& k : *acc)
      if (std::find(mine.begin(), mine.end(), k) != mine.end()) both.push_back(k);
    *acc = std::move(both);
  }
  if (merged_.is_null()) merged_ = std::move(one);
}

Json SweepReport::finish() {
  Json merged = std::move(merged_);
  for (auto [key, acc] : {std::pair{"unread_overrides", &unread_}, std::pair{"idle_overrides", &idle_},
                          std::pair{"idle_mca", &idle_mca_},
                          std::pair{"unread_mca", &unread_mca_}}) {
    if (acc->is_array() && !acc->empty()) merged["provenance"][key] = *acc;
    else if (merged.contains("provenance")) merged["provenance"].erase(key);
  }
  merged["points"] = std::move(points_);
  merged["ranks"] = s_.ranks.size() == 1 ? Json(s_.ranks[0]) : Json(s_.ranks);
  if (values_.size() > 1) merged[axis_] = values_;
  merged.erase("stats");
  // A sweep reports the mailbox what-if for every rank count (one object each, with its "ranks").
  if (!mailbox_.empty()) merged["mailbox_memory"] = std::move(mailbox_);
  // The effective SMSG limit also depends on the rank count (Table I): one entry per count.
  if (!derived_.empty()) merged["provenance"]["derived"] = std::move(derived_);
  return merged;
}

// A scenario file in the repository relative to it; one outside it absolute, so that `compare --against` finds it
// again from any folder.
std::string provenance_path(const std::string& file) {
  const std::string rel = repo_relative(file);
  std::error_code ec;
  if (rel != file || fs::path(file).is_absolute() || !fs::exists(file, ec)) return rel;  // (no file: a name in tests)
  const fs::path abs = fs::weakly_canonical(file, ec);
  const fs::path in_repo = fs::path(rel).lexically_normal();
  if (ec) return rel;
  // `file` was relative to the current folder: inside the repository only if that is the repository's root
  if (fs::weakly_canonical(fs::path(data_dir()) / in_repo, ec) == abs) return rel;
  return abs.string();
}

std::string git_describe() {
  // The build's own (core/build_info.cpp): the code that ran. The data folder (OMPISIM_DATA, an installed share/) may be
  // another checkout, a copy without .git or none.
  const std::string d = build_describe();
  return d.empty() ? "unknown" : d;
}

void write_atomic(const std::string& path, const std::string& text) { write_file_atomic(path, text); }


// RFC 4180: a cell holding a comma, a quote or a line break (a nested object or list, a sentence) is quoted, its
// quotes doubled; any other cell is written as it is.
std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

void check_result_points(const Json& res, const std::string& file, const std::string& key,
                         const std::string& why_suffix) {
  if (!res.is_object() || !res.contains("points") || !res["points"].is_array() || res["points"].empty())
    throw InputError(file, key, "must be a non-empty list of points" + why_suffix);
  for (std::size_t i = 0; i < res["points"].size(); ++i) {
    const Json& p = res["points"][i];
    if (!p.is_object())
      throw InputError(file, fmt::format("{}[{}]", key, i),
                       "must be an object (a point of an ompisim result)" + why_suffix);
    // A quantity (a field named with its unit, or a size or count) is a number, as every driver writes it, or null
    // where it does not apply (a replay table's total row, a share whose input is missing); a share in per cent may
    // also be an object of shares by name (MPI routines). JSON numbers are finite.
    for (auto it = p.begin(); it != p.end(); ++it) {
      const std::string& k = it.key();
      const bool pct = k.ends_with("_pct");
      const bool quantity = pct || k.ends_with("_us") || k.ends_with("_s") || k.ends_with("_GBps") ||
                            k.ends_with("_per_s") || k == "bytes" || k == "ranks";
      const bool shares = pct && it->is_object() &&
                          std::all_of(it->begin(), it->end(), [](const Json& x) { return x.is_number(); });
      if (quantity && !it->is_number() && !it->is_null() && !shares)
        throw InputError(file, fmt::format("{}[{}].{}", key, i, k),
                         fmt::format("must be a number (a quantity of the result), not {}", it->dump()) + why_suffix);
      // the protocol counters: an object of counts (compared one by one), never an axis of the point
      if (k == "counters" && !(it->is_object() && std::all_of(it->begin(), it->end(), [](const Json& x) { return x.is_number(); })))
        throw InputError(file, fmt::format("{}[{}].counters", key, i),
                         "must be an object of counts (the point's protocol counters)" + why_suffix);
    }
  }
}

Json points_with_ranks(const Json& res) {
  Json pts = res.value("points", Json::array());
  const Json& ranks = res.contains("ranks") ? res["ranks"] : Json();
  if (!ranks.is_array() || ranks.empty() || pts.empty() || pts.size() % ranks.size() != 0) return pts;
  for (const auto& p : pts)
    if (!p.is_object() || p.contains("ranks")) return pts;
  const std::size_t per_count = pts.size() / ranks.size();
  for (std::size_t i = 0; i < pts.size(); ++i) pts[i]["ranks"] = ranks[i / per_count];
  return pts;
}

const std::vector<std::string>& naming_columns() {
  static const std::vector<std::string> kNaming = {"scenario", "app", "stack", "side", "ranks", "bytes", "algorithm",
                                                   "radix"};
  return kNaming;
}

std::string result_csv(const Json& res) {
  std::string out;
  const Json pts = points_with_ranks(res);
  if (pts.empty()) return out;
  // The columns: first those that name a point (what it ran: the application, the stack, the side, the rank count,
  // the size, the algorithm and its radix) in that order, then every other key of any point, in the order they first
  // appear (a key only some points carry, such as a node-aware composition's "stages" or the steady-state rule that
  // stopped a series, is an empty cell elsewhere, as is a null), and last the protocol counters of a point.
  std::vector<std::string> cols;
  std::set<std::string> seen;
  for (const auto& k : naming_columns())
    for (const auto& p : pts)
      if (p.is_object() && p.contains(k)) {
        cols.push_back(k);
        seen.insert(k);
        break;
      }
  seen.insert("counters");  // the protocol counters that moved during a point, an object: the last column
  for (const auto& p : pts)
    if (p.is_object())
      for (auto it = p.begin(); it != p.end(); ++it)
        if (seen.insert(it.key()).second) cols.push_back(it.key());
  if (std::any_of(pts.begin(), pts.end(), [](const Json& p) { return p.is_object() && p.contains("counters"); }))
    cols.push_back("counters");
  out += fmt::format("{}\n", fmt::join(cols, ","));
  for (const auto& p : pts) {
    std::vector<std::string> v;
    for (const auto& c : cols) {
      const auto it = p.is_object() ? p.find(c) : p.end();
      v.push_back(it == p.end() || it->is_null() ? ""
                                                 : csv_cell(it->is_string() ? it->get<std::string>() : it->dump()));
    }
    out += fmt::format("{}\n", fmt::join(v, ","));
  }
  return out;
}

// provenance.derived as one object: one run's, or, for a list of runs (rank counts, radices: SweepReport keeps one
// entry per run), the values every run shares (a key whose runs differ, an automatic limit over rank counts, has no
// single value and is left out).
static Json shared_derived(const Json& prov) {
  if (!prov.contains("derived")) return Json::object();
  const Json& derived = prov["derived"];
  if (!derived.is_array()) return derived.is_object() ? derived : Json::object();
  Json same = Json::object();
  std::set<std::string> differ;
  for (const auto& d : derived) {
    if (!d.is_object()) continue;
    for (auto it = d.begin(); it != d.end(); ++it) {
      if (same.contains(it.key()) && same[it.key()] != *it) differ.insert(it.key());
      same[it.key()] = *it;
    }
  }
  for (const auto& k : differ) same.erase(k);
  return same;
}

// Each --set override whose effective value differs from it: (key, value as given, value given in bytes, value used).
static std::vector<std::tuple<std::string, std::string, double, double>> capped_overrides(const Json& res) {
  std::vector<std::tuple<std::string, std::string, double, double>> out;
  if (!res.contains("provenance") || !res["provenance"].contains("derived")) return out;
  const Json& prov = res["provenance"];
  const Json derived = shared_derived(prov);
  for (const auto& o : prov.value("overrides", Json::array())) {
    if (!o.is_array() || o.size() != 2 || !o[0].is_string() || !o[1].is_string()) continue;
    const std::string k = o[0].get<std::string>(), v = o[1].get<std::string>(), eff = k + " (effective)";
    if (!derived.contains(eff) || !derived[eff].is_number()) continue;
    double given = 0;
    try {
      given = parse_quantity(v, Dim::Bytes);
    } catch (const std::exception&) {
      std::size_t n = 0;
      try {
        given = std::stod(v, &n);
      } catch (const std::exception&) {
        continue;
      }
      if (n != v.size()) continue;
    }
    const double used = derived[eff].get<double>();
    if (used != given) out.emplace_back(k, v, given, used);
  }
  return out;
}

// The one entry of provenance.parameters that `key` names by a suffix ("bte_bandwidth" -> "nic.bte_bandwidth") or
// that is a suffix of it ("networks.gemini.nic.bte_bandwidth" -> "nic.bte_bandwidth"), as --set resolves them; "" when
// none or several.
static std::string parameter_named(const Json& prov, const std::string& key) {
  if (!prov.contains("parameters") || !prov["parameters"].is_object()) return "";
  std::string found;
  for (const auto& [name, value] : prov["parameters"].items()) {
    if (!value.is_string() || !(name.ends_with("." + key) || key.ends_with("." + name))) continue;
    if (!found.empty()) return "";
    found = name;
  }
  return found;
}

std::vector<std::string> override_notes(const Json& res) {
  std::vector<std::string> out;
  if (!res.contains("provenance")) return out;
  const Json& prov = res["provenance"];
  if (!prov.contains("overrides") || !prov["overrides"].is_array()) return out;
  for (const auto& o : prov["overrides"]) {
    if (!o.is_array() || o.size() != 2 || !o[0].is_string() || !o[1].is_string()) continue;
    const std::string k = o[0].get<std::string>(), v = o[1].get<std::string>();
    std::string item = k + "=" + v;
    bool shown = false;
    for (const char* list : {"mca", "parameters"})
      if (prov.contains(list) && prov[list].contains(k) && prov[list][k].is_string()) {
        // the value as the component reads it, where its text differs ("1024" is "1024 B")
        if (const std::string read = prov[list][k].get<std::string>(); read != v) item += " (" + read + ")";
        shown = true;
      }
    // A parameter's short name ("bte_bandwidth") or long one ("networks.gemini.nic.bte_bandwidth"): the parameter it
    // set, named as provenance.parameters names it, so the header says what the override changed.
    if (std::string name = parameter_named(prov, k); !shown && !name.empty())
      item += fmt::format(" ({} = {})", name, prov["parameters"][name].get<std::string>());
    out.push_back(std::move(item));
  }
  return out;
}

// The limit that caps `key`, as the component names it (provenance.derived "<key> (capped by)"), or "".
static std::string capped_by(const Json& res, const std::string& key) {
  const Json d = res.contains("provenance") ? shared_derived(res["provenance"]) : Json::object();
  auto it = d.find(key + " (capped by)");
  return it != d.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Calls `f` with each string of the result's provenance list `key` (none when it has no such list).
template <class F>
static void each_listed(const Json& res, const char* key, F f) {
  const auto pv = res.find("provenance");
  if (pv == res.end() || !pv->is_object()) return;
  const auto list = pv->find(key);
  if (list == pv->end() || !list->is_array()) return;
  for (const auto& k : *list)
    if (k.is_string()) f(k.get<std::string>());
}

std::vector<std::string> override_warnings(const Json& res) {
  std::vector<std::string> out;
  auto owner_of = [](const std::string& k) {
    const ComponentInfo* owner = mca_owner(k);
    return owner ? owner->id() : std::string("its component");
  };
  each_listed(res, "unread_overrides", [&](const std::string& k) {
    out.push_back(fmt::format("--set {}: no part of this run read it (not a parameter of its stack's path, or of a "
                              "mechanism the run never used), so it changed nothing", k));
  });
  each_listed(res, "idle_overrides", [&](const std::string& k) {
    out.push_back(fmt::format("--set {}: {}, which reads it, carried no message of this run (no pair of ranks took "
                              "it: each went by another path of the stack), so no time or count of the run changed",
                              k, owner_of(k)));
  });
  each_listed(res, "idle_mca", [&](const std::string& k) {
    out.push_back(fmt::format("scenario \"mca\" {}: {}, which reads it, carried no message of this run (each pair of "
                              "ranks went by another path of the stack), so it changed nothing", k, owner_of(k)));
  });
  each_listed(res, "unread_mca", [&](const std::string& k) {
    out.push_back(fmt::format("scenario \"mca\" {}: no part of this run read it (its component carried messages, but "
                              "none took the path or mechanism it sets), so it changed nothing", k));
  });
  const std::string stack = res.value("stack", std::string("of this run"));
  each_listed(res, "unread_inputs", [&](const std::string& key) {
    // benchmark.alloc: the one input a driver declares today (Driver::alloc_mem_key)
    out.push_back(key.ends_with(".alloc")
                      ? fmt::format("{} mpi_alloc_mem: no path of stack {} depends on how the buffers were allocated "
                                    "(it registers memory on demand, or needs none), so it changed nothing", key, stack)
                      : fmt::format("{}: no path of stack {} reads it, so it changed nothing", key, stack));
  });
  // packet_trains that timed no transfer (every transfer within a node, or above the size): it changed nothing
  if (res.contains("provenance") && res["provenance"].contains("packet_trains")) {
    const Json& t = res["provenance"]["packet_trains"];
    if (t.is_object() && t.value("trains", Json(1)) == Json(0))
      out.push_back(fmt::format("packet_trains {}: no transfer of this run was timed as a train (trains time transfers "
                                "between nodes up to that size; {} went as flows, and transfers within a node are "
                                "never trains), so it changed nothing",
                                format_quantity(t.value("max_bytes", 0.0), Dim::Bytes),
                                t.value("flows", Json(0)).dump()));
    // trains beside flows between nodes: they do not see each other's use of a link
    else if (const Json between = t.is_object() ? t.value("flows_between_nodes", Json(0)) : Json(0);
             between.is_number() && between.get<double>() > 0)
      out.push_back(fmt::format("packet_trains {0}: {1} transfers between nodes went as flows beside the trains (up to "
                                "{2}), and trains and flows do not see each other's use of a link; packet_trains {2} "
                                "or more times them all as trains",
                                format_quantity(t.value("max_bytes", 0.0), Dim::Bytes), between.dump(),
                                format_quantity(t.value("largest_flow_between_nodes", 0.0), Dim::Bytes)));
  }
  for (const auto& [k, v, given, used] : capped_overrides(res)) {
    const std::string by = capped_by(res, k);
    // 0 is the parameter's automatic value (btl_ugni_smsg_limit: by job size), not a cap, as effective_notes reads it
    out.push_back(fmt::format("--set {}={}: the run used {} ({}; provenance.derived \"{} (effective)\")", k, v, used,
                              given == 0   ? std::string("0 = auto, resolved for this job")
                              : by.empty() ? std::string("another limit of the component caps it")
                                           : "capped by " + by,
                              k));
  }
  return out;
}

// The dimension of an MCA parameter as its component declares it (bytes when no component declares it).
static Dim mca_dim(const std::string& key) {
  if (const ComponentInfo* c = mca_owner(key)) {
    McaParams m = component_registry().defaults();
    for (const ParamRef& r : c->param_list(m))
      if (r.info.name == key) return r.info.dim;
  }
  return Dim::Bytes;
}

// Every value a component reports as effective (provenance.derived "<key> (effective)") that differs from the
// parameter's resolved value (provenance.mca): "key: effective E (value V, capped by ...)".
std::vector<EffectiveValue> effective_values(const Json& res) {
  std::vector<EffectiveValue> out;
  if (!res.contains("provenance")) return out;
  const Json& prov = res["provenance"];
  if (!prov.contains("derived") || !prov.contains("mca")) return out;
  const Json derived = shared_derived(prov);
  const std::string suffix = " (effective)";
  for (auto it = derived.begin(); it != derived.end(); ++it) {
    if (!it.key().ends_with(suffix) || !it->is_number()) continue;
    const std::string k = it.key().substr(0, it.key().size() - suffix.size());
    if (!prov["mca"].contains(k) || !prov["mca"][k].is_string()) continue;
    const std::string v = prov["mca"][k].get<std::string>();
    const Dim dim = mca_dim(k);
    double resolved = -1;
    try {
      resolved = parse_quantity(v, dim);
    } catch (const std::exception&) {
    }
    out.push_back({k, v, resolved, it->get<double>(), dim});
  }
  return out;
}

std::vector<std::string> effective_notes(const Json& res) {
  std::vector<std::string> out;
  for (const EffectiveValue& e : effective_values(res)) {
    if (e.used == e.given) continue;
    const std::string by = capped_by(res, e.key);
    const std::string used = e.dim == Dim::Bytes ? fmt::format("{} B", e.used) : format_quantity(e.used, e.dim);
    out.push_back(fmt::format("{}: effective {} (value {}{}{})", e.key, used, e.text, e.given == 0 ? ", 0 = auto" : "",
                              by.empty() ? "" : ", capped by " + by.substr(0, by.find(':'))));
  }
  return out;
}

std::string ranks_text(const Json& ranks) {
  if (!ranks.is_array()) return ranks.dump() + " ranks";
  std::vector<std::string> counts;
  for (auto& r : ranks) counts.push_back(r.dump());
  if (counts.size() <= 4) return fmt::format("{} ranks", fmt::join(counts, ", "));
  return fmt::format("{} .. {} ranks ({} counts)", counts.front(), counts.back(), counts.size());
}

std::string points_algorithm(const Json& points) {
  if (!points.is_array() || points.empty()) return "";
  const Json& first = points[0];
  if (!first.is_object() || !first.contains("algorithm") || !first["algorithm"].is_string()) return "";
  bool same_radix = first.contains("radix");
  for (const auto& p : points) {
    if (!p.is_object() || p.value("algorithm", Json()) != first["algorithm"]) return "";
    same_radix = same_radix && p.contains("radix") && p["radix"] == first["radix"];
  }
  return first["algorithm"].get<std::string>() + (same_radix ? ", radix " + first["radix"].dump() : "");
}

namespace {
// Consecutive rows (size, value) of equal value, each run as its size range ("8 B", "64 KiB .. 1 MiB") and the value.
template <class V>
std::vector<std::pair<std::string, V>> size_runs(const std::vector<std::pair<double, V>>& rows) {
  std::vector<std::pair<std::string, V>> out;
  for (std::size_t i = 0, j = 0; i < rows.size(); i = j + 1) {
    for (j = i; j + 1 < rows.size() && rows[j + 1].second == rows[i].second;) ++j;
    out.emplace_back(i == j ? byte_label(rows[i].first)
                            : fmt::format("{} .. {}", byte_label(rows[i].first), byte_label(rows[j].first)),
                     rows[i].second);
  }
  return out;
}
}  // namespace

// Where the points' algorithms differ (a library's choice per size): consecutive sizes of one algorithm as
// "8 B recursive_doubling; 64 KiB .. 1 MiB ring"; empty when they do not differ or a point gives no size or algorithm.
std::string points_algorithms_by_size(const Json& points) {
  if (!points.is_array() || points.size() < 2 || !points_algorithm(points).empty()) return "";
  std::vector<std::pair<double, std::string>> rows;  // (size, algorithm)
  for (const auto& p : points) {
    if (!p.is_object() || !p.contains("bytes") || !p["bytes"].is_number() || !p.contains("algorithm") ||
        !p["algorithm"].is_string())
      return "";
    rows.emplace_back(p["bytes"].get<double>(), p["algorithm"].get<std::string>());
  }
  std::vector<std::string> parts;
  for (const auto& [range, a] : size_runs(rows)) parts.push_back(range + " " + a);
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::string points_protocols(const Json& points) {
  if (!points.is_array() || points.empty()) return "";
  std::vector<std::pair<double, std::set<std::string>>> rows;  // (size, the counters that move at it)
  for (const auto& p : points) {
    if (!p.is_object() || !p.contains("counters") || !p["counters"].is_object() || !p.contains("bytes") ||
        !p["bytes"].is_number())
      return "";
    // A counter moves at a size when it is at least 1 % of the largest counter of its kind there: nanoseconds and
    // bytes are not measured against message counts (ptl/elan4's layer_pml_ns would hide every protocol counter).
    auto kind = [](const std::string& n) { return n.ends_with("_ns") ? 1 : n.ends_with("_bytes") ? 2 : 0; };
    std::array<std::uint64_t, 3> most{};
    for (auto it = p["counters"].begin(); it != p["counters"].end(); ++it)
      if (it->is_number_unsigned()) most[kind(it.key())] = std::max(most[kind(it.key())], it->get<std::uint64_t>());
    std::set<std::string> moved;
    for (auto it = p["counters"].begin(); it != p["counters"].end(); ++it)
      if (const int k = kind(it.key()); it->is_number_unsigned() && it->get<std::uint64_t>() * 100 >= most[k] &&
                                        (k == 0 || it->get<std::uint64_t>() > 0))
        moved.insert(it.key());
    rows.emplace_back(p["bytes"].get<double>(), std::move(moved));
  }
  // by size, whatever order the scenario gave its sizes in; a size given twice has no one set of counters
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  if (std::adjacent_find(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first == b.first; }) !=
      rows.end())
    return "";
  std::set<std::string> every;  // with one size, its counters are its own
  if (rows.size() > 1) every = rows.front().second;
  for (const auto& [b, moved] : rows) std::erase_if(every, [&](const std::string& n) { return !moved.count(n); });
  std::vector<std::string> parts;
  for (const auto& [range, moved] : size_runs(rows)) {
    std::vector<std::string> own;
    for (const auto& n : moved)
      if (!every.count(n)) own.push_back(n);
    parts.push_back(range + (own.empty() ? "" : " " + fmt::format("{}", fmt::join(own, ", "))));
  }
  return fmt::format("{}{}", fmt::join(parts, "; "),
                     every.empty() ? "" : fmt::format(" (at every size: {})", fmt::join(every, ", ")));
}

// The memory btl/ugni's mailboxes take (the result's "mailbox_memory", bytes per node), one line per rank count: what
// a protocol choice costs besides its time (an SMSG limit at 16,384 ranks), also in the sweep's table.
static std::string mailbox_notes(const Json& res) {
  if (!res.contains("mailbox_memory")) return "";
  const Json& all = res["mailbox_memory"];
  std::string out;
  for (const Json& m : all.is_array() ? all : Json::array({all})) {
    if (!m.is_object()) continue;
    auto num = [&](const char* k) { return m.contains(k) && m[k].is_number() ? m[k].get<double>() : -1.0; };
    if (num("mailbox_bytes") < 0 || num("smsg_connected") < 0 || num("smsg_all_peers") < 0) continue;
    auto size = [](double b) {  // 34880 B, 536.5 MiB
      const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
      int u = 0;
      while (b >= 1024 && u < 4) b /= 1024, ++u;
      return u == 0 ? fmt::format("{:.0f} B", b) : fmt::format("{:.1f} {}", b, units[u]);
    };
    out += fmt::format("# mailbox memory per node (btl/ugni{}): SMSG limit {:.0f} B, one mailbox {}; to the peers "
                       "connected {} (allocated {}), to every peer {}; MSGQ {}\n",
                       all.is_array() && num("ranks") >= 0 ? fmt::format(", {:.0f} ranks", num("ranks")) : "",
                       num("smsg_limit"), size(num("mailbox_bytes")), size(num("smsg_connected")),
                       size(num("smsg_connected_allocated")), size(num("smsg_all_peers")), size(num("msgq_per_node")));
  }
  return out;
}

// One rank count's own header lines in a result of several (`part`: its "ranks" and points): the effective values
// that the counts do not share (those they share are in `shared`, printed once above; SweepReport keeps one entry of
// provenance.derived per count, with its "ranks") and the protocol counters by size.
static std::string run_notes(Json part, const std::vector<std::string>& shared) {
  std::string out;
  if (part.contains("provenance") && part["provenance"].contains("derived")) {
    Json& derived = part["provenance"]["derived"];
    const auto mine = derived.is_array() ? std::find_if(derived.begin(), derived.end(), [&](const Json& d) {
      return d.is_object() && d.value("ranks", Json()) == part["ranks"];
    }) : derived.end();
    if (mine != derived.end()) {
      derived = Json(*mine);
      std::vector<std::string> own;
      for (auto& e : effective_notes(part))
        if (std::find(shared.begin(), shared.end(), e) == shared.end()) own.push_back(e);
      if (!own.empty()) out += fmt::format("# effective values: {}\n", fmt::join(own, "; "));
    }
  }
  if (auto c = points_protocols(part["points"]); !c.empty()) out += "# protocol counters by size: " + c + "\n";
  return out;
}

// The MCA defaults the result's stack preset sets where they differ from its components' code defaults (StackInfo::mca:
// the Open MPI version it models, or a value fitted to a paper) and that the run still used: "k=v, ..." (empty when
// none). The preset is the one of that name whose every such default the run's provenance.mca names: a name such as
// "native" is one preset per NIC kind.
std::string preset_mca_note(const Json& res) {
  const Json* mca = res.contains("provenance") && res["provenance"].is_object() && res["provenance"].contains("mca")
                        ? &res["provenance"]["mca"]
                        : nullptr;
  if (!mca || !mca->is_object()) return {};
  for (const StackInfo& info : stack_registry().all()) {
    if (info.name != res.value("stack", "") || !info.mca.is_object() || info.mca.empty()) continue;
    std::vector<std::string> used;
    bool ours = true;
    for (auto it = info.mca.begin(); it != info.mca.end(); ++it) {
      if (!mca->contains(it.key())) {
        ours = false;
        break;
      }
      const Json& v = it->is_object() && it->contains("value") ? (*it)["value"] : *it;
      const std::string given = v.is_string() ? v.get<std::string>() : v.dump();
      const Json& run = (*mca)[it.key()];
      if ((run.is_string() ? run.get<std::string>() : run.dump()) == given) used.push_back(it.key() + "=" + given);
    }
    if (ours && !used.empty())
      return fmt::format("stack preset {} sets: {} (not its components' defaults: `ompisim describe {}` gives each "
                         "one's source)",
                         info.name, fmt::join(used, ", "), info.name);
  }
  return {};
}

std::string result_table(const Json& res, const Json& scenario_mca) {
  // a machine read from a file other than its shipped one (--machine-file) is named with that file: its name may be a
  // shipped machine's (an edited copy)
  std::string machine = res.value("machine", "");
  if (const Json* p = res.contains("provenance") ? &res["provenance"] : nullptr;
      p && p->is_object() && p->contains("machine_file") && (*p)["machine_file"].is_string()) {
    const std::string file = (*p)["machine_file"].get<std::string>();
    std::string shipped;
    try {
      shipped = find_machine_file(machine);
    } catch (const InputError&) {  // two shipped files of that name: neither is this one's to name
    }
    if (!file.empty() && (shipped.empty() || repo_relative(shipped) != file))
      machine += " from " + file;
  }
  std::string out = fmt::format("# ompisim {} on {} ({}), {}\n", res.value("benchmark", ""), machine,
                                res.value("stack", ""), ranks_text(res["ranks"]));
  for (const std::string& n : engine_notes(res)) out += "# " + n + "\n";
  if (const Json* p = res.contains("provenance") ? &res["provenance"] : nullptr;
      p && p->is_object() && p->contains("routing_note") && (*p)["routing_note"].is_string())
    out += "# routing " + (*p)["routing_note"].get<std::string>() + "\n";
  if (const std::string c = calls_note(res); !c.empty()) out += "# " + c + "\n";
  if (const Json* p = res.contains("provenance") ? &res["provenance"] : nullptr;
      p && p->is_object() && p->contains("collectives") && (*p)["collectives"].is_string())
    out += "# " + (*p)["collectives"].get<std::string>() + "\n";
  if (scenario_mca.is_object() && !scenario_mca.empty()) {
    // a key --set gives again is replaced by it (--set is applied after the scenario's mca block): said beside it,
    // or that --set gives the same text
    std::map<std::string, std::string> set_values;
    if (res.contains("provenance") && res["provenance"].contains("overrides"))
      for (const auto& o : res["provenance"]["overrides"])
        if (o.is_array() && o.size() == 2 && o[0].is_string() && o[1].is_string())
          set_values[o[0].get<std::string>()] = o[1].get<std::string>();
    std::vector<std::string> items;
    for (auto it = scenario_mca.begin(); it != scenario_mca.end(); ++it) {
      const std::string v = it->is_string() ? it->get<std::string>() : it->dump();
      const auto s = set_values.find(it.key());
      items.push_back(it.key() + "=" + v +
                      (s == set_values.end() ? "" : s->second == v ? " (--set gives the same)" : " (replaced by --set)"));
    }
    out += fmt::format("# overrides (scenario mca): {}\n", fmt::join(items, ", "));
  }
  if (const std::string n = preset_mca_note(res); !n.empty()) out += "# " + n + "\n";
  if (auto o = override_notes(res); !o.empty()) out += fmt::format("# overrides (--set): {}\n", fmt::join(o, ", "));
  const std::vector<std::string> shared = effective_notes(res);
  if (!shared.empty()) out += fmt::format("# effective values: {}\n", fmt::join(shared, "; "));
  out += mailbox_notes(res);
  if (res["points"].empty()) return out;
  if (auto a = points_algorithm(res["points"]); !a.empty()) out += "# algorithm " + a + "\n";
  else if (auto by = points_algorithms_by_size(res["points"]); !by.empty()) out += "# algorithm by size: " + by + "\n";
  if (auto c = points_protocols(res["points"]); !c.empty()) out += "# protocol counters by size: " + c + "\n";
  const bench::DriverInfo* d = bench::driver_registry().find(res.value("benchmark", ""));
  if (!d || !d->table) return out;
  // A list of process counts whose table has no column for it: one table per count, under "# N ranks".
  const Json& ranks = res["ranks"];
  const Json& pts = res["points"];
  if (ranks.is_array() && ranks.size() > 1 && pts.size() % ranks.size() == 0 && pts[0].is_object() &&
      !pts[0].contains("ranks")) {
    const std::size_t per = pts.size() / ranks.size();
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      Json part = res;
      part["ranks"] = ranks[i];
      part["points"] = Json(std::vector<Json>(pts.begin() + static_cast<std::ptrdiff_t>(i * per),
                                              pts.begin() + static_cast<std::ptrdiff_t>((i + 1) * per)));
      out += fmt::format("# {} ranks\n", ranks[i].dump()) + run_notes(part, shared) + d->table(part);
    }
    return out;
  }
  return out + d->table(res);
}

}  // namespace ompisim
