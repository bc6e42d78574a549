#include "validation/intervals.hpp"

#include "runner/isolate.hpp"
#include "runner/registries.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <limits>
#include <numeric>
#include <random>
#include <set>

namespace fs = std::filesystem;

namespace ompisim::validation {

namespace {

int g_samples = kDefaultIntervalSamples;

constexpr const char* kPlacementAssumption =
    "the scheduler hands out nodes in its node-list order (ALPS on the Cray machines): the paper's run took the "
    "first free nodes of an empty machine (consecutive: nodes 0, 1, ...), one node per router (the other nodes of "
    "each router busy) or nodes spread evenly over the machine (a busy machine); each is as likely, and every "
    "scenario of one sample takes the same kind (one allocation, as the papers' runs of one figure)";

// One sampled dimension: an estimate's range (one parameter, log-uniform between its bounds when both are positive) or
// a direction the calibration leaves undetermined (the fitted parameters moved together, x_i = nominal_i exp(c_i t)
// for t in [lo, hi]).
struct SampleDim {
  std::string machine, label;
  struct Param {
    std::string name;
    Dim dim;
    double nominal, coef;
  };
  std::vector<Param> params;
  double lo = 0, hi = 0;
  bool direction = false;
  bool benchmark = false;  // a benchmark's estimate (Driver::estimates): machine is "benchmark", params[0] its name
};

std::string param_text(double v, Dim d) {
  if (d == Dim::Count) return fmt::format("{}", std::llround(v));
  if (d == Dim::Ratio) return fmt::format("{:.9g}", v);
  return fmt::format("\"{}\"", format_quantity(v, d));
}

// The scenario paths a reference document runs (points, held-out values, claims' checks).
void scenario_paths(const Json& j, std::set<std::string>& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if ((it.key() == "scenario" || it.key() == "a" || it.key() == "b") && it.value().is_string())
        out.insert(it.value().get<std::string>());
      else scenario_paths(it.value(), out);
    }
  } else if (j.is_array()) {
    for (auto& x : j) scenario_paths(x, out);
  }
}

std::vector<SampleDim> sample_dimensions(const Json& doc, const MachinePath& machine_path) {
  std::set<std::string> paths, machines;
  scenario_paths(doc, paths);
  std::map<std::string, bench::DriverEstimate> estimates;  // by name: the scenarios of one application share them
  for (auto& rel : paths) {
    Scenario s = load_scenario(data_dir() + "/" + rel);
    machines.insert(s.machine);
    for (auto& e : s.driver->estimates()) estimates.emplace(e.name, e);
  }
  std::vector<SampleDim> dims;
  for (auto& name : machines) {
    auto m = load_machine(machine_path(name));
    ParamList ps = m->physical_params();
    // A host-side software cost that several networks of one machine give (each network's file is complete) must keep
    // one value (Machine::software_cost): such entries with the same range are one dimension.
    std::map<std::string, std::size_t> shared;
    for (auto& r : ps) {
      if (!r.p->ranged || !(r.p->range_hi > r.p->range_lo)) continue;
      const auto sw = r.info.name.find(".software.");
      const std::string key = r.info.name.starts_with("networks.") && sw != std::string::npos
                                  ? fmt::format("{}|{}|{}", r.info.name.substr(sw + 1), r.p->range_lo, r.p->range_hi)
                                  : r.info.name;
      if (auto it = shared.find(key); it != shared.end()) {
        dims[it->second].params.push_back({r.info.name, r.info.dim, r.p->value, 1.0});
        continue;
      }
      shared[key] = dims.size();
      dims.push_back({name, r.info.name, {{r.info.name, r.info.dim, r.p->value, 1.0}}, r.p->range_lo, r.p->range_hi, false});
    }
    for (auto& d : doc.value("calibration_directions", Json::array())) {
      if (d.at("machine").get<std::string>() != name) continue;
      SampleDim sd{name, d.value("label", "undetermined direction"), {}, d.at("range")[0].get<double>(),
                   d.at("range")[1].get<double>(), true};
      for (auto it = d.at("direction").begin(); it != d.at("direction").end(); ++it) {
        auto hit = std::find_if(ps.begin(), ps.end(), [&](const ParamRef& r) { return r.info.name == it.key(); });
        if (hit == ps.end())
          throw InputError(name, "calibration_directions", "no parameter '" + it.key() + "' in machine " + name);
        sd.params.push_back({it.key(), hit->info.dim, hit->p->value, it.value().get<double>()});
      }
      dims.push_back(std::move(sd));
    }
  }
  for (auto& [name, e] : estimates)
    dims.push_back({"benchmark", name, {{name, e.dim, e.value, 1.0}}, e.lo, e.hi, false, true});
  return dims;
}

