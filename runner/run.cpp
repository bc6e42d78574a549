#include "runner/run.hpp"

#include "core/progress.hpp"
#include "core/trace_file.hpp"
#include "mpi/trace_stack.hpp"
#include "platform/topology/route_policy_registry.hpp"
#include "runner/isolate.hpp"
#include "runner/registries.hpp"
#include "runner/report.hpp"
#include "runner/stacks.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fmt/format.h>
#include <tuple>
#include <iostream>
#include <optional>
#include <unordered_set>

namespace ompisim {

// A --set of a scenario's own key ("ranks", "machine", "benchmark.iterations"): said as such, with where such a value
// goes, rather than as an unknown parameter.
static void refuse_scenario_key(const std::string& k) {
  const std::string head = k.substr(0, k.find('.'));
  if (head == "mca") return;  // "mca.NAME": the did-you-mean names NAME
  const auto& keys = scenario_keys();
  if (std::none_of(keys.begin(), keys.end(), [&](const ScenarioKey& s) { return head == s.name; })) return;
  throw InputError("--set", k, fmt::format("a key of the scenario file, not a parameter: --set takes machine "
                                           "parameters (ompisim describe MACHINE) and MCA parameters (ompisim describe "
                                           "COMPONENT); give '{}' in a copy of the scenario, or as an axis of a sweep "
                                           "grid (ompisim schema grid)", k));
}

// The machine parameter a list names `k` (nullptr: none).
static const Sourced* named(const ParamList& list, const std::string& k) {
  for (auto& r : list)
    if (r.info.name == k) return r.p;
  return nullptr;
}

// A --set key no parameter of machine `here` has, looked for in every shipped machine (by its name, or the last part
// of it): " (a parameter of the osu-elan4 machine, not of cielo)", or "" when no machine has it. Only on the error path.
static std::string machines_with_param(const std::string& k, const std::string& here) {
  std::vector<std::string> with;
  for (const auto& [name, file] : list_machines()) {
    if (name == here) continue;
    try {
      const std::unique_ptr<Machine> other = load_machine(file);
      for (const auto& r : other->physical_params())
        if (r.info.name == k || r.info.name.ends_with("." + k)) {
          with.push_back(name);
          break;
        }
    } catch (const InputError&) {  // a machine file that does not load is said when it is run, not here
    }
  }
  if (with.empty()) return "";
  const std::size_t shown = std::min<std::size_t>(with.size(), 4);
  return fmt::format(" (a parameter of the {} machine{}{}, not of {})",
                     fmt::join(with.begin(), with.begin() + static_cast<std::ptrdiff_t>(shown), ", "),
                     with.size() == 1 ? "" : "s", with.size() > shown ? fmt::format(" and {} more", with.size() - shown) : "",
                     here);
}

// Applies --set; returns the parameters it set (machine and MCA), by the key given, for the unread check after the run
// (whether an MCA parameter's component is in the stack is checked by component, before).
static std::vector<std::pair<std::string, const Sourced*>> apply_sets(Machine& m, McaParams& mca, const Overrides& sets) {
  std::vector<std::pair<std::string, const Sourced*>> machine_sets;
  auto phys = m.physical_params();
  auto phys_long = m.physical_params_long();  // "networks.<net>.nic.<param>", always accepted
  auto mcal = param_list(mca);
  // One parameter under two names (its path, its long name, its last part: "nic.nic_latency", "nic_latency"): the
  // last would win without a word and the header would list both. The same name twice is the callers' layering (a
  // fit-uncertainty sample's values, then a machine's own what-if: the last wins); the command line refuses it.
  auto note = [&machine_sets](const std::string& k, const Sourced* p) {
    for (auto& [k0, p0] : machine_sets) {
      if (p0 != p || p == nullptr) continue;
      if (k0 == k) return;  // listed once
      throw InputError("--set", k, fmt::format("sets the same parameter as '{}': give it once", k0));
    }
    machine_sets.emplace_back(k, p);
  };
  for (auto& [k, v] : sets) {
    if (set_param(phys, k, v, "--set")) {
      note(k, named(phys, k));
      continue;
    }
    if (set_param(mcal, k, v, "--set")) {
      note(k, named(mcal, k));
      continue;
    }
    if (!m.short_names() || k.starts_with("networks.") || k.starts_with("node_types."))
      if (set_param(phys_long, k, v, "--set")) {
        note(k, named(phys_long, k));
        continue;
      }
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
      note(k, hits[0].p);
      continue;
    }
    refuse_scenario_key(k);
    auto names = param_names(phys);
    auto more = param_names(mcal);
    names.insert(names.end(), more.begin(), more.end());
    // A key of a network's topology ("groups", "topology.dims", "networks.cxi.topology.groups"): the shape of the
    // network is the machine file's, not a parameter: where to change it.
    const std::size_t dot = k.rfind('.');
    const std::string last = k.substr(dot + 1), prefix = dot == std::string::npos ? "" : k.substr(0, dot);
    // the NIC's kind names which model a network has: the machine file's too, not a parameter
    if (last == "kind" && (prefix == "nic" || prefix.ends_with(".nic")))
      throw InputError("--set", k, fmt::format("the NIC kind of machine {}'s networks (networks.<network>.nic.kind) "
                                               "names which NIC model runs, not a parameter: write a machine file "
                                               "with `ompisim machine template NAME --like {}`, change it there and "
                                               "run with --machine-file",
                                               m.name, m.name));
    const bool topology_path = prefix.empty() || prefix == "topology" || prefix.ends_with(".topology");
    for (const Network& net : m.networks())
      if (topology_path && net.topology_json.is_object() && net.topology_json.contains(last) && last != "note" &&
          last != "source")
        throw InputError("--set", k, fmt::format("a key of the topology of machine {}'s network {} "
                                                 "(networks.{}.topology.{}), not a parameter: write a machine file "
                                                 "with `ompisim machine template NAME --like {}`, change it there (and "
                                                 "node_list's count: the nodes that fill the network) and run with "
                                                 "--machine-file",
                                                 m.name, net.name, net.name, last, m.name));
    // A parameter another machine has, by that very name, says more than a near name of this machine's
    // ("nic.pcix_bandwidth" on Cielo is QsNet's, not a misspelt "nic.bte_bandwidth").
    std::string hint = machines_with_param(k, m.name);
    if (hint.empty())
      if (const std::string near = did_you_mean(k, names); !near.empty()) hint = " (did you mean '" + near + "'?)";
    throw InputError("--set", k, "unknown parameter" + hint);
  }
  return machine_sets;
}

