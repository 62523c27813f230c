"""Spring-dampers (rfda_teach.forces) in the one model: force = -grad V, damping = c Ldot, power,
the harmonic oscillator, refused input."""
import dataclasses

import numpy as np
import pytest

from rfda_teach import forces, models, rfda, simulate, spatial, system
from rfda_teach.bodies import Body
from rfda_teach.errors import ConstraintViolationError, ModelError, TopologyError
from rfda_teach.forces import SpringDamper
from rfda_teach.joints import Joint

from conftest import rel, sprung


def _spring_f(sys_, state):
    """The springs' share of f: terms with the force elements minus terms without them (both unchecked)."""
    bare = dataclasses.replace(sys_, forces=())
    return np.concatenate(system.terms(sys_, state, check=False).f) - np.concatenate(
        system.terms(bare, state, check=False).f)


def _displace(sys_, y, i, j, h):
    """y with body i moved by h along its velocity component j: a translation, or a rotation by h about the
    global (spatial) or normal (planar) axis, so that -dV/dh is the generalized force component j."""
    y = y.copy()
    ps = sys_.pos_slices[i]
    if sys_.kind == "spatial" and j >= 3:
        e = y[ps][3:7]
        q = spatial.axis_angle_to_euler_params(np.eye(3)[j - 3], h)
        y[ps.start + 3:ps.stop] = spatial.euler_params_product(q, e)       # R' = Rot(h a) R: global axis a
    else:
        y[ps.start + j] += h
    return y


def _potential_gradient(sys_, st, h=1e-6):
    """dV/dy of the force elements' potential by central differences along every velocity coordinate."""
    grad = np.zeros(sys_.n_vel)
    for i, vs in enumerate(sys_.vel_slices):
        for j in range(vs.stop - vs.start):
            Vp = system.force_potential(sys_, (_displace(sys_, st.y, i, j, h), st.yd), check=False)
            Vm = system.force_potential(sys_, (_displace(sys_, st.y, i, j, -h), st.yd), check=False)
            grad[vs.start + j] = (Vp - Vm) / (2 * h)
    return grad


@pytest.mark.parametrize("kind, seed", [("planar", 0), ("planar", 1), ("spatial", 2), ("spatial", 3),
                                        ("point2", 4)])
def test_generalized_force_is_minus_the_gradient_of_the_potential(kind, seed):
    if kind == "point2":
        base = models.featherstone_sliders()
    else:
        base = models.random_tree(4, kind=kind, seed=seed)
    sys_ = sprung(base, seed, n_springs=4, damping=False)
    st = models.random_state(sys_, seed=seed)
    f = _spring_f(sys_, st)
    grad = _potential_gradient(sys_, st)
    assert np.abs(f).max() > 1e-2                         # the springs do pull
    assert rel(f, -grad) < 1e-7


@pytest.mark.parametrize("kind", ["planar", "spatial"])
def test_damping_force_is_c_times_the_rate_of_length(kind):
    sys_ = models.random_tree(3, kind=kind, seed=5)
    st = models.random_state(sys_, seed=5, speed=2.0)
    el = SpringDamper(2, 0, point_a=np.full(sys_.gravity.shape, 0.3), point_b=np.full(sys_.gravity.shape, -0.2),
                      c=1.7)                              # a pure damper, k = 0
    ends = lambda y, yd: (y[sys_.pos_slices[2]], yd[sys_.vel_slices[2]],     # noqa: E731
                          y[sys_.pos_slices[0]], yd[sys_.vel_slices[0]])
    g = forces.elongation(el, kind, *ends(st.y, st.yd))
    h = 1e-6
    ydot = simulate.position_rate(sys_, st.y, st.yd)
    Lp = forces.elongation(el, kind, *ends(st.y + h * ydot, st.yd), check=False).L
    Lm = forces.elongation(el, kind, *ends(st.y - h * ydot, st.yd), check=False).L
    assert abs(g.Ld - (Lp - Lm) / (2 * h)) < 1e-7 * (1 + abs(g.Ld))
    fa, fb = forces.generalized_forces(el, kind, *ends(st.y, st.yd))
    d = sys_.gravity.shape[0]
    assert np.allclose(fa[:d], 1.7 * g.Ld * g.u, atol=1e-13)           # T u on a, T = c Ldot
    assert np.allclose(fb[:d], -fa[:d], atol=1e-13)
    power = fa @ st.yd[sys_.vel_slices[2]] + fb @ st.yd[sys_.vel_slices[0]]
    assert abs(power - (-1.7 * g.Ld ** 2)) < 1e-12 * (1 + g.Ld ** 2)   # a damper only dissipates


