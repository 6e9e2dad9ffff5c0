#!/usr/bin/python3
"""Mass properties of the solid bounded by an OBJ file's faces, per unit
density: an independent reference for test/test_mesh.c.

Usage: mesh_mass.py FILE.obj [SX SY SZ]

Prints one line: closed volume cx cy cz I00 I01 I02 I10 I11 I12 I20 I21 I22
(inertia about the centroid, in the mesh axes; %.17g).

Method: Mirtich, "Fast and accurate computation of polyhedral mass
properties", Journal of Graphics Tools 1(2), 1996.  The divergence theorem
turns each volume integral (1, x, x^2, xy, ...) into integrals over the
faces, and Green's theorem turns each face integral into integrals over the
edges of the face projected onto the coordinate plane where it is largest.
This shares nothing with simc's tetrahedra from a reference point but the
input.  Polygons are fanned from their first vertex into triangles (as simc
reads them), which also keeps every face planar.  `closed` is 1 when the
triangles, with equal positions taken as one vertex, use each directed edge
once and its reverse once; a surface wound inwards is taken reversed.
"""
import sys

import numpy as np


def read_obj(path, scale):
    verts, tris = [], []
    with open(path, "r", encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.split("#", 1)[0]
            tok = line.split()
            if not tok:
                continue
            if tok[0] == "v":
                verts.append([float(t) for t in tok[1:4]])
            elif tok[0] == "f":
                idx = []
                for t in tok[1:]:
                    k = int(t.split("/")[0])
                    idx.append(k - 1 if k > 0 else len(verts) + k)
                for j in range(1, len(idx) - 1):
                    tris.append((idx[0], idx[j], idx[j + 1]))
    v = np.array(verts, dtype=float) * np.asarray(scale, dtype=float)
    t = np.array(tris, dtype=np.int64)
    if np.prod(scale) < 0:
        t = t[:, [0, 2, 1]]
    return v, t


def is_closed(v, t):
    _, canon = np.unique(v, axis=0, return_inverse=True)
    canon = canon.reshape(-1)
    c = canon[t]
    keep = (c[:, 0] != c[:, 1]) & (c[:, 1] != c[:, 2]) & (c[:, 2] != c[:, 0])
    c = c[keep]
    if len(c) == 0:
        return 0
    e = np.concatenate([c[:, [0, 1]], c[:, [1, 2]], c[:, [2, 0]]])
    n = int(canon.max()) + 1
    fwd = e[:, 0] * n + e[:, 1]
    rev = e[:, 1] * n + e[:, 0]
    if len(np.unique(fwd)) != len(fwd):
        return 0
    return int(np.all(np.isin(rev, fwd)))


def mirtich(v, t):
    p = v[t]  # (nt, 3 vertices, 3 coordinates)
    nrm = np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 1])
    ln = np.linalg.norm(nrm, axis=1)
    ok = ln > 0  # degenerate triangles bound nothing
    p, nrm, ln = p[ok], nrm[ok], ln[ok]
    nrm = nrm / ln[:, None]
    w = -np.einsum("ij,ij->i", nrm, p[:, 0])
    an = np.abs(nrm)
    C = np.where((an[:, 0] > an[:, 1]) & (an[:, 0] > an[:, 2]), 0, np.where(an[:, 1] > an[:, 2], 1, 2))
    A = (C + 1) % 3
    B = (A + 1) % 3
    rows = np.arange(len(p))
    # projection integrals over the face's edges, in the (A, B) plane
    P = {k: np.zeros(len(p)) for k in ("1", "a", "b", "aa", "ab", "bb", "aaa", "aab", "abb", "bbb")}
    for i in range(3):
        q0, q1 = p[:, i], p[:, (i + 1) % 3]
        a0, b0 = q0[rows, A], q0[rows, B]
        a1, b1 = q1[rows, A], q1[rows, B]
        da, db = a1 - a0, b1 - b0
        a0_2, b0_2, a1_2, b1_2 = a0 * a0, b0 * b0, a1 * a1, b1 * b1
        a0_3, b0_3, a1_3, b1_3 = a0_2 * a0, b0_2 * b0, a1_2 * a1, b1_2 * b1
        a0_4, b0_4 = a0_3 * a0, b0_3 * b0
        C1 = a1 + a0
        Ca = a1 * C1 + a0_2
        Caa = a1 * Ca + a0_3
        Caaa = a1 * Caa + a0_4
        Cb = b1 * (b1 + b0) + b0_2
        Cbb = b1 * Cb + b0_3
        Cbbb = b1 * Cbb + b0_4
        Cab = 3 * a1_2 + 2 * a1 * a0 + a0_2
        Kab = a1_2 + 2 * a1 * a0 + 3 * a0_2
        Caab = a0 * Cab + 4 * a1_3
        Kaab = a1 * Kab + 4 * a0_3
        Cabb = 4 * b1_3 + 3 * b1_2 * b0 + 2 * b1 * b0_2 + b0_3
        Kabb = b1_3 + 2 * b1_2 * b0 + 3 * b1 * b0_2 + 4 * b0_3
        P["1"] += db * C1
        P["a"] += db * Ca
        P["aa"] += db * Caa
        P["aaa"] += db * Caaa
        P["b"] += da * Cb
        P["bb"] += da * Cbb
        P["bbb"] += da * Cbbb
        P["ab"] += db * (b1 * Cab + b0 * Kab)
        P["aab"] += db * (b1 * Caab + b0 * Kaab)
        P["abb"] += da * (a1 * Cabb + a0 * Kabb)
    P1, Pa, Paa, Paaa = P["1"] / 2, P["a"] / 6, P["aa"] / 12, P["aaa"] / 20
    Pb, Pbb, Pbbb = P["b"] / -6, P["bb"] / -12, P["bbb"] / -20
    Pab, Paab, Pabb = P["ab"] / 24, P["aab"] / 60, P["abb"] / -60
    # face integrals
    nA, nB, nC = nrm[rows, A], nrm[rows, B], nrm[rows, C]
    k1 = 1 / nC
    k2, k3, k4 = k1 * k1, k1 * k1 * k1, k1 * k1 * k1 * k1
    Fa = k1 * Pa
    Fb = k1 * Pb
    Fc = -k2 * (nA * Pa + nB * Pb + w * P1)
    Faa = k1 * Paa
    Fbb = k1 * Pbb
    Fcc = k3 * (nA**2 * Paa + 2 * nA * nB * Pab + nB**2 * Pbb + w * (2 * (nA * Pa + nB * Pb) + w * P1))
    Faaa = k1 * Paaa
    Fbbb = k1 * Pbbb
    Fccc = -k4 * (nA**3 * Paaa + 3 * nA**2 * nB * Paab + 3 * nA * nB**2 * Pabb + nB**3 * Pbbb
                  + 3 * w * (nA**2 * Paa + 2 * nA * nB * Pab + nB**2 * Pbb)
                  + w * w * (3 * (nA * Pa + nB * Pb) + w * P1))
    Faab = k1 * Paab
    Fbbc = -k2 * (nA * Pabb + nB * Pbbb + w * Pbb)
    Fcca = k3 * (nA**2 * Paaa + 2 * nA * nB * Paab + nB**2 * Pabb + w * (2 * (nA * Paa + nB * Pab) + w * Pa))
    # volume integrals: T0 = int 1, T1[k] = int x_k, T2[k] = int x_k^2,
    # TP = (int xy, int yz, int zx)
    nx = nrm[:, 0]
    T0 = np.sum(nx * np.where(A == 0, Fa, np.where(B == 0, Fb, Fc)))
    T1, T2, TP = np.zeros(3), np.zeros(3), np.zeros(3)
    for k in range(3):
        for axis, F1, F2, F3 in ((A, Faa, Faaa, Faab), (B, Fbb, Fbbb, Fbbc), (C, Fcc, Fccc, Fcca)):
            sel = axis == k
            T1[k] += np.sum(nrm[sel, k] * F1[sel])
            T2[k] += np.sum(nrm[sel, k] * F2[sel])
            TP[k] += np.sum(nrm[sel, k] * F3[sel])
    T1 /= 2
    T2 /= 3
    TP /= 2
    if T0 < 0:
        T0, T1, T2, TP = -T0, -T1, -T2, -TP
    r = T1 / T0
    J = np.array([[T2[1] + T2[2], -TP[0], -TP[2]],
                  [-TP[0], T2[2] + T2[0], -TP[1]],
                  [-TP[2], -TP[1], T2[0] + T2[1]]])
    # parallel axes: to the centroid
    J -= T0 * (np.dot(r, r) * np.eye(3) - np.outer(r, r))
    return T0, r, J


def main():
    if len(sys.argv) not in (2, 5):
        sys.exit(__doc__)
    scale = [float(s) for s in sys.argv[2:5]] if len(sys.argv) == 5 else [1.0, 1.0, 1.0]
    v, t = read_obj(sys.argv[1], scale)
    vol, r, J = mirtich(v, t)
    out = [is_closed(v, t), vol, *r, *J.reshape(-1)]
    print(" ".join("%.17g" % x for x in out))


if __name__ == "__main__":
    main()
