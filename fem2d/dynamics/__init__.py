"""Time integration: direct (Newmark/HHT) and reduced modal dynamics with shocks."""