// Latin hypercube: n samples of the unit cube of `d` dimensions, each dimension's n strata hit once (seeded: the
// same samples on every run).
std::vector<std::vector<double>> latin_hypercube(std::size_t n, std::size_t d, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto u01 = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
  std::vector<std::vector<double>> u(n, std::vector<double>(d));
  std::vector<std::size_t> perm(n);
  for (std::size_t k = 0; k < d; ++k) {
    std::iota(perm.begin(), perm.end(), 0);
    for (std::size_t i = n; i > 1; --i) std::swap(perm[i - 1], perm[rng() % i]);  // Fisher-Yates
    for (std::size_t i = 0; i < n; ++i) u[i][k] = (static_cast<double>(perm[i]) + u01()) / static_cast<double>(n);
  }
  return u;
}

// The overrides of one sample: by machine, and the benchmarks' estimates (a size or count rounded to a whole number).
void sample_sets(const std::vector<SampleDim>& dims, const std::vector<double>& u, IntervalSample& s) {
  std::map<std::string, Overrides>& out = s.per_machine;
  for (std::size_t k = 0; k < dims.size(); ++k) {
    const SampleDim& sd = dims[k];
    if (sd.benchmark) {
      const double v = std::round(sd.lo * std::pow(sd.hi / sd.lo, u[k]));
      s.estimates.emplace_back(sd.params[0].name, sd.params[0].dim == Dim::Bytes ? fmt::format("{} B", v)
                                                                                   : fmt::format("{}", v));
    } else if (!sd.direction) {
      double v = sd.lo > 0 ? sd.lo * std::pow(sd.hi / sd.lo, u[k]) : sd.lo + u[k] * (sd.hi - sd.lo);
      for (auto& p : sd.params) out[sd.machine].emplace_back(p.name, param_text(v, p.dim));
    } else {
      double t = sd.lo + u[k] * (sd.hi - sd.lo);
      for (auto& p : sd.params) out[sd.machine].emplace_back(p.name, param_text(p.nominal * std::exp(p.coef * t), p.dim));
    }
  }
}

// The scenarios whose nodes the paper does not state (the reference file's "unstated_placement": {"text": the
// paper's sentence, "scenarios": [paths]}); checked: InputError naming the file and the key otherwise.
struct UnstatedPlacement {
  std::string text;
  std::set<std::string> scenarios;
};
UnstatedPlacement unstated_placement(const Json& doc, const std::string& f) {
  UnstatedPlacement u;
  if (!doc.contains("unstated_placement")) return u;
  const Json& j = doc["unstated_placement"];
  const std::string key = "unstated_placement";
  if (!j.is_object()) throw InputError(f, key, "must be an object {\"text\", \"scenarios\"}");
  for (auto& [k, x] : j.items())
    if (k != "text" && k != "scenarios") throw InputError(f, key + "." + k, "unknown key (text, scenarios)");
  if (!j.contains("text") || !j["text"].is_string() || j["text"].get<std::string>().empty())
    throw InputError(f, key + ".text", "the paper's sentence leaving the nodes unstated: a non-empty string");
  u.text = j["text"].get<std::string>();
  if (!j.contains("scenarios") || !j["scenarios"].is_array() || j["scenarios"].empty())
    throw InputError(f, key + ".scenarios", "a non-empty list of scenario paths");
  std::set<std::string> used;
  scenario_paths(doc.at("points"), used), scenario_paths(doc.value("held_out", Json::array()), used);
  scenario_paths(doc.value("claims", Json::array()), used);
  for (auto& x : j["scenarios"]) {
    if (!x.is_string() || !used.count(x.get<std::string>()))
      throw InputError(f, key + ".scenarios", "'" + x.dump() + "' is not a scenario of this file's points or claims");
    if (!load_scenario(data_dir() + "/" + x.get<std::string>()).nodes.empty())
      throw InputError(f, key + ".scenarios", x.get<std::string>() + " lists its nodes: its placement is stated");
    u.scenarios.insert(x.get<std::string>());
  }
  return u;
}

}  // namespace

