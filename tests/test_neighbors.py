"""NeighborIndex and NeighborPairs agree with a brute-force O(n²) reference."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import short_and_long
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from arcade_steering import neighbors
from arcade_steering.neighbors import NeighborIndex, NeighborPairs, _cells
from arcade_steering.neighbors import index as index_module
from arcade_steering.neighbors import radius as radius_module

# --------------------------------------------------------------------------- reference


def brute_pairs(positions, rows, radius, candidates=None):
    """All (query, other) pairs within radius, by comparing every asker with every agent.

    Uses the same float operations as the index (dx*dx + dy*dy <= r*r), so results must be
    bit-identical, including pairs at exactly the radius.
    """
    positions = np.asarray(positions, dtype=float).reshape(-1, 2)
    rows = np.arange(len(positions)) if rows is None else np.asarray(rows, dtype=np.intp)
    radius = np.broadcast_to(np.asarray(radius, dtype=float), (len(rows),))
    dx = positions[None, :, 0] - positions[rows, 0][:, None]
    dy = positions[None, :, 1] - positions[rows, 1][:, None]
    dist2 = dx * dx + dy * dy
    within = dist2 <= (radius * radius)[:, None]
    within &= np.arange(len(positions))[None, :] != rows[:, None]
    if candidates is not None:
        within &= candidates[None, :]
    query, other = np.nonzero(within)
    offset = np.stack([dx[query, other], dy[query, other]], axis=1).reshape(-1, 2)
    return query, other, offset, np.sqrt(dist2[query, other])


def canonical(query, other, offset, distance):
    order = np.lexsort((other, query))
    return query[order], other[order], offset[order], distance[order]


def assert_matches_brute(index, positions, rows, radius, candidates=None):
    pairs = index.query(rows, radius, candidates)
    q = len(positions) if rows is None else len(rows)
    assert pairs.n_queries == q
    assert np.all(np.diff(pairs.query) >= 0), "pairs must be grouped by query"
    got = canonical(pairs.query, pairs.other, pairs.offset, pairs.distance)
    want = canonical(*brute_pairs(positions, rows, radius, candidates))
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])
    np.testing.assert_array_equal(got[2], want[2])
    np.testing.assert_array_equal(got[3], want[3])
    return pairs


# --------------------------------------------------------------------------- data sets


def uniform(rng, n=400, size=500.0):
    return rng.uniform(0.0, size, (n, 2))


def clustered(rng, n=400):
    centres = rng.uniform(-300.0, 300.0, (5, 2))
    return centres[rng.integers(0, 5, n)] + rng.normal(0.0, 4.0, (n, 2))


def coincident(rng, n=50):
    return np.full((n, 2), 123.25)


def negative(rng, n=400):
    return rng.uniform(-1_000_000.0, -999_500.0, (n, 2))


def huge_offset(rng, n=300):
    return 1e12 + rng.uniform(0.0, 400.0, (n, 2))


def lattice(rng, n=400):
    """Integer lattice: many agents at exactly the radius and on cell edges."""
    side = int(np.sqrt(n))
    grid = np.stack(np.meshgrid(np.arange(side), np.arange(side)), axis=-1).reshape(-1, 2)
    return grid * 10.0 - 50.0


def far_apart(rng, n=200):
    """A few agents very far away force cells larger than the radius (key overflow guard).

    1e150, not 1e300: squared distances must stay finite.
    """
    pts = rng.uniform(0.0, 300.0, (n, 2))
    pts[:3] = [[-1e150, 0.0], [1e150, 5.0], [1e150, 1e150]]
    return pts


def sparse_world(rng, n=200):
    """Agents spread so thin that the grid looks cells up by binary search."""
    return rng.uniform(-5e6, 5e6, (n, 2))


DATASETS = [uniform, clustered, coincident, negative, huge_offset, lattice, far_apart, sparse_world]


@pytest.fixture(params=["dense", "sparse", "all-pairs"])
def table(request, monkeypatch):
    """Run a test with the grid's dense cell table, again with binary search over int64 keys,
    and again testing every pair at once (what queries of few agents do)."""
    all_pairs = request.param == "all-pairs"
    monkeypatch.setattr(radius_module, "ALL_PAIRS_MAX", 10**9 if all_pairs else 0)
    if request.param == "sparse":
        monkeypatch.setattr(_cells, "_RADIX_CELLS", 0)
        monkeypatch.setattr(_cells, "_DENSE_CELLS_PER_AGENT", 0)
        monkeypatch.setattr(_cells, "_DENSE_CELLS", 0)
    return request.param


# --------------------------------------------------------------------------- queries


@pytest.mark.parametrize("make", DATASETS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("radius", [0.0, 7.5, 10.0, 40.0, 1e4, np.inf])
def test_all_rows_match_brute_force(make, radius, table):
    positions = make(np.random.default_rng(1))
    assert_matches_brute(NeighborIndex(positions), positions, None, radius)


@pytest.mark.parametrize("make", DATASETS, ids=lambda f: f.__name__)
def test_subset_rows_per_row_radii_and_candidates_match_brute_force(make, table):
    rng = np.random.default_rng(2)
    positions = make(rng)
    n = len(positions)
    rows = rng.integers(0, n, 150)  # repeats allowed
    radius = rng.choice([0.0, 3.0, 10.0, 25.0, 80.0], size=150)
    candidates = rng.random(n) < 0.4
    index = NeighborIndex(positions)
    assert_matches_brute(index, positions, rows, radius)
    assert_matches_brute(index, positions, rows, radius, candidates)
    assert_matches_brute(index, positions, rows, 12.0, candidates)


def brute_group_pairs(positions, rows, radius, labels, asked):
    """Brute-force pairs whose other agent is in the group its asker asks about."""
    query, other, offset, distance = brute_pairs(positions, rows, radius)
    keep = labels[other] == asked[query]
    return query[keep], other[keep], offset[keep], distance[keep]


@pytest.mark.parametrize("make", DATASETS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("cell_size", [None, 4.0])  # 4 px cells: radii span several cells
def test_groups_match_brute_force_within_each_asked_group(make, cell_size, table):
    rng = np.random.default_rng(12)
    positions = make(rng)
    n = len(positions)
    labels = rng.integers(-1, 5, n)  # -1: in no group
    rows = rng.integers(0, n, 150)
    asked = rng.integers(0, 6, 150)  # group 5 has nobody
    index = NeighborIndex(positions, cell_size)
    for radius in (0.0, 12.0, rng.choice([0.0, 3.0, 10.0, 25.0, 80.0], size=150)):
        pairs = index.query(rows, radius, groups=(labels, asked))
        assert np.all(np.diff(pairs.query) >= 0), "pairs must be grouped by query"
        got = canonical(pairs.query, pairs.other, pairs.offset, pairs.distance)
        want = canonical(*brute_group_pairs(positions, rows, radius, labels, asked))
        for got_part, want_part in zip(got, want, strict=True):
            np.testing.assert_array_equal(got_part, want_part)


def test_an_asked_group_without_agents_when_every_agent_has_a_group(table):
    # No agent is unlabelled, and the highest group asked about has none: the per-group
    # grids must still cover it (it ran off the end of the cell table).
    positions = np.random.default_rng(14).uniform(0.0, 100.0, (50, 2))
    labels = np.zeros(50, dtype=np.intp)
    rows, asked = np.array([0, 1, 2]), np.array([1, 0, 3])
    pairs = NeighborIndex(positions).query(rows, 20.0, groups=(labels, asked))
    got = canonical(pairs.query, pairs.other, pairs.offset, pairs.distance)
    want = canonical(*brute_group_pairs(positions, rows, 20.0, labels, asked))
    for got_part, want_part in zip(got, want, strict=True):
        np.testing.assert_array_equal(got_part, want_part)
    assert set(pairs.query.tolist()) <= {1}


def test_groups_keep_crowded_groups_apart():
    # Two squads on one spot: each agent sees only its own squad.
    positions = np.random.default_rng(13).uniform(0.0, 5.0, (40, 2))
    labels = np.repeat([0, 1], 20)
    pairs = NeighborIndex(positions).query(None, 10.0, groups=(labels, labels))
    assert len(pairs) == 2 * 20 * 19
    assert (labels[pairs.other] == labels[pairs.query]).all()


@pytest.mark.parametrize("cell_size", [0.5, 10.0, 33.0, 500.0])
def test_given_cell_size_any_radius(cell_size):
    rng = np.random.default_rng(3)
    positions = clustered(rng)
    index = NeighborIndex(positions, cell_size=cell_size)
    for radius in (0.0, 5.0, 10.0, 33.0, 120.0):
        assert_matches_brute(index, positions, None, radius)


def test_radius_larger_than_the_world_scans_several_cells():
    positions = np.random.default_rng(4).uniform(0.0, 10.0, (40, 2))
    pairs = assert_matches_brute(NeighborIndex(positions), positions, None, 100.0)
    assert len(pairs) == 40 * 39


def test_many_candidates_split_into_blocks(monkeypatch):
    monkeypatch.setattr(radius_module, "_BLOCK", 50)
    rng = np.random.default_rng(5)
    positions = uniform(rng, n=600, size=200.0)
    candidates = rng.random(600) < 0.7
    index = NeighborIndex(positions)
    assert_matches_brute(index, positions, None, 15.0)
    assert_matches_brute(index, positions, rng.integers(0, 600, 300), rng.uniform(0, 30, 300))
    assert_matches_brute(index, positions, None, 15.0, candidates)


def test_dense_crowd_at_default_block_size():
    positions = uniform(np.random.default_rng(6), n=3000, size=300.0)
    pairs = assert_matches_brute(NeighborIndex(positions), positions, None, 20.0)
    assert len(pairs) > 2 * radius_module._BLOCK


def test_batch_equals_one_by_one_in_the_same_order():
    """A batch's pairs for an agent equal, in order, that agent queried alone."""
    rng = np.random.default_rng(7)
    positions = clustered(rng, 300)
    index = NeighborIndex(positions)
    batch = index.query(None, 15.0)
    for row in range(0, 300, 17):
        alone = index.query(np.array([row]), 15.0)
        mine = batch.query == row
        np.testing.assert_array_equal(alone.other, batch.other[mine])
        np.testing.assert_array_equal(alone.offset, batch.offset[mine])


