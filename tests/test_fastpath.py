"""The compiled fast path implements the same equations as the readable RFDA."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st_

from rfda_teach import fastpath, models, rfda
from rfda_teach.system import System
from rfda_teach.errors import ModelError

from conftest import rel

pytestmark = pytest.mark.skipif(not fastpath.available(), reason="numba is not installed (extra 'fast')")


@settings(max_examples=25)
@given(st_.integers(1, 30), st_.integers(0, 2 ** 31 - 1))
def test_fast_path_equals_readable_featherstone(n, seed):
    sys_ = models.random_tree(n, kind="spatial", seed=seed)
    s = models.random_state(sys_, seed=seed + 1)
    tau = np.random.default_rng(seed).normal(size=sys_.n_dof)
    fm = fastpath.compile_model(sys_)
    ref = rfda.forward_dynamics(sys_, s, form="featherstone", tau=tau)
    assert rel(fastpath.forward_dynamics(fm, s.y, s.yd, tau), ref.ydd) < 1e-10
    assert rel(fastpath.joint_accelerations(fm, s.y, s.yd, tau), ref.qdd) < 1e-10


def test_fast_path_refuses_universal_joints_by_name():
    with pytest.raises(ModelError, match=r"joint 1 \('joint 0'\) .* universal joint.*form='featherstone'"):
        fastpath.compile_model(System((-1, 0), models.chain(1, "spatial").bodies + models.universal_chain(1).bodies,
                                      models.chain(1, "spatial").joints + models.universal_chain(1).joints))


def test_fast_path_refuses_planar_systems():
    with pytest.raises(ModelError, match="spatial trees"):
        fastpath.compile_model(models.figure1_tree())


def _forest(sizes, seed):
    """Several random spatial trees side by side: a forest, each tree's root on the ground."""
    from rfda_teach.system import System
    parents, bodies, joints = [], [], []
    for k, n in enumerate(sizes):
        t = models.random_tree(n, kind="spatial", seed=seed + k)
        off = len(parents)
        parents += [p + off if p >= 0 else -1 for p in t.parents]
        bodies += list(t.bodies)
        joints += list(t.joints)
    return System(tuple(parents), tuple(bodies), tuple(joints), t.gravity, name="forest")


@settings(max_examples=15)
@given(st_.lists(st_.integers(1, 8), min_size=2, max_size=4), st_.integers(0, 2 ** 31 - 1))
def test_fast_path_on_forests_equals_readable_featherstone(sizes, seed):
    """Several bodies on the ground (a forest): the compiled path follows Topology.order root by root."""
    sys_ = _forest(sizes, seed)
    assert len(sys_.topology.roots) == len(sizes)
    s = models.random_state(sys_, seed=seed + 1)
    tau = np.random.default_rng(seed).normal(size=sys_.n_dof)
    ref = rfda.forward_dynamics(sys_, s, form="featherstone", tau=tau)
    fm = fastpath.compile_model(sys_)
    assert rel(fastpath.forward_dynamics(fm, s.y, s.yd, tau), ref.ydd) < 1e-10
    assert rel(fastpath.joint_accelerations(fm, s.y, s.yd, tau), ref.qdd) < 1e-10


def _bad(what, fn):
    def make(s):
        y, yd, tau = s.y.copy(), s.yd.copy(), np.ones(3)
        args = dict(y=y, yd=yd, tau=tau)
        args[what] = fn(args[what])
        return args
    return make


@pytest.mark.parametrize("make, match", [
    (_bad("y", lambda y: np.r_[np.nan, y[1:]]), r"y\[0\] is nan"),
    (_bad("yd", lambda yd: np.r_[yd[:-1], np.inf]), r"yd\[17\] is inf"),
    (_bad("tau", lambda t: np.r_[t[:-1], np.nan]), r"tau\[2\] is nan"),
    (_bad("y", lambda y: y[:-1]), r"y has shape \(20,\); it must be \(21,\) \(7 entries per body"),
    (_bad("yd", lambda yd: np.r_[yd, 0.0]), r"yd has shape \(19,\); it must be \(18,\)"),
    (_bad("tau", lambda t: t[:2]), r"tau has shape \(2,\); it must be \(3,\)"),
    (_bad("y", lambda y: None), r"y must be an array of numbers, got None"),
    (_bad("yd", lambda yd: "fast"), r"yd must be an array of numbers, got 'fast'"),
    (_bad("tau", lambda t: ["a", "b", "c"]), r"tau must be an array of real numbers"),
    (_bad("y", lambda y: np.r_[y[:10], np.zeros(4), y[14:]]),
     r"body 1: Euler parameters y\[10:14\] have norm 0, not 1 \(tolerance 1e-06\); normalise"),
    (_bad("y", lambda y: np.r_[y[:3], 1.001 * y[3:7], y[7:]]), r"body 0: Euler parameters y\[3:7\] have norm 1.001"),
])
@pytest.mark.parametrize("fn", ["forward_dynamics", "joint_accelerations"])
def test_fast_path_refuses_bad_inputs_before_numba(make, match, fn):
    """Issue 11, item 8: NaN went through, a zero quaternion raised ZeroDivisionError, None a numba TypingError."""
    sys_ = models.chain(3, "spatial")
    s = models.random_state(sys_, seed=0)
    fm = fastpath.compile_model(sys_)
    args = make(s)
    with pytest.raises(ModelError, match=f"fastpath.{fn}: {match}"):
        getattr(fastpath, fn)(fm, **args)


