"""Table 5 of Kang & Yoon for our implementation: the chassis-fixed quarter car at three analysis
reference points (centroid, joint point, instant global origin).

Run:  python benchmarks/refpoint.py [--repeat 2000]

Prints the median time of one forward-dynamics evaluation (no stabilisation, and without the entry check
of loop closure, ``check=False``, which is the same for every point), the ratio to the
centroid, the counted scalar multiplications and their ratio, and the counts per step.  A second
table does the same for serial chains of n spherical-jointed links closed by one cut joint, where
every body but the first has a moving lower body.  Not a test: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rfda_teach import refpoint as rp


def median_time(model, q, qd, point, repeat):
    """Median over ``repeat`` calls, after 20 warm-up calls."""
    for _ in range(20):
        rp.solve(model, q, qd, point, check=False)
    ts = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        rp.solve(model, q, qd, point, check=False)
        ts.append(time.perf_counter() - t0)
    return float(np.median(ts))


def interleaved_times(model, q, qd, points, repeat, rounds=5):
    """Median time per point, measured in interleaved rounds so that drift of the machine's speed
    affects every point alike."""
    per = {p: [] for p in points}
    for _ in range(rounds):
        for p in points:
            per[p].append(median_time(model, q, qd, p, max(1, repeat // rounds)))
    return {p: float(np.median(v)) for p, v in per.items()}


def chain(n):
    """n links with spherical joints, the last one tied back to the chassis by a distance constraint."""
    E = np.eye(3)
    bodies = tuple(rp.RBody(f"link {j}", j - 1, np.array([0.0, 0, -0.5]) if j else np.zeros(3), E, "xyz", 1.0,
                            np.array([0, 0, -0.25]), np.diag([0.02, 0.02, 0.005])) for j in range(n))
    q0 = np.zeros(3 * n)
    m0 = rp.Model(bodies, (), (), np.array([0, 0, -9.81]), q0)
    tip = rp.kinematics(m0, q0, np.zeros(3 * n)).r[n - 1] + np.array([0, 0, -0.5])
    cut = rp.CutJoint("ss", -1, n - 1, pa=np.array([0.3, 0.0, tip[2]]), pb=np.array([0, 0, -0.5]),
                      length=0.3)
    return rp.Model(bodies, (cut,), (), np.array([0, 0, -9.81]), q0)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=2000)
    args = ap.parse_args(argv)
    car = rp.quarter_car()
    rng = np.random.default_rng(0)
    q = car.q0.copy()
    q[0] = 0.05
    q = rp.assemble(car, q, fixed=[0])
    qd = rp.consistent_velocity(car, q, rng.normal(size=car.nq))
    print("== chassis-fixed quarter car (10 joint coordinates, m = 9) ==")
    print(f"{'point':>9} {'time [ms]':>10} {'ratio':>7} {'multiplications':>16} {'ratio':>7}")
    base_t = base_c = None
    times = interleaved_times(car, q, qd, rp.POINTS, args.repeat)
    for p in rp.POINTS:
        t = times[p]
        c = rp.count_multiplications(car, p, q=q, qd=qd)
        base_t, base_c = (t, c) if base_t is None else (base_t, base_c)
        print(f"{p:>9} {t * 1e3:>10.3f} {t / base_t:>7.1%} {c:>16d} {c / base_c:>7.1%}")
    print("  paper (Table 5): centroid 0.50 ms, instant global origin 0.43 ms, ratio 86 %")
    print("\nmultiplications per step:")
    steps = {p: rp.count_multiplications(car, p, q=q, qd=qd, by_step=True) for p in rp.POINTS}
    for s in steps["centroid"]:
        print(f"  {s:>26}: " + "  ".join(f"{p} {steps[p].get(s, 0):>5d}" for p in rp.POINTS))
    print("\n== serial chains of spherical links, one cut joint ==")
    print(f"{'n':>4} " + " ".join(f"{p + ' mult':>15}" for p in rp.POINTS) + f" {'IGO/centroid':>13} {'time IGO/centroid':>18}")
    for n in (2, 4, 8, 16, 32):
        m = chain(n)
        qq = rp.assemble(m, m.q0 + 0.05 * rng.normal(size=m.nq), fixed=[0])
        qqd = rp.consistent_velocity(m, qq, rng.normal(size=m.nq))
        cs = [rp.count_multiplications(m, p, q=qq, qd=qqd) for p in rp.POINTS]
        tt = interleaved_times(m, qq, qqd, ("centroid", "origin"), max(50, args.repeat // n))
        ts = [tt["centroid"], tt["origin"]]
        print(f"{n:>4} " + " ".join(f"{c:>15d}" for c in cs) + f" {cs[2] / cs[0]:>13.1%} {ts[1] / ts[0]:>18.1%}")
    print("\nA counted ratio and a timed ratio differ in Python: each numpy call costs about a microsecond")
    print("whatever its size, so time follows the number of calls more than the number of multiplications.")


if __name__ == "__main__":
    main()
