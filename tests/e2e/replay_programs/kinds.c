/* Every action kind SMPI's time-independent tracing writes that a replay can run, once each, on 4 ranks: the
 * replay must accept them all and deliver every point-to-point message. With -DWITH_IBARRIER it also calls
 * MPI_Ibarrier, which SMPI traces as "ibarrier" and which no replay can run (refused with a reason). */
#include <mpi.h>
#include <stdio.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int r, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  double a[256], b[1024];
  int ic[4], disp[4], vc[4], rc[4] = {2, 2, 2, 2};
  for (int i = 0; i < 256; i++) a[i] = i;
  MPI_Request rq[2];
  MPI_Irecv(b, 128, MPI_DOUBLE, (r + n - 1) % n, 7, MPI_COMM_WORLD, &rq[0]);
  MPI_Isend(a, 128, MPI_DOUBLE, (r + 1) % n, 7, MPI_COMM_WORLD, &rq[1]);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
  smpi_execute_flops(1e5);
  MPI_Allreduce(a, b, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Bcast(a, 128, MPI_DOUBLE, 1, MPI_COMM_WORLD);
  MPI_Reduce(a, b, 16, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Alltoall(a, 4, MPI_DOUBLE, b, 4, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int i = 0; i < 4; i++) vc[i] = i + r + 1, disp[i] = 8 * i, ic[i] = i + 1;
  MPI_Alltoallv(a, vc, disp, MPI_DOUBLE, b, vc, disp, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Gather(a, 4, MPI_DOUBLE, b, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Allgather(a, 4, MPI_DOUBLE, b, 4, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Scatter(a, 4, MPI_DOUBLE, b, 4, MPI_DOUBLE, 2, MPI_COMM_WORLD);
  MPI_Gatherv(a, r + 1, MPI_DOUBLE, b, ic, disp, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Allgatherv(a, r + 1, MPI_DOUBLE, b, ic, disp, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Scatterv(a, ic, disp, MPI_DOUBLE, b, r + 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Reduce_scatter(a, b, rc, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Scan(a, b, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Exscan(a, b, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (r == 0) {
    MPI_Send(a, 10, MPI_INT, 1, 3, MPI_COMM_WORLD);
    MPI_Recv(b, 10, MPI_INT, 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (r == 1) {
    MPI_Recv(b, 10, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(a, 10, MPI_INT, 0, 4, MPI_COMM_WORLD);
  } else {
    int peer = r == 2 ? 3 : 2;
    MPI_Sendrecv(a, 5, MPI_DOUBLE, peer, 1, b, 5, MPI_DOUBLE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  if (r == 0) {
    MPI_Request q;
    int done = 0;
    MPI_Isend(a, 3, MPI_CHAR, 1, 9, MPI_COMM_WORLD, &q);
    while (!done) MPI_Test(&q, &done, MPI_STATUS_IGNORE);
  } else if (r == 1) {
    MPI_Recv(b, 3, MPI_CHAR, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
#ifdef WITH_IBARRIER
  MPI_Request q;
  MPI_Ibarrier(MPI_COMM_WORLD, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
#endif
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
