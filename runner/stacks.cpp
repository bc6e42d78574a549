#include "runner/stacks.hpp"

#include "collectives/decision.hpp"
#include "core/errors.hpp"
#include "core/json_input.hpp"
#include "protocols/btl/btl.hpp"
#include "protocols/mtl/mtl.hpp"
#include "protocols/mtl/ofi/ofi_stacks.hpp"
#include "runner/registries.hpp"

#include <algorithm>
#include <map>
#include <fmt/format.h>

namespace ompisim {

namespace {
// A stack composed from registered components: the modules (BTLs or one MTL) built by their components' factories,
// and the PML built over them. Counters: the PML's, then every module's own (McaModule::add_counters), each set once.
class ComposedStack final : public Stack {
public:
  std::vector<std::unique_ptr<McaModule>> modules;  // declared first: destroyed after the PML that uses them
  std::unique_ptr<Stack> pml;

  std::string name() const override { return pml->name(); }
  void start_send(const mpi::P2P& m, Completion c) override { pml->start_send(m, std::move(c)); }
  void start_recv(const mpi::P2P& m, Completion c) override { pml->start_recv(m, std::move(c)); }
  std::uint32_t max_contextid() const override { return pml->max_contextid(); }
  void amo_add(int r, int t, Completion l, Completion a, AmoVia v) override {
    pml->amo_add(r, t, std::move(l), std::move(a), v);
  }
  std::map<std::string, double> coll_tunables() const override { return pml->coll_tunables(); }
  std::vector<std::string> idle_components() const override { return pml->idle_components(); }
  bool reads_buffer_allocation() const override { return pml->reads_buffer_allocation(); }
  StackStats stats() const override {
    StackStats s = pml->stats();
    // Each module's own counters, set (not added) into the stack's: a PML that already reports its MTL's counters
    // (pml/cm) gives the same values, not twice them.
    for (auto& m : modules) {
      std::map<std::string, std::uint64_t> own;
      m->add_counters(own);
      for (auto& [k, v] : own) s.counters[k] = v;
    }
    return s;
  }
};

std::string hint_text(const std::string& hint) { return hint.empty() ? "" : " (did you mean '" + hint + "'?)"; }
// A stack name no preset has: the nearest name as a hint, and every name. With the machine known (`machine`, the
// presets that run on it `here`): the hint is among those that run there when one is near, and they are listed first.
[[noreturn]] void unknown_stack(const std::string& file, const std::string& name, const std::vector<std::string>& names,
                                const std::vector<std::string>& here = {}, const std::string& machine = "") {
  // A component's name where a stack's goes ("ob1", "pml/ob1", "ugni"): the component, and where it is named.
  for (const ComponentInfo& c : component_registry().all())
    if (name == c.name || name == c.id()) {
      std::vector<std::string> with;  // the presets that have it, each with its NIC kind and object
      for (const StackInfo* s : presets_with(c))
        with.push_back(fmt::format("{} ({} machines) {}", s->name, s->nic_kind, s->spec.to_json().dump()));
      throw InputError(file, "stack", fmt::format("'{}' is a component ({}), not a stack: give a preset that has it or "
                                                  "such an object of components ({}; ompisim describe {})",
                                                  name, c.id(), with.empty() ? std::string("no preset has it")
                                                  : fmt::format("{}", fmt::join(with, "; ")), c.id()));
    }
  std::string hint = did_you_mean(name, here);
  if (hint.empty() && here.empty()) hint = did_you_mean(name, names);
  std::vector<std::string> elsewhere;
  for (const auto& n : names)
    if (std::find(here.begin(), here.end(), n) == here.end()) elsewhere.push_back(n);
  const std::string known =
      here.empty() ? fmt::format("known: {}", fmt::join(names, ", "))
                   : fmt::format("on machine '{}': {}; on other machines: {}", machine, fmt::join(here, ", "),
                                 fmt::join(elsewhere, ", "));
  throw InputError(file, "stack", fmt::format("unknown stack '{}'{} ({}; or an object of components, e.g. "
                                              "{{\"pml\": \"ob1\", \"btl\": [\"self\", \"vader\"]}})",
                                              name, hint_text(hint), known));
}
}  // namespace

bool StackSpec::has(const std::string& fw) const {
  return std::any_of(parts.begin(), parts.end(), [&](const StackPart& p) { return p.framework == fw; });
}

std::string StackSpec::get(const std::string& fw) const {
  for (auto& p : parts)
    if (p.framework == fw) return p.name;
  return "";
}

std::vector<std::string> StackSpec::list(const std::string& fw) const {
  std::vector<std::string> out;
  for (auto& p : parts)
    if (p.framework == fw) out.push_back(p.name);
  return out;
}

void StackSpec::add(const std::string& fw, const std::string& name) {
  const std::size_t at = stack_framework_index(fw);
  auto it = std::find_if(parts.begin(), parts.end(),
                         [&](const StackPart& p) { return stack_framework_index(p.framework) > at; });
  parts.insert(it, {fw, name});
}

std::vector<StackSpec::Component> StackSpec::components() const {
  std::vector<Component> out;
  for (const StackFramework& f : stack_frameworks()) {
    const auto names = list(f.name);
    const std::string key = "stack." + f.name;
    if (f.value == StackFramework::Value::Selection) {  // each component the selection names, under its one key
      std::string why;
      for (auto& text : names)
        if (auto comps = f.expand(text, why))
          for (auto& c : *comps) out.push_back({f.name, c, key});
    } else if (f.value == StackFramework::Value::List) {
      for (std::size_t i = 0; i < names.size(); ++i) out.push_back({f.name, names[i], fmt::format("{}[{}]", key, i)});
    } else {
      for (auto& n : names) out.push_back({f.name, n, key});
    }
  }
  return out;
}

Json StackSpec::to_json() const {
  Json j = Json::object();
  for (const StackFramework& f : stack_frameworks()) {
    if (!has(f.name)) continue;
    if (f.value == StackFramework::Value::List) j[f.name] = list(f.name);
    else j[f.name] = get(f.name);
  }
  return j;
}

void StackRegistry::add(StackInfo info) {
  if (info.name.empty()) throw std::invalid_argument("stack: empty name");
  if (find(info.name, info.nic_kind))
    throw std::invalid_argument("stack '" + info.name + "' registered twice for NIC kind '" + info.nic_kind + "'");
  entries_.push_back(std::move(info));
}

void StackRegistry::set_collectives(const std::string& name, const std::string& nic_kind, CollLibrary lib) {
  auto it = std::find_if(entries_.begin(), entries_.end(),
                         [&](const StackInfo& e) { return e.name == name && e.nic_kind == nic_kind; });
  if (it == entries_.end()) throw std::invalid_argument("stack '" + name + "' is not registered for NIC kind '" + nic_kind + "'");
  if (coll::decision_file(lib.name).empty())
    throw std::invalid_argument("stack '" + name + "': no collective decision '" + lib.name + "'");
  it->collectives = std::move(lib);
}

const StackInfo* StackRegistry::find(const std::string& name, const std::string& nic_kind) const {
  for (auto& e : entries_)
    if (e.name == name && e.nic_kind == nic_kind) return &e;
  return nullptr;
}

namespace {
// Each preset whose MPI version's collective decision is transcribed (collectives/decision/*.json). Not here: Cray MPT
// on Gemini (closed; its MPICH2 base release is not documented), the 2004 Open MPI of the QsNet paper (pml/teg, before coll/tuned) and MPICH-QsNetII, the LogGP
// reference stack.
void register_collective_libraries(StackRegistry& reg) {
  const std::string v5 = "slingshot-ex paper §IV: 'Open MPI was based on v5.0.0rc11'; coll/tuned's fixed decision of "
                         "v5.0.x (collectives/decision/ompi_v5_tuned.json)";
  const std::string v13 = "seastar-portals paper §2.4: 'the trunk version of Open MPI (1.3 pre-release)'; coll/tuned's "
                          "fixed rules of v1.3 (collectives/decision/ompi_v1_3_tuned.json)";
  const std::string r26242 = "Gemini paper §IV.C: Open MPI trunk r26242 (bd8b4f7f1e, 2012-04-06); its "
                             "coll_tuned_decision_fixed.c makes v1.3's choices but for one reduce branch (git diff -w "
                             "v1.3.0 bd8b4f7f1e), so coll/tuned's fixed rules of v1.3 with that branch "
                             "(collectives/decision/ompi_r26242_tuned.json, based on ompi_v1_3_tuned.json)";
  const std::string v11 = "heterogeneous paper §5: 'Open MPI 1.1.1 pre-release'; coll/tuned's fixed decision of v1.1 "
                          "(collectives/decision/ompi_v1_1_tuned.json)";
  struct Row {
    std::string name, nic_kind;
    CollLibrary lib;
  };
  const std::vector<Row> rows{
      {"openmpi-linkx", "cxi", {"tuned", v5}},
      {"openmpi-cxi", "cxi", {"tuned", v5}},
      {"native", "cxi",
       {"mpich", "slingshot-ex paper §IV: 'CrayMPICH was version 8.1.23'; Cray MPICH 8.1 derives from MPICH 3.4, whose "
                 "v3.4a2 selection with Cray's documented bcast tunables is collectives/decision/mpich_default.json"}},
      {"openmpi", "gemini", {"tuned-r26242", r26242}},
      {"openmpi-cm", "seastar", {"tuned-v1.3", v13}},
      {"openmpi-ob1", "seastar", {"tuned-v1.3", v13}},
      {"native", "seastar",
       {"mpich2-1.0", "seastar-portals paper §2.2: 'Cray MPI is derived from MPICH-2'; MPICH2 1.0.x's default "
                      "selection (collectives/decision/mpich2_v1_0.json)"}},
      {"openmpi", "ib-sdr-pcie", {"tuned-v1.1", v11}},
      {"openmpi-mvapi", "ib-sdr-pcie", {"tuned-v1.1", v11}},
      {"openmpi-gm", "myrinet-2000", {"tuned-v1.1", v11}},
      {"openmpi", "gige", {"tuned-v1.1", v11}}};
  for (const Row& r : rows) reg.set_collectives(r.name, r.nic_kind, r.lib);
}

// A preset's components, written as a scenario's stack object and read as one.
StackSpec preset(const Json& components) { return parse_stack_object(components, "runner/stacks.cpp"); }
}  // namespace

void register_stacks(StackRegistry& reg) {
  reg.add({"openmpi", "gemini", "Open MPI: pml/ob1 + bml/r2 + btl/self, btl/vader (XPMEM), btl/ugni; Cheetah uGNI BCOL",
           preset({{"pml", "ob1"}, {"btl", {"self", "vader", "ugni"}}})});
  reg.add({"native", "gemini", "Cray MPT: MPICH2 CH3/Nemesis with the uGNI netmod (same hardware, different protocol)",
           preset({{"native", "mpich_gni"}})});
  // The seastar-portals paper (EuroPVM/MPI 2007, §2.4): "the trunk version of Open MPI (1.3 pre-release)", i.e. the
  // trunk of 2007, before e361bcb64c (2008-05-30) took ob1's early completion out. Its fragment schedule is left at
  // the code default (pml_ob1_frag_schedule weighted_length, the trunk from 2007-07-01): the paper does not date its
  // checkout within 2007, and with one BTL per peer (self, portals) both schedules send the same fragments.
  const std::string trunk2007 = "Open MPI trunk of 2007 (1.3 pre-release): seastar-portals paper §2.4, EuroPVM/MPI 2007";
  reg.add({"openmpi-cm", "seastar", "Open MPI: pml/cm + mtl/portals (matching by Portals on the SeaStar)",
           preset({{"pml", "cm"}, {"mtl", "portals"}}), trunk2007});
  reg.add({"openmpi-ob1", "seastar", "Open MPI: pml/ob1 + bml/r2 + btl/self, btl/portals (matching in the host)",
           preset({{"pml", "ob1"}, {"btl", {"self", "portals"}}}), trunk2007,
           Json{{"pml_ob1_use_early_completion",
                 {{"value", 1},
                  {"source", "open-mpi/ompi trunk of 2007 (e.g. 8643f38adf, 2007-07): ompi/mca/pml/ob1/pml_ob1_sendreq.c "
                             "mca_pml_ob1_send_request_start_copy calls MCA_PML_OB1_SEND_REQUEST_MPI_COMPLETE after "
                             "packing and before mca_bml_base_send; removed by e361bcb64c (2008-05-30), after the "
                             "paper (EuroPVM/MPI 2007)"}}},
                {"btl_portals_send_end_event",
                 {{"value", 1},
                  {"source", "open-mpi/ompi trunk of 2007 (d109e9a6f4, 2007-07-14): ompi/mca/btl/portals/"
                             "btl_portals_send.c:64-65 binds a send fragment's MD with PTL_MD_EVENT_START_DISABLE only, "
                             "and PtlPutRegion asks PTL_ACK_REQ (:90), so progress reads SEND_END and the ACK "
                             "(btl_portals_component.c:455, :473); END_DISABLE under ACKs came with btl_portals_needs_ack "
                             "(27c425b304, 2008-04-21)"}}},
                {"btl_portals_peer_window",
                 {{"value", 1},
                  {"source", "calibration (validation/reference/seastar-portals.json, seastar.msgrate.ob1_half): the "
                             "paper's §3 'The OB1 message rate is nearly half of the other implementations, due to both "
                             "protocol overhead and rate limiting to ensure message reliability', modelled as a window "
                             "of fragments in flight per peer and fitted on that sentence (1, the smallest window, "
                             "comes closest: OB1 at 44.0 % of CM's rate and 52.3 % of Cray MPI's, 2 gives 66 % of "
                             "CM's); no Open MPI source read has such a limit (btl_portals_mca.hpp)"}}}}});
  reg.add({"native", "seastar",
           "Cray MPI (XT MPT, MPICH2 over Portals): eager up to MPICH_MAX_SHORT_MSG_SIZE, rendezvous get above",
           preset({{"native", "mpich_portals"}})});
  reg.add({"openmpi-linkx", "cxi",
           "Open MPI 5: pml/cm + mtl/ofi over LINKx joining the shm and cxi providers (slingshot-ex)",
           preset({{"pml", "cm"}, {"mtl", "ofi"}, {"ofi", "shm+cxi:linkx"}})});
  reg.add({"openmpi-cxi", "cxi",
           "Open MPI 5: pml/cm + mtl/ofi over the cxi provider alone (on-node messages go through the NIC)",
           preset({{"pml", "cm"}, {"mtl", "ofi"}, {"ofi", "cxi"}})});
  reg.add({"native", "cxi", "Cray MPICH over libfabric CXI, with its own shared-memory and GPU IPC paths",
           preset({{"native", "mpich_cxi"}})});
  reg.add({"openmpi-elan4", "qsnet",
           "Open MPI (2004): pml/teg + ptl/elan4 (QDMA, RDMA read/write, chained events, progress threads)",
           preset({{"pml", "teg"}, {"ptl", {"elan4"}}})});
  reg.add({"native", "qsnet", "MPICH-QsNetII over Tport: NIC tag matching, 32-byte header, NIC-driven large messages",
           preset({{"native", "mpich_qsnet"}})});
  reg.add({"elan4-qdma", "qsnet", "raw libelan4 QDMA ping-pong (Fig. 9's QDMA latency)",
           preset({{"native", "elan4_qdma"}})});
  // Open MPI 1.1 on commodity clusters (the heterogeneous paper, 2006): bml/r2 stripes over every BTL that reaches a
  // peer. "openmpi" lists both of lanl-multi-nic's networks; "openmpi" on a GigE machine is btl/tcp.
  // The heterogeneous paper (§5): "Open MPI 1.1.1 pre-release". Its ob1 completes an eager send packed by start_copy
  // at once (v1.1.0 to v1.1.5 pml_ob1_sendreq.c / .h, MCA_PML_OB1_SEND_REQUEST_MPI_COMPLETE before the BTL send).
  const std::string v11 = "Open MPI 1.1.1 pre-release: heterogeneous paper §5";
  const Json v11_mca{{"pml_ob1_use_early_completion",
                      {{"value", 1},
                       {"source", "open-mpi/ompi v1.1.0 to v1.1.5 ompi/mca/pml/ob1/pml_ob1_sendreq.c "
                                  "mca_pml_ob1_send_request_start_copy (and the zero-byte path of "
                                  "MCA_PML_OB1_SEND_REQUEST_START): MCA_PML_OB1_SEND_REQUEST_MPI_COMPLETE after packing, "
                                  "before mca_bml_base_send"}}},
                     {"pml_ob1_frag_schedule",
                      {{"value", "remaining"},
                       {"source", "open-mpi/ompi v1.1.0 to v1.1.5 ompi/mca/pml/ob1/pml_ob1_sendreq.c "
                                  "mca_pml_ob1_send_request_schedule and pml_ob1_recvreq.c "
                                  "mca_pml_ob1_recv_request_schedule: each fragment btl_weight x bytes_remaining, round "
                                  "robin (mca_pml_ob1_calc_weighted_length's split up front is v1.3 on: 54b40aef91, "
                                  "e74aa6b295, 2007-07-01)"}}}};
  reg.add({"openmpi", "ib-sdr-pcie",
           "Open MPI 1.1: pml/ob1 + bml/r2 over btl/self, btl/openib (mVAPI) and btl/gm: messages striped over both",
           preset({{"pml", "ob1"}, {"btl", {"self", "openib", "gm"}}}), v11, v11_mca});
  reg.add({"openmpi-mvapi", "ib-sdr-pcie", "Open MPI 1.1: pml/ob1 over btl/self and btl/openib (mVAPI) only",
           preset({{"pml", "ob1"}, {"btl", {"self", "openib"}}}), v11, v11_mca});
  reg.add({"openmpi-gm", "myrinet-2000", "Open MPI 1.1: pml/ob1 over btl/self and btl/gm (Myrinet GM) only",
           preset({{"pml", "ob1"}, {"btl", {"self", "gm"}}}), v11, v11_mca});
  reg.add({"openmpi", "gige", "Open MPI 1.1: pml/ob1 + bml/r2 over btl/self and btl/tcp",
           preset({{"pml", "ob1"}, {"btl", {"self", "tcp"}}}), v11, v11_mca});
  reg.add({"loggp", "loggp", "LogGOPS reference stack (closed-form checks)", preset({{"model", "loggp"}})});
  register_collective_libraries(reg);
}

CollLibrary stack_collectives(const Json& stack, const std::vector<std::string>& nic_kinds) {
  std::vector<const StackInfo*> presets;
  const StackSpec spec = stack.is_object() ? parse_stack_object(stack, "") : StackSpec{};
  for (const auto& p : stack_registry().all()) {
    if (!nic_kinds.empty() && std::find(nic_kinds.begin(), nic_kinds.end(), p.nic_kind) == nic_kinds.end()) continue;
    if (stack.is_string() ? p.name == stack.get<std::string>() : stack.is_object() && p.spec == spec)
      presets.push_back(&p);
  }
  if (presets.empty()) return {};
  // On a machine with several networks the first preset of the name is the one that runs (resolve_stack).
  if (!nic_kinds.empty()) presets.resize(1);
  for (const StackInfo* p : presets)
    if (!(p->collectives == presets.front()->collectives)) return {};
  return presets.front()->collectives;
}

const StackInfo* stack_preset(const StackSpec& spec, const std::vector<std::string>& kinds) {
  for (auto& p : stack_registry().all())
    if (p.spec == spec && std::find(kinds.begin(), kinds.end(), p.nic_kind) != kinds.end()) return &p;
  return nullptr;
}

const StackRegistry& stack_registry() {
  static const StackRegistry reg = [] {
    StackRegistry r;
    register_stacks(r);
    return r;
  }();
  return reg;
}

namespace {
using Value = StackFramework::Value;
using Role = StackFramework::Role;

// The component `v` names in framework `fw` (InputError at `key`: not a name, or unknown with did-you-mean).
std::string read_component(const Json& v, const std::string& fw, const std::string& key, const std::string& file) {
  const auto& comps = component_registry();
  if (!v.is_string())
    throw InputError(file, key, fmt::format("expected the name of a {} component (known: {})", fw,
                                            fmt::join(comps.names(fw), ", ")));
  std::string n = v.get<std::string>();
  if (!comps.find(fw, n)) {
    auto names = comps.names(fw);
    throw InputError(file, key, fmt::format("unknown {} component '{}'{} (known: {})", fw, n,
                                            hint_text(did_you_mean(n, names)), fmt::join(names, ", ")));
  }
  return n;
}

// Reads the value of framework `f` into `s`, as the framework's entry says it is given.
void read_part(StackSpec& s, const StackFramework& f, const Json& v, const std::string& file) {
  const std::string key = "stack." + f.name;
  switch (f.value) {
    case Value::One: s.add(f.name, read_component(v, f.name, key, file)); return;
    case Value::List: {
      if (!v.is_array() || v.empty())
        throw InputError(file, key, fmt::format("expected a non-empty list of {} names, e.g. {}", f.name,
                                                stack_framework_example(f)));
      for (std::size_t i = 0; i < v.size(); ++i) {
        std::string item = fmt::format("{}[{}]", key, i), n = read_component(v[i], f.name, item, file);
        if (std::find(s.parts.begin(), s.parts.end(), StackPart{f.name, n}) != s.parts.end())
          throw InputError(file, item, fmt::format("{}/{} is listed twice", f.name, n));
        s.add(f.name, n);
      }
      return;
    }
    case Value::Selection: {
      if (!v.is_string())
        throw InputError(file, key, fmt::format("expected {} selection, e.g. {}", f.noun, stack_framework_example(f)));
      std::string why;
      if (!f.expand(v.get<std::string>(), why)) throw InputError(file, key, why);
      s.add(f.name, v.get<std::string>());
      return;
    }
  }
}

// A whole-stack framework stands alone: no second one, no other framework beside it.
void check_whole_stack(const StackSpec& s, const StackFramework& whole, const std::string& file) {
  for (const StackFramework& f : stack_frameworks()) {
    if (&f == &whole || !s.has(f.name)) continue;
    if (f.role == Role::WholeStack)
      throw InputError(file, "stack." + f.name,
                       fmt::format("stack.{} and stack.{} are each a whole stack: give one of them", whole.name,
                                   f.name));
    throw InputError(file, "stack." + f.name,
                     fmt::format("stack.{} is a whole stack ({}/{}); it takes no {} component", whole.name, whole.name,
                                 s.get(whole.name), f.name));
  }
}

// The frameworks a PML component drives, for messages ("BTLs", "MTLs or PTLs"; "no modules").
std::string driven_text(const std::string& pml) {
  std::vector<std::string> out;
  for (const StackFramework& f : stack_frameworks())
    if (f.role == Role::Modules && f.driven_by == pml) out.push_back(f.noun + "s");
  return out.empty() ? std::string("no modules") : fmt::format("{}", fmt::join(out, " or "));
}

// The framework whose component drives the modules (Role::Pml): "pml".
const std::string& pml_framework() {
  for (const StackFramework& f : stack_frameworks())
    if (f.role == Role::Pml) return f.name;
  throw std::logic_error("stack frameworks: no PML framework");
}

// Modules need the PML that drives them, and a PML the modules it drives (pml/ob1 BTLs, pml/cm one MTL, pml/teg PTLs).
void check_modules(const StackSpec& s, const std::string& file) {
  const std::string& fw = pml_framework();
  const std::string pml = s.get(fw);
  for (const StackFramework& f : stack_frameworks()) {
    if (f.role != Role::Modules || !s.has(f.name)) continue;
    if (pml.empty())
      throw InputError(file, "stack." + fw,
                       fmt::format("missing: {} components need a PML ({})", f.name, f.driven_by));
    if (pml != f.driven_by)
      throw InputError(file, "stack." + f.name, fmt::format("{}/{} drives {}, not {}s ({}s need {} '{}')", fw, pml,
                                                            driven_text(pml), f.noun, f.noun, fw, f.driven_by));
  }
  for (const StackFramework& f : stack_frameworks())
    if (f.role == Role::Modules && f.driven_by == pml && !s.has(f.name))
      throw InputError(file, "stack." + f.name,
                       fmt::format("missing: {}/{} needs {}, e.g. {}", fw, pml, f.need, stack_framework_example(f)));
}

// A selection needs the component it selects for; that component without a selection takes the default one.
void check_selections(StackSpec& s, const std::string& file) {
  for (const StackFramework& f : stack_frameworks()) {
    if (f.role != Role::Selection) continue;
    const std::size_t slash = f.selection_of.find('/');
    const std::string fw = f.selection_of.substr(0, slash), comp = f.selection_of.substr(slash + 1);
    const bool parent = s.get(fw) == comp;
    if (s.has(f.name) && !parent)
      throw InputError(file, "stack." + f.name, fmt::format("{} is chosen for {} only (\"{}\": \"{}\")", f.noun,
                                                            f.selection_of, fw, comp));
    if (parent && !s.has(f.name)) s.add(f.name, f.default_selection);
  }
}
}  // namespace

StackSpec parse_stack_object(const Json& j, const std::string& file) {
  if (!j.is_object() || j.empty())
    throw InputError(file, "stack",
                     "expected a preset name or an object of components, e.g. {\"pml\": \"ob1\", \"btl\": [\"self\", "
                     "\"vader\", \"ugni\"]} or {\"pml\": \"cm\", \"mtl\": \"portals\"}");
  StackSpec s;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const StackFramework* f = find_stack_framework(it.key());
    if (!f) {
      auto names = stack_framework_names();
      throw InputError(file, "stack." + it.key(), fmt::format("unknown framework '{}'{} (known: {})", it.key(),
                                                              hint_text(did_you_mean(it.key(), names)),
                                                              fmt::join(names, ", ")));
    }
    read_part(s, *f, it.value(), file);
  }
  for (const StackFramework& f : stack_frameworks())
    if (f.role == Role::WholeStack && s.has(f.name)) {
      check_whole_stack(s, f, file);
      return s;
    }
  check_selections(s, file);
  check_modules(s, file);
  return s;
}