// The scenario's machine: a name looked up in the machine directory, or the explicit --machine-file.
static std::unique_ptr<Machine> scenario_machine(const Scenario& s) {
  try {
    std::string file = s.machine_file;
    if (file.empty()) {
      std::vector<std::string> names;
      file = find_machine_file(s.machine, &names);
      if (file.empty()) {
        std::string hint = did_you_mean(s.machine, names);
        throw InputError(s.file, "machine", fmt::format("unknown machine '{}'{} ({}; or give a file with "
                                                        "--machine-file)", s.machine,
                                                        hint.empty() ? "" : " (did you mean '" + hint + "'?)",
                                                        known_machines_text(names)));
      }
    }
    return load_machine(file);
  } catch (const InputError& e) {
    if (e.file().empty()) throw InputError(s.file, "machine", e.reason());
    throw;
  }
}

namespace {
// What a run decides from its input before simulating (every InputError a run can raise from its input).
struct Prepared {
  std::unique_ptr<Machine> m;
  std::vector<std::pair<std::string, const Sourced*>> machine_sets;  // --set of machine and MCA parameters, by key
  std::vector<std::pair<std::string, const Sourced*>> scenario_mca;  // the scenario's own "mca" values, by key
  StackSpec spec;
  McaParams mca;
  Placement pl;
  const topology::RoutePolicyInfo* routing = nullptr;
  std::optional<NeighbourJob> neighbour;
  // The scenario's driver, or a copy that uses the collective library of the stack's preset on this machine where the
  // block names none and the parse could not know it (Driver::with_stack_collectives).
  std::shared_ptr<const bench::Driver> driver;
};

// The names of the engines whose registry entry satisfies `has`, comma-separated (what an error offers instead).
template <class Has>
static std::string engines_that(Has has) {
  std::vector<std::string> out;
  for (const auto& n : engines().names())
    if (has(*engines().find(n))) out.push_back(n);
  return fmt::format("{}", fmt::join(out, ", "));
}

// An engine option the engine does not take (a completion grid or a solve window on the exact engines) is refused,
// naming the key and the engines that take it.
static void check_engine_options(const Scenario& s) {
  const EngineInfo* e = engines().find(s.engine);
  if (e && !e->set_grid && s.engine_grid >= 0)
    throw InputError(s.file, "engine_grid",
                     fmt::format("engine '{}' shares no bandwidth: its flows end at fixed dates and it takes no "
                                 "completion grid (engines that take one: {})",
                                 s.engine, engines_that([](const EngineInfo& i) { return i.set_grid != nullptr; })));
  if (s.engine_window == 0 || !e || e->set_window) return;
  const std::string windowed = engines_that([](const EngineInfo& i) { return i.set_window != nullptr; });
  throw InputError(s.file, "engine_window", fmt::format("engine '{}' solves every flow start and end at its date and "
                                                        "takes no solve window (engines that take one: {})",
                                                        s.engine, windowed));
}

// Packet trains see neither flows nor link loads: refused with a neighbour job (its streams are flows) and with a
// route policy that chooses each transfer's route (from the flows on each link, or at random), where a train would
// take the node pair's one route and the policy's effect would be lost without a word.
static void check_packet_trains(const Scenario& s, World& w) {
  if (s.neighbour)
    throw InputError(s.file, "packet_trains",
                     "a neighbour job's traffic is endless flows, which packet trains do not see (trains and flows "
                     "share no link): run a neighbour job without packet_trains");
  for (int i = 0; i < w.networks(); ++i) {
    const topology::RoutePolicyInfo& r = w.fabric(i).routing();
    if (r.by_router_pair) continue;
    std::vector<std::string> fixed;
    for (const auto& n : topology::route_policies().names())
      if (const auto* p = topology::route_policies().find(n); p && p->by_router_pair) fixed.push_back(n);
    throw InputError(s.file, "packet_trains",
                     fmt::format("route policy '{}' chooses each transfer's route (from the flows on each link, or at "
                                 "random), which a packet train does not (it takes its node pair's one route and sees "
                                 "no flow): run with a policy that routes by router pair ({}) or without packet_trains",
                                 r.name, fmt::join(fixed, ", ")));
  }
}

// The scenario's neighbour job against the machine and the placement: its network, nodes the machine has, none of
// them running the job's ranks, an engine whose flows share bandwidth.
std::optional<NeighbourJob> check_neighbour(const Scenario& s, const Machine& m, const Placement& pl) {
  if (!s.neighbour) return std::nullopt;
  NeighbourJob j = *s.neighbour;
  const EngineInfo* e = engines().find(s.engine);
  if (e && !e->shares_bandwidth) {
    const std::string sharing = engines_that([](const EngineInfo& i) { return i.shares_bandwidth; });
    throw InputError(s.file, "neighbour_job", fmt::format("engine '{}' does not share bandwidth between flows: another "
                                                          "job's traffic cannot congest it (engines that share: {})",
                                                          s.engine, sharing));
  }
  std::vector<std::string> names;
  for (std::size_t i = 0; i < m.networks().size(); ++i) {
    names.push_back(m.networks()[i].name);
    if (m.networks()[i].name == s.neighbour_network) j.net = static_cast<int>(i);
  }
  if (!s.neighbour_network.empty() && j.net < 0)
    throw InputError(s.file, "neighbour_job.network", fmt::format("machine {} has no network '{}' (networks: {})",
                                                                  m.name, s.neighbour_network, fmt::join(names, ", ")));
  if (s.neighbour_network.empty() && names.size() > 1)
    throw InputError(s.file, "neighbour_job.network", fmt::format("machine {} has {} networks: say which one the "
                                                                  "neighbour job uses ({})", m.name, names.size(),
                                                                  fmt::join(names, ", ")));
  std::unordered_set<long long> used(pl.nodes.begin(), pl.nodes.end());
  for (long long n : j.nodes) {
    if (n >= m.nodes)
      throw InputError(s.file, "neighbour_job.nodes", fmt::format("node {} is not in machine {} (nodes 0..{})", n,
                                                                  m.name, m.nodes - 1));
    if (used.count(n))
      throw InputError(s.file, "neighbour_job.nodes", fmt::format("node {} runs ranks of this job: a neighbour job "
                                                                  "runs on other nodes", n));
  }
  return j;
}

// The scenario's stack as machine `m` resolves it (InputError as resolve_stack raises it), and the preset it is (or
// null: a stack object equal to no preset).
std::pair<StackSpec, const StackInfo*> machine_stack(const Scenario& s, const Machine& m) {
  const std::vector<std::string> kinds = m.nic_kinds();
  StackSpec spec = resolve_stack(s.stack_json.is_null() ? Json(s.stack) : s.stack_json, kinds, m.name, s.file);
  const StackInfo* preset = stack_preset(spec, kinds);
  return {std::move(spec), preset};
}

Prepared prepare(const Scenario& s, long long ranks, const Overrides& sets) {
  Prepared p;
  p.m = scenario_machine(s);
  Machine& m = *p.m;
  // What loading read is not the model's use: from here on a parameter is read by the run (its topology, its
  // components' checks, the simulation).
  for (auto& r : m.physical_params_long()) r.p->read = false;
  // Every network's NIC kind: a stack's components each drive one of them (bml/r2 picks per peer among the BTLs).
  const std::vector<std::string> kinds = m.nic_kinds();
  // The preset's version defaults (StackInfo::mca), then the machine's, the scenario's and --set.
  const StackInfo* preset = nullptr;
  std::tie(p.spec, preset) = machine_stack(s, m);
  p.mca = machine_mca(m, preset ? &preset->mca : nullptr);
  {
    std::vector<std::string> keys;
    for (auto it = s.mca.begin(); it != s.mca.end(); ++it) keys.push_back(it.key());
    check_mca_keys(keys, p.spec, s.stack, fmt::format("{}", fmt::join(kinds, " + ")), s.file);
    for (auto& [k, v] : sets) check_mca_family(k, kinds, "--set");
    ObjectReader mr(s.mca, s.file, "mca");
    auto list = param_list(p.mca);
    load_overrides(mr, list, "scenario " + s.id);
    for (auto& k : keys)
      if (const Sourced* src = named(list, k)) p.scenario_mca.emplace_back(k, src);
  }
  const CollLibrary library = preset ? preset->collectives : CollLibrary{};
  p.driver = s.driver;
  if (auto d = s.driver->with_stack_collectives(library.name)) p.driver = std::move(d);
  // The benchmark's rules that depend on the stack's components, with the stack as this machine resolves it, at the
  // one rank count being prepared (parsing checked them all; check_run_input prepares each in turn).
  p.driver->check(bench::DriverContext{s.file, {ranks}, s.stack, s.stack_json, stack_has_network_atomics(p.spec),
                                       nullptr, m.name, library.name});
  p.machine_sets = apply_sets(m, p.mca, sets);
  if (!sets.empty()) m.rebuild_topology();  // links follow overridden link parameters
  // What a component cannot run (a message over its one-packet limit), with every value the run will use.
  try {
    const std::optional<bench::MessageBound> largest = p.driver->largest_message();
    check_stack_input(p.spec,
                      ComponentCheck{m, p.mca, largest ? largest->bytes : 0, largest ? largest->key : "", ranks});
  } catch (const InputError& e) {
    if (!e.file().empty()) throw;
    // A value --set gave is the command line's, not the scenario file's: named as --set where the key, or another
    // parameter the reason names, is one it set.
    const std::string name = e.key().starts_with("mca.") ? e.key().substr(4) : e.key();
    for (const auto& [k, v] : sets)
      if (k == name) throw InputError("--set", k, e.reason());
    if (e.key().starts_with("mca."))
      for (const auto& [k, v] : sets)
        if (e.reason().find(k) != std::string::npos) throw InputError("--set", k, e.reason());
    throw InputError(s.file, e.key(), e.reason());
  }
  p.pl = make_placement(m, ranks, s.ranks_per_node, s.nodes, s.file, s.mapping);
  // A scenario's route policy applies to every network: each network's topology must know it.
  if (!s.routing.empty())
    for (auto& net : m.networks()) p.routing = &topology::find_route_policy(s.routing, net.topology->kind(), s.file, "routing");
  p.neighbour = check_neighbour(s, m, p.pl);
  check_engine_options(s);
  return p;
}
}  // namespace

