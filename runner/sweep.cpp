#include "runner/sweep.hpp"

#include "benchmarks/driver.hpp"
#include "core/atomic_write.hpp"
#include "core/error_text.hpp"
#include "core/hash.hpp"
#include "core/limits.hpp"
#include "core/signals.hpp"
#include "core/units.hpp"
#include "platform/data_path.hpp"
#include "platform/machine.hpp"
#include "protocols/register.hpp"
#include "runner/isolate.hpp"
#include "runner/report.hpp"
#include "runner/run.hpp"

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace ompisim {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxPoints = 10000;

std::string hex16(std::uint64_t h) { return fmt::format("{:016x}", h); }

// A parameter value as `--set` takes it: strings as written, numbers and booleans as JSON.
std::string set_value(const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// Applies one axis value to a point.
void apply_axis(SweepPoint& p, const std::string& key, const Json& value) {
  p.values[key] = value;
  if (key.starts_with("mca.")) {
    if (!p.scenario.contains("mca") || !p.scenario["mca"].is_object()) p.scenario["mca"] = Json::object();
    p.scenario["mca"][key.substr(4)] = value;
  } else if (key.starts_with("benchmark.")) {
    p.scenario["benchmark"][key.substr(10)] = value;
  } else if (sweep_scenario_axes().count(key)) {
    p.scenario[key] = value;
  } else {
    p.sets.emplace_back(key, set_value(value));
  }
}

std::string point_key(std::size_t i) { return fmt::format("points[{}]", i); }

// The result field that reports an axis's own quantity: a benchmark key's own name ("benchmark.radix": "radix"), a
// scenario key itself ("ranks"); "" for MCA and machine parameters (a result does not report them per point).
std::string axis_result_field(const std::string& axis) {
  if (axis.starts_with("benchmark.")) return axis.substr(std::string("benchmark.").size());
  return sweep_scenario_axes().count(axis) ? axis : "";
}

// The unit a quantity axis is shown in, per dimension (tried in this order).
struct Shown { Dim dim; const char* unit; double si_per_unit; };
constexpr Shown kShown[] = {{Dim::Rate, "GB/s", 1e9}, {Dim::Time, "us", 1e-6}, {Dim::Bytes, "B", 1.0}};

// The declared dimension of an "mca.<name>" axis whose parameter is a quantity (its owning component's ParamInfo);
// Ratio when the axis is no such parameter.
Dim mca_axis_dim(const std::string& axis) {
  const std::string key = axis.starts_with("mca.") ? axis.substr(4) : std::string();
  const ComponentInfo* owner = key.empty() ? nullptr : mca_owner(key);
  if (!owner) return Dim::Ratio;
  McaParams mca = component_registry().defaults();
  for (const auto& r : owner->param_list(mca))
    if (r.info.name == key && r.info.choices.empty()) return r.info.dim;
  return Dim::Ratio;
}

// Axis values with a unit ("4 GB/s", "1.5 us", "8 KiB") become numbers in the axis's display unit (GB/s, us, B; the
// unit goes into the table's "units" and the CSV header), so that a table reader gets numbers. An axis is a quantity
// when every value is a number or a string of one dimension (tried: rate, time, size) and at least one is a string;
// plain numbers are bytes on a size axis and are refused by the run on the other two. An axis of plain numbers over an
// MCA parameter declared as a byte size is in bytes too (256, 1024: "B"). Returns axis -> unit.
Json axis_units(const std::vector<std::string>& axes, Json& rows) {
  Json units = Json::object();
  for (auto& a : axes) {
    // A row without a value (a point that leaves the axis to its base scenario, no value recorded) takes no part.
    bool any_string = false, all_numbers = true, any_value = false;
    for (auto& r : rows) {
      if (!r.contains(a) || r[a].is_null()) continue;
      any_value = true;
      any_string = any_string || r[a].is_string();
      all_numbers = all_numbers && r[a].is_number();
    }
    if (all_numbers && any_value && (mca_axis_dim(a) == Dim::Bytes || a == "packet_trains")) units[a] = "B";
    if (!any_string) continue;
    for (const Shown& s : kShown) {
      bool fits = true;
      for (auto& r : rows) {
        const Json& v = r.contains(a) ? r[a] : Json();
        if (v.is_null()) continue;
        if (v.is_string()) {
          try {
            (void)parse_quantity(v.get<std::string>(), s.dim);
          } catch (const std::invalid_argument&) {
            fits = false;
          }
        } else if (!(v.is_number() && s.dim == Dim::Bytes)) {
          fits = false;
        }
        if (!fits) break;
      }
      if (!fits) continue;
      for (auto& r : rows)
        if (r.contains(a) && r[a].is_string()) {  // 12 significant digits: "6 GB/s" is 6, not 6.000000000000001
          const double v = std::stod(fmt::format("{:.12g}", parse_quantity(r[a].get<std::string>(), s.dim) / s.si_per_unit));
          // a whole number as one ("512 B" beside 256 is 512, not 512.0, in the table and the CSV)
          r[a] = v == std::floor(v) && std::fabs(v) < 1e15 ? Json(static_cast<long long>(v)) : Json(v);
        }
      units[a] = s.unit;
      break;
    }
  }
  return units;
}

// A grid's "base" file: relative to the grid file's folder (as a replay's trace is to its scenario), else to the current
// folder, else to the tool's data folder (an installed scenarios/...); empty when none exists (a name the file system
// refuses, too long for it, is none). An absolute path is itself.
std::string base_file(const std::string& path, const std::string& grid_file) {
  std::error_code ec;
  if (fs::path(path).is_relative()) {
    const fs::path beside = fs::path(grid_file).parent_path() / path;
    if (fs::exists(beside, ec)) return beside.lexically_normal().string();
  }
  if (fs::exists(path, ec)) return path;
  const std::string in_data = data_path(path);
  return in_data != path ? in_data : std::string();
}

// The command line's --set, --engine and --machine-file (g.file, g.axes known): never a key the grid varies (one
// value for every point would silently replace the axis's values); an unknown engine named as run names it.
void check_command_line(const SweepGrid& g, const Overrides& sets, const std::string& engine) {
  for (const auto& [k, v] : sets)
    for (const auto& a : g.axes)
      if (a == k || a == "mca." + k || "mca." + a == k)
        throw InputError("--set", k, fmt::format("is an axis of the grid {} ('{}'): the sweep gives it each of the axis's "
                                                 "values; leave out the --set, or the axis", g.file, a));
  // --machine-file replaces every point's machine: a grid that varies "machine" would label its rows with machines
  // none of them ran on
  if (!g.machine_file.empty() && std::find(g.axes.begin(), g.axes.end(), "machine") != g.axes.end())
    throw InputError("--machine-file", g.machine_file,
                     fmt::format("the grid {} has an axis 'machine': --machine-file would run every point on this one "
                                 "file while its rows name the axis's machines; leave out --machine-file, or the axis",
                                 g.file));
  if (engine.empty()) return;
  if (std::find(g.axes.begin(), g.axes.end(), "engine") != g.axes.end())
    throw InputError("--engine", engine, fmt::format("the grid {} has an axis 'engine': the sweep gives each point the "
                                                     "axis's engine; leave out --engine, or the axis", g.file));
  Scenario probe;
  set_engine(probe, engine);  // an unknown engine: the option, the value, the engines there are
}

// An error about a --set of the command line is said of the option, as run says it, with where it failed (`where`).
void rethrow_command_line_set(const InputError& e, const Overrides& sets, const std::string& where) {
  if (e.file() != "--set") return;
  for (const auto& [k, v] : sets)
    if (e.key() == k || e.key() == "mca." + k)
      throw InputError("--set", e.key(), fmt::format("{} ({})", e.reason(), where));
}

// An error in resolving a point (`index`: its place in "points", none for a grid of axes) names the axis that set the
// key it is about, else the point; one about a --set of the command line is said of the option.
[[noreturn]] void rethrow_point_error(const InputError& e, const Json& assignment, std::optional<std::size_t> index,
                                      const std::string& file, const Overrides& sets, const std::string& where) {
  const std::string& key = e.key();
  rethrow_command_line_set(e, sets, where);
  for (auto it = assignment.begin(); it != assignment.end(); ++it) {
    const std::string& a = it.key();
    bool mine = key == a || key.starts_with(a + ".") || key.starts_with(a + "[") || "mca." + key == a || key == "mca." + a ||
                (a.starts_with("benchmark.") && key == a) || (e.file() == "--set" && key == a);
    if (mine) throw InputError(file, index ? fmt::format("points[{}].{}", *index, a) : "axes." + a, e.reason());
  }
  throw InputError(file, index ? fmt::format("points[{}]", *index) : "axes",
                   fmt::format("{} key '{}': {}", e.file(), e.key(), e.reason()));
}

// An axis named by a key of the point's benchmark without its "benchmark." ("radix" for "benchmark.radix") reaches the
// parameters as an unknown one: said as the benchmark's key, with the axis name that varies it.
void refuse_bare_benchmark_key(const InputError& e, const Json& scenario, const Json& assignment, const std::string& file,
                               std::optional<std::size_t> index) {
  if (e.file() != "--set" || !assignment.contains(e.key()) || e.key().find('.') != std::string::npos) return;
  const Json* b = scenario.contains("benchmark") ? &scenario["benchmark"] : nullptr;
  if (b == nullptr || !b->is_object() || !b->contains("name") || !(*b)["name"].is_string()) return;
  const auto& name = (*b)["name"].get_ref<const std::string&>();
  const auto* d = bench::driver_registry().find(name);
  if (d == nullptr) return;
  const auto keys = d->keys();
  if (std::find(keys.begin(), keys.end(), e.key()) == keys.end() || e.key() == "name") return;
  throw InputError(file, index ? fmt::format("points[{}].{}", *index, e.key()) : "axes." + e.key(),
                   fmt::format("a key of benchmark '{}', not a parameter: name the axis 'benchmark.{}'", name, e.key()));
}

}  // namespace

std::vector<const char*> sweep_axis_display_units() {
  std::vector<const char*> v;
  for (const Shown& s : kShown) v.push_back(s.unit);
  return v;
}

const std::set<std::string>& sweep_scenario_axes() {
  static const std::set<std::string> keys = {"machine",       "stack",       "engine",        "engine_window",
                                             "engine_grid",   "packet_trains", "ranks",       "ranks_per_node",
                                             "nodes",         "map_by",        "bind_to",     "rank_by",
                                             "cpu_list",      "gpu_list",      "routing"};
  return keys;
}

const std::vector<std::string>& sweep_grid_keys() {
  static const std::vector<std::string> keys = {"base", "axes", "combine", "points", "description"};
  return keys;
}

// A value as the run reads it: a quantity string ("4 KiB", "6 GB/s", "1.5 us") as its SI number, a plain number as
// bytes (the one dimension a run takes plain numbers in), so that 4096 and "4 KiB" on one axis are one value; a list
// (a benchmark's sizes) element by element, so that [8] and ["8 B"] are one list.
static Json canonical_value(const Json& v) {
  if (v.is_array()) {
    Json out = Json::array();
    for (const Json& e : v) out.push_back(canonical_value(e));
    return Json{{"list", out}};
  }
  if (v.is_number()) return Json::array({static_cast<int>(Dim::Bytes), v.get<double>()});
  if (v.is_string())
    for (const Shown& s : kShown) try {
        return Json::array({static_cast<int>(s.dim), parse_quantity(v.get<std::string>(), s.dim)});
      } catch (const std::invalid_argument&) {
      }
  return v;
}

// A point given twice (a value repeated on an axis, a repeated tuple of "zip" or "points", or one value in two
// spellings: 4096 and "4 KiB") would run twice, or once, and fill two rows of the table with one input.
static void refuse_repeated_points(const std::vector<Json>& assignments, const ObjectReader& r, bool has_axes) {
  std::map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < assignments.size(); ++i) {
    Json canon = Json::object();
    for (auto it = assignments[i].begin(); it != assignments[i].end(); ++it) canon[it.key()] = canonical_value(*it);
    if (auto [at, fresh] = seen.emplace(canon.dump(), i); !fresh) {
      const bool same_text = assignments[i] == assignments[at->second];
      r.fail(has_axes ? "axes" : point_key(i),
             same_text ? fmt::format("point {} ({}) repeats point {}: give each point once", i + 1,
                                     assignments[i].dump(), at->second + 1)
                       : fmt::format("point {} ({}) is point {} ({}) in other units: give each point once", i + 1,
                                     assignments[i].dump(), at->second + 1, assignments[at->second].dump()));
    }
  }
}

