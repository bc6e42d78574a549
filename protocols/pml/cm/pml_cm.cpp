#include "protocols/pml/cm/pml_cm.hpp"

#include <stdexcept>
#include <string>

namespace ompisim::pml::cm {

PmlCm::PmlCm(CpuTimeline& cpus, double overhead, mtl::Mtl& mtl, std::string name)
    : cpus_(cpus), overhead_(overhead), mtl_(mtl), name_(std::move(name)) {}

namespace {
void check_context(const mpi::P2P& m, const mtl::Mtl& mtl) {
  if (m.comm.context_id > mtl.max_contextid())
    throw std::invalid_argument("pml/cm: context id " + std::to_string(m.comm.context_id) + " above mtl/" + mtl.name() +
                                "'s max_contextid " + std::to_string(mtl.max_contextid()));
}
}  // namespace

// The call as the MTL sees it, from its request: the same rank, peer, tag, communicator, bytes, buffer and status.
mpi::P2P PmlCm::call_of(const mpi::Request& r, bool blocking) {
  mpi::P2P m;
  m.rank = r.rank, m.peer = r.peer, m.tag = r.tag, m.count = r.bytes, m.type = mpi::kByte;
  m.comm = mpi::Comm{r.ctx}, m.buf = r.buf, m.status = r.status, m.blocking = blocking;
  return m;
}

void PmlCm::start_send(const mpi::P2P& m, Completion done) {
  check_context(m, mtl_);
  auto [id, r] = lib_.new_send(m, std::move(done));
  r.blocking = m.blocking;
  cpus_.cpu(m.rank, overhead_, [this, id = id] {
    const SendRequest& q = lib_.send(id);
    mtl_.isend(call_of(q, q.blocking), [this, id] { lib_.complete_send(id); });
  }, "mca_pml_cm_isend");
}

void PmlCm::start_recv(const mpi::P2P& m, Completion done) {
  check_context(m, mtl_);
  const mpi::RequestId id = lib_.new_recv(m, std::move(done)).first;
  cpus_.cpu(m.rank, overhead_, [this, id] { mtl_.irecv(call_of(lib_.recv(id), false), [this, id] { lib_.complete_recv(id); }); },
            "mca_pml_cm_irecv");
}

StackStats PmlCm::stats() const {
  StackStats s;
  lib_.report(s);
  s.unexpected_now = mtl_.unexpected_now();
  s.posted_now = mtl_.posted_now();
  mtl_.add_counters(s.counters);
  return s;
}

}  // namespace ompisim::pml::cm
