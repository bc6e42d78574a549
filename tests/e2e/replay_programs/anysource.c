/* A manager/worker exchange with wildcard receives: rank 0 takes one message from every worker with
 * MPI_Irecv(MPI_ANY_SOURCE, tag 5) + MPI_Wait, then one more each with MPI_Recv(MPI_ANY_SOURCE, MPI_ANY_TAG). SMPI
 * traces the wildcard source as -333 (MPI_UNDEFINED) and the wildcard tag as -444; the replay posts them as
 * MPI_ANY_SOURCE / MPI_ANY_TAG receives, so every message is delivered once whatever order the network gives. */
#include <mpi.h>
int main(int argc, char** argv) {
  int r, n, buf[64] = {0};
  MPI_Request q;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (r == 0) {
    for (int i = 1; i < n; ++i) {
      MPI_Irecv(buf, 64, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &q);
      MPI_Wait(&q, MPI_STATUS_IGNORE);
    }
    for (int i = 1; i < n; ++i) MPI_Recv(buf, 64, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(buf, 64, MPI_INT, 0, 5, MPI_COMM_WORLD);
    MPI_Send(buf, 64, MPI_INT, 0, 9 + r, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