CollLibrary machine_collectives(const Scenario& s) {
  const StackInfo* preset = machine_stack(s, *scenario_machine(s)).second;
  return preset ? preset->collectives : CollLibrary{};
}

void use_machine_collectives(Scenario& s) {
  if (auto d = s.driver->with_stack_collectives(machine_collectives(s).name)) s.driver = std::move(d);
}

void check_run_input(const Scenario& s, const Overrides& sets) {
  for (long long n : s.ranks) (void)prepare(s, n, sets);
}

Overrides canonical_sets(const Scenario& s, const Overrides& sets) {
  if (sets.empty() || s.ranks.empty()) return sets;
  Prepared p = prepare(s, s.ranks.front(), sets);
  std::map<const Sourced*, std::string> name_of;  // a machine parameter's path ("nic.bte_bandwidth")
  for (auto& r : p.m->physical_params()) name_of.emplace(r.p, r.info.name);
  Overrides out;
  for (auto& [k, v] : sets) {
    std::string name = k;
    for (auto& [given, src] : p.machine_sets)
      if (given == k && name_of.count(src)) name = name_of.at(src);
    out.emplace_back(name, v);
  }
  return out;
}

void check_mca_names(const Scenario& s, const std::vector<std::string>& names, const std::string& option) {
  if (names.empty()) return;
  const std::unique_ptr<Machine> m = scenario_machine(s);
  const std::vector<std::string> kinds = m->nic_kinds();
  for (const auto& k : names)
    if (mca_owner(k)) check_mca_family(k, kinds, option);  // the machine's NIC first: the precise reason
  const StackSpec spec = machine_stack(s, *m).first;
  check_mca_keys(names, spec, s.stack, fmt::format("{}", fmt::join(kinds, " + ")), option);
}

