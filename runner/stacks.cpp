#include "runner/stacks.hpp"

#include "core/errors.hpp"
#include "core/json_input.hpp"
#include "models/gemini/gni.hpp"
#include "models/seastar/nic.hpp"
#include "protocols/btl/portals/btl_portals.hpp"
#include "protocols/btl/self/btl_self.hpp"
#include "protocols/btl/ugni/btl_ugni.hpp"
#include "protocols/btl/ugni/mailbox_memory.hpp"
#include "protocols/btl/vader/btl_vader.hpp"
#include "protocols/loggp/loggp_stack.hpp"
#include "protocols/mtl/ofi/ofi_stacks.hpp"
#include "protocols/mtl/portals/mtl_portals.hpp"
#include "protocols/native/mpich_gni.hpp"
#include "protocols/pml/cm/pml_cm.hpp"
#include "protocols/pml/ob1/pml_ob1.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace ompisim {

namespace {
// pml/ob1 + bml/r2 over the BTLs named, in that order. On Gemini, btl/ugni owns the uGNI state, which also serves
// Cheetah's uGNI BCOL atomics.
class Ob1Stack final : public Stack {
public:
  Ob1Stack(World& w, const McaParams& mca, const std::vector<std::string>& btls, double overhead, std::string name)
      : name_(std::move(name)) {
    if (std::find(btls.begin(), btls.end(), "ugni") != btls.end())  // first, as the openmpi preset always did
      gni_ = std::make_unique<gemini::Gni>(w, static_cast<std::uint16_t>(mca.btl_ugni.btl_ugni_smsg_max_credits.value));
    std::vector<btl::Btl*> list;
    for (auto& b : btls) {
      if (b == "self") list.push_back((self_ = std::make_unique<btl::self::BtlSelf>(w)).get());
      else if (b == "vader") list.push_back((vader_ = std::make_unique<btl::vader::BtlVader>(w, mca.btl_vader)).get());
      else if (b == "ugni") list.push_back((ugni_ = std::make_unique<btl::ugni::BtlUgni>(w, mca.btl_ugni, *gni_)).get());
      else if (b == "portals")
        list.push_back((portals_ = std::make_unique<btl::portals::BtlPortals>(w, mca.btl_portals)).get());
      else throw std::logic_error("ob1 stack: no factory for btl/" + b);
    }
    ob1_ = std::make_unique<pml::ob1::Ob1>(w, overhead, std::move(list), name_);
    if (gni_)
      ob1_->amo_provider = [this, &w](int r, int t, Completion l, Completion a) {
        if (w.same_node(r, t)) {  // an atomic on a shared cache line (BASESMUMA-style on-node flag)
          double s = w.signal_latency(r, t);
          w.cpu(r, 0, [&w, s, l = std::move(l), a = std::move(a)]() mutable {
            w.sim().after(s, std::move(a));
            w.sim().after(s, std::move(l));
          });
          return;
        }
        gni_->amo(r, t, std::move(l), std::move(a));
      };
  }
  std::string name() const override { return name_; }
  void isend(int r, int d, int t, std::uint64_t b, Buffer buf, Completion c) override { ob1_->isend(r, d, t, b, buf, std::move(c)); }
  void irecv(int r, int s, int t, std::uint64_t b, Buffer buf, Completion c) override { ob1_->irecv(r, s, t, b, buf, std::move(c)); }
  void amo_add(int r, int t, Completion l, Completion a) override { ob1_->amo_add(r, t, std::move(l), std::move(a)); }
  StackStats stats() const override {
    StackStats s = ob1_->stats();
    if (gni_) {
      s.counters["ugni_smsg"] = gni_->smsg_sent;
      s.counters["ugni_smsg_local_events"] = gni_->smsg_local_events;
      s.counters["ugni_credit_waits"] = gni_->credit_waits;
      s.counters["ugni_endpoints"] = gni_->endpoints();
      s.counters["ugni_registrations"] = gni_->registrations;
    }
    if (ugni_) {
      s.counters["ugni_short_sends"] = ugni_->short_sends;
      s.counters["ugni_eager_gets"] = ugni_->eager_gets;
      s.counters["ugni_long_gets"] = ugni_->long_gets;
      s.counters["ugni_put_fallbacks"] = ugni_->put_fallbacks;
      s.counters["ugni_eager_buffers_held"] = ugni_->eager_buffers_held();
    }
    if (vader_) {
      s.counters["vader_fbox_sends"] = vader_->fbox_sends;
      s.counters["vader_copy_sends"] = vader_->copy_sends;
      s.counters["vader_single_copy_sends"] = vader_->single_copy_sends;
      s.counters["vader_xpmem_attaches"] = vader_->attaches();
    }
    if (portals_) portals_->add_counters(s.counters);
    return s;
  }

private:
  std::string name_;
  std::unique_ptr<gemini::Gni> gni_;
  std::unique_ptr<btl::self::BtlSelf> self_;
  std::unique_ptr<btl::vader::BtlVader> vader_;
  std::unique_ptr<btl::ugni::BtlUgni> ugni_;
  std::unique_ptr<btl::portals::BtlPortals> portals_;
  std::unique_ptr<pml::ob1::Ob1> ob1_;
};
// A request layer over the Portals matching engine. Open MPI's CM path is pml/cm over mtl/portals; Cray MPI is
// MPICH2's request layer (ADI3 requests play pml/cm's role) over a Portals device with Cray's protocol choices: the
// paper says the protocols are "generally similar", so the differences are data (mtl::portals::Protocol).
class PortalsMatchingStack final : public Stack {
public:
  PortalsMatchingStack(World& w, mtl::portals::Protocol p, double overhead, const std::string& name)
      : mtl_(w, std::move(p)), pml_(w, overhead, mtl_, name) {}
  std::string name() const override { return pml_.name(); }
  void isend(int r, int d, int t, std::uint64_t b, Buffer buf, Completion c) override { pml_.isend(r, d, t, b, buf, std::move(c)); }
  void irecv(int r, int s, int t, std::uint64_t b, Buffer buf, Completion c) override { pml_.irecv(r, s, t, b, buf, std::move(c)); }
  StackStats stats() const override { return pml_.stats(); }

private:
  mtl::portals::MtlPortals mtl_;
  pml::cm::PmlCm pml_;
};

mtl::portals::Protocol cray_mpi_protocol(const native::MpichPortalsMca& mca) {
  mtl::portals::Protocol p;
  p.name = "cray-portals";
  p.eager_limit = static_cast<std::uint64_t>(mca.mpich_max_short_msg_size.value);
  p.long_rendezvous = true;          // rendezvous by default above the eager limit (paper §3)
  p.eqs_polled = 2;                  // unexpected EQ and "other" EQ polled on every progress call
  p.unexpected_start_events = true;  // two events per unexpected message (Pritchard & Pagel)
  p.blocks = 2;  // the unexpected buffer in two halves, so one serves while the other is re-posted
  p.block_size = static_cast<std::uint64_t>(mca.mpich_unex_buffer_size.value) / 2;
  return p;
}

std::string hint_text(const std::string& hint) { return hint.empty() ? "" : " (did you mean '" + hint + "'?)"; }
}  // namespace

