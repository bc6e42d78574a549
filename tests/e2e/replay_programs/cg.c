/* A conjugate-gradient-like loop: a 1-D halo exchange (Sendrecv), a local product, two dot-product Allreduces. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int r, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  double* a = calloc(4096, sizeof(double));
  double* b = calloc(4096, sizeof(double));
  double dot = 1, res = 0, vec[64] = {0}, vres[64];
  for (int it = 0; it < 20; ++it) {
    MPI_Sendrecv(a, 512, MPI_DOUBLE, (r + 1) % n, 1, b, 512, MPI_DOUBLE, (r + n - 1) % n, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    smpi_execute_flops(50000.0);
    MPI_Allreduce(&dot, &res, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    smpi_execute_flops(10000.0);
    MPI_Allreduce(vec, vres, 64, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  printf("WTIME %d %.9f\n", r, MPI_Wtime());
  MPI_Finalize();
  return 0;
}
