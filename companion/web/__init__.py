"""The table's web page: public snapshots, pairing, the aiohttp server, the replay viewer
(docs/web.md)."""