def test_fast_path_refuses_a_non_model():
    s = models.random_state(models.chain(2, "spatial"), seed=0)
    with pytest.raises(ModelError, match="fm must be a FastModel, got System; build it with fastpath.compile_model"):
        fastpath.forward_dynamics(models.chain(2, "spatial"), s.y, s.yd)
    with pytest.raises(ModelError, match="system must be a System, got str"):
        fastpath.compile_model("ur5")
    with pytest.raises(ModelError, match="fastpath.FastModel: parents must be a ndarray"):
        fastpath.FastModel(*([None] * 14))


def test_fast_path_accepts_lists_and_default_tau():
    sys_ = models.chain(3, "spatial")
    s = models.random_state(sys_, seed=0)
    fm = fastpath.compile_model(sys_)
    ref = rfda.forward_dynamics(sys_, s, form="featherstone").qdd
    assert rel(fastpath.joint_accelerations(fm, list(s.y), list(s.yd)), ref) < 1e-12
    assert rel(fastpath.joint_accelerations(fm, s.y.astype(np.float32), s.yd), ref) < 1e-5


@settings(max_examples=60)
@given(st_.sampled_from(["y", "yd", "tau"]), st_.sampled_from(["nan", "inf", "scale", "cut", "grow"]),
       st_.integers(0, 100), st_.floats(0.0, 2.0))
def test_fast_path_never_raises_anything_but_model_error(arg, how, at, factor):
    """Whatever is wrong with an input, the answer is a ModelError naming it or a finite result."""
    sys_ = models.chain(3, "spatial")
    s = models.random_state(sys_, seed=0)
    fm = fastpath.compile_model(sys_)
    args = dict(y=s.y.copy(), yd=s.yd.copy(), tau=np.ones(3))
    x = args[arg]
    i = at % x.size
    if how == "nan":
        x[i] = np.nan
    elif how == "inf":
        x[i] = -np.inf
    elif how == "scale":
        x[i] *= factor
    elif how == "cut":
        args[arg] = x[:i]
    else:
        args[arg] = np.r_[x, np.zeros(i + 1)]
    try:
        out = fastpath.joint_accelerations(fm, **args)
    except ModelError as exc:
        assert arg in str(exc) or "Euler parameters" in str(exc)
    else:
        assert np.isfinite(out).all()
        if arg == "y" and 3 <= i % 7:                          # an Euler parameter changed: within tolerance
            e = args["y"].reshape(3, 7)[i // 7, 3:]
            assert abs(np.linalg.norm(e) - 1) <= 1e-6


def test_each_kernel_is_compiled_once_and_cached_on_disk():
    """Issue 16: the numba compile (seconds) is cached on disk (cache=True) and happens at most once per
    process: lists, float32, strided and read-only inputs are converted to one signature first."""
    from rfda_teach import interop
    sys_ = models.chain(3, "spatial")
    s = models.random_state(sys_, seed=0)
    fm = fastpath.compile_model(sys_)
    y_ro = s.y.copy()
    y_ro.setflags(write=False)
    strided = np.zeros(2 * s.yd.size)
    strided[::2] = s.yd
    for y, yd in [(s.y, s.yd), (list(s.y), s.yd), (s.y.astype(np.float32), s.yd), (y_ro, strided[::2])]:
        fastpath.joint_accelerations(fm, y, yd)
    robot = interop.example_robot("ur5")
    q, v, tau = interop.random_state(robot, seed=0)
    q_ro = q.copy()
    q_ro.setflags(write=False)
    big = np.zeros((6, 2))
    big[:, 0] = v
    for args in [(q, v, tau), (q_ro, big[:, 0], list(tau)), (q.astype(np.float32), v, tau)]:
        interop.forward_dynamics(robot, *args, form="fast")
    for kernel in (fastpath._fd, fastpath._pin_fd_packed):
        assert len(kernel.signatures) == 1, kernel.signatures
        assert type(kernel._cache).__name__ == "FunctionCache"       # numba's on-disk cache is on
        assert sum(kernel.stats.cache_misses.values()) <= 1


def test_a_fast_model_is_read_only():
    """Issue 23: fm.mass[0] = 1e6 used to change every later result without a word."""
    from rfda_teach import fastpath, models
    fm = fastpath.compile_model(models.chain(3, "spatial"))
    for name in ("mass", "Jb", "rows", "parents", "gravity"):
        with pytest.raises(ValueError, match="read-only"):
            getattr(fm, name)[0] = 1.0


def test_fast_path_refuses_force_elements_by_name():
    import dataclasses

    from rfda_teach.forces import SpringDamper
    sys_ = dataclasses.replace(models.chain(2, "spatial"), forces=(SpringDamper(1, -1, k=5.0, name="strut"),))
    with pytest.raises(ModelError, match=r"1 force element\(s\) \(strut\), which the fast path does not compute"):
        fastpath.compile_model(sys_)


def test_compile_model_refuses_cut_joints():
    """The fast path's kernel solves a tree: a system closed by a cut joint is refused (it was
    compiled without the cut's rows and its accelerations silently ignored the loop)."""
    import pytest
    from rfda_teach import models
    from rfda_teach.errors import ModelError
    from rfda_teach.joints import Joint
    from rfda_teach.system import Cut, System
    ch = models.chain(3, "spatial")
    closed = System(ch.parents, ch.bodies, ch.joints, ch.gravity, name="closed chain",
                    cuts=(Cut(2, -1, Joint("spherical", parent_point=[0.5, 0, 0], child_point=[0, 0, 0])),))
    with pytest.raises(ModelError, match="cut joint"):
        fastpath.compile_model(closed)
