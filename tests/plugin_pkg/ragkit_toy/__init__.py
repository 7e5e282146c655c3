"""A toy ragkit plugin package (used by ragkit's tests and shown in docs/custom_generator.md)."""
