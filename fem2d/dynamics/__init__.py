"""Direct time integration: Newmark-family time schemes, the stepper, contact coupling, histories."""