def test_a_body_on_a_spring_is_a_harmonic_oscillator():
    m, k, L0, A = 2.0, 18.0, 1.0, 0.3                     # omega = sqrt(k / m) = 3 rad/s
    bar = Body("planar", m, 0.1)
    sys_ = system.System((-1,), (bar,), (Joint("free2d"),), (0.0, 0.0), name="oscillator",
                         forces=(SpringDamper(0, -1, point_a=[0.0, 0.0], k=k, L0=L0),))
    st = system.State(np.array([L0 + A, 0.0, 0.0]), np.zeros(3))
    t = np.linspace(0.0, 2.0, 21)
    traj = simulate.simulate(sys_, st, 2.0, t_eval=t)
    w = np.sqrt(k / m)
    assert np.abs(traj.y[:, 0] - (L0 + A * np.cos(w * t))).max() < 1e-8
    assert np.abs(traj.yd[:, 0] + A * w * np.sin(w * t)).max() < 1e-8
    assert np.abs(traj.y[:, 1:]).max() < 1e-12


def test_zero_free_length_spring_at_coincident_points_and_refusal_otherwise():
    bar = Body("planar", 1.0, 0.1)
    st = system.State(np.zeros(3), np.array([1.0, 0.0, 0.0]))
    ok = system.System((-1,), (bar,), (Joint("free2d"),), forces=(SpringDamper(0, -1, k=3.0),))
    assert np.allclose(system.terms(ok, st).f[0], 0.0)   # F = k (P_b - P_a) = 0, no direction needed
    for el in (SpringDamper(0, -1, k=3.0, L0=0.5), SpringDamper(0, -1, c=1.0, name="damper")):
        bad = dataclasses.replace(ok, forces=(el,))
        with pytest.raises(ConstraintViolationError, match=f"{el.name!r}: its two points coincide"):
            rfda.forward_dynamics(bad, st)


def test_bad_elements_are_refused_with_the_element_named():
    with pytest.raises(ModelError, match=r"spring 'spring 0-1': c \(damping, N s/m\) is nan"):
        SpringDamper(0, 1, c=float("nan"))
    with pytest.raises(ModelError, match="L0 .* is -0.5; it must be >= 0"):
        SpringDamper(0, 1, L0=-0.5)
    with pytest.raises(ModelError, match="a and b are both body 2"):
        SpringDamper(2, 2)
    with pytest.raises(ModelError, match="point_a has 2 entries but point_b 3"):
        SpringDamper(0, 1, point_a=[0, 0], point_b=[0, 0, 0])
    tree = models.chain(2)
    with pytest.raises(TopologyError, match=r"forces\[0\] \('spring 5-ground'\) has body a = 5"):
        dataclasses.replace(tree, forces=(SpringDamper(5, -1),))
    with pytest.raises(ModelError, match="3-entry points but the bodies are planar"):
        dataclasses.replace(tree, forces=(SpringDamper(0, -1, point_a=[0, 0, 1.0]),))
    with pytest.raises(ModelError, match="wrap a single element as forces=\\(element,\\)"):
        dataclasses.replace(tree, forces=SpringDamper(0, -1))


# ----------------------------------------------------------------------------- the tyre (Kang & Yoon's quarter car)

