"""Cost of a step with mortar against node-to-segment contact on SDNV104 A (QUAD4, Lagrange).

Per mesh level (``mesh.refine``), one run with each discretization, alternated in one process
(the machine is noisy: the ratio of two runs side by side is the number to read): the march
time per step (``timing.march_s`` over the steps: the steps without the one-time
factorisation), the contact time per step (``timing.contact_s``), Newton iterations per step,
and the mortar/node-to-segment ratios. The finer levels run fewer steps (``time.end``).

    PYTHONPATH=$PWD python benchmarks/contact_discretizations.py
    PYTHONPATH=$PWD python benchmarks/contact_discretizations.py --levels 3 4 --repeat 3
"""

from __future__ import annotations

import argparse

import fem2d

#: time.end per level: the case's 3.5 s at the coarse levels, a slice of the slide at the fine ones
END = {0: None, 1: None, 2: None, 3: 1.0, 4: 0.5, 5: 0.2, 6: 0.1}


def measure(level: int, discretization: str) -> dict[str, float]:
    overrides = {"mesh.refine": level, "contact.discretization": discretization, "time.extrapolate": False}
    if END.get(level) is not None:
        overrides["time.end"] = END[level]
    timing = fem2d.run("sdnv104a", overrides).timing
    steps = timing["steps"]
    return {"dofs": timing["n_dofs"], "slave": timing["n_slave"], "march_ms": 1e3 * timing["march_s"] / steps,
            "contact_ms": 1e3 * timing["contact_s"] / steps, "newton": timing["newton_iterations"] / steps}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[3, 4, 5, 6])
    parser.add_argument("--repeat", type=int, default=2, help="runs of each, the fastest kept")
    args = parser.parse_args()
    print(f"{'level':>5} {'dofs':>6} {'slave':>5}  {'step ms nts':>11} {'mortar':>7} {'ratio':>6}  "
          f"{'contact ms nts':>14} {'mortar':>7} {'ratio':>6}  {'newton/step nts':>15} {'mortar':>7}")
    for level in args.levels:
        best: dict[str, dict[str, float]] = {}
        for _ in range(args.repeat):
            for discretization in ("node_to_segment", "mortar"):
                m = measure(level, discretization)
                if discretization not in best or m["march_ms"] < best[discretization]["march_ms"]:
                    best[discretization] = m
        a, b = best["node_to_segment"], best["mortar"]
        print(f"{level:5d} {a['dofs']:6.0f} {a['slave']:5.0f}  {a['march_ms']:11.2f} {b['march_ms']:7.2f} "
              f"{b['march_ms'] / a['march_ms']:6.2f}  {a['contact_ms']:14.2f} {b['contact_ms']:7.2f} "
              f"{b['contact_ms'] / a['contact_ms']:6.2f}  {a['newton']:15.2f} {b['newton']:7.2f}")


if __name__ == "__main__":
    main()