std::vector<std::string> sample_dimension_names(const Json& doc, const MachinePath& machine_path) {
  std::vector<std::string> names;
  for (auto& d : sample_dimensions(doc, machine_path)) names.push_back(d.machine + ": " + d.label);
  return names;
}

void set_interval_samples(int n) { g_samples = n; }
int interval_samples() { return g_samples; }

const std::vector<std::string>& placement_kinds() {
  static const std::vector<std::string> k{"consecutive", "one_per_router", "spread"};
  return k;
}

std::vector<long long> placement_nodes(const std::string& kind, const Machine& m, long long need) {
  std::vector<long long> out;
  if (kind == "consecutive") return out;
  if (need > m.nodes) return out;  // the scenario's own check names the shortage
  if (kind == "spread") {
    const long long stride = m.nodes / std::max(need, 1LL);
    for (long long i = 0; i < need; ++i) out.push_back(i * stride);
  } else if (kind == "one_per_router") {
    const auto& topo = *m.networks().at(0).topology;
    std::set<topology::RouterId> seen;
    for (long long n = 0; n < m.nodes && static_cast<long long>(out.size()) < need; ++n)
      if (seen.insert(topo.router_of_node(n)).second) out.push_back(n);
    if (static_cast<long long>(out.size()) < need) out.clear();  // fewer routers than nodes needed: consecutive
  } else {
    throw std::invalid_argument("unknown placement kind '" + kind + "'");
  }
  return out;
}

namespace {

// A measure's model value in every sample, moved by the nominal run's own difference between a full and a fast run
// (the samples run the fast way): its interval over the nominal value and the samples; "paper_inside" where the
// paper quotes the number (a gap not read from a word), "accepted_inside" (some value of the interval is in the accepted range,
// its upper bound excluded where "accepted_below_upper" says so).
void widen_measures(Json& claims, const Json& fast_nominal, const std::vector<SampleValues>& runs) {
  auto num = [](const Json& x, double inf) { return x.is_null() ? inf : x.get<double>(); };
  constexpr double kInf = std::numeric_limits<double>::infinity();
  for (std::size_t c = 0; c < claims.size(); ++c) {
    Json& ms = claims[c]["measures"];
    for (std::size_t k = 0; k < ms.size(); ++k) {
      const double nominal = ms[k].at("model").get<double>();
      double lo = nominal, hi = nominal;
      for (auto& r : runs) {
        if (c >= r.measures.size() || k >= r.measures[c].size() || k >= fast_nominal[c].size()) continue;
        const double v = r.measures[c][k].at("model").get<double>() + nominal - fast_nominal[c][k].at("model").get<double>();
        lo = std::min(lo, v), hi = std::max(hi, v);
      }
      ms[k]["interval"] = {lo, hi};
      if (!ms[k].at("paper").is_null())
        ms[k]["paper_inside"] = lo <= ms[k]["paper"].get<double>() && ms[k]["paper"].get<double>() <= hi;
      const Json& acc = ms[k].at("accepted");
      const bool below = ms[k].value("accepted_below_upper", false);  // a strict "a < b": the bound not accepted
      ms[k]["accepted_inside"] = (below ? lo < num(acc[1], kInf) : lo <= num(acc[1], kInf)) && hi >= num(acc[0], -kInf);
    }
  }
}

Json sample_values_json(const SampleValues& r) {
  return Json{{"values", r.values}, {"holds", r.holds}, {"measures", r.measures}};
}
SampleValues sample_values_of(const Json& j) {
  return SampleValues{j.at("values").get<std::vector<double>>(), j.at("holds").get<std::vector<bool>>(),
                      j.at("measures").get<std::vector<Json>>()};
}

}  // namespace