std::vector<StackSpec::Part> StackSpec::parts() const {
  std::vector<Part> out;
  if (!pml.empty()) out.push_back({"pml", pml, "stack.pml"});
  for (std::size_t i = 0; i < btl.size(); ++i) out.push_back({"btl", btl[i], fmt::format("stack.btl[{}]", i)});
  if (!mtl.empty()) out.push_back({"mtl", mtl, "stack.mtl"});
  if (!ofi.empty()) {  // each provider of the link is a component ("shm+cxi:linkx": ofi/shm, ofi/cxi, ofi/linkx)
    std::string why;
    if (auto l = mtl::ofi::parse_provider_link(ofi, component_registry().names("ofi"), why)) {
      for (auto& c : l->cores) out.push_back({"ofi", c, "stack.ofi"});
      if (l->linkx) out.push_back({"ofi", "linkx", "stack.ofi"});
    }
  }
  if (!native.empty()) out.push_back({"native", native, "stack.native"});
  if (!model.empty()) out.push_back({"model", model, "stack.model"});
  return out;
}

Json StackSpec::to_json() const {
  Json j = Json::object();
  if (!pml.empty()) j["pml"] = pml;
  if (!btl.empty()) j["btl"] = btl;
  if (!mtl.empty()) j["mtl"] = mtl;
  if (!ofi.empty()) j["ofi"] = ofi;
  if (!native.empty()) j["native"] = native;
  if (!model.empty()) j["model"] = model;
  return j;
}