def test_coincident_agents_are_neighbours_at_distance_zero_but_not_themselves():
    index = NeighborIndex(np.zeros((3, 2)))
    pairs = index.query(np.array([0, 1, 2]), 0.0)
    assert pairs.count().tolist() == [2, 2, 2]
    assert np.all(pairs.distance == 0.0)
    assert np.all(pairs.other != np.array([0, 1, 2])[pairs.query])


def test_n_zero_and_one():
    empty = NeighborIndex(np.empty((0, 2)))
    assert len(empty) == 0
    pairs = empty.query(None, 10.0)
    assert len(pairs) == 0 and pairs.n_queries == 0
    assert empty.query(np.array([], dtype=int), 10.0, np.zeros(0, bool)).count().shape == (0,)
    assert len(NeighborIndex([]).query([], 5.0)) == 0

    one = NeighborIndex(np.array([[5.0, -5.0]]))
    pairs = one.query(None, np.inf)
    assert len(pairs) == 0 and pairs.count().tolist() == [0]
    assert pairs.sum(np.empty((0, 2))).shape == (1, 2)
    assert pairs.argmin(np.empty(0)).tolist() == [-1]


def test_q_zero_on_a_populated_index():
    index = NeighborIndex(uniform(np.random.default_rng(8), 20))
    pairs = index.query(np.array([], dtype=np.intp), np.array([]))
    assert pairs.n_queries == 0 and len(pairs) == 0
    assert pairs.sum(np.empty(0)).shape == (0,)


