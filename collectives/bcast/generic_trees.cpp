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
// With a segment size (AlgoParams::segsize, as coll/tuned v1.3's fixed decision passes it to pipeline, 8-128 KiB:
// ompi_coll_tuned_bcast_intra_generic, coll_tuned_bcast.c v1.3.0, without COLL_TUNED_BCAST_USE_BLOCKING): the message
// is cut into segments of about segsize bytes (COLL_TUNED_COMPUTED_SEGCOUNT on the caller's elements,
// detail::segment_bytes; the last one shorter). The root isends each segment to all of its children and waits for
// them before the next. An intermediate rank posts the
// receive of segment 0; then for each next segment it posts that segment's receive, waits for the previous one and
// isends it to its children (waiting for those sends); then it waits for the last segment and forwards it. A leaf
// posts the next segment's receive before it waits for the previous one.
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

// ompi_coll_tuned_bcast_intra_generic with segments of `seg` bytes (more than one segment).
Schedule generic_segmented(long long v, int nranks, int root, std::uint32_t bytes, std::uint32_t seg,
                           long long parent, const std::vector<long long>& children) {
  auto real = [&](long long x) { return static_cast<int>((x + root) % nranks); };
  const std::uint32_t nseg = (bytes + seg - 1) / seg, last = bytes - (nseg - 1) * seg;
  auto size_of = [&](std::uint32_t i) { return i + 1 == nseg ? last : seg; };
  auto forward = [&](Schedule& s, std::uint32_t b) {
    if (children.empty()) return;
    s.round();
    for (long long c : children) s.send(real(c), b);
  };
  Schedule s;
  if (v == 0) {
    for (std::uint32_t i = 0; i < nseg; ++i) forward(s, size_of(i));
    return s;
  }
  s.round().post_recv(real(parent), size_of(0));
  for (std::uint32_t i = 1; i < nseg; ++i) {
    s.round().post_recv(real(parent), size_of(i)).wait();
    forward(s, seg);
  }
  s.round().wait();
  forward(s, last);
  return s;
}

// The generic bcast on the tree (parent, children) of shifted rank v: one segment, or segments of params.segsize.
Schedule generic(long long v, int nranks, const AlgoParams& params, long long parent,
                 const std::vector<long long>& children) {
  const std::uint32_t seg = detail::segment_bytes(params.bytes, params.segsize, params.elem_bytes);
  if (seg == params.bytes) return generic_one_segment(v, nranks, params.root, params.bytes, parent, children);
  return generic_segmented(v, nranks, params.root, params.bytes, seg, parent, children);
}

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
  return generic(v, nranks, params, v - 1, children);
}

Schedule bcast_binary_tree(int me, int nranks, const AlgoParams& params) {
  detail::check_rank_args("bcast/binary_tree", me, nranks);
  detail::check_root("bcast/binary_tree", params.root, nranks);
  const long long v = shifted(me, nranks, params.root);
  const long long delta = 1LL << detail::bintree_level(v);
  std::vector<long long> children;
  for (long long i = 1; i <= 2; ++i)
    if (v + delta * i < nranks) children.push_back(v + delta * i);
  return generic(v, nranks, params, detail::bintree_parent(v), children);
}

}  // namespace ompisim::coll
