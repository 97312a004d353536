"""Solvers of a case, by kind: direct (Newmark + contact) and modal."""