void StackRegistry::add(StackInfo info) {
  if (info.name.empty()) throw std::invalid_argument("stack: empty name");
  if (find(info.name, info.nic_kind))
    throw std::invalid_argument("stack '" + info.name + "' registered twice for NIC kind '" + info.nic_kind + "'");
  entries_.push_back(std::move(info));
}

const StackInfo* StackRegistry::find(const std::string& name, const std::string& nic_kind) const {
  for (auto& e : entries_)
    if (e.name == name && e.nic_kind == nic_kind) return &e;
  return nullptr;
}

void register_stacks(StackRegistry& reg) {
  reg.add({"openmpi", "gemini", "Open MPI: pml/ob1 + bml/r2 + btl/self, btl/vader (XPMEM), btl/ugni; Cheetah uGNI BCOL",
           {.pml = "ob1", .btl = {"self", "vader", "ugni"}}});
  reg.add({"native", "gemini", "Cray MPT: MPICH2 CH3/Nemesis with the uGNI netmod (same hardware, different protocol)",
           {.native = "mpich_gni"}});
  reg.add({"openmpi-cm", "seastar", "Open MPI: pml/cm + mtl/portals (matching by Portals on the SeaStar)",
           {.pml = "cm", .mtl = "portals"}});
  reg.add({"openmpi-ob1", "seastar", "Open MPI: pml/ob1 + bml/r2 + btl/self, btl/portals (matching in the host)",
           {.pml = "ob1", .btl = {"self", "portals"}}});
  reg.add({"native", "seastar",
           "Cray MPI (XT MPT, MPICH2 over Portals): eager up to MPICH_MAX_SHORT_MSG_SIZE, rendezvous get above",
           {.native = "mpich_portals"}});
  reg.add({"openmpi-linkx", "cxi",
           "Open MPI 5: pml/cm + mtl/ofi over LINKx joining the shm and cxi providers (slingshot-ex)",
           {.pml = "cm", .mtl = "ofi", .ofi = "shm+cxi:linkx"}});
  reg.add({"openmpi-cxi", "cxi",
           "Open MPI 5: pml/cm + mtl/ofi over the cxi provider alone (on-node messages go through the NIC)",
           {.pml = "cm", .mtl = "ofi", .ofi = "cxi"}});
  reg.add({"native", "cxi", "Cray MPICH over libfabric CXI, with its own shared-memory and GPU IPC paths",
           {.native = "mpich_cxi"}});
  reg.add({"loggp", "loggp", "LogGOPS reference stack (closed-form checks)", {.model = "loggp"}});
}

const StackRegistry& stack_registry() {
  static const StackRegistry reg = [] {
    StackRegistry r;
    register_stacks(r);
    return r;
  }();
  return reg;
}