def test_index_copies_positions_and_exposes_them_read_only():
    positions = np.array([[0.0, 0.0], [1.0, 0.0]])
    index = NeighborIndex(positions)
    positions[1] = 100.0
    assert len(index.query(None, 2.0)) == 2
    assert not index.positions.flags.writeable
    np.testing.assert_array_equal(index.positions, [[0.0, 0.0], [1.0, 0.0]])


@pytest.mark.parametrize(
    ("positions", "cell_size"),
    [
        (np.zeros((3, 3)), None),
        (np.zeros(4), None),
        (np.array([[0.0, np.nan]]), None),
        (np.array([[0.0, np.inf]]), None),
        (np.array([[-1e308, 0.0], [1e308, 0.0]]), None),
        (np.zeros((2, 2)), 0.0),
        (np.zeros((2, 2)), -1.0),
        (np.zeros((2, 2)), np.nan),
        (np.zeros((2, 2)), np.inf),
    ],
)
def test_bad_index_arguments_raise(positions, cell_size):
    with pytest.raises(ValueError):
        NeighborIndex(positions, cell_size)


def test_bad_query_arguments_raise():
    index = NeighborIndex(np.zeros((4, 2)))
    with pytest.raises(TypeError, match="rows"):
        index.query(np.array([0.0, 1.0]), 1.0)
    with pytest.raises(TypeError, match="rows"):
        index.query(np.array([True, False, True, True]), 1.0)
    with pytest.raises(ValueError, match="rows"):
        index.query(np.array([0, 4]), 1.0)
    with pytest.raises(ValueError, match="rows"):
        index.query(np.array([-1]), 1.0)
    with pytest.raises(ValueError, match="rows"):
        index.query(np.array([[0, 1]]), 1.0)
    for radius in (-1.0, np.nan, np.array([1.0, np.nan]), np.array([1.0, -2.0])):
        with pytest.raises(ValueError, match="radius"):
            index.query(np.array([0, 1]), radius)
    with pytest.raises(ValueError, match="radius"):
        index.query(np.array([0, 1]), np.array([1.0, 2.0, 3.0]))
    with pytest.raises(TypeError, match="candidates"):
        index.query(None, 1.0, np.ones(4, dtype=int))
    with pytest.raises(ValueError, match="candidates"):
        index.query(None, 1.0, np.ones(3, dtype=bool))
    labels = np.zeros(4, dtype=int)
    with pytest.raises(TypeError, match="groups"):
        index.query(None, 1.0, groups=(labels.astype(float), labels))
    with pytest.raises(ValueError, match="groups"):
        index.query(None, 1.0, groups=(labels[:3], labels))
    with pytest.raises(ValueError, match="groups"):
        index.query(np.array([0, 1]), 1.0, groups=(labels, np.array([0, -1])))


