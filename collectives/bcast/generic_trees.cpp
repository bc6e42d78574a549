// bcast "basic_linear", "pipeline", "chain" and "binary_tree" ↔ ompi_coll_base_bcast_intra_basic_linear, _pipeline,
// _chain and _bintree, ompi/mca/coll/base/coll_base_bcast.c (v4.1-v5.0), as coll/tuned's fixed decision calls them:
// ompi_coll_tuned_bcast_intra_do_this(..., alg, 0, 0), segment size 0 and fan-out 0, so each tree runs
// ompi_coll_base_bcast_intra_generic with one segment (COLL_BASE_COMPUTED_SEGCOUNT leaves segcount = count).
//
// Trees, on shifted ranks s = (me - root) mod P:
//   - pipeline: ompi_coll_base_topo_build_chain(1, ...): s receives from s - 1 and sends to s + 1 (while < P).
//   - chain: build_chain(fan-out 0), which build_chain forces to 1 ("invalid fanout of ZERO, forcing to 1
//     (pipeline)"): the pipeline's chain.
//   - binary_tree: ompi_coll_base_topo_build_tree(2, ...) (collectives/bcast/bintree.hpp).
// Message sequence of the generic bcast with one segment: a non-root rank receives the message from its parent (one
// round), then isends it to all of its children at once and waits for all (one round); a leaf only receives.
// basic_linear (a copy of coll/basic's): the root isend_inits to every other rank in rank order, starts them all
// and waits for all; every other rank receives from the root. P = 1: nothing.
#include "collectives/bcast/bintree.hpp"
#include "collectives/tuned_colls.hpp"

#include <vector>

namespace ompisim::coll {

namespace {

// ompi_coll_base_bcast_intra_generic with one segment: receive from the parent (unless the root), then one round of
// isends to the children.
Schedule generic_one_segment(long long v, int nranks, int root, std::uint32_t bytes,
                             long long parent, const std::vector<long long>& children) {
  auto real = [&](long long x) { return static_cast<int>((x + root) % nranks); };
  Schedule s;
  if (v != 0) s.round().recv(real(parent), bytes);
  if (!children.empty()) {
    s.round();
    for (long long c : children) s.send(real(c), bytes);
  }
  return s;
}

long long shifted(int me, int nranks, int root) { return (me - root + nranks) % nranks; }

}  // namespace

Schedule bcast_basic_linear(int me, int nranks, const AlgoParams& params) {
  detail::check_rank_args("bcast/basic_linear", me, nranks);
  detail::check_root("bcast/basic_linear", params.root, nranks);
  if (nranks == 1) return {};
  return detail::root_isends_to_all(me, nranks, params.root, params.bytes);
}

Schedule bcast_pipeline(int me, int nranks, const AlgoParams& params) {
  detail::check_rank_args("bcast/pipeline", me, nranks);
  detail::check_root("bcast/pipeline", params.root, nranks);
  const long long v = shifted(me, nranks, params.root);
  std::vector<long long> children;
  if (v + 1 < nranks) children.push_back(v + 1);
  return generic_one_segment(v, nranks, params.root, params.bytes, v - 1, children);
}

Schedule bcast_binary_tree(int me, int nranks, const AlgoParams& params) {
  detail::check_rank_args("bcast/binary_tree", me, nranks);
  detail::check_root("bcast/binary_tree", params.root, nranks);
  const long long v = shifted(me, nranks, params.root);
  const long long delta = 1LL << detail::bintree_level(v);
  std::vector<long long> children;
  for (long long i = 1; i <= 2; ++i)
    if (v + delta * i < nranks) children.push_back(v + delta * i);
  return generic_one_segment(v, nranks, params.root, params.bytes, detail::bintree_parent(v), children);
}

}  // namespace ompisim::coll