// Every prediction and held-out value and every claim again under n Latin-hypercube samples of the machines' estimate
// ranges and undetermined directions, and of the placements a paper leaves unstated (sample i runs the scenarios of
// "unstated_placement" on placement_kinds()[i mod 3]; the nominal run is "consecutive"). Samples run the fast way
// (only the points' sizes and ranks); a sample's value is the nominal value times its ratio to the nominal fast run,
// so the fast runs' own small differences do not enter the interval. The interval is the range over the samples and
// the nominal value; a claim's measures get theirs (widen_measures).
Json sample_intervals(const Json& doc, const std::string& f, bool sample, const MachinePath& machine_path,
                      const SampleEvaluator& eval, const std::vector<Json*>& outs, Json& claims, int jobs) {
  Json sampling = Json::array();
  const UnstatedPlacement placement = unstated_placement(doc, f);
  std::vector<SampleDim> dims;
  if (sample && g_samples > 0) dims = sample_dimensions(doc, machine_path);
  const std::size_t n = dims.empty() ? 0 : static_cast<std::size_t>(g_samples);
  std::vector<double> lo(outs.size()), hi(outs.size());
  for (std::size_t j = 0; j < outs.size(); ++j) lo[j] = hi[j] = (*outs[j])["simulated"].get<double>();
  std::vector<int> holds_in(claims.size());
  for (std::size_t c = 0; c < claims.size(); ++c) holds_in[c] = claims[c].at("holds").get<bool>() ? 1 : 0;
  if (n > 0) {
    const SampleValues fast_nominal = eval(nullptr, true);
    auto u = latin_hypercube(n, dims.size(), 0x5eed16ULL + std::hash<std::string>{}(fs::path(f).stem().string()) % 1000);
    std::vector<IntervalSample> samples(n);
    for (std::size_t i = 0; i < n; ++i) {
      sample_sets(dims, u[i], samples[i]);
      samples[i].placement = placement_kinds()[i % placement_kinds().size()], samples[i].placed = placement.scenarios;
    }
    std::vector<SampleValues> runs(n);
    if (jobs <= 1)
      for (std::size_t i = 0; i < n; ++i) runs[i] = eval(&samples[i], true);
    else  // each sample in a process of its own, its values handed back as JSON (doubles round-trip exactly)
      run_isolated_each(
          n, [&](std::size_t i) { return sample_values_json(eval(&samples[i], true)).dump(); }, jobs,
          [](std::size_t) {}, [&](std::size_t i, const std::string& t) { runs[i] = sample_values_of(Json::parse(t)); });
    for (const SampleValues& r : runs) {
      for (std::size_t j = 0; j < outs.size(); ++j) {
        double v = (*outs[j])["simulated"].get<double>() * r.values[j] / fast_nominal.values[j];
        lo[j] = std::min(lo[j], v), hi[j] = std::max(hi[j], v);
      }
      for (std::size_t c = 0; c < claims.size(); ++c) holds_in[c] += r.holds[c] ? 1 : 0;
    }
    widen_measures(claims, fast_nominal.measures, runs);
    Json names = Json::array();
    for (auto& d : dims) names.push_back(d.machine + ": " + d.label);  // as sample_dimension_names
    sampling.push_back({{"reference", fs::path(f).stem().string()}, {"method", "latin hypercube"}, {"samples", n},
                        {"dimensions", names}});
    if (!placement.scenarios.empty())
      sampling.back()["placement"] = {{"text", placement.text}, {"scenarios", placement.scenarios},
                                      {"kinds", placement_kinds()}, {"assumption", kPlacementAssumption}};
  }
  // validate --samples 0: no interval at all (a range of the nominal value alone would read as a certainty)
  if (g_samples == 0) return sampling;
  for (std::size_t j = 0; j < outs.size(); ++j) (*outs[j])["interval"] = {lo[j], hi[j]};
  for (std::size_t c = 0; c < claims.size(); ++c) {
    const int total = static_cast<int>(n) + 1;
    claims[c]["status"] = holds_in[c] == total ? "holds" : holds_in[c] == 0 ? "fails" : "undecided";
    claims[c]["holds_in"] = fmt::format("{}/{}", holds_in[c], total);
  }
  return sampling;
}

}  // namespace ompisim::validation
