"""ddl-catalog: the reference catalog of distributed deep learning resources and its toolchain."""

__version__ = "0.1.0"
