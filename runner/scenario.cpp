#include "runner/scenario.hpp"

#include "core/limits.hpp"
#include "core/safe_name.hpp"
#include "platform/data_path.hpp"
#include "platform/machine.hpp"
#include "runner/registries.hpp"
#include "runner/stacks.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fmt/format.h>

namespace ompisim {

const std::vector<ScenarioKey>& scenario_keys() {
  static const std::vector<ScenarioKey> keys = {
      // the rule check_safe_name applies (core/safe_name.cpp), so that an editor's schema check finds what run refuses
      {"id", R"({"type": "string", "pattern": "^[A-Za-z0-9_-][A-Za-z0-9._-]*$", "maxLength": 128})",
       "result file stem (default: the file name); letters, digits, '.', '_', '-', not first '.', at most 128 characters"},
      {"description", R"({"type": "string"})", "what the scenario runs"},
      {"expected", R"({"type": "string"})", "what the paper reports"},
      {"figure", R"({"type": "string"})", "the paper's figure or table (\"Fig. 2\"); results are plotted per figure"},
      {"paper", R"({"type": "string"})", "the paper (validation/reference/<paper>.json)"},
      {"plot", R"({"type": "string"})", "result field plotted by reproduce (default latency_us or bandwidth_GBps)"},
      {"relevant_code", R"({"type": "array", "items": {"type": "string"}})", "source files of the model it exercises"},
      {"machine", R"({"type": "string"})", "machine name (models/*/machines/<name>.json; ompisim list)", true},
      {"stack", R"({"type": ["string", "object"]})",
       "a stack preset name, or an object of components ({\"pml\": \"ob1\", \"btl\": [\"self\", \"ugni\"]})", true},
      {"engine", R"({"type": "string"})", "event engine (ompisim list)"},
      {"engine_window", R"({"type": "string"})",
       "solve window of the fluid engine (a time > 0, e.g. \"1 us\"): flow starts and ends are re-solved together at "
       "most once per window; approximate, off by default; what it delayed is in the result's provenance"},
      {"engine_grid", R"({"type": "string"})",
       "completion grid of the bandwidth-sharing engines (a time >= 0, e.g. \"1 ns\", the default; \"0 s\": each "
       "flow's callback at its own end date): callbacks are delivered at their flow's end rounded up to the grid, those "
       "of one grid date in start order, so that engines whose end dates differ in the last bits give the same run"},
      {"packet_trains", R"({"type": ["string", "integer"]})",
       "largest transfer timed as a packet train instead of a shared flow (a size, e.g. \"8 KiB\", or bytes; 0, the "
       "default: none): "
       "the train waits FIFO behind the packets reserved before it on each port and link of its route; approximate, "
       "off by default; how many transfers it timed is in the result's provenance"},
      {"ranks", R"({"type": ["integer", "array"], "minimum": 1, "maximum": 100000000, "items": {"type": "integer", "minimum": 1, "maximum": 100000000}, "minItems": 1})",
       "rank count, or a list (a sweep: each in its own process)", true},
      {"ranks_per_node", R"({"type": "integer", "minimum": 1})", "ranks per node (default 1)"},
      {"nodes", R"({"type": "array", "items": {"type": "integer", "minimum": 0}})", "machine node ids to use, in order"},
      {"map_by", R"({"type": "string"})", "mpirun --map-by (core, socket, numa, node, ...)"},
      {"bind_to", R"({"type": "string"})", "mpirun --bind-to (core, socket, numa, none)"},
      {"rank_by", R"({"type": "string"})", "mpirun --rank-by (slot, core, numa, socket, node)"},
      {"cpu_list", R"({"type": "array", "items": {"type": "integer", "minimum": 0}})", "cores of each node's local ranks"},
      {"gpu_list", R"({"type": "array", "items": {"type": "integer", "minimum": 0}})", "GPU of each node's local ranks"},
      {"routing", R"({"type": "string"})", "route policy of the run (minimal, valiant, ugal, ...)"},
      {"neighbour_job", R"({"type": "object", "properties": {"nodes": {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2}, "pattern": {"enum": ["pairs", "shift", "alltoall"]}, "shift": {"type": "integer", "minimum": 1}, "flows_per_pair": {"type": "integer", "minimum": 1, "maximum": 64}, "network": {"type": "string"}}, "required": ["nodes"], "additionalProperties": false})",
       "another job's traffic sharing the network: machine nodes outside the job, a pattern (pairs, shift, alltoall), "
       "endless transfers per node pair"},
      {"mca", R"({"type": "object"})", "MCA parameter overrides (ompisim describe <component>)"},
      {"benchmark", R"({"type": "object"})", "the benchmark block: \"name\" and its keys (ompisim describe <benchmark>)", true},
  };
  return keys;
}

// "neighbour_job": its form here; its nodes against the machine and the job's placement when the run is prepared.
static NeighbourJob read_neighbour_job(ObjectReader& r, std::string& network) {
  ObjectReader o = r.object("neighbour_job");
  NeighbourJob j;
  j.nodes = o.int_list("nodes", 0, 1000000000);
  if (j.nodes.size() < 2) o.fail("nodes", "a neighbour job needs at least 2 nodes to exchange traffic");
  if (j.nodes.size() > limits::kMaxNeighbourNodes)
    o.fail("nodes", fmt::format("{} nodes, above the limit of {}", j.nodes.size(), limits::kMaxNeighbourNodes));
  {
    std::vector<long long> sorted = j.nodes;
    std::sort(sorted.begin(), sorted.end());
    if (auto d = std::adjacent_find(sorted.begin(), sorted.end()); d != sorted.end())
      o.fail("nodes", fmt::format("node {} listed twice", *d));
  }
  j.pattern = o.opt_str("pattern").value_or("pairs");
  const NeighbourPattern* pat = find_neighbour_pattern(j.pattern);
  if (!pat) {
    std::vector<std::string> names;
    for (auto& p : neighbour_patterns()) names.emplace_back(p.name);
    std::string hint = did_you_mean(j.pattern, names);
    o.fail("pattern", fmt::format("unknown pattern '{}'{} (known: {})", j.pattern,
                                  hint.empty() ? "" : " (did you mean '" + hint + "'?)", fmt::join(names, ", ")));
  }
  const long long n = static_cast<long long>(j.nodes.size());
  if (pat->even_nodes && n % 2)
    o.fail("nodes", fmt::format("pattern '{}' pairs node i with node i + n/2: needs an even node count, not {}", j.pattern, n));
  j.shift = static_cast<int>(o.opt_integer("shift", 1, std::max(1LL, n - 1)).value_or(1));
  if (o.has("shift") && !pat->has_shift)
    o.fail("shift", fmt::format("pattern '{}' has no shift", j.pattern));
  j.flows_per_pair = static_cast<int>(o.opt_integer("flows_per_pair", 1, 64).value_or(1));
  network = o.opt_str("network").value_or("");
  o.finish();
  const std::size_t streams = pat->count(j.nodes.size()) * static_cast<std::size_t>(j.flows_per_pair);
  if (streams > limits::kMaxNeighbourStreams)
    o.fail("flows_per_pair", fmt::format("{} endless transfers (pattern '{}' on {} nodes x {} per pair), above the "
                                         "limit of {}", streams, j.pattern, n, j.flows_per_pair,
                                         limits::kMaxNeighbourStreams));
  return j;
}

// The scenario or grid files under the data's scenarios/ named `base` (or `base`.json; "*": every one), as `list`
// prints them.
static std::vector<std::string> scenario_files_named(const std::string& base) {
  namespace fs = std::filesystem;
  std::vector<std::string> found;
  std::error_code ec;
  const fs::path root = data_path("scenarios");
  if (base.empty() || !fs::is_directory(root, ec)) return found;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const std::string f = it->path().filename().string();
    if (it->path().extension() == ".json" && (base == "*" || f == base || f == base + ".json"))
      found.push_back((fs::path("scenarios") / it->path().lexically_relative(root)).string());
  }
  std::sort(found.begin(), found.end());
  return found;
}

