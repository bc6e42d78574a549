// replay: the benchmark that runs a SimGrid SMPI time-independent trace (smpirun -trace-ti) on the scenario's machine
// and stack. This file is its registration: the keys of its "benchmark" block, their parsing into a ReplayConfig
// (flop_rate's units, the trace's index, the decision library, per-collective algorithms) and the Driver that checks
// the rank count and calls the interpreter (replay_run.hpp; what each action does: replay_state.hpp), and the run's
// message count for the cost estimate, read from the trace (trace_messages).
#include "benchmarks/benchmarks.hpp"
#include "benchmarks/coll_choice.hpp"
#include "benchmarks/driver.hpp"
#include "benchmarks/replay/replay_run.hpp"
#include "benchmarks/replay/replay_tables.hpp"
#include "benchmarks/replay/ti_reader.hpp"
#include "collectives/decision.hpp"
#include "collectives/registry.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <optional>

namespace ompisim::bench {

namespace {
namespace fs = std::filesystem;
using replay::registry_colls;
using replay::replay_table;
using replay::ReplayConfig;


double parse_flop_rate(ObjectReader& b) {
  const Json& v = b.raw("flop_rate");
  double x = 0;
  if (v.is_number()) {
    x = v.get<double>();
  } else if (v.is_string()) {
    std::string s = v.get<std::string>();
    std::size_t i = 0;
    while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.' || s[i] == 'e' ||
                            s[i] == 'E' || s[i] == '+' || s[i] == '-'))
      ++i;
    auto [p, ec] = std::from_chars(s.data(), s.data() + i, x);
    if (ec != std::errc() || p != s.data() + i || i == 0)
      b.fail("flop_rate", fmt::format("'{}' is not a rate (expected e.g. \"1 Gf/s\")", s));
    std::string unit = s.substr(i);
    unit.erase(0, unit.find_first_not_of(' '));
    static const std::map<std::string, double> units{
        {"f/s", 1},     {"kf/s", 1e3},     {"Mf/s", 1e6},     {"Gf/s", 1e9},     {"Tf/s", 1e12},     {"Pf/s", 1e15},
        {"flop/s", 1},  {"kflop/s", 1e3},  {"Mflop/s", 1e6},  {"Gflop/s", 1e9},  {"Tflop/s", 1e12},  {"Pflop/s", 1e15},
        {"f", 1},       {"kf", 1e3},       {"Mf", 1e6},       {"Gf", 1e9},       {"Tf", 1e12},       {"Pf", 1e15},
        {"", 1}};  // a bare number, quoted or not, is flop/s (as SMPI's smpi/host-speed reads one)
    auto it = units.find(unit);
    if (it == units.end())
      b.fail("flop_rate", fmt::format("unknown unit '{}' (known: f/s, kf/s, Mf/s, Gf/s, Tf/s, Pf/s, or flop/s forms)", unit));
    x *= it->second;
  } else {
    b.fail("flop_rate", "expected a rate such as \"1 Gf/s\"");
  }
  if (!std::isfinite(x) || x < 1 || x > 1e18) b.fail("flop_rate", "expected a rate between 1 f/s and 1e18 f/s");
  return x;
}

// The decision libraries the block's "collectives" documents; a block that names none takes the stack's (its preset's
// StackInfo::collectives) where it is one of them, else "tuned".
const std::vector<std::string> kReplayLibraries{"tuned", "mpich"};
std::string replay_default_library(const std::string& stack_lib) {
  return stack_library_or(stack_lib, kReplayLibraries, "tuned");
}
// Loads the decision library c.collectives names ({} for "fixed"); a coll/tuned library without a barrier table (before
// v4.1) decides its barrier by v1.7-v4.0's rule (collectives/decision/barrier_tuned.json).
void load_replay_library(ReplayConfig& c) {
  c.lib = Json(), c.barrier_rule = Json();
  if (c.collectives == "fixed") return;
  c.lib = coll::load_library(data_dir(), c.collectives);
  if (c.collectives.starts_with("tuned") && !c.lib.contains("barrier"))
    c.barrier_rule = coll::load_decision(data_dir() + "/collectives/decision/barrier_tuned.json");
}