std::string stack_label(const Json& stack, const std::string& file) {
  if (stack.is_string()) return stack.get<std::string>();
  StackSpec s = parse_stack_object(stack, file);
  for (auto& p : stack_registry().all())
    if (p.spec == s) return p.name;
  std::vector<std::string> parts;
  for (const StackFramework& f : stack_frameworks()) {
    if (!s.has(f.name)) continue;
    if (f.value == Value::List) parts.push_back(fmt::format("{}/{{{}}}", f.name, fmt::join(s.list(f.name), ",")));
    else parts.push_back(f.name + "/" + s.get(f.name));
  }
  return fmt::format("{}", fmt::join(parts, "+"));
}

namespace {
bool has_kind(const std::vector<std::string>& kinds, const std::string& k) {
  return std::find(kinds.begin(), kinds.end(), k) != kinds.end();
}
// The presets that run on a machine of NIC kinds `kinds`, each name once, in the registry's order.
std::vector<std::string> presets_on(const std::vector<std::string>& kinds) {
  std::vector<std::string> here;
  for (auto& p : stack_registry().all())
    if (has_kind(kinds, p.nic_kind) && std::find(here.begin(), here.end(), p.name) == here.end()) here.push_back(p.name);
  return here;
}
std::string kinds_text(const std::vector<std::string>& kinds) {
  return kinds.size() == 1 ? "a " + kinds.front() + " NIC" : fmt::format("NICs {}", fmt::join(kinds, ", "));
}
// Each component runs on one of the machine's NIC kinds: a BTL naming a network the machine has no NIC for is refused
// (key: the component's place in the stack object, or "stack" for a preset).
void check_parts(const StackSpec& s, const std::vector<std::string>& kinds, const std::string& machine,
                 const std::string& file, const std::string& preset) {
  for (auto& p : s.components()) {
    const ComponentInfo* c = component_registry().find(p.framework, p.name);
    bool runs = false;
    for (auto& k : kinds) runs = runs || c->runs_on(k);
    if (!runs)
      throw InputError(file, preset.empty() ? p.key : "stack",
                       fmt::format("{}{} runs on {} machines, but machine '{}' has {}",
                                   preset.empty() ? "" : "stack '" + preset + "': ", c->id(),
                                   fmt::join(c->nic_kinds, " or "), machine, kinds_text(kinds)));
  }
}
}  // namespace

