// `ompisim describe NAME`: every parameter of a machine or of a component (unit, value, source), the keys of a
// benchmark's "benchmark" block, the algorithms of a collective (or one algorithm), the presets of a stack, a topology
// kind, an engine, a NIC kind, or a paper's figures (a name of several kinds: the first, then the others named); `describe FILE.json`: a machine file, a scenario (with its figure, result, validation rows and estimate) or
// a sweep grid (with its largest point's estimate).
#include "benchmarks/benchmarks.hpp"
#include "benchmarks/driver.hpp"
#include "collectives/registry.hpp"
#include "core/error_text.hpp"
#include "core/errors.hpp"
#include "core/params.hpp"
#include "platform/data_path.hpp"
#include "platform/machine.hpp"
#include "platform/topology/route_policy_registry.hpp"
#include "platform/topology/topology_registry.hpp"
#include "protocols/register.hpp"
#include "core/json_input.hpp"
#include "runner/estimate.hpp"
#include "runner/registries.hpp"
#include "runner/run.hpp"
#include "runner/scenario.hpp"
#include "runner/stacks.hpp"
#include "runner/sweep.hpp"
#include "tools/ompisim/commands.hpp"
#include "validation/discovery.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <functional>

namespace ompisim::cli {
namespace {

// `describe BENCHMARK`: the driver's description and every key of its block (type, default, meaning, choices).
std::string describe_benchmark(const bench::DriverInfo& d) {
  std::string out = fmt::format("# benchmark {} ({}): {}\n", d.name, d.family, d.description);
  out += "## keys of the scenario's \"benchmark\" block (besides \"name\"; any other key is refused)\n";
  for (auto& p : d.params) {
    out += fmt::format("{:<18} {}  (default: {})\n    {}\n", p.name, p.type, p.default_value, p.description);
    if (p.choices) out += fmt::format("    one of: {}\n", fmt::join(p.choices(), ", "));
  }
  if (d.params.empty()) out += "  (no keys)\n";
  return out;
}

// `describe NAME`: a component given as "framework/name", or by a name only one framework uses (InputError when
// several do: "portals" is btl/portals and mtl/portals); nullptr when no component has it.
const ComponentInfo* find_component(const std::string& name) {
  const auto& reg = component_registry();
  if (auto slash = name.find('/'); slash != std::string::npos)
    return reg.find(name.substr(0, slash), name.substr(slash + 1));
  std::vector<const ComponentInfo*> hits;
  for (auto& e : reg.all())
    if (e.name == name) hits.push_back(&e);
  if (hits.size() > 1) {
    std::vector<std::string> ids;
    for (auto* h : hits) ids.push_back(h->id());
    throw InputError::of_argument("describe", name, fmt::format("several components have this name: say which of {}", fmt::join(ids, ", ")));
  }
  return hits.empty() ? nullptr : hits.front();
}

// A parameter resolved per job (ComponentInfo::effective): its rule, then its value from each job size on where it
// changes (probed at powers of two up to 2^20 ranks; a change is placed at its first job size by bisection, so a rule
// that changes at 1,025 ranks says so).
std::string describe_effective(const EffectiveParam& e, const McaParams& mca) {
  std::string out = fmt::format("{:<40} {}\n   ", e.name + " (effective)", e.rule);
  double last = -1;
  long long prev = 0;
  for (long long n = 1; n <= (1LL << 20); prev = n, n *= 2) {
    const double v = e.value(mca, n);
    if (v == last) continue;
    long long lo = prev, hi = n;  // value(lo) == last, value(hi) == v: the first size with v is in (lo, hi]
    while (prev > 0 && hi - lo > 1) {
      const long long mid = lo + (hi - lo) / 2;
      (e.value(mca, mid) == v ? hi : lo) = mid;
    }
    out += fmt::format("{} from {} rank{}: {}", n == 1 ? "" : ";", hi, hi == 1 ? "" : "s", v);
    last = v;
  }
  return out + "\n";
}

// A component's declared statistics (ComponentInfo::statistics), one a line: name, [unit], description, each line
// after `indent`.
std::string statistic_lines(const ComponentInfo& c, const char* indent) {
  std::string out;
  for (auto& s : c.statistics)
    out += fmt::format("{}{:<40} [{}] {}{}\n", indent, s.name, s.unit, s.description,
                       s.when_counted ? " (once counted)" : "");
  return out;
}

void describe_component(const ComponentInfo* c) {
  std::cout << fmt::format("# {}: {}\n# source: {}\n# runs on NIC kinds: {}\n", c->id(), c->description,
                           c->source, fmt::join(c->nic_kinds, ", "));
  if (c->make_btl)
    std::cout << fmt::format("# reaches: {} peers; MCA_BTL_FLAGS 0x{:x}\n", to_string(c->reach), c->btl_flags);
  std::cout << "## MCA parameters (name, default, description, source of the default)\n";
  auto rows = c->describe_params();
  if (rows.empty()) std::cout << "  (no parameters)\n";
  for (auto& row : rows)  // the kind of value: its dimension, or the names it takes
    std::cout << fmt::format("{:<40} {:>16}  [{}] {}\n    {}\n", row["name"].get<std::string>(),
                             row["value"].get<std::string>(),
                             row.contains("choices") ? fmt::format("one of {}", fmt::join(row["choices"].get<std::vector<std::string>>(), ", "))
                                                     : row["dimension"].get<std::string>(),
                             row["description"].get<std::string>(), row["source"].get<std::string>());
  if (!c->reads.empty())
    std::cout << fmt::format("## also reads the MCA parameters of {} (ompisim describe {})\n", fmt::join(c->reads, ", "),
                             c->reads.front());
  if (!c->statistics.empty())
    std::cout << "## statistics (a run's \"counters\": name, unit, description; \"once counted\": absent while zero)\n"
              << statistic_lines(*c, "");
  if (!c->effective.empty()) {
    std::cout << "## effective values (resolved per job; recorded in a run's provenance.derived)\n";
    McaParams mca = component_registry().defaults();
    for (auto& e : c->effective) std::cout << describe_effective(e, mca);
  }
  std::cout << "## presets using it\n";
  for (const StackInfo* s : presets_with(*c))
    std::cout << "  " << s->name << " [" << s->nic_kind << "] " << s->spec.to_json().dump() << "\n";
}

void print_params(const ParamList& l) {
  for (auto& row : describe(l))
    std::cout << fmt::format("{:<40} {:>16}  {}{}\n    {}\n", row["name"].get<std::string>(),
                             row["value"].get<std::string>(), row["fitted"].get<bool>() ? "[fitted] " : "",
                             row["description"].get<std::string>(), row["source"].get<std::string>());
}

// A preset's collective library (StackInfo::collectives), as describe prints it.
std::string collectives_line(const StackInfo& s) {
  if (s.collectives.name.empty())
    return "collectives: no decision of this version transcribed (each benchmark's own default)\n";
  return fmt::format("collectives {} (the default of osu collectives, replay and app_skeleton where they offer it; "
                     "{})\n", s.collectives.name, s.collectives.source);
}

// The machine's networks, node types and physical parameters, the components that run on it with their software
// parameters and declared statistics (indented, so that no statistic reads as a parameter name), and the stacks,
// algorithms and skeletons it offers.
void describe_machine(Machine& m) {
  std::cout << fmt::format("# {} ({}), NIC kinds {}: {}\n", m.name, m.file, fmt::join(m.nic_kinds(), ", "),
                           m.description);
  for (auto& n : m.networks())
    std::cout << fmt::format("# network {}: NIC kind {}, {} port(s) per node, topology {}; {} node slots, {} filled, "
                             "{} routers, {} links (one per direction)\n",
                             n.name, n.nic_kind(), n.ports_per_node, n.topology_json.dump(),
                             n.topology->node_slots(), n.topology->compute_nodes(), n.topology->routers(),
                             n.topology->link_count());
  for (auto& t : m.node_types()) std::cout << fmt::format("# node type {}: {} cores\n", t.name, t.type.cores());
  std::cout << fmt::format("# {} compute nodes\n", m.nodes);
  std::cout << "## physical parameters\n";
  print_params(m.physical_params());
  std::cout << "## components on this machine, with their software (MCA / Cray MPT) parameters\n";
  McaParams mca = machine_mca(m);
  for (auto& c : component_registry().all()) {
    const auto kinds = m.nic_kinds();
    if (std::none_of(kinds.begin(), kinds.end(), [&](const std::string& k) { return c.runs_on(k); })) continue;
    std::cout << fmt::format("### {}  {}\n", c.id(), c.description);
    ParamList l = c.param_list(mca);
    if (l.empty()) std::cout << "  (no parameters)\n";
    else print_params(l);
    for (auto& e : c.effective) std::cout << describe_effective(e, mca);
    if (!c.statistics.empty()) std::cout << "  statistics (a run's \"counters\"):\n" << statistic_lines(c, "    ");
  }
  std::cout << "## barrier algorithms\n";
  for (auto& a : bench::barrier_algorithm_names()) std::cout << "  " << a << "\n";
  std::cout << "## stacks on this machine\n";
  for (auto& s : stack_registry().all())
    if (m.has_nic_kind(s.nic_kind)) {
      std::cout << "  " << s.name << " " << s.spec.to_json().dump() << "  " << s.description << "\n";
      if (!s.version.empty()) std::cout << "    models " << s.version << "\n";
      std::cout << "    " << collectives_line(s);
      for (auto it = s.mca.begin(); it != s.mca.end(); ++it)
        std::cout << "    mca " << it.key() << " = " << it.value()["value"].dump() << "  ("
                  << it.value()["source"].get<std::string>() << ")\n";
    }
  std::cout << "## application skeletons (app_skeleton; seastar-portals paper Table 1)\n";
  for (auto& a : bench::app_names()) std::cout << "  " << a << "\n";
}

// `describe COLLECTIVE` (allreduce, bcast, ...): its algorithms, each with what it mirrors; "" when `name` is none.
std::string describe_collective(const std::string& name) {
  std::string out;
  for (auto& a : coll::default_registry().all())
    if (a.coll == name)
      out += fmt::format("{:<28} {}{}{}\n    mirrors {}\n", a.algo, a.description, a.uses_amo ? " [network atomics]" : "",
                         a.composition ? " [a library's decision table only]" : "", a.mirrors);
  return out.empty() ? out : fmt::format("# collective {}: its algorithms (a scenario's benchmark \"algorithm\")\n", name) + out;
}

// `describe STACK` (openmpi, native, ...): every preset of that name, one per NIC kind.
std::string describe_stack(const std::string& name) {
  std::string out;
  for (auto& s : stack_registry().all()) {
    if (s.name != name) continue;
    out += fmt::format("## on NIC kind {}: {}\n  components {}\n", s.nic_kind, s.description, s.spec.to_json().dump());
    if (!s.version.empty()) out += fmt::format("  models {}\n", s.version);
    out += "  " + collectives_line(s);
    for (auto it = s.mca.begin(); it != s.mca.end(); ++it)
      out += fmt::format("  mca {} = {}  ({})\n", it.key(), it.value()["value"].dump(),
                         it.value()["source"].get<std::string>());
  }
  return out.empty() ? out : fmt::format("# stack {} (a scenario's \"stack\"; ompisim describe COMPONENT for parameters)\n", name) + out;
}

// `describe TOPOLOGY` (torus, fat_tree, ...): its description and source, and the machines that use it.
std::string describe_topology(const std::string& name) {
  const topology::TopologyInfo* t = topology::topologies().find(name);
  if (!t) return "";
  std::string out = fmt::format("# topology {} (a machine file's networks.<name>.topology.kind): {}\n# source: {}\n",
                                t->name, t->description, t->source);
  out += "## route policies (its machines' topology.routing, or a scenario's \"routing\")\n";
  for (const std::string& r : topology::route_policies().names_for(name))
    out += fmt::format("  {}: {}\n", r, topology::route_policies().find(r)->description);
  out += "## machines using it\n";
  for (auto& [n, f] : list_machines()) {
    try {
      auto m = load_machine(n);
      for (auto& net : m->networks())
        if (net.topology_json.value("kind", "") == name) out += fmt::format("  {} (network {})\n", n, net.name);
    } catch (const InputError&) {
    }
  }
  return out;
}

// `describe POLICY` (minimal, valiant, ugal, ...): its description, topologies and source.
std::string describe_route_policy(const std::string& name) {
  const topology::RoutePolicyInfo* r = topology::route_policies().find(name);
  if (!r) return "";
  return fmt::format("# route policy {} (a machine file's networks.<name>.topology.routing, or a scenario's "
                     "\"routing\"): {}\n# topologies: {}\n# source: {}\n",
                     r->name, r->description, r->kinds.empty() ? std::string("every topology")
                                                                : fmt::format("{}", fmt::join(r->kinds, ", ")),
                     r->source);
}

namespace fs = std::filesystem;

// Whether `j` names scenario `rel` ("scenario": rel) at any depth: a reference entry that reads that scenario.
bool mentions(const Json& j, const std::string& rel) {
  if (j.is_object())
    if (auto it = j.find("scenario"); it != j.end() && it->is_string() && it->get<std::string>() == rel) return true;
  if (j.is_object() || j.is_array())
    for (const Json& v : j)
      if (mentions(v, rel)) return true;
  return false;
}

// The rows of a reference file that read the scenarios `rels`, by kind: points by their role ("calibration",
// "prediction"), "held out" values, "claims", and any other list's entries under the list's name ("table1"); each
// row by its id, once.
using Rows = std::map<std::string, std::set<std::string>>;
void add_reference_rows(const Json& doc, const std::vector<std::string>& rels, Rows& rows) {
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    if (!it.value().is_array()) continue;
    const std::string& list = it.key();
    for (const Json& e : it.value()) {
      if (!e.is_object() || std::none_of(rels.begin(), rels.end(), [&](auto& r) { return mentions(e, r); })) continue;
      const std::string kind = list == "points" ? e.value("role", "point") : list == "held_out" ? "held out" : list;
      rows[kind].insert(e.contains("id") && e["id"].is_string() ? e["id"].get<std::string>() : "(no id)");
    }
  }
}

using validation::ScenarioEntry;
using validation::scenario_entries;

// "calibration: a, b; held out: c" (every kind, its ids in order), or `none` when there are none.
std::string rows_text(const Rows& rows, const std::string& none) {
  std::vector<std::string> parts;
  for (auto& [kind, ids] : rows) parts.push_back(fmt::format("{}: {}", kind, fmt::join(ids, ", ")));
  return parts.empty() ? none : fmt::format("{}", fmt::join(parts, "; "));
}
// "3 calibration points, 1 claim": a kind's label in the singular or the plural (a list's name with its
// underscores as spaces, an unknown list's name as it is).
std::string count_rows(std::size_t n, const std::string& kind) {
  static const std::map<std::string, std::pair<std::string, std::string>> labels = {
      {"calibration", {"calibration point", "calibration points"}},
      {"prediction", {"prediction", "predictions"}},
      {"point", {"point", "points"}},
      {"held out", {"held-out value", "held-out values"}},
      {"claims", {"claim", "claims"}},
      {"unchecked_claims", {"unchecked claim", "unchecked claims"}},
      {"mechanism_checks", {"mechanism check", "mechanism checks"}},
      {"fit_gaps", {"calibration comparison", "calibration comparisons"}},
      {"applications", {"application row", "application rows"}},
      {"table1", {"Table 1 row", "Table 1 rows"}},
  };
  const auto it = labels.find(kind);
  if (it == labels.end()) return fmt::format("{} {}", n, kind);
  return fmt::format("{} {}", n, n == 1 ? it->second.first : it->second.second);
}
std::string rows_counts(const Rows& rows) {
  std::vector<std::string> parts;
  for (auto& [kind, ids] : rows) parts.push_back(count_rows(ids.size(), kind));
  return parts.empty() ? "no validation rows" : fmt::format("{}", fmt::join(parts, ", "));
}

// A path of the data folder (the committed results) when it exists: absolute, so that it opens from any folder.
std::string committed(const std::string& rel) {
  const fs::path p = fs::path(data_dir()) / rel;
  return fs::exists(p) ? p.lexically_normal().string() : std::string();
}

// `describe SCENARIO` for a committed scenario: the paper and figure it belongs to with the figure's other
// scenarios, its committed result and the figure's plot, and the validation rows that read it.
void describe_scenario_links(const ScenarioEntry& me, const std::vector<ScenarioEntry>& all) {
  std::vector<std::string> with;
  for (auto& e : all)
    if (e.key == me.key && e.rel != me.rel) with.push_back(e.rel);
  const std::string sub = fs::path(me.rel).parent_path().filename().string();
  if (!me.paper.empty())
    std::cout << fmt::format("paper {} (ompisim describe {}), figure {}{}\n", me.paper, me.paper,
                             me.figure.empty() ? "(none)" : me.figure,
                             with.empty() ? "" : fmt::format(", with {}", fmt::join(with, ", ")));
  if (const std::string r = committed("results/" + sub + "/" + me.id + ".json"); !r.empty())
    std::cout << "committed result " << r
              << (committed("results/" + sub + "/" + me.id + ".csv").empty() ? "" : " and its .csv") << "\n";
  if (const std::string plot = committed("results/" + me.key + ".svg"); !plot.empty())
    std::cout << "the figure's plot " << plot << " (drawn by ompisim reproduce)\n";
  if (me.paper.empty()) return;
  Rows rows;
  for (auto& f : validation::reference_files(me.paper)) add_reference_rows(load_json_file(f), {me.rel}, rows);
  std::cout << fmt::format("validation rows (ompisim validate --paper {}): {}\n", me.paper,
                           rows_text(rows, "none read this scenario"));
}

// The papers with reference data (the stems of validation/reference/*.json): the names describe takes for a paper.
std::vector<std::string> paper_names() {
  std::vector<std::string> out;
  for (auto& f : validation::reference_files("")) out.push_back(fs::path(f).stem().string());
  return out;
}

// Figure keys in reading order: runs of digits compare as numbers ("slingshot/fig4_h2h" before "slingshot/fig10_h2h").
struct NaturalLess {
  bool operator()(const std::string& a, const std::string& b) const {
    std::size_t i = 0, j = 0;
    auto digit = [](char c) { return c >= '0' && c <= '9'; };
    while (i < a.size() && j < b.size()) {
      if (digit(a[i]) && digit(b[j])) {
        std::size_t ei = i, ej = j;
        while (ei < a.size() && digit(a[ei])) ++ei;
        while (ej < b.size() && digit(b[ej])) ++ej;
        const std::string na = a.substr(i, ei - i), nb = b.substr(j, ej - j);
        if (na.size() != nb.size()) return na.size() < nb.size();
        if (na != nb) return na < nb;
        i = ei, j = ej;
      } else {
        if (a[i] != b[j]) return a[i] < b[j];
        ++i, ++j;
      }
    }
    return a.size() - i < b.size() - j;
  }
};

// `describe PAPER`: its title and reference file, then per figure (as reproduce plots it) the committed plot, the
// scenario files and the counts of validation rows that read them; the paper's scenarios without a figure after.
void describe_paper(const std::string& paper) {
  const std::string ref = validation::reference_files(paper).front();
  const Json doc = load_json_file(ref);
  std::cout << fmt::format("# paper {}: {}\n# reference data {} (ompisim validate --paper {}: the table of these "
                           "rows; --samples 0 leaves out the prediction intervals)\n",
                           paper, doc.value("title", ""), repo_relative(ref), paper);
  std::map<std::string, std::vector<const ScenarioEntry*>, NaturalLess> figures;
  const std::vector<ScenarioEntry> mine = validation::paper_scenarios(paper);  // what reproduce --paper runs
  for (auto& e : mine) figures[e.key].push_back(&e);
  std::cout << "## figures: the committed plot (ompisim reproduce), its scenarios (ompisim run; ompisim describe "
               "FILE: each one's result and rows), the validation rows that read them\n";
  for (auto& [key, entries] : figures) {
    std::vector<std::string> rels;
    for (auto* e : entries) rels.push_back(e->rel);
    Rows rows;
    add_reference_rows(doc, rels, rows);
    const std::string plot = committed("results/" + key + ".svg");
    const ScenarioEntry& first = *entries.front();
    std::cout << fmt::format("{}: {} scenario{}, {}; plot {}\n", first.figure.empty() ? first.id : first.figure,
                             entries.size(), entries.size() == 1 ? "" : "s", rows_counts(rows),
                             plot.empty() ? "(none in this data folder)" : plot);
    for (auto& r : rels) std::cout << "  " << r << "\n";
  }
}

// A sweep grid: its base, each axis with its values in grid order, and how many points `ompisim sweep` runs.
void describe_grid(const std::string& given, const std::string& machine_file) {
  const SweepGrid g = load_sweep_grid(given, {}, "", machine_file);
  auto point = [&](std::size_t i) {  // as `sweep --machine-file` runs it
    Scenario s = scenario_from_json(g.points[i].scenario, g.base_file);
    s.machine_file = machine_file;
    return s;
  };
  std::cout << fmt::format("# sweep grid {}: {} point{} (ompisim sweep {}{})\n", g.file, g.points.size(),
                           g.points.size() == 1 ? "" : "s", given,
                           machine_file.empty() ? "" : " --machine-file " + machine_file);
  std::cout << fmt::format("base {}{}\n", g.base_file,
                           g.base_file == g.file ? " (inline)" : fmt::format(" (ompisim describe {})", g.base_file));
  for (auto& a : g.axes) {
    std::vector<std::string> vals;
    for (auto& p : g.points) {
      if (!p.values.contains(a)) continue;
      const std::string v = p.values[a].is_string() ? p.values[a].get<std::string>() : p.values[a].dump();
      if (std::find(vals.begin(), vals.end(), v) == vals.end()) vals.push_back(v);
    }
    std::cout << fmt::format("axis {}: {}\n", a, fmt::join(vals, ", "));
  }
  double total = 0, largest = -1;
  std::size_t at = 0;
  for (std::size_t i = 0; i < g.points.size(); ++i) {
    const double e = estimate_events(point(i));
    total += e;
    if (e > largest) largest = e, at = i;
  }
  if (g.points.empty()) return;
  if (g.points.size() == 1) {
    std::cout << fmt::format("estimate: {}\n", estimate_text(point(0), largest));
    return;
  }
  std::cout << fmt::format("estimate: about {:.2g} messages over the {} points, each in its own process; the largest, "
                           "point {}: {}\n", total, g.points.size(), at + 1,
                           estimate_text(point(at), largest));
}

// `describe FILE.json`: a machine file (one of one's own, e.g. from `machine template`) as a machine, a scenario (a
// path `list` prints) as what it runs and says it shows.
void describe_file(const std::string& given, const std::string& machine_file) {
  refuse_missing_input(given);
  const std::string file = data_path(given);
  const Json j = load_json_file(file);
  // A machine file: its networks, or a machine that extends another ("base" and "machine", no benchmark).
  const bool machine = j.is_object() && (j.contains("networks") || (j.contains("base") && j.contains("machine") &&
                                                                     !j.contains("benchmark")));
  if (machine) {
    if (!machine_file.empty())
      throw InputError("--machine-file", machine_file, fmt::format("{} is a machine file itself: --machine-file goes "
                                                                   "with a scenario or a sweep grid", given));
    describe_machine(*load_machine(file));
    return;
  }
  if (j.is_object() && j.contains("base") && !j.contains("benchmark")) {
    describe_grid(given, machine_file);
    return;
  }
  if (!j.is_object() || !j.contains("benchmark"))
    throw InputError(file, "", "neither a machine file (it has \"networks\"), a scenario (it has \"benchmark\") nor a "
                               "sweep grid (it has \"base\")");
  Scenario s = load_scenario(file);
  s.machine_file = machine_file;  // as `run --machine-file` runs it
  check_run_input(s, {});  // a scenario its run would refuse (ranks that do not fit, ...) is not described
  use_machine_collectives(s);
  std::string ranks = fmt::format("{}", fmt::join(s.ranks, ", "));
  std::cout << fmt::format("# scenario {} ({})\n", s.id, file);
  if (!s.description.empty()) std::cout << printable(s.description) << "\n";
  if (!s.expected.empty()) std::cout << "expected: " << printable(s.expected) << "\n";
  // the machine the run would use: the scenario's, or the --machine-file given (the scenario's text may describe the
  // machine it names)
  const std::string machine_words = machine_file.empty()
                                  ? fmt::format("machine {} (ompisim describe {})", s.machine, s.machine)
                                  : fmt::format("machine from {} (--machine-file; the scenario names {}; ompisim "
                                                "describe {})", machine_file, s.machine, machine_file);
  std::cout << fmt::format("{}, stack {}, benchmark {} (ompisim describe {}), ranks {}, {} per node\n", machine_words,
                           s.stack, s.benchmark, s.benchmark, ranks, s.ranks_per_node);
  if (!s.mca.empty()) std::cout << "mca " << s.mca.dump() << "\n";
  if (const CollLibrary lib = machine_collectives(s); !lib.name.empty())
    std::cout << fmt::format("the stack's collective library: {} (a benchmark block that names no collective algorithm "
                             "or library uses it where the benchmark offers it; {})\n", lib.name, lib.source);
  if (const std::string note = s.driver->collectives_note(); !note.empty()) std::cout << note << "\n";
  const std::vector<ScenarioEntry> all = scenario_entries();
  const std::string rel = validation::committed_scenario(file);
  for (auto& e : all)
    if (e.rel == rel) describe_scenario_links(e, all);
  const double events = estimate_events(s);
  std::cout << "estimate: " << estimate_text(s, events) << "\n";
  if (const std::string caveat = estimate_caveat(s); !caveat.empty()) std::cout << "    " << caveat << "\n";
  if (const std::string hint = engine_hint(s, events); !hint.empty()) std::cout << "    " << hint << "\n";
}

struct DescribeOptions {
  std::string name;
  std::string machine_file;  // a scenario's or grid's machine, as run and sweep --machine-file take it
  std::vector<std::string> more;  // words after NAME: `describe paper qsnet-elan4` is read as paper/qsnet-elan4
  bool names = false;
};

// `describe ENGINE` (fluid, lmm, ...): what it computes, whether flows share bandwidth, and whether it is the default.
std::string describe_engine(const std::string& name) {
  const EngineInfo* e = engines().find(name);
  if (!e) return "";
  return fmt::format("# engine {} (a scenario's \"engine\", or run --engine {}){}: {}\n  flows share the resources they "
                     "cross (another job's traffic can congest them): {}\n  solve window (\"engine_window\"): {}\n"
                     "  completion grid (\"engine_grid\"): {}\n",
                     e->name, e->name, e->name == Scenario{}.engine ? ", the default" : "", e->description,
                     e->shares_bandwidth ? "yes" : "no", e->set_window ? "taken (approximate, off by default)" : "not taken",
                     e->set_grid ? fmt::format("taken ({} ns by default: each flow's callback at its end rounded up to "
                                               "the grid, one grid date's in start order)",
                                               kDefaultEngineGrid * 1e9)
                                 : std::string("not taken"));
}

// `describe NIC_KIND` (gemini, cxi, ...): its description and source, the machines with a network of that kind, the
// components that run on it and its stack presets.
std::string describe_nic_kind(const std::string& name) {
  const NicKindInfo* k = nic_kinds().find(name);
  if (!k) return "";
  std::string out = fmt::format("# NIC kind {} (a machine file's networks.<name>.nic.kind): {}\n# source: {}\n", k->name,
                                k->description, k->source.empty() ? "(none given)" : k->source);
  out += "## machines with it\n";
  for (auto& [n, f] : list_machines()) {
    try {
      if (load_machine(n)->has_nic_kind(name)) out += "  " + n + "\n";
    } catch (const InputError&) {
    }
  }
  out += "## components that run on it (ompisim describe FRAMEWORK/NAME)\n";
  for (auto& c : component_registry().all())
    if (!c.nic_kinds.empty() && c.runs_on(name)) out += fmt::format("  {:<22} {}\n", c.id(), c.description);
  out += "## stack presets on it (ompisim describe STACK)\n";
  for (auto& s : stack_registry().all())
    if (s.nic_kind == name) out += fmt::format("  {:<14} {}\n", s.name, s.spec.to_json().dump());
  return out;
}

// `describe ALGORITHM` (pairwise, or alltoall/pairwise): each collective's algorithm of that name, what it does and
// what it mirrors; "" when none has it.
std::string describe_algorithm(const std::string& name) {
  std::string coll, algo = name;
  if (auto slash = name.find('/'); slash != std::string::npos) coll = name.substr(0, slash), algo = name.substr(slash + 1);
  std::string out;
  for (auto& a : coll::default_registry().all())
    if (a.algo == algo && (coll.empty() || a.coll == coll))
      out += fmt::format("# algorithm {}/{} (a scenario's benchmark \"algorithm\" for {}): {}{}{}\n    mirrors {}\n",
                         a.coll, a.algo, a.coll, a.description, a.uses_amo ? " [network atomics]" : "",
                         a.composition ? " [a library's decision table only]" : "", a.mirrors);
  return out;
}

// The kinds of name describe takes, in the order a bare name is looked up: the first kind that has it is printed, and
// the others that have it are named at the end with the prefix that picks them (KIND/NAME).
struct Kind {
  const char* prefix;   // "nic-kind": `describe nic-kind/cxi`
  const char* label;    // "the NIC kind"
  const char* article;  // "a NIC kind" (an unknown name's error)
  std::function<std::string(const std::string&)> text;  // "" when the name is not of this kind
  std::function<std::vector<std::string>()> names;      // every name of this kind, once, in registry order
};
// The names of a registry's entries, each once, in order.
template <class R, class F>
std::vector<std::string> unique_names(const R& entries, F name) {
  std::vector<std::string> out;
  for (auto& e : entries)
    if (std::string n = name(e); std::find(out.begin(), out.end(), n) == out.end()) out.push_back(std::move(n));
  return out;
}
std::string capture(const std::function<void()>& print) {
  std::ostringstream os;
  auto* old = std::cout.rdbuf(os.rdbuf());
  try {
    print();
  } catch (...) {
    std::cout.rdbuf(old);
    throw;
  }
  std::cout.rdbuf(old);
  return os.str();
}
bool is_machine(const std::string& name) {
  const auto machines = list_machines();
  return std::any_of(machines.begin(), machines.end(), [&](const auto& m) { return m.first == name; });
}
// A bare name is looked up in this order (no benchmark, collective or paper shares a name with a machine or a
// component; "loggp" is a machine, a component, a stack and a NIC kind: the machine first).
const std::vector<Kind>& kinds() {
  static const std::vector<Kind> k = {
      {"machine", "the machine", "a machine",
       [](const std::string& n) {
         return is_machine(n) ? capture([&] { describe_machine(*load_machine(n)); }) : std::string();
       },
       [] { return unique_names(list_machines(), [](auto& m) { return m.first; }); }},
      {"component", "the component", "a component",
       [](const std::string& n) {
         const ComponentInfo* c = find_component(n);
         return c ? capture([&] { describe_component(c); }) : std::string();
       },
       [] { return unique_names(component_registry().all(), [](auto& c) { return c.id(); }); }},
      {"benchmark", "the benchmark", "a benchmark",
       [](const std::string& n) {
         const bench::DriverInfo* d = bench::driver_registry().find(n);
         return d ? describe_benchmark(*d) : std::string();
       },
       [] { return bench::driver_registry().names(); }},
      {"collective", "the collective", "a collective", describe_collective,
       [] { return unique_names(coll::default_registry().all(), [](auto& a) { return a.coll; }); }},
      {"stack", "the stack", "a stack", describe_stack,
       [] { return unique_names(stack_registry().all(), [](auto& st) { return st.name; }); }},
      {"topology", "the topology", "a topology", describe_topology, [] { return topology::topologies().names(); }},
      {"route-policy", "the route policy", "a route policy", describe_route_policy,
       [] { return topology::route_policies().names(); }},
      {"paper", "the paper", "a paper",
       [](const std::string& n) {
         const auto papers = paper_names();
         return std::find(papers.begin(), papers.end(), n) != papers.end() ? capture([&] { describe_paper(n); })
                                                                           : std::string();
       },
       [] { return paper_names(); }},
      {"engine", "the engine", "an engine", describe_engine, [] { return engines().names(); }},
      {"nic-kind", "the NIC kind", "a NIC kind", describe_nic_kind, [] { return nic_kinds().names(); }},
      {"algorithm", "the collective algorithm", "a collective algorithm", describe_algorithm,
       [] { return unique_names(coll::default_registry().all(), [](auto& a) { return a.coll + "/" + a.algo; }); }},
  };
  return k;
}

// A framework's name (pml, btl, ..., coll): its components (coll: the collectives), as `ompisim list` prints them,
// each described as FRAMEWORK/NAME.
bool describe_framework(const std::string& bare) {
  if (bare == "coll") {  // Open MPI's framework of collectives: here the collectives/ registry
    std::cout << "# framework coll: the collectives and their algorithms (ompisim describe COLLECTIVE, or "
                 "COLLECTIVE/ALGORITHM)\n";
    for (auto& [c, algos] : collectives_with_algorithms()) std::cout << fmt::format("{:<14} {}\n", c, fmt::join(algos, ", "));
    return true;
  }
  const auto fws = component_registry().frameworks();
  if (std::find(fws.begin(), fws.end(), bare) == fws.end()) return false;
  std::cout << fmt::format("# framework {}: its components and the NIC kinds each drives (ompisim describe {}/NAME: "
                           "its MCA parameters)\n", bare, bare);
  for (auto& c : component_registry().all())
    if (c.framework == bare)
      std::cout << component_row(c) << "\n";
  return true;
}

// The benchmark keys that take `value` as one of their choices ("tuned": barrier_loop.algorithm, ...).
std::vector<std::string> keys_taking(const std::string& value) {
  std::vector<std::string> keys;
  for (auto& b : bench::driver_registry().all())
    for (auto& p : b.params)
      if (p.choices)
        if (const auto ch = p.choices(); std::find(ch.begin(), ch.end(), value) != ch.end())
          keys.push_back(b.name + "." + p.name);
  return keys;
}

// A part of a parameter's name ("smsg", "eager"): the MCA and machine parameters and the names of every kind that
// contain it (the letters' case aside), as many as one line holds, each parameter with where it is described; "" when
// no parameter does or the part is under 3 letters (a spelling mistake, or a part of a kind's name only, is
// did_you_mean's). `names` are describe's names; `machine_params` every machine parameter's name, once each.
std::string names_containing(const std::string& part, const std::vector<std::string>& names,
                             const std::vector<std::string>& machine_params) {
  if (part.size() < 3) return "";
  auto lower = [](std::string v) {
    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
    return v;
  };
  const std::string p = lower(part);
  auto contains = [&](const std::string& v) { return lower(v).find(p) != std::string::npos; };
  std::vector<std::string> found;
  for (const std::string& n : names)  // "btl/ugni" and "ugni" are one component: the first stands for both
    if (contains(n) && std::none_of(found.begin(), found.end(), [&](const std::string& f) {
          return f == n || f.ends_with("/" + n);
        }))
      found.push_back(n);
  const std::size_t kinds_found = found.size();
  for (const ComponentInfo& c : component_registry().all())
    for (const std::string& n : c.param_names())
      if (contains(n)) found.push_back(fmt::format("{} ({})", n, c.id()));
  for (const std::string& n : machine_params)
    if (contains(n)) found.push_back(fmt::format("{} (machine)", n));
  if (found.size() == kinds_found) return "";  // no parameter: did_you_mean names the kinds' ("hetero": hetero-cpu)
  constexpr std::size_t kShown = 12;
  const std::size_t more = found.size() > kShown ? found.size() - kShown : 0;
  if (more) found.resize(kShown);
  return fmt::format("no name is '{}'; names containing it: {}{} (an MCA parameter with its component: `ompisim describe "
                     "COMPONENT` lists it; a machine parameter: `ompisim describe MACHINE`)",
                     part, fmt::join(found, ", "), more ? fmt::format(" and {} more", more) : "");
}

// A name describe does not know: one short error with the closest name of any kind and its kind, or, with none close,
// the kinds of name describe takes; `ompisim list` prints the names themselves.
[[noreturn]] void unknown_name(const std::string& name, const std::string& bare) {
  // an MCA parameter's name: its component lists it
  if (const ComponentInfo* o = mca_owner(name))
    throw InputError::of_argument("describe", name,
                     fmt::format("an MCA parameter of {}: `ompisim describe {}` lists it with its default and source",
                                 o->id(), o->id()));
  // a key of a scenario file ("map_by"), or a machine parameter as --set names it ("nic.bte_bandwidth", its last part)
  for (const ScenarioKey& k : scenario_keys())
    if (name == k.name)
      throw InputError::of_argument("describe", name,
                       fmt::format("a key of a scenario file ({}); `ompisim schema scenario` gives every key", k.description));
  // a value of a benchmark key ("tuned", an algorithm selector): the keys that take it
  if (const auto keys = keys_taking(name); !keys.empty())
    throw InputError::of_argument("describe", name,
                     fmt::format("a value of the benchmark key{} {}: `ompisim describe {}` lists {} with its values",
                                 keys.size() == 1 ? "" : "s", fmt::join(keys, ", "),
                                 keys.size() == 1 ? keys.front().substr(0, keys.front().find('.')) : "BENCHMARK",
                                 keys.size() == 1 ? "it" : "each"));
  std::vector<std::string> with, machine_params;  // the machines with it; every machine parameter's name, once each
  for (auto& [n, f] : list_machines()) {
    try {
      auto m = load_machine(n);
      bool has = false;
      for (auto& r : m->physical_params()) {
        has = has || r.info.name == name || r.info.name.ends_with("." + name);
        if (std::find(machine_params.begin(), machine_params.end(), r.info.name) == machine_params.end())
          machine_params.push_back(r.info.name);
      }
      if (has) with.push_back(n);
    } catch (const InputError&) {
    }
  }
  if (!with.empty())
    throw InputError::of_argument("describe", name,
                     fmt::format("a machine parameter: `ompisim describe MACHINE` lists it with its value and source "
                                 "(machines with it: {})",
                                 fmt::join(with, ", ")));
  std::vector<std::string> all, articles;
  for (auto& k : kinds()) {
    const auto names = k.names();
    all.insert(all.end(), names.begin(), names.end());
    articles.push_back(k.article);
  }
  for (auto& c : component_registry().all()) all.push_back(c.name);
  for (auto& a : coll::default_registry().all()) all.push_back(a.algo);
  if (const std::string found = names_containing(bare, all, machine_params); !found.empty())
    throw InputError::of_argument("describe", name, found);
  const std::string hint = did_you_mean(bare, all);
  if (hint.empty()) refuse_missing_input(name);  // a scenario or grid file named without its folder or .json
  const std::string last = articles.back();
  articles.pop_back();
  const std::string kinds_text = fmt::format("{} or {}", fmt::join(articles, ", "), last);
  if (!hint.empty()) {
    // the kind of the closest name, the first that has it, as a bare name is looked up
    std::string of;
    for (auto& k : kinds())
      if (!k.text(hint).empty()) {
        of = fmt::format(" ({})", k.article);
        break;
      }
    throw InputError::of_argument("describe", name,
                                  fmt::format("did you mean '{}'{}? It is not {}; `ompisim list` shows every name",
                                              hint, of, kinds_text));
  }
  throw InputError::of_argument("describe", name,
                                fmt::format("not {}; `ompisim list` shows every name (`ompisim list machines`, one "
                                            "kind); KIND/NAME picks one kind (nic-kind/cxi); a machine or scenario "
                                            "file ends in .json",
                                            kinds_text));
}

// `describe KIND NAME` (two words, as `ompisim list` prints a kind: "papers", "NIC kinds") is KIND/NAME; any other
// second word is refused with the spelling describe takes.
// A kind as `list` prints it, as a prefix: "papers" -> "paper", "nic-kinds" / "nic_kind" -> "nic-kind".
std::string kind_word(std::string w) {
  std::transform(w.begin(), w.end(), w.begin(), [](unsigned char c) { return c == '_' ? '-' : std::tolower(c); });
  if (w.ends_with("s") && w != "s") w.pop_back();
  return w;
}

std::string kind_and_name(const std::string& first, const std::vector<std::string>& more) {
  if (more.empty()) return first;
  const std::string kind = kind_word(first);
  const bool is_kind = std::any_of(kinds().begin(), kinds().end(), [&](const Kind& k) { return kind == k.prefix; });
  if (is_kind && more.size() == 1) return std::string(kind) + "/" + more[0];
  if (is_kind)
    throw InputError::of_argument("describe", fmt::format("{} {}", first, fmt::join(more, " ")),
                     fmt::format("one name at a time: `ompisim describe {}/{}`", kind, more[0]));
  throw InputError::of_argument("describe", fmt::format("{} {}", first, fmt::join(more, " ")),
                   fmt::format("describe takes one NAME; '{}' is not a kind of name (machine, component, paper, ...) "
                               "that a second word could follow: `ompisim describe {}` alone, or KIND/NAME",
                               first, first));
}

int describe_one(const DescribeOptions& opt);

// What describe prints, with every control character but the line breaks and tabs it writes escaped (\x1b, \r): the
// texts it shows from input files (a scenario's description, a machine file's sources) never reach the terminal as
// escape sequences. Printed once the description is complete; an error prints nothing of it.
int describe_command(const CLI::App&, const DescribeOptions& opt, Context&) {
  std::ostringstream text;
  std::streambuf* const was = std::cout.rdbuf(text.rdbuf());
  int rc = 0;
  try {
    rc = describe_one(opt);
  } catch (...) {
    std::cout.rdbuf(was);
    throw;
  }
  std::cout.rdbuf(was);
  const std::string out = text.str();
  std::string shown;
  shown.reserve(out.size());
  std::size_t from = 0;
  for (std::size_t i = 0; i <= out.size(); ++i)
    if (i == out.size() || out[i] == '\n' || out[i] == '\t') {
      shown += printable(std::string_view(out).substr(from, i - from));
      if (i < out.size()) shown += out[i];
      from = i + 1;
    }
  std::cout << shown << std::flush;
  return rc;
}

int describe_one(const DescribeOptions& opt) {
  // Checked here rather than with CLI11's excludes(), whose "Excludes: --names" lands inside the NAME's help text.
  if (opt.names && !opt.name.empty())
    throw InputError("--names", opt.name, "lists every name describe takes: give it without a NAME");
  if (opt.names) {
    for (auto& k : kinds())
      for (auto& v : k.names()) std::cout << v << "\n";
    for (auto& fw : component_registry().frameworks()) std::cout << fw << "\n";  // describe_framework
    std::cout << "coll\n";
    return 0;
  }
  if (opt.name.empty()) throw InputError("describe", "", "give a NAME (ompisim list), or --names to list every one");
  const std::string name = kind_and_name(opt.name, opt.more);
  if (!opt.machine_file.empty()) refuse_not_machine_file(opt.machine_file);
  if (name.ends_with(".json")) {
    describe_file(name, opt.machine_file);
    return 0;
  }
  if (!opt.machine_file.empty())
    throw InputError("--machine-file", opt.machine_file, fmt::format("goes with a scenario or sweep grid file "
                                                                     "(FILE.json), not with '{}'", name));
  // KIND/NAME picks one kind (nic-kind/cxi); a component's framework/name and a collective's COLL/ALGO are names.
  const Kind* only = nullptr;
  std::string bare = name;
  if (auto slash = name.find('/'); slash != std::string::npos)
    for (auto& k : kinds())
      if (kind_word(name.substr(0, slash)) == k.prefix)  // "machine/", or as `list` prints it: "machines/"
        only = &k, bare = name.substr(slash + 1);
  std::string first;
  std::vector<std::string> also;
  for (auto& k : kinds()) {
    if (only && &k != only) continue;
    std::string text = k.text(bare);
    if (text.empty()) continue;
    if (first.empty())
      first = std::move(text);
    else
      also.push_back(fmt::format("{} {} (ompisim describe {})", k.label, bare,
                                 std::string_view(k.prefix) == "component" ? find_component(bare)->id() : std::string(k.prefix) + "/" + bare));
  }
  if (first.empty() && !only && describe_framework(bare)) return 0;
  if (first.empty()) unknown_name(name, bare);
  std::cout << first;
  if (!also.empty()) std::cout << fmt::format("# '{}' also names {}\n", bare, fmt::join(also, "; "));
  return 0;
}

}  // namespace

