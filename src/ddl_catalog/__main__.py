"""Allow ``python -m ddl_catalog``."""

from ddl_catalog.entry import main

main()
