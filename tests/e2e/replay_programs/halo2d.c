/* 2-D halo exchange on a periodic PX x PY grid: Irecv from the 4 neighbours, Isend to them, Waitall, compute. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int r, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  int px = 1;
  while (px * px < n) px *= 2;
  if (px * px != n) px /= 2;
  int py = n / px, x = r % px, y = r / px;
  int nb[4] = {y * px + (x + 1) % px, y * px + (x + px - 1) % px, ((y + 1) % py) * px + x, ((y + py - 1) % py) * px + x};
  int sizes[2] = {16, 128}; /* doubles per message, alternating: 128 B and 1 KiB (argv: other sizes) */
  if (argc > 2) sizes[0] = atoi(argv[1]), sizes[1] = atoi(argv[2]); 
  double* sbuf = calloc(16384 * 4, sizeof(double));
  double* rbuf = calloc(16384 * 4, sizeof(double));
  for (int it = 0; it < 10; ++it) {
    int cnt = sizes[it % 2];
    MPI_Request q[8];
    for (int d = 0; d < 4; ++d) MPI_Irecv(rbuf + d * 16384, cnt, MPI_DOUBLE, nb[d ^ 1], d, MPI_COMM_WORLD, &q[d]);
    for (int d = 0; d < 4; ++d) MPI_Isend(sbuf + d * 16384, cnt, MPI_DOUBLE, nb[d], d, MPI_COMM_WORLD, &q[4 + d]);
    MPI_Waitall(8, q, MPI_STATUSES_IGNORE);
    smpi_execute_flops(20000.0 * (1 + r % 3));
  }
  printf("WTIME %d %.9f\n", r, MPI_Wtime());
  MPI_Finalize();
  return 0;
}
