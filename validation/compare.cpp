#include "validation/compare.hpp"

#include "benchmarks/driver.hpp"
#include "core/errors.hpp"
#include "core/json_input.hpp"
#include "platform/data_path.hpp"
#include "platform/machine.hpp"
#include "runner/isolate.hpp"
#include "runner/registries.hpp"
#include "runner/report.hpp"
#include "runner/run.hpp"
#include "runner/schema.hpp"
#include "runner/sweep.hpp"
#include "protocols/register.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>

namespace fs = std::filesystem;

namespace ompisim::validation {

namespace {

// The fields that place a point on its curve (the x axes of the drivers); any text field is one too.
const std::set<std::string> kAxes = {"bytes", "ranks", "radix", "algorithm", "size", "side", "app", "stack", "nodes",
                                     "window", "ranks_per_node", "pairs", "iterations"};

// Text fields that say how a point was computed, not where it lies (the steady-state rule that ended its loop): not
// part of its label, so the same point under another rule is still the same point.
const std::set<std::string> kNotAxes = {"steady_state_rule"};

bool is_axis(const std::string& k, const Json& v) {
  return !kNotAxes.count(k) && (kAxes.count(k) || v.is_string() || v.is_boolean());
}
bool is_number(const Json& v) { return v.is_number() && !v.is_boolean(); }

std::string point_label(const Json& p) {
  std::string s;
  for (auto it = p.begin(); it != p.end(); ++it)
    if (is_axis(it.key(), it.value()) && !it.value().is_object() && !it.value().is_array()) {
      if (!s.empty()) s += ' ';
      s += it.key() + "=" + (it.value().is_string() ? it.value().get<std::string>() : it.value().dump());
    }
  return s;
}

bool differs(double a, double b, double tol) {
  if (a == b) return false;
  return std::fabs(b - a) > tol * std::max(std::fabs(a), std::fabs(b));
}

// Numeric leaves of an object (nested objects flattened with dots; arrays skipped), for "stats".
void numeric_leaves(const Json& j, const std::string& prefix, std::map<std::string, double>& out) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (is_number(it.value())) out[prefix + it.key()] = it.value().get<double>();
    else if (it.value().is_object()) numeric_leaves(it.value(), prefix + it.key() + ".", out);
  }
}

// A metric that one side's points have and the other's lack: (side 'A' or 'B', metric) -> the points, said once per
// file (a sweep column such as "<parameter> (effective)" that one table has is one difference, not one per row).
using OneSideMetrics = std::map<std::pair<char, std::string>, std::vector<std::string>>;

// `absent_is_zero`: a key on one side only counts as 0 on the other (statistics: counters are reported when non-zero);
// else it is a structural difference, recorded in `one_side` when given, else said for this point.
void compare_maps(const std::map<std::string, double>& a, const std::map<std::string, double>& b,
                  const std::string& file, const std::string& point, Comparison& out, bool absent_is_zero = false,
                  OneSideMetrics* one_side = nullptr) {
  auto only = [&](char side, const std::string& k) {
    if (one_side) (*one_side)[{side, k}].push_back(point);
    else out.problems.push_back(fmt::format("{}: {}: '{}' only in {}", file, point, k, side));
  };
  for (auto& [k, va] : a) {
    auto it = b.find(k);
    if (it == b.end() && !absent_is_zero) {
      only('A', k);
      continue;
    }
    const double vb = it == b.end() ? 0.0 : it->second;
    out.rows.push_back({file, point, k, va, vb, differs(va, vb, out.tolerance)});
  }
  for (auto& [k, vb] : b) {
    if (a.count(k)) continue;
    if (absent_is_zero) out.rows.push_back({file, point, k, 0.0, vb, differs(0.0, vb, out.tolerance)});
    else only('B', k);
  }
}

// The metrics of one side only, one line each: at its one point, or at how many and the first.
void report_one_side(const OneSideMetrics& m, const std::string& file, Comparison& out) {
  for (const auto& [key, points] : m)
    out.problems.push_back(points.size() == 1
                               ? fmt::format("{}: {}: '{}' only in {}", file, points[0], key.second, key.first)
                               : fmt::format("{}: '{}' only in {}, at {} points (the first: {})", file, key.second,
                                             key.first, points.size(), points[0]));
}

std::map<std::string, double> metrics(const Json& p) {
  std::map<std::string, double> m;
  for (auto it = p.begin(); it != p.end(); ++it)
    if (is_number(it.value()) && !kAxes.count(it.key())) m[it.key()] = it.value().get<double>();
  return m;
}

bool is_result(const Json& j) { return j.is_object() && j.contains("points") && j["points"].is_array(); }

// The table `ompisim validate --json` writes (reproduce's validation.json): points of every paper, claims, held-out
// values. Not a scenario's result: it has no scenario of its own to rerun.
bool is_validation_table(const Json& j) {
  return j.is_object() && j.contains("claims") && j.contains("held_out") && j.contains("points") &&
         !j.contains("provenance");
}

// A result file's top-level keys are those the tool writes: a scenario's result (runner/schema.hpp result_keys, and
// its driver's own axis as a list under the axis's name, "radix": [2, 4, 8], which the result schema allows too) or a
// validation table (its sections, validation_schema). Any other key is refused naming the file and the key, with
// the closest known key: a hand-edited or foreign file is not compared as if the key were not there.
void check_result_keys(const Json& j, const std::string& path) {
  std::vector<std::string> known;
  const bool table = is_validation_table(j);
  if (table) {
    const Json schema = validation_schema();
    for (auto it = schema.at("properties").begin(); it != schema.at("properties").end(); ++it) known.push_back(it.key());
  } else {
    for (const ResultKey& k : result_keys()) known.emplace_back(k.name);
  }
  const bench::DriverInfo* driver =
      !table && j.contains("benchmark") && j["benchmark"].is_string()
          ? bench::driver_registry().find(j["benchmark"].get<std::string>())
          : nullptr;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& k = it.key();
    if (std::find(known.begin(), known.end(), k) != known.end()) continue;
    if (driver && it.value().is_array() &&
        std::any_of(driver->params.begin(), driver->params.end(), [&](const auto& p) { return p.name == k; }))
      continue;  // the driver's axis
    const std::string hint = did_you_mean(k, known);
    throw InputError(path, k, hint.empty() ? fmt::format("unknown key ({} has: {})",
                                                         table ? "a validation table" : "a result", fmt::join(known, ", "))
                                           : fmt::format("unknown key (did you mean '{}'?)", hint));
  }
}

