#include "protocols/pml/cm/pml_cm.hpp"

namespace ompisim::pml::cm {

PmlCm::PmlCm(World& w, double overhead, mtl::Mtl& mtl, std::string name)
    : w_(w), overhead_(overhead), mtl_(mtl), name_(std::move(name)) {}

void PmlCm::isend(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, Completion done) {
  ++st_.sends_posted;
  std::uint64_t id = next_++;
  sends_[id] = std::move(done);
  w_.cpu(rank, overhead_, [this, rank, dst, tag, bytes, buf, id] {
    mtl_.isend(rank, dst, tag, bytes, buf, [this, id] { complete_request(sends_, id, st_.sends_completed); });
  });
}

void PmlCm::irecv(int rank, int src, int tag, std::uint64_t bytes, Buffer buf, Completion done) {
  ++st_.recvs_posted;
  std::uint64_t id = next_++;
  recvs_[id] = std::move(done);
  w_.cpu(rank, overhead_, [this, rank, src, tag, bytes, buf, id] {
    mtl_.irecv(rank, src, tag, bytes, buf, [this, id] { complete_request(recvs_, id, st_.recvs_completed); });
  });
}

StackStats PmlCm::stats() const {
  StackStats s = st_;
  s.live_requests = sends_.size() + recvs_.size();
  s.unexpected_now = mtl_.unexpected_now();
  s.posted_now = mtl_.posted_now();
  mtl_.add_counters(s.counters);
  return s;
}

}  // namespace ompisim::pml::cm