void check_paper_name(const Scenario& s) {
  namespace fs = std::filesystem;
  const std::string& paper = s.paper;
  const std::string& file = s.file;
  if (paper.empty()) return;
  const fs::path root = fs::path(data_dir()) / "validation" / "reference";
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return;
  std::vector<std::string> papers;
  for (const auto& e : fs::directory_iterator(root, ec))
    if (e.path().extension() == ".json") papers.push_back(e.path().stem().string());
  if (std::find(papers.begin(), papers.end(), paper) != papers.end()) return;
  std::sort(papers.begin(), papers.end());
  const std::string hint = did_you_mean(paper, papers);
  throw InputError(file, "paper", fmt::format("unknown paper '{}'{} (the papers with a reference file in "
                                              "validation/reference/: {}; a scenario of one's own leaves it out)",
                                              paper, hint.empty() ? "" : " (did you mean '" + hint + "'?)",
                                              fmt::join(papers, ", ")));
}

void refuse_missing_input(const std::string& name) {
  namespace fs = std::filesystem;
  std::error_code ec;
  // A folder (scenarios/gemini): one of its files is meant; say how many there are and name the first.
  if (!name.empty() && fs::is_directory(data_path(name), ec)) {
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(data_path(name), ec))
      if (e.is_regular_file(ec) && e.path().extension() == ".json") files.push_back(e.path().filename().string());
    std::sort(files.begin(), files.end());
    throw InputError(name, "", files.empty()
                                   ? std::string("a folder, not a file: give a .json file (`ompisim list` names them)")
                                   : fmt::format("a folder, not a file: give one of its {} .json files (e.g. {}; "
                                                 "`ompisim list scenarios` names every scenario, and `ompisim "
                                                 "reproduce` runs them all)",
                                                 files.size(), (fs::path(name) / files.front()).string()));
  }
  if (name.empty() || fs::exists(data_path(name), ec)) return;
  // A misspelt name: the closest .json file of the folder it names (here, else in the installed data).
  const fs::path given(name);
  const std::string dir = data_path(given.parent_path().empty() ? std::string(".") : given.parent_path().string());
  std::vector<std::string> stems;  // matched without ".json", so that a name's beginning finds the files it begins
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") stems.push_back(e.path().stem().string());
  const fs::path stem = given.extension() == ".json" ? given.stem() : given.filename();
  // A machine's name where a scenario file is asked for (`ompisim run cielo`, `run titan.json`): what to give instead.
  if (given.parent_path().empty())
    for (const auto& [machine, file] : list_machines())
      if (machine == stem.string())
        throw InputError(name, "", fmt::format("no such file; '{}' is a machine, and run takes a scenario file that "
                                               "names it (\"machine\": \"{}\"): `ompisim list scenarios` names the "
                                               "scenarios, scenarios/examples/ has what-ifs to start from, `ompisim "
                                               "describe {}` prints the machine",
                                               machine, machine, machine));
  auto refuse_with = [&name](const std::vector<std::string>& paths) {
    throw InputError(name, "", fmt::format("no such file (did you mean '{}'?)", fmt::join(paths, "' or '")));
  };
  if (const auto hints = did_you_mean_all(stem.string(), stems); !hints.empty()) {
    std::vector<std::string> shown;  // each with its folder and .json
    for (auto& h : hints) shown.push_back((given.parent_path() / (h + ".json")).string());
    refuse_with(shown);
  }
  // A file `list` prints, named without its folder (or without .json): where it is.
  const std::vector<std::string> found = scenario_files_named(given.filename().string());
  if (!found.empty() && (found.size() > 1 || found[0] != name)) refuse_with(found);
  // Such a name misspelt: the closest names among those files.
  if (!found.empty() || !given.parent_path().empty()) return;
  const std::vector<std::string> all = scenario_files_named("*");
  std::vector<std::string> all_stems;
  for (const auto& f : all) all_stems.push_back(fs::path(f).stem().string());
  std::vector<std::string> shown;
  for (const auto& h : did_you_mean_all(stem.string(), all_stems))
    for (std::size_t i = 0; i < all.size(); ++i)
      if (all_stems[i] == h) shown.push_back(all[i]);
  if (!shown.empty()) refuse_with(shown);
}

