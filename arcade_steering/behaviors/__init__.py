"""Built-in steering behaviours, one family per module."""
