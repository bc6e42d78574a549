#include "runner/scenario.hpp"

#include "core/atomic_write.hpp"
#include "core/limits.hpp"
#include "core/safe_name.hpp"
#include "core/signals.hpp"
#include "engine/des_engine.hpp"
#include "engine/simgrid_engine.hpp"
#include "runner/registries.hpp"
#include "runner/stacks.hpp"

#include <array>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ompisim {

Scenario load_scenario(const std::string& file) { return scenario_from_json(load_json_file(file), file); }

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
  if (!s.figure.empty()) (void)label_stem(s.figure, file, "figure");  // reproduce names the figure's files after it
  if (r.has("relevant_code")) (void)r.raw("relevant_code");
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
    if (s.engine != "simgrid" && s.engine != "des") r.fail("engine", "expected 'simgrid' or 'des'");
  }
  auto& rv = r.raw("ranks");
  if (rv.is_array() && rv.size() > limits::kMaxRankList)
    r.fail("ranks", fmt::format("{} rank counts, above the limit of {} per sweep (each runs in its own process)",
                                rv.size(), limits::kMaxRankList));
  if (rv.is_array()) s.ranks = r.int_list("ranks", 1, 100000000);
  else s.ranks = {r.integer("ranks", 1, 100000000)};
  if (s.ranks.empty()) r.fail("ranks", "empty list");
  s.ranks_per_node = static_cast<int>(r.opt_integer("ranks_per_node", 1, 100000).value_or(1));
  for (long long n : s.ranks)
    if (s.ranks_per_node > n)
      r.fail("ranks_per_node", fmt::format("{} ranks per node with {} ranks: the job fills less than one node "
                                           "(ranks_per_node must not exceed ranks)", s.ranks_per_node, n));
  s.routing = r.opt_str("routing").value_or("");
  for (const char* k : {"map_by", "bind_to", "cpu_list"})
    if (r.has(k)) s.mapping[k] = r.raw(k);
  if (r.has("nodes")) {
    s.nodes = r.int_list("nodes", 0, 1000000000);
    // Every listed node must be used by the largest rank count, else the list is partly ignored.
    long long most = *std::max_element(s.ranks.begin(), s.ranks.end());
    long long need = (most + s.ranks_per_node - 1) / s.ranks_per_node;
    if (static_cast<long long>(s.nodes.size()) > need)
      r.fail("nodes", fmt::format("{} nodes listed, but {} ranks at {} per node use only {}: the rest would be ignored",
                                  s.nodes.size(), most, s.ranks_per_node, need));
  }
  if (r.has("mca")) {
    s.mca = r.raw("mca");
    if (!s.mca.is_object()) r.fail("mca", "expected an object of MCA parameters");
  }
  ObjectReader b = r.object("benchmark");
  s.benchmark = b.str("name");
  const auto& names = bench::benchmark_names();
  if (std::find(names.begin(), names.end(), s.benchmark) == names.end()) {
    std::string hint = did_you_mean(s.benchmark, names);
    b.fail("name", fmt::format("unknown benchmark '{}'{} (known: {})", s.benchmark,
                               hint.empty() ? "" : " (did you mean '" + hint + "'?)", fmt::join(names, ", ")));
  }
  if (s.benchmark == "barrier_loop") {
    s.barrier.algorithm = b.opt_str("algorithm").value_or("tuned");
    // Cheetah's uGNI BCOL runs over a BTL with network atomics (btl/ugni: MCA_BTL_FLAGS_ATOMIC_OPS off the node).
    if (s.barrier.algorithm.rfind("cheetah", 0) == 0 &&
        !stack_has_network_atomics(s.stack_json.is_null() ? Json(s.stack) : s.stack_json, file))
      b.fail("algorithm", fmt::format("the Cheetah barriers run on Open MPI's Cheetah uGNI BCOL (btl/ugni: stack 'openmpi' on a "
                                      "Gemini machine); stack '{}' has no Cheetah component", s.stack));
    if (b.has("radix") && b.raw("radix").is_array() && b.raw("radix").size() > limits::kMaxRadixList)
      b.fail("radix", fmt::format("{} radices, above the limit of {} per sweep", b.raw("radix").size(),
                                  limits::kMaxRadixList));
    if (b.has("radix") && b.raw("radix").is_array()) {
      for (long long x : b.int_list("radix", 2, 1024)) s.radices.push_back(static_cast<int>(x));
      if (s.radices.empty()) b.fail("radix", "empty list");
    } else {
      s.radices = {static_cast<int>(b.opt_integer("radix", 2, 1024).value_or(4))};
    }
    s.barrier.radix = s.radices.front();
    s.barrier.iterations = b.opt_integer("iterations", 1, 100000000).value_or(100);
    s.barrier.skip = b.opt_integer("skip", 0, 100000000).value_or(10);
    b.finish({"name", "algorithm", "radix", "iterations", "skip"});
  } else if (s.benchmark == "app_skeleton") {
    std::string app = b.str("app");
    s.app = bench::load_app(app, file, b.key_path("app"));
    if (b.has("steps")) s.app.steps = static_cast<int>(b.integer("steps", 1, 100000));
    if (b.has("compute_per_step")) s.app.compute_per_step = b.quantity("compute_per_step", Dim::Time, 1e-9, 1e4);
    if (b.has("fit_compute") && b.boolean("fit_compute")) {  // refit (ignores the stored value)
      if (b.has("compute_per_step")) b.fail("fit_compute", "cannot be combined with compute_per_step");
      s.app.compute_per_step = 0;
    }
    b.finish({"name", "app", "steps", "compute_per_step", "fit_compute"});
  } else {
    s.osu.name = s.benchmark;
    if (b.has("sizes")) {
      auto& sv = b.raw("sizes");
      if (!sv.is_array() || sv.empty()) b.fail("sizes", "expected a non-empty list of message sizes in bytes");
      if (sv.size() > limits::kMaxSizes)
        b.fail("sizes", fmt::format("{} message sizes, above the limit of {} (each size is a full benchmark loop)",
                                    sv.size(), limits::kMaxSizes));
      for (std::size_t i = 0; i < sv.size(); ++i) {
        double x = json_quantity(sv[i], Dim::Bytes, file, b.key_path("sizes") + "[" + std::to_string(i) + "]");
        if (x < 0 || x > 1e12 || x != static_cast<double>(static_cast<long long>(x)))
          throw InputError(file, b.key_path("sizes") + "[" + std::to_string(i) + "]",
                           fmt::format("message size must be a whole number of bytes in [0, 1e12], got {}", sv[i].dump()));
        s.osu.sizes.push_back(static_cast<std::uint64_t>(x));
      }
    } else {
      s.osu.sizes = bench::osu_default_sizes(s.benchmark);
    }
    s.osu.iterations = b.opt_integer("iterations", 1, 100000000).value_or(-1);
    s.osu.skip = b.opt_integer("skip", 0, 100000000).value_or(-1);
    if (b.has("window") && bench::is_latency_benchmark(s.benchmark))
      b.fail("window", fmt::format("{} is a ping-pong; only the streaming benchmarks (osu_bw, osu_bibw, osu_mbw_mr) "
                                   "take a window", s.benchmark));
    s.osu.window = b.opt_integer("window", 1, 100000).value_or(64);
    s.osu.buffer_offset = static_cast<std::uint64_t>(b.opt_integer("buffer_offset", 0, 4095).value_or(0));
    if (b.has("prepost")) {
      if (!bench::is_latency_benchmark(s.benchmark)) b.fail("prepost", "only the ping-pong benchmarks (osu_latency, osu_multi_lat, netpipe) take this key");
      s.osu.prepost = b.boolean("prepost");
    }
    if (s.benchmark == "smb_overhead") {
      s.osu.side = b.opt_str("side").value_or("recv");
      if (s.osu.side != "send" && s.osu.side != "recv") b.fail("side", "expected 'send' or 'recv'");
      if (b.has("threshold_pct")) {
        double t = json_quantity(b.raw("threshold_pct"), Dim::Ratio, file, b.key_path("threshold_pct"));
        if (!(t > 0 && t <= 1000)) b.fail("threshold_pct", "expected a percentage in (0, 1000]");
        s.osu.threshold_pct = t;
      }
    }
    b.finish({"name", "sizes", "iterations", "skip", "window", "buffer_offset", "side", "threshold_pct", "prepost"});
    if (s.benchmark != "smb_overhead" && (b.has("side") || b.has("threshold_pct")))
      b.fail(b.has("side") ? "side" : "threshold_pct", "only smb_overhead takes this key");
    for (long long n : s.ranks) {
      if (n < 2 || n % 2) r.fail("ranks", fmt::format("{} needs an even number of ranks >= 2, got {}", s.benchmark, n));
      if ((s.benchmark == "osu_latency" || s.benchmark == "osu_bw" || s.benchmark == "osu_bibw" ||
           s.benchmark == "netpipe" || s.benchmark == "smb_overhead") && n != 2)
        r.fail("ranks", fmt::format("{} runs on exactly 2 ranks, got {} (use osu_multi_lat / osu_mbw_mr)", s.benchmark, n));
    }
  }
  r.finish({"id", "description", "expected", "figure", "paper", "plot", "relevant_code", "machine", "stack", "engine",
            "ranks", "ranks_per_node", "nodes", "map_by", "bind_to", "cpu_list", "routing", "mca", "benchmark"});
  return s;
}

