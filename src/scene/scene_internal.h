/* scene_internal: helpers shared by the scene loader's files. */
#ifndef SC_SCENE_INTERNAL_H
#define SC_SCENE_INTERNAL_H

#define SC_SCENE_PI 3.14159265358979323846

/* Eigenvalues of a symmetric 3x3 matrix (row-major), unordered. */
void sc_scene_sym3_eig(const double A[9], double lam[3]);

#endif
