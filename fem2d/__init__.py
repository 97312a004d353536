"""fem2d: 2D finite-element contact dynamics, validated against code_aster's SDNV104, SDND104 and SDND101.

    >>> import fem2d
    >>> result = fem2d.run("sdnv104a", {"time.dt": 0.005})
    >>> result.quantities["x_at_1.70"], result.passed
"""

__version__ = "0.1.0"

__all__ = ["Result", "__version__", "load_case", "run"]


def __getattr__(name: str):
    # lazy: `import fem2d` stays cheap for the CLI's --help and for workers
    if name in ("run", "Result"):
        from fem2d.runs import result as runner

        return getattr(runner, name)
    if name == "load_case":
        from fem2d.case.loading import load_case

        return load_case
    raise AttributeError(f"module 'fem2d' has no attribute {name!r}")