# --------------------------------------------------------------------------- nearest


#: Distances (px) below which nearest() may keep neighbours in any order (see below).
_SUBNORMAL_TIES = 2e-161


def assert_nearest_matches_brute(index, positions, rows, k, radius=np.inf, candidates=None, **kw):
    """nearest() keeps each asking agent's k nearest of the brute-force pairs, nearest first.

    Distances equal to float rounding may be kept in either order, so they are compared to
    the brute force's k smallest with a relative tolerance; every kept pair must be a real
    pair (other within radius, a candidate, not itself) with the exact offset and distance.
    """
    pairs = index.nearest(rows, k, radius, candidates, **kw)
    positions = np.asarray(positions, dtype=float).reshape(-1, 2)
    q = len(positions) if rows is None else len(rows)
    asking = np.arange(q) if rows is None else np.asarray(rows)
    assert pairs.n_queries == q
    query, other, got = pairs.query, pairs.other, pairs.distance
    assert np.all(np.diff(query) >= 0), "pairs must be grouped by query"
    # The brute force's pairs, each asking agent's nearest first: its first k are the answer.
    bq, _, _, bd = brute_pairs(positions, rows, radius, candidates)
    order = np.lexsort((bd, bq))
    bq, bd = bq[order], bd[order]
    want = np.broadcast_to(k, (q,))
    rank = np.arange(len(bq)) - np.searchsorted(bq, bq)
    best = rank < want[bq]
    np.testing.assert_array_equal(
        np.bincount(query, minlength=q), np.bincount(bq[best], minlength=q)
    )
    # The sort ties squared distances that differ in their lowest 6 bits only: 2^-46 relative,
    # and distances under sqrt(64 * 5e-324) = 1.8e-161 px, where squares are subnormal.
    np.testing.assert_allclose(got, bd[best], rtol=1e-12, atol=_SUBNORMAL_TIES)
    same = query[1:] == query[:-1]
    slack = 1e-12 * got[1:][same] + _SUBNORMAL_TIES
    assert np.all(np.diff(got)[same] >= -slack), "nearest first"
    # Every pair is real: another agent, a candidate, within the radius, offset exact.
    by_other = np.lexsort((other, query))
    assert not np.any(
        (query[by_other][1:] == query[by_other][:-1])
        & (other[by_other][1:] == other[by_other][:-1])
    ), "an agent listed twice for one asking agent"
    assert np.all(other != asking[query])
    if candidates is not None:
        assert np.all(np.asarray(candidates)[other])
    assert np.all(got <= np.broadcast_to(radius, (q,))[query])
    np.testing.assert_array_equal(pairs.offset, positions[other] - positions[asking[query]])
    offset = pairs.offset
    np.testing.assert_array_equal(got, np.sqrt(offset[:, 0] ** 2 + offset[:, 1] ** 2))
    return pairs