// A scenario or a result given where a grid belongs: said as such, not as its first key unknown to a grid.
static void refuse_other_kinds(const Json& doc, const ObjectReader& r, const std::string& name) {
  if (!doc.is_object() || doc.contains("base")) return;
  if (doc.contains("provenance"))
    r.fail("provenance", "a result (what `ompisim run` or `ompisim sweep` writes), not a sweep grid: `ompisim compare` "
                         "compares results");
  if (doc.contains("machine") && doc.contains("benchmark"))
    r.fail("base", fmt::format("a scenario, not a sweep grid: run it with `ompisim run {}`, or sweep it with a grid "
                               "{{\"base\": \"{}\", \"axes\": {{...}}}} (`ompisim schema grid`; grids to copy: "
                               "scenarios/examples/)", name, name));
}

// A grid's base scenario, as a file name or inline (g.base_file set); it must load as a scenario. An error in a base
// file names that file and key, then where it was reached from.
static Json load_grid_base(ObjectReader& r, const std::string& file, SweepGrid& g) {
  Json base;
  if (!r.has("base")) r.fail("base", "a sweep needs a base scenario (a file name or an object)");
  const Json& b = r.raw("base");
  if (b.is_string()) {
    const std::string path = base_file(b.get<std::string>(), file);
    if (path.empty())
      r.fail("base", fmt::format("no scenario file '{}' (relative to the current folder, to the grid file or to the "
                                 "tool's data folder {})", b.get<std::string>(), data_dir()));
    try {
      base = load_json_file(path);
      if (base.is_object() && base.contains("base") && !base.contains("machine"))
        throw InputError(path, "base", fmt::format("a sweep grid, not a scenario: a grid's base is a scenario (grids "
                                                   "do not nest: give one grid all the axes{})",
                                                   path == file ? "; this grid names itself" : ""));
      refuse_machine_or_result(base, path, b.get<std::string>());
    } catch (const InputError& e) {  // the base's own error, then where it was reached from
      throw InputError(e.file(), e.key(), fmt::format("{} (reached through {}: key 'base')", e.reason(), file));
    }
    g.base_file = path;
  } else if (b.is_object()) {
    base = b;
    g.base_file = file;
  } else {
    r.fail("base", "expected a scenario file name or a scenario object");
  }
  try {
    if (!base.is_object()) throw InputError(g.base_file, "", "a scenario is a JSON object");
    check_paper_name(scenario_from_json(base, g.base_file));  // the base itself must load
  } catch (const InputError& e) {
    // an inline base: its keys are under the grid's "base"
    if (g.base_file == file) throw InputError(file, e.key().empty() ? "base" : "base." + e.key(), e.reason());
    throw InputError(e.file(), e.key(), fmt::format("{} (reached through {}: key 'base')", e.reason(), file));
  }
  return base;
}

