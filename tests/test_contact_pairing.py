"""Reuse of a contact pairing (fem2d.contact.pairing): certified reuse gives exactly the search's pairing."""

import dataclasses

import numpy as np
import pytest

import fem2d
from fem2d.contact import pairing
from fem2d.contact.problem import make_zone
from fem2d.contact.search import project
from fem2d.contact.surface import master_surface
from fem2d.mesh.mesh import CellBlock


def line_zone(master_x, kind="seg2", curve=0.0):
    """Two slave nodes above a master chain along y = curve * sin(x) (SEG3 middle nodes on the curve)."""
    mx = np.asarray(master_x, dtype=float)
    slave = np.array([[0.0, 0.5], [1.0, 0.5]])
    master = np.stack([mx, curve * np.sin(mx)], axis=1)
    n_m = len(master)
    if kind == "seg2":
        edges = [[2 + i + 1, 2 + i] for i in range(n_m - 1)]
    else:
        edges = [[2 + i + 2, 2 + i, 2 + i + 1] for i in range(0, n_m - 1, 2)]
    points = np.vstack([slave, master])
    return make_zone(points, CellBlock("seg2", np.array([[0, 1]])), CellBlock(kind, np.array(edges)), mu=0.3)


def assert_same_projection(a, b):
    np.testing.assert_array_equal(a.segment, b.segment)
    np.testing.assert_array_equal(a.outside, b.outside)
    inside = ~a.outside
    for name in ("xi", "gap", "normal", "tangent", "weights"):
        x, y = getattr(a, name)[inside], getattr(b, name)[inside]
        np.testing.assert_allclose(x, y, rtol=0, atol=1e-14, err_msg=name)
    np.testing.assert_array_equal(a.master_nodes[inside], b.master_nodes[inside])


@pytest.mark.parametrize(
    ("kind", "curve", "moving"),
    [("seg2", 0.0, False), ("seg2", 0.05, True), ("seg3", 0.1, False), ("seg3", 0.1, True)],
    ids=["seg2-rigid", "seg2-moving-master", "seg3-curved", "seg3-moving-master"],
)
def test_reused_pairings_are_the_searchs_along_a_random_walk(kind, curve, moving):
    rng = np.random.default_rng(3)
    # very unequal segments: the walkers cross segment ends often, and pass near the long one's ends
    mx = np.concatenate([np.linspace(-1.0, 1.0, 17), [4.0, 4.5], np.linspace(5.0, 8.0, 13)])
    if kind == "seg3" and len(mx) % 2 == 0:
        mx = mx[:-1]
    zone = line_zone(mx, kind, curve)
    surface = master_surface(zone, orientation="left")
    coords = zone.reference.copy()
    points = np.stack([rng.uniform(-1.5, 8.5, 60), rng.uniform(-0.3, 0.6, 60)], axis=1)
    searched = 0
    original = pairing.project

    def counting(surface, coords, points, exclude=None):
        nonlocal searched
        searched += len(points)
        return original(surface, coords, points, exclude)

    pairing.project = counting
    try:
        for _ in range(300):
            points = points + rng.normal(0.0, 0.01, points.shape)
            if moving:
                coords[zone.n_slave :] += rng.normal(0.0, 1e-4, coords[zone.n_slave :].shape)
            assert_same_projection(pairing.pair(surface, coords, points), project(surface, coords, points))
    finally:
        pairing.project = original
    # the certificates held for most points, and failed for some (crossings, points off the master)
    assert 60 < searched < 0.5 * 300 * 60


def test_outside_points_are_always_searched_again():
    zone = line_zone([0.0, 1.0, 2.0])
    surface = master_surface(zone, orientation="left")
    points = np.array([[-0.5, 0.1], [0.5, 0.1]])
    first = pairing.pair(surface, zone.reference, points)
    assert first.outside.tolist() == [True, False]
    # the outside point comes onto the master: the certificate of the first call cannot hold
    moved = pairing.pair(surface, zone.reference, points + [0.6, 0.0])
    assert not moved.outside.any()
    assert_same_projection(moved, project(surface, zone.reference, points + [0.6, 0.0]))


def run_pair(case, overrides, reuse, monkeypatch):
    from fem2d.contact import FORMULATIONS

    for cls in FORMULATIONS.values():  # every formulation's master surface made with this reuse option
        def initial_state(self, zone, _original=cls.initial_state):
            state = _original(self, zone)
            return dataclasses.replace(state, surface=dataclasses.replace(state.surface, reuse=reuse))

        monkeypatch.setattr(cls, "initial_state", initial_state)
    seen = set()
    original = pairing.project

    def recording(*args, **kwargs):
        proj = original(*args, **kwargs)
        seen.add(proj.segment.tobytes())
        return proj

    monkeypatch.setattr(pairing, "project", recording)
    return fem2d.run(case, overrides), seen


@pytest.mark.parametrize(("case", "level"), [("sdnv104a", 2), ("sdnv104d", 1)])
def test_a_block_sliding_across_master_segments_is_the_same_with_and_without_reuse(case, level, monkeypatch):
    # refine 2: 4 master segments of 5 m (refine 1 with QUAD8: 2 SEG3 segments); the block slides 15 m
    overrides = [f"mesh.refine={level}", "time.end=1.8"]
    reused, pairings = run_pair(case, overrides, True, monkeypatch)
    searched, _ = run_pair(case, overrides, False, monkeypatch)
    assert len(pairings) >= 3  # the slave nodes changed segments while sliding
    for key in ("u", "v", "slave_normal_force", "slave_tangential_force", "slave_gap"):
        np.testing.assert_allclose(reused.histories[key], searched.histories[key], rtol=1e-12, atol=1e-12 * 7e4)
    assert reused.timing["newton_iterations"] == searched.timing["newton_iterations"]


@pytest.mark.parametrize("kind", ["seg2", "seg3"])
def test_the_tree_and_all_pairs_searches_agree(kind, monkeypatch):
    from fem2d.contact import search

    rng = np.random.default_rng(5)
    mx = np.concatenate([np.linspace(-1.0, 1.0, 17), [4.0, 4.5], np.linspace(5.0, 8.0, 13)])
    zone = line_zone(mx if kind == "seg2" else mx[:-1], kind, 0.1)
    surface = master_surface(zone, orientation="left")
    points = np.stack([rng.uniform(-1.5, 8.5, 500), rng.uniform(-0.3, 0.6, 500)], axis=1)
    monkeypatch.setattr(search, "ALL_PAIRS", 0)
    monkeypatch.setattr(search, "DENSE_CENTRES", 0)
    tree = project(surface, zone.reference, points)
    monkeypatch.setattr(search, "DENSE_CENTRES", 10**9)  # the tree's queries on all point-centre distances
    assert_same_projection(project(surface, zone.reference, points), tree)
    monkeypatch.setattr(search, "ALL_PAIRS", 10**9)
    assert_same_projection(project(surface, zone.reference, points), tree)
