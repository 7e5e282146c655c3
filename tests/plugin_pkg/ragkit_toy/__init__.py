"""A toy ragkit plugin package: ragkit's tests load it, and docs/custom_*.md quote it."""
