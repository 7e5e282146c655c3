"""ragkit's built-in scenario generators. Import as ``ragkit.generators``; each module registers one."""

if __name__ != "ragkit.generators":
    raise ImportError(f"this package must be imported as ragkit.generators (pip install -e .), not as {__name__!r}")

from . import (  # noqa: E402,F401  (each import registers its generator)
    abstract,
    comparison,
    conversational,
    multi_hop,
    noisy_context,
    single_hop,
    unanswerable,
)