// A sweep's merged table (sweep.json: "grid", "axes", "columns", "rows"), compared as a result whose points are its
// rows: each row's axis values are text, so they name the point with its size (bytes, ranks), and the rows of two
// sweeps of one grid pair by them; the point hash is dropped (another --set or build gives other hashes).
bool is_sweep_table(const Json& j) {
  return j.is_object() && j.contains("grid") && j.contains("axes") && j["axes"].is_array() && j.contains("rows") &&
         j["rows"].is_array() && j.contains("columns");
}
Json sweep_as_result(const Json& t) {
  Json r{{"points", Json::array()}};
  if (t.contains("provenance")) r["provenance"] = t["provenance"];
  std::set<std::string> seen;  // points whose run's columns were kept (on their first row)
  for (auto& row : t["rows"]) {
    Json p = row;
    // a value of the point's run (its mailbox memory), repeated on each of its rows: compared once, on its first row
    if (p.is_object() && p.contains("point") && !seen.insert(p["point"].dump()).second)
      for (auto it = p.begin(); it != p.end();)
        it = sweep_run_column(it.key()) ? p.erase(it) : std::next(it);
    p.erase("point");
    for (auto& a : t["axes"])
      if (a.is_string() && p.contains(a.get<std::string>())) {
        Json& v = p[a.get<std::string>()];
        v = v.is_string() ? v : Json(v.dump());
      }
    r["points"].push_back(std::move(p));
  }
  return r;
}

// The run's statistics: numbers, or objects of them (counters by name), each leaf compared as a value; a text or a
// list there is a damaged file, not a value of 0 or a difference.
void check_numbers(const Json& v, const std::string& path, const std::string& key) {
  if (v.is_number()) return;
  if (!v.is_object()) throw InputError(path, key, fmt::format("must be a number or an object of numbers, not {}", v.dump()));
  for (auto it = v.begin(); it != v.end(); ++it) check_numbers(it.value(), path, key + "." + it.key());
}

// A result read from `path` (a result or a sweep's table, as a result), checked; `option` names where it was given.
Json result_of(Json j, const std::string& path, const std::string& option) {
  if (is_sweep_table(j)) {  // its rows checked as a result's points are (objects, quantities as numbers)
    for (std::size_t i = 0; i < j["axes"].size(); ++i)
      if (!j["axes"][i].is_string())
        throw InputError(path, fmt::format("axes[{}]", i), "must be a string (the name of an axis of the grid)");
    for (std::size_t i = 0; i < j["rows"].size(); ++i)
      if (!j["rows"][i].is_object())
        throw InputError(path, fmt::format("rows[{}]", i), "must be an object (a row of a sweep's table)");
    Json r = sweep_as_result(j);
    check_result_points(r, path, "rows");
    return r;
  }
  if (!is_result(j))
    throw InputError::of_argument(option, path,
                     j.is_object() && j.contains("hash") && j.contains("result")
                         ? std::string("a sweep's point file, named by its input's hash: compare the two sweeps' "
                                       "sweep.json files (or their folders), which pair the points by their axes")
                     : j.is_object() && j.contains("points")
                         ? std::string("its \"points\" is not a list of points (a result's points are a JSON array of "
                                       "objects)")
                     : j.is_object() && j.contains("benchmark")
                         ? std::string("a scenario, not a result: `ompisim run` it, then compare the result JSON it "
                                       "writes (or `compare --against DIR`, which reruns the scenarios of a results "
                                       "folder)")
                         : std::string("not an ompisim result (no \"points\" list) nor a sweep's sweep.json"));
  check_result_keys(j, path);
  check_result_points(j, path, "points");
  if (j.contains("stats") && !j["stats"].is_object())  // compared leaf by leaf (numeric_leaves)
    throw InputError(path, "stats", "must be an object (the run's statistics and protocol counters)");
  if (j.contains("stats")) check_numbers(j["stats"], path, "stats");
  return j;
}

// Two files compared with each other: both results or both sweep tables. A run's result against a sweep's table has
// no point in common (a table's points carry the grid's axes), so the pair is refused rather than listed point by point.
void compare_files(const std::string& fa, const std::string& fb, const std::string& label, Comparison& c) {
  Json ja = load_json_file(fa), jb = load_json_file(fb);
  if (is_sweep_table(ja) != is_sweep_table(jb) && (is_result(ja) || is_result(jb))) {
    const bool a_table = is_sweep_table(ja);
    throw InputError::of_argument(
        "compare", a_table ? fb : fa,
        fmt::format("a run's result, compared with a sweep's table ({}): they share no point (the table's points carry "
                    "the grid's axes); compare a result with a result, or a sweep.json with a sweep.json",
                    a_table ? fa : fb));
  }
  compare_results(result_of(std::move(ja), fa, "compare"), result_of(std::move(jb), fb, "compare"), label, c);
}

// Every result JSON below dir, by relative path.
}  // namespace