std::string git_describe() {
  // Once per process, and inherited by the simulation processes forked after the first call: `reproduce` calls it at
  // its start, so the files it writes do not turn its own later results '-dirty'.
  static std::string cached;
  if (!cached.empty()) return cached;
  std::string cmd = "git -C '" + data_dir() + "' describe --always --dirty 2>/dev/null";
  std::array<char, 128> buf{};
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    while (fgets(buf.data(), buf.size(), p)) out += buf.data();
    pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return cached = out.empty() ? "unknown" : out;
}

void write_atomic(const std::string& path, const std::string& text) { write_file_atomic(path, text); }

std::string repo_relative(const std::string& path) {
  std::error_code ec;
  auto root = std::filesystem::weakly_canonical(data_dir(), ec);
  auto p = std::filesystem::weakly_canonical(path, ec);
  if (ec) return path;
  auto rel = p.lexically_relative(root);
  if (rel.empty() || *rel.begin() == "..") return path;  // outside the repository: as the user gave it
  return rel.string();
}

std::string result_csv(const Json& res) {
  std::string out;
  const Json& pts = res["points"];
  if (pts.empty()) return out;
  std::vector<std::string> cols;
  for (auto it = pts[0].begin(); it != pts[0].end(); ++it) cols.push_back(it.key());
  out += fmt::format("{}\n", fmt::join(cols, ","));
  for (auto& p : pts) {
    std::vector<std::string> v;
    for (auto& c : cols) v.push_back(p[c].is_string() ? p[c].get<std::string>() : p[c].dump());
    out += fmt::format("{}\n", fmt::join(v, ","));
  }
  return out;
}