@pytest.mark.parametrize("make", DATASETS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("k", [1, 3, 10])
@pytest.mark.parametrize("radius", [0.0, 7.5, 40.0, np.inf])
def test_nearest_matches_brute_force(make, k, radius, table):
    positions = make(np.random.default_rng(1))
    assert_nearest_matches_brute(NeighborIndex(positions), positions, None, k, radius)


@pytest.mark.parametrize("make", DATASETS, ids=lambda f: f.__name__)
def test_nearest_per_row_k_radii_and_candidates(make, table):
    rng = np.random.default_rng(2)
    positions = make(rng)
    n = len(positions)
    rows = rng.integers(0, n, 150)  # repeats allowed
    k = rng.integers(0, 20, 150)
    radius = rng.choice([0.0, 3.0, 10.0, 25.0, 80.0, np.inf], size=150)
    candidates = rng.random(n) < 0.4
    index = NeighborIndex(positions)
    assert_nearest_matches_brute(index, positions, rows, k, radius)
    assert_nearest_matches_brute(index, positions, rows, k, radius, candidates)
    assert_nearest_matches_brute(index, positions, rows, 4, 12.0, candidates)


@pytest.mark.parametrize("guess", [1e-3, 3.0, 1e9, np.inf, np.nan, "mixed"])
def test_nearest_result_does_not_depend_on_the_guess(guess):
    rng = np.random.default_rng(12)
    positions = clustered(rng, 300)
    index = NeighborIndex(positions)
    if guess == "mixed":
        guess = rng.choice([np.nan, 0.0, 2.0, 50.0, np.inf], size=300)
    else:
        guess = np.full(300, guess)
    alone = index.nearest(None, 6, 30.0)
    pairs = assert_nearest_matches_brute(index, positions, None, 6, 30.0, guess=guess)
    np.testing.assert_array_equal(pairs.query, alone.query)
    np.testing.assert_array_equal(pairs.other, alone.other)


def test_nearest_scans_few_agents_in_a_dense_crowd():
    """Cells sized from the crowding: about k agents scanned each, whatever the radius."""
    positions = uniform(np.random.default_rng(13), n=1200, size=190.0)  # 3,000 per 300 px²
    index = NeighborIndex(positions)
    scanned = []
    scan = index._scan

    def spy(grid, rows, *args):
        scanned.append(int(args[4].sum()))  # per_row: agents in each row's cells
        return scan(grid, rows, *args)

    index._scan = spy
    pairs = assert_nearest_matches_brute(index, positions, None, 10, 1e4)
    assert pairs.count().tolist() == [10] * 1200
    assert sum(scanned) < 8 * 10 * 1200  # a 1e4 px radius would scan all 1,200 each


def test_nearest_far_rounds_coarse_cells_blocks_and_wide_rows(monkeypatch):
    """Agents short of k look further, on coarser cells; big blocks split; rows with many
    pairs sort apart: all still exact."""
    monkeypatch.setattr(index_module, "_MAX_REACH", 2)
    monkeypatch.setattr(index_module, "_SORT_WIDTH", 4)
    monkeypatch.setattr(radius_module, "_BLOCK", 64)
    rng = np.random.default_rng(14)
    positions = np.concatenate((clustered(rng, 300), rng.uniform(-5000, 5000, (20, 2))))
    index = NeighborIndex(positions)
    for guess in (None, np.full(320, 0.5), np.full(320, 4000.0)):
        assert_nearest_matches_brute(index, positions, None, 7, np.inf, guess=guess)
        assert_nearest_matches_brute(index, positions, None, 7, 300.0, guess=guess)


def test_nearest_with_k_zero_or_larger_than_everybody():
    positions = uniform(np.random.default_rng(15), n=30)
    index = NeighborIndex(positions)
    assert len(index.nearest(None, 0)) == 0
    assert index.nearest(None, 0).n_queries == 30
    everybody = index.nearest(None, 100)
    assert everybody.count().tolist() == [29] * 30
    assert_nearest_matches_brute(index, positions, None, 100)


def test_nearest_n_zero_and_one():
    empty = NeighborIndex(np.empty((0, 2)))
    pairs = empty.nearest(None, 5)
    assert len(pairs) == 0 and pairs.n_queries == 0
    one = NeighborIndex(np.array([[5.0, -5.0]]))
    pairs = one.nearest(None, 5)
    assert len(pairs) == 0 and pairs.count().tolist() == [0]


def test_coincident_agents_are_each_others_nearest_at_distance_zero():
    index = NeighborIndex(np.array([[1.0, 1.0], [1.0, 1.0], [9.0, 1.0]]))
    pairs = index.nearest(None, 1)
    assert pairs.other.tolist() == [1, 0, 0] or pairs.other.tolist() == [1, 0, 1]
    assert pairs.distance[:2].tolist() == [0.0, 0.0]


def test_bad_nearest_arguments_raise():
    index = NeighborIndex(np.zeros((4, 2)))
    with pytest.raises(TypeError, match="k"):
        index.nearest(None, 2.0)
    with pytest.raises(TypeError, match="k"):
        index.nearest(None, np.array([1.5, 1, 1, 1]))
    with pytest.raises(ValueError, match="k"):
        index.nearest(None, -1)
    with pytest.raises(ValueError, match="k"):
        index.nearest(None, np.array([1, 2]))
    with pytest.raises(ValueError, match="radius"):
        index.nearest(None, 1, np.nan)
    with pytest.raises(ValueError, match="radius"):
        index.nearest(None, 1, -1.0)
    with pytest.raises(ValueError, match="guess"):
        index.nearest(None, 1, guess=np.ones(3))
    with pytest.raises(ValueError, match="rows"):
        index.nearest(np.array([4]), 1)
    with pytest.raises(TypeError, match="candidates"):
        index.nearest(None, 1, candidates=np.ones(4, dtype=int))


@short_and_long("examples", 40, 200)
def test_property_nearest_matches_brute_force(examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(
        positions=hnp.arrays(
            np.float64,
            st.tuples(st.integers(0, 40), st.just(2)),
            elements=st.integers(-40, 40).map(float) | st.floats(-1e6, 1e6),
        ),
        k=st.integers(0, 12),
        radius=st.one_of(st.integers(0, 30).map(float), st.floats(0.0, 1e7), st.just(np.inf)),
        data=st.data(),
    )
    def check(positions, k, radius, data) -> None:
        n = len(positions)
        index = NeighborIndex(positions)
        assert_nearest_matches_brute(index, positions, None, k, radius)
        if n:
            rows = data.draw(
                hnp.arrays(np.intp, st.integers(0, 20), elements=st.integers(0, n - 1))
            )
            candidates = data.draw(hnp.arrays(np.bool_, n))
            guess = data.draw(
                hnp.arrays(np.float64, len(rows), elements=st.floats(0.0, 1e4) | st.just(np.nan))
            )
            assert_nearest_matches_brute(index, positions, rows, k, radius, candidates, guess=guess)

    check()


# --------------------------------------------------------------------------- reductions


@pytest.fixture
def crowd():
    rng = np.random.default_rng(9)
    positions = clustered(rng, 250)
    velocity = rng.normal(0.0, 50.0, (250, 2))
    rows = np.arange(0, 250, 2)
    pairs = NeighborIndex(positions).query(rows, rng.uniform(0.0, 20.0, len(rows)))
    return positions, velocity, rows, pairs


def neighbour_lists(pairs):
    return [np.flatnonzero(pairs.query == i) for i in range(pairs.n_queries)]


def test_count_sum_mean(crowd):
    _, velocity, _, pairs = crowd
    lists = neighbour_lists(pairs)
    assert pairs.count().tolist() == [len(ix) for ix in lists]
    assert (pairs.count() == 0).any() and (pairs.count() > 1).any()

    # Separation: sum of -offset / d², coincident neighbours weighted 0 here.
    safe = np.where(pairs.distance > 0, pairs.distance, np.inf)
    push = -pairs.offset / (safe * safe)[:, None]
    np.testing.assert_allclose(
        pairs.sum(push), [push[ix].sum(axis=0) for ix in lists], rtol=1e-12, atol=1e-15
    )
    np.testing.assert_allclose(
        pairs.sum(pairs.distance), [pairs.distance[ix].sum() for ix in lists], rtol=1e-12
    )
    # Alignment: mean neighbour velocity; cohesion: mean offset to neighbours.
    heading = pairs.mean(velocity[pairs.other], empty=np.nan)
    for i, ix in enumerate(lists):
        if len(ix):
            np.testing.assert_allclose(heading[i], velocity[pairs.other[ix]].mean(axis=0))
        else:
            assert np.isnan(heading[i]).all()
    centre = pairs.mean(pairs.offset)
    assert np.all(centre[pairs.count() == 0] == 0.0)
    np.testing.assert_allclose(pairs.mean(pairs.distance)[pairs.count() == 0], 0.0)


def test_sum_rejects_wrong_shapes(crowd):
    pairs = crowd[3]
    with pytest.raises(ValueError):
        pairs.sum(np.zeros(len(pairs) + 1))
    with pytest.raises(ValueError):
        pairs.sum(np.zeros((len(pairs), 2, 2)))


def test_argmin_picks_smallest_key_skips_nan_and_breaks_ties_first(crowd):
    _, _, _, pairs = crowd
    rng = np.random.default_rng(10)
    keys = rng.choice([0.5, 1.0, 2.0, np.inf, np.nan], size=len(pairs))
    best = pairs.argmin(keys)
    for i, ix in enumerate(neighbour_lists(pairs)):
        ix = ix[~np.isnan(keys[ix])]
        if len(ix) == 0:
            assert best[i] == -1
        else:
            assert best[i] == ix[np.argmin(keys[ix])]  # np.argmin: first of equal minima
            assert pairs.query[best[i]] == i
    with pytest.raises(ValueError):
        pairs.argmin(keys[:-1])


def test_select_keeps_n_queries(crowd):
    pairs = crowd[3]
    mask = pairs.distance < 5.0
    small = pairs.select(mask)
    assert small.n_queries == pairs.n_queries
    np.testing.assert_array_equal(small.other, pairs.other[mask])
    np.testing.assert_array_equal(small.offset, pairs.offset[mask])
    with pytest.raises(ValueError):
        pairs.select(mask[:-1])


# --------------------------------------------------------------------------- field of view


def brute_fov(pairs, headings, fov):
    fov = np.broadcast_to(fov, (pairs.n_queries,))[pairs.query]
    bearing = np.arctan2(pairs.offset[:, 1], pairs.offset[:, 0])
    off_axis = np.abs((bearing - headings[pairs.query] + np.pi) % (2 * np.pi) - np.pi)
    return (np.degrees(off_axis) <= fov / 2) | (pairs.distance == 0) | (fov >= 360)


@pytest.mark.parametrize("fov", [0.0, 45.0, 90.0, 180.0, 270.0, 360.0, 400.0, "per-row"])
def test_within_fov_matches_angle_reference(fov):
    rng = np.random.default_rng(11)
    positions = uniform(rng, 300, 200.0)
    positions[:10] = positions[10]  # some coincident agents
    pairs = NeighborIndex(positions).query(None, 30.0)
    headings = rng.uniform(-np.pi, np.pi, 300)
    if fov == "per-row":
        fov = rng.uniform(0.0, 360.0, 300)
    seen = pairs.within_fov(headings, fov)
    keep = brute_fov(pairs, headings, fov)
    assert seen.n_queries == pairs.n_queries
    np.testing.assert_array_equal(seen.other, pairs.other[keep])
    np.testing.assert_array_equal(seen.query, pairs.query[keep])
    assert (pairs.distance[keep] == 0).any()


def test_within_fov_simple_cone():
    positions = np.array([[0.0, 0.0], [10.0, 1.0], [-10.0, 0.0], [0.0, 10.0], [0.0, 0.0]])
    pairs = NeighborIndex(positions).query(np.array([0]), 20.0)
    ahead = pairs.within_fov(np.array([0.0]), 90.0)  # facing +x, ±45°
    assert sorted(ahead.other.tolist()) == [1, 4]  # 4 is coincident
    up = pairs.within_fov(np.array([np.pi / 2]), 90.0)
    assert sorted(up.other.tolist()) == [3, 4]


def test_within_fov_rejects_bad_arguments(crowd):
    pairs = crowd[3]
    with pytest.raises(ValueError, match="headings"):
        pairs.within_fov(np.zeros(pairs.n_queries + 1), 90.0)
    with pytest.raises(ValueError, match="fov"):
        pairs.within_fov(np.zeros(pairs.n_queries), -1.0)
    with pytest.raises(ValueError, match="fov"):
        pairs.within_fov(np.zeros(pairs.n_queries), np.nan)


# --------------------------------------------------------------------------- properties

coordinates = st.one_of(
    st.integers(-40, 40).map(float),  # lattice points: exact ties at the radius and cell edges
    st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False),
    st.floats(-60.0, 60.0, allow_nan=False, allow_infinity=False),
)


def test_agents_whose_squared_distance_underflows_are_coincident_neighbours():
    positions = np.zeros((5, 2))
    positions[4, 1] = 4.8e-200  # dy * dy underflows to 0: distance 0 <= radius 0
    assert_matches_brute(NeighborIndex(positions), positions, None, 0.0)


@short_and_long("examples", 60, 300)
def test_property_matches_brute_force(examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(
        positions=hnp.arrays(
            np.float64, st.tuples(st.integers(0, 40), st.just(2)), elements=coordinates
        ),
        radius=st.one_of(st.integers(0, 30).map(float), st.floats(0.0, 1e7), st.just(np.inf)),
        cell_size=st.one_of(st.none(), st.floats(0.01, 200.0)),
        data=st.data(),
    )
    def check(positions, radius, cell_size, data) -> None:
        n = len(positions)
        index = NeighborIndex(positions, cell_size)
        assert_matches_brute(index, positions, None, radius)
        if n:
            rows = data.draw(
                hnp.arrays(np.intp, st.integers(0, 20), elements=st.integers(0, n - 1))
            )
            radii = data.draw(
                hnp.arrays(np.float64, len(rows), elements=st.floats(0.0, 100.0) | st.just(np.inf))
            )
            candidates = data.draw(hnp.arrays(np.bool_, n))
            pairs = assert_matches_brute(index, positions, rows, radii, candidates)
            assert np.all(pairs.count() <= candidates.sum())

    check()


# --------------------------------------------------------------------------- docs


def test_docstrings():
    for name in neighbors.__all__:
        assert getattr(neighbors, name).__doc__
    for name in ("count", "sum", "mean", "argmin", "select", "within_fov"):
        assert getattr(NeighborPairs, name).__doc__


def test_nearest_of_coincident_agents_ties_subnormal_distances():
    """Agents 1.6e-162 px apart (their squared distance subnormal) tie with coincident ones:
    each agent's nearest are within 1.8e-161 px of the true ones (found by hypothesis)."""
    positions = np.zeros((30, 2))
    positions[9:17, 1] = 1.0
    positions[17, 1] = 1.57770317e-162
    assert_nearest_matches_brute(NeighborIndex(positions), positions, None, 9, 1.0)