namespace {
// A Chrome trace-event file as `run --trace FILE.json` writes it (core/trace_chrome.cpp: it opens with
// {"traceEvents":[), told by its first bytes: a trace may be far larger than the input limit.
bool is_chrome_trace(const std::string& path) {
  static constexpr std::string_view kOpening = "{\"traceEvents\":[";
  std::ifstream in(path, std::ios::binary);
  std::string head(kOpening.size(), '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  return in.gcount() == static_cast<std::streamsize>(kOpening.size()) && head == kOpening;
}
}  // namespace

std::map<std::string, std::string> results_below(const std::string& dir, std::map<std::string, std::string>* unreadable) {
  std::map<std::string, std::string> out;
  for (auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file() || e.path().extension() != ".json") continue;
    if (is_chrome_trace(e.path().string())) continue;  // `run --trace t.json` beside its result: not a result
    Json j;
    try {
      j = load_json_file(e.path().string());
    } catch (const InputError& err) {  // not JSON we can read: not a result, said to a caller that pairs files
      if (unreadable) (*unreadable)[fs::relative(e.path(), dir).string()] = err.what();
      continue;
    }
    // a result, or a sweep's table (its points/ files, named by hash, pair through it)
    if (is_result(j) || is_sweep_table(j)) out[fs::relative(e.path(), dir).string()] = e.path().string();
  }
  return out;
}

namespace {

// --against given what is not a folder: says what it is (missing, a result file, another file) and what takes it.
[[noreturn]] void refuse_against(const std::string& dir, const std::string& found) {
  std::error_code ec;
  if (!fs::exists(found, ec))
    throw InputError("--against", dir, fs::path(dir).is_absolute() ? std::string("no such folder")
                                       : fmt::format("no such folder (neither here nor in {})", data_dir()));
  if (!fs::is_regular_file(found, ec))
    throw InputError("--against", dir, "is not a folder (a special file): give the folder of the results to rerun");
  bool result = false;
  try {
    result = is_result(load_json_file(found));
  } catch (const InputError&) {  // not JSON, or too large: a file of another kind
  }
  if (!result)
    throw InputError("--against", dir, "is a file, not a folder of results: give the folder of the results to rerun");
  const fs::path p(found);
  throw InputError("--against", dir,
                   fmt::format("is a result file, not a folder of results: rerun its scenario with --against {} --only "
                               "{}, or compare it with another result file as `ompisim compare A B`",
                               p.has_parent_path() ? p.parent_path().string() : std::string("."), p.filename().string()));
}

// ", and N .json files that do not load (the first: why)" where a folder has such files.
std::string unread_text(const std::map<std::string, std::string>& unreadable) {
  if (unreadable.empty()) return "";
  return fmt::format(", and {} .json file{} that do not load (the first: {})", unreadable.size(),
                     unreadable.size() == 1 ? "" : "s", unreadable.begin()->second);
}

}  // namespace

int Comparison::beyond() const {
  return static_cast<int>(std::count_if(rows.begin(), rows.end(), [](const CompareRow& r) { return r.beyond; }));
}

namespace {
// "<stack> on <machine>" of a result ("?" for a missing one): two results of one stack on one machine report the same
// counters.
std::string stack_on_machine(const Json& r) {
  auto text = [&r](const char* k) { return r.contains(k) && r[k].is_string() ? r[k].get<std::string>() : "?"; };
  return fmt::format("{} on {}", text("stack"), text("machine"));
}

// The counters a result's stack declares ("counters.<name>": its components' statistics, provenance.components), or
// nothing for a result that does not name its components.
std::optional<std::set<std::string>> declared_counters(const Json& r) {
  if (!r.contains("provenance") || !r["provenance"].is_object() || !r["provenance"].contains("components") ||
      !r["provenance"]["components"].is_array())
    return std::nullopt;
  std::set<std::string> out;
  for (const auto& id : r["provenance"]["components"]) {
    if (!id.is_string()) return std::nullopt;
    const std::string s = id.get<std::string>();
    const auto slash = s.find('/');
    const ComponentInfo* c =
        slash == std::string::npos ? nullptr : component_registry().find(s.substr(0, slash), s.substr(slash + 1));
    if (!c) return std::nullopt;  // a component of another build: the declared set is not known
    for (const auto& st : c->statistics) out.insert(std::string("counters.") + st.name);
  }
  return out;
}

// The counters both results' stacks report: those both stacks declare, else (a result that does not name its
// components) those both run totals carry. Two stacks compare only these.
std::set<std::string> shared_counters(const Json& a, const Json& b) {
  std::set<std::string> out;
  const auto da = declared_counters(a), db = declared_counters(b);
  if (da && db) {
    std::set_intersection(da->begin(), da->end(), db->begin(), db->end(), std::inserter(out, out.end()));
    return out;
  }
  if (!a.contains("stats") || !b.contains("stats")) return out;
  std::map<std::string, double> sa, sb;
  numeric_leaves(a["stats"], "", sa);
  numeric_leaves(b["stats"], "", sb);
  for (const auto& [k, v] : sa)
    if (k.starts_with("counters.") && sb.count(k)) out.insert(k);
  return out;
}

// A point's protocol counters (the OSU point-to-point drivers' "counters": what moved during its size), where both
// points carry them: a counter one side lacks moved 0 times there. Two stacks compare the counters both stacks report
// (`shared`, or both points name), so a size where one stack took a path the other did not (rendezvous against
// eager) shows both counters, each 0 on one side.
void compare_point_counters(const Json& pa, const Json& pb, const std::set<std::string>* shared,
                            const std::string& file, const std::string& label, Comparison& out) {
  if (!pa.contains("counters") || !pb.contains("counters") || !pa["counters"].is_object() || !pb["counters"].is_object())
    return;
  std::map<std::string, double> ca, cb;
  numeric_leaves(pa["counters"], "counters.", ca);
  numeric_leaves(pb["counters"], "counters.", cb);
  if (shared) {
    auto kept = [&](const std::string& k) { return shared->count(k) || (ca.count(k) && cb.count(k)); };
    std::erase_if(ca, [&](const auto& kv) { return !kept(kv.first); });
    std::erase_if(cb, [&](const auto& kv) { return !kept(kv.first); });
  }
  compare_maps(ca, cb, file, label, out, true);
}
// The run totals (stats: counters, flows, events) of two results, leaf by leaf; counters one stack alone reports
// listed apart; the label says the calls each side simulated where the steady-state cutoff made them differ.
void compare_stats(const Json& a, const Json& b, const Json& pa, const Json& pb, const std::set<std::string>& shared,
                   const std::string& file, Comparison& out) {
  if (!a.contains("stats") || !b.contains("stats")) return;
  std::map<std::string, double> sa, sb;
  numeric_leaves(a["stats"], "", sa);
  numeric_leaves(b["stats"], "", sb);
  // One stack on one machine reports the same counters, a zero "once counted" one left out: absent is 0. Two
  // stacks (or machines) report their own components' counters: one that both declare (`shared`) is absent at 0,
  // one that only one side reports is listed apart.
  const std::string wa = stack_on_machine(a), wb = stack_on_machine(b);
  if (wa != wb) {
    const std::size_t before = out.one_side.size();
    auto split = [&](std::map<std::string, double>& mine, const std::map<std::string, double>& other, char side) {
      for (auto it = mine.begin(); it != mine.end();) {
        if (it->first.starts_with("counters.") && !other.count(it->first) && !shared.count(it->first)) {
          out.one_side.push_back({file, it->first, side, it->second});
          it = mine.erase(it);
        } else {
          ++it;
        }
      }
    };
    split(sa, sb, 'A');
    split(sb, sa, 'B');
    if (out.one_side.size() > before) out.one_side_stacks.push_back(fmt::format("{}: A {}, B {}", file, wa, wb));
  }
  // The run totals count simulated calls only: where the steady-state cutoff stopped the two runs after other numbers
  // of calls, the totals differ by that too, which their rows and a note say.
  auto calls = [](const Json& pts) {
    double n = 0;
    for (const auto& p : pts) {
      if (!p.is_object() || !p.contains("calls_simulated") || !p["calls_simulated"].is_number()) return -1.0;
      n += p["calls_simulated"].get<double>();
    }
    return pts.empty() ? -1.0 : n;
  };
  const double ca = calls(pa), cb = calls(pb);
  std::string label = "stats";
  if (ca >= 0 && cb >= 0 && ca != cb) {
    label = fmt::format("stats ({:g} vs {:g} calls)", ca, cb);
    out.notes.push_back(fmt::format("{}: A simulated {:g} calls, B {:g} (the steady-state cutoff stops each size when "
                                    "two calls agree: calls_simulated): the run totals under stats count simulated "
                                    "calls only, so they differ by that as well",
                                    file, ca, cb));
  }
  compare_maps(sa, sb, file, label, out, true);
}

}  // namespace

