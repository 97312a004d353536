"""Reduced modal dynamics with shocks: modal basis, code_aster's shock law and
integrators (numba kernels), and the exact event-driven integrator."""
