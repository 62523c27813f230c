"""Forward dynamics of one state: rfda_teach against its peers, in one run on one machine.

Run:  python benchmarks/peers.py [--repeat 200] [--table-only]

First a table (issue 16) on Talos (free-flyer, 33 bodies), a 6-dof arm (UR5) and a quadruped (Solo-12,
free-flyer): every library is given the same model and the same (q, v, tau), and the script first checks
that they all return the same q-ddot (pinocchio.aba, MuJoCo's mj_forward on ``interop.to_mjcf`` with contacts
off, the package's compiled path and its readable Featherstone form).  Then, best of ``repeat`` rounds
in which the libraries take turns (batches of about 0.5 ms), each time as a ratio to pinocchio.aba
(the readable form timed apart, as a median):

* ``fast, end to end``: ``interop.forward_dynamics(robot, q, v, tau, form="fast")``, Pinocchio's (q, v, tau)
  in, q-ddot out, input checks included (targets: within 20x on Talos, 10x on the arm);
* ``fast, core only``: ``fastpath.joint_accelerations`` on the package's absolute state (the conversion
  from (q, v) done beforehand);
* ``readable Featherstone``: ``interop.forward_dynamics(..., form="featherstone")``, the specification;
* ``mujoco.mj_forward``: MuJoCo's whole forward pass (kinematics, mass matrix, factorisation) on the state
  already in ``MjData``.

Then the older comparisons: UR5 in Modern Robotics' format against modern_robotics.ForwardDynamics,
the Puma 560 of the Robotics Toolbox (standard DH, motor inertia and friction switched off), and Talos and
Baxter bolted to the ground (forests).  Peers that are not installed are reported and skipped
(``pip install mujoco roboticstoolbox-python modern_robotics``).  Not a test.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rfda_teach import dae, fastpath, interop, rfda


def interleaved(fns, rounds):
    """Best (like ``timeit``) over ``rounds`` of the mean time of a batch of calls lasting about 0.5 ms, the
    functions taking turns in every round: the machine's other load (shared cores) hits every library
    alike, and short batches are rarely preempted, so the ratios stay fair."""
    batch = {}
    for k, fn in fns.items():
        for _ in range(3):
            fn()
        t0 = time.perf_counter()
        fn()
        batch[k] = max(1, int(5e-4 / max(time.perf_counter() - t0, 1e-7)))
    ts = {k: [] for k in fns}
    for _ in range(rounds):
        for k, fn in fns.items():
            n = batch[k]
            t0 = time.perf_counter()
            for _ in range(n):
                fn()
            ts[k].append((time.perf_counter() - t0) / n)
    return {k: float(np.min(v)) for k, v in ts.items()}


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
        out["rfda_teach fast path, core"] = median(
            lambda: fastpath.joint_accelerations(fm, state.y, state.yd, tau_ours), repeat * 10)
        out["rfda_teach fast, end to end"] = median(lambda: interop.forward_dynamics(robot, q, v, tau, form="fast"),
                                                    repeat * 10)
    out["(q, v) -> absolute state"] = median(lambda: interop.to_state(robot, q, v), repeat)
    return out


def _tau_ours(robot, q, v, tau):
    T = interop._speed_maps(robot, interop._kinematics(robot, q, v)[1])
    model = robot.pin_model
    return np.concatenate([Ti @ tau[model.idx_vs[i]:model.idx_vs[i] + model.nvs[i]]
                           for i, Ti in zip(range(1, model.njoints), T)])


def table(repeat):
    """The issue-16 table: ratios to pinocchio.aba, end to end and core only, after an agreement check."""
    import pinocchio as pin
    try:
        import mujoco
    except ImportError:
        mujoco = None
        print("mujoco is not installed: its column is skipped (pip install mujoco)")
    robots = [("Talos, free-flyer", "talos"), ("UR5, 6-dof arm", "ur5"), ("Solo-12 quadruped, free-flyer", "solo12")]
    cols = ["pinocchio.aba", "mujoco.mj_forward", "fast, end to end", "fast, core only", "readable Featherstone"]
    results = []
    for title, name in robots:
        robot = interop.example_robot(name)
        q, v, tau = interop.random_state(robot, seed=0)
        model, data = robot.pin_model, robot.pin_model.createData()
        a_pin = pin.aba(model, data, q, v, tau)
        acc = {"fast": interop.forward_dynamics(robot, q, v, tau, form="fast"),
               "featherstone": interop.forward_dynamics(robot, q, v, tau, form="featherstone")}
        fns = {"pinocchio.aba": lambda: pin.aba(model, data, q, v, tau)}
        if mujoco is not None:
            mj = mujoco.MjModel.from_xml_string(interop.to_mjcf(robot))
            md = mujoco.MjData(mj)
            md.qpos[:], md.qvel[:] = interop._to_mujoco_state(robot, mj, q, v)
            md.qfrc_applied[:] = interop._to_mujoco_state(robot, mj, q, tau)[1]
            mujoco.mj_forward(mj, md)
            acc["mujoco"] = interop._from_mujoco_state(robot, mj, md.qpos, md.qvel, md.qacc)[2]
            fns["mujoco.mj_forward"] = lambda: mujoco.mj_forward(mj, md)
        for k, a in acc.items():
            err = np.linalg.norm(a - a_pin) / np.linalg.norm(a_pin)
            assert err < 1e-9, f"{name}: {k} disagrees with pinocchio.aba by {err:.2e}: not the same model"
        worst = max(np.linalg.norm(a - a_pin) / np.linalg.norm(a_pin) for a in acc.values())
        state, tau_o = interop.to_state(robot, q, v), _tau_ours(robot, q, v, tau)
        fm = interop._fast_model(robot)
        fns["fast, end to end"] = lambda: interop.forward_dynamics(robot, q, v, tau, form="fast")
        fns["fast, core only"] = lambda: fastpath.joint_accelerations(fm, state.y, state.yd, tau_o)
        times = interleaved(fns, rounds=max(10, repeat))
        times["readable Featherstone"] = median(            # apart: its ms of Python would evict the others' caches
            lambda: interop.forward_dynamics(robot, q, v, tau, form="featherstone"), max(10, repeat // 10))
        results.append((f"{title} ({robot.n} bodies, nv={model.nv})", times, worst))
    print("\n== q-ddot of one state: time (us) and ratio to pinocchio.aba; every library checked equal first ==")
    print(f"  {'robot':<50}" + "".join(f"{c:>24}" for c in cols) + "   max rel. diff")
    for title, times, worst in results:
        base = times["pinocchio.aba"]
        cells = "".join(f"{'-':>24}" if c not in times else
                        f"{times[c] * 1e6:>12.1f} us {times[c] / base:>7.1f}x" for c in cols)
        print(f"  {title:<50}{cells}   {worst:.1e}")
    print("  targets: fast end to end within 20x of pinocchio.aba on Talos, within 10x on the 6-dof arm")
    return results


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
    ap.add_argument("--table-only", action="store_true", help="only the issue-16 table")
    args = ap.parse_args(argv)
    import pinocchio as pin
    rng = np.random.default_rng(0)
    print(f"fast path (numba): {'available' if fastpath.available() else 'not installed'}")
    table(args.repeat)
    if args.table_only:
        return

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
    print("\nTargets: faster than roboticstoolbox-python and >= 50x faster than Modern Robotics on a 6-dof arm.")


if __name__ == "__main__":
    main()