def _tyred(kind, seed, point):
    """A random tree with a tyre on its last body, the road raised so that the tyre is in contact."""
    base = models.random_tree(3, kind=kind, seed=seed)
    st = models.random_state(base, seed=seed)
    d = base.gravity.shape[0]
    ty = forces.Tyre(2, point=point, k=500.0, radius=0.4)
    y2 = st.y[base.pos_slices[2]]
    from rfda_teach.bodies import rotation
    height = y2[d - 1] + (rotation(kind, y2) @ (np.zeros(d) if point is None else np.asarray(point)))[-1]
    ty = dataclasses.replace(ty, road=lambda t: height - 0.25 + 0.0 * t)   # 0.15 m of penetration
    return dataclasses.replace(base, forces=(ty,)), st


@pytest.mark.parametrize("kind, seed, point", [("planar", 0, [0.2, -0.1]), ("spatial", 1, None),
                                               ("spatial", 2, [0.1, -0.3, 0.2])])
def test_tyre_force_is_minus_the_gradient_of_its_potential(kind, seed, point):
    sys_, st = _tyred(kind, seed, point)
    f = _spring_f(sys_, st)
    grad = _potential_gradient(sys_, st)
    d = sys_.gravity.shape[0]
    fa = f[sys_.vel_slices[2]]
    assert abs(fa[d - 1] - 500.0 * 0.15) < 1e-9 and np.abs(fa[:d - 1]).max() < 1e-12   # k (r - h), upwards
    assert rel(f, -grad) < 1e-7


def test_tyre_off_the_road_and_road_height_in_time():
    ty = forces.Tyre(0, k=1000.0, radius=0.3, road=lambda t: 0.1 * t)
    y = np.array([0.0, 0.0, 0.35, 1.0, 0.0, 0.0, 0.0])
    fa, fb = forces.generalized_forces(ty, "spatial", y, np.zeros(6), None, None)           # 5 cm above: no force
    assert fb is None and not np.any(fa) and forces.potential(ty, "spatial", y, None) == 0.0
    fa, _ = forces.generalized_forces(ty, "spatial", y, np.zeros(6), None, None, t=1.0)    # road at 0.1: 5 cm in
    assert np.allclose(fa, [0, 0, 50.0, 0, 0, 0], atol=1e-12)
    assert abs(forces.potential(ty, "spatial", y, None, t=1.0) - 0.5 * 1000.0 * 0.05 ** 2) < 1e-12


def test_tyre_in_the_system_energy_and_the_dae():
    # a ball on a tyre over a flat road, no damping: simulate.energy (kinetic + gravity + tyre) is conserved
    ball = Body("spatial", 2.0, np.diag([0.1, 0.1, 0.1]))
    sys_ = system.System((-1,), (ball,), (Joint("free"),), (0.0, 0.0, -9.81), name="bouncing ball",
                         forces=(forces.Tyre(0, k=2000.0, radius=0.3),))
    st = system.State(np.array([0.0, 0.0, 0.29, 1.0, 0.0, 0.0, 0.0]), np.array([0.0, 0.0, -0.5, 0.0, 0.0, 0.0]))
    assert "tyre 0 (k 2000, radius 0.3, flat road)" in sys_._repr_html_()
    from rfda_teach import dae
    assert abs(dae.forward_dynamics(sys_, st).ydd[2] - (2000.0 * 0.01 / 2.0 - 9.81)) < 1e-12
    assert rel(rfda.forward_dynamics(sys_, st).ydd, dae.forward_dynamics(sys_, st).ydd) < 1e-12
    traj = simulate.simulate(sys_, st, 0.2, t_eval=[0.0, 0.1, 0.2], rtol=1e-10, atol=1e-12)
    E = [simulate.energy(sys_, (y, yd)) for y, yd in zip(traj.y, traj.yd)]
    assert max(E) - min(E) < 1e-7 * abs(E[0])
