// bml/r2: which BTLs a rank uses to reach each peer (ompi/mca/bml/r2/bml_r2.c, mca_bml_r2_add_procs, Open MPI
// v1.8.8). For a peer it builds, as add_procs does:
//   - the send array: every BTL that reaches the peer, tried in decreasing exclusivity; a BTL is skipped when the
//     last one taken has a higher exclusivity (so the highest exclusivity that reaches a peer excludes lower ones,
//     and BTLs of equal exclusivity are all kept); then sorted by decreasing bandwidth, each weighted by its share of
//     the total bandwidth (1/n when a bandwidth is 0), the weights summing to 1;
//   - the eager array: the BTLs of the send array with the lowest latency (used for first fragments and control);
//   - the RDMA array: the BTLs of the send array with PUT or GET, except, towards a peer of another architecture,
//     those without HETEROGENEOUS_RDMA.
// The record is created on a rank's first contact with a peer. Peers with the same arrays share one interned record:
// the per-peer state is a 4-byte index (mpi/peer_seq), so a rank that talks to every peer of a 300k-rank job costs
// about 11 bytes per peer.
// LIMITATIONS: no btl_del_procs, failover or dynamic add_procs; the per-peer max_send_size/pipeline fields are
// computed but pml/ob1 uses each BTL's own; `arch` is one integer per rank (all equal unless set).
#pragma once
#include "mpi/peer_seq.hpp"
#include "protocols/btl/btl.hpp"

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

namespace ompisim::bml::r2 {

struct BmlBtl {  // ↔ mca_bml_base_btl_t
  btl::Btl* btl = nullptr;
  double weight = 0;  // share of the peer's send bandwidth (send and RDMA arrays); 0 in the eager array's copy
  bool operator==(const BmlBtl&) const = default;
};

struct Endpoint {  // ↔ mca_bml_base_endpoint_t
  std::vector<BmlBtl> eager, send, rdma;
  std::uint64_t max_send_size = 0;         // min over the send array
  std::uint64_t pipeline_send_length = 0;  // max rdma_pipeline_send_length over the RDMA array
  std::uint64_t send_limit = 0;            // max min_rdma_pipeline_size over the RDMA array
  std::uint32_t flags_or = 0;
  bool operator==(const Endpoint&) const = default;
};

// The arrays for `peer` as seen from `rank` over `btls` (any order): a pure function of the BTLs' caps and
// reachability (`contexts`: where the ranks run). `same_arch`: whether the two ranks have the same architecture (proc_arch).
Endpoint add_proc(const std::vector<btl::Btl*>& btls, const Contexts& contexts, int rank, int peer,
                  bool same_arch);

class BmlR2 {
public:
  // `contexts`: where ranks run (the job size; what each BTL's reachability reads).
  BmlR2(const Contexts& contexts, std::vector<btl::Btl*> btls);
  const std::vector<btl::Btl*>& btls() const { return btls_; }
  // The peer's record, built on first contact. Throws InputError (key "stack") when no BTL reaches the peer
  // (OMPI_ERR_UNREACH, help-mca-bml-r2.txt "unreachable proc").
  const Endpoint& endpoint(int rank, int peer);
  void set_arch(int rank, std::uint32_t arch);
  std::uint32_t arch(int rank) const { return arch_.empty() ? 0 : arch_[static_cast<std::size_t>(rank)]; }
  std::size_t records() const { return records_.size(); }     // distinct interned endpoint records
  std::size_t contacts(int rank) const;                         // peers `rank` has a record for
  // Whether `b` is in an array of any peer contacted so far: a BTL in none carried no message of the run.
  bool selected(const btl::Btl* b) const;

private:
  const Contexts& ctx_;
  std::vector<btl::Btl*> btls_;
  std::deque<Endpoint> records_;     // interned; a deque keeps references valid
  // add_proc's inputs that vary by peer (which BTLs reach it, bit i for btls_[i], and bit 63 for same_arch) -> its
  // record: a first contact asks each BTL `reaches` and finds the record here instead of rebuilding the arrays (four
  // vectors and two sorts) and comparing them with every record. A job has a handful of distinct keys.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> by_reach_;
  std::vector<mpi::PeerSeq> peers_;  // per rank: peer -> 1 + index in records_, created on first contact
  std::vector<std::uint32_t> arch_;  // empty: every rank has architecture 0
};

}  // namespace ompisim::bml::r2