static void apply_sets(Machine& m, McaParams& mca, const Overrides& sets) {
  auto phys = m.physical_params();
  auto mcal = param_list(mca);
  for (auto& [k, v] : sets) {
    if (set_param(phys, k, v, "--set") || set_param(mcal, k, v, "--set")) continue;
    // The short name of a physical parameter ("bte_bandwidth", "dram_copy_bandwidth"): the last part of its path,
    // when exactly one parameter has it.
    std::vector<ParamRef> hits;
    for (auto& r : phys)
      if (r.info.name.size() > k.size() && r.info.name.ends_with("." + k)) hits.push_back(r);
    if (hits.size() > 1) {
      std::vector<std::string> full;
      for (auto& h : hits) full.push_back(h.info.name);
      throw InputError("--set", k, fmt::format("ambiguous parameter: say which of {}", fmt::join(full, ", ")));
    }
    if (hits.size() == 1) {
      ParamList one{hits[0]};
      set_param(one, hits[0].info.name, v, "--set");
      continue;
    }
    auto names = param_names(phys);
    auto more = param_names(mcal);
    names.insert(names.end(), more.begin(), more.end());
    std::string hint = did_you_mean(k, names);
    throw InputError("--set", k, "unknown parameter" + (hint.empty() ? std::string() : " (did you mean '" + hint + "'?)"));
  }
}

