#include "protocols/pml/teg/teg_stack.hpp"

#include "core/errors.hpp"
#include "models/qsnet/elan4.hpp"
#include "protocols/pml/teg/pml_teg.hpp"
#include "protocols/ptl/elan4/ptl_elan4.hpp"

#include <stdexcept>

namespace ompisim::pml::teg {

namespace {
class TegElan4Stack final : public Stack {
public:
  TegElan4Stack(const PlatformParts& parts, const ptl::elan4::PtlElan4Mca& mca, const std::string& name)
      : nic_(parts.sim, parts.contexts, parts.fabric()), ptl_(make_ptl(parts, nic_, mca)),
        pml_(parts.sim, parts.contexts, parts.cpus, *ptl_, parts.machine.software_cost("pml_teg_overhead"), name) {
    pml_.extra_counters = [this](std::map<std::string, std::uint64_t>& c) { ptl_->add_counters(c); };
  }
  std::string name() const override { return pml_.name(); }
  void start_send(const mpi::P2P& m, Completion c) override { pml_.start_send(m, std::move(c)); }
  void start_recv(const mpi::P2P& m, Completion c) override { pml_.start_recv(m, std::move(c)); }
  StackStats stats() const override { return pml_.stats(); }
  std::uint32_t max_contextid() const override { return pml_.max_contextid(); }

private:
  static std::unique_ptr<ptl::elan4::PtlElan4> make_ptl(const PlatformParts& parts, qsnet::Elan4& nic,
                                                        const ptl::elan4::PtlElan4Mca& mca) {
    try {
      return std::make_unique<ptl::elan4::PtlElan4>(parts, nic, mca);
    } catch (const std::invalid_argument& e) {
      std::string key = std::string(e.what()).find("first_frag") != std::string::npos ? "mca.ptl_elan4_first_frag_size"
                                                                                      : "mca.ptl_elan4_completion_queue";
      throw InputError("", key, e.what());
    }
  }
  qsnet::Elan4 nic_;
  std::unique_ptr<ptl::elan4::PtlElan4> ptl_;
  PmlTeg pml_;
};
}  // namespace

std::unique_ptr<Stack> make_teg_stack(const PlatformParts& parts, const McaParams& mca,
                                      const std::vector<std::string>& ptls, const std::string& name) {
  if (ptls == std::vector<std::string>{"elan4"})
    return std::make_unique<TegElan4Stack>(parts, mca.get<ptl::elan4::PtlElan4Mca>(), name);
  throw std::logic_error("pml/teg: no factory for these PTLs");
}

}  // namespace ompisim::pml::teg
