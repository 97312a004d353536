"""The case layer: TOML case files, their schema, overrides and references, and
the translation of settings into model objects (the only code that reads settings)."""