void compare_results(const Json& a, const Json& b, const std::string& file, Comparison& out) {
  ++out.files;
  // A result of several rank counts has its points one count after the other: each labelled with its count.
  const Json pa = points_with_ranks(a), pb = points_with_ranks(b);
  const bool one_stack = stack_on_machine(a) == stack_on_machine(b);
  const std::set<std::string> shared = shared_counters(a, b);
  const std::set<std::string>* counters_of_both = one_stack ? nullptr : &shared;
  OneSideMetrics one_side;
  // Pair by label when the labels identify the points on both sides, else by position.
  std::function<std::string(const Json&)> label_of = point_label;
  std::map<std::string, std::size_t> la, lb;
  auto label_all = [&] {
    la.clear(), lb.clear();
    for (std::size_t i = 0; i < pa.size(); ++i) la[label_of(pa[i])] = i;
    for (std::size_t i = 0; i < pb.size(); ++i) lb[label_of(pb[i])] = i;
  };
  label_all();
  auto share_none = [&] {
    return std::none_of(la.begin(), la.end(), [&](const auto& l) { return lb.count(l.first) > 0; });
  };
  // Two stacks whose points name what differs between them: the collective libraries chose other algorithms at the
  // same sizes (Open MPI's nonoverlapping against Cray MPICH's recursive doubling), or each point names its stack (an
  // application skeleton's): the points are paired by the rest of their label, what differed said in a note.
  if (!one_stack && la.size() == pa.size() && lb.size() == pb.size() && !pa.empty() && !pb.empty() && share_none()) {
    label_of = [](const Json& p) {
      Json q = p;
      if (q.is_object()) q.erase("algorithm"), q.erase("stack");
      return point_label(q);
    };
    label_all();
    if (la.size() == pa.size() && lb.size() == pb.size() && !share_none()) {
      auto names = [](const Json& pts, const char* key) {
        std::set<std::string> n;
        for (const auto& p : pts)
          if (p.is_object() && p.contains(key) && p[key].is_string()) n.insert(p[key]);
        return n.empty() ? std::string("none named") : fmt::format("{}", fmt::join(n, ", "));
      };
      if (names(pa, "algorithm") != names(pb, "algorithm"))
        out.notes.push_back(fmt::format("{}: the two stacks ran other algorithms (A: {}; B: {}): points paired by the "
                                        "rest of their axes, each side's time with its own algorithm",
                                        file, names(pa, "algorithm"), names(pb, "algorithm")));
      else
        out.notes.push_back(fmt::format("{}: each point names its stack (A: {}; B: {}): points paired by the rest of "
                                        "their axes",
                                        file, names(pa, "stack"), names(pb, "stack")));
    } else {
      label_of = point_label;
      label_all();
    }
  }
  if (la.size() == pa.size() && lb.size() == pb.size() && !pa.empty() && !pb.empty() && share_none()) {
    // two results that share no point (two sweeps over other axes): one difference saying so, not one line per point
    out.problems.push_back(fmt::format("{}: no point of A is a point of B ({} point{} in A, {} in B; A's first: {}; "
                                       "B's first: {}): other axes or values, nothing compared",
                                       file, pa.size(), pa.size() == 1 ? "" : "s", pb.size(), point_label(pa[0]),
                                       point_label(pb[0])));
  } else if (la.size() == pa.size() && lb.size() == pb.size()) {
    for (std::size_t i = 0; i < pa.size(); ++i) {  // in A's order
      const std::string label = label_of(pa[i]);
      auto it = lb.find(label);
      if (it == lb.end()) {
        out.problems.push_back(fmt::format("{}: point {} only in A", file, label));
        continue;
      }
      compare_maps(metrics(pa[i]), metrics(pb[it->second]), file, label, out, false, &one_side);
      compare_point_counters(pa[i], pb[it->second], counters_of_both, file, label, out);
    }
    for (std::size_t i = 0; i < pb.size(); ++i)  // in B's order (sizes ascending), not the labels' text order
      if (!la.count(label_of(pb[i]))) out.problems.push_back(fmt::format("{}: point {} only in B", file, label_of(pb[i])));
  } else {
    if (pa.size() != pb.size())
      out.problems.push_back(fmt::format("{}: {} points in A, {} in B", file, pa.size(), pb.size()));
    for (std::size_t i = 0; i < std::min(pa.size(), pb.size()); ++i) {
      std::string l = point_label(pa[i]);
      if (l != point_label(pb[i]))
        out.problems.push_back(fmt::format("{}: point {}: '{}' in A, '{}' in B", file, i, l, point_label(pb[i])));
      compare_maps(metrics(pa[i]), metrics(pb[i]), file, fmt::format("#{} {}", i, l), out, false, &one_side);
      compare_point_counters(pa[i], pb[i], counters_of_both, file, fmt::format("#{} {}", i, l), out);
    }
  }
  report_one_side(one_side, file, out);
  compare_stats(a, b, pa, pb, shared, file, out);
  // Two results run with other approximations (packet trains up to another size, another solve window): their values
  // differ by the approximation too, said once.
  for (auto [key, field, dim] : {std::tuple{"packet_trains", "max_bytes", Dim::Bytes},
                                  std::tuple{"engine_window", "window_s", Dim::Time}}) {
    auto setting = [&](const Json& r) -> std::string {  // the setting's value as the provenance has it, or "none"
      const auto pv = r.find("provenance");
      if (pv == r.end() || !pv->is_object()) return "none";
      const auto v = pv->find(key);
      if (v == pv->end() || !v->is_object() || !v->contains(field) || !(*v)[field].is_number()) return "none";
      return format_quantity((*v)[field].get<double>(), dim);
    };
    if (const std::string sa = setting(a), sb = setting(b); sa != sb)
      out.notes.push_back(fmt::format("{}: run with other {} (A: {}; B: {}): the values differ by that approximation too",
                                      file, key, sa, sb));
  }
  // The memory a protocol choice costs (btl/ugni's mailboxes: mailbox_memory, one object, or one per rank count) is
  // the other side of its latency: compared where both results have it.
  if (a.contains("mailbox_memory") && b.contains("mailbox_memory")) {
    std::map<std::string, double> ma, mb;
    auto leaves = [](const Json& r, std::map<std::string, double>& m) {
      const Json& mm = r.contains("mailbox_memory") ? r["mailbox_memory"] : Json();
      if (mm.is_object()) numeric_leaves(mm, "", m);
      if (mm.is_array())
        for (std::size_t i = 0; i < mm.size(); ++i)
          if (mm[i].is_object()) numeric_leaves(mm[i], fmt::format("[{}].", i), m);
    };
    leaves(a, ma);
    leaves(b, mb);
    compare_maps(ma, mb, file, "mailbox_memory", out);
  }
}