// Axis keys a grid may not have: a scenario key a sweep does not vary ("id": each point's result is named by the
// sweep; "plot", "description"), said as such with the keys it does vary rather than as a --set of a scenario key;
// and one MCA parameter as two axes ("mca.X" in the scenario's mca block, "X" as a --set), where the second would
// override the first at every point and the first axis's column would label values no point ran.
static void refuse_axis_keys(const std::vector<std::string>& axes, ObjectReader& r, bool has_axes) {
  const auto& sk = scenario_keys();
  for (const auto& a : axes) {
    if (sweep_scenario_axes().count(a) || a == "mca" || a == "benchmark" ||
        std::none_of(sk.begin(), sk.end(), [&](const ScenarioKey& k) { return k.name == a; }))
      continue;
    r.fail(has_axes ? "axes." + a : "points",
           fmt::format("'{}' is a key of the scenario that a sweep does not vary (the sweep names each point's result "
                       "itself): its axes are machine parameters, mca.NAME, benchmark.KEY and {}",
                       a, fmt::join(sweep_scenario_axes(), ", ")));
  }
  for (const auto& a : axes)
    if (a.starts_with("mca.") && std::find(axes.begin(), axes.end(), a.substr(4)) != axes.end())
      r.fail(has_axes ? "axes." + a.substr(4) : "points",
             fmt::format("axis '{}' sets the MCA parameter that axis '{}' sets: keep one of them", a.substr(4), a));
}