Json run_one(const Scenario& s, long long ranks, const Overrides& sets) {
  std::unique_ptr<Machine> m;
  try {
    // A scenario's machine is a name looked up in the machine directory; --machine-file is an explicit file.
    std::string file = s.machine_file;
    if (file.empty()) {
      std::vector<std::string> names;
      for (auto& [n, f] : list_machines()) {
        if (n == s.machine) file = f;
        names.push_back(n);
      }
      if (file.empty()) {
        std::string hint = did_you_mean(s.machine, names);
        throw InputError(s.file, "machine", fmt::format("unknown machine '{}'{} (known: {}; or give a file with "
                                                        "--machine-file)", s.machine,
                                                        hint.empty() ? "" : " (did you mean '" + hint + "'?)",
                                                        fmt::join(names, ", ")));
      }
    }
    m = load_machine(file);
  } catch (const InputError& e) {
    if (e.file().empty()) throw InputError(s.file, "machine", e.reason());
    throw;
  }
  const StackSpec spec = resolve_stack(s.stack_json.is_null() ? Json(s.stack) : s.stack_json, m->nic_kind(), m->name,
                                       s.file);
  McaParams mca = machine_mca(*m);
  {
    std::vector<std::string> keys;
    for (auto it = s.mca.begin(); it != s.mca.end(); ++it) keys.push_back(it.key());
    check_mca_keys(keys, spec, s.stack, m->nic_kind(), s.file);
    for (auto& [k, v] : sets) check_mca_family(k, m->nic_kind(), "--set");
    ObjectReader mr(s.mca, s.file, "mca");
    auto list = param_list(mca);
    load_overrides(mr, list, "scenario " + s.id);
  }
  apply_sets(*m, mca, sets);
  if (!sets.empty()) m->rebuild_topology();  // links follow overridden link parameters
  Placement pl = make_placement(*m, ranks, s.ranks_per_node, s.nodes, s.file, s.mapping);
  std::unique_ptr<Simulator> sim;
  if (s.engine == "des") sim = std::make_unique<engine::DesEngine>();
  else sim = std::make_unique<engine::SimGridEngine>();
  const topology::RoutePolicyInfo* routing =
      s.routing.empty() ? nullptr : &topology::find_route_policy(s.routing, m->topology->kind(), s.file, "routing");
  World w(*sim, *m, pl, routing);
  auto stack = build_stack(w, mca, spec, s.stack);
  Json points;
  // The fabric's resources, before seal(); each flow's path is built when the flow starts.
  w.declare_resources();
  sim->seal();
  if (s.benchmark == "barrier_loop") points = Json::array({bench::run_barrier(w, *stack, s.barrier, s.file)});
  else if (s.benchmark == "app_skeleton") points = Json::array({bench::run_app(w, *stack, s.app, s.file)});
  else points = s.benchmark == "smb_overhead" ? bench::run_smb(w, *stack, s.osu) : bench::run_osu(w, *stack, s.osu);
  StackStats st = stack->stats();
  Json stats{{"sends_posted", st.sends_posted},       {"sends_completed", st.sends_completed},
             {"recvs_posted", st.recvs_posted},       {"recvs_completed", st.recvs_completed},
             {"live_requests", st.live_requests},     {"unexpected_left", st.unexpected_now},
             {"posted_left", st.posted_now},          {"amos", st.amos},
             {"events", sim->events_scheduled},       {"flows", sim->flows_started},
             {"simulated_time_s", sim->now()},        {"counters", st.counters}};
  Json res{{"scenario", s.id},
           {"machine", m->name},
           {"stack", s.stack},
           {"benchmark", s.benchmark},
           {"ranks", ranks},
           {"ranks_per_node", s.ranks_per_node},
           {"points", points},
           {"stats", stats}};
  res["provenance"] = {{"git_describe", git_describe()},
                       {"scenario_file", repo_relative(s.file)},
                       {"machine_file", repo_relative(m->file)},
                       {"engine", sim->name()},
                       {"routing", w.routing().name},
                       {"mapping", {{"map_by", platform::to_string(pl.map->map_by())},
                                    {"bind_to", platform::to_string(pl.map->bind_to())}}},
                       {"overrides", sets},
                       {"parameters", resolved(m->physical_params())},
                       {"mca", resolved(param_list(mca))}};
  stack_report(spec, res, StackReport{pl, mca, st});
  return res;
}