StackSpec parse_stack_object(const Json& j, const std::string& file) {
  const auto& comps = component_registry();
  auto frameworks = comps.frameworks();
  StackSpec s;
  auto component = [&](const Json& v, const std::string& fw, const std::string& key) {
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
  };
  if (!j.is_object() || j.empty())
    throw InputError(file, "stack", "expected a preset name or an object of components, e.g. {\"pml\": \"ob1\", "
                                    "\"btl\": [\"self\", \"vader\", \"ugni\"]} or {\"pml\": \"cm\", \"mtl\": \"portals\"}");
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& fw = it.key();
    if (std::find(frameworks.begin(), frameworks.end(), fw) == frameworks.end())
      throw InputError(file, "stack." + fw, fmt::format("unknown framework '{}'{} (known: {})", fw,
                                                        hint_text(did_you_mean(fw, frameworks)),
                                                        fmt::join(frameworks, ", ")));
    if (fw == "btl") {
      const Json& v = it.value();
      if (!v.is_array() || v.empty())
        throw InputError(file, "stack.btl", "expected a non-empty list of BTL names, e.g. [\"self\", \"vader\", \"ugni\"]");
      for (std::size_t i = 0; i < v.size(); ++i) {
        std::string key = fmt::format("stack.btl[{}]", i);
        std::string n = component(v[i], "btl", key);
        if (std::find(s.btl.begin(), s.btl.end(), n) != s.btl.end())
          throw InputError(file, key, fmt::format("btl/{} is listed twice", n));
        s.btl.push_back(n);
      }
      continue;
    }
    if (fw == "ofi") {  // a provider selection: "cxi" or a link "shm+cxi:linkx"
      if (!it.value().is_string())
        throw InputError(file, "stack.ofi", "expected a libfabric provider selection, e.g. \"cxi\" or \"shm+cxi:linkx\"");
      std::string why;
      if (!mtl::ofi::parse_provider_link(it.value().get<std::string>(), comps.names("ofi"), why))
        throw InputError(file, "stack.ofi", why);
      s.ofi = it.value().get<std::string>();
      continue;
    }
    std::string n = component(it.value(), fw, "stack." + fw);
    if (fw == "pml") s.pml = n;
    else if (fw == "mtl") s.mtl = n;
    else if (fw == "native") s.native = n;
    else if (fw == "model") s.model = n;
  }
  // Possible combinations: pml/ob1 needs BTLs and no MTL, pml/cm one MTL and no BTL; native and model stand alone.
  const std::string single = !s.native.empty() ? "native" : !s.model.empty() ? "model" : "";
  if (!single.empty()) {
    if (!s.native.empty() && !s.model.empty())
      throw InputError(file, "stack.model", "a native library and a model are each a whole stack: give one of them");
    if (!s.pml.empty() || !s.btl.empty() || !s.mtl.empty()) {
      std::string other = !s.pml.empty() ? "pml" : !s.btl.empty() ? "btl" : "mtl";
      throw InputError(file, "stack." + other,
                       fmt::format("stack.{} is a whole stack ({}/{}); it takes no {} component", single, single,
                                   single == "native" ? s.native : s.model, other));
    }
    return s;
  }
  if (!s.ofi.empty() && s.mtl != "ofi")
    throw InputError(file, "stack.ofi", "a libfabric provider is chosen for mtl/ofi only (\"mtl\": \"ofi\")");
  if (s.mtl == "ofi" && s.ofi.empty()) s.ofi = "cxi";  // libfabric's first (fastest) provider on a Slingshot node
  if (s.pml.empty())
    throw InputError(file, "stack.pml", fmt::format("missing: {} components need a PML ({})",
                                                    s.btl.empty() ? "mtl" : "btl", s.btl.empty() ? "cm" : "ob1"));
  if (s.pml == "ob1") {
    if (!s.mtl.empty()) throw InputError(file, "stack.mtl", "pml/ob1 drives BTLs, not an MTL (an MTL needs pml 'cm')");
    if (s.btl.empty()) throw InputError(file, "stack.btl", "missing: pml/ob1 needs at least one BTL, e.g. [\"self\", \"vader\", \"ugni\"]");
  } else if (s.pml == "cm") {
    if (!s.btl.empty()) throw InputError(file, "stack.btl", "pml/cm drives one MTL, not BTLs (BTLs need pml 'ob1')");
    if (s.mtl.empty()) throw InputError(file, "stack.mtl", "missing: pml/cm needs an MTL, e.g. \"portals\"");
  }
  return s;
}

