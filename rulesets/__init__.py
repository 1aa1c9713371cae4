"""Pure-Python rule engines. Nothing in this package imports Django."""