StackSpec resolve_stack(const Json& stack, const std::vector<std::string>& kinds, const std::string& machine,
                        const std::string& file) {
  if (stack.is_string()) {
    const std::string name = stack.get<std::string>();
    for (auto& p : stack_registry().all())  // the first preset of that name for one of the machine's NIC kinds
      if (p.name == name && has_kind(kinds, p.nic_kind)) {
        check_parts(p.spec, kinds, machine, file, name);
        return p.spec;
      }
    std::vector<std::string> names, on;
    for (auto& s : stack_registry().all()) {
      if (std::find(names.begin(), names.end(), s.name) == names.end()) names.push_back(s.name);
      if (s.name == name) on.push_back(s.nic_kind);
    }
    const std::vector<std::string> here = presets_on(kinds);  // the stacks that do run there: the fix is one word
    if (!on.empty()) {
      throw InputError(file, "stack",
                       fmt::format("stack '{}' runs on {} machines, but machine '{}' has {}{}", name,
                                   fmt::join(on, " or "), machine, kinds_text(kinds),
                                   here.empty() ? std::string()
                                                : fmt::format(" (stacks there: {})", fmt::join(here, ", "))));
    }
    unknown_stack(file, name, names, here, machine);
  }
  StackSpec s = parse_stack_object(stack, file);
  check_parts(s, kinds, machine, file, "");
  return s;
}