SweepGrid load_sweep_grid(const std::string& name, const Overrides& sets, const std::string& engine,
                          const std::string& machine_file) {
  refuse_missing_input(name);
  const std::string file = data_path(name);  // as given, else in the installed data (scenarios/examples/...)
  SweepGrid g;
  g.file = file;
  g.sets = sets;
  g.engine = engine;
  g.machine_file = machine_file;
  // the machine file's contents: a point run on an edited file is another point
  const std::string machine_text = machine_file.empty() ? std::string() : load_json_file(machine_file).dump();
  const Json doc = load_json_file(file);
  ObjectReader r(doc, file, "");
  refuse_other_kinds(doc, r, name);
  r.finish(sweep_grid_keys());  // unknown keys first, with a did-you-mean
  const Json base = load_grid_base(r, file, g);
  const bool has_axes = r.has("axes"), has_points = r.has("points");
  if (has_axes == has_points) r.fail(has_axes ? "points" : "axes", "give either \"axes\" or \"points\", not both or none");
  std::vector<Json> assignments;  // each: axis key -> value
  if (has_axes) {
    const Json& axes = r.raw("axes");
    if (!axes.is_object()) r.fail("axes", "expected an object of axis key -> list of values");
    if (axes.empty()) r.fail("axes", "no axis: give at least one axis key -> list of values (`ompisim schema grid`)");
    std::string combine = r.opt_str("combine").value_or("product");
    if (combine != "product" && combine != "zip")
      r.fail("combine", fmt::format("unknown combination '{}' (product or zip)", combine));
    for (auto it = axes.begin(); it != axes.end(); ++it) {
      if (!it.value().is_array() || it.value().empty())
        r.fail("axes." + it.key(), "expected a non-empty list of values");
      g.axes.push_back(it.key());
    }
    // the axes in the order the grid writes them: its table's columns, and the last one varies fastest ("the first
    // axis" of a zip's error is the first written)
    if (auto written = member_keys_in_written_order(file, "axes"); written.size() == g.axes.size()) g.axes = written;
    std::size_t total = 1, len = 0;
    for (const std::string& k : g.axes) {
      const std::size_t n = axes[k].size();
      if (combine == "zip" && len && n != len)
        r.fail("axes." + k, fmt::format("{} value{}, but the first axis, {}, has {}: \"zip\" pairs the axes value by "
                                        "value", n, n == 1 ? "" : "s", g.axes.front(), len));
      len = n;
      total = combine == "zip" ? len : total * n;
      if (total > kMaxPoints) r.fail("axes", fmt::format("more than {} points", kMaxPoints));
    }
    if (combine == "zip") {
      for (std::size_t i = 0; i < len; ++i) {
        Json a = Json::object();
        for (auto& k : g.axes) a[k] = axes[k][i];
        assignments.push_back(a);
      }
    } else {
      assignments.push_back(Json::object());
      for (auto& k : g.axes) {  // the last axis varies fastest
        std::vector<Json> next;
        for (auto& a : assignments)
          for (auto& v : axes[k]) {
            Json x = a;
            x[k] = v;
            next.push_back(x);
          }
        assignments = std::move(next);
      }
    }
  } else {
    const Json& pts = r.raw("points");
    if (!pts.is_array() || pts.empty()) r.fail("points", "expected a non-empty list of objects");
    if (pts.size() > kMaxPoints) r.fail("points", fmt::format("more than {} points", kMaxPoints));
    std::set<std::string> keys;
    for (std::size_t i = 0; i < pts.size(); ++i) {
      if (!pts[i].is_object()) r.fail(point_key(i), "expected an object of axis key -> value");
      // {} is the base itself, with no column value to tell its row from the others': the key it keeps, spelt out
      if (pts[i].empty()) {
        std::string other;
        for (const Json& p : pts)
          if (p.is_object() && !p.empty()) {
            other = " ('" + p.begin().key() + "')";
            break;
          }
        r.fail(point_key(i), fmt::format("an empty point sets no key, and its row would name nothing: for the base as "
                                         "it is, give one of the other points' keys{} at its base value", other));
      }
      for (auto it = pts[i].begin(); it != pts[i].end(); ++it) keys.insert(it.key());
      assignments.push_back(pts[i]);
    }
    g.axes.assign(keys.begin(), keys.end());
  }

  refuse_axis_keys(g.axes, r, has_axes);
  refuse_repeated_points(assignments, r, has_axes);
  check_command_line(g, sets, engine);
  // Resolve and check every point as a run would before simulating (once per distinct resolved input).
  std::set<std::string> checked;
  for (std::size_t i = 0; i < assignments.size(); ++i) {
    SweepPoint p;
    p.scenario = base;
    for (auto it = assignments[i].begin(); it != assignments[i].end(); ++it) apply_axis(p, it.key(), it.value());
    if (!engine.empty()) p.scenario["engine"] = engine;
    p.sets.insert(p.sets.end(), sets.begin(), sets.end());
    try {
      Scenario s = scenario_from_json(p.scenario, g.base_file);
      s.machine_file = machine_file;
      if (checked.insert(Json{p.scenario, p.sets}.dump()).second) {
        check_run_input(s, p.sets);
        check_sets_read(s, p.sets);  // as run: an MCA parameter (axis or --set) no component of the point's stack reads is refused
      }
    } catch (const InputError& e) {
      refuse_bare_benchmark_key(e, p.scenario, assignments[i], file, has_axes ? std::nullopt : std::optional<std::size_t>(i));
      rethrow_point_error(e, assignments[i], has_axes ? std::nullopt : std::optional<std::size_t>(i), file, sets,
                          fmt::format("grid {}, point {} of {}", file, i + 1, assignments.size()));
    }
    Json input{{"scenario", p.scenario}, {"sets", p.sets}, {"ompisim", git_describe()}};
    if (!machine_text.empty()) input["machine_file"] = machine_text;  // absent without one: earlier points keep their hash
    p.hash = hex16(fnv1a(input.dump()));
    g.points.push_back(std::move(p));
  }
  return g;
}