std::string stack_label(const Json& stack, const std::string& file) {
  if (stack.is_string()) return stack.get<std::string>();
  StackSpec s = parse_stack_object(stack, file);
  for (auto& p : stack_registry().all())
    if (p.spec == s) return p.name;
  std::vector<std::string> parts;
  if (!s.pml.empty()) parts.push_back("pml/" + s.pml);
  if (!s.btl.empty()) parts.push_back(fmt::format("btl/{{{}}}", fmt::join(s.btl, ",")));
  if (!s.mtl.empty()) parts.push_back("mtl/" + s.mtl);
  if (!s.native.empty()) parts.push_back("native/" + s.native);
  if (!s.model.empty()) parts.push_back("model/" + s.model);
  return fmt::format("{}", fmt::join(parts, "+"));
}

StackSpec resolve_stack(const Json& stack, const std::string& kind, const std::string& machine,
                        const std::string& file) {
  if (stack.is_string()) {
    const std::string name = stack.get<std::string>();
    if (const StackInfo* s = stack_registry().find(name, kind)) return s->spec;
    std::vector<std::string> names, kinds;
    for (auto& s : stack_registry().all()) {
      if (std::find(names.begin(), names.end(), s.name) == names.end()) names.push_back(s.name);
      if (s.name == name) kinds.push_back(s.nic_kind);
    }
    if (!kinds.empty())
      throw InputError(file, "stack",
                       fmt::format("stack '{}' runs on {} machines, but machine '{}' has a {} NIC", name,
                                   fmt::join(kinds, " or "), machine, kind));
    throw InputError(file, "stack", fmt::format("unknown stack '{}'{} (known: {}; or an object of components, e.g. "
                                                "{{\"pml\": \"ob1\", \"btl\": [\"self\", \"vader\"]}})",
                                                name, hint_text(did_you_mean(name, names)), fmt::join(names, ", ")));
  }
  StackSpec s = parse_stack_object(stack, file);
  for (auto& p : s.parts()) {
    const ComponentInfo* c = component_registry().find(p.framework, p.name);
    if (!c->runs_on(kind))
      throw InputError(file, p.key, fmt::format("{} runs on {} machines, but machine '{}' has a {} NIC", c->id(),
                                                fmt::join(c->nic_kinds, " or "), machine, kind));
  }
  return s;
}

std::unique_ptr<Stack> build_stack(World& w, const McaParams& mca, const StackSpec& s, const std::string& name) {
  if (s.pml == "ob1") {
    // pml/ob1's per-message software cost, measured on each machine: the machine's software.pml_ob1_overhead.
    double overhead = w.machine().software_cost("pml_ob1_overhead");
    return std::make_unique<Ob1Stack>(w, mca, s.btl, overhead, name);
  }
  if (s.pml == "cm" && s.mtl == "portals")
    return std::make_unique<PortalsMatchingStack>(w, mtl::portals::open_mpi_protocol(mca.mtl_portals),
                                                  w.machine().software_cost("pml_cm_overhead"), name);
  if (s.pml == "cm" && s.mtl == "ofi") return mtl::ofi::make_ofi_cm_stack(w, s.ofi, name);
  if (s.native == "mpich_cxi") return mtl::ofi::make_mpich_cxi_stack(w, name);
  if (s.native == "mpich_gni") return std::make_unique<native::MpichGni>(w, mca.native_mpich_gni);
  if (s.native == "mpich_portals")
    return std::make_unique<PortalsMatchingStack>(w, cray_mpi_protocol(mca.native_mpich_portals),
                                                  w.machine().software_cost("mpich_overhead"), name);
  if (s.model == "loggp") return std::make_unique<loggp::LogGPStack>(w);
  throw std::logic_error("build_stack: no factory for " + s.to_json().dump());
}

