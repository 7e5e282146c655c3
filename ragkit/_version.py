"""The ragkit version (a module of its own, so that no module imports the package root)."""

__version__ = "0.1.0"
