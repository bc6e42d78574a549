#include "protocols/mtl/ofi/mtl_ofi.hpp"

#include "core/errors.hpp"

namespace ompisim::mtl::ofi {

MtlOfi::MtlOfi(World& w, ompisim::ofi::Endpoint& ep) : w_(w), ep_(ep) {
  ompisim::ofi::CqOwnerOps ops;
  ops.write = [this](const ompisim::ofi::CqEntry& e) { on_cq(e); };
  ops.writeerr = ops.write;
  ep_.set_cq(std::move(ops));
}

void MtlOfi::isend(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, Completion done) {
  std::uint64_t id = next_++;
  ops_.emplace(id, std::move(done));
  ep_.tsend(rank, dst, tag, bytes, buf, id);
}

void MtlOfi::irecv(int rank, int src, int tag, std::uint64_t bytes, Buffer buf, Completion done) {
  std::uint64_t id = next_++;
  ops_.emplace(id, std::move(done));
  ep_.trecv(rank, src < 0 ? ompisim::ofi::kAnyAddr : src, tag < 0 ? ompisim::ofi::kAnyTag : tag, bytes, buf, id);
}

void MtlOfi::on_cq(const ompisim::ofi::CqEntry& e) {
  auto it = ops_.find(e.context);
  if (it == ops_.end()) throw ProtocolError("mtl/ofi", "no request for the CQ entry's context", "cq entry");
  Completion done = std::move(it->second);
  ops_.erase(it);
  if (done) done();
}

void MtlOfi::add_counters(std::map<std::string, std::uint64_t>& c) const {
  c["mpi_truncate_errors"] += 0;
  ep_.add_counters(c);
  c["mtl_ofi_live_ops"] = ops_.size();
}

}  // namespace ompisim::mtl::ofi