Shard sweep_shard(const std::string& option) {
  auto parse = [](const std::string& text, const std::string& what) {
    auto slash = text.find('/');
    Shard s;
    try {
      std::size_t a = 0, b = 0;
      if (slash == std::string::npos) throw std::invalid_argument("no /");
      s.index = std::stoi(text.substr(0, slash), &a);
      s.count = std::stoi(text.substr(slash + 1), &b);
      if (a != slash || b != text.size() - slash - 1) throw std::invalid_argument("trailing");
    } catch (const std::exception&) {
      throw InputError(what, text, "expected I/N: shard I (0 .. N-1) of N");
    }
    if (s.count < 1) throw InputError(what, text, fmt::format("{} shards: the count N is at least 1", s.count));
    if (s.index < 0 || s.index >= s.count)
      throw InputError(what, text, fmt::format("shard index {} is out of range 0..{}", s.index, s.count - 1));
    s.from = what;
    return s;
  };
  if (!option.empty()) return parse(option, "--shard");
  auto env = [](const char* n) -> std::string {
    const char* v = std::getenv(n);
    return v ? v : "";
  };
  if (auto id = env("SLURM_ARRAY_TASK_ID"); !id.empty()) {
    std::string count = env("SLURM_ARRAY_TASK_COUNT"), min = env("SLURM_ARRAY_TASK_MIN");
    if (count.empty()) throw InputError("SLURM_ARRAY_TASK_COUNT", "", "SLURM_ARRAY_TASK_ID is set without it");
    long long i = 0;
    try {
      i = std::stoll(id) - (min.empty() ? 0 : std::stoll(min));
    } catch (const std::exception&) {
      throw InputError("SLURM_ARRAY_TASK_ID", id, "expected an integer");
    }
    Shard s = parse(fmt::format("{}/{}", i, count), "SLURM_ARRAY_TASK_ID");
    return s;
  }
  // MPI launchers: Open MPI's mpirun, MPICH / Hydra (PMI), Slurm's srun.
  for (auto [rank, size] : {std::pair{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"}, std::pair{"PMI_RANK", "PMI_SIZE"},
                            std::pair{"SLURM_PROCID", "SLURM_NTASKS"}})
    if (auto r = env(rank), n = env(size); !r.empty() && !n.empty()) return parse(r + "/" + n, rank);
  return {};
}

namespace {

std::string point_file(const std::string& out_dir, const SweepPoint& p) {
  return (fs::path(out_dir) / "points" / (p.hash + ".json")).string();
}

// A point's result exists. Only the sweep writes into points/: a symbolic link there (or points/ itself a link or a
// file) is refused, never followed.
bool point_done(const std::string& out_dir, const SweepPoint& p) {
  std::error_code ec;
  const std::string f = point_file(out_dir, p);
  const fs::file_status st = fs::symlink_status(f, ec);
  if (fs::is_symlink(st))
    throw InputError(f, "", "is a symbolic link: refused (points/ holds only the results the sweep wrote itself)");
  if (fs::exists(st) && !fs::is_regular_file(st))  // a folder there: the point could not publish after simulating
    throw InputError(f, "", "exists and is not a file: refused (points/ holds only the results the sweep wrote itself)");
  return fs::is_regular_file(st);
}

void check_points_dir(const std::string& out_dir) {
  std::error_code ec;
  const std::string d = (fs::path(out_dir) / "points").string();
  const fs::file_status st = fs::symlink_status(d, ec);
  if (fs::is_symlink(st)) throw InputError(d, "", "is a symbolic link: refused (the sweep's own folder of point results)");
  if (fs::exists(st) && !fs::is_directory(st)) throw InputError(d, "", "exists and is not a folder (the sweep's folder of point results)");
}

// points/ takes the files of the points about to run (`todo` of them): checked before any runs, as --out is (a point
// could not publish its result: each would fail after simulating).
void check_points_writable(const std::string& out_dir, std::size_t todo) {
  const std::string d = (fs::path(out_dir) / "points").string();
  if (todo > 0 && ::access(d.c_str(), W_OK | X_OK) != 0)
    throw InputError(d, "", fmt::format("the sweep's folder of point results is not writable: {} ({} points to run)",
                                        std::strerror(errno), todo));
}

// A point's process: runs it and publishes its file (written to a temporary and renamed: a kill leaves no half file).
[[noreturn]] void run_point_child(const SweepGrid& g, const SweepPoint& p, const std::string& out_dir, int parent) {
  setup_child_process(parent);
  int code = 0;
  try {
    Scenario s = scenario_from_json(p.scenario, g.base_file);
    s.machine_file = g.machine_file;
    Json res = run_scenario(s, p.sets);
    Json doc{{"hash", p.hash}, {"values", p.values}, {"scenario", p.scenario}, {"sets", p.sets}, {"result", res}};
    // points/'s stale temporaries were removed once before the points started (run_sweep): not read again per point
    write_file_atomic(point_file(out_dir, p), doc.dump(1) + "\n", false);
  } catch (const InputError& e) {  // the command's one line (run_sweep prints none after it)
    std::cerr << "ompisim: error: " << one_line(e.what()) << " (sweep point " << p.hash
              << "; finished points are kept)\n";
    code = 2;
  } catch (const std::exception& e) {
    std::cerr << "ompisim: error: sweep point " << p.hash << ": " << one_line(e.what()) << "\n";
    code = 3;
  }
  std::cerr.flush();
  _exit(code);
}

}  // namespace

// A point file as the sweep writes it: its hash, a result with a non-empty list of point objects. A file cut short,
// damaged or put there by hand is bad input, named with the way out (remove it and the sweep runs that point again).
static Json read_point_file(const std::string& pf, const SweepPoint& p) {
  auto bad = [&](const std::string& key, const std::string& why) {
    throw InputError(pf, key, why + " (not as the sweep writes it: remove the file to run the point again)");
  };
  Json doc;
  try {
    doc = load_json_file(pf);
  } catch (const InputError& e) {
    bad(e.key(), e.reason());
  }
  if (!doc.is_object()) bad("(top level)", "must be an object");
  if (!doc.contains("hash") || doc["hash"] != p.hash) bad("hash", "is not this point's (" + p.hash + ")");
  if (!doc.contains("result") || !doc["result"].is_object()) bad("result", "must be an object (the point's result)");
  check_result_points(doc["result"], pf, "result.points",
                      " (not as the sweep writes it: remove the file to run the point again)");
  return doc;
}

int sweep_points_done(const SweepGrid& g, const std::string& out_dir) {
  check_points_dir(out_dir);
  int n = 0;
  for (auto& p : g.points) n += point_done(out_dir, p);
  return n;
}

int run_sweep(const SweepGrid& g, const SweepOptions& opt) {
  check_points_dir(opt.out_dir);
  fs::create_directories(fs::path(opt.out_dir) / "points");
  // Temporaries a killed sweep left behind (write_file_atomic names them <file>.tmp.<pid>.<n>).
  for (auto& e : fs::directory_iterator(fs::path(opt.out_dir) / "points")) {
    std::string name = e.path().filename().string();
    if (name.find(".json.tmp.") != std::string::npos) {
      auto pid = std::atoll(name.substr(name.rfind(".tmp.") + 5).c_str());
      if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) fs::remove(e.path());
    }
  }
  std::vector<const SweepPoint*> todo;
  for (std::size_t i = 0; i < g.points.size(); ++i)
    if (static_cast<int>(i % static_cast<std::size_t>(opt.shard.count)) == opt.shard.index && !point_done(opt.out_dir, g.points[i]))
      todo.push_back(&g.points[i]);
  check_points_writable(opt.out_dir, todo.size());
  const int parent = static_cast<int>(getpid());
  std::map<pid_t, const SweepPoint*> running;
  std::size_t next = 0;
  int ran = 0, failed_code = 0;
  std::string failed;
  auto t0 = std::chrono::steady_clock::now();
  auto show = [&] {
    if (!opt.progress) return;
    double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::size_t left = todo.size() - static_cast<std::size_t>(ran);
    std::string eta = ran > 0 ? fmt::format(", about {:.0f} s left", el / ran * static_cast<double>(left)) : "";
    std::cerr << fmt::format("\rsweep: {} of {} points done, {} running, {} left{}   ", ran, todo.size(),
                             running.size(), left, eta)
              << std::flush;
  };
  while (next < todo.size() || !running.empty()) {
    while (failed_code == 0 && next < todo.size() && static_cast<int>(running.size()) < opt.jobs) {
      std::cout.flush();
      std::cerr.flush();
      pid_t pid = fork();
      if (pid < 0) throw std::runtime_error("fork failed");
      if (pid == 0) run_point_child(g, *todo[next], opt.out_dir, parent);
      running[pid] = todo[next++];
      show();
    }
    if (failed_code != 0 && running.empty()) break;
    int status = 0;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid == 0 || (pid < 0 && errno == EINTR)) {
      if (interrupt_signal()) {
        for (auto& [c, p] : running) ::kill(c, SIGKILL);
        for (auto& [c, p] : running)
          while (waitpid(c, nullptr, 0) < 0 && errno == EINTR) {
          }
        if (opt.progress) std::cerr << "\n";
        throw_if_interrupted();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      continue;
    }
    if (pid < 0) break;
    auto it = running.find(pid);
    if (it == running.end()) continue;
    const SweepPoint* p = it->second;
    running.erase(it);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      ++ran;
    } else if (failed_code == 0) {
      failed_code = WIFEXITED(status) ? WEXITSTATUS(status) : 3;
      failed = fmt::format("point {} ({}) {}", p->hash, p->values.dump(),
                           WIFEXITED(status) ? fmt::format("exited with status {}", WEXITSTATUS(status))
                                             : fmt::format("was killed by signal {}", WTERMSIG(status)));
    }
    show();
  }
  if (opt.progress) std::cerr << "\n";
  if (failed_code == 2) throw AlreadyReported(2);  // the point's process printed why, and that finished points are kept
  if (failed_code != 0) throw std::runtime_error("sweep: " + failed + "; finished points are kept");
  return ran;
}