void refuse_machine_or_result(const Json& j, const std::string& file, const std::string& name) {
  if (!j.is_object()) return;
  if (j.contains("points") && j.contains("provenance"))
    throw InputError(file, "points",
                     fmt::format("a result file (what `ompisim run` writes), not a scenario: its scenario is its "
                                 "provenance.scenario_file{}; `ompisim compare` compares results",
                                 j["provenance"].is_object() && j["provenance"].value("scenario_file", Json()).is_string()
                                     ? " (" + j["provenance"]["scenario_file"].get<std::string>() + ")"
                                     : ""));
  if (j.contains("node_types") && j.contains("networks") && !j.contains("benchmark"))
    throw InputError(file, "node_types",
                     "a machine file, not a scenario: give it to a scenario with `ompisim run SCENARIO.json "
                     "--machine-file " + name + "` (`ompisim describe " + name + "` prints its parameters)");
}

Scenario load_scenario(const std::string& name) {
  refuse_missing_input(name);
  const std::string file = data_path(name);  // as given, else in the installed data (scenarios/...)
  const Json j = load_json_file(file);
  if (j.is_object() && j.contains("base") && !j.contains("machine"))
    throw InputError(file, "base",
                     fmt::format("a sweep grid (a base scenario and axes), not a scenario: run it with `ompisim sweep {}` "
                                 "(`ompisim describe {}` lists its points)", name, name));
  refuse_machine_or_result(j, file, name);
  return scenario_from_json(j, file);
}