class ReplayDriver final : public ConfiguredDriver<ReplayDriver, ReplayConfig> {
public:
  using ConfiguredDriver::ConfiguredDriver;
  std::string label() const override { return "replay " + fs::path(c_.index).filename().string(); }
  void check(const DriverContext& ctx) const override {
    if (ctx.ranks.size() != 1 || ctx.ranks[0] != static_cast<long long>(c_.files.size()))
      throw InputError(ctx.file, "ranks",
                       fmt::format("the trace {} has {} ranks: give exactly that rank count", repo_relative(c_.index),
                                   c_.files.size()));
  }
  Json run(World& w, Stack& s, const std::string&) const override { return replay::replay_run(w, s, c_); }
  std::unique_ptr<Driver> with_stack_collectives(const std::string& lib) const override {
    const std::string used = replay_default_library(lib);
    const std::string other = lib == used ? "" : lib;  // the stack's library when the replay cannot use it
    if (c_.collectives_named || (used == c_.collectives && other == c_.stack_library)) return nullptr;
    ReplayConfig c = c_;
    c.collectives = used, c.stack_library = other;
    load_replay_library(c);
    return std::make_unique<ReplayDriver>(std::move(c));
  }
  std::string collectives_note() const override {
    if (c_.collectives_named || c_.stack_library.empty()) return {};
    return fmt::format("collective algorithms decided by the '{}' tables, not by the stack's {}: a replay decides by "
                       "'tuned' (coll/tuned v5.0.x) or 'mpich' only, whose tables cover every collective a trace "
                       "replays (the benchmark block's \"collectives\" names one, or 'fixed')",
                       c_.collectives, c_.stack_library);
  }
  bool ran_collectives(const Json& points) const override {
    return std::any_of(points.begin(), points.end(), [](const Json& p) { return p.value("row", "") == "collective"; });
  }
  const std::vector<std::string>& files() const { return c_.files; }
};

// The run's messages for the estimate (MessageCount::from_input): the trace's point-to-point sends, one message each,
// and its collective calls at the count runner/estimate.hpp gives the OSU collectives per rank and call (1 +
// ceil(log2 P) for a tree or dissemination, P - 1 for an all-pairs one), counted from the action files' text
// (ti::count_actions, bounded).
std::optional<InputMessages> trace_messages(const Driver& parsed, double ranks) {
  const auto* r = dynamic_cast<const ReplayDriver*>(&parsed);
  if (!r) return std::nullopt;
  const ti::ActionCount c = ti::count_actions(r->files());
  if (c.files_read == 0) return std::nullopt;
  const MessageCount tree{}, all_pairs{0, 0, 1};
  auto num = [&c](double x) { return c.exact ? fmt::format("{:.0f}", x) : fmt::format("{:.3g}", x); };
  std::string source = fmt::format("{}{} communication actions in the trace ({} point-to-point sends",
                                   c.exact ? "" : "about ", num(c.actions()), num(c.sends));
  if (c.collectives > 0)
    source += fmt::format(", {} collective calls x {:g} ({})", num(c.collectives), tree.at(ranks), tree.formula());
  if (c.all_pairs > 0)
    source += fmt::format(", {} all-pairs collective calls x {:g} ({})", num(c.all_pairs), all_pairs.at(ranks),
                          all_pairs.formula());
  source += ")";
  if (!c.exact)
    source += fmt::format("; counted in the first {} KiB of {} of its {} action files, scaled by their sizes{}",
                          c.bytes_per_file >> 10, c.files_read == c.files ? "each" : fmt::format("{}", c.files_read),
                          c.files, c.files_read == c.files ? "" : " and the rank count");
  return InputMessages{c.sends + c.collectives * tree.at(ranks) + c.all_pairs * all_pairs.at(ranks), source};
}

}  // namespace

