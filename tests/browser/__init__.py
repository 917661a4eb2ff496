"""Browser tests of the website (a package, so its conftest does not shadow tests/conftest.py)."""