namespace {
std::string engine_choices(const std::string& given) {
  const std::string hint = did_you_mean(given, engines().names());
  return fmt::format("expected one of {}{}", fmt::join(engines().names(), ", "),
                     hint.empty() ? "" : " (did you mean '" + hint + "'?)");
}
}  // namespace

void set_engine(Scenario& s, const std::string& name) {
  if (name.empty()) return;
  // The form of every bad option value: the option, the value as given, the values it takes.
  if (!engines().find(name)) throw InputError("--engine", name, engine_choices(name) + " (ompisim list)");
  s.engine = name;
}

Scenario scenario_from_json(const Json& j, const std::string& file) {
  Scenario s;
  s.file = file;
  ObjectReader r(j, file, "");
  s.id = r.opt_str("id").value_or(std::filesystem::path(file).stem().string());
  check_safe_name(s.id, file, r.has("id") ? "id" : "");  // the result files are named after it
  s.description = r.opt_str("description").value_or("");
  s.expected = r.opt_str("expected").value_or("");
  s.figure = r.opt_str("figure").value_or("");
  s.paper = r.opt_str("paper").value_or("");
  s.plot = r.opt_str("plot").value_or("");
  if (!s.plot.empty() && (s.plot.size() > 64 || !std::isalpha(static_cast<unsigned char>(s.plot[0])) ||
                          !std::all_of(s.plot.begin(), s.plot.end(),
                                       [](unsigned char c) { return std::isalnum(c) || c == '_'; })))
    throw InputError(file, "plot", "expected the name of a result field (letters, digits and '_', at most 64 "
                                   "characters, e.g. bandwidth_GBps)");
  if (!s.figure.empty()) (void)label_stem(s.figure, file, "figure");  // reproduce names the figure's files after it
  if (r.has("relevant_code")) {  // documentation: a list of source file paths
    const Json& rc = r.raw("relevant_code");
    if (!rc.is_array()) r.fail("relevant_code", "expected a list of source file paths");
    for (std::size_t i = 0; i < rc.size(); ++i)
      if (!rc[i].is_string() || rc[i].get<std::string>().empty())
        throw InputError(file, fmt::format("relevant_code[{}]", i), "expected a source file path (a string)");
  }
  s.machine = r.str("machine");
  check_safe_name(s.machine, file, "machine");  // a name in the machine directory, never a path (see --machine-file)
  if (r.has("stack") && r.raw("stack").is_object()) {
    s.stack_json = r.raw("stack");
    s.stack = stack_label(s.stack_json, file);  // checks the object (components known, combination possible)
  } else {
    s.stack = r.str("stack");
    s.stack_json = s.stack;
  }
  if (r.has("engine")) {
    s.engine = r.str("engine");
    if (!engines().find(s.engine)) r.fail("engine", engine_choices(s.engine));
  }
  if (r.has("engine_window")) {
    if (!r.raw("engine_window").is_string()) r.fail("engine_window", "expected a time with its unit (\"1 us\")");
    s.engine_window = r.quantity("engine_window", Dim::Time, 1e-15, 1.0);
  }
  if (r.has("engine_grid")) {
    if (!r.raw("engine_grid").is_string()) r.fail("engine_grid", "expected a time with its unit (\"1 ns\")");
    s.engine_grid = r.quantity("engine_grid", Dim::Time, 0.0, 1e-6);
  }
  if (r.has("packet_trains")) {
    s.packet_trains = r.quantity("packet_trains", Dim::Bytes, 0.0, 1073741824.0);
  }
  auto& rv = r.raw("ranks");
  if (rv.is_array() && rv.size() > limits::kMaxRankList)
    r.fail("ranks", fmt::format("{} rank counts, above the limit of {} per sweep (each runs in its own process)",
                                rv.size(), limits::kMaxRankList));
  if (rv.is_array()) s.ranks = r.int_list("ranks", 1, 100000000);
  else s.ranks = {r.integer("ranks", 1, 100000000)};
  if (s.ranks.empty()) r.fail("ranks", "empty list");
  for (std::size_t i = 1; i < s.ranks.size(); ++i)  // a count given twice would run the same point twice
    if (std::find(s.ranks.begin(), s.ranks.begin() + static_cast<std::ptrdiff_t>(i), s.ranks[i]) !=
        s.ranks.begin() + static_cast<std::ptrdiff_t>(i))
      r.fail("ranks", fmt::format("{} is listed twice: each rank count runs once", s.ranks[i]));
  s.ranks_per_node = static_cast<int>(r.opt_integer("ranks_per_node", 1, 100000).value_or(1));
  for (long long n : s.ranks)
    if (s.ranks_per_node > n)
      r.fail("ranks_per_node", fmt::format("{} ranks per node with {} ranks: the job fills less than one node "
                                           "(ranks_per_node must not exceed ranks)", s.ranks_per_node, n));
  s.routing = r.opt_str("routing").value_or("");
  for (const char* k : {"map_by", "bind_to", "rank_by", "cpu_list", "gpu_list"})
    if (r.has(k)) s.mapping[k] = r.raw(k);
  if (r.has("nodes")) {
    s.nodes = r.int_list("nodes", 0, 1000000000);
    if (s.nodes.empty()) r.fail("nodes", "an empty node list places no rank (omit the key to place by the mapping policy)");
    // Every listed node must be used by the largest rank count, else the list is partly ignored.
    long long most = *std::max_element(s.ranks.begin(), s.ranks.end());
    long long need = (most + s.ranks_per_node - 1) / s.ranks_per_node;
    if (static_cast<long long>(s.nodes.size()) > need)
      r.fail("nodes", fmt::format("{} nodes listed, but {} ranks at {} per node use only {}: the rest would be ignored",
                                  s.nodes.size(), most, s.ranks_per_node, need));
  }
  if (r.has("neighbour_job")) s.neighbour = read_neighbour_job(r, s.neighbour_network);
  if (r.has("mca")) {
    s.mca = r.raw("mca");
    if (!s.mca.is_object()) r.fail("mca", "expected an object of MCA parameters");
  }
  ObjectReader b = r.object("benchmark");
  s.benchmark = b.str("name");
  s.benchmark_block = j.at("benchmark");
  // The stack's collective library when its preset fixes it on every machine (the run's machine decides the rest).
  s.driver = bench::parse_benchmark(b, bench::DriverContext{file, s.ranks, s.stack, s.stack_json,
                                                            stack_has_network_atomics(s.stack_json, file, s.machine), nullptr, "",
                                                            stack_collectives(s.stack_json, {}).name});
  std::vector<std::string> known;
  for (auto& k : scenario_keys()) known.emplace_back(k.name);
  r.finish(known);
  return s;
}

void check_plot_field(const Scenario& s, const Json& result) {
  if (s.plot.empty() || !result.contains("points") || !result["points"].is_array() || result["points"].empty()) return;
  const Json& p0 = result["points"][0];
  if (p0.is_object() && p0.contains(s.plot) && p0[s.plot].is_number()) return;
  std::vector<std::string> fields;
  if (p0.is_object())
    for (auto& [k, v] : p0.items())
      if (v.is_number()) fields.push_back(k);
  throw InputError(s.file, "plot", fmt::format("the result has no field '{}' (its points' fields: {})", s.plot,
                                               fields.empty() ? std::string("none") : fmt::format("{}", fmt::join(fields, ", "))));
}

}  // namespace ompisim