std::unique_ptr<Stack> make_stack(World& w, const McaParams& mca, const std::string& name, const std::string& file) {
  StackSpec s = resolve_stack(Json(name), w.network().nic_kind(), w.machine().name, file);
  return build_stack(w, mca, s, name);
}

// btl/ugni's derived SMSG limit, and the what-if of SMSG mailboxes vs MSGQ (protocols/btl/ugni/mailbox_memory) for this run.
static void report_ugni_mailboxes(Json& res, const StackReport& r) {
  const long long ranks = r.placement.ranks;
  auto lim = btl::ugni::ugni_smsg_limit(r.mca.btl_ugni, ranks);
  res["provenance"]["derived"] = {{"btl_ugni_smsg_limit (effective)", static_cast<double>(lim)}};
  auto cr = static_cast<std::uint64_t>(r.mca.btl_ugni.btl_ugni_smsg_max_credits.value);
  std::uint64_t eps = r.stats.counters.count("ugni_endpoints") ? r.stats.counters.at("ugni_endpoints") : 0;
  auto mm = btl::ugni::mailbox_memory({ranks, r.placement.ranks_per_node, r.placement.node_count()}, lim, cr, eps, cr);
  res["mailbox_memory"] = {
      {"unit", "bytes per node (mailbox_bytes, msgq_queue_bytes: bytes each)"},
      {"ranks", ranks}, {"ranks_per_node", r.placement.ranks_per_node}, {"nodes", r.placement.node_count()},
      {"smsg_limit", mm.smsg_limit}, {"credits", mm.credits}, {"msgq_credits", mm.msgq_credits},
      {"mailbox_bytes", mm.mailbox_bytes}, {"msgq_queue_bytes", mm.msgq_queue_bytes},
      {"off_node_peers_per_rank", mm.off_node_peers}, {"ugni_endpoints", eps},
      {"smsg_all_peers", mm.smsg_all_peers}, {"smsg_connected", mm.smsg_connected},
      {"smsg_connected_max", mm.smsg_connected_max}, {"smsg_connected_allocated", mm.smsg_connected_allocated},
      {"msgq_per_node", mm.msgq_per_node}};
}

void stack_report(const StackSpec& spec, Json& result, const StackReport& r) {
  if (spec.pml == "ob1" && std::find(spec.btl.begin(), spec.btl.end(), "ugni") != spec.btl.end())
    report_ugni_mailboxes(result, r);
}

namespace {
// A preset that contains this component (for messages): "stack 'openmpi' on gemini machines".
std::string preset_with(const ComponentInfo& c) {
  for (auto& p : stack_registry().all())
    for (auto& part : p.spec.parts())
      if (part.framework == c.framework && part.name == c.name)
        return fmt::format("; a component of stack '{}' on {} machines", p.name, p.nic_kind);
  return fmt::format("; runs on {} machines", c.nic_kinds.empty() ? std::string("any") : fmt::format("{}", fmt::join(c.nic_kinds, " or ")));
}
}  // namespace

void check_mca_keys(const std::vector<std::string>& keys, const StackSpec& spec, const std::string& stack,
                    const std::string& kind, const std::string& file) {
  std::vector<std::string> own, ids, all;  // the parameters this stack's components read
  for (auto& p : spec.parts()) {
    const ComponentInfo* c = component_registry().find(p.framework, p.name);
    ids.push_back(c->id());
    for (auto& n : c->param_names()) own.push_back(n);
  }
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
                                      : fmt::format(" (stack '{}' reads: {})", stack, fmt::join(own, ", "))));
  }
}

void check_mca_family(const std::string& key, const std::string& kind, const std::string& source) {
  const ComponentInfo* o = mca_owner(key);
  if (!o || o->runs_on(kind)) return;
  throw InputError(source, key,
                   fmt::format("parameter of {}, which runs on {} machines; this machine is {}, so it would be ignored",
                               o->id(), fmt::join(o->nic_kinds, " or "), kind));
}

}  // namespace ompisim