// The value a run was given for an axis its point does not set (a list of "points" where one point sets another key):
// an MCA parameter's from the result's provenance.mca, a machine parameter's from provenance.parameters, both as text
// with their unit (an automatic value as given: btl_ugni_smsg_limit 0; what it resolved to is provenance.derived);
// null for a scenario key (ranks, benchmark.sizes: the base's own, not recorded per parameter).
static Json value_used(const Json& result, const std::string& axis) {
  const Json* prov = result.contains("provenance") && result["provenance"].is_object() ? &result["provenance"] : nullptr;
  if (!prov) return {};
  const std::string mca = axis.starts_with("mca.") ? axis.substr(4) : axis;
  for (auto [block, key] : {std::pair{"mca", mca}, std::pair{"parameters", axis}})
    if (auto b = prov->find(block); b != prov->end() && b->is_object())
      if (auto v = b->find(key); v != b->end() && v->is_string()) return *v;
  return {};
}

// A point's result points with the memory its run's mailboxes take (btl/ugni's report, "mailbox_memory": bytes per
// node) beside each, as "mailbox_memory.<field>": what a protocol choice costs besides its time (an SMSG limit at
// 16,384 ranks) is then in the sweep's table, a column per field. A result of a list of rank counts (a list of
// reports) or without the report is left as it is.
static Json with_mailbox_memory(Json points, const Json& result) {
  // smsg_limit: the mailbox's msg_maxsize, which sizes it (btl_ugni_smsg_limit by job size, not capped by the eager
  // limit as the send path's "btl_ugni_smsg_limit (effective)" is): beside the bytes it explains
  static const std::vector<std::string> kFields = {"smsg_limit",         "mailbox_bytes",  "smsg_connected",
                                                   "smsg_connected_allocated", "smsg_connected_max", "smsg_all_peers",
                                                   "msgq_per_node"};
  const Json& mm = result.contains("mailbox_memory") ? result["mailbox_memory"] : Json();
  if (!mm.is_object() || !points.is_array()) return points;
  for (auto& p : points)
    for (const auto& f : kFields)
      if (p.is_object() && mm.contains(f) && mm[f].is_number()) p["mailbox_memory." + f] = mm[f];
  return points;
}

