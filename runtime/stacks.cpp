#include "runtime/stacks.hpp"

#include "models/gemini/gni.hpp"
#include "protocols/btl/self/btl_self.hpp"
#include "protocols/btl/ugni/btl_ugni.hpp"
#include "protocols/btl/vader/btl_vader.hpp"
#include "protocols/loggp/loggp_stack.hpp"
#include "protocols/native/mpich_gni.hpp"
#include "protocols/pml/ob1/pml_ob1.hpp"

#include <fmt/format.h>

namespace ompisim {

const std::vector<StackInfo>& stack_registry() {
  static const std::vector<StackInfo> r{
      {"openmpi", "gemini", "Open MPI: pml/ob1 + bml/r2 + btl/self, btl/vader (XPMEM), btl/ugni; Cheetah uGNI BCOL"},
      {"native", "gemini", "Cray MPT: MPICH2 CH3/Nemesis with the uGNI netmod (same hardware, different protocol)"},
      {"loggp", "loggp", "LogGOPS reference stack (closed-form checks)"},
  };
  return r;
}

namespace {
// Open MPI on Gemini: owns uGNI state, the BTLs and the PML.
class OpenMpiGemini final : public Stack {
public:
  explicit OpenMpiGemini(World& w)
      : gni_(w, static_cast<std::uint16_t>(w.mca().btl_ugni_smsg_max_credits.value)), self_(w), vader_(w),
        ugni_(w, gni_), ob1_(w, w.machine().software.ompi_sw_overhead, &self_, &vader_, &ugni_) {
    ob1_.amo_provider = [this, &w](int r, int t, Completion l, Completion a) {
      if (w.same_node(r, t)) {  // an atomic on a shared cache line (BASESMUMA-style on-node flag)
        double s = w.machine().host.shm_signal_latency;
        w.cpu(r, 0, [&w, s, l = std::move(l), a = std::move(a)]() mutable {
          w.sim().after(s, std::move(a));
          w.sim().after(s, std::move(l));
        });
        return;
      }
      gni_.amo(r, t, std::move(l), std::move(a));
    };
  }
  std::string name() const override { return "openmpi"; }
  void isend(int r, int d, int t, std::uint64_t b, Buffer buf, Completion c) override { ob1_.isend(r, d, t, b, buf, std::move(c)); }
  void irecv(int r, int s, int t, std::uint64_t b, Buffer buf, Completion c) override { ob1_.irecv(r, s, t, b, buf, std::move(c)); }
  void amo_add(int r, int t, Completion l, Completion a) override { ob1_.amo_add(r, t, std::move(l), std::move(a)); }
  StackStats stats() const override {
    StackStats s = ob1_.stats();
    s.counters["ugni_smsg"] = gni_.smsg_sent;
    s.counters["ugni_short_sends"] = ugni_.short_sends;
    s.counters["ugni_eager_gets"] = ugni_.eager_gets;
    s.counters["ugni_long_gets"] = ugni_.long_gets;
    s.counters["ugni_put_fallbacks"] = ugni_.put_fallbacks;
    s.counters["ugni_credit_waits"] = gni_.credit_waits;
    s.counters["ugni_endpoints"] = gni_.endpoints();
    s.counters["ugni_registrations"] = gni_.registrations;
    s.counters["vader_fbox_sends"] = vader_.fbox_sends;
    s.counters["vader_single_copy_sends"] = vader_.single_copy_sends;
    s.counters["vader_xpmem_attaches"] = vader_.attaches();
    return s;
  }

private:
  gemini::Gni gni_;
  btl::self::BtlSelf self_;
  btl::vader::BtlVader vader_;
  btl::ugni::BtlUgni ugni_;
  pml::ob1::Ob1 ob1_;
};
}  // namespace

std::unique_ptr<Stack> make_stack(World& w, const std::string& name, const std::string& file) {
  std::vector<std::string> names;
  for (auto& s : stack_registry()) {
    names.push_back(s.name);
    if (s.name != name) continue;
    if (s.family != w.machine().family)
      throw InputError(file, "stack",
                       fmt::format("stack '{}' runs on {} machines, but machine '{}' is {}", name, s.family,
                                   w.machine().name, w.machine().family));
    if (name == "openmpi") return std::make_unique<OpenMpiGemini>(w);
    if (name == "native") return std::make_unique<native::MpichGni>(w);
    if (name == "loggp") return std::make_unique<loggp::LogGPStack>(w);
  }
  std::string hint = did_you_mean(name, names);
  throw InputError(file, "stack", fmt::format("unknown stack '{}'{} (known: {})", name,
                                              hint.empty() ? "" : " (did you mean '" + hint + "'?)",
                                              fmt::join(names, ", ")));
}

}  // namespace ompisim
