"""ragkit's built-in metrics. Import as ``ragkit.metrics``; each module registers its metric."""

if __name__ != "ragkit.metrics":
    raise ImportError(
        f"this package must be imported as ragkit.metrics (pip install -e .), not as {__name__!r}"
    )