void register_replay_driver(DriverRegistry& reg) {
  DriverInfo d;
  d.name = "replay";
  d.family = "trace replay";
  d.description = "replays a SimGrid SMPI time-independent trace (smpirun -trace-ti) on the machine and stack";
  d.params = {
      {"trace", "path", "(required)",
       "the trace's index file (smpirun's tracing/filename), relative to the scenario file; one action file per rank"},
      {"flop_rate", "rate (\"1 Gf/s\")", "(required: no node model gives a compute rate yet)",
       "the rate at which each rank runs the trace's compute actions (flops)"},
      {"collectives", "tuned | mpich | fixed",
       "the stack preset's collective library where it is tuned or mpich (`ompisim list` names each preset's), else "
       "tuned",
       "whose decision picks each collective's algorithm by communicator and message size (coll/tuned v5.0.x, MPICH's "
       "defaults; fixed: the fallbacks only)"},
      {"algorithms", "object {collective: algorithm}", "{}",
       "a fixed algorithm per collective (barrier, bcast, reduce, allreduce, alltoall, gather, allgather, scatter), "
       "over the decision"}};
  d.parse = [](ObjectReader& b, const DriverContext& ctx) -> std::unique_ptr<Driver> {
    ReplayConfig c;
    std::string given = b.str("trace");
    if (given.empty() || given.size() > 4096 || given.find('\0') != std::string::npos)
      b.fail("trace", "expected the path of a trace index file");
    fs::path p(given);
    if (p.is_relative()) p = fs::path(ctx.file).parent_path() / p;
    c.index = p.lexically_normal().string();
    std::error_code ec;
    if (!fs::is_regular_file(c.index, ec))
      b.fail("trace", fmt::format("'{}' is not a file (looked for {}; relative paths are relative to the scenario file)",
                                  given, c.index));
    // An empty index (or a kernel file such as /proc/self/mem, whose size reads 0 and whose text reads nothing).
    if (const auto size = fs::file_size(c.index, ec); !ec && size == 0)
      b.fail("trace", fmt::format("'{}'{} is empty: a trace index names one action file per rank, a line each", given,
                                  given == c.index ? "" : " (" + c.index + ")"));
    c.files = ti::read_index(c.index, 1 << 22);
    if (!b.has("flop_rate"))
      b.fail("flop_rate", "required: no node model of this project gives a compute rate yet (e.g. \"1 Gf/s\", the "
                          "speed of the hosts of the platform the trace was recorded on)");
    c.flop_rate = parse_flop_rate(b);
    c.collectives_named = b.has("collectives");
    c.collectives = c.collectives_named ? b.str("collectives") : replay_default_library(ctx.stack_collectives);
    if (c.collectives != "fixed" &&
        std::find(kReplayLibraries.begin(), kReplayLibraries.end(), c.collectives) == kReplayLibraries.end())
      b.fail("collectives", "expected 'tuned', 'mpich' or 'fixed' (the libraries whose tables cover every collective a "
                            "trace replays)");
    load_replay_library(c);
    if (b.has("algorithms")) {
      ObjectReader a = b.object("algorithms");
      for (const auto& coll : registry_colls()) {
        if (!a.has(coll)) continue;
        std::string name = a.str(coll);
        const coll::AlgoInfo* info = coll::default_registry().find(coll, name);
        if (!info) {
          auto names = coll::default_registry().nameable(coll);
          a.fail(coll, fmt::format("no {} algorithm '{}' (known: {})", coll, name, fmt::join(names, ", ")));
        }
        if (info->composition)
          a.fail(coll, fmt::format("{} '{}' is a composition whose stages a library's decision table "
                                   "chooses: name that library in \"collectives\" instead",
                                   coll, name));
        c.algorithms[coll] = name;
      }
      a.finish();
    }
    return std::make_unique<ReplayDriver>(std::move(c));
  };
  d.table = replay_table;
  d.curve = false;
  d.row_plot = DriverInfo::RowPlot{"rank", "rank", {{"compute_s", "compute"}, {"mpi_s", "MPI"}}};
  d.messages.from_input = trace_messages;
  d.messages.fluid_measured =
      "took 0.36 of its CPU time replaying bench/replay_gen.py's 256-rank, 1 M-action halo exchange on Cielo's openmpi "
      "stack, whose 16 KiB messages are flows (median of 5 paired runs, 1.73 s against 4.70 s; the ranks' simulated "
      "times within 1.1e-3 relative), and 0.20 on the 1,024-rank, 10 M-action one (33.6 s against 167.2 s, "
      "bench/README.md, Trace replay); on the loggp stack, where that trace starts no flows, the same (1.00, 7 pairs)";
  reg.add(std::move(d));
}

}  // namespace ompisim::bench
