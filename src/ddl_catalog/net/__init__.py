"""Everything that talks to the network: the HTTP session, the link checker and enrichment.

Nothing outside this package opens a connection, so builds stay offline.
"""
