"""Back to the Future table companion: rules engines, dice reader and table hardware."""

__version__ = "0.1.0"