StackSpec resolve_stack(const Json& stack, const std::string& kind, const std::string& machine,
                        const std::string& file) {
  return resolve_stack(stack, std::vector<std::string>{kind}, machine, file);
}

namespace {
// The stack's selection of this component's sub-components (mtl/ofi: its "ofi" provider link), or empty.
std::string selection_for(const StackSpec& s, const ComponentInfo& c) {
  for (const StackFramework& f : stack_frameworks())
    if (f.role == StackFramework::Role::Selection && f.selection_of == c.id()) return s.get(f.name);
  return "";
}

// A component's factory, its refusal of the machine (platform/platform_parts.cpp select_fabric: one network driven
// on a machine of several) named with the component.
template <class F>
auto built_by(const ComponentInfo& c, F&& make) {
  try {
    return make();
  } catch (const InputError& e) {
    if (!e.file().empty() || e.key() != "stack") throw;
    throw InputError("", "stack", fmt::format("{} {}", c.id(), e.reason()));
  }
}
}  // namespace

std::unique_ptr<Stack> build_stack(World& w, const McaParams& mca, const StackSpec& s, const std::string& name) {
  const PlatformParts parts = w.parts();
  std::vector<const ComponentInfo*> comps;
  for (auto& p : s.components()) {
    const ComponentInfo* c = component_registry().find(p.framework, p.name);
    if (!c) throw std::logic_error("build_stack: no component " + p.framework + "/" + p.name);
    comps.push_back(c);
  }
  if (comps.size() == 1 && comps[0]->make_stack)  // a whole stack
    return built_by(*comps[0], [&] { return comps[0]->make_stack(parts, mca, name); });
  auto st = std::make_unique<ComposedStack>();
  PmlModules mods;
  const ComponentInfo* pml = nullptr;
  for (const ComponentInfo* c : comps) {
    if (c->make_btl) {
      auto b = built_by(*c, [&] { return c->make_btl(parts, mca); });
      mods.btls.push_back(b.get());
      st->modules.push_back(std::move(b));
    } else if (!c->part_of.empty()) {
      continue;  // built by its parent (ofi/* providers by mtl/ofi, from the stack's selection)
    } else if (c->make_mtl) {
      auto m = built_by(*c, [&] { return c->make_mtl(parts, mca, selection_for(s, *c)); });
      mods.mtl = m.get();
      st->modules.push_back(std::move(m));
    } else if (c->make_pml) {
      pml = c;
    } else {
      throw std::logic_error("build_stack: " + c->id() + " is a whole stack and cannot be composed");
    }
  }
  if (!pml) throw std::logic_error("build_stack: no PML in " + s.to_json().dump());
  st->pml = built_by(*pml, [&] { return pml->make_pml(parts, mca, mods, name); });
  return st;
}

