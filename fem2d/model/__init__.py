"""The model: the assembled System (K, M, C, loads, supports, initial state) and time functions."""
