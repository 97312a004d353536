"""Many runs: execution on local processes or Dask, sweeps, comparisons,
refinement studies and the validation suite."""

from fem2d.studies.study import compare_specs, grid_specs, refine_specs, run_all, sweep_table

__all__ = ["compare_specs", "grid_specs", "refine_specs", "run_all", "sweep_table"]