std::unique_ptr<Stack> make_stack(World& w, const McaParams& mca, const std::string& name, const std::string& file) {
  StackSpec s = resolve_stack(Json(name), w.machine().nic_kinds(), w.machine().name, file);
  return build_stack(w, mca, s, name);
}

void check_stack_input(const StackSpec& spec, const ComponentCheck& check) {
  ComponentCheck c = check;
  for (auto& p : spec.components()) c.stack_components.push_back(p.framework + "/" + p.name);
  for (auto& p : spec.components())
    if (const ComponentInfo* info = component_registry().find(p.framework, p.name); info && info->check) info->check(c);
}

void stack_report(const StackSpec& spec, Json& result, const StackReport& r) {
  for (auto& p : spec.components()) {
    const ComponentInfo* c = component_registry().find(p.framework, p.name);
    if (!c) continue;
    for (auto& e : c->effective)
      result["provenance"]["derived"][e.name + " (effective)"] = e.value(r.mca, r.placement.ranks);
    if (c->report) c->report(result, r);
  }
}

bool stack_has_network_atomics(const StackSpec& spec) {
  for (auto& p : spec.components()) {
    const ComponentInfo* c = component_registry().find(p.framework, p.name);
    if (c && c->reach == Reach::Network && (c->btl_flags & btl::flag::AtomicOps)) return true;
  }
  return false;
}

