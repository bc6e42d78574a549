// pml/cm: MPI request management over one MTL, which does matching and data movement (seastar-portals paper §2.1,
// "CM"). No matching, no fragments, no BTLs here: a send or receive costs pml/cm's own request handling, then is the
// MTL's. Completion comes from the MTL.
#pragma once
#include "protocols/mtl/mtl.hpp"

#include <unordered_map>

namespace ompisim::pml::cm {

class PmlCm final : public Stack {
public:
  PmlCm(World& w, double overhead, mtl::Mtl& mtl, std::string name);
  std::string name() const override { return name_; }
  void isend(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, Completion done) override;
  void irecv(int rank, int src, int tag, std::uint64_t bytes, Buffer buf, Completion done) override;
  StackStats stats() const override;

private:
  World& w_;
  double overhead_;
  mtl::Mtl& mtl_;
  std::string name_;
  std::unordered_map<std::uint64_t, Completion> sends_, recvs_;
  std::uint64_t next_ = 1;
  StackStats st_;
};

}  // namespace ompisim::pml::cm
