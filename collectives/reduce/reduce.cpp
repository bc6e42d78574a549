// See reduce.hpp.
#include "collectives/reduce/reduce.hpp"

#include <stdexcept>
#include <string>

namespace ompisim::coll {

Schedule reduce_linear(int me, int nranks, const AlgoParams& p) {
  detail::check_rank_args("reduce/linear", me, nranks);
  detail::check_root("reduce/linear", p.root, nranks);
  Schedule s;
  if (me != p.root) {
    s.round().send(p.root, p.bytes);  // MCA_PML_CALL(send(sbuf, ..., root, MCA_COLL_BASE_TAG_REDUCE, ...))
    return s;
  }
  if (nranks == 1) return s;  // MPI_Reduce on one rank: a local copy
  // Initialise the result: from rank P-1 (or, when the root is P-1, a local copy of its own vector, not charged).
  if (me != nranks - 1) s.round().recv(nranks - 1, p.bytes);
  for (int i = nranks - 2; i >= 0; --i) {
    if (i != me) s.round().recv(i, p.bytes);  // into pml_buffer; the root's own vector needs no receive
    s.round().reduce(p.bytes);                // ompi_op_reduce(op, inbuf, rbuf, count, dtype)
  }
  return s;
}

Schedule reduce_basic_log(int me, int nranks, const AlgoParams& p) {
  detail::check_rank_args("reduce/basic_log", me, nranks);
  detail::check_root("reduce/basic_log", p.root, nranks);
  Schedule s;
  const int v = (me - p.root + nranks) % nranks;
  auto real = [&](int vr) { return (vr + p.root) % nranks; };
  for (int mask = 1; mask < nranks; mask <<= 1) {
    if (v & mask) {
      s.round().send(real(v & ~mask), p.bytes);  // a high process sends to the low one and stops
      return s;
    }
    const int peer = v | mask;
    if (peer >= nranks) continue;
    s.round().recv(real(peer), p.bytes);
    s.round().reduce(p.bytes);
  }
  return s;  // v == 0 is the root: the result is already in its buffer
}

void register_reduce(CollRegistry& reg) {
  reg.add({"reduce", "linear",
           "non-roots send to the root, which receives from P-1, then P-2 .. 0, reducing after each receive",
           "ompi/mca/coll/tuned/coll_tuned_reduce.c ompi_coll_tuned_reduce_intra_basic_linear (v1.1.0, v1.1.1; the "
           "v1.1 fixed decision's only choice)",
           &reduce_linear, false});
  reg.add({"reduce", "basic_log",
           "hypercube fan-in on (me - root) mod P: bit k set sends to v - 2^k and stops, else receives from v + 2^k "
           "and reduces",
           "ompi/mca/coll/basic/coll_basic_reduce.c mca_coll_basic_reduce_log_intra (v1.1, commutative operation)",
           &reduce_basic_log, false});
  // MPIR_Reduce_intra_binomial for a commutative operation is the same fan-in (relrank = (rank - root) mod P; at the
  // lowest set bit send to relrank & ~mask and stop, else receive from relrank | mask and reduce).
  reg.add({"reduce", "mpich_binomial",
           "MPICH: binomial fan-in on (me - root) mod P: bit k set sends to v - 2^k and stops, else receives from "
           "v + 2^k and reduces (commutative operation)",
           "MPICH src/mpi/coll/reduce/reduce_intra_binomial.c MPIR_Reduce_intra_binomial (v3.4a2)", &reduce_basic_log,
           false});
  reg.add({"reduce", "binomial",
           "coll/base generic reduce (in segments where the decision gives a segsize) over "
           "the in-order binomial tree: children v+1, v+2, v+4 .. "
           "received and reduced in turn, then one send to the parent",
           "ompi/mca/coll/base/coll_base_reduce.c ompi_coll_base_reduce_intra_binomial over coll_base_topo.c "
           "ompi_coll_base_topo_build_in_order_bmtree (v4.1-v5.0; ompi_coll_tuned_reduce_generic in v1.3.0 runs the same loop)",
           &reduce_binomial, false});
  reg.add({"reduce", "in_order_binary",
           "coll/base generic reduce (in segments where the decision gives a segsize) over "
           "the in-order binary tree rooted at P-1, then P-1 sends the "
           "result to the root",
           "ompi/mca/coll/base/coll_base_reduce.c ompi_coll_base_reduce_intra_in_order_binary over coll_base_topo.c "
           "ompi_coll_base_topo_build_in_order_bintree (v4.1-v5.0; ompi_coll_tuned_reduce_generic in v1.3.0 runs the same loop)",
           &reduce_in_order_binary, false});
  reg.add({"reduce", "binary",
           "coll/base generic reduce (in segments where the decision gives a segsize) over "
           "the binary tree by levels on (me - root) mod P: children "
           "v + 2^l and v + 2^(l+1) received and reduced in turn, then one send to the parent",
           "ompi/mca/coll/base/coll_base_reduce.c ompi_coll_base_reduce_intra_binary over coll_base_topo.c "
           "ompi_coll_base_topo_build_tree(2) (v4.1-v5.0; ompi_coll_tuned_reduce_generic in v1.3.0 runs the same loop)",
           &reduce_binary, false});
  reg.add({"reduce", "pipeline",
           "coll/base generic reduce (in segments where the decision gives a segsize) over "
           "one chain: (me - root) mod P = P-1 sends to P-2, which reduces "
           "and sends on, down to the root",
           "ompi/mca/coll/base/coll_base_reduce.c ompi_coll_base_reduce_intra_pipeline over coll_base_topo.c "
           "ompi_coll_base_topo_build_chain(1) (v4.1-v5.0; ompi_coll_tuned_reduce_generic in v1.3.0 runs the same loop)",
           &reduce_pipeline, false});
  reg.add({"reduce", "chain",
           "coll/base generic reduce (in segments where the decision gives a segsize) over "
           "build_chain with coll/tuned's fanout 0, which it forces to 1: "
           "the pipeline's one chain",
           "ompi/mca/coll/base/coll_base_reduce.c ompi_coll_base_reduce_intra_chain over coll_base_topo.c "
           "ompi_coll_base_topo_build_chain (v4.1-v5.0: fanout < 1 forced to 1), segment size 0",
           &reduce_pipeline, false});
  reg.add({"reduce", "rabenseifner",
           "coll/base: reduce-scatter by recursive halving, then binomial gather of the pieces to the root; extra odd "
           "ranks fold halves into their even neighbour first; basic linear below pof2 elements",
           "ompi/mca/coll/base/coll_base_reduce.c ompi_coll_base_reduce_intra_redscat_gather (v4.1-v5.0; coll/tuned "
           "reduce algorithm 7)",
           &reduce_rabenseifner, false});
  reg.add({"reduce", "mpich_reduce_scatter_gather",
           "MPICH: Rabenseifner's reduce, reduce-scatter by recursive halving then binomial gather of the pieces to "
           "the root; extra odd ranks fold into their even neighbour first",
           "MPICH src/mpi/coll/reduce/reduce_intra_reduce_scatter_gather.c MPIR_Reduce_intra_reduce_scatter_gather "
           "(v3.4a2)",
           &reduce_mpich_reduce_scatter_gather, false});
  reg.add({"reduce", "mpich_smp",
           "MPICH ch4 node-aware reduce: reduce within every node but the root's to its leader, among the node "
           "leaders to the root's node, then within the root's node to the root",
           "MPICH src/mpid/ch4/src/ch4_coll_impl.h MPIDI_Reduce_intra_composition_alpha (v3.4a2)", &reduce_mpich_smp,
           false, true});
}

}  // namespace ompisim::coll
