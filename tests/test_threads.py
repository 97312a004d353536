"""State lives on the objects of a run: two simulations in two threads of one process
give the same numbers as each run alone (no module-level cache or switch is shared)."""

import threading

import numpy as np

import fem2d

#: Three contact formulations on different meshes (different slave counts, zones and
#: compliances), so any state left in a module would be seen by the other run.
RUNS = [
    ("sdnv104a", ["time.end=0.6", "mesh.refine=1"]),
    ("sdnv104b", ["time.end=0.6"]),
    ("sdnv104c", ["time.end=0.6", "mesh.refine=1", "contact.integration=gauss"]),
]
KEYS = ("u", "v", "slave_normal_force", "slave_tangential_force", "slave_gap")


def test_runs_in_threads_give_the_numbers_of_each_run_alone():
    alone = [fem2d.run(case, overrides) for case, overrides in RUNS]
    together: list = [None] * len(RUNS)
    errors: list = []
    start = threading.Barrier(len(RUNS))

    def work(i: int) -> None:
        try:
            start.wait()
            case, overrides = RUNS[i]
            together[i] = fem2d.run(case, overrides)
        except BaseException as exc:  # reported below, in the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(RUNS))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for a, b in zip(alone, together):
        np.testing.assert_equal(a.quantities, b.quantities)  # NaN where a reported time is past the end
        assert a.timing["newton_iterations"] == b.timing["newton_iterations"]
        for key in KEYS:
            np.testing.assert_array_equal(a.histories[key], b.histories[key])
