#!/usr/bin/python3
"""The matrices of Winograd's minimal filtering F(m, 3) (Lavin & Gray,
"Fast Algorithms for Convolutional Neural Networks", 2015, section 4:
4.1 and the one on F(4 x 4, 3 x 3)), derived here from their
interpolation points by the Toom-Cook construction and checked in float64 against the direct correlation
y_i = sum_k d_(i+k) g_k (spec "convolution"), in 1-D and, as
Y = A^T [(G g G^T) . (B^T d B)] A, in 2-D.

For points p_0 .. p_(n-2) and infinity (n = m + 2):
  A^T[i][j] = p_j^i, column n-1 = e_(m-1) (the point at infinity);
  G[j][k]   = p_j^k / f_j, f_j = prod over l != j of (p_j - p_l);
              row n-1 = e_2;
  B^T       the solution of sum_j A^T[i][j] G[j][k] B^T[j][a] = [a == i + k]
            for all i, k, a (the 1-D algorithm computes the correlation),
            which least squares finds with zero residual.
F(2, 3) takes the points 0, 1, -1; F(4, 3) 0, 1, -1, 2, -2 (Lavin &
Gray's choice: the smallest integers, so A^T and B^T are integers and
the G row of 0 is 1/4). The matrices the compiler uses
(codegen/winograd.c in its transforms, passes/layout.c's wino_pack) are
written out below: the script checks that each is the derived one up to
a scaling of each point j (G's row j by s_j, B^T's row j by t_j, A^T's
column j by 1 / (s_j t_j), which leaves the algorithm unchanged: F(2, 3)
is written as in section 4.1, point 0 and infinity negated) and that
they compute the correlation.

usage: /usr/bin/python3 wino_matrices.py   (prints the matrices; exits 1
on a mismatch)
"""
import sys

import numpy as np

POINTS = {2: [0, 1, -1], 4: [0, 1, -1, 2, -2]}

# As written in codegen/winograd.c and passes/layout.c.
CODED = {
    2: dict(
        AT=[[1, 1, 1, 0], [0, 1, -1, -1]],
        G=[[1, 0, 0], [.5, .5, .5], [.5, -.5, .5], [0, 0, 1]],
        BT=[[1, 0, -1, 0], [0, 1, 1, 0], [0, -1, 1, 0], [0, 1, 0, -1]]),
    4: dict(
        AT=[[1, 1, 1, 1, 1, 0], [0, 1, -1, 2, -2, 0], [0, 1, 1, 4, 4, 0],
            [0, 1, -1, 8, -8, 1]],
        G=[[1 / 4, 0, 0], [-1 / 6, -1 / 6, -1 / 6], [-1 / 6, 1 / 6, -1 / 6],
           [1 / 24, 1 / 12, 1 / 6], [1 / 24, -1 / 12, 1 / 6], [0, 0, 1]],
        BT=[[4, 0, -5, 0, 1, 0], [0, -4, -4, 1, 1, 0], [0, 4, -4, -1, 1, 0],
            [0, -2, -1, 2, 1, 0], [0, 2, -1, -2, 1, 0], [0, 4, 0, -5, 0, 1]]),
}


def derive(m, r=3):
    """A^T (m x n), G (n x r), B^T (n x n) of F(m, r) from its points."""
    p = np.array(POINTS[m], dtype=np.float64)
    n = m + r - 1
    AT = np.zeros((m, n))
    G = np.zeros((n, r))
    for j in range(n - 1):
        AT[:, j] = p[j] ** np.arange(m)
        f = np.prod([p[j] - p[l] for l in range(n - 1) if l != j])
        G[j] = p[j] ** np.arange(r) / f
    AT[m - 1, n - 1] = 1
    G[n - 1, r - 1] = 1
    # sum_j AT[i, j] G[j, k] BT[j, a] = [a == i + k]: one system per column a
    rows = np.array([AT[i] * G[:, k] for i in range(m) for k in range(r)])
    BT = np.zeros((n, n))
    for a in range(n):
        rhs = np.array([1.0 if a == i + k else 0.0 for i in range(m) for k in range(r)])
        sol, _, rank, _ = np.linalg.lstsq(rows, rhs, rcond=None)
        assert rank == n and np.allclose(rows @ sol, rhs, atol=1e-12), (m, a)
        BT[:, a] = sol
    return AT, G, BT


def correlate2d(d, g):
    m = d.shape[0] - g.shape[0] + 1
    return np.array([[np.sum(d[i:i + 3, j:j + 3] * g) for j in range(m)] for i in range(m)])


def check(m, rng):
    AT, G, BT = derive(m)
    c = {k: np.array(v, dtype=np.float64) for k, v in CODED[m].items()}
    n = m + 2
    s = np.array([c["G"][j] @ G[j] / (G[j] @ G[j]) for j in range(n)])
    t = np.array([c["BT"][j] @ BT[j] / (BT[j] @ BT[j]) for j in range(n)])
    ok = (np.allclose(c["G"], s[:, None] * G, rtol=0, atol=1e-12) and
          np.allclose(c["BT"], t[:, None] * BT, rtol=0, atol=1e-12) and
          np.allclose(c["AT"], AT / (s * t), rtol=0, atol=1e-12))
    AT, G, BT = c["AT"], c["G"], c["BT"]
    for _ in range(100):
        d, g = rng.standard_normal(n), rng.standard_normal(3)
        y = AT @ ((G @ g) * (BT @ d))
        ok &= np.allclose(y, np.correlate(d, g, "valid"), rtol=0, atol=1e-12)
        d2, g2 = rng.standard_normal((n, n)), rng.standard_normal((3, 3))
        Y = AT @ ((G @ g2 @ G.T) * (BT @ d2 @ BT.T)) @ AT.T
        ok &= np.allclose(Y, correlate2d(d2, g2), rtol=0, atol=1e-12)
    print(f"F({m}x{m}, 3x3) points {POINTS[m]}: {'ok' if ok else 'MISMATCH'}, "
          f"G scaled by {s}, B^T by {t} from the derived")
    for name, v in (("A^T", AT), ("G", G), ("B^T", BT)):
        print(f"{name} =\n{np.array2string(v, precision=6, suppress_small=True)}")
    return ok


def main():
    rng = np.random.default_rng(43)
    ok = all([check(m, rng) for m in sorted(POINTS)])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