Comparison compare_paths(const std::string& a, const std::string& b, double tolerance) {
  Comparison c;
  c.tolerance = tolerance;
  std::error_code ec;
  for (auto& [p, opt] : {std::pair{a, std::string("A")}, std::pair{b, std::string("B")}})
    if (!fs::exists(p, ec)) throw InputError::of_argument("compare", p, fmt::format("{}: no such file or folder", opt));
  const bool da = fs::is_directory(a, ec), db = fs::is_directory(b, ec);
  if (da != db) {
    // a run folder (`run` writes one result into ompisim-out/<id>/) against a result file: its one result, said in a
    // note; a folder of several results cannot be paired with one file
    const std::string& dir = da ? a : b;
    const auto rd = results_below(dir);
    if (rd.size() != 1)
      throw InputError::of_argument("compare", dir,
                       fmt::format("A is a {} and B a {}, and the folder holds {} results: compare two result files or "
                                   "two folders",
                                   da ? "folder" : "file", db ? "folder" : "file", rd.size()));
    const std::string& path = rd.begin()->second;
    c.notes.push_back(fmt::format("the folder {} holds one result, {}: compared with the file {}", dir,
                                  rd.begin()->first, da ? b : a));
    const std::string fa = da ? path : a, fb = db ? path : b;
    compare_files(fa, fb, fs::path(fa).filename().string(), c);
    return c;
  }
  if (!da) {
    compare_files(a, b, fs::path(a).filename().string(), c);
    return c;
  }
  std::map<std::string, std::string> ua, ub;  // .json files that do not load, by relative path: why
  auto ra = results_below(a, &ua), rb = results_below(b, &ub);
  // A file that is a result on one side and does not load on the other is a broken result, not a missing one.
  for (auto [mine, other, dir] : {std::tuple{&ua, &rb, &b}, std::tuple{&ub, &ra, &a}})
    for (auto& [rel, why] : *mine)
      if (other->count(rel))
        throw InputError("", "", fmt::format("{} (its counterpart {} in {} is a result: compare needs both)", why, rel, *dir));
  for (auto& [rel, why] : ua) c.notes.push_back(fmt::format("{}: not compared, does not load in A: {}", rel, why));
  for (auto& [rel, why] : ub) c.notes.push_back(fmt::format("{}: not compared, does not load in B: {}", rel, why));
  if (ra.empty()) throw InputError::of_argument("compare", a, "no result JSON below this folder" + unread_text(ua));
  if (rb.empty()) throw InputError::of_argument("compare", b, "no result JSON below this folder" + unread_text(ub));
  // Two run folders of one result each under different names (`run` names a result by its scenario's id): the two
  // results, as two files would be, said in a note; folders otherwise pair their results by path.
  if (ra.size() == 1 && rb.size() == 1 && ra.begin()->first != rb.begin()->first) {
    const auto& [rel_a, path_a] = *ra.begin();
    const auto& [rel_b, path_b] = *rb.begin();
    c.notes.push_back(fmt::format("one result in each folder, under different names: {} (A) compared with {} (B)",
                                  rel_a, rel_b));
    compare_files(path_a, path_b, rel_a + " | " + rel_b, c);
    return c;
  }
  for (auto& [rel, path] : ra) {
    auto it = rb.find(rel);
    if (it == rb.end()) {
      c.problems.push_back(rel + ": only in A");
      continue;
    }
    compare_files(path, it->second, rel, c);
  }
  for (auto& [rel, path] : rb)
    if (!ra.count(rel)) c.problems.push_back(rel + ": only in B");
  return c;
}