void check_sets_read(const Scenario& s, const Overrides& sets) {
  std::vector<std::string> set_mca;
  for (auto& [k, v] : sets)
    if (mca_owner(k)) set_mca.push_back(k);
  check_mca_names(s, set_mca, "--set");
}

void require_conservation(const StackStats& st, const std::string& id, const Overrides& sets) {
  // Every send and receive the benchmark posted completes (message conservation): a run that ends with some still
  // live stalled in the modelled protocol, and its figures (a size whose loop never finished reads 0) mean nothing.
  if (st.live_requests == 0) return;
  std::string with;
  for (auto& [k, v] : sets) with += fmt::format("{} --set {}={}", with.empty() ? ", with" : "", k, v);
  throw std::runtime_error(fmt::format(
      "scenario {}: the run ended with {} of {} sends and {} of {} receives incomplete (the modelled protocol stalled "
      "at these settings{}); no result is written",
      id, st.sends_posted - st.sends_completed, st.sends_posted, st.recvs_posted - st.recvs_completed,
      st.recvs_posted, with));
}

Json run_one(const Scenario& s, long long ranks, const Overrides& sets, const TraceRequest* trace) {
  Prepared p = prepare(s, ranks, sets);
  Machine& m = *p.m;
  const StackSpec& spec = p.spec;
  McaParams& mca = p.mca;
  Placement& pl = p.pl;
  const topology::RoutePolicyInfo* routing = p.routing;
  std::unique_ptr<TraceSink> sink;  // outlives the simulator and the World that report to it
  if (trace) {
    const long long job = trace->largest_job > 0 ? trace->largest_job : ranks;
    for (auto& [a, b] : trace->filter.ranks)
      if (b >= job)
        throw InputError("--trace-ranks", trace->ranks_text,
                         fmt::format("rank {} is not in the job (scenario {} runs ranks 0..{}{})", a >= job ? a : b,
                                     s.id, job - 1, trace->largest_job > 0 ? " in its largest point" : ""));
    sink = open_trace(trace->path, trace->filter);
  }
  std::unique_ptr<Simulator> sim = engines().find(s.engine)->make();
  const EngineInfo& engine = *engines().find(s.engine);
  if (s.engine_window > 0) engine.set_window(*sim, s.engine_window);
  if (engine.set_grid) engine.set_grid(*sim, s.engine_grid >= 0 ? s.engine_grid : kDefaultEngineGrid);
  sim->trace = sink.get();
  World w(*sim, m, pl, routing);
  if (p.neighbour) w.set_neighbour_job(*p.neighbour);
  if (s.packet_trains > 0) check_packet_trains(s, w);
  for (int i = 0; i < w.networks(); ++i) w.fabric(i).set_packet_trains(s.packet_trains);
  std::unique_ptr<Stack> stack;
  try {
    stack = build_stack(w, mca, spec, s.stack);
  } catch (const InputError& e) {  // a component refusing its MCA choices names the key: the file is the scenario's
    if (e.file().empty()) throw InputError(s.file, e.key(), e.reason());
    throw;
  }
  if (sink) stack = std::make_unique<TracingStack>(std::move(stack), *sim, *sink);
  Json points;
  // The fabric's resources, before seal(); each flow's path is built when the flow starts.
  w.declare_resources();
  sim->seal();
  try {
    points = p.driver->run(w, *stack, s.file);
  } catch (const InputError& e) {  // found while simulating (a size the stack cannot send): the scenario's file
    if (e.file().empty()) throw InputError(s.file, e.key(), e.reason());
    throw;
  }
  const StackStats st = stack->stats();
  require_conservation(st, s.id, sets);
  if (sink) {
    sink->finish();
    const auto& c = sink->counts;
    std::cerr << fmt::format("ompisim: wrote trace {} ({} CPU spans, {} NIC engine spans, {} of {} flows, {}{} of {} "
                             "messages, {} of {} AMOs){}\n", trace->path, c.cpu, c.nic, c.flows, c.flows_seen,
                             c.trains_seen > 0 ? fmt::format("{} of {} packet trains, ", c.trains, c.trains_seen) : "",
                             c.messages, c.messages_seen, c.amos, c.amos_seen,
                             c.time_origin > 0 ? fmt::format("; its time 0 is {:.6f} ms of simulated time", c.time_origin * 1e3)
                                               : std::string());
    // A window the run never reached keeps nothing: say so, with the run's span.
    if (c.cpu + c.nic + c.flows + c.trains + c.messages + c.amos == 0 && trace->filter.t0 > sim->now())
      std::cerr << fmt::format("ompisim: warning: the trace is empty: --trace-window starts at {} ms of simulated "
                               "time, after the run's end at {:.6f} ms\n",
                               trace->filter.t0 < 1e6 ? fmt::format("{:.6f}", trace->filter.t0 * 1e3)
                                                      : fmt::format("{:.6g}", trace->filter.t0 * 1e3),
                               sim->now() * 1e3);
    // A trace past what a viewer opens quickly (Perfetto, ViTE): say how to keep a part of it.
    constexpr std::uintmax_t kLargeTrace = 100ull << 20;
    std::error_code ec;
    const std::uintmax_t bytes = std::filesystem::file_size(trace->path, ec);
    if (!ec && bytes > kLargeTrace)
      std::cerr << fmt::format("ompisim: note: the trace is {} MiB; --trace-window START:END (simulated time, e.g. "
                               "0:1ms) or --trace-ranks LIST keeps a part of it\n", bytes >> 20);
  }
  // A parameter set by --set (machine or MCA) that nothing of the run read changed nothing: the result says so. An
  // MCA parameter is read when its component opens; one of a component that carried no message of the run (btl/vader
  // with a node per rank) changed nothing either.
  const std::vector<std::string> idle = stack->idle_components();
  auto idle_owner = [&idle](const std::string& key) {  // an MCA parameter of a component that carried no message
    const ComponentInfo* owner = mca_owner(key);
    return owner && std::find(idle.begin(), idle.end(), owner->id()) != idle.end();
  };
  Json unread = Json::array(), idle_sets = Json::array();
  for (auto& [k, src] : p.machine_sets) {
    if (src != nullptr && !src->read) unread.push_back(k);
    else if (idle_owner(k)) idle_sets.push_back(k);
  }
  // The same of the scenario's own "mca" block: a value for a component that carried no message changed nothing.
  // A value of a component that did carry messages but whose path never read it (btl_ugni_fma_limit where no RDMA
  // ran) changed nothing as well: unread, as a --set would be.
  Json idle_mca = Json::array(), unread_mca = Json::array();
  for (auto& [k, src] : p.scenario_mca) {
    if (idle_owner(k)) idle_mca.push_back(k);
    else if (!src->read) unread_mca.push_back(k);
  }
  Json res = result_json(RunRecord{s, ranks, sets, m, *sim, w, pl, mca, spec, st, std::move(points)});
  // the collectives note of the driver that ran (the stack's library on this machine), not of the parsed one
  if (const std::string note = p.driver->collectives_note(); !note.empty() && p.driver->ran_collectives(res["points"]))
    res["provenance"]["collectives"] = note;
  if (!unread.empty()) res["provenance"]["unread_overrides"] = std::move(unread);
  if (!idle_sets.empty()) res["provenance"]["idle_overrides"] = std::move(idle_sets);
  if (!idle_mca.empty()) res["provenance"]["idle_mca"] = std::move(idle_mca);
  if (!unread_mca.empty()) res["provenance"]["unread_mca"] = std::move(unread_mca);
  // MPI_Alloc_mem buffers on a stack none of whose paths depends on the allocation changed nothing either.
  if (const std::string k = p.driver->alloc_mem_key(); !k.empty() && !stack->reads_buffer_allocation())
    res["provenance"]["unread_inputs"] = Json::array({k});
  return res;
}

