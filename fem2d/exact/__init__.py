"""Exact and closed-form reference solutions (the "true values" results are checked against)."""