namespace {

// A what-if's result (run with --set, --machine-file or --engine) is rerun as it was run, from what its provenance
// stored: its overrides (`stored`, before the --set given to compare, which wins on the same key), its machine file
// when it is not the machine's shipped one, and its engine unless --engine is given. `said` names each part for a
// note. Returns why the result cannot be rerun so ("" when it can).
std::string as_run(const Json& prov, Scenario& s, bool engine_given, Overrides& stored, std::vector<std::string>& said) {
  if (prov.contains("overrides")) {
    const Json& o = prov["overrides"];
    if (!o.is_array()) return "provenance.overrides is not a list of [key, value] pairs";
    for (const Json& kv : o) {
      if (!kv.is_array() || kv.size() != 2 || !kv[0].is_string() || !kv[1].is_string())
        return "provenance.overrides holds an entry that is not a [key, value] pair of strings";
      stored.emplace_back(kv[0].get<std::string>(), kv[1].get<std::string>());
      said.push_back(fmt::format("--set {}={}", stored.back().first, stored.back().second));
    }
  }
  if (prov.contains("machine_file")) {
    if (!prov["machine_file"].is_string()) return "provenance.machine_file is not a path (a string)";
    const std::string mf = prov["machine_file"].get<std::string>();
    const std::string shipped = find_machine_file(s.machine);
    if (shipped.empty() || repo_relative(shipped) != mf) {
      if (fs::path(mf).extension() != ".json") return fmt::format("its machine file {} is not a .json file", mf);
      // as stored: repository-relative, else as the user gave it to run (relative to the folder run was started in)
      const std::string path = data_path(mf);
      std::error_code ec;
      if (!fs::is_regular_file(path, ec))
        return fmt::format("it was run with the machine file {}, which is not here (compare from the folder run was "
                           "started in)", mf);
      s.machine_file = path;
      said.push_back("--machine-file " + mf);
    }
  }
  if (!engine_given && prov.contains("engine")) {
    if (!prov["engine"].is_string()) return "provenance.engine is not an engine name (a string)";
    const std::string e = prov["engine"].get<std::string>();
    if (e != s.engine) {
      if (!engines().find(e)) return fmt::format("it was run on the engine '{}', which this build does not have", e);
      s.engine = e;
      said.push_back("--engine " + e);
    }
  }
  return "";
}

// The scenario file a result's provenance names, inside the repository relative to it.
std::string scenario_path(const Json& committed) {
  std::string file = committed["provenance"]["scenario_file"].get<std::string>();
  if (!fs::path(file).is_absolute()) file = data_dir() + "/" + file;
  return file;
}

// The MCA --set keys each rerun's stack does not read (by todo's order; a result whose scenario is missing: none), so
// that each is rerun without them and noted. A key that no stack reads would compare every result with itself: refused
// before any run, as run refuses it.
std::vector<std::set<std::string>> sets_unread_by_stack(const std::vector<std::pair<std::string, Json>>& todo,
                                                        const Overrides& sets) {
  std::vector<std::set<std::string>> unread(todo.size());
  std::error_code ec;
  for (auto& [k, v] : sets) {
    if (!mca_owner(k)) continue;
    std::string why;
    std::size_t checked = 0, refused = 0;
    for (std::size_t i = 0; i < todo.size(); ++i) {
      const std::string file = scenario_path(todo[i].second);
      if (!fs::exists(file, ec)) continue;
      ++checked;
      try {
        check_mca_names(load_scenario(file), {k}, "--set");
      } catch (const InputError& e) {
        unread[i].insert(k);
        if (why.empty()) why = fmt::format("{}: {}", todo[i].first, e.reason());
        ++refused;
      }
    }
    if (checked && refused == checked)
      throw InputError("--set", k, fmt::format("no result rerun here has a stack that reads it, so each would be "
                                               "compared with itself ({}{})", why,
                                               refused > 1 ? fmt::format(", and {} more", refused - 1) : ""));
  }
  return unread;
}

}  // namespace