void add_describe(CLI::App& app, Context& ctx) {
  auto [desc, opt] = ctx.command(app, "describe",
                                  "print every parameter of a machine or of a component (e.g. btl/ugni) with unit, "
                                  "value and source, the keys a benchmark's \"benchmark\" block accepts, the algorithms "
                                  "of a collective or one algorithm, the presets of a stack, a topology, an engine, a NIC kind (its machines, "
                                  "components and stacks), a paper's figures with their scenarios, plots and "
                                  "validation rows, what a scenario file runs (its figure, committed result, validation "
                                  "rows and estimated CPU time) or the points of a sweep grid",
                                  describe_command);
  desc->add_option("name", opt->name, "machine, component (framework/name, or a name only one framework "
                                                  "has), benchmark, collective, algorithm (COLLECTIVE/ALGORITHM or ALGORITHM), stack, topology, "
                                                  "paper, engine or NIC kind name (ompisim list; KIND/NAME picks one kind "
                                                  "where a name has several: nic-kind/cxi), or a machine, scenario or sweep grid "
                                                  "file (FILE.json)");
  desc->add_option("more", opt->more, "with a kind as NAME, the name of that kind: `describe paper qsnet-elan4` is "
                                     "`describe paper/qsnet-elan4`");
  desc->add_option("--machine-file", opt->machine_file,
                   "with a scenario or sweep grid file: describe it on this machine file, as run and sweep "
                   "--machine-file run it (a machine of one's own: `ompisim machine template NAME`)");
  desc->add_flag("--names", opt->names, "print every name describe takes, one per line (shell completion reads it); "
                                        "without a NAME");
}

}  // namespace ompisim::cli
