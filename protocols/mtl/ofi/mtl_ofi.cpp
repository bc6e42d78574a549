#include "protocols/mtl/ofi/mtl_ofi.hpp"

#include "core/errors.hpp"

#include <stdexcept>
#include <string>

namespace ompisim::mtl::ofi {

MtlOfi::MtlOfi(ompisim::ofi::Endpoint& ep, InjectOn inject) : ep_(ep), inject_(inject) {
  ompisim::ofi::CqOwnerOps ops;
  ops.write = [this](const ompisim::ofi::CqEntry& e) { on_cq(e); };
  ops.writeerr = ops.write;
  ep_.set_cq(std::move(ops));
}

namespace {
void one_communicator(const ompisim::mpi::P2P& m) {
  if (m.comm.context_id != 0)
    throw std::invalid_argument("mtl/ofi: communicator context id " + std::to_string(m.comm.context_id) +
                                ": the model's OFI tag carries the MPI tag only (one communicator)");
}
}  // namespace

void MtlOfi::isend(const ompisim::mpi::P2P& m, Completion done) {
  one_communicator(m);
  const bool policy = inject_ == InjectOn::Every || (inject_ == InjectOn::Blocking && m.blocking);
  if (policy && ep_.can_inject(m.rank, m.peer, m.bytes(), m.buffer())) {
    // fi_tinject: complete when issued (MTL_OFI_RETRY_UNTIL_DONE(fi_tinject(...)), then the request is done)
    ep_.tinject(m.rank, m.peer, m.tag, m.bytes(), m.buffer(), std::move(done));
    return;
  }
  auto [id, op] = ops_.create();
  op.rank = m.rank, op.bytes = m.bytes(), op.done = std::move(done);
  ep_.tsend(m.rank, m.peer, m.tag, m.bytes(), m.buffer(), id);
}

void MtlOfi::irecv(const ompisim::mpi::P2P& m, Completion done) {
  one_communicator(m);
  auto [id, op] = ops_.create();
  op.rank = m.rank, op.bytes = m.bytes(), op.status = m.status, op.done = std::move(done);
  ep_.trecv(m.rank, m.peer == kAnySource ? ompisim::ofi::kAnyAddr : m.peer,
            m.tag == kAnyTag ? ompisim::ofi::kAnyTag : m.tag, m.bytes(), m.buffer(), id);
}

void MtlOfi::on_cq(const ompisim::ofi::CqEntry& e) {
  if (!ops_.find(e.context)) throw ProtocolError("mtl/ofi", "no request for the CQ entry's context", "cq entry");
  Op op = ops_.take(e.context);
  if (op.status && (e.flags & ompisim::ofi::CqEntry::Recv))
    *op.status = ompisim::mpi::Status{e.src, e.tag, e.len, e.len > op.bytes};
  if (op.done) op.done();
}

void MtlOfi::add_counters(std::map<std::string, std::uint64_t>& c) const {
  Statistics<MtlOfiStat, kMtlOfiStatistics.size()> own{kMtlOfiStatistics};
  own.set(MtlOfiStat::LiveOps, ops_.size());
  ep_.add_counters(c);
  own.accumulate(c);  // mpi_truncate_errors: the providers' (+ 0); mtl_ofi_live_ops: only mtl/ofi reports it
}

}  // namespace ompisim::mtl::ofi