Comparison compare_against(const std::string& dir, double tolerance, const std::string& only, const Overrides& sets,
                           const std::function<void(std::size_t, std::size_t, const std::string&)>& progress,
                           const std::string& engine) {
  Comparison c;
  {
    Scenario probe;
    set_engine(probe, engine);  // an unknown engine fails before any run
  }
  c.tolerance = tolerance;
  std::error_code ec;
  // As given, else in the tool's data (an installed tool's share/ompisim/results: the committed results).
  const std::string folder = data_path(dir);
  if (!fs::is_directory(folder, ec)) refuse_against(dir, folder);
  std::vector<std::pair<std::string, Json>> todo;
  for (auto& [rel, path] : results_below(folder)) {
    // --only matches the result's path below the folder, or the scenario file it was run from: a user names the
    // scenario (scenarios/gemini/fig5_latency_2p_inter_openmpi.json), not its result (gemini/fig5_...json).
    const bool path_match = only.empty() || rel.find(only) != std::string::npos;
    Json raw = load_json_file(path);
    if (is_sweep_table(raw)) {  // its points are results of a grid, not of one scenario
      if (path_match) c.notes.push_back(rel + ": a sweep's table (ompisim sweep GRID reruns its points): not rerun");
      continue;
    }
    Json j = result_of(std::move(raw), path, "--against");
    const Json& prov = j.value("provenance", Json::object());
    // a result's name is its scenario's id, which may differ from its file's: the scenario file's path is matched too
    if (!path_match && !(prov.contains("scenario_file") && prov["scenario_file"].is_string() &&
                         prov["scenario_file"].get<std::string>().find(only) != std::string::npos))
      continue;
    if (is_validation_table(j)) {  // derived from the scenario results rerun here: `ompisim validate` recomputes it
      c.notes.push_back(rel + ": a validation table (ompisim validate), made from the scenario results: not rerun");
      continue;
    }
    if (!prov.contains("scenario_file") || !prov["scenario_file"].is_string()) {
      c.problems.push_back(rel + (prov.contains("scenario_file") ? ": provenance.scenario_file is not a path (a string)"
                                                                 : ": no provenance.scenario_file") + ": not rerun");
      continue;
    }
    // A result's provenance is input too: only a scenario file is read from it.
    if (const std::string sf = prov["scenario_file"].get<std::string>(); fs::path(sf).extension() != ".json") {
      c.problems.push_back(fmt::format("{}: its scenario {} is not a .json file: not rerun", rel, sf));
      continue;
    }
    todo.emplace_back(rel, std::move(j));
  }
  if (todo.empty() && c.notes.empty() && !c.problems.empty())  // results found, none with a scenario to rerun
    throw InputError("--against", dir, c.problems.size() == 1 ? c.problems.front()
                                       : fmt::format("{} (and {} more)", c.problems.front(), c.problems.size() - 1));
  if (todo.empty() && c.notes.empty())
    throw InputError("--against", dir, only.empty() ? "no result JSON with a scenario below this folder"
                                                    : fmt::format("no result path or scenario file contains '{}' (--only)", only));
  const std::vector<std::set<std::string>> unread_by_stack = sets_unread_by_stack(todo, sets);
  for (std::size_t i = 0; i < todo.size(); ++i) {
    auto& [rel, committed] = todo[i];
    if (progress) progress(i, todo.size(), rel);
    const std::string file = scenario_path(committed);
    if (!fs::exists(file, ec)) {
      c.problems.push_back(fmt::format("{}: its scenario {} does not exist", rel, file));
      continue;
    }
    Scenario s = load_scenario(file);
    set_engine(s, engine);
    Overrides stored, run_sets;
    std::vector<std::string> said;
    if (const std::string why = as_run(committed["provenance"], s, !engine.empty(), stored, said); !why.empty()) {
      c.problems.push_back(fmt::format("{}: {}: not rerun", rel, why));
      continue;
    }
    if (!said.empty())
      c.notes.push_back(fmt::format("{}: a what-if, rerun as it was run: {}", rel, fmt::join(said, ", ")));
    for (auto& kv : stored) {
      auto given = std::find_if(sets.begin(), sets.end(), [&](auto& g) { return g.first == kv.first; });
      if (given == sets.end()) run_sets.push_back(kv);
      else c.notes.push_back(fmt::format("{}: its stored --set {}={} is replaced by the --set {}={} given here", rel,
                                         kv.first, kv.second, given->first, given->second));
    }
    run_sets.insert(run_sets.end(), sets.begin(), sets.end());
    // An MCA --set this scenario's stack does not read is left out of its rerun, said per file (as run refuses it);
    // one of a path the run never takes is noted after it (unread_overrides, idle_overrides).
    for (const std::string& k : unread_by_stack[i]) {
      c.notes.push_back(fmt::format("{}: --set {}: stack '{}' does not read it: rerun without it", rel, k, s.stack));
      std::erase_if(run_sets, [&k](const auto& kv) { return kv.first == k; });
    }
    Json now;
    try {
      now = Json::parse(run_isolated([&] { return run_scenario(s, run_sets).dump(); }));
    } catch (const InputError& e) {
      // an override the result stored that this build refuses (a parameter renamed since): that result, not the
      // whole comparison; a --set given here stays an input error
      const bool mine = e.file() == "--set" &&
                        std::any_of(sets.begin(), sets.end(), [&](auto& g) { return g.first == e.key(); });
      if (said.empty() || mine) throw;
      c.problems.push_back(fmt::format("{}: rerun as it was run ({}): {}: not rerun", rel, fmt::join(said, ", "), e.what()));
      continue;
    }
    for (auto& k : now["provenance"].value("unread_overrides", Json::array()))
      c.notes.push_back(fmt::format("{}: --set {}: no part of its run read it, so it changed nothing there", rel,
                                    k.get<std::string>()));
    for (auto& k : now["provenance"].value("idle_overrides", Json::array()))
      c.notes.push_back(fmt::format("{}: --set {}: its component carried no message of the run, so it changed nothing "
                                    "there", rel, k.get<std::string>()));
    compare_results(committed, now, rel, c);
  }
  if (progress) progress(todo.size(), todo.size(), "");
  return c;
}

