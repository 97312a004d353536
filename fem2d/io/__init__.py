"""Output: result files (atomic), VTU series, plots, text tables, progress."""