// A point's result points with what its run timed as packet trains (provenance.packet_trains: the scenario key's size,
// the transfers timed as trains and as flows) beside each, as "packet_trains.<field>": a table whose points ran with
// trains says so on every row, and shows where a size let none through. A run without trains is left as it is.
static Json with_packet_trains(Json points, const Json& result) {
  const Json* prov = result.contains("provenance") ? &result["provenance"] : nullptr;
  const Json& t = prov && prov->is_object() && prov->contains("packet_trains") ? (*prov)["packet_trains"] : Json();
  if (!t.is_object() || !points.is_array()) return points;
  for (auto& p : points)
    for (const char* f : {"max_bytes", "trains", "flows"})
      if (p.is_object() && t.contains(f) && t[f].is_number()) p[std::string("packet_trains.") + f] = t[f];
  return points;
}

bool sweep_run_column(const std::string& column) {
  return column.rfind("mailbox_memory.", 0) == 0 || column.rfind("packet_trains.", 0) == 0;
}

Json merge_sweep(const SweepGrid& g, const std::string& out_dir) {
  check_points_dir(out_dir);
  int missing = 0;
  for (auto& p : g.points) missing += !point_done(out_dir, p);
  if (missing)
    throw InputError(out_dir, "points", fmt::format("{} of {} points have no result yet: run the sweep (all its shards, "
                                                    "with the same --set and --engine) first", missing, g.points.size()));
  // Each point's result points (a base with a list of process counts: each names its count, which the result's
  // points do not carry). A point file as the sweep writes it: its hash, a result with a non-empty list of point
  // objects. A file damaged or put there by hand is bad input, named (remove it and the sweep runs that point again).
  std::vector<Json> results;
  std::vector<Json> base_values;  // per point, axis -> the value its run was given where the point leaves it to the base
  // An MCA parameter whose value some point's run resolved to another (an automatic limit picked for the job size, a
  // value capped): a column "<key> (effective)" beside the axes, the value each point's run used (what `run` prints as
  // "# effective values"), so that a sweep over ranks shows btl/ugni's SMSG limit stepping down.
  std::vector<std::map<std::string, double>> used;  // per point
  std::vector<std::string> effective_keys;
  std::optional<std::set<std::string>> unread;  // machine parameters no point's run read (each point's own list)
  for (auto& p : g.points) {
    const Json doc = read_point_file(point_file(out_dir, p), p);
    results.push_back(
        with_packet_trains(with_mailbox_memory(points_with_ranks(doc["result"]), doc["result"]), doc["result"]));
    used.emplace_back();
    for (const EffectiveValue& e : effective_values(doc["result"])) {
      used.back()[e.key] = e.used;
      if (e.used != e.given && std::find(effective_keys.begin(), effective_keys.end(), e.key) == effective_keys.end())
        effective_keys.push_back(e.key);
    }
    base_values.push_back(Json::object());
    for (auto& a : g.axes)
      if (!p.values.contains(a))
        if (Json v = value_used(doc["result"], a); !v.is_null()) base_values.back()[a] = std::move(v);
    std::set<std::string> mine;
    const Json& res = doc["result"];
    // unread by the point's run, or of a component that carried none of its messages: it changed nothing there (a
    // value of the scenario's "mca" block, which an "mca.X" axis sets, under the axis's name)
    if (auto pv = res.find("provenance"); pv != res.end() && pv->is_object())
      for (const char* key : {"unread_overrides", "idle_overrides", "unread_mca", "idle_mca"})
        if (auto u = pv->find(key); u != pv->end() && u->is_array())
          for (auto& k : *u)
            if (k.is_string()) mine.insert((std::string_view(key).ends_with("_mca") ? "mca." : "") + k.get<std::string>());
    if (!unread) {
      unread = std::move(mine);
    } else {
      std::set<std::string> both;
      std::set_intersection(unread->begin(), unread->end(), mine.begin(), mine.end(), std::inserter(both, both.end()));
      unread = std::move(both);
    }
  }
  // only those every point's run reports and whose value used differs between the points: a constant one is the
  // base's, which `run` says; one that some points' stacks do not have is no column of the whole table
  std::erase_if(effective_keys, [&](const std::string& k) {
    bool varies = false;
    for (auto& u : used) {
      if (!u.contains(k)) return true;
      varies = varies || u.at(k) != used.front().at(k);
    }
    return !varies;
  });
  // A result field that is an axis's own quantity ("radix" under "benchmark.radix", "ranks" under "ranks") is that
  // axis's column when it equals the axis's value on every row; where it does not (an axis whose value is a list of
  // radices or process counts, each row one of them), it is a column of its own, "result.<field>".
  std::map<std::string, std::string> field_column;  // result field -> its column ("" dropped: the axis's column)
  for (auto& a : g.axes) {
    const std::string f = axis_result_field(a);
    if (f.empty()) continue;
    bool same = true;
    for (std::size_t i = 0; i < g.points.size(); ++i)
      for (auto& rp : results[i])
        if (rp.contains(f) && (!g.points[i].values.contains(a) || rp[f] != g.points[i].values[a])) same = false;
    field_column[f] = same ? "" : "result." + f;
  }
  Json rows = Json::array();
  std::vector<std::string> columns(g.axes.begin(), g.axes.end());
  auto effective_column = [](const std::string& k) { return k + " (effective)"; };
  for (auto& k : effective_keys) columns.push_back(effective_column(k));
  std::set<std::string> have(columns.begin(), columns.end());
  for (std::size_t i = 0; i < g.points.size(); ++i) {
    const SweepPoint& p = g.points[i];
    for (auto& rp : results[i]) {
      Json row = Json::object();
      for (auto& a : g.axes)
        row[a] = p.values.contains(a) ? p.values[a] : base_values[i].contains(a) ? base_values[i][a] : Json();
      for (auto& k : effective_keys)
        row[effective_column(k)] = used[i].contains(k) ? Json(static_cast<long long>(used[i][k])) : Json();
      for (auto it = rp.begin(); it != rp.end(); ++it) {
        auto fc = field_column.find(it.key());
        std::string c = fc == field_column.end() ? it.key() : fc->second;
        if (c.empty()) continue;  // the axis's column holds it
        if (!have.count(c)) {
          have.insert(c);
          columns.push_back(c);
        }
        row[c] = it.value();
      }
      row["point"] = p.hash;
      rows.push_back(row);
    }
  }
  // after the axes (and the effective values), the fields that name a point, in result_csv's order; then the
  // quantities; a point's protocol counters (an object) last
  const auto first = columns.begin() + static_cast<std::ptrdiff_t>(g.axes.size() + effective_keys.size());
  const auto& naming = naming_columns();
  auto rank_of = [&](const std::string& c) {
    auto it = std::find(naming.begin(), naming.end(), c);
    return it == naming.end() ? naming.size() : static_cast<std::size_t>(it - naming.begin());
  };
  std::stable_sort(first, columns.end(), [&](const std::string& a, const std::string& b) { return rank_of(a) < rank_of(b); });
  std::stable_partition(columns.begin(), columns.end(), [](const std::string& c) { return c != "counters"; });
  columns.push_back("point");
  Json units = axis_units(g.axes, rows);
  for (auto& k : effective_keys) units[effective_column(k)] = "B";
  Json table{{"grid", g.file}, {"axes", g.axes}, {"columns", columns}, {"units", units}, {"rows", rows},
             {"provenance", {{"overrides", g.sets}, {"engine", g.engine.empty() ? Json() : Json(g.engine)}}}};
  if (!g.machine_file.empty()) table["provenance"]["machine_file"] = g.machine_file;
  if (unread && !unread->empty()) table["provenance"]["unread_overrides"] = *unread;
  return table;
}

std::string sweep_csv(const Json& t) {
  auto cell = [](const Json& v) {
    std::string s = v.is_null() ? "" : v.is_string() ? v.get<std::string>() : v.dump();
    if (s.find_first_of(",\"\n") != std::string::npos) {
      std::string q = "\"";
      for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
      return q + "\"";
    }
    return s;
  };
  std::vector<std::string> cols = t.at("columns").get<std::vector<std::string>>();
  std::string out;
  std::vector<std::string> head;
  const Json units = t.value("units", Json::object());
  for (auto& c : cols) head.push_back(cell(units.contains(c) ? fmt::format("{} ({})", c, units[c].get<std::string>()) : c));
  out += fmt::format("{}\n", fmt::join(head, ","));
  for (auto& r : t.at("rows")) {
    std::vector<std::string> v;
    for (auto& c : cols) v.push_back(cell(r.contains(c) ? r[c] : Json()));
    out += fmt::format("{}\n", fmt::join(v, ","));
  }
  return out;
}

}  // namespace ompisim