std::string render_comparison(const Comparison& c, const std::string& name_a, const std::string& name_b, bool diff_only) {
  std::string out = fmt::format("# A: {}\n# B: {}\n# tolerance {:g} (relative to the larger value); '*' marks a difference beyond it\n",
                                name_a, name_b, c.tolerance);
  std::string last;
  bool header = false;  // the column header only above rows: nothing drifted prints the summary alone
  // columns as wide as their longest printed cell (at least the usual widths), so that a long name keeps the rows aligned
  std::size_t wf = 44, wp = 28, wm = 32;
  for (auto& r : c.rows)
    if (!diff_only || r.beyond) wf = std::max(wf, r.file.size()), wp = std::max(wp, r.point.size()), wm = std::max(wm, r.metric.size());
  for (auto& r : c.one_side) wf = std::max(wf, r.file.size()), wm = std::max(wm, r.metric.size());  // one table's columns
  for (auto& r : c.rows) {
    if (diff_only && !r.beyond) continue;
    if (!header)
      out += fmt::format("{:<{}} {:<{}} {:<{}} {:>14} {:>14} {:>9}\n", "file", wf, "point", wp, "metric", wm, "A", "B", "B/A");
    header = true;
    // a ratio that four decimals would print as 1.0000: its distance from 1, so a marked row never reads 1.0000
    const double q = r.a == 0 ? 0 : r.b / r.a;
    std::string ratio = r.a == 0                   ? (r.b == 0 ? "1" : "inf")
                        : std::fabs(q - 1) < 5e-5 && q != 1 ? fmt::format("1{:+.1e}", q - 1)
                        : std::fabs(q) >= 1e5 || std::fabs(q) < 1e-4 ? fmt::format("{:.3e}", q)  // not 300 digits
                                                                    : fmt::format("{:.4f}", q);
    out += fmt::format("{:<{}} {:<{}} {:<{}} {:>14.6g} {:>14.6g} {:>9} {}\n", r.file == last ? "" : r.file, wf, r.point,
                       wp, r.metric, wm, r.a, r.b, ratio, r.beyond ? "*" : "");
    last = r.file;
  }
  if (!c.one_side.empty()) {
    out += fmt::format("# counters one stack reports and the other has not (not compared; {}):\n",
                       fmt::join(c.one_side_stacks, "; "));
    last.clear();
    for (auto& r : c.one_side)
      out += fmt::format("{:<{}} {:<{}} {:<{}} {:>14} {:>14}\n", r.file == last ? "" : r.file, wf, "stats", wp, r.metric, wm,
                         r.side == 'A' ? fmt::format("{:.6g}", r.value) : "-",
                         r.side == 'B' ? fmt::format("{:.6g}", r.value) : "-"),
          last = r.file;
  }
  for (auto& p : c.problems) out += "! " + p + "\n";
  for (auto& n : c.notes) out += "# " + n + "\n";
  out += fmt::format("{} file{}, {} values compared, {} beyond tolerance, {} structural difference{}{}\n", c.files,
                     c.files == 1 ? "" : "s", c.rows.size(), c.beyond(), c.problems.size(),
                     c.problems.size() == 1 ? "" : "s",
                     c.one_side.empty() ? std::string()
                                        : fmt::format(", {} counter{} of one stack only", c.one_side.size(),
                                                      c.one_side.size() == 1 ? "" : "s"));
  return out;
}

Json comparison_json(const Comparison& c, bool diff_only) {
  Json rows = Json::array();
  for (auto& r : c.rows) {
    if (diff_only && !r.beyond) continue;
    Json ratio = r.a != 0 ? Json(r.b / r.a) : r.b == 0 ? Json(1.0) : Json(nullptr);
    rows.push_back(Json{{"file", r.file}, {"point", r.point}, {"metric", r.metric}, {"a", r.a}, {"b", r.b},
                        {"ratio", ratio}, {"beyond", r.beyond}});
  }
  Json one_side = Json::array();
  for (auto& r : c.one_side)
    one_side.push_back(Json{{"file", r.file}, {"metric", r.metric}, {"side", std::string(1, r.side)}, {"value", r.value}});
  return {{"tolerance", c.tolerance}, {"files", c.files},   {"values", c.rows.size()},
          {"beyond", c.beyond()},     {"problems", c.problems}, {"notes", c.notes},
          {"rows", rows},             {"one_side", one_side},   {"one_side_stacks", c.one_side_stacks}};
}

double parse_tolerance(const std::string& text) {
  std::string t = text;
  t.erase(std::remove(t.begin(), t.end(), ' '), t.end());
  double scale = 1;
  if (!t.empty() && t.back() == '%') {
    t.pop_back();
    scale = 0.01;
  }
  double v = -1;
  std::size_t used = 0;
  try {
    v = std::stod(t, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (t.empty() || used != t.size() || !(v >= 0) || !std::isfinite(v))
    throw InputError("--tolerance", text, "expected a relative tolerance >= 0 (0.02 or 2%)");
  // A bare number above 1 is a percentage that lost its '%' far more often than a tolerance over 100 %: refused, so
  // that '--tolerance 5' does not pass every value within 500 %.
  if (scale == 1 && v > 1)
    throw InputError("--tolerance", text,
                     fmt::format("a bare number is a fraction ({} would be {:g} %): write '{}%' for a percentage", t,
                                 v * 100, t));
  // A difference is taken relative to the larger of the two values (|B - A| > tolerance x max(|A|, |B|)): it is at
  // most 100 % between values of one sign and 200 % between values of opposite signs, so from 200 % on nothing is
  // ever beyond the tolerance.
  if (v * scale >= 2)
    throw InputError("--tolerance", text,
                     fmt::format("{:g} % can flag no value: a difference is relative to the larger of the two values "
                                 "(at most 100 % between values of one sign, 200 % between values of opposite signs)",
                                 v * scale * 100));
  return v * scale;
}

}  // namespace ompisim::validation
