/* A distributed matrix transpose: Alltoall of blocks, a local transpose, twice per step with two block sizes. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int r, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  double* s = calloc((size_t)n * 4096, sizeof(double));
  double* d = calloc((size_t)n * 4096, sizeof(double));
  for (int it = 0; it < 4; ++it) {
    MPI_Alltoall(s, 256, MPI_DOUBLE, d, 256, MPI_DOUBLE, MPI_COMM_WORLD);   /* 2 KiB per peer */
    smpi_execute_flops(100000.0);
    MPI_Alltoall(s, 4096, MPI_DOUBLE, d, 4096, MPI_DOUBLE, MPI_COMM_WORLD); /* 32 KiB per peer */
    smpi_execute_flops(100000.0);
  }
  printf("WTIME %d %.9f\n", r, MPI_Wtime());
  MPI_Finalize();
  return 0;
}
