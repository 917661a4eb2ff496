"""Allow ``python -m ddl_catalog``."""

from ddl_catalog.cli import main

main()
