"""The JSON Schemas (package data), their generated fast validators (``_*.py``) and
``validators``, which loads the schemas, validates against them and regenerates ``_*.py``."""