Json run_scenario(const Scenario& s, const Overrides& sets, const TraceRequest* trace) {
  // Input the driver derives from runs of its own (app_skeleton's fitted compute), each run in its own process.
  const bench::Rerun rerun = [&](const bench::Driver& d, const std::string& stack) {
    if (trace)
      throw InputError("--trace", trace->path, fmt::format("benchmark '{}' of scenario {} derives its input from runs of "
                                                           "its own: not traced (trace a scenario that runs once)",
                                                           s.benchmark, s.id));
    Scenario x = s;
    x.driver = d.clone();
    if (!stack.empty()) {
      x.stack = stack;
      x.stack_json = stack;
    }
    return Json::parse(run_isolated([&] { return run_one(x, s.ranks[0], sets).dump(); }));
  };
  if (auto derived = s.driver->run_derived(rerun)) return *derived;
  const std::size_t nvalues = std::max<std::size_t>(1, s.driver->axis_values().size());
  if (s.ranks.size() == 1 && nvalues == 1) return run_one(s, s.ranks[0], sets, trace);
  // Each rank count (and each value of the driver's axis: barrier radices) runs in its own process: one SimGrid
  // engine per process, and with --trace one trace file per point.
  const std::vector<std::string> trace_paths = trace ? point_trace_paths(s, trace->path) : std::vector<std::string>{};
  SweepReport report(s);
  std::size_t point = 0;
  for (long long n : s.ranks)
    for (std::size_t k = 0; k < nvalues; ++k) {
      std::optional<TraceRequest> point_trace;
      if (trace) {
        point_trace = *trace;
        point_trace->path = trace_paths.at(point);
        point_trace->largest_job = *std::max_element(s.ranks.begin(), s.ranks.end());
      }
      progress::points(point++, s.ranks.size() * nvalues,
                       fmt::format("{} ranks={}{}", s.id, n, s.driver->axis_values().empty() ? std::string()
                                                                 : fmt::format(" {}={}", s.driver->axis(), s.driver->axis_values()[k].dump())));
      Scenario one_s = s;
      if (!s.driver->axis_values().empty()) {
        auto d = s.driver->clone();
        d->select(k);
        one_s.driver = std::move(d);
      }
      report.add(n, k, Json::parse(run_isolated([&] {
                   return run_one(one_s, n, sets, point_trace ? &*point_trace : nullptr).dump();
                 })));
    }
  progress::clear();
  return report.finish();
}

std::vector<std::string> point_trace_paths(const Scenario& s, const std::string& path) {
  const std::vector<Json> values = s.driver->axis_values();
  if (s.ranks.size() == 1 && values.size() <= 1) return {path};
  const std::filesystem::path p(path);
  std::vector<std::string> out;
  for (long long n : s.ranks)
    for (std::size_t k = 0; k < std::max<std::size_t>(1, values.size()); ++k) {
      std::string tail = s.ranks.size() > 1 ? fmt::format("-ranks{}", n) : std::string();
      if (values.size() > 1) {
        std::string v = values[k].is_string() ? values[k].get<std::string>() : values[k].dump();
        for (char& c : v)  // a safe name (core/safe_name.hpp): letters, digits, '.', '_', '-'
          if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
        tail += "-" + s.driver->axis() + v;
      }
      out.push_back((p.parent_path() / (p.stem().string() + tail + p.extension().string())).string());
    }
  return out;
}

}  // namespace ompisim
