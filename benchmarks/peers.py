"""Forward dynamics of one state: rfda_teach against its peers, in one run on one machine.

Run:  python benchmarks/peers.py [--repeat 200]

Models (every library gets the same masses, inertias and geometry, and the script first checks that
all of them return the same accelerations):

* UR5 in Modern Robotics' format (Lynch & Park's parameters) for rfda_teach (Lubich, Featherstone,
  dense eq. (7), compiled fast path), pinocchio.aba and modern_robotics.ForwardDynamics;
* Puma 560 of the Robotics Toolbox (standard DH, motor inertia and friction switched off) for
  rfda_teach, pinocchio.aba and roboticstoolbox-python's ``accel``;
* Talos (example-robot-data) for rfda_teach against pinocchio.aba, and Talos and Baxter bolted to the
  ground (several bodies on the ground: a forest).

Peers that are not installed are reported and skipped (``pip install roboticstoolbox-python
modern_robotics``).  Medians of ``repeat`` calls after warm-up; ratios are rfda_teach / peer.
The package's own timings are for the core call on the package's absolute state (converting
Pinocchio's (q, v) costs extra and is reported on its own).  Not a test.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rfda_teach import dae, fastpath, interop, rfda


def median(fn, repeat):
    for _ in range(5):
        fn()
    ts = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return float(np.median(ts))


def ours(robot, q, v, tau, repeat, label):
    """Times of the package on a robot; returns dict name -> seconds and checks agreement."""
    state = interop.to_state(robot, q, v)
    T = interop._speed_maps(robot, interop._kinematics(robot, q, v)[1])
    model = robot.pin_model
    tau_ours = np.concatenate([Ti @ tau[model.idx_vs[i]:model.idx_vs[i] + model.nvs[i]]
                               for i, Ti in zip(range(1, model.njoints), T)])
    out = {
        "rfda_teach Lubich": median(lambda: rfda.forward_dynamics(robot, state, form="lubich", tau=tau_ours), repeat),
        "rfda_teach Featherstone": median(lambda: rfda.forward_dynamics(robot, state, form="featherstone", tau=tau_ours), repeat),
        "rfda_teach dense eq. (7)": median(lambda: dae.forward_dynamics(robot, state, tau=tau_ours), repeat),
    }
    if fastpath.available():
        fm = fastpath.compile_model(robot)
        out["rfda_teach fast path"] = median(lambda: fastpath.joint_accelerations(fm, state.y, state.yd, tau_ours), repeat * 10)
    out["(q, v) -> absolute state"] = median(lambda: interop.to_state(robot, q, v), repeat)
    return out


def report(title, rows, peer_names):
    print(f"\n== {title} ==")
    for name, t in rows.items():
        ratios = "  ".join(f"x{t / rows[p]:8.1f} vs {p}" for p in peer_names if p in rows and p != name
                           and not name.startswith("("))
        print(f"  {name:>28}: {t * 1e6:10.1f} us   {ratios}")


def puma_links(rtb_robot):
    return [dict(d=L.d, a=L.a, alpha=L.alpha, offset=L.offset, m=L.m, r=np.asarray(L.r).ravel(),
                 I=np.asarray(L.I)) for L in rtb_robot.links]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=200)
    args = ap.parse_args(argv)
    import pinocchio as pin
    rng = np.random.default_rng(0)
    print(f"fast path (numba): {'available' if fastpath.available() else 'not installed'}")

    # ---------------------------------------------------------------- UR5, Modern Robotics format
    import importlib
    Mlist, Glist, Slist = interop.ur5_screws()
    ur5 = interop.from_screws(Mlist, Glist, Slist)
    q, v, tau = rng.uniform(-1, 1, 6), rng.normal(size=6), rng.normal(size=6)
    data = ur5.pin_model.createData()
    a_pin = pin.aba(ur5.pin_model, data, q, v, tau)
    rows = ours(ur5, q, v, tau, args.repeat, "UR5")
    rows["pinocchio.aba"] = median(lambda: pin.aba(ur5.pin_model, data, q, v, tau), args.repeat * 20)
    assert np.allclose(interop.forward_dynamics(ur5, q, v, tau, form="featherstone"), a_pin, atol=1e-9)
    peers = ["pinocchio.aba"]
    try:
        mr = importlib.import_module("modern_robotics")
        ML = Mlist + [np.eye(4)]
        a_mr = mr.ForwardDynamics(q, v, tau, np.array([0, 0, -9.81]), np.zeros(6), ML, Glist, Slist)
        assert np.allclose(a_mr, a_pin, atol=1e-8), "Modern Robotics disagrees: not the same model"
        rows["modern_robotics.ForwardDynamics"] = median(
            lambda: mr.ForwardDynamics(q, v, tau, np.array([0, 0, -9.81]), np.zeros(6), ML, Glist, Slist),
            max(5, args.repeat // 20))
        peers.append("modern_robotics.ForwardDynamics")
    except ImportError:
        print("modern_robotics is not installed: skipped")
    report("UR5 (6 dof), same model in every library, accelerations checked equal", rows, peers)

    # ---------------------------------------------------------------- Puma 560, Robotics Toolbox
    try:
        rtb = importlib.import_module("roboticstoolbox")
        puma = rtb.models.DH.Puma560()
        for L in puma.links:
            L.Jm, L.B, L.Tc, L.G = 0.0, 0.0, np.zeros(2), 1.0
        # link 1 of the Toolbox's Puma has no mass and inertia about its axis only; every body of the
        # package needs positive mass and inertia, so both libraries get 10 g and 1e-4 kg m^2 there
        L1 = puma.links[0]
        L1.m = 0.01
        L1.I = np.diag([1e-4, 1e-4, max(float(np.asarray(L1.I)[2, 2]), 1e-4)])
        probot = interop.from_dh(puma_links(puma), gravity=(0, 0, -9.81))
        q, v, tau = puma.qn + 0.1 * rng.normal(size=6), rng.normal(size=6), rng.normal(size=6)
        a_rtb = np.asarray(puma.accel(q, v, tau)).ravel()
        a_ours = interop.forward_dynamics(probot, q, v, tau)
        assert np.allclose(a_ours, a_rtb, rtol=1e-6, atol=1e-6), "the Toolbox disagrees: not the same model"
        rows = ours(probot, q, v, tau, args.repeat, "Puma 560")
        pdata = probot.pin_model.createData()
        rows["pinocchio.aba"] = median(lambda: pin.aba(probot.pin_model, pdata, q, v, tau), args.repeat * 20)
        rows["roboticstoolbox accel"] = median(lambda: puma.accel(q, v, tau), args.repeat)
        report("Puma 560 (6 dof), Robotics Toolbox DH model, accelerations checked equal", rows,
               ["pinocchio.aba", "roboticstoolbox accel"])
    except ImportError:
        print("\nroboticstoolbox-python is not installed: the Puma 560 comparison is skipped")

    # ---------------------------------------------------------------- Talos
    talos = interop.example_robot("talos")
    q, v, tau = interop.random_state(talos, seed=0)
    tdata = talos.pin_model.createData()
    assert np.allclose(interop.forward_dynamics(talos, q, v, tau), pin.aba(talos.pin_model, tdata, q, v, tau), atol=1e-8)
    rows = ours(talos, q, v, tau, max(20, args.repeat // 5), "Talos")
    rows["pinocchio.aba"] = median(lambda: pin.aba(talos.pin_model, tdata, q, v, tau), args.repeat * 20)
    report(f"Talos ({talos.n} bodies, {talos.n_dof} speeds)", rows, ["pinocchio.aba"])

    # ---------------------------------------------------------------- several bodies on the ground (a forest)
    for name in ("talos", "baxter"):
        forest = interop.example_robot(name, floating_base=False)
        q, v, tau = interop.random_state(forest, seed=0)
        fdata = forest.pin_model.createData()
        a_pin = pin.aba(forest.pin_model, fdata, q, v, tau)
        for form in ("lubich", "featherstone", "dense", "fast" if fastpath.available() else "featherstone"):
            assert np.allclose(interop.forward_dynamics(forest, q, v, tau, form=form), a_pin, atol=1e-8), form
        rows = ours(forest, q, v, tau, max(20, args.repeat // 5), name)
        rows["pinocchio.aba"] = median(lambda: pin.aba(forest.pin_model, fdata, q, v, tau), args.repeat * 20)
        report(f"{name} bolted to the ground ({len(forest.topology.roots)} roots, {forest.n} bodies)", rows,
               ["pinocchio.aba"])
    print("\nTargets: faster than roboticstoolbox-python and >= 50x faster than Modern Robotics on a 6-dof arm;"
          " within 20x of Pinocchio on Talos.")


if __name__ == "__main__":
    main()