bool stack_has_network_atomics(const Json& stack, const std::string& file, const std::string& machine) {
  if (!stack.is_string()) return stack_has_network_atomics(parse_stack_object(stack, file));
  const std::string& name = stack.get<std::string>();
  bool known = false;
  std::vector<std::string> names;
  for (auto& p : stack_registry().all()) {  // a preset name: on any NIC kind it is defined for
    if (p.name == name && stack_has_network_atomics(p.spec)) return true;
    known = known || p.name == name;
    if (std::find(names.begin(), names.end(), p.name) == names.end()) names.push_back(p.name);
  }
  // An unknown name is said as such here (the benchmark's rules ask this before the machine resolves the stack), with
  // the presets of the scenario's machine when it is an installed one (a machine that does not load is said later).
  if (!known) {
    std::vector<std::string> here;
    try {
      if (!machine.empty() && !find_machine_file(machine).empty()) here = presets_on(load_machine(machine)->nic_kinds());
    } catch (const InputError&) {
      here.clear();
    }
    unknown_stack(file, name, names, here, machine);
  }
  return false;
}

std::vector<const StackInfo*> presets_with(const ComponentInfo& c) {
  std::vector<const StackInfo*> out;
  for (auto& p : stack_registry().all())
    for (auto& part : p.spec.components())
      if (part.framework == c.framework && part.name == c.name) {
        out.push_back(&p);
        break;
      }
  return out;
}