std::string run_isolated(const std::function<std::string()>& fn) {
  int fd[2];
  if (pipe(fd) != 0) throw std::runtime_error("pipe failed");
  fflush(nullptr);
  const pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    close(fd[0]), close(fd[1]);
    throw std::runtime_error("fork failed");
  }
  if (pid == 0) {
    setup_child_process(parent);  // own process group: a terminal's Ctrl-C reaches the parent only, which kills us
    close(fd[0]);
    std::string out;
    int code = 0;
    try {
      out = "OK" + fn();
    } catch (const InputError& e) {
      out = std::string("IE") + e.file() + '\0' + e.key() + '\0' + e.reason();  // rebuilt as it was by the parent
      code = 2;
    } catch (const std::exception& e) {
      out = std::string("ER") + e.what();
      code = 3;
    }
    std::size_t off = 0;
    while (off < out.size()) {
      ssize_t k = write(fd[1], out.data() + off, out.size() - off);
      if (k <= 0) break;
      off += static_cast<std::size_t>(k);
    }
    close(fd[1]);
    _exit(code);
  }
  close(fd[1]);
  std::string out;
  char buf[65536];
  // Wait for the child's result, looking at the interrupt flag at least every 100 ms (SIGINT / SIGTERM): on a signal
  // the child is killed (nothing of it is written anywhere but this pipe) and Interrupted propagates to main.
  while (true) {
    if (interrupt_signal()) {
      kill(pid, SIGKILL);
      close(fd[0]);
      while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
      }
      throw_if_interrupted();
    }
    pollfd pfd{fd[0], POLLIN, 0};
    int pr = poll(&pfd, 1, 100);
    if (pr < 0 && errno == EINTR) continue;
    if (pr <= 0) continue;
    ssize_t k = read(fd[0], buf, sizeof buf);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    out.append(buf, static_cast<std::size_t>(k));
  }
  close(fd[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  throw_if_interrupted();
  if (out.size() < 2) throw std::runtime_error("simulation process died (signal or crash)");
  std::string tag = out.substr(0, 2), body = out.substr(2);
  if (tag == "OK") return body;
  if (tag == "IE") {
    std::size_t a = body.find('\0'), b = a == std::string::npos ? a : body.find('\0', a + 1);
    if (b == std::string::npos) throw InputError("", "", body);
    throw InputError(body.substr(0, a), body.substr(a + 1, b - a - 1), body.substr(b + 1));
  }
  throw std::runtime_error(body);
}

// app_skeleton with "fit_compute": true: fit compute_per_step with openmpi-cm (bench::fit_app_compute, each evaluation in
// its own process), then run the scenario's stack with the fitted value; the fit is logged in provenance.derived.
static Json run_app_fitted(const Scenario& s, const Overrides& sets) {
  Scenario cm = s;
  cm.stack = "openmpi-cm";
  cm.stack_json = cm.stack;
  std::map<double, Json> runs;
  Json fit = bench::fit_app_compute(s.app, [&](double c) {
    cm.app.compute_per_step = c;
    Json r = Json::parse(run_isolated([&] { return run_one(cm, s.ranks[0], sets).dump(); }));
    runs[c] = r;
    return r["points"][0];
  });
  Json res = runs.at(fit["compute_per_step_s"].get<double>());  // the CM scenario's result is the fit's best run
  if (s.stack != "openmpi-cm") {
    Scenario fin = s;
    fin.app.compute_per_step = fit["compute_per_step_s"].get<double>();
    res = Json::parse(run_isolated([&] { return run_one(fin, s.ranks[0], sets).dump(); }));
  }
  fit.erase("point");
  res["provenance"]["derived"] = {{"compute_per_step (fitted)", fit}};
  return res;
}

Json run_scenario(const Scenario& s, const Overrides& sets) {
  if (s.benchmark == "app_skeleton") {
    if (s.ranks.size() != 1) throw InputError(s.file, "ranks", "app_skeleton runs one rank count (not a sweep)");
    if (s.app.compute_per_step <= 0) return run_app_fitted(s, sets);
  }
  const std::size_t nrad = std::max<std::size_t>(1, s.radices.size());
  if (s.ranks.size() == 1 && nrad == 1) return run_one(s, s.ranks[0], sets);
  Json merged;
  Json points = Json::array(), mailbox = Json::array(), derived = Json::array();
  // Each rank count (and, for barriers, each radix) runs in its own process: one SimGrid engine per process.
  std::vector<std::pair<long long, int>> runs;
  for (long long n : s.ranks)
    for (std::size_t k = 0; k < nrad; ++k) runs.emplace_back(n, s.radices.empty() ? 0 : s.radices[k]);
  for (const auto& nr : runs) {
    const long long n = nr.first;  // not a structured binding: clang 14 cannot capture those in the lambda below
    const int radix = nr.second;
    Scenario one_s = s;
    if (radix) one_s.barrier.radix = radix;
    Json one = Json::parse(run_isolated([&] { return run_one(one_s, n, sets).dump(); }));
    for (auto& p : one["points"]) points.push_back(p);
    // The mailbox what-if and the SMSG limit depend on the rank count, not the radix: once per count.
    const bool first_radix = s.radices.empty() || radix == s.radices.front();
    if (first_radix && one.contains("mailbox_memory")) mailbox.push_back(one["mailbox_memory"]);
    if (first_radix && one["provenance"].contains("derived")) {
      Json d = one["provenance"]["derived"];
      d["ranks"] = n;
      derived.push_back(d);
    }
    if (merged.is_null()) merged = one;
  }
  merged["points"] = points;
  merged["ranks"] = s.ranks.size() == 1 ? Json(s.ranks[0]) : Json(s.ranks);
  if (nrad > 1) merged["radix"] = s.radices;
  merged.erase("stats");
  // A sweep reports the mailbox what-if for every rank count (one object each, with its "ranks").
  if (!mailbox.empty()) merged["mailbox_memory"] = mailbox;
  // The effective SMSG limit also depends on the rank count (Table I): one entry per count.
  if (!derived.empty()) merged["provenance"]["derived"] = derived;
  return merged;
}

}  // namespace ompisim