namespace {
// A preset that contains this component (for messages): "stack 'openmpi' on gemini machines".
std::string preset_with(const ComponentInfo& c) {
  if (const auto with = presets_with(c); !with.empty())
    return fmt::format("; a component of stack '{}' on {} machines", with.front()->name, with.front()->nic_kind);
  return fmt::format("; runs on {} machines", c.nic_kinds.empty() ? std::string("any") : fmt::format("{}", fmt::join(c.nic_kinds, " or ")));
}
}  // namespace

std::vector<const ComponentInfo*> mca_components(const StackSpec& spec) {
  std::vector<const ComponentInfo*> out;
  auto add = [&](const ComponentInfo* c) {
    if (c && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  };
  for (auto& p : spec.components()) add(component_registry().find(p.framework, p.name));
  for (std::size_t i = 0; i < out.size(); ++i)  // grows: what they read, and what that reads
    for (auto& id : out[i]->reads) {
      const auto slash = id.find('/');
      const ComponentInfo* r = component_registry().find(id.substr(0, slash), id.substr(slash + 1));
      if (!r) throw std::logic_error(out[i]->id() + " reads the parameters of '" + id + "', which is not registered");
      add(r);
    }
  return out;
}

void check_mca_keys(const std::vector<std::string>& keys, const StackSpec& spec, const std::string& stack,
                    const std::string& kind, const std::string& file) {
  std::vector<std::string> own, ids, all;  // the parameters this stack's components read
  for (auto& p : spec.components()) ids.push_back(component_registry().find(p.framework, p.name)->id());
  for (const ComponentInfo* c : mca_components(spec))
    for (auto& n : c->param_names()) own.push_back(n);
  for (auto& c : component_registry().all())
    for (auto& n : c.param_names()) all.push_back(n);
  for (auto& k : keys) {
    const std::string path = "mca." + k;
    if (std::find(own.begin(), own.end(), k) != own.end()) continue;
    if (const ComponentInfo* o = mca_owner(k))
      throw InputError(file, path,
                       fmt::format("parameter of {}{}; stack '{}' on this {} machine ({}) does not read it, so it "
                                   "would be ignored",
                                   o->id(), preset_with(*o), stack, kind, fmt::join(ids, ", ")));
    std::string hint = did_you_mean(k, own.empty() ? all : own);
    throw InputError(file, path,
                     "unknown MCA parameter" + hint_text(hint) +
                         (own.empty() ? fmt::format("; stack '{}' on {} ({}) takes no MCA parameters", stack, kind,
                                                    fmt::join(ids, ", "))
                                      : !hint.empty() ? std::string()  // a close name says it; the list would bury it
                                                      : fmt::format(" (stack '{}' reads: {})", stack, fmt::join(own, ", "))));
  }
}

void check_mca_family(const std::string& key, const std::string& kind, const std::string& source) {
  check_mca_family(key, std::vector<std::string>{kind}, source);
}

void check_mca_family(const std::string& key, const std::vector<std::string>& kinds, const std::string& source) {
  const ComponentInfo* o = mca_owner(key);
  if (!o) return;
  for (auto& k : kinds)
    if (o->runs_on(k)) return;
  const std::string kind = fmt::format("{}", fmt::join(kinds, " + "));
  throw InputError(source, key,
                   fmt::format("parameter of {}, which runs on {} machines; this machine is {}, so it would be ignored",
                               o->id(), fmt::join(o->nic_kinds, " or "), kind));
}

}  // namespace ompisim
